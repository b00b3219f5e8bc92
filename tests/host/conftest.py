"""Fixtures for the table-host tier: the toy game registered, a host on a database file, an injected clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.host.tables import Caller, Outputs, Post, TableHost
from bot.infra.store import Store
from renderers.common import tiny_png
from rules import registry
from tests.host import toygame

GUILD, CHANNEL = 1, 10
ANA = Caller(GUILD, CHANNEL, 100, "Ana", moderator=True)
BEN = Caller(GUILD, CHANNEL, 101, "Ben")
CID = Caller(GUILD, CHANNEL, 102, "Cid")
ADMIN = Caller(GUILD, CHANNEL, 900, "Boss", moderator=True, admin=True)


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


TINY_PNG = tiny_png()


class RecordingRenderer:
    """Draws with the toy renderer and remembers what it was asked to draw (public vs private views)."""

    def __init__(self, cheap: bool = False) -> None:
        self.calls: list[tuple[str, dict[str, Any], int | None]] = []
        self.cheap = cheap  # draw every game with the toy's tiny picture (fast tests of long games)

    def __call__(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
        self.calls.append((game_id, view, seat))
        if self.cheap:
            return TINY_PNG
        if game_id == "toy":
            return toygame.render(view, seat=seat)
        import renderers

        return renderers.render(game_id, view, seat=seat)


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._MODULES, "toy", "tests.host.toygame")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "parley.sqlite3")


HostFactory = Callable[..., Awaitable[TableHost]]


async def raw_write(url: str, sql: str, args: tuple[Any, ...] = ()) -> int:
    """One statement (``?`` placeholders) committed straight into the database at ``url``, behind the host's
    back (a tampered log, a seat changed while the bot was down); the number of rows it changed."""
    store = Store(url)
    await store.open()
    try:
        async with store.transaction() as tx:
            return await tx.execute(sql, args)
    finally:
        await store.close()


async def raw_read(url: str, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    store = Store(url)
    await store.open()
    try:
        return await store.db.fetch(sql, args)  # noqa: SLF001 - tests look inside
    finally:
        await store.close()


@pytest.fixture
async def make_host(db_path: str, clock: Clock) -> AsyncIterator[HostFactory]:
    hosts: list[TableHost] = []

    async def factory(path: str | None = None, **kwargs: Any) -> TableHost:
        kwargs.setdefault("clock", clock)
        kwargs.setdefault("ai_seed", "test")
        kwargs.setdefault("renderer", RecordingRenderer())
        host = TableHost(Store(path or db_path), **kwargs)
        await host.start()
        hosts.append(host)
        return host

    yield factory
    for host in hosts:
        await host.close()


@pytest.fixture
async def host(make_host: HostFactory) -> TableHost:
    return await make_host()


async def lobby(host: TableHost, *callers: Caller, ais: int = 0, options: dict[str, str] | None = None) -> None:
    """Ana opens a toy table; the other callers join; ``ais`` AI seats are added."""
    out = await host.open(ANA, "toy", options or {})
    assert out.ok, out.reply
    for c in callers:
        assert (await host.join(c)).ok
    for _ in range(ais):
        assert (await host.ai_add(ANA)).ok


async def running(
    host: TableHost, *callers: Caller, ais: int = 0, ready: bool = True, options: dict[str, str] | None = None
) -> Outputs:
    """A started toy table, past the simultaneous ``ready`` phase unless ``ready`` is False."""
    await lobby(host, *callers, ais=ais, options=options)
    out = await host.start_table(ANA)
    assert out.ok, out.reply
    if ready:
        for c in (ANA, *callers):
            assert (await host.play(c, "ready")).ok
    return out


def state_of(host: TableHost, channel: int = CHANNEL) -> dict[str, Any]:
    summary = host.table_for(channel)
    assert summary is not None
    return host.index.tables[summary.table_id].state  # noqa: SLF001 - tests look inside


def public_texts(outs: list[Outputs]) -> str:
    return "\n".join([p.text for o in outs for p in o.public] + [o.reply for o in outs if not o.ok])


class Published:
    """The host's transport stand-in for work done after a request: collects what the host publishes (the replay
    GIF after a game's result)."""

    def __init__(self, host: TableHost) -> None:
        self.outs: list[Outputs] = []
        host.publish = self.publish

    async def publish(self, out: Outputs) -> None:
        self.outs.append(out)

    async def replay_after(self, out: Outputs, timeout: float = 30.0) -> Post:
        """Deliver ``out`` (the game's last outputs) and wait for the replay post published after it."""
        assert not any(p.filename == "replay.gif" for p in out.public), "the replay must not hold up the result"
        out.delivered()
        for _ in range(int(timeout / 0.02)):
            posts = [p for o in self.outs for p in o.public if p.filename == "replay.gif"]
            if posts:
                return posts[0]
            await asyncio.sleep(0.02)
        raise AssertionError("no replay was published")
