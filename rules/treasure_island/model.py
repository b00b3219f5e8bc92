"""The small state helpers every Treasure Island module shares: the map a state is played on, the miniatures'
names, which hints and tricks Long John Silver may play now, fog, search radii and whether a chest token is true."""

from __future__ import annotations

from rules.core import State
from rules.treasure_island import calendar, geometry, hints
from rules.treasure_island.board import MAPS
from rules.treasure_island.geometry import Pt

NAMES = hints.NAMES
SILVER = "Long John Silver"
POINT_VERBS = ("bury", "fog", "ride", "walk", "step", "search", "gallop", "monkey", "spyglass", "run")
ESCAPE_ROUNDS = 30
FOG_R2 = 9  # fog discs: 1.5 miles = 3 hu


def as_pt(v: list[int] | tuple[int, int]) -> Pt:
    """A point as the state stores it (``[i, j]`` in half-miles) as a ``Pt``."""
    return (v[0], v[1])


def month(day: int) -> str:
    return f"June {day}"


# -- small state queries ---------------------------------------------------------------------------------------
def geo_of(state: State) -> geometry.Geo:
    return geometry.geo(state["options"]["map"])


def mini_name(m: str) -> str:
    return NAMES[m]


def used_spots(state: State) -> tuple[str, ...]:
    return tuple(c for c in calendar.CHARACTERS if c in state["minis"])


def player_minis(state: State, seat: int) -> list[str]:
    """A player's miniatures in pass order."""
    return sorted((m for m in state["minis"] if state["owner"][m] == seat), key=lambda m: state["pass_idx"][m])


def current_deck(state: State) -> str:
    return "black_deck" if state["black_spot"] else "starting_deck"


def credit(state: State) -> int:
    return len(state["given"]) - state["chest_hints_played"]


def playable_cards(state: State) -> list[str]:
    return hints.sort_ids([c for c in state["hand"] if not hints.CARDS[c].chest or credit(state) >= 1])


def redraw_allowed(state: State) -> bool:
    hand = state["hand"]
    return len(hand) == 3 and all(hints.CARDS[c].chest for c in hand) and len(state[current_deck(state)]) > 0


def trick_playable(state: State, card: str) -> bool:
    t = state["tricks"]
    if card not in t["hand"]:
        return False
    value, date_a, date_b = calendar.TRICKS[card]
    if value > t["points"]:
        return False
    if state["escape"] is not None:
        return card == "phantom"
    return state["day"] <= (date_a if state["side"] == "A" else date_b)


def hint_ctx(state: State) -> hints.Ctx:
    g = geo_of(state)
    return hints.Ctx(
        state["options"]["map"],
        tuple((m, as_pt(state["minis"][m]["pos"])) for m in state["order"]),
        (state["tower"], g.towers[state["tower"]]),
    )


def fog_discs(state: State) -> tuple[Pt, ...]:
    return tuple(as_pt(f["centre"]) for f in state["fog"])


def search_radius(mini: str) -> int:
    return 5 if mini == "jim" else 4


def holds_token(state: State, token: str) -> bool:
    return token in state["chest_tokens"]


def info_true(state: State, token: str, p: Pt) -> bool:
    t = as_pt(state["treasure"])
    if token == "west":
        return t[0] <= p[0]
    if token == "east":
        return t[0] >= p[0]
    if token == "notdistrict":
        g = geo_of(state)
        return g.district[geometry.node(*t)] != g.district[geometry.node(*p)]
    return True


def tower_name(state: State, tid: str) -> str:
    for t in MAPS[state["options"]["map"]]["towers"]:
        if t["id"] == tid:
            return t["name"]
    return tid
