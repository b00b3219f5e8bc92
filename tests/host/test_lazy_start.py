"""Lazy start-up: a restarted host indexes its tables without replaying their logs; a table is loaded (its log
replayed and checked) on first touch, under its lock, exactly once; deadlines of unloaded tables still fire.
Every test runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

import bot.host.restore
import bot.host.tables
from benchmarks.startup import copy_tables_into
from bot.host.tables import Caller, TableHost
from bot.infra.store import Store
from bot.infra.store.tables import TableRepo
from rules import registry
from rules.core import canonical_json
from tests.host.conftest import ANA, BEN, CHANNEL, Clock, HostFactory, raw_write, running, state_of


@pytest.fixture
def db_path(db_url: str) -> str:
    """The host fixtures' database is this module's ``db_url``: each test on both stores."""
    return db_url


class CountingReplay:
    """Stands in for ``bot.host.restore.replay_steps``: counts the replays (each slowed a little, so that calls
    arriving together really overlap while one of them loads the table)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.calls = 0
        self.delay = delay
        self.real = bot.host.restore.replay_steps

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        time.sleep(self.delay)  # runs in a worker thread (asyncio.to_thread)
        return self.real(*args)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> CountingReplay:
    counter = CountingReplay(delay=0.05)
    monkeypatch.setattr(bot.host.restore, "replay_steps", counter)
    return counter


def unloaded(host: TableHost, channel: int = CHANNEL) -> bool:
    summary = host.table_for(channel)
    assert summary is not None
    return not host.index.tables[summary.table_id].loaded  # noqa: SLF001 - the test looks inside


async def test_a_restarted_host_serves_an_unloaded_table_and_the_first_play_loads_it(
    make_host: HostFactory, replays: CountingReplay
) -> None:
    first = await make_host()
    await running(first, BEN, options={"length": "long"})
    await first.play(ANA, "mark")
    before = first.table_for(CHANNEL)
    await first.close()
    replays.calls = 0

    second = await make_host()
    after = second.table_for(CHANNEL)
    assert after is not None and unloaded(second) and replays.calls == 0
    assert (after.status, after.state_no, after.seats, after.to_act) == (
        before.status,
        before.state_no,
        before.seats,
        before.to_act,
    )
    out = await second.play(ANA, "mark", before.state_no)
    assert out.ok, out.reply
    assert not unloaded(second) and replays.calls == 1
    assert state_of(second)["marks"][0] == 2
    log = await second.store.tables.log(after.table_id)
    assert log[-1].action == "mark" and log[-1].n == before.state_no + 1
    # the turn in progress was picked up from the log: its narration and Ana's undo of the earlier mark
    assert "Ana (Red) made a mark." in out.public[-1].text
    assert (await second.undo(ANA)).ok and (await second.undo(ANA)).ok
    assert state_of(second)["marks"][0] == 0 and replays.calls == 1


async def test_a_tampered_log_is_reported_when_the_table_is_first_touched(
    make_host: HostFactory, db_path: str, caplog: pytest.LogCaptureFixture, replays: CountingReplay
) -> None:
    first = await make_host()
    await running(first, BEN)
    await first.play(ANA, "mark")
    table_id = first.table_for(CHANNEL).table_id
    await first.close()
    # the logged mark becomes an "end": the snapshot no longer follows
    changed = await raw_write(
        db_path, "UPDATE actions SET action = 'end' WHERE table_id = ? AND action = 'mark'", (table_id,)
    )
    assert changed == 1

    with caplog.at_level(logging.ERROR, logger="parley.tables"):
        second = await make_host()
        assert second.replay_mismatches == [] and unloaded(second)
        assert not [r for r in caplog.records if "REPLAY MISMATCH" in r.getMessage()]
        assert (await second.hand(BEN)).ok  # a read-only look at the table does not need its log
        assert second.replay_mismatches == []
        out = await second.play(ANA, "mark")  # the first touch
        assert out.ok, out.reply
        await second.status(BEN)
    assert second.replay_mismatches == [table_id]  # reported once, not at every touch
    mismatch = [r for r in caplog.records if "REPLAY MISMATCH" in r.getMessage()]
    assert len(mismatch) == 1 and mismatch[0].levelno == logging.ERROR and str(table_id) in mismatch[0].getMessage()
    assert state_of(second)["marks"][0] == 2  # the table goes on from its snapshot, what players saw


