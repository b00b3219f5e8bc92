"""Fixtures for the web pages: a table host and the pages over one database file, served on 127.0.0.1, and a small
server-sent-events reader."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.host.tables import TableHost
from bot.infra.pictures import Pictures
from bot.infra.store import Store
from bot.transports.web.app import WebApp
from tests.host.conftest import (  # noqa: F401 - pytest finds fixtures by name
    ANA,
    BEN,
    CHANNEL,
    CID,
    Clock,
    RecordingRenderer,
    clock,
    db_path,
    make_host,
    toy_registered,
)

BASE = "https://parley.example"


@dataclass
class Site:
    """The pages of ``host``'s database, served by ``app`` at ``url``; ``http`` a client session for them."""

    host: TableHost
    app: WebApp
    url: str
    http: aiohttp.ClientSession
    renderer: RecordingRenderer

    async def slug(self, table_id: int | None = None) -> str:
        if table_id is None:
            summary = self.host.table_for(CHANNEL)
            assert summary is not None
            table_id = summary.table_id
        return await self.app.links.slug(table_id)

    async def get(self, path: str, **kwargs: Any) -> tuple[int, dict[str, str], bytes]:
        async with self.http.get(self.url + path, allow_redirects=False, **kwargs) as r:
            return r.status, dict(r.headers), await r.read()

    async def json(self, path: str, **kwargs: Any) -> Any:
        status, _, body = await self.get(path, **kwargs)
        assert status == 200, (path, status, body[:200])
        return json.loads(body)


SiteFactory = Callable[..., Awaitable[Site]]


@pytest.fixture
async def make_site(make_host: Any, db_path: str, clock: Clock) -> AsyncIterator[SiteFactory]:  # noqa: F811
    made: list[Site] = []

    async def factory(
        path: str | None = None, *, host: TableHost | None = None, real_pictures: bool = False, **options: Any
    ) -> Site:
        """``real_pictures``: the game's own boards (for the browser's screenshots), else a tiny stand-in."""
        renderer = RecordingRenderer(cheap=not real_pictures)
        host = host or await make_host(path, renderer=renderer)
        store = Store(path or db_path)
        await store.open()
        options.setdefault("poll_seconds", 0.05)
        options.setdefault("base_url", BASE)
        app = WebApp(store, Pictures(renderer), clock=clock, **options)
        port = await app.start("127.0.0.1", 0)
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        site = Site(host, app, f"http://127.0.0.1:{port}", http, renderer)
        made.append(site)
        return site

    yield factory
    for site in made:
        await site.http.close()
        await site.app.stop()
        await site.app.store.close()
        site.app.boards.pictures.shutdown()


@pytest.fixture
async def site(make_site: SiteFactory) -> Site:
    return await make_site()


@dataclass
class Event:
    id: int | None
    event: str
    data: Any


class Events:
    """A server-sent event stream read event by event (``await events.next()``), as a browser's EventSource would."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.last_id: int | None = None

    @classmethod
    async def open(cls, site: Site, path: str, last_id: int | None = None, **kwargs: Any) -> Events:
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        response = await site.http.get(site.url + path, headers=headers, **kwargs)
        assert response.status == 200, (path, response.status, await response.text())
        return cls(response)

    async def next(self, timeout: float = 10.0) -> Event:
        fields: dict[str, str] = {}
        while True:
            raw = await asyncio.wait_for(self.response.content.readline(), timeout)
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\n")
            if not line:
                if "event" in fields or "data" in fields:
                    event_id = int(fields["id"]) if "id" in fields else None
                    if event_id is not None:
                        self.last_id = event_id
                    return Event(event_id, fields.get("event", "message"), json.loads(fields.get("data", "null")))
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")

    async def until(self, what: Callable[[Event], bool], timeout: float = 10.0) -> list[Event]:
        """Every event up to and including the first for which ``what`` holds."""
        seen: list[Event] = []
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            event = await self.next(max(0.01, end - loop.time()))
            seen.append(event)
            if what(event):
                return seen

    async def drain(self, quiet: float = 0.3) -> list[Event]:
        """Every event that arrives until none has come for ``quiet`` seconds."""
        seen: list[Event] = []
        while True:
            try:
                seen.append(await self.next(quiet))
            except TimeoutError:
                return seen
            except EOFError:
                return seen

    def close(self) -> None:
        self.response.close()


async def start_cartagena(host: TableHost, *, ais: int = 0, seed: str | None = "web-test") -> None:
    """Ana opens a Cartagena table (Jamaica: hidden hands), Ben joins, ``ais`` AIs; the game starts."""
    assert (await host.open(ANA, "cartagena", {"mode": "jamaica"}, seed=seed)).ok
    assert (await host.join(BEN)).ok
    for _ in range(ais):
        assert (await host.ai_add(ANA, "easy")).ok
    assert (await host.start_table(ANA)).ok


async def play_one(host: TableHost, pick: int = 0) -> bool:
    """The seat that owes a move plays its ``pick``-th choice; False once the game is over."""
    summary = host.table_for(CHANNEL)
    if summary is None or summary.status != "running":
        return False
    for caller in (ANA, BEN):
        choices = await host.choices(caller)
        if choices and any(s.user_id == caller.user_id and s.seat in summary.to_act for s in summary.seats):
            out = await host.play(caller, choices[pick % len(choices)].action, summary.state_no)
            assert out.ok, out.reply
            return True
    raise AssertionError("nobody can move")


__all__ = [
    "ANA",
    "BASE",
    "BEN",
    "CHANNEL",
    "CID",
    "Event",
    "Events",
    "Site",
    "SiteFactory",
    "play_one",
    "start_cartagena",
]
