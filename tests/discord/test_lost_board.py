"""A board lost in a crash comes back without waiting for a render worker, through the real discord.py client
against the loopback fake Discord.

The first bot commits a move whose board post never goes out (the host played it and the process "died" before
delivering: exactly what a crash between the commit and the post leaves). The second bot starts on the same
database with one render worker process whose boot is held at a gate the test controls: an injected slow-starting
pool, so no worker is ready however fast or slow the machine is. The lost board must be reposted, with its
picture, while the gate is still closed; it used to wait for the worker's boot (6–8 s after READY on a busy
machine), and meanwhile the newest buttons answered "This board is out of date"."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.host.tables import Caller, TableHost
from bot.infra.store import Store
from bot.transports.discord.client import ParleyBot
from tests.discord import slowboot
from tests.discord.conftest import GUILD_ID, TINY_PNG, fast_renderer
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord
from tests.discord.test_faults import ANA, CHANNEL, Ana, current_board, host_state, running_bot, until


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL)
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


async def test_a_board_lost_in_a_crash_is_reposted_before_any_render_worker_is_ready(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "parley.sqlite3"
    async with running_bot(db) as bot:
        ana = Ana(fake, host_state(bot))
        await ana.open_table()
        await ana.play()
        shown = current_board(fake)
        # the next move is committed, but its board never reaches Discord: the process dies before delivering it
        action = (await bot.host.choices(Caller(GUILD_ID, CHANNEL, ANA.id, ANA.name, moderator=True)))[0].action
        out = await bot.host.play(Caller(GUILD_ID, CHANNEL, ANA.id, ANA.name, moderator=True), action)
        assert out.ok, out.reply
        committed = bot.host.table_for(CHANNEL).state_no
    assert current_board(fake) == shown and shown[2] < committed

    gate = tmp_path / "gate"
    monkeypatch.setenv(slowboot.GATE, str(gate))
    host = TableHost(Store(str(db)), ai_seed="discord-tests", renderer=fast_renderer, render_processes=1)
    assert host.pictures.pool is not None
    host.pictures.pool.boot = slowboot.wait_for_gate  # the slow-starting pool: no worker ready until the gate opens
    bot = ParleyBot(host, dev_guild=GUILD_ID, shard_count=1)
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await until(lambda: current_board(fake)[2] == committed, what="the lost board to be reposted")
        assert not host.pictures.pool.any_ready() and not gate.exists()  # it did not wait for a worker
        board_id, table_id, state_no = current_board(fake)
        assert board_id != shown[0] and fake.files[board_id] == [TINY_PNG]  # with its picture, drawn here
        await until(bot.is_ready, what="READY")
        # its buttons work at once, still before any worker is ready
        picked = await Ana(fake, host_state(bot)).click_turn(board_id)
        assert "out of date" not in picked["content"], picked
        assert not host.pictures.pool.any_ready()
    finally:
        gate.touch()
        await bot.close()
        await asyncio.wait_for(runner, 30)


async def test_a_bot_stopped_during_the_repost_stops_cleanly_and_boots_no_worker(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM while the lost boards are being reposted: the repost is cancelled half-way through saving its board
    post. The bot waits for it to unwind before the database closes (it used to close the database under it, and
    log two tracebacks on the way out), and does not start worker processes it is about to stop."""
    db = tmp_path / "parley.sqlite3"
    async with running_bot(db) as bot:
        await Ana(fake, host_state(bot)).open_table()
        caller = Caller(GUILD_ID, CHANNEL, ANA.id, ANA.name, moderator=True)
        assert (await bot.host.play(caller, (await bot.host.choices(caller))[0].action)).ok  # its board is lost

    host = TableHost(Store(str(db)), ai_seed="discord-tests", renderer=fast_renderer, render_processes=1)
    saving, real_save = asyncio.Event(), host.store.posts.save_board_post

    async def slow_save(*args: object) -> None:
        saving.set()
        try:
            await asyncio.sleep(60)  # a commit that takes a while
        except asyncio.CancelledError:
            await host.store.schema_version()  # rolling back needs the database still open
            raise
        await real_save(*args)  # type: ignore[arg-type]

    host.store.posts.save_board_post = slow_save  # type: ignore[method-assign]
    bot = ParleyBot(host, dev_guild=GUILD_ID, shard_count=1)
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    with caplog.at_level(logging.WARNING):
        await asyncio.wait_for(saving.wait(), 20)
        await asyncio.wait_for(bot.close(), 30)  # what SIGTERM does
        await asyncio.wait_for(runner, 30)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert host.pictures.pool is not None and not host.pictures.pool._started  # noqa: SLF001 - no worker booted
