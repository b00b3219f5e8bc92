"""The secrecy proof: with the same view and the same AI seed, ``hard`` picks the same action however the hidden
parts of the real state differ.

The other real states come from the leak tests' scramblers (tests/secrets/scramblers.py: hands re-dealt, piles
reordered, hidden tiles and the treasure moved, a new seed), kept when the seat's own view is unchanged, and from
the game's sampler (states the seat cannot tell apart). Each decision runs the way the host runs it (bot.infra.aipool's
``decide``: the view crosses to the AI, never the state) with a fixed iteration budget, so any difference in the
action could only come from the hidden parts. Runs for every game in the registry that has a sampler."""

from __future__ import annotations

import random

import pytest

from bot.infra.aipool import decide
from rules import registry
from rules.core import canonical_json
from tests.ai.positions import positions, sampled_games
from tests.secrets import scramblers
from tests.tiers import quick_subset

GAMES = sampled_games()


def _hidden_differs(a: dict, b: dict) -> bool:
    strip = ("seed", "rng_n")
    return canonical_json({k: v for k, v in a.items() if k not in strip}) != canonical_json(
        {k: v for k, v in b.items() if k not in strip}
    )


# Treasure Island's rollouts are the slowest by far: the slow tier's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(GAMES, set(GAMES) - {"treasure_island"}))
def test_hard_depends_only_on_the_view(game_id: str) -> None:
    game = registry.get(game_id)
    scramble = getattr(scramblers, game_id)
    rnd = random.Random(game_id)
    compared = scrambled = 0
    for n, (state, seat) in enumerate(positions(game_id, 17, 5)):
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        others = []
        for _ in range(12):
            other = scramble(state, rnd)
            if canonical_json(game.view(other, seat)) == canonical_json(view) and _hidden_differs(other, state):
                others.append(other)
                scrambled += 1
                if len(others) == 2:
                    break
        others.append(game.sample(view, seat, random.Random(n)))
        seed = f"secrecy:{game_id}:{n}"
        expected = decide(game_id, view, seat, legal, "hard", seed, None, 4)
        for other in others:
            assert game.legal_actions(other, seat) == legal
            got = decide(game_id, game.view(other, seat), seat, game.legal_actions(other, seat), "hard", seed, None, 4)
            assert got == expected, (game_id, n)
            compared += _hidden_differs(other, state)
    assert compared >= 3, f"{game_id}: too few positions where the hidden state really differed"
    if game_id == "cartagena":
        assert scrambled, "the scramblers never produced a state the seat could not tell apart"
