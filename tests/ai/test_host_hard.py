"""A whole game of each game with a sampler through the table host, every seat ``hard`` (a tiny iteration budget):
the opener adds hard AIs, starts, and leaves, so the host's takeover (set to ``hard``) plays the vacated seat."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableHost
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
        t = next(iter(host._tables.values()))  # noqa: SLF001 - the test looks inside
        assert t.status == "finished", t.status
        assert game.outcome(t.state) is not None
        assert all(s.ai_level == "hard" for s in t.seats)
        assert host.internal_errors == 0
        assert host.ai.fallbacks == 0
    finally:
        await host.close()
