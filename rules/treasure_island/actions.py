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


#: the verbs whose label measures the distance and direction from the acting miniature
_MEASURED = ("ride", "walk", "step", "search", "run", "gallop", "monkey", "spyglass")
#: what a clue chest tells its receiver (docs/games/treasure_island.md#chest-tokens); an item chest says it in its name
_CLUE = {
    "west": "the treasure lies west of where the miniature stood",
    "east": "the treasure lies east of where the miniature stood",
    "notdistrict": "the treasure is not in the district where the miniature stood",
}
_TOKENS = {
    "truth": "Truth token: the hint must be true",
    "bluff": "Bluff token: the hint may be false",
    "lie": "Lie trick as its token: the hint must be false",
}


def label(view: dict[str, Any], action: str) -> str:
    """The option said once, by name: a hint card by its title (its effect is the description), a place by its
    name, a point with how far and which way it lies from the miniature."""
    words = action.split(" ")
    verb = words[0]
    if verb in _MEASURED or action.startswith("use stride"):
        src = _acting_pos(view)
        if src is not None:
            p = point_of(action)
            return f"{action} ({geometry.miles_between(src, p)} mi {_direction(src, p)})"
    if verb == "verify":
        return f"{action} (token of June {words[1]})"
    if verb == "hint" and len(words) == 2 and words[1] in hints.EFFECTS:
        return hints.title(words[1])
    if verb == "trick" and len(words) == 2:
        return f"{words[1].capitalize()} (trick)"
    if verb == "show" and len(words) == 2 and words[1] in hints.COMPASS:
        return f"{words[1]} (not {' nor '.join(hints.COMPASS[words[1]])})"
    if verb == "token" and len(words) == 2 and words[1] in _TOKENS:
        return _TOKENS[words[1]].split(":")[0]
    if verb == "give" and len(words) >= 2 and words[1] in calendar.CHEST_NAMES:
        name = calendar.CHEST_NAMES[words[1]].split(" (")[0]
        return f"give {name}" + (", with the Traitor" if words[-1] == "traitor" else "")
    if verb in ("tower", "recall", "say") and len(words) == 2:
        return _named(view, words[1], _param_kind(view) if verb == "say" else "")
    return action


def _param_kind(view: dict[str, Any]) -> str:
    """The kind of the hint parameter Silver names now (his own view's pending hint), or ""."""
    pend = (view.get("private") or {}).get("pending") or {}
    card = hints.CARDS.get(pend.get("card") or "")
    done = len(pend.get("params") or [])
    return card.params[done] if card is not None and done < len(card.params) else ""


def _named(view: dict[str, Any], value: str, kind: str = "") -> str:
    """A tower, landmark, district, pirate or hint value in words (``T2 West Tower``, ``within 8 miles``)."""
    board = view.get("map") or {}
    for kind in ("towers", "landmarks", "districts"):
        for item in board.get(kind) or []:
            if item.get("id") == value:
                return f"{value} {item['name']}"
    if value in hints.NAMES:
        return hints.NAMES[value]
    m = re.fullmatch(r"(within|beyond)-(\d+)", value)
    if m:
        return f"{m.group(1)} {m.group(2)} miles"
    if re.fullmatch(r"\d+-\d+|\d+\+", value):
        return f"{value.replace('-', '–')} miles"
    if value.startswith("level-"):
        return f"altitude level {value[6:]}"
    if kind == "bank":
        return f"the {value} bank"
    if kind == "elev":
        return "at the same height" if value == "same" else value
    if kind == "contour":
        return value.replace("-", " contour ")
    return value.replace("notin-", "not in ").replace("in-", "in ").replace("-", " ")


def group(view: dict[str, Any], action: str) -> str:
    verb = action.split(" ")[0]
    if verb == "use":
        return "use " + action.split(" ")[1]
    if verb in model.POINT_VERBS:
        return verb + _band(_acting_pos(view), point_of(action), verb)
    return verb


def groups(view: dict[str, Any], actions: list[str]) -> list[str]:
    """``group`` of each action: the miniature's position read once, each point's band worked out once for all the
    verbs that name it, and the canonical points (``12.5,7``, as ``legal_actions`` writes them) read without
    fractions: a move lists up to about 5,000 points, most of them for two verbs."""
    src = _acting_pos(view)
    bands: dict[tuple[str, bool], str] = {}
    out = []
    for action in actions:
        verb, _, rest = action.partition(" ")
        if verb not in model.POINT_VERBS:
            out.append(group(view, action))
            continue
        key = (rest, verb in LONG_RANGE_VERBS)
        band = bands.get(key)
        if band is None:
            x, _, y = rest.rpartition(" ")[2].partition(",")
            band = bands[key] = _band(src, (round(float(x) * 2), round(float(y) * 2)), verb)
        out.append(verb + band)
    return out


def _band(src: Pt | None, p: Pt, verb: str) -> str:
    """The second level of a point's menu: its direction and distance band from the miniature."""
    # One menu per verb; a phone user then picks a direction and a distance band, then the point (the
    # issue: nobody has to type coordinates). Long-range verbs get wider bands so a menu keeps to about
    # 25 entries. A point with no mover to measure from (burying, fog) goes by a band of columns.
    if src is None or src == p:
        lo = (p[0] // 2) // 6 * 6
        return f" › x {lo}–{lo + 5}"
    width = 6 if verb in LONG_RANGE_VERBS else 2
    band = int(math.sqrt(geometry.d2(src, p)) / 2 // width) * width
    return f" › {_direction(src, p)} {band}–{band + width} mi"


def describe(view: dict[str, Any], action: str) -> str:
    """What a card, trick, token or chest does; the label names it."""
    words = action.split()
    if len(words) >= 2 and words[0] == "hint" and words[1].upper() in hints.EFFECTS:
        return hints.EFFECTS[words[1].upper()][:100]
    if len(words) >= 2 and words[0] == "trick" and words[1] in calendar.TRICK_EFFECTS:
        return calendar.TRICK_EFFECTS[words[1]][:100]
    if len(words) >= 2 and words[0] == "show" and words[1].upper() in hints.COMPASS:
        a, b = hints.COMPASS[words[1].upper()]
        return f"the treasure is in neither the {a} nor the {b} eighth"
    if len(words) == 2 and words[0] == "token" and words[1] in _TOKENS:
        return _TOKENS[words[1]].split(": ")[1]
    if len(words) >= 2 and words[0] == "give" and words[1] in calendar.CHEST_NAMES:
        name = calendar.CHEST_NAMES[words[1]]
        what = _CLUE.get(words[1]) or (name.split(" (")[1].rstrip(")") if " (" in name else name)
        traitor = "; the Traitor inside: its receiver wins with Long John Silver" if words[-1] == "traitor" else ""
        return f"{what}{traitor}"[:100]
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




