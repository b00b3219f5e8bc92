"""Treasure Island's action text: reading what a person types (``parse``: points in half-mile steps, ids upper-case)
and the words a picker shows for an action (``label``, ``group``, ``describe``)."""

from __future__ import annotations

import math
import re
from typing import Any

from rules.core import IllegalAction, normalize_text
from rules.treasure_island import calendar, geometry, hints, model
from rules.treasure_island.geometry import Pt

_VERBS = {
    "bury", "hint", "redraw", "trick", "fog", "token", "say", "proceed", "tower", "ride", "halt", "walk", "dig",
    "step", "stay", "search", "gallop", "compass", "verify", "monkey", "spyglass", "recall", "use", "end",
    "nothing", "give", "show", "run", "real",
}  # fmt: skip
_NOARG = {"redraw", "proceed", "halt", "dig", "stay", "compass", "end", "nothing"}
def _pt_text(text: str) -> str:
    p = geometry.parse_point(text)
    if p is None:
        raise IllegalAction("bad_point", "Positions use half-mile steps inside the map, e.g. 12.5,7")
    return geometry.fmt(p)


def _say_case(v: str) -> str:
    if re.fullmatch(r"[nsew]{1,2}", v) or re.fullmatch(r"[ld]\d+", v):
        return v.upper()
    return v


def point_of(action: str) -> Pt:
    """The point an action names last (``ride 12.5,7`` → (25, 14))."""
    p = geometry.parse_point(action.split(" ")[-1])
    assert p is not None
    return p



def parse(text: str) -> str:
    t = normalize_text(text)
    if not t:
        raise IllegalAction("bad_text", "Type an action, e.g. `ride 12.5,7`, `search 12,9.5` or `end`.")
    verb, _, rest = t.partition(" ")
    if verb not in _VERBS:
        raise IllegalAction("bad_text", f"Unknown action '{verb}'. Pick one from the list of legal moves.")
    if verb in _NOARG:
        if rest:
            raise IllegalAction("bad_text", f"`{verb}` takes nothing after it.")
        return verb
    if not rest:
        raise IllegalAction("bad_text", f"`{verb}` needs something after it, e.g. from the list of legal moves.")
    if verb in model.POINT_VERBS:
        return f"{verb} {_pt_text(rest)}"
    if verb == "use":
        item, _, more = rest.partition(" ")
        if item == "stride":
            return f"use stride {_pt_text(more)}"
        if item in ("extra", "dig") and not more:
            return f"use {item}"
        raise IllegalAction("bad_text", "Use a chest item: `use stride x,y`, `use extra` or `use dig`.")
    if verb == "give":
        parts = rest.split()
        if parts[0] not in calendar.CHEST_TOKENS or len(parts) > 2 or (len(parts) == 2 and parts[1] != "traitor"):
            raise IllegalAction("bad_text", "Give a chest token: e.g. `give east` or `give dig traitor`.")
        return f"give {rest}"
    if verb in ("hint", "tower", "show", "recall", "real"):
        if " " in rest:  # one id only: "hint S1 extra" must not pass for "hint S1"
            raise IllegalAction("bad_text", f"`{verb}` takes one id, e.g. from the list of legal moves.")
        return f"{verb} {rest.upper()}"
    if verb == "say":
        return f"say {_say_case(rest)}"
    return f"{verb} {rest}"


def label(view: dict[str, Any], action: str) -> str:
    verb = action.split(" ")[0]
    if verb in ("ride", "walk", "step", "search", "run") or action.startswith("use stride"):
        src = _acting_pos(view)
        if src is not None:
            p = point_of(action)
            return f"{action} ({geometry.miles_between(src, p)} mi {_direction(src, p)})"
    if verb == "verify":
        return f"{action} (token of June {action.split()[1]})"
    return action

def group(view: dict[str, Any], action: str) -> str:
    verb = action.split(" ")[0]
    if verb == "use":
        return "use " + action.split(" ")[1]
    if verb in model.POINT_VERBS:
        # One menu per verb; a phone user then picks a direction and a distance band, then the point (the
        # issue: nobody has to type coordinates). Long-range verbs get wider bands so a menu keeps to about
        # 25 entries. A point with no mover to measure from (burying, fog) goes by a band of columns.
        p = point_of(action)
        src = _acting_pos(view)
        if src is None or src == p:
            lo = (p[0] // 2) // 6 * 6
            return f"{verb} › x {lo}–{lo + 5}"
        width = 6 if verb in LONG_RANGE_VERBS else 2
        band = int(math.sqrt(geometry.d2(src, p)) / 2 // width) * width
        return f"{verb} › {_direction(src, p)} {band}–{band + width} mi"
    return verb


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if len(words) >= 2 and words[0] == "hint" and words[1].upper() in hints.EFFECTS:
        card = words[1].upper()
        return f"{hints.title(card)}: {hints.EFFECTS[card]}"[:100]
    if len(words) >= 2 and words[0] == "trick" and words[1] in calendar.TRICK_EFFECTS:
        return f"{words[1].capitalize()}: {calendar.TRICK_EFFECTS[words[1]]}"[:100]
    if len(words) >= 2 and words[0] == "show" and words[1].upper() in hints.COMPASS:
        a, b = hints.COMPASS[words[1].upper()]
        return f"Compass {words[1].upper()}: the treasure is in neither the {a} nor the {b} eighth"
    return ""


#: verbs whose destination may lie anywhere on the island
LONG_RANGE_VERBS = ("gallop", "spyglass", "monkey")


def _direction(a: Pt, b: Pt) -> str:
    return geometry.sector(a, b) or "here"


def _acting_pos(view: dict[str, Any]) -> Pt | None:
    if view.get("step") == "escape":
        figs = view["silver"].get("figures") or []
        e = view["silver"].get("fig") or 0
        return geometry.hu(figs[e]["pos"]) if figs and e < len(figs) else None
    m = view.get("active")
    if m and m in view["miniatures"]:
        return geometry.hu(view["miniatures"][m]["pos"])
    return None




