"""``hard`` picks a legal action at every sampled position of seeded playouts (a small iteration budget), never
sees more than its view, and is reproducible for a given view, seed and budget."""

from __future__ import annotations

import random

import pytest

from rules import registry, search
from rules.core import AI_LEVELS
from tests.ai.positions import positions, sampled_games
from tests.tiers import quick_subset

GAMES = sampled_games()


def test_hard_is_a_level() -> None:
    assert AI_LEVELS == ("easy", "normal", "hard")


# Treasure Island's rollouts are the slowest by far: the slow tier's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(GAMES, set(GAMES) - {"treasure_island"}))
def test_hard_returns_a_legal_action(game_id: str) -> None:
    game = registry.get(game_id)
    with search.budget(iterations=3):
        for n, (state, seat) in enumerate(positions(game_id, 13, 8)):
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            action = game.ai_choose(view, seat, list(legal), "hard", random.Random(n))
            assert action in legal, (game_id, n, action)
            assert game.ai_choose(view, seat, list(legal), "hard", random.Random(n)) == action


def test_the_budget_bounds_the_search() -> None:
    game = registry.get("cartagena")
    state, seat = next((s, a) for s, a in positions("cartagena", 13, 8) if len(game.legal_actions(s, a)) > 3)
    with search.budget(iterations=7):
        game.ai_choose(game.view(state, seat), seat, game.legal_actions(state, seat), "hard", random.Random(1))
    assert search.last_stats.iterations == 7
    with pytest.raises(ValueError):
        search.Budget(None, None)


def test_a_search_can_overturn_normal() -> None:
    """With budget enough, the search sometimes plays other than ``normal`` (else it would only be ``normal``)."""
    game = registry.get("cartagena")
    differ = 0
    with search.budget(iterations=60):
        for n, (state, seat) in enumerate(positions("cartagena", 13, 8)[:10]):
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            hard = game.ai_choose(view, seat, list(legal), "hard", random.Random(n))
            normal = game.ai_choose(view, seat, list(legal), "normal", random.Random(n))
            differ += hard != normal
    assert differ
