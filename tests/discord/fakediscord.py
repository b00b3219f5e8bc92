"""A small loopback fake Discord (aiohttp on 127.0.0.1, a random port) for what simcord does not model:
HTTP 429 with ``retry_after``, a rejected token at login, the real aiohttp client with multipart uploads, and
a real gateway websocket (HELLO, IDENTIFY, READY, GUILD_CREATE, heartbeats, INTERACTION_CREATE, RESUME and
RESUMED, INVALID_SESSION), which can be closed or dropped mid-game to test reconnects.

Point discord.py at it with :meth:`FakeDiscord.patch` (``Route.BASE`` and the default gateway), or, in a child
process, with :func:`patch_discord` (what ``python -m tests.discord.fakediscord PORT ...`` does before it runs
the real ``parley`` command line). It runs its own event loop in a thread, so both synchronous tests (``parley
run`` calls ``asyncio.run``) and async tests can use it. REST only covers what the tests need; anything else
answers 404 and is recorded.

Interactions are sent as Discord sends them, through the gateway: :meth:`FakeDiscord.slash`,
:meth:`~FakeDiscord.autocomplete`, :meth:`~FakeDiscord.click` and :meth:`~FakeDiscord.select` each return the
interaction's token, and :meth:`~FakeDiscord.answers` lists what the bot answered to it.

Sharding, as Discord does it: ``GET /gateway/bot`` recommends ``shard_count`` shards; each connection IDENTIFYs
with ``shard: [i, n]`` and its READY carries it; a connection is sent only the guilds, GUILD_CREATEs and events
of guilds on its shard (``(guild_id >> 22) % n``), and interactions from DMs arrive at shard 0. Several guilds
(``guilds``, each with one text channel) and several bot processes may share one fake: an interaction builder
given ``where=(guild, channel)`` acts there, and ``where=(DM, user)`` in that user's DM with the bot.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import web

GOOD_TOKEN = "good.token.for-the-fake"
BOT_ID = 4242
APP_ID = 4243
EPHEMERAL = 64  # the message flag of an answer only its caller sees
JOINED = "2026-01-01T00:00:00+00:00"
DM = 0  # ``where=(DM, 0)``: an interaction from the person's DM with the bot
MESSAGE_ID = web.RequestKey("message_id", int)  # set by the message routes for the request log


@dataclass
class Request:
    method: str
    path: str
    status: int
    at: float
    message: int | None = None  # the channel message a post or an edit created or changed


@dataclass(frozen=True)
class Person:
    """A member of the fake guild; a moderator holds Manage Channels (may open and run tables), an admin Manage
    Server (may change /config)."""

    id: int
    name: str
    moderator: bool = False
    admin: bool = False


@dataclass
class _Limit:
    method: str
    channel: int | None
    left: int
    retry_after: float


@dataclass
class FakeDiscord:
    """Records every request. ``rate_limit_next(n, retry_after)`` answers the next n message posts (or, with
    ``method="PATCH"``, message edits) with 429. With ``guild_id`` set, READY lists that guild and a
    GUILD_CREATE with its text channel ``channel_id`` follows, and the interaction builders act in it."""

    guild_id: int | None = None
    channel_id: int = 777
    guilds: dict[int, int] = field(default_factory=dict)  # more guilds: guild id -> its text channel
    shard_count: int = 1  # what GET /gateway/bot recommends
    requests: list[Request] = field(default_factory=list)
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)  # channel and DM posts, edits merged in
    channel_of: dict[int, int] = field(default_factory=dict)  # message id -> channel id
    files: dict[int, list[bytes]] = field(default_factory=dict)
    commands: list[dict[str, Any]] = field(default_factory=list)
    port: int = 0
    identified: list[dict[str, Any]] = field(default_factory=list)
    resumed: list[dict[str, Any]] = field(default_factory=list)  # RESUME payloads answered with RESUMED
    invalidated: int = 0  # RESUMEs answered with INVALID_SESSION
    invalidate_resume: bool = False  # answer the next RESUME with INVALID_SESSION (the client then IDENTIFYs)
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    ephemeral: dict[int, dict[str, Any]] = field(default_factory=dict)  # follow-up messages as the client got them
    dm_channels: dict[int, int] = field(default_factory=dict)  # DM channel id -> user id
    _answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _originals: dict[str, int] = field(default_factory=dict)  # a component interaction's token -> its message
    _limits: list[_Limit] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(10_000))
    _sockets: list[tuple[web.WebSocketResponse, web.Request]] = field(default_factory=list)
    _events: list[tuple[int, str, int | None]] = field(default_factory=list)  # (seq, frame, shard) for RESUME
    _seq: int = 0
    _session: str = ""
    _sessions: dict[str, tuple[int, int]] = field(default_factory=dict)  # session id -> its shard [i, n]
    _shard_of_ws: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(websocket) -> its shard [i, n]
    _where: dict[str, tuple[int, int]] = field(default_factory=dict)  # interaction token -> (guild, channel)
    _loop: asyncio.AbstractEventLoop | None = None
    _runner: web.AppRunner | None = None
    _thread: threading.Thread | None = None

    # -- control ---------------------------------------------------------------------------------------
    def rate_limit_next(self, n: int, retry_after: float, *, method: str = "POST", channel: int | None = None) -> None:
        """Answer the next ``n`` channel-message requests of ``method`` (POST = a post, PATCH = an edit), in
        ``channel`` or any channel, with 429 and ``retry_after``."""
        self._limits.append(_Limit(method, channel, n, retry_after))

    def clear_rate_limits(self) -> None:
        self._limits.clear()

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
        patch_discord(self.port)
        try:
            yield
        finally:
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    def _call(self, coro: Any) -> Any:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    def dispatch(self, event: str, data: dict[str, Any], guild_id: int | None = None) -> None:
        """Send a gateway event (as a text frame) to the connection of the guild's shard (``guild_id`` 0: a DM,
        shard 0), or to every connection. With none connected (the gateway is down) the event waits, as on
        Discord, for a RESUME of that shard to replay it."""

        async def send() -> None:
            self._seq += 1
            text = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
            shard = None if guild_id is None else shard_of(guild_id, self.shard_count)
            self._events.append((self._seq, text, shard))
            for ws, _ in list(self._sockets):
                if shard is not None and self._shard_of_ws.get(id(ws), (0, 1))[0] != shard:
                    continue
                try:
                    await ws.send_str(text)
                except ConnectionError:
                    self._forget(ws)

        self._call(send())

    def all_guilds(self) -> dict[int, int]:
        """Every guild of the fake and its text channel."""
        out = dict(self.guilds)
        if self.guild_id is not None:
            out.setdefault(self.guild_id, self.channel_id)
        return out

    def guild_of(self, channel_id: int) -> int:
        """The guild a channel belongs to (0: a DM channel)."""
        return next((g for g, c in self.all_guilds().items() if c == channel_id), 0)

    @property
    def connected_shards(self) -> list[tuple[int, int]]:
        """The ``[i, n]`` of every live gateway connection (READY or RESUMED), sorted."""
        return sorted(self._shard_of_ws.get(id(ws), (0, 1)) for ws, _ in self._sockets)

    @property
    def rate_limits_pending(self) -> int:
        """429s armed with :meth:`rate_limit_next` that no request has met yet."""
        return sum(limit.left for limit in self._limits)

    @property
    def connected(self) -> int:
        """Gateway connections that finished READY or RESUMED."""
        return len(self._sockets)

    def close_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection with ``code`` (not waiting for the client's answer). The client
        should come back with RESUME (any code but 1000 and the fatal 4004, 4010-4014)."""

        async def close() -> None:
            sockets, self._sockets[:] = list(self._sockets), []
            for ws, _ in sockets:
                asyncio.ensure_future(ws.close(code=code))

        self._call(close())

    def drop_gateway(self) -> None:
        """Cut the gateway's TCP connections without a close frame, as a network failure does."""

        async def drop() -> None:
            sockets, self._sockets[:] = list(self._sockets), []
            for _, request in sockets:
                if request.transport is not None:
                    request.transport.abort()

        self._call(drop())

    # -- interactions, as Discord sends them over the gateway ---------------------------------------------
    def slash(self, person: Person, path: str, where: tuple[int, int] | None = None, **values: str | int) -> str:
        """A slash command (``"table ai add"``, level="easy") in ``where`` (guild, channel), by default the
        fake's guild; ``where=(DM, 0)`` sends it from the person's DM with the bot. Returns the interaction token."""
        options = [{"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in values.items()]
        return self._command(2, person, path, options, where)

    def slash_raw(
        self, person: Person, path: str, options: list[dict[str, Any]], where: tuple[int, int] | None = None
    ) -> str:
        """A slash command with its options exactly as given (``{"name", "type", "value"}``, and ``resolved`` data
        absent): what a modified client or a script may send, whatever the command declared."""
        return self._command(2, person, path, options, where)

    def autocomplete(
        self, person: Person, path: str, option: str, typed: str, where: tuple[int, int] | None = None
    ) -> str:
        """Typing ``typed`` in ``option`` of a command; the bot answers with a type 8 callback."""
        return self._command(4, person, path, [{"name": option, "type": 3, "value": typed, "focused": True}], where)

    def click(self, person: Person, message_id: int, custom_id: str) -> str:
        data = {"custom_id": custom_id, "component_type": 2}
        return self._component(person, message_id, data)

    def select(self, person: Person, message_id: int, custom_id: str, values: Sequence[str]) -> str:
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return self._component(person, message_id, data)

    def answers(self, token: str) -> list[dict[str, Any]]:
        """What the bot answered to one interaction, in order: ``{"kind": "callback", "type", "data"}``,
        ``{"kind": "followup", "id", ...payload}`` and ``{"kind": "edit", ...payload}``."""
        return list(self._answers.get(token, []))

    def _command(
        self, kind: int, person: Person, path: str, options: list[dict[str, Any]], where: tuple[int, int] | None
    ) -> str:
        guild, channel = self._place(person, where)
        names = path.split()
        for depth in range(len(names) - 1, 0, -1):
            options = [{"name": names[depth], "type": 1 if depth == len(names) - 1 else 2, "options": options}]
        data: dict[str, Any] = {"id": "1", "name": names[0], "type": 1, "options": options}
        if guild:
            data["guild_id"] = str(guild)
        return self._interact(kind, person, data, guild=guild, channel=channel)

    def _place(self, person: Person, where: tuple[int, int] | None) -> tuple[int, int]:
        if where is None:
            assert self.guild_id is not None, "the interaction builders need a guild_id or where="
            return self.guild_id, self.channel_id
        guild, channel = where
        return (DM, dm_channel_id(person.id)) if guild == DM else (guild, channel)

    def _component(self, person: Person, message_id: int, data: dict[str, Any]) -> str:
        if message_id in self.ephemeral:
            message = self.ephemeral[message_id]
        else:
            message = _message(message_id, self.channel_of[message_id], self.messages[message_id])
        channel = int(message["channel_id"])
        guild = self.guild_of(channel)
        return self._interact(3, person, data, message=message, guild=guild, channel=channel)

    def _interact(
        self, kind: int, person: Person, data: dict[str, Any], message: Any = None, *, guild: int, channel: int
    ) -> str:
        number = next(self._ids)
        token = f"interaction-token-{number}"
        self._answers[token] = []
        self._where[token] = (guild, channel)
        payload: dict[str, Any] = {
            "id": str(number),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": str(channel),
            "app_permissions": str(discord.Permissions.all().value),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "attachment_size_limit": 26214400,
            "data": data,
        }
        if guild:
            payload.update(
                guild_id=str(guild),
                channel=channel_payload(channel, guild),
                member=_member(person),
                guild_locale="en-US",
                context=0,
            )
        else:  # from the person's DM with the bot: a user, no member, no guild
            payload.update(
                channel={"id": str(channel), "type": 1, "recipients": [_user(person.id, person.name)]},
                user=_user(person.id, person.name),
                context=1,
            )
        if message is not None:
            payload["message"] = message
            self._originals[token] = int(message["id"])
        self.dispatch("INTERACTION_CREATE", payload, guild_id=guild)
        return token

    # -- the server ------------------------------------------------------------------------------------
    async def _start(self) -> None:
        app = web.Application(middlewares=[self._record])
        app.add_routes(
            [
                web.get("/gw", self._gateway),
                web.get("/api/v10/gateway/bot", self._gateway_bot),
                web.post("/api/v10/interactions/{id}/{token}/callback", self._callback),
                web.post("/api/v10/webhooks/{app}/{token}", self._followup),
                web.patch("/api/v10/webhooks/{app}/{token}/messages/{message}", self._edit_answer),
                web.get("/api/v10/users/@me", self._me),
                web.post("/api/v10/users/@me/channels", self._open_dm),
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
        for ws, _ in list(self._sockets):
            with suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001), 1)
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
        message = request.get(MESSAGE_ID) if response.status < 300 else None
        self.requests.append(Request(request.method, request.path, response.status, self._loop.time(), message))
        return response

    # -- the gateway ---------------------------------------------------------------------------------------
    async def _gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json(
            {"url": f"ws://127.0.0.1:{self.port}/gw", "shards": self.shard_count, "session_start_limit": limit}
        )

    def _forget(self, ws: web.WebSocketResponse) -> None:
        self._sockets[:] = [(s, r) for s, r in self._sockets if s is not ws]
        self._shard_of_ws.pop(id(ws), None)

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        async for frame in ws:
            message = json.loads(frame.data)
            if message["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
            elif message["op"] == 2:  # identify
                if message["d"].get("token") != GOOD_TOKEN:
                    await ws.close(code=4004)
                    break
                await self._identify(ws, request, message["d"])
            elif message["op"] == 6:  # resume
                await self._resume(ws, request, message["d"])
        self._forget(ws)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, request: web.Request, data: dict[str, Any]) -> None:
        self.identified.append(data)
        self._session = f"fake-session-{len(self.identified)}"
        shard, count = (int(x) for x in data.get("shard", [0, 1]))
        self._sessions[self._session] = (shard, count)
        mine = {g: c for g, c in self.all_guilds().items() if shard_of(g, count) == shard}
        ready = {
            "v": 10,
            "user": _user(BOT_ID, "parley", bot=True),
            "guilds": [{"id": str(g), "unavailable": True} for g in mine],
            "session_id": self._session,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gw",
            "shard": [shard, count],
            "application": {"id": str(APP_ID), "flags": 0},
        }
        await self._send(ws, "READY", ready)
        for guild, channel in mine.items():
            await self._send(ws, "GUILD_CREATE", _guild(guild, channel))
        self._shard_of_ws[id(ws)] = (shard, count)
        self._sockets.append((ws, request))

    async def _resume(self, ws: web.WebSocketResponse, request: web.Request, data: dict[str, Any]) -> None:
        session = data.get("session_id")
        if self.invalidate_resume or session not in self._sessions or data.get("token") != GOOD_TOKEN:
            # the session cannot be resumed: the client must IDENTIFY again (events in between are lost)
            self.invalidate_resume = False
            self.invalidated += 1
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return
        self.resumed.append(data)
        shard = self._sessions[session]
        for seq, text, to in self._events:
            if seq > (data.get("seq") or 0) and to in (None, shard[0]):  # what it missed while away, in order
                await ws.send_str(text)
        await self._send(ws, "RESUMED", {})
        self._shard_of_ws[id(ws)] = shard
        self._sockets.append((ws, request))

    # -- interaction answers -------------------------------------------------------------------------------
    async def _callback(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.callbacks.append(body)
        answers = self._answers.setdefault(request.match_info["token"], [])
        if body["type"] != 8 and any(a["kind"] == "callback" for a in answers):
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, status=400)
        answers.append({"kind": "callback", "type": body["type"], "data": body.get("data")})
        flags = (body.get("data") or {}).get("flags", 0)
        return _json(
            {
                "interaction": {
                    "id": request.match_info["id"],
                    "type": 2,
                    "activity_instance_id": None,
                    "response_message_id": None,
                    "response_message_loading": body["type"] == 5,
                    "response_message_ephemeral": bool(flags & EPHEMERAL),
                }
            }
        )

    async def _followup(self, request: web.Request) -> web.Response:
        payload, _files = await _read_message(request)
        self.followups.append(payload)
        message_id = next(self._ids)
        channel = self._where.get(request.match_info["token"], (0, self.channel_id))[1]
        message = _message(message_id, channel, payload)
        message["flags"] = payload.get("flags", 0)
        self.ephemeral[message_id] = message
        self._answers.setdefault(request.match_info["token"], []).append(
            {"kind": "followup", "id": message_id, **payload}
        )
        return _json(message)

    async def _edit_answer(self, request: web.Request) -> web.Response:
        payload, _files = await _read_message(request)
        token = request.match_info["token"]
        self._answers.setdefault(token, []).append({"kind": "edit", **payload})
        target = request.match_info["message"]
        message_id = self._originals.get(token, 0) if target == "@original" else int(target)
        channel = self._where.get(token, (0, self.channel_id))[1]
        message = self.ephemeral.get(message_id) or _message(message_id, channel, {})
        message.update({k: v for k, v in payload.items() if k in ("content", "components")})
        return _json(message)

    # -- REST ------------------------------------------------------------------------------------------
    async def _me(self, request: web.Request) -> web.Response:
        return _json(_user(BOT_ID, "parley", bot=True))

    async def _open_dm(self, request: web.Request) -> web.Response:
        user_id = int((await request.json())["recipient_id"])
        channel_id = dm_channel_id(user_id)
        self.dm_channels[channel_id] = user_id
        return _json({"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [_user(user_id, "p")]})

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

    def _rate_limited(self, request: web.Request) -> web.Response | None:
        channel = int(request.match_info["channel"])
        for limit in self._limits:
            if limit.left > 0 and limit.method == request.method and limit.channel in (None, channel):
                limit.left -= 1
                return _json(
                    {"message": "You are being rate limited.", "retry_after": limit.retry_after, "global": False},
                    status=429,
                    headers={
                        "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban
                        "Retry-After": str(max(1, round(limit.retry_after))),
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(limit.retry_after),
                        "X-RateLimit-Bucket": "fake-bucket",
                        "X-RateLimit-Scope": "user",
                    },
                )
        return None

    async def _post_message(self, request: web.Request) -> web.Response:
        limited = self._rate_limited(request)
        if limited is not None:
            return limited
        payload, files = await _read_message(request)
        message_id = next(self._ids)
        channel_id = int(request.match_info["channel"])
        self.messages[message_id] = payload
        self.channel_of[message_id] = channel_id
        self.files[message_id] = files
        request[MESSAGE_ID] = message_id
        return _json(_message(message_id, channel_id, payload))

    async def _edit_message(self, request: web.Request) -> web.Response:
        message_id = int(request.match_info["message"])
        if message_id not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        limited = self._rate_limited(request)
        if limited is not None:
            return limited
        payload, files = await _read_message(request)
        self.messages[message_id].update(payload)
        if files or "attachments" in payload:
            self.files[message_id] = files
        request[MESSAGE_ID] = message_id
        return _json(_message(message_id, int(request.match_info["channel"]), self.messages[message_id]))


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard of a guild; DMs (guild 0) go to shard 0."""
    return (guild_id >> 22) % shard_count


def dm_channel_id(user_id: int) -> int:
    """The id of a user's DM channel with the bot, in this fake."""
    return 900_000_000 + user_id


def patch_discord(port: int) -> None:
    """Point discord.py at the fake on ``port`` (REST base and default gateway), for this process."""
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gw")


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


def _member(person: Person) -> dict[str, Any]:
    perms = discord.Permissions(
        view_channel=True, send_messages=True, manage_channels=person.moderator, manage_guild=person.admin
    )
    return {
        "user": _user(person.id, person.name),
        "nick": None,
        "roles": [],
        "joined_at": JOINED,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(perms.value),
    }


def channel_payload(channel_id: int, guild_id: int) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": "tavern",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "flags": 0,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def _guild(guild_id: int, channel_id: int) -> dict[str, Any]:
    everyone = {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": str(discord.Permissions(view_channel=True, send_messages=True).value),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    me = {"user": _user(BOT_ID, "parley", bot=True), "roles": [], "joined_at": JOINED, "deaf": False, "mute": False}
    return {
        "id": str(guild_id),
        "name": "Pirates",
        "icon": None,
        "owner_id": "1",
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "features": [],
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "channels": [channel_payload(channel_id, guild_id)],
        "threads": [],
        "members": [dict(me, flags=0)],
        "member_count": 2,
        "large": False,
        "unavailable": False,
        "joined_at": JOINED,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "system_channel_flags": 0,
    }


def _message(message_id: int, channel_id: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": _user(BOT_ID, "parley", bot=True),
        "content": payload.get("content", ""),
        "timestamp": JOINED,
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


if __name__ == "__main__":
    # ``python -m tests.discord.fakediscord PORT run`` is ``parley run`` pointed at a fake on PORT: the real
    # command line and client, only the two Discord addresses replaced (no product code knows the fake).
    patch_discord(int(sys.argv[1]))
    from bot.cli.main import main

    sys.exit(main(sys.argv[2:]))