async def test_a_deadline_of_an_unloaded_table_fires_on_tick_after_a_restart(
    make_host: HostFactory, clock: Clock, replays: CountingReplay
) -> None:
    first = await make_host()
    await running(first, BEN)
    limit = (await first.guild_settings(ANA.guild_id))["turn_limit_seconds"]
    await first.close()
    replays.calls = 0

    second = await make_host()
    assert await second.tick() == [] and unloaded(second)  # nothing due: the tick leaves the table unloaded
    clock.advance(limit / 2 + 1)
    outs = await second.tick()  # the half-time reminder, by DM
    assert [p.text for o in outs for _, p in o.private if "it's your turn" in p.text]
    assert not unloaded(second) and replays.calls == 1

    third = await make_host()  # the reminder was stored: the next restart does not send it again
    assert await third.tick() == [] and unloaded(third)
    clock.advance(limit)
    outs = await third.tick()
    assert "Ana ran out of time; the AI moves for them" in "\n".join(p.text for o in outs for p in o.public)
    assert third.table_for(CHANNEL).to_act == (1,)
    assert replays.calls == 2


async def test_twenty_calls_at_once_load_an_unloaded_table_once(
    make_host: HostFactory, replays: CountingReplay
) -> None:
    first = await make_host()
    await running(first, BEN)
    state_no = first.table_for(CHANNEL).state_no
    await first.close()
    replays.calls = 0

    second = await make_host()
    assert unloaded(second)
    plays = [second.play(ANA, "mark", state_no) for _ in range(10)]
    others = [second.status(BEN) for _ in range(5)] + [second.undo(BEN) for _ in range(5)]
    outs = await asyncio.gather(*plays, *others)
    assert replays.calls == 1
    assert sum(o.ok for o in outs[:10]) == 1  # the same button clicked ten times: one move
    assert all(o.ok for o in outs[10:15]) and not any(o.ok for o in outs[15:])
    assert state_of(second)["marks"][0] == 1 and second.internal_errors == 0
    log = await second.store.tables.log(second.table_for(CHANNEL).table_id)
    assert [e.action for e in log[-1:]] == ["mark"] and log[-1].n == state_no + 1


async def test_start_up_with_three_hundred_tables_replays_no_log(
    make_host: HostFactory, db_path: str, replays: CountingReplay, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await make_host()
    channels = iter(range(CHANNEL, CHANNEL + 10))

    async def table(kind: str) -> int:
        c = next(channels)
        ana, ben = Caller(1, c, ANA.user_id, "Ana", moderator=True), Caller(1, c, BEN.user_id, "Ben")
        assert (await first.open(ana, "toy", {})).ok and (await first.join(ben)).ok
        if kind != "lobby":
            assert (await first.start_table(ana)).ok
            assert (await first.play(ana, "ready")).ok and (await first.play(ben, "ready")).ok
            assert (await first.play(ana, "mark")).ok
        if kind == "finished":
            assert (await first.end(ana)).ok
        return first.table_for(c).table_id

    templates = {kind: [(await table(kind), 0)] for kind in ("running", "finished", "lobby")}
    await first.close()
    store = Store(db_path)
    await store.open()
    try:
        counts = await copy_tables_into(store, templates, 300)
    finally:
        await store.close()
    assert sum(v for k, v in counts.items() if k != "actions") == 300 and counts["running"] == 90

    logs = 0
    real_log = TableRepo.log

    async def counting_log(self: Any, table_id: int) -> Any:
        nonlocal logs
        logs += 1
        return await real_log(self, table_id)

    monkeypatch.setattr(TableRepo, "log", counting_log)
    replays.calls = 0
    second = await make_host()
    assert replays.calls == 0 and logs == 0  # start-up read no log and replayed none
    live = [s for t in second.index.tables.values() if (s := second.table_for(t.channel_id))]  # noqa: SLF001
    assert [s.status for s in live].count("running") == 90 and len(live) == 90 + counts["lobby"]
    toy = registry.get("toy")
    template = canonical_json(toy.dump(second.index.tables[templates["running"][0][0]].state))  # noqa: SLF001
    assert all(
        canonical_json(toy.dump(second.index.tables[s.table_id].state)) == template  # noqa: SLF001
        for s in live
        if s.status == "running"
    )
    assert await second.tick() == [] and replays.calls == 0  # a tick with nothing due loads nothing
    copy = next(s for s in live if s.status == "running" and s.table_id != templates["running"][0][0])
    ben = Caller(1, copy.channel_id, copy.seats[1].user_id or 0, "Ben")
    assert (await second.play(Caller(1, copy.channel_id, copy.seats[0].user_id or 0, "Ana"), "end")).ok
    assert (await second.play(ben, "mark")).ok
    assert replays.calls == 1 and logs == 1 and second.replay_mismatches == []
