"""Who owes a decision in Treasure Island and what each seat may do, as canonical action texts in a fixed order.

The engine (checking and applying), the views (the reach masks the pickers and pictures show) and the AIs need
these lists, so they live here, below all of them (docs/games/treasure_island.md#the-action-language).
"""

from __future__ import annotations

from rules.core import State
from rules.treasure_island import calendar, geometry, hints, model
from rules.treasure_island.geometry import Pt
from rules.treasure_island.model import as_pt


def to_act(state: State) -> list[int]:
    step = state["state"]
    if step == "over":
        return []
    if step in ("bury", "hint_card", "fog", "hint_token", "hint_param", "prison_trick", "chest", "compass"):
        return [state["silver"]]
    if step in ("escape", "phantom"):
        return [state["silver"]]
    if step == "prison":
        return [state["prison_by"]]
    return [state["owner"][state["turn"]["mini"]]]


def _pts(verb: str, nodes: list[int]) -> list[str]:
    text = geometry.NODE_TEXT
    return [f"{verb} {text[k]}" for k in nodes]


def _sorted_nodes(mask: int) -> list[int]:
    return sorted(geometry.bits(mask), key=lambda k: (k % geometry.W, k // geometry.W))


def fog_centres(state: State) -> list[int]:
    g = model.geo_of(state)
    minis = [as_pt(m["pos"]) for m in state["minis"].values()]
    return [k for k in g.legal_nodes if all(geometry.d2(geometry.ij(k), p) > model.FOG_R2 for p in minis)]


def gallop_targets(state: State, m: str) -> list[int]:
    g = model.geo_of(state)
    here = geometry.node(*as_pt(state["minis"][m]["pos"]))
    fog = model.fog_discs(state)
    return [k for k in g.legal_nodes if k != here and all(geometry.d2(geometry.ij(k), c) > model.FOG_R2 for c in fog)]


def move_targets(state: State, m: str, limit: int, origin: Pt | None = None) -> list[int]:
    g = model.geo_of(state)
    a = origin if origin is not None else as_pt(state["minis"][m]["pos"])
    return g.reach(a, limit, m == "ben", model.fog_discs(state))


def search_centres(state: State, m: str) -> list[int]:
    return geometry.circle_nodes(as_pt(state["minis"][m]["pos"]), model.search_radius(m))


def verify_targets(state: State, seat: int) -> list[int]:
    done = {v["target_day"] for v in state["verified"][seat]}
    days = [h["day"] for h in state["hints"][1:]]
    return [d for d in days if d not in done]


def token_options(state: State) -> list[str]:
    pend = state["pending"]
    ctx = model.hint_ctx(state)
    out = []
    first = not state["hints"]
    if state["tokens"]["truth"] > 0:
        out.append("token truth")
    if state["tokens"]["bluff"] > 0 and not first:
        out.append("token bluff")
    if not first and model.trick_playable(state, "lie"):
        t = as_pt(state["treasure"])
        if any(not hints.holds(pend["card"], c, ctx, t) for c in hints.completions(pend["card"], ctx)):
            out.append("token lie")
    return out


def param_values(state: State) -> list[str]:
    pend = state["pending"]
    card = hints.CARDS[pend["card"]]
    ctx = model.hint_ctx(state)
    t = as_pt(state["treasure"])
    chosen = tuple(pend["params"])
    kind = card.params[len(chosen)]
    out = []
    for v in hints.values(kind, ctx, chosen):
        comps = hints.completions(card.id, ctx, (*chosen, v))
        if pend["token"] == "bluff":
            ok = bool(comps)
        elif pend["token"] == "truth":
            ok = any(hints.holds(card.id, c, ctx, t) for c in comps)
        else:
            ok = any(not hints.holds(card.id, c, ctx, t) for c in comps)
        if ok:
            out.append(v)
    return out


def chest_gives(state: State) -> list[str]:
    p = as_pt(state["chest_ctx"]["pos"])
    plain = [tok for tok in calendar.CHEST_TOKENS if tok in state["chest_tokens"] and model.info_true(state, tok, p)]
    out = [f"give {tok}" for tok in plain]
    if model.trick_playable(state, "traitor") and state["traitor"] is None:
        out += [f"give {tok} traitor" for tok in plain]
    return out


def compass_cards(state: State) -> list[str]:
    m = state["compass_mini"]
    p = as_pt(state["minis"][m]["pos"])
    t = as_pt(state["treasure"])
    return [f"show {c}" for c in hints.sort_ids(state["compass_hand"]) if hints.compass_true(c, p, t)]


def legal_actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    return _offers(state)


def _offers(state: State) -> list[str]:
    """What the seat that owes the current decision may do."""
    step = state["state"]
    g = model.geo_of(state)
    if step == "bury":
        elig = geometry.eligible_mask(state["options"]["map"], model.used_spots(state))
        return _pts("bury", [k for k in g.legal_nodes if elig >> k & 1])
    if step == "hint_card":
        out = [f"hint {c}" for c in model.playable_cards(state)]
        if model.redraw_allowed(state):
            out.append("redraw")
        if model.trick_playable(state, "fog") and state["pending"]["fog_left"] == 0:
            out.append("trick fog")
        return out
    if step == "fog":
        return _pts("fog", fog_centres(state))
    if step == "hint_token":
        return token_options(state)
    if step == "hint_param":
        return [f"say {v}" for v in param_values(state)]
    if step == "prison_trick":
        return (["trick mutiny"] if model.trick_playable(state, "mutiny") else []) + ["proceed"]
    if step == "prison":
        return [f"tower {t}" for t in g.tower_ids]
    if step == "turn":
        return turn_actions(state)
    if step == "ride2":
        return _pts("ride", move_targets(state, state["turn"]["mini"], 12)) + ["halt"]
    if step == "step":
        return _pts("step", move_targets(state, state["turn"]["mini"], 6)) + ["stay"]
    if step == "chest":
        return ["nothing", *chest_gives(state)]
    if step == "compass":
        return compass_cards(state)
    if step == "escape":
        e = state["escape"]
        fig = state["figures"][e["fig"]]
        out = _pts("run", g.reach(as_pt(fig["pos"]), 8))
        out.append("stay")
        if e["first"] and e["round"] == 1 and model.trick_playable(state, "phantom"):
            out.append("trick phantom")
        return out
    if step == "phantom":
        return ["real A", "real B", "real C"]
    return []


def turn_actions(state: State) -> list[str]:
    m = state["turn"]["mini"]
    mi = state["minis"][m]
    seat = state["owner"][m]
    left = state["turn"]["left"]
    g = model.geo_of(state)
    out: list[str] = []
    if left >= 1:
        out += _pts("ride", move_targets(state, m, 12))
        out += _pts("walk", move_targets(state, m, 6))
        out.append("dig")
        out += _pts("search", search_centres(state, m))
        if mi["gallop"]:
            out += _pts("gallop", gallop_targets(state, m))
        if mi["compass"]:
            out.append("compass")
        if mi["verify"]:
            out += [f"verify {d}" for d in verify_targets(state, seat)]
        if mi["special"]:
            if m == "anne":
                out += _pts("monkey", g.legal_nodes)
            elif m == "olivier":
                out += _pts("spyglass", g.legal_nodes)
            elif m == "ben":
                out += [f"recall {lm}" for lm in g.landmark_ids]
    items = state["items"][seat]
    if "stride" in items:
        out += _pts("use stride", move_targets(state, m, 14))
    if "extra" in items:
        out.append("use extra")
    if "dig" in items:
        out.append("use dig")
    out.append("end")
    return out
