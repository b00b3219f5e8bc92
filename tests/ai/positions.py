"""Seeded playout positions shared by the hard-AI tests: every game in the registry that has a sampler."""

from __future__ import annotations

import random
from functools import cache

from rules import registry
from rules.core import Game, State
from rules.playout import ai_chooser, steps

#: (players, options) per game: the default table, and a second shape where a game has one worth covering
SHAPES: dict[str, list[tuple[int, dict[str, str]]]] = {
    "cartagena": [(2, {}), (3, {"mode": "tortuga"}), (4, {"reshuffle": "on"})],
    "martinique": [(2, {})],
    "buccaneer": [(2, {}), (3, {})],
    "flagon": [(2, {}), (4, {})],
    "treasure_island": [(2, {}), (3, {})],
}


def has_sampler(game: Game) -> bool:
    state = game.new(game.info.min_players, {}, "probe")
    seat = game.to_act(state)[0]
    try:
        game.sample(game.view(state, seat), seat, random.Random(0))
    except NotImplementedError:
        return False
    return True


def sampled_games() -> list[str]:
    return [g.info.id for g in registry.all_games() if has_sampler(g)]


@cache
def positions(game_id: str, every: int, limit: int) -> list[tuple[State, int]]:
    """(state, seat to act) every ``every`` actions of seeded ``normal`` playouts, at most ``limit`` per shape;
    the last position before the end is always included."""
    game = registry.get(game_id)
    out: list[tuple[State, int]] = []
    for k, (players, options) in enumerate(SHAPES.get(game_id, [(game.info.min_players, {})])):
        taken: list[tuple[State, int]] = []
        last = None
        for i, step in enumerate(steps(game, players, options, f"hard-{k}", ai_chooser(["normal"] * players, f"a{k}"))):
            last = (step.before, step.seat)
            if i % every == 0 and len(taken) < limit:
                taken.append(last)
        if last is not None and last not in taken:
            taken.append(last)
        out += taken
    return out
