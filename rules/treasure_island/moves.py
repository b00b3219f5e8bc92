"""Treasure Island's legal moves: what each decision offers, as canonical action texts in a fixed order.

Both the engine (``game.py``: checking and applying) and the views (``views.py``: the reach masks the pickers
and pictures show) need these lists, so they live here, below both, and neither imports the other for them.
"""

from __future__ import annotations

from rules.core import State
from rules.treasure_island import calendar as C
from rules.treasure_island import engine as E
from rules.treasure_island import geometry as G
from rules.treasure_island import hints as H
from rules.treasure_island.engine import P
from rules.treasure_island.geometry import Pt


def _pts(verb: str, nodes: list[int]) -> list[str]:
    text = G.NODE_TEXT
    return [f"{verb} {text[k]}" for k in nodes]


def _sorted_nodes(mask: int) -> list[int]:
    return sorted(G.bits(mask), key=lambda k: (k % G.W, k // G.W))


def fog_centres(s: State) -> list[int]:
    g = E.geo_of(s)
    minis = [P(m["pos"]) for m in s["minis"].values()]
    return [k for k in g.legal_nodes if all(G.d2(G.ij(k), p) > E.FOG_R2 for p in minis)]


def gallop_targets(s: State, m: str) -> list[int]:
    g = E.geo_of(s)
    here = G.node(*P(s["minis"][m]["pos"]))
    fog = E.fog_discs(s)
    return [k for k in g.legal_nodes if k != here and all(G.d2(G.ij(k), c) > E.FOG_R2 for c in fog)]


def move_targets(s: State, m: str, limit: int, origin: Pt | None = None) -> list[int]:
    g = E.geo_of(s)
    a = origin if origin is not None else P(s["minis"][m]["pos"])
    return g.reach(a, limit, m == "ben", E.fog_discs(s))


def search_centres(s: State, m: str) -> list[int]:
    return G.circle_nodes(P(s["minis"][m]["pos"]), E.search_radius(m))


def verify_targets(s: State, seat: int) -> list[int]:
    done = {v["target_day"] for v in s["verified"][seat]}
    days = [h["day"] for h in s["hints"][1:]]
    return [d for d in days if d not in done]


def token_options(s: State) -> list[str]:
    pend = s["pending"]
    ctx = E.hint_ctx(s)
    out = []
    first = not s["hints"]
    if s["tokens"]["truth"] > 0:
        out.append("token truth")
    if s["tokens"]["bluff"] > 0 and not first:
        out.append("token bluff")
    if not first and E.trick_playable(s, "lie"):
        t = P(s["treasure"])
        if any(not H.holds(pend["card"], c, ctx, t) for c in H.completions(pend["card"], ctx)):
            out.append("token lie")
    return out


def param_values(s: State) -> list[str]:
    pend = s["pending"]
    card = H.CARDS[pend["card"]]
    ctx = E.hint_ctx(s)
    t = P(s["treasure"])
    chosen = tuple(pend["params"])
    kind = card.params[len(chosen)]
    out = []
    for v in H.values(kind, ctx, chosen):
        comps = H.completions(card.id, ctx, (*chosen, v))
        if pend["token"] == "bluff":
            ok = bool(comps)
        elif pend["token"] == "truth":
            ok = any(H.holds(card.id, c, ctx, t) for c in comps)
        else:
            ok = any(not H.holds(card.id, c, ctx, t) for c in comps)
        if ok:
            out.append(v)
    return out


def chest_gives(s: State) -> list[str]:
    p = P(s["chest_ctx"]["pos"])
    plain = [tok for tok in C.CHEST_TOKENS if tok in s["chest_tokens"] and E.info_true(s, tok, p)]
    out = [f"give {tok}" for tok in plain]
    if E.trick_playable(s, "traitor") and s["traitor"] is None:
        out += [f"give {tok} traitor" for tok in plain]
    return out


def compass_cards(s: State) -> list[str]:
    m = s["compass_mini"]
    p = P(s["minis"][m]["pos"])
    t = P(s["treasure"])
    return [f"show {c}" for c in H.sort_ids(s["compass_hand"]) if H.compass_true(c, p, t)]


def legal(s: State) -> list[str]:
    st = s["state"]
    g = E.geo_of(s)
    if st == "bury":
        elig = G.eligible_mask(s["options"]["map"], E.used_spots(s))
        return _pts("bury", [k for k in g.legal_nodes if elig >> k & 1])
    if st == "hint_card":
        out = [f"hint {c}" for c in E.playable_cards(s)]
        if E.redraw_allowed(s):
            out.append("redraw")
        if E.trick_playable(s, "fog") and s["pending"]["fog_left"] == 0:
            out.append("trick fog")
        return out
    if st == "fog":
        return _pts("fog", fog_centres(s))
    if st == "hint_token":
        return token_options(s)
    if st == "hint_param":
        return [f"say {v}" for v in param_values(s)]
    if st == "prison_trick":
        return (["trick mutiny"] if E.trick_playable(s, "mutiny") else []) + ["proceed"]
    if st == "prison":
        return [f"tower {t}" for t in g.tower_ids]
    if st == "turn":
        return turn_actions(s)
    if st == "ride2":
        return _pts("ride", move_targets(s, s["turn"]["mini"], 12)) + ["halt"]
    if st == "step":
        return _pts("step", move_targets(s, s["turn"]["mini"], 6)) + ["stay"]
    if st == "chest":
        return ["nothing", *chest_gives(s)]
    if st == "compass":
        return compass_cards(s)
    if st == "escape":
        e = s["escape"]
        fig = s["figures"][e["fig"]]
        out = _pts("run", g.reach(P(fig["pos"]), 8))
        out.append("stay")
        if e["first"] and e["round"] == 1 and E.trick_playable(s, "phantom"):
            out.append("trick phantom")
        return out
    if st == "phantom":
        return ["real A", "real B", "real C"]
    return []


def turn_actions(s: State) -> list[str]:
    m = s["turn"]["mini"]
    mi = s["minis"][m]
    seat = s["owner"][m]
    left = s["turn"]["left"]
    g = E.geo_of(s)
    out: list[str] = []
    if left >= 1:
        out += _pts("ride", move_targets(s, m, 12))
        out += _pts("walk", move_targets(s, m, 6))
        out.append("dig")
        out += _pts("search", search_centres(s, m))
        if mi["gallop"]:
            out += _pts("gallop", gallop_targets(s, m))
        if mi["compass"]:
            out.append("compass")
        if mi["verify"]:
            out += [f"verify {d}" for d in verify_targets(s, seat)]
        if mi["special"]:
            if m == "anne":
                out += _pts("monkey", g.legal_nodes)
            elif m == "olivier":
                out += _pts("spyglass", g.legal_nodes)
            elif m == "ben":
                out += [f"recall {lm}" for lm in g.landmark_ids]
    items = s["items"][seat]
    if "stride" in items:
        out += _pts("use stride", move_targets(s, m, 14))
    if "extra" in items:
        out.append("use extra")
    if "dig" in items:
        out.append("use dig")
    out.append("end")
    return out
