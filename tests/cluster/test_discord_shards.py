"""Sharding through the loopback fake Discord, with the real discord.py client: each process connects only its
shards and gets only their guilds' events; an unsharded bot connects every shard Discord recommends; and
``/hand`` sent from a DM, which Discord delivers to shard 0, answers from whichever process serves shard 0."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.host.tables import TableHost
from bot.infra.shards import Shards
from bot.infra.store import Store
from bot.transports.discord.client import ParleyBot
from tests.discord.conftest import fast_renderer
from tests.discord.fakediscord import DM, GOOD_TOKEN, FakeDiscord, Person, shard_of

COUNT = 2
G0, C0 = 11 << 22 | 5, 1_100  # a guild on shard 1 of 2 (11 % 2) and its channel
G1, C1 = 12 << 22 | 5, 1_200  # a guild on shard 0 of 2
ANA = Person(5001, "ana", moderator=True)


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guilds={G0: C0, G1: C1}, shard_count=COUNT)
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


async def until(check: Any, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


@asynccontextmanager
async def bot_on(db: Path, shards: Shards | None) -> AsyncIterator[ParleyBot]:
    """A ParleyBot over its own host on ``db``, connected to the fake for ``shards`` (None: unsharded)."""
    owns = None if shards is None else shards.owns
    host = TableHost(Store(str(db)), ai_seed="shards", renderer=fast_renderer, owns_guild=owns)
    bot = ParleyBot(
        host, shard_count=None if shards is None else shards.count, shard_ids=None if shards is None else shards.ids
    )
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await until(bot.is_ready, "the bot to be ready")
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)


async def reply(fake: FakeDiscord, token: str) -> str:
    await until(lambda: any(a["kind"] == "followup" for a in fake.answers(token)), f"an answer to {token}")
    return str(next(a for a in fake.answers(token) if a["kind"] == "followup")["content"])


async def test_each_process_gets_only_its_shards_guilds_and_dms_reach_shard_0(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    assert (shard_of(G0, COUNT), shard_of(G1, COUNT)) == (1, 0)
    db = tmp_path / "parley.sqlite3"
    async with bot_on(db, Shards.of("1", COUNT)) as one, bot_on(db, Shards.of("0", COUNT)) as zero:
        assert fake.connected_shards == [(0, COUNT), (1, COUNT)]
        assert sorted(tuple(i["shard"]) for i in fake.identified) == [(0, COUNT), (1, COUNT)]
        assert [g.id for g in one.guilds] == [G0] and [g.id for g in zero.guilds] == [G1]

        # a table in each guild: each opened by the process of its guild's shard, and only there
        for where in ((G0, C0), (G1, C1)):
            assert "Opened a Cartagena table" in await reply(fake, fake.slash(ANA, "table open cartagena", where))
            await reply(fake, fake.slash(ANA, "table ai add", where, level="easy"))
            assert await reply(fake, fake.slash(ANA, "table start", where)) == "The game has started."
        assert one.host.table_for(C0) is not None and one.host.table_for(C1) is None
        assert zero.host.table_for(C1) is not None and zero.host.table_for(C0) is None

        # /hand from Ana's DMs arrives at shard 0: its process shows the hand of the table it serves and names
        # the one the other process serves, with where to ask
        answer = await reply(fake, fake.slash(ANA, "hand", (DM, 0)))
        assert answer.startswith(f"Your Cartagena table in <#{C1}>.") and f"<#{C0}>" in answer, answer
        assert "Your private view" in answer

        # once the shard-0 table is over, the DM names only the other table, clearly
        assert "ended" in (await reply(fake, fake.slash(ANA, "table end", (G1, C1)))).lower()
        answer = await reply(fake, fake.slash(ANA, "hand", (DM, 0)))
        assert "another Parley process serves" in answer and f"<#{C0}>" in answer, answer


async def test_without_shard_settings_the_bot_connects_every_shard_discord_recommends(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_on(tmp_path / "parley.sqlite3", None) as bot:
        assert bot.shard_count == COUNT and fake.connected_shards == [(0, COUNT), (1, COUNT)]
        assert sorted(g.id for g in bot.guilds) == sorted([G0, G1])
        answer = await reply(fake, fake.slash(ANA, "hand", (DM, 0)))
        assert answer.startswith("You have no game running"), answer
        # /rules, the other command offered in DMs, needs no table
        assert "Cartagena" in await reply(fake, fake.slash(ANA, "rules", (DM, 0), game="cartagena"))
