"""A whole game of each game with a sampler through the table host, every seat ``hard`` (a tiny iteration budget):
the opener adds hard AIs, starts, and leaves, so the host's takeover (set to ``hard``) plays the vacated seat."""

from __future__ import annotations

import asyncio

import pytest

from bot.host.tables import TableHost
from bot.infra.store import Store
from rules import registry
from tests.ai.positions import sampled_games
from tests.host.conftest import ANA, CHANNEL, RecordingRenderer

GAMES = sampled_games()


@pytest.mark.parametrize("game_id", GAMES)
async def test_whole_hard_game_through_the_host(game_id: str, tmp_path) -> None:  # noqa: ANN001
    game = registry.get(game_id)
    host = TableHost(
        Store(str(tmp_path / "hard.sqlite3")),
        ai_seed="hard",
        renderer=RecordingRenderer(cheap=True),
        ai_iterations=1,
        ai_takeover_level="hard",
    )
    await host.start()
    try:
        assert (await host.open(ANA, game_id, {})).ok
        for _ in range(game.info.min_players - 1):
            out = await host.ai_add(ANA, "hard")
            assert out.ok, out.reply
        assert (await host.start_table(ANA)).ok
        out = await host.leave(ANA)
        assert out.ok, out.reply
        summary = host.table_for(CHANNEL)
        assert summary is None or summary.status != "running"
        t = next(iter(host.index.tables.values()))  # noqa: SLF001 - the test looks inside
        assert t.status == "finished", t.status
        assert game.outcome(t.state) is not None
        assert all(s.ai_level == "hard" for s in t.seats)
        assert host.internal_errors == 0
        assert host.ai.fallbacks == 0
    finally:
        await host.close()


async def test_a_table_sets_its_hard_ais_think_time(tmp_path) -> None:  # noqa: ANN001
    host = TableHost(Store(str(tmp_path / "t.sqlite3")), ai_seed="t", renderer=RecordingRenderer(cheap=True))
    await host.start()
    asked: list[tuple[str, float | None]] = []

    async def choose(game_id, view, seat, legal, level, seed, *, seconds=None, priority=0):  # noqa: ANN001, ANN202
        asked.append((level, seconds))
        return legal[0]

    host.ai.choose = choose  # type: ignore[method-assign]
    try:
        assert (await host.open(ANA, "martinique", {})).ok
        refused = await host.ai_add(ANA, "hard", 60.0)
        assert not refused.ok and "seconds" in refused.reply
        out = await host.ai_add(ANA, "hard", 2.5)
        assert out.ok and "hard, 2.5 s" in out.reply
        t = next(iter(host.index.tables.values()))  # noqa: SLF001
        assert t.seats[1].ai_level == "hard:2.5"
        assert (await host.start_table(ANA)).ok
        while not asked:
            # Black (seat 1, Ana) moves first; her move hands the turn to the AI
            legal = t.game.legal_actions(t.state, 0)
            assert (await host.play(ANA, legal[0])).ok
        assert asked[0] == ("hard", 2.5)
    finally:
        await host.close()


async def test_the_event_loop_runs_while_a_hard_ai_thinks(tmp_path) -> None:  # noqa: ANN001
    """The search runs in a worker process: other work on the loop goes on while the table waits for it."""
    host = TableHost(
        Store(str(tmp_path / "loop.sqlite3")), ai_seed="loop", renderer=RecordingRenderer(cheap=True),
        ai_processes=1, ai_iterations=40,
    )
    await host.start()
    ticks = 0
    thinking = True

    async def heartbeat() -> None:
        nonlocal ticks
        while thinking:
            ticks += 1
            await asyncio.sleep(0.005)

    try:
        await host.ai.pool.ready()  # type: ignore[union-attr]
        assert (await host.open(ANA, "martinique", {})).ok
        assert (await host.ai_add(ANA, "hard")).ok
        assert (await host.start_table(ANA)).ok
        t = next(iter(host.index.tables.values()))  # noqa: SLF001
        beat = asyncio.create_task(heartbeat())
        before = ticks
        assert (await host.play(ANA, t.game.legal_actions(t.state, 0)[0])).ok
        during = ticks - before
        thinking = False
        await beat
        assert t.game.to_act(t.state) == [0]  # the AI moved and handed the turn back
        assert during >= 3, during
        assert host.ai.fallbacks == 0
    finally:
        thinking = False
        await host.close()
