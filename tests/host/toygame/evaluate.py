"""How the toy's ``hard`` search scores a position it stops short of the end: the gems in the seat's hand against
the best rival's, one gem (two points) being one swing."""

from __future__ import annotations

from rules.core import State, logistic
from tests.host.toygame.board import value

#: actions a rollout plays before this evaluation scores it: a whole short game
HORIZON = 30


def win_chance(state: State, seat: int) -> float:
    def worth(s: int) -> int:
        return sum(value(g) for g in state["hands"][s])

    best_other = max(worth(s) for s in range(state["players"]) if s != seat)
    return logistic((worth(seat) - best_other) / 2.0)
