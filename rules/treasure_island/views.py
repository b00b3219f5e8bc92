"""What each Treasure Island seat may see (docs/games/treasure_island.md#hidden-information): the public view, plus a
pirate's or Long John Silver's own secrets; and the table's words from a view: what a seat owes, its name and its
private summary.

Positions are ``[x, y]`` in miles; node sets are base64 bitsets
(docs/games/treasure_island.md#the-grid-every-position-is-a-node). Nothing here depends on a secret unless it goes into
the ``private`` block of that secret's owner, or the game is over.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import State
from rules.treasure_island import calendar, geometry, hints, model, moves
from rules.treasure_island.board import MAPS
from rules.treasure_island.model import as_pt

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
    return geometry.mask_b64(geometry.geo(map_id).legal_mask)


def public_candidates(state: State) -> int:
    m = geometry.eligible_mask(state["options"]["map"], model.used_spots(state))
    for sr in state["searches"]:
        m &= ~geometry.mask_from_b64(sr["covered"])
    if state["hints"]:
        m &= geometry.mask_from_b64(state["hints"][0]["true_mask"])
    return m


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state["state"] == "over"
    step = state["state"]
    if step == "phantom":
        coarse_step = "escape"
    elif step in PUBLIC_STEPS:
        coarse_step = step
    else:
        coarse_step = COARSE[step]
    side = calendar.SIDES[state["side"]]
    played = {c["day"]: c for c in state["calendar"]}
    calendar_rows = []
    for day, (stars, event) in side.items():
        c = played.get(day)
        tok = c["token"] if c else None
        if over and c and c["hint"] is not None:
            tok = state["hint_tokens"][c["hint"]]
        calendar_rows.append(
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
    for m in state["order"]:
        mi = state["minis"][m]
        specials = {"gallop": mi["gallop"], "verify": mi["verify"], "compass": mi["compass"]}
        if m == "anne":
            specials["monkey"] = mi["special"]
        elif m == "olivier":
            specials["spyglass"] = mi["special"]
        elif m == "ben":
            specials["recall"] = mi["special"]
        minis[m] = {
            "owner": state["owner"][m],
            "name": hints.NAMES[m],
            "letter": calendar.LETTERS[m],
            "pos": miles(mi["pos"]),
            "trail": [[miles(a), miles(b), kind, day] for a, b, kind, day in mi["trail"]],
            "specials_left": specials,
            "chests_received": mi["chests"],
            "items_used": list(mi["items_used"]),
        }
    esc = state["escape"]
    figures = [
        {"id": f["id"], "pos": miles(f["pos"]), "trail": [[miles(a), miles(b), k, r] for a, b, k, r in f["trail"]]}
        for f in state["figures"]
    ]
    hint_rows = []
    for idx, h in enumerate(state["hints"]):
        hh = dict(h)
        if over:
            hh["token"] = state["hint_tokens"][idx]
        hint_rows.append(hh)
    players = []
    for p in range(state["n"]):
        players.append(
            {"seat": p, "role": "silver" if p == state["silver"] else "pirate", "minis": model.player_minis(state, p)}
        )
    v: dict[str, Any] = {
        "game": "treasure_island",
        "version": state.get("version", 1),
        "options": dict(state["options"]),
        "map": MAPS[state["options"]["map"]],
        "legal_mask": _legal_b64(state["options"]["map"]),
        "players": players,
        "silver_seat": state["silver"],
        "phase": COARSE[step],
        "step": coarse_step,
        "to_act": moves.to_act(state),
        "day": state["day"],
        "side": state["side"],
        "active": state["turn"]["mini"],
        "left": state["turn"]["left"],
        "calendar": calendar_rows,
        "order": list(state["order"]),
        "miniatures": minis,
        "silver": {
            "tower": state["tower"] if esc is None else None,
            "figures": figures,
            "round": esc["round"] if esc else 0,
            "fig": esc["fig"] if esc and step == "escape" else None,
        },
        "searches": [
            {**sr, "centre": miles(sr["centre"]), "anchor": miles(sr["anchor"]), "radius": sr["radius"] / 2}
            for sr in state["searches"]
        ],
        "hints": hint_rows,
        "compass_uses": [{"day": c["day"], "by": c["by"], "pos": miles(c["pos"])} for c in state["compass_uses"]],
        "verifications": list(state["verifications"]),
        "chests": {
            "given": len(state["given"]),
            "chest_hints_played": state["chest_hints_played"],
            "credit": model.credit(state),
            "left": len(state["chest_tokens"]),
        },
        "counts": {
            "hint_hand": len(state["hand"]),
            "compass_hand": len(state["compass_hand"]),
            "starting_deck": len(state["starting_deck"]),
            "black_spot_deck": len(state["black_deck"]),
            "district_pile": len(state["district_pile"]),
            "bluffs_taken": state["bluffs_taken"],
        },
        "fog": [{"centre": miles(f["centre"]), "laid": f["laid"], "expires": f["expires"]} for f in state["fog"]],
        "tricks_public": list(state["tricks_public"]),
        "public_candidates": geometry.mask_b64(public_candidates(state)),
        "outcome": state["outcome"],
        "last": state["last"],
    }
    if over:
        v["reveal"] = _reveal(state)
    if seat is None:
        return v
    if seat == state["silver"]:
        v["step"] = step
        v["private"] = _silver_private(state)
    else:
        v["private"] = _pirate_private(state, seat)
    return v


def _reveal(state: State) -> dict[str, Any]:
    return {
        "treasure": miles(state["treasure"]) if state["treasure"] else None,
        "tokens": {str(h["day"]): t for h, t in zip(state["hints"], state["hint_tokens"], strict=True)},
        "districts": {m: list(d) for m, d in state["districts"].items()},
        "set_aside": state["set_aside"],
        "compass_given": [{**c, "pos": miles(c["pos"])} for c in state["compass_given"]],
        "given": list(state["given"]),
        "traitor": state["traitor"],
        "real_figure": state["real"],
        "tricks_played": list(state["tricks"]["played"]),
    }


def _reach_masks(state: State, seat: int) -> dict[str, str]:
    step = state["state"]
    if seat not in moves.to_act(state) or step not in ("turn", "ride2", "step"):
        return {}
    m = state["turn"]["mini"]
    out: dict[str, str] = {}
    if step == "ride2":
        out["ride"] = geometry.mask_b64(geometry.mask_of(moves.move_targets(state, m, 12)))
    elif step == "step":
        out["walk"] = geometry.mask_b64(geometry.mask_of(moves.move_targets(state, m, 6)))
    else:
        if state["turn"]["left"] >= 1:
            out["ride"] = geometry.mask_b64(geometry.mask_of(moves.move_targets(state, m, 12)))
            out["walk"] = geometry.mask_b64(geometry.mask_of(moves.move_targets(state, m, 6)))
            out["search"] = geometry.mask_b64(geometry.mask_of(moves.search_centres(state, m)))
        if "stride" in state["items"][seat]:
            out["stride"] = geometry.mask_b64(geometry.mask_of(moves.move_targets(state, m, 14)))
    return out


def certain_excluded(state: State, seat: int) -> int:
    g = model.geo_of(state)
    mid = state["options"]["map"]
    ex = geometry.ALL & ~public_candidates(state)
    for m in model.player_minis(state, seat):
        for d in state["districts"][m]:
            ex |= g.district_mask[int(d[1:])]
    for c in state["compass_given"]:
        if state["owner"][c["mini"]] == seat:
            ex |= geometry.sector_mask(mid, as_pt(c["pos"]), tuple(c["skulls"]))
    for it in state["info_tokens"][seat]:
        p = as_pt(it["pos"])
        if it["token"] == "west":
            ex |= g.legal_mask & ~geometry.halfplane_mask(mid, p, "W")
        elif it["token"] == "east":
            ex |= g.legal_mask & ~geometry.halfplane_mask(mid, p, "E")
        else:
            ex |= g.district_mask[g.district[geometry.node(*p)]]
    for mem in state["memory"][seat]:
        disc = geometry.disc_mask(mid, g.landmarks[mem["landmark"]], 100, True)
        ex |= (g.legal_mask & ~disc) if mem["within_5"] else disc
    for ver in state["verified"][seat]:
        h = next(h for h in state["hints"] if h["day"] == ver["target_day"])
        tm = geometry.mask_from_b64(h["true_mask"])
        if ver["token"] == "truth":
            ex |= g.legal_mask & ~tm
        elif ver["token"] == "lie":
            ex |= tm
    return ex & geometry.ALL


def _pirate_private(state: State, seat: int) -> dict[str, Any]:
    g = model.geo_of(state)
    mine = model.player_minis(state, seat)
    return {
        "seat": seat,
        "minis": mine,
        "districts": {m: list(state["districts"][m]) for m in mine},
        "district_names": {d: g.district_names[int(d[1:])] for m in mine for d in state["districts"][m]},
        "compass": [
            {"day": c["day"], "mini": c["mini"], "pos": miles(c["pos"]), "card": c["card"], "skulls": list(c["skulls"])}
            for c in state["compass_given"]
            if state["owner"][c["mini"]] == seat
        ],
        "info_tokens": [{**it, "pos": miles(it["pos"])} for it in state["info_tokens"][seat]],
        "items": list(state["items"][seat]),
        "received": state["received"][seat],
        "verified": [{"target_day": v["target_day"], "token": v["token"]} for v in state["verified"][seat]],
        "memory": [dict(m) for m in state["memory"][seat]],
        "traitor": state["traitor"] == seat,
        "reach": _reach_masks(state, seat),
        "certain_excluded": geometry.mask_b64(certain_excluded(state, seat)),
    }


def _silver_private(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "treasure": miles(state["treasure"]) if state["treasure"] else None,
        "hand": hints.sort_ids(state["hand"]),
        "discards": list(state["discards"]),
        "compass_hand": hints.sort_ids(state["compass_hand"]),
        "districts": {"set_aside": state["set_aside"], "scrolls": list(state["scrolls"])},
        "tokens": dict(state["tokens"]),
        "hint_tokens": {str(h["day"]): t for h, t in zip(state["hints"], state["hint_tokens"], strict=True)},
        "chest_tokens": list(state["chest_tokens"]),
        "given": list(state["given"]),
        "compass_given": [{**c, "pos": miles(c["pos"])} for c in state["compass_given"]],
        "tricks": {
            "hand": list(state["tricks"]["hand"]),
            "points_left": state["tricks"]["points"],
            "played": list(state["tricks"]["played"]),
        },
        "real_figure": state["real"],
        "traitor": state["traitor"],
        "pending": dict(state["pending"]) if state["pending"] else None,
        "option_share": {},
        "choice_region": None,
        "reach": None,
        "chest_ctx": ({**state["chest_ctx"], "pos": miles(state["chest_ctx"]["pos"])} if state["chest_ctx"] else None),
        "compass_mini": state["compass_mini"],
    }
    step = state["state"]
    if step == "hint_param":
        out["option_share"], region = option_share(state)
        out["choice_region"] = geometry.mask_b64(region)
    if step == "bury":
        out["reach"] = geometry.mask_b64(geometry.eligible_mask(state["options"]["map"], model.used_spots(state)))
    elif step == "fog":
        out["reach"] = geometry.mask_b64(geometry.mask_of(moves.fog_centres(state)))
    elif step == "escape":
        fig = state["figures"][state["escape"]["fig"]]
        out["reach"] = geometry.mask_b64(geometry.mask_of(model.geo_of(state).reach(as_pt(fig["pos"]), 8)))
    return out


def option_share(state: State) -> tuple[dict[str, float], int]:
    """Each legal value of the current parameter → the share of ``public_candidates`` its best completion keeps,
    and the true region of the vaguest completion overall (what Silver is about to reveal)."""
    pend = state["pending"]
    ctx = model.hint_ctx(state)
    t = as_pt(state["treasure"])
    cands = public_candidates(state)
    total = max(1, geometry.popcount(cands))
    out: dict[str, float] = {}
    top, top_region = -1.0, 0
    for v in moves.param_values(state):
        best = 0.0
        for comp in hints.completions(pend["card"], ctx, (*pend["params"], v)):
            ok = hints.holds(pend["card"], comp, ctx, t)
            if (pend["token"] == "truth" and not ok) or (pend["token"] == "lie" and ok):
                continue
            region = hints.region(pend["card"], comp, ctx)
            share = geometry.popcount(region & cands) / total
            best = max(best, share)
            if share > top:
                top, top_region = share, region
        out[v] = round(best, 3)
    return out, top_region


# -- the table's voice -----------------------------------------------------------------------------------------
_OWED = {
    "bury": "bury the treasure",
    "hint": "give the day's hint",
    "compass": "show a Compass Hint that is true at the compass",
    "chest": "answer the search: hand over a chest token, or say nothing",
    "escape": "make Long John Silver's escape move",
}
#: Silver's own steps of a hint or an escape, named in his picker's heading (his own view has the fine step)
_SILVER_STEPS = {
    "hint_card": "give the day's hint: choose the hint card",
    "hint_token": "give the day's hint: lay its token, Truth or Bluff",
    "fog": "lay the Fog trick's fog banks",
    "prison_trick": "play the Mutiny trick, or let the prison go ahead",
    "phantom": "choose which Silver, A, B or C, is the real one",
}
#: what a hint parameter asks for, by kind (``hints.Card.params``)
_PARAM = {
    "mini": "the pirate", "mini2": "the second pirate", "mini|none": "the pirate (or none)", "dir": "the direction",
    "quad": "the quadrant", "landmark": "the landmark", "landmark2": "the second landmark",
    "landmark|none": "the landmark (or none)", "district": "the district", "district2": "the second district",
    "level": "the altitude level", "contour": "the contour", "terrain": "the kind of land", "bank": "the bank",
    "band": "the distance band", "elev": "higher, the same or lower", "dist3": "the distance", "sea": "the distance",
    "tower": "the distance",
}  # fmt: skip


def owed(view: dict[str, Any], seat: int) -> str:
    """What the seat owes, naming the step. The public view gives Silver's hint as one step ("give the day's hint");
    his own view (his picker's heading) names the part he is at: the card, its token, each parameter."""
    step = view.get("step")
    if step == "prison":
        if seat == view.get("silver_seat"):
            return "play a trick or let the prison go ahead"
        return "choose the tower to lock Long John Silver in"
    name = hints.NAMES.get(view.get("active") or "", "your pirate")
    if step in ("turn", "ride2", "step"):
        left = view.get("left")
        more = f" ({left} action{'' if left == 1 else 's'} left)" if isinstance(left, int) and left > 0 else ""
        if step == "ride2":
            return f"play {name}'s day: ride on for the second stretch, or halt"
        if step == "step":
            return f"play {name}'s day: step up to 3 miles after the dig, or stay"
        if left == 0:
            return f"play {name}'s day: no action left, so use an item or end the turn"
        return f"play {name}'s day{more}"
    mine = view.get("private") if seat == view.get("silver_seat") else None
    if mine is not None and step in _SILVER_STEPS:
        return _SILVER_STEPS[str(step)]
    if mine is not None and step == "hint_param":
        pend = mine.get("pending") or {}
        card = hints.CARDS.get(pend.get("card") or "")
        done = len(pend.get("params") or [])
        if card is not None and done < len(card.params):
            return f"give the day's hint, {card.id} {card.name}: name {_PARAM.get(card.params[done], 'its next value')}"
    return _OWED.get(str(step), "take your turn")


def seat_name(view: dict[str, Any], seat: int) -> str:
    if seat == view.get("silver_seat"):
        return "Long John Silver"
    players = view.get("players") or []
    minis = players[seat]["minis"] if seat < len(players) else []
    return " & ".join(hints.NAMES.get(m, m) for m in minis)


def private_summary(view: dict[str, Any], seat: int) -> str:
    """What only this seat knows, in a few lines for DMs and ``/hand`` (from its own view)."""
    priv = view.get("private")
    if not priv:
        return ""
    if seat == view["silver_seat"]:
        return _silver_summary(view, priv)
    return _pirate_summary(view, priv)


def _pos_text(p: list[float]) -> str:
    return geometry.fmt((int(round(p[0] * 2)), int(round(p[1] * 2))))


def _silver_summary(view: dict[str, Any], priv: dict[str, Any]) -> str:
    lines = []
    if priv.get("treasure"):
        lines.append(f"Your treasure: ({_pos_text(priv['treasure'])}).")
    if priv["hand"]:
        # each hint card with what it tells, so Silver can read his hand without the rules; a chest-icon card he
        # cannot pay for yet says so (docs/games/treasure_island.md#chest-credit), or he plans a hint he cannot give
        credit = (view.get("chests") or {}).get("credit", 0)
        locked = " — not playable yet: hand over a chest token first" if credit < 1 else ""
        lines.append("Hint hand (⛁ a chest-icon card):")
        lines.extend(
            f"• {hints.title(c)}: {hints.EFFECTS.get(c, '')}{locked if hints.CARDS[c].chest else ''}"
            for c in priv["hand"]
        )
    if priv["compass_hand"]:
        lines.append(
            "Compass hand: " + ", ".join(f"{c} ({'/'.join(hints.COMPASS[c])})" for c in priv["compass_hand"]) + "."
        )
    tk = priv["tokens"]
    lines.append(f"Tokens: {tk.get('truth', 0)} Truth, {tk.get('bluff', 0)} Bluff.")
    if priv["chest_tokens"]:
        names = (calendar.CHEST_NAMES.get(t, t).split(" (")[0] for t in priv["chest_tokens"])
        lines.append("Chest tokens: " + ", ".join(names) + ".")
    tricks = priv["tricks"]
    if tricks["hand"]:
        lines.append(f"Tricks ({tricks['points_left']} points left):")
        for t in tricks["hand"]:
            lines.append(f"• {t.capitalize()} {calendar.TRICK_EFFECTS.get(t, '')}{_trick_lock(view, t, tricks)}")
    played = priv.get("hint_tokens") or {}
    if played:
        lines.append("Your tokens so far: " + ", ".join(f"June {d} {t.upper()}" for d, t in played.items()) + ".")
    if priv["districts"].get("scrolls"):
        lines.append("Charlotte's Ancient Scrolls: " + ", ".join(priv["districts"]["scrolls"]) + ".")
    return "\n".join(lines)


def _trick_lock(view: dict[str, Any], trick: str, tricks: dict[str, Any]) -> str:
    """Why a trick in hand can no longer be played, or "" (docs/games/treasure_island.md#trick-windows): too dear
    for the points left, or its last date passed."""
    value, date_a, date_b = calendar.TRICKS.get(trick, (0, 99, 99))
    last = date_a if view.get("side") == "A" else date_b
    if value > tricks.get("points_left", 0):
        return f" — not playable: {value} points, {tricks.get('points_left', 0)} left"
    if trick != "phantom" and isinstance(view.get("day"), int) and view["day"] > last:
        return f" — not playable: its last day was June {last}"
    return ""


def _pirate_summary(view: dict[str, Any], priv: dict[str, Any]) -> str:
    names = priv.get("district_names", {})
    lines = []
    for m, ds in priv["districts"].items():
        if ds:
            listed = ", ".join(f"{d} {names.get(d, '')}".strip() for d in ds)
            lines.append(f"{hints.NAMES[m]}: the treasure is not in {listed}.")
    for c in priv["compass"]:
        lines.append(f"Compass at ({_pos_text(c['pos'])}): not in the {c['skulls'][0]} or {c['skulls'][1]} eighth.")
    for it in priv["info_tokens"]:
        where = f"({_pos_text(it['pos'])})"
        if it["token"] == "notdistrict":
            lines.append(f"Chest: the treasure is not in the district of {where}.")
        else:
            lines.append(f"Chest: the treasure lies {it['token']} of {where}.")
    if priv["items"]:
        lines.append("Items: " + ", ".join(calendar.CHEST_NAMES[i] for i in priv["items"]) + ".")
    for v in priv["verified"]:
        lines.append(f"The token of June {v['target_day']} is {v['token'].upper()}.")
    for mem in priv["memory"]:
        lines.append(
            f"Memory: the treasure is {'within' if mem['within_5'] else 'more than'} 5 miles of {mem['landmark']}."
        )
    if priv["traitor"]:
        lines.append("You are Long John Silver's traitor: you win if he wins, or alone if you find the gold.")
    return "\n".join(lines)


