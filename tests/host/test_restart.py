"""Restart from the database: tables restored exactly, replay checked, storage basics. Every test runs on
SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import Any

import pytest

from bot.infra.store import MIGRATIONS, Commit, IntegrityError, Store
from rules import registry
from rules.core import canonical_json
from tests.host.conftest import (
    ANA,
    BEN,
    CHANNEL,
    TINY_PNG,
    HostFactory,
    lobby,
    raw_read,
    raw_write,
    running,
    state_of,
)


@pytest.fixture
def db_path(db_url: str) -> str:
    """The host fixtures' database is this module's ``db_url``: each test on both stores."""
    return db_url


async def test_a_running_table_continues_after_a_restart(make_host: HostFactory) -> None:
    first = await make_host()
    await running(first, BEN, ais=1, options={"length": "long"})
    await first.play(ANA, "mark")
    await first.play(ANA, "mark")
    await first.undo(ANA)
    before = first.table_for(CHANNEL)
    toy = registry.get("toy")
    state = canonical_json(toy.dump(state_of(first)))
    await first.close()

    second = await make_host()
    after = second.table_for(CHANNEL)
    assert after is not None and after.status == "running"
    assert (after.state_no, after.seats, after.to_act) == (before.state_no, before.seats, before.to_act)
    assert canonical_json(toy.dump(state_of(second))) == state
    assert second.replay_mismatches == []
    # the old buttons (same state number) still work
    out = await second.play(ANA, "end", before.state_no)
    assert out.ok, out.reply


async def test_a_lobby_survives_a_restart(make_host: HostFactory) -> None:
    first = await make_host()
    await lobby(first, BEN, ais=1)
    await first.close()
    second = await make_host()
    summary = second.table_for(CHANNEL)
    assert summary is not None and summary.status == "lobby" and len(summary.seats) == 3
    assert (await second.start_table(ANA)).ok


async def test_a_snapshot_that_replay_does_not_reproduce_is_reported_loudly(
    make_host: HostFactory, db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    first = await make_host()
    await running(first, BEN)
    await first.play(ANA, "mark")
    table_id = first.table_for(CHANNEL).table_id
    await first.close()
    [row] = await raw_read(db_path, "SELECT snapshot FROM tables WHERE id = ?", (table_id,))
    snap = json.loads(row[0])
    snap["marks"][0] = 7
    await raw_write(db_path, "UPDATE tables SET snapshot = ? WHERE id = ?", (json.dumps(snap), table_id))
    with caplog.at_level(logging.ERROR, logger="parley.tables"):
        second = await make_host()
        assert second.replay_mismatches == []  # start-up does not replay logs: the table's first touch does
        assert (await second.status(BEN)).ok
    assert second.replay_mismatches == [table_id]
    assert any("REPLAY MISMATCH" in r.getMessage() and r.levelno == logging.ERROR for r in caplog.records)
    assert state_of(second)["marks"][0] == 7  # the table goes on from what players saw


async def test_ai_moves_owed_at_a_crash_are_made_on_the_next_tick(make_host: HostFactory, db_path: str) -> None:
    first = await make_host()
    await running(first, BEN)
    await first.play(ANA, "end")
    table_id = first.table_for(CHANNEL).table_id
    await first.close()
    # Ben's seat became an AI seat while the bot was down
    await raw_write(
        db_path, "UPDATE seats SET ai_level = 'easy', vacated = 1 WHERE table_id = ? AND seat = 1", (table_id,)
    )
    second = await make_host()
    outs = await second.tick()
    assert outs and second.table_for(CHANNEL).to_act in ((0,), ())


async def test_migrations_wal_and_idempotent_start(db_path: str) -> None:
    store = Store(db_path)
    await store.open()
    assert await store.schema_version() == len(MIGRATIONS)
    if store.dialect == "sqlite":
        assert await store.db.journal_mode() == "wal"  # type: ignore[attr-defined]
    await store.migrate()  # a second run changes nothing
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_the_log_is_append_only_and_holds_public_events(make_host: HostFactory) -> None:
    host = await make_host()
    await running(host, BEN)
    await host.play(ANA, "draw")
    table_id = host.table_for(CHANNEL).table_id
    log = await host.store.tables.log(table_id)
    assert [e.n for e in log] == list(range(1, len(log) + 1))
    assert log[-1].action == "draw" and log[-1].public == ["Red drew a gem."]
    with pytest.raises(IntegrityError):
        await host.store.append(Commit(
            table_id,
            n=log[-1].n,
            kind="action",
            seat=0,
            action="mark",
            by_ai=False,
            user_id=ANA.user_id,
            public=[],
            snapshot={},
            now=0.0,
        ))
    assert len(await host.store.tables.log(table_id)) == len(log)


async def test_undo_and_the_turns_narration_survive_a_restart(make_host: HostFactory) -> None:
    first = await make_host()
    await running(first, BEN, options={"length": "long"})
    await first.play(ANA, "mark")
    await first.play(ANA, "mark")
    await first.undo(ANA)
    before_mark = dict(state_of(first))
    await first.undo(ANA)
    after_undos = dict(state_of(first))
    await first.play(ANA, "mark")
    await first.close()
    second = await make_host()
    out = await second.undo(ANA)
    assert out.ok, out.reply
    assert state_of(second)["marks"] == after_undos["marks"] and before_mark["marks"] != after_undos["marks"]
    assert not (await second.undo(ANA)).ok
    board = (await second.status(BEN)).reply  # the board as the status shows it to the caller
    assert "Ana (Red) made a mark." in board and "ready" not in board  # the turn's own narration


async def test_a_board_post_lost_in_a_crash_is_reposted_after_the_restart(make_host: HostFactory) -> None:
    first = await make_host()
    await running(first, BEN)
    out = await first.play(ANA, "mark")
    board = next(p for p in out.public if p.board_key is not None and not p.edit_only)
    # the transport delivered this board; the next move is committed, but the bot dies before its post arrives
    await first.store.posts.save_board_post(board.table_id, board.board_key, CHANNEL, 555, board.state_no)
    assert (await first.play(ANA, "mark")).ok
    committed = first.table_for(CHANNEL).state_no
    await first.close()

    second = await make_host()
    [repost] = await second.lost_boards()
    [post] = [p for p in repost.public if p.board_key is not None and not p.edit_only]
    assert post.state_no == committed and post.image and post.buttons and repost.channel_id == CHANNEL
    # once that post is delivered, nothing is lost any more
    await second.store.posts.save_board_post(post.table_id, post.board_key, CHANNEL, 556, post.state_no)
    assert await second.lost_boards() == []


async def test_news_is_owed_with_its_move_so_a_crash_while_the_pictures_are_drawn_cannot_lose_it(
    make_host: HostFactory,
) -> None:
    class Stuck:
        """Draws at once until ``block`` is set; then every picture waits, as a busy worker would."""

        def __init__(self) -> None:
            self.block, self.release = threading.Event(), threading.Event()

        def __call__(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
            if self.block.is_set():
                self.release.wait(20)
            return TINY_PNG

    renderer = Stuck()
    host = await make_host(renderer=renderer)
    await running(host, BEN)
    host.dms_tracked = True  # as the Discord transport sets it
    renderer.block.set()
    move = asyncio.create_task(host.play(ANA, "draw"))
    try:
        for _ in range(200):  # the move commits, then its pictures hang: the process "dies" here
            if await host.store.posts.dms_owed():
                break
            await asyncio.sleep(0.05)
        gem = state_of(host)["hands"][0][-1]
        after_crash = await make_host()  # a new process on the same database
        late = [post for out in await after_crash.lost_dms() for _, post in out.private]
        assert [post.text for post in late if f"You drew {gem}." in post.text], [p.text for p in late]
        assert all("Sent late" in post.text for post in late)
    finally:
        renderer.release.set()
        await move
