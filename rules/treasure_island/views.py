"""What each seat may see (spec §4): the public view, plus a pirate's or Long John Silver's own secrets.

Positions are ``[x, y]`` in miles; node sets are base64 bitsets (§4.2). Nothing here depends on a secret unless
it goes into the ``private`` block of that secret's owner, or the game is over.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import State
from rules.treasure_island import calendar as C
from rules.treasure_island import engine as E
from rules.treasure_island import geometry as G
from rules.treasure_island import hints as H
from rules.treasure_island import moves as M
from rules.treasure_island.engine import P
from rules.treasure_island.maps import MAPS

COARSE = {
    "bury": "bury",
    "hint_card": "hint",
    "fog": "hint",
    "hint_token": "hint",
    "hint_param": "hint",
    "prison_trick": "prison",
    "prison": "prison",
    "turn": "turn",
    "ride2": "turn",
    "step": "turn",
    "chest": "chest",
    "compass": "compass",
    "escape": "escape",
    "phantom": "escape",
    "over": "over",
}
PUBLIC_STEPS = ("turn", "ride2", "step", "prison", "escape", "compass", "chest", "bury", "over")


def miles(p: list[int] | tuple[int, int]) -> list[float | int]:
    return [p[0] // 2 if p[0] % 2 == 0 else p[0] / 2, p[1] // 2 if p[1] % 2 == 0 else p[1] / 2]


@lru_cache(maxsize=4)
def _legal_b64(map_id: str) -> str:
    return G.mask_b64(G.geo(map_id).legal_mask)


def public_candidates(s: State) -> int:
    m = G.eligible_mask(s["options"]["map"], E.used_spots(s))
    for sr in s["searches"]:
        m &= ~G.mask_from_b64(sr["covered"])
    if s["hints"]:
        m &= G.mask_from_b64(s["hints"][0]["true_mask"])
    return m


def view(s: State, seat: int | None) -> dict[str, Any]:
    over = s["state"] == "over"
    st = s["state"]
    if st == "phantom":
        coarse_step = "escape"
    elif st in PUBLIC_STEPS:
        coarse_step = st
    else:
        coarse_step = COARSE[st]
    side = C.SIDES[s["side"]]
    played = {c["day"]: c for c in s["calendar"]}
    calendar = []
    for day, (stars, event) in side.items():
        c = played.get(day)
        tok = c["token"] if c else None
        if over and c and c["hint"] is not None:
            tok = s["hint_tokens"][c["hint"]]
        calendar.append(
            {
                "day": day,
                "stars": stars,
                "event": event,
                "active": c["active"] if c else None,
                "hint": c["hint"] if c else None,
                "token": tok,
            }
        )
    minis = {}
    for m in s["order"]:
        mi = s["minis"][m]
        specials = {"gallop": mi["gallop"], "verify": mi["verify"], "compass": mi["compass"]}
        if m == "anne":
            specials["monkey"] = mi["special"]
        elif m == "olivier":
            specials["spyglass"] = mi["special"]
        elif m == "ben":
            specials["recall"] = mi["special"]
        minis[m] = {
            "owner": s["owner"][m],
            "name": H.NAMES[m],
            "letter": C.LETTERS[m],
            "pos": miles(mi["pos"]),
            "trail": [[miles(a), miles(b), kind, day] for a, b, kind, day in mi["trail"]],
            "specials_left": specials,
            "chests_received": mi["chests"],
            "items_used": list(mi["items_used"]),
        }
    esc = s["escape"]
    figures = [
        {"id": f["id"], "pos": miles(f["pos"]), "trail": [[miles(a), miles(b), k, r] for a, b, k, r in f["trail"]]}
        for f in s["figures"]
    ]
    hints = []
    for idx, h in enumerate(s["hints"]):
        hh = dict(h)
        if over:
            hh["token"] = s["hint_tokens"][idx]
        hints.append(hh)
    players = []
    for p in range(s["n"]):
        players.append({"seat": p, "role": "silver" if p == s["silver"] else "pirate", "minis": E.player_minis(s, p)})
    v: dict[str, Any] = {
        "game": "treasure_island",
        "version": s["version"] if "version" in s else 1,
        "options": dict(s["options"]),
        "map": MAPS[s["options"]["map"]],
        "legal_mask": _legal_b64(s["options"]["map"]),
        "players": players,
        "silver_seat": s["silver"],
        "phase": COARSE[st],
        "step": coarse_step,
        "to_act": E.to_act(s),
        "day": s["day"],
        "side": s["side"],
        "active": s["turn"]["mini"],
        "left": s["turn"]["left"],
        "calendar": calendar,
        "order": list(s["order"]),
        "miniatures": minis,
        "silver": {
            "tower": s["tower"] if esc is None else None,
            "figures": figures,
            "round": esc["round"] if esc else 0,
            "fig": esc["fig"] if esc and st == "escape" else None,
        },
        "searches": [
            {**sr, "centre": miles(sr["centre"]), "anchor": miles(sr["anchor"]), "radius": sr["radius"] / 2}
            for sr in s["searches"]
        ],
        "hints": hints,
        "compass_uses": [{"day": c["day"], "by": c["by"], "pos": miles(c["pos"])} for c in s["compass_uses"]],
        "verifications": list(s["verifications"]),
        "chests": {
            "given": len(s["given"]),
            "chest_hints_played": s["chest_hints_played"],
            "credit": E.credit(s),
            "left": len(s["chest_tokens"]),
        },
        "counts": {
            "hint_hand": len(s["hand"]),
            "compass_hand": len(s["compass_hand"]),
            "starting_deck": len(s["starting_deck"]),
            "black_spot_deck": len(s["black_deck"]),
            "district_pile": len(s["district_pile"]),
            "bluffs_taken": s["bluffs_taken"],
        },
        "fog": [{"centre": miles(f["centre"]), "laid": f["laid"], "expires": f["expires"]} for f in s["fog"]],
        "tricks_public": list(s["tricks_public"]),
        "public_candidates": G.mask_b64(public_candidates(s)),
        "outcome": s["outcome"],
        "last": s["last"],
    }
    if over:
        v["reveal"] = _reveal(s)
    if seat is None:
        return v
    if seat == s["silver"]:
        v["step"] = st
        v["private"] = _silver_private(s)
    else:
        v["private"] = _pirate_private(s, seat)
    return v


def _reveal(s: State) -> dict[str, Any]:
    return {
        "treasure": miles(s["treasure"]) if s["treasure"] else None,
        "tokens": {str(h["day"]): t for h, t in zip(s["hints"], s["hint_tokens"], strict=True)},
        "districts": {m: list(d) for m, d in s["districts"].items()},
        "set_aside": s["set_aside"],
        "compass_given": [{**c, "pos": miles(c["pos"])} for c in s["compass_given"]],
        "given": list(s["given"]),
        "traitor": s["traitor"],
        "real_figure": s["real"],
        "tricks_played": list(s["tricks"]["played"]),
    }


def _reach_masks(s: State, seat: int) -> dict[str, str]:
    st = s["state"]
    if seat not in E.to_act(s) or st not in ("turn", "ride2", "step"):
        return {}
    m = s["turn"]["mini"]
    out: dict[str, str] = {}
    if st == "ride2":
        out["ride"] = G.mask_b64(G.mask_of(M.move_targets(s, m, 12)))
    elif st == "step":
        out["walk"] = G.mask_b64(G.mask_of(M.move_targets(s, m, 6)))
    else:
        if s["turn"]["left"] >= 1:
            out["ride"] = G.mask_b64(G.mask_of(M.move_targets(s, m, 12)))
            out["walk"] = G.mask_b64(G.mask_of(M.move_targets(s, m, 6)))
            out["search"] = G.mask_b64(G.mask_of(M.search_centres(s, m)))
        if "stride" in s["items"][seat]:
            out["stride"] = G.mask_b64(G.mask_of(M.move_targets(s, m, 14)))
    return out


def certain_excluded(s: State, seat: int) -> int:
    g = E.geo_of(s)
    mid = s["options"]["map"]
    ex = G.ALL & ~public_candidates(s)
    for m in E.player_minis(s, seat):
        for d in s["districts"][m]:
            ex |= g.district_mask[int(d[1:])]
    for c in s["compass_given"]:
        if s["owner"][c["mini"]] == seat:
            ex |= G.sector_mask(mid, P(c["pos"]), tuple(c["skulls"]))
    for it in s["info_tokens"][seat]:
        p = P(it["pos"])
        if it["token"] == "west":
            ex |= g.legal_mask & ~G.halfplane_mask(mid, p, "W")
        elif it["token"] == "east":
            ex |= g.legal_mask & ~G.halfplane_mask(mid, p, "E")
        else:
            ex |= g.district_mask[g.district[G.node(*p)]]
    for mem in s["memory"][seat]:
        disc = G.disc_mask(mid, g.landmarks[mem["landmark"]], 100, True)
        ex |= (g.legal_mask & ~disc) if mem["within_5"] else disc
    for ver in s["verified"][seat]:
        h = next(h for h in s["hints"] if h["day"] == ver["target_day"])
        tm = G.mask_from_b64(h["true_mask"])
        if ver["token"] == "truth":
            ex |= g.legal_mask & ~tm
        elif ver["token"] == "lie":
            ex |= tm
    return ex & G.ALL


def _pirate_private(s: State, seat: int) -> dict[str, Any]:
    g = E.geo_of(s)
    mine = E.player_minis(s, seat)
    return {
        "seat": seat,
        "minis": mine,
        "districts": {m: list(s["districts"][m]) for m in mine},
        "district_names": {d: g.district_names[int(d[1:])] for m in mine for d in s["districts"][m]},
        "compass": [
            {"day": c["day"], "mini": c["mini"], "pos": miles(c["pos"]), "card": c["card"], "skulls": list(c["skulls"])}
            for c in s["compass_given"]
            if s["owner"][c["mini"]] == seat
        ],
        "info_tokens": [{**it, "pos": miles(it["pos"])} for it in s["info_tokens"][seat]],
        "items": list(s["items"][seat]),
        "received": s["received"][seat],
        "verified": [{"target_day": v["target_day"], "token": v["token"]} for v in s["verified"][seat]],
        "memory": [dict(m) for m in s["memory"][seat]],
        "traitor": s["traitor"] == seat,
        "reach": _reach_masks(s, seat),
        "certain_excluded": G.mask_b64(certain_excluded(s, seat)),
    }


def _silver_private(s: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "treasure": miles(s["treasure"]) if s["treasure"] else None,
        "hand": H.sort_ids(s["hand"]),
        "discards": list(s["discards"]),
        "compass_hand": H.sort_ids(s["compass_hand"]),
        "districts": {"set_aside": s["set_aside"], "scrolls": list(s["scrolls"])},
        "tokens": dict(s["tokens"]),
        "hint_tokens": {str(h["day"]): t for h, t in zip(s["hints"], s["hint_tokens"], strict=True)},
        "chest_tokens": list(s["chest_tokens"]),
        "given": list(s["given"]),
        "compass_given": [{**c, "pos": miles(c["pos"])} for c in s["compass_given"]],
        "tricks": {
            "hand": list(s["tricks"]["hand"]),
            "points_left": s["tricks"]["points"],
            "played": list(s["tricks"]["played"]),
        },
        "real_figure": s["real"],
        "traitor": s["traitor"],
        "pending": dict(s["pending"]) if s["pending"] else None,
        "option_share": {},
        "choice_region": None,
        "reach": None,
        "chest_ctx": ({**s["chest_ctx"], "pos": miles(s["chest_ctx"]["pos"])} if s["chest_ctx"] else None),
        "compass_mini": s["compass_mini"],
    }
    st = s["state"]
    if st == "hint_param":
        out["option_share"], region = option_share(s)
        out["choice_region"] = G.mask_b64(region)
    if st == "bury":
        out["reach"] = G.mask_b64(G.eligible_mask(s["options"]["map"], E.used_spots(s)))
    elif st == "fog":
        out["reach"] = G.mask_b64(G.mask_of(M.fog_centres(s)))
    elif st == "escape":
        fig = s["figures"][s["escape"]["fig"]]
        out["reach"] = G.mask_b64(G.mask_of(E.geo_of(s).reach(P(fig["pos"]), 8)))
    return out


def option_share(s: State) -> tuple[dict[str, float], int]:
    """Each legal value of the current parameter → the share of ``public_candidates`` its best completion keeps,
    and the true region of the vaguest completion overall (what Silver is about to reveal)."""
    pend = s["pending"]
    ctx = E.hint_ctx(s)
    t = P(s["treasure"])
    cands = public_candidates(s)
    total = max(1, G.popcount(cands))
    out: dict[str, float] = {}
    top, top_region = -1.0, 0
    for v in M.param_values(s):
        best = 0.0
        for comp in H.completions(pend["card"], ctx, (*pend["params"], v)):
            ok = H.holds(pend["card"], comp, ctx, t)
            if (pend["token"] == "truth" and not ok) or (pend["token"] == "lie" and ok):
                continue
            region = H.region(pend["card"], comp, ctx)
            share = G.popcount(region & cands) / total
            best = max(best, share)
            if share > top:
                top, top_region = share, region
        out[v] = round(best, 3)
    return out, top_region
