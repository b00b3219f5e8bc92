"""How Martinique's ``hard`` search scores a position it stops short of the end (``Game.evaluate``): the points
on the table (the public view's own score preview) against the opponent's, six points being one swing."""

from __future__ import annotations

from rules.core import State, logistic
from rules.martinique.views import view

#: actions a rollout plays before this evaluation scores it
HORIZON = 40


def win_chance(state: State, seat: int) -> float:
    public = view(state, None)
    mine = public["players"][seat]["score_preview"]["total"]
    theirs = public["players"][1 - seat]["score_preview"]["total"]
    return logistic((mine - theirs) / 6.0)
