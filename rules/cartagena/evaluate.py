"""How Cartagena's ``hard`` search scores a position it stops short of the end (``Game.evaluate``): progress.

A seat's progress is the sum of its pirates' positions (the sloop counting 42) plus 3 a card held, up to ten
cards; its win chance is a logistic curve of its lead over the best rival, 15 points of lead being one swing.
"""

from __future__ import annotations

from rules.core import State, logistic

#: actions a rollout plays before this evaluation scores it
HORIZON = 40


def win_chance(state: State, seat: int) -> float:
    def progress(s: int) -> float:
        return sum(42 if p == 37 else p for p in state["pirates"][s]) + 3.0 * min(sum(state["hands"][s]), 10)

    mine = progress(seat)
    best_other = max(progress(s) for s in range(state["players"]) if s != seat)
    return logistic((mine - best_other) / 15.0)
