"""How Buccaneer's ``hard`` search scores a position it stops short of the end (``Game.evaluate``): treasure at
home (20 wins) plus most of what is in the hold, against the best rival's, five points being one swing."""

from __future__ import annotations

from rules.buccaneer.model import TREASURE_VALUE
from rules.buccaneer.views import public_view
from rules.core import State, logistic

#: actions a rollout plays before this evaluation scores it
HORIZON = 40


def win_chance(state: State, seat: int) -> float:
    view = public_view(state)
    worth: dict[int, float] = {}
    for harbour in view["harbours"]:
        if harbour.get("owner") is not None:
            worth[harbour["owner"]] = float(harbour["home_value"])
    for player in view["players"]:
        hold = sum(TREASURE_VALUE.get(item, 0) for item in player["ship"]["hold"])
        worth[player["seat"]] = worth.get(player["seat"], 0.0) + 0.7 * hold
    mine = worth.get(seat, 0.0)
    best_other = max((v for s, v in worth.items() if s != seat), default=0.0)
    return logistic((mine - best_other) / 5.0)
