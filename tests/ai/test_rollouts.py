"""Each game's rollout (``Game.rollout``, rules/rollout.py) plays exactly the game: over seeded playouts from
sampled states, it owes the same seats, lists the same legal actions in the same order and reaches the same result
as the engine, and its policy only ever picks a legal action.

Two kinds of playout per position: random actions (every kind of action the lists hold gets applied) and the
rollout's own policy (the playouts the search really runs)."""

from __future__ import annotations

import random

import pytest

from rules import registry
from tests.ai.positions import positions, sampled_games

GAMES = sampled_games()
#: actions compared per playout (a whole game where it ends sooner)
LENGTH = 60


def _compare(game_id: str, state: dict, policy: bool, rnd: random.Random) -> int:
    """Play ``state`` on in the engine and in a rollout of a copy side by side; the number of steps compared."""
    game = registry.get(game_id)
    ro = game.rollout(game.load(game.dump(state)))
    for n in range(LENGTH):
        acting = game.to_act(state)
        assert ro.to_act() == acting, (game_id, n)
        if not acting:
            break
        seat = acting[0]
        legal = game.legal_actions(state, seat)
        assert ro.legal(seat) == legal, (game_id, n, seat)
        if policy:
            action = ro.choose(seat, rnd)
            assert action in legal, (game_id, n, action)
        else:
            action = legal[rnd.randrange(len(legal))]
        state, _ = game.apply(state, seat, action)
        ro.play(seat, action)
    else:
        n = LENGTH
    assert ro.outcome() == game.outcome(state), game_id
    assert ro.seats() == game.seat_count(state)
    if game.outcome(state) is None:
        assert 0.0 <= ro.evaluate(seat) <= 1.0
    return n


@pytest.mark.parametrize("game_id", GAMES)
def test_a_rollout_plays_the_engines_game(game_id: str) -> None:
    game = registry.get(game_id)
    compared = 0
    for n, (state, seat) in enumerate(positions(game_id, 11, 6)):
        sampled = game.sample(game.view(state, seat), seat, random.Random(n))
        for policy in (False, True):
            compared += _compare(game_id, sampled, policy, random.Random(f"{game_id}:{n}:{policy}"))
    assert compared >= 100, compared


@pytest.mark.parametrize("game_id", GAMES)
def test_a_rollout_plays_whole_games(game_id: str) -> None:
    """From the first move to the end, so every phase of the game (setup, endgame, scoring) is compared."""
    game = registry.get(game_id)
    for k in range(2):
        state = game.new(game.info.min_players, {}, f"rollout-{k}")
        rnd = random.Random(k)
        ro = game.rollout(game.load(game.dump(state)))
        for _ in range(20_000):
            acting = game.to_act(state)
            assert ro.to_act() == acting
            if not acting:
                break
            legal = game.legal_actions(state, acting[0])
            assert ro.legal(acting[0]) == legal
            action = ro.choose(acting[0], rnd)
            assert action in legal
            state, _ = game.apply(state, acting[0], action)
            ro.play(acting[0], action)
        assert game.outcome(state) is not None
        assert ro.outcome() == game.outcome(state)
