"""How Flagon's ``hard`` search scores a position it stops short of the end (``Game.evaluate``): the seat's crew's
score (Reputation and treasure, as the end counts it) against the best other crew's, eight points being one swing."""

from __future__ import annotations

from rules.core import State, logistic
from rules.flagon.engine import scores

#: actions a rollout plays before this evaluation scores it
HORIZON = 48


def win_chance(state: State, seat: int) -> float:
    crew = next(name for name, seats in state["crews"].items() if seat in seats)
    totals = scores(state)
    mine = totals[crew]["total"]
    best_other = max(s["total"] for name, s in totals.items() if name != crew)
    return logistic((mine - best_other) / 8.0)
