"""The AI worker path: a search runs in a worker process from the view; a failed search falls back to ``normal``
and says so in the log without any of the view."""

from __future__ import annotations

import logging

import pytest

from bot.infra.aipool import AIPool, decide
from rules import registry


def _position() -> tuple[dict, int, list[str]]:
    game = registry.get("cartagena")
    state = game.new(2, {}, "pool")
    seat = game.to_act(state)[0]
    return game.view(state, seat), seat, game.legal_actions(state, seat)


def test_a_worker_decides_as_this_process_would() -> None:
    view, seat, legal = _position()
    pool = AIPool(processes=1, iterations=5)
    try:
        got = pool.choose_sync("cartagena", view, seat, legal, "hard", "seed-1")
    finally:
        pool.shutdown()
    assert got == decide("cartagena", view, seat, legal, "hard", "seed-1", None, 5)
    assert pool.fallbacks == 0


async def test_a_failed_search_falls_back_to_normal(caplog: pytest.LogCaptureFixture) -> None:
    view, seat, legal = _position()
    pool = AIPool(processes=1, iterations=5)
    # a view whose card counts cannot add up: the worker's sampler fails on it, ``normal`` does not need them
    broken = dict(view, stock_count=view["stock_count"] + 1)
    try:
        with caplog.at_level(logging.ERROR, logger="parley.ai"):
            got = await pool.choose("cartagena", broken, seat, legal, "hard", "seed-2")
    except ValueError:
        pytest.fail("the failure reached the caller")
    finally:
        pool.shutdown()
    assert pool.fallbacks == 1
    assert "failed" in caplog.text and "normal decides" in caplog.text
    assert "forward" not in caplog.text and "stock" not in caplog.text
    assert got == decide("cartagena", view, seat, legal, "normal", "seed-2", None, None)


async def test_without_processes_a_thread_searches() -> None:
    view, seat, legal = _position()
    pool = AIPool(processes=0, iterations=3)
    got = await pool.choose("cartagena", view, seat, legal, "hard", "seed-3")
    assert got == decide("cartagena", view, seat, legal, "hard", "seed-3", None, 3)


def test_the_ai_settings_are_read_and_checked() -> None:
    from bot.infra.settings import SettingsError, load

    s = load(None, {"PARLEY_AI_PROCESSES": "2", "PARLEY_AI_SECONDS": "2.5", "PARLEY_AI_TAKEOVER_LEVEL": "Hard"})
    assert (s.ai_processes, s.ai_seconds, s.ai_takeover_level) == (2, 2.5, "hard")
    assert load(None, {}).ai_seconds == 1.0 and load(None, {}).ai_takeover_level == "normal"
    for bad in ({"PARLEY_AI_SECONDS": "forever"}, {"PARLEY_AI_SECONDS": "0"}, {"PARLEY_AI_PROCESSES": "0"},
                {"PARLEY_AI_TAKEOVER_LEVEL": "godlike"}):
        with pytest.raises(SettingsError):
            load(None, bad)


async def test_a_worker_that_dies_is_survived_with_normal(caplog: pytest.LogCaptureFixture) -> None:
    from tests.ai.crash import crash

    view, seat, legal = _position()
    pool = AIPool(processes=1, iterations=5)
    pool.job = crash  # the worker process exits in the middle of the job, and again when it is retried
    try:
        with caplog.at_level(logging.ERROR):
            got = await pool.choose("cartagena", view, seat, legal, "hard", "seed-4")
    finally:
        pool.shutdown()
    assert got == decide("cartagena", view, seat, legal, "normal", "seed-4", None, None)
    assert pool.fallbacks == 1
    assert "WorkerDied" in caplog.text and "normal decides" in caplog.text


async def test_a_human_tables_decision_goes_before_queued_ai_only_ones() -> None:
    import asyncio

    from bot.infra.aipool import AI_ONLY_TABLE, HUMAN_TABLE

    view, seat, legal = _position()
    pool = AIPool(processes=1, iterations=60)  # long enough that the first job is still running meanwhile
    done: list[str] = []

    async def one(name: str, priority: int) -> None:
        await pool.choose("cartagena", view, seat, legal, "hard", name, priority=priority)
        done.append(name)

    try:
        await pool.pool.ready()  # type: ignore[union-attr]
        first = asyncio.create_task(one("ai-0", AI_ONLY_TABLE))
        await asyncio.sleep(0)  # the first job is submitted...
        while pool.pool._queue.qsize():  # noqa: SLF001 - ...and taken by the only worker
            await asyncio.sleep(0.01)
        rest = [asyncio.create_task(one(f"ai-{i}", AI_ONLY_TABLE)) for i in (1, 2, 3)]
        await asyncio.sleep(0)  # queued behind the running job, in order...
        human = asyncio.create_task(one("human", HUMAN_TABLE))  # ...and the human table's job after them
        await asyncio.gather(first, *rest, human)
    finally:
        pool.shutdown()
    assert done.index("human") <= 1, done  # at most the job already running finished before it


def test_simulate_plays_hard_through_a_worker() -> None:
    from bot.cli.simulate import simulate

    summary = simulate("martinique", 1, players=2, levels=["hard", "normal"], seed="sim-hard", ai_seconds=0.1)
    assert not summary.errors and summary.lengths
