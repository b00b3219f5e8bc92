"""How Treasure Island's ``hard`` search scores a position it stops short of the end (``Game.evaluate``).

Nothing on the island measures a lead the way points do elsewhere (a pirate is either on the treasure or not), so a
rollout cut off at its horizon scores the seat's fair share; the horizon is short because a rollout of ``normal``
pirates and Silver is slow.
"""

from __future__ import annotations

from rules.core import State

#: actions a rollout plays before this evaluation scores it
HORIZON = 24


def win_chance(state: State, seat: int) -> float:
    return 1.0 / state["n"]
