"""A small loopback fake Discord (aiohttp on 127.0.0.1, a random port) for what simcord does not model:
HTTP 429 with ``retry_after``, a rejected token at login, the real aiohttp client with multipart uploads, and
a real gateway websocket (HELLO, IDENTIFY, READY, heartbeats, INTERACTION_CREATE).

Point discord.py at it with :meth:`FakeDiscord.patch` (``Route.BASE`` and the default gateway). It runs its
own event loop in a thread, so both synchronous tests (``parley run`` calls ``asyncio.run``) and async tests
can use it. REST only covers what the tests need; anything else answers 404 and is recorded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import web

GOOD_TOKEN = "good.token.for-the-fake"
BOT_ID = 4242
APP_ID = 4243


@dataclass
class Request:
    method: str
    path: str
    status: int
    at: float


@dataclass
class FakeDiscord:
    """Records every request; ``rate_limit_next(n, retry_after)`` answers the next n message posts with 429."""

    requests: list[Request] = field(default_factory=list)
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    files: dict[int, list[bytes]] = field(default_factory=dict)
    commands: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    _limited: int = 0
    _retry_after: float = 0.0
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(10_000))
    identified: list[dict[str, Any]] = field(default_factory=list)
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    _sockets: list[web.WebSocketResponse] = field(default_factory=list)
    _seq: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _thread: threading.Thread | None = None

    # -- control ---------------------------------------------------------------------------------------
    def rate_limit_next(self, n: int, retry_after: float) -> None:
        self._limited, self._retry_after = n, retry_after

    def start(self) -> None:
        ready = threading.Event()

        def serve() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self._start())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=serve, name="fake-discord", daemon=True)
        self._thread.start()
        ready.wait(10)

    def stop(self) -> None:
        if self._loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    @contextmanager
    def patch(self) -> Iterator[None]:
        """discord.py talks to this server instead of discord.com while inside the block."""
        base = discord.http.Route.BASE
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gw")
        try:
            yield
        finally:
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event (as a text frame) to every connected shard."""
        assert self._loop is not None

        async def send() -> None:
            for ws in list(self._sockets):
                self._seq += 1
                await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

        asyncio.run_coroutine_threadsafe(send(), self._loop).result(10)

    # -- the server ------------------------------------------------------------------------------------
    async def _start(self) -> None:
        app = web.Application(middlewares=[self._record])
        app.add_routes(
            [
                web.get("/gw", self._gateway),
                web.get("/api/v10/gateway/bot", self._gateway_bot),
                web.post("/api/v10/interactions/{id}/{token}/callback", self._callback),
                web.post("/api/v10/webhooks/{app}/{token}", self._followup),
                web.get("/api/v10/users/@me", self._me),
                web.get("/api/v10/oauth2/applications/@me", self._application),
                web.put("/api/v10/applications/{app}/commands", self._sync),
                web.put("/api/v10/applications/{app}/guilds/{guild}/commands", self._sync),
                web.post("/api/v10/channels/{channel}/messages", self._post_message),
                web.patch("/api/v10/channels/{channel}/messages/{message}", self._edit_message),
            ]
        )
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        # the gateway authenticates in IDENTIFY and webhooks by their token, not by the header
        open_paths = ("/gw", "/api/v10/interactions/", "/api/v10/webhooks/")
        if not request.path.startswith(open_paths) and request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            response: web.StreamResponse = _json({"message": "401: Unauthorized", "code": 0}, status=401)
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = _json({"message": "404: Not Found", "code": 0}, status=404)
        assert self._loop is not None
        self.requests.append(Request(request.method, request.path, response.status, self._loop.time()))
        return response

    # -- the gateway ---------------------------------------------------------------------------------------
    async def _gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": f"ws://127.0.0.1:{self.port}/gw", "shards": 1, "session_start_limit": limit})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for frame in ws:
            message = json.loads(frame.data)
            if message["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
            elif message["op"] == 2:  # identify
                if message["d"].get("token") != GOOD_TOKEN:
                    await ws.close(code=4004)
                    break
                self.identified.append(message["d"])
                self._seq += 1
                ready = {
                    "v": 10,
                    "user": _user(BOT_ID, "parley", bot=True),
                    "guilds": [],
                    "session_id": "fake-session",
                    "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gw",
                    "shard": message["d"].get("shard", [0, 1]),
                    "application": {"id": str(APP_ID), "flags": 0},
                }
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self._seq, "d": ready}))
        self._sockets.remove(ws)
        return ws

    async def _callback(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.callbacks.append(body)
        flags = (body.get("data") or {}).get("flags", 0)
        return _json(
            {
                "interaction": {
                    "id": request.match_info["id"],
                    "type": 2,
                    "activity_instance_id": None,
                    "response_message_id": None,
                    "response_message_loading": body["type"] == 5,
                    "response_message_ephemeral": bool(flags & 64),
                }
            }
        )

    async def _followup(self, request: web.Request) -> web.Response:
        payload, _files = await _read_message(request)
        self.followups.append(payload)
        return _json(_message(next(self._ids), 0, payload))

    # -- REST ------------------------------------------------------------------------------------------
    async def _me(self, request: web.Request) -> web.Response:
        return _json(_user(BOT_ID, "parley", bot=True))

    async def _application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(APP_ID),
                "name": "Parley",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": _user(1, "owner"),
                "team": None,
            }
        )

    async def _sync(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.commands = body
        out = [dict(cmd, id=str(next(self._ids)), application_id=str(APP_ID), version="1") for cmd in body]
        return _json(out)

    async def _post_message(self, request: web.Request) -> web.Response:
        if self._limited > 0:
            self._limited -= 1
            return _json(
                {"message": "You are being rate limited.", "retry_after": self._retry_after, "global": False},
                status=429,
                headers={
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(self._retry_after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(self._retry_after),
                    "X-RateLimit-Bucket": "fake-bucket",
                    "X-RateLimit-Scope": "user",
                },
            )
        payload, files = await _read_message(request)
        message_id = next(self._ids)
        self.messages[message_id] = payload
        self.files[message_id] = files
        return _json(_message(message_id, int(request.match_info["channel"]), payload))

    async def _edit_message(self, request: web.Request) -> web.Response:
        message_id = int(request.match_info["message"])
        if message_id not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        payload, files = await _read_message(request)
        self.messages[message_id].update(payload)
        if files or "attachments" in payload:
            self.files[message_id] = files
        return _json(_message(message_id, int(request.match_info["channel"]), self.messages[message_id]))


def _json(data: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses a body whose Content-Type is exactly application/json (no charset).
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json", **(headers or {})}
    )


async def _read_message(request: web.Request) -> tuple[dict[str, Any], list[bytes]]:
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: list[bytes] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                files.append(bytes(await part.read()))  # type: ignore[union-attr]
        return payload, files
    return await request.json(), []


def _user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
        "flags": 0,
        "public_flags": 0,
    }


def _message(message_id: int, channel_id: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": _user(BOT_ID, "parley", bot=True),
        "content": payload.get("content", ""),
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "components": payload.get("components", []),
        "flags": 0,
    }
