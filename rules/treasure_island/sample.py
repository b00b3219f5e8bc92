"""A full Treasure Island state consistent with one seat's view, for AIs that search (issue 17).

Long John Silver knows almost everything: what he lacks is which District Hint each pirate holds, the order of
his decks and the District pile, and what Ben Gunn remembered. A pirate lacks the treasure and all of Silver's
cards, the tokens under the face-down hints, the other pirates' District Hints, compass cards and chests.

For a pirate the treasure is drawn uniformly from the nodes his own view has not ruled out (``certain_excluded``:
searches, the first hint, his District Hints, compass cards, clue chests, verified tokens, Ben's memory), and is
kept only if Silver could have covered every face-down hint it makes false with a Bluff (or the Lie trick) in
hand that day; otherwise it is drawn again. Given the treasure, the rest is dealt to fit it: tokens (Truth on a
hint that holds, else Bluff, else Lie), the other pirates' District Hints from the districts without the
treasure, compass cards that are true at the other pirates' compass spots, chests by each miniature's public
count (items a miniature has used among them; clues only when true where it searched), Silver's hint hand and
decks from the cards not yet played (his hand always offers a legal hint when he is choosing one). Another
pirate is never the traitor; the real Silver after a Phantom is drawn among A, B and calendar.
The draws ignore how Silver chooses (he would rather give true hints that say little): the treasure is uniform
over what the rules allow, not weighted by his likely play.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core import State, clone
from rules.treasure_island import calendar, days, geometry, hints, model

TRIES = 30
TREASURE_TRIES = 300


def _hu(p: list[float]) -> list[int]:
    return list(geometry.hu(p))


def _trail(trail: list[list[Any]]) -> list[list[Any]]:
    return [[_hu(a), _hu(b), kind, day] for a, b, kind, day in trail]


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A legal state whose view for ``seat`` is ``view``; what the seat cannot see drawn with ``rng``."""
    base = _public_state(view)
    silver = view["silver_seat"]
    state: State = base
    for _ in range(TRIES):
        state = clone(base)
        if _fill_secrets(state, view, seat, silver, rng, strict=True):
            break
    else:
        # nothing fits every constraint we check (our guesses at where chests were handed out can be wrong):
        # keep the view exact and let the hidden parts bend
        state = clone(base)
        _fill_secrets(state, view, seat, silver, rng, strict=False)
    state["seed"] = f"{rng.getrandbits(64):016x}"
    state["rng_n"] = rng.randrange(1 << 20)
    return state


# -- what every seat sees ---------------------------------------------------------------------------------------
def _public_state(v: dict[str, Any]) -> State:
    n = len(v["players"])
    opts = dict(v["options"])
    order = list(v["order"])
    owner = {m: v["miniatures"][m]["owner"] for m in order}
    pass_idx = {m: k for p in v["players"] for k, m in enumerate(p["minis"])}
    silver = v["silver_seat"]
    per = calendar.minis_each(n)
    char_of = {(owner[m], pass_idx[m]): m for m in order}
    deal_order = [char_of[sp] for sp in calendar.passes(calendar.clockwise_from(silver, n), per)]
    minis: dict[str, Any] = {}
    for m in order:
        mv = v["miniatures"][m]
        sp = mv["specials_left"]
        special = sp.get("monkey", sp.get("spyglass", sp.get("recall", 0)))
        minis[m] = {
            "pos": _hu(mv["pos"]),
            "trail": _trail(mv["trail"]),
            "gallop": sp["gallop"],
            "verify": sp["verify"],
            "compass": sp["compass"],
            "special": special,
            "chests": mv["chests_received"],
            "items_used": list(mv["items_used"]),
        }
    played = [c for c in v["calendar"] if c["active"] is not None]
    hint_rows = []
    for i, h in enumerate(v["hints"]):
        hh = dict(h)
        hh["token"] = "truth" if i == 0 else "hidden"
        hint_rows.append(hh)
    calendar_rows = []
    for c in played:
        tok = None if c["hint"] is None else ("truth" if c["hint"] == 0 else "hidden")
        calendar_rows.append(
            {
                "day": c["day"],
                "stars": c["stars"],
                "event": c["event"],
                "active": c["active"],
                "hint": c["hint"],
                "token": tok,
            }
        )
    sv = v["silver"]
    figures = [{"id": f["id"], "pos": _hu(f["pos"]), "trail": _trail(f["trail"])} for f in sv["figures"]]
    tower = sv["tower"] or _tower_of(v, figures)
    searches = [
        {**sr, "centre": _hu(sr["centre"]), "anchor": _hu(sr["anchor"]), "radius": int(round(sr["radius"] * 2))}
        for sr in v["searches"]
    ]
    return {
        "options": opts,
        "n": n,
        "silver": silver,
        "order": order,
        "deal_order": deal_order,
        "owner": owner,
        "pass_idx": pass_idx,
        "side": v["side"],
        "F": len(order),
        "state": None,
        "day": v["day"],
        "treasure": None,
        "starting_deck": [],
        "black_deck": [],
        "compass_deck": [],
        "hand": [],
        "compass_hand": [],
        "discards": [],
        "black_spot": any(c["event"] == "blackspot" for c in played),
        "districts": {m: [] for m in order},
        "set_aside": None,
        "district_pile": [],
        "scrolls": [],
        "tokens": {"truth": 6, "bluff": 0, "lie": 0},
        "bluffs_taken": v["counts"]["bluffs_taken"],
        "chest_tokens": [],
        "given": [],
        "chest_hints_played": v["chests"]["chest_hints_played"],
        "items": [[] for _ in range(n)],
        "received": [False] * n,
        "minis": minis,
        "tower": tower,
        "figures": figures,
        "real": None,
        "calendar": calendar_rows,
        "hints": hint_rows,
        "hint_tokens": [],
        "searches": searches,
        "compass_uses": [{**c, "pos": _hu(c["pos"])} for c in v["compass_uses"]],
        "compass_given": [],
        "verifications": [dict(x) for x in v["verifications"]],
        "verified": [[] for _ in range(n)],
        "memory": [[] for _ in range(n)],
        "info_tokens": [[] for _ in range(n)],
        "fog": [{"centre": _hu(f["centre"]), "laid": f["laid"], "expires": f["expires"]} for f in v["fog"]],
        "tricks": {"hand": [], "points": 0, "played": []},
        "tricks_public": [dict(t) for t in v["tricks_public"]],
        "traitor": None,
        "turn": {"mini": v["active"], "left": v["left"]},
        "pending": None,
        "chest_ctx": None,
        "compass_mini": None,
        "ride_from": None,
        "prison_by": None,
        "escape": None,
        "last": clone(v["last"]),
        "outcome": clone(v["outcome"]),
        "game": "treasure_island",
        "version": v["version"],
    }


def _tower_of(v: dict[str, Any], figures: list[dict[str, Any]]) -> str:
    """Silver's tower once he has left it: where his figures set out from."""
    towers = {t["id"]: _hu(t["pos"]) for t in v["map"]["towers"]}
    if figures:
        f = figures[0]
        start = f["trail"][0][0] if f["trail"] else f["pos"]
        for tid, pos in towers.items():
            if pos == start:
                return tid
    return "T1"


# -- the steps hidden behind a coarse name ------------------------------------------------------------------------
def _steps(state: State, v: dict[str, Any], seat: int, silver: int) -> None:
    """The exact step, its pending record and the escape bookkeeping, from what the view shows."""
    step = v["step"]
    day = v["day"]
    if seat == silver:
        state["state"] = step
        priv = v["private"]
        state["pending"] = clone(priv["pending"])
        if priv["chest_ctx"]:
            state["chest_ctx"] = {**priv["chest_ctx"], "pos": _hu(priv["chest_ctx"]["pos"])}
        state["compass_mini"] = priv["compass_mini"]
    elif step == "hint":
        fog_today = any(t["card"] == "fog" and t["day"] == day for t in v["tricks_public"])
        laid = sum(1 for f in v["fog"] if f["laid"] == day)
        if fog_today and laid < 3:
            state["state"] = "fog"
            state["pending"] = {"card": None, "token": None, "params": [], "fog_left": 3 - laid}
        else:
            state["state"] = "hint_card"
            state["pending"] = {"card": None, "token": None, "params": [], "fog_left": -1 if fog_today else 0}
    elif step == "prison":
        mutiny = any(t["card"] == "mutiny" and t["day"] == day for t in v["tricks_public"])
        state["state"] = "prison_trick" if v["to_act"] == [silver] and not mutiny else "prison"
    elif step == "escape":
        state["state"] = "escape" if v["silver"]["fig"] is not None else "phantom"
    else:
        state["state"] = step
    if seat != silver:
        if state["state"] == "chest":
            last = state["searches"][-1]
            m = last["by"]
            state["chest_ctx"] = {
                "mini": m,
                "pos": list(state["minis"][m]["pos"]),
                "then": "step" if last["kind"] == "dig" else "turn",
            }
        elif state["state"] == "compass":
            state["compass_mini"] = state["compass_uses"][-1]["by"]
    if state["state"] == "prison":
        mutiny = any(t["card"] == "mutiny" and t["day"] == day for t in v["tricks_public"])
        state["prison_by"] = silver if mutiny else state["owner"][state["turn"]["mini"]]
    if state["state"] == "ride2":
        state["ride_from"] = list(state["minis"][state["turn"]["mini"]]["pos"])
    if state["figures"]:
        state["escape"] = _escape(state, v)


def _escape(state: State, v: dict[str, Any]) -> dict[str, Any]:
    queue = days.escape_queue(state)
    rnd = v["silver"]["round"]
    fig = v["silver"]["fig"]
    active = state["turn"]["mini"]
    if state["state"] in ("escape", "phantom"):
        fig = fig or 0
        qi = -1
        runs = sum(1 for seg in state["figures"][fig]["trail"] if seg[3] == rnd)
        first = (
            rnd == 1
            and fig == 0
            and runs == 0
            and (state["state"] == "phantom" or (len(state["figures"]) == 1 and not state["figures"][0]["trail"]))
        )
    else:
        fig = len(state["figures"])
        qi = queue.index(active) if active in queue else 0
        runs, first = 0, False
    return {"round": rnd, "queue": queue, "qi": qi, "fig": fig, "moves": runs, "first": first}


# -- secrets ----------------------------------------------------------------------------------------------------
def _fill_secrets(state: State, v: dict[str, Any], seat: int, silver: int, rng: random.Random, strict: bool) -> bool:
    """Fill every hidden field; False when this draw of the treasure cannot explain the view (draw again)."""
    _steps(state, v, seat, silver)
    g = model.geo_of(state)
    mid = state["options"]["map"]
    expansion = state["options"]["expansion"] == "on"
    n = state["n"]
    trick_hand0 = [t for t in calendar.TRICK_ORDER if not (t == "traitor" and n == 2)]
    points0 = int(state["options"]["tricks"]) if expansion else 0
    if not (expansion and points0 >= 1):
        trick_hand0, points0 = [], points0
    priv = v.get("private") or {}
    reveal = v.get("reveal")
    buried = state["state"] != "bury"
    given: list[dict[str, Any]] | None = None

    # the treasure
    if seat == silver:
        state["treasure"] = _hu(priv["treasure"]) if priv["treasure"] else None
    elif reveal:
        state["treasure"] = _hu(reveal["treasure"]) if reveal["treasure"] else None
    elif buried:
        excluded = geometry.mask_from_b64(priv["certain_excluded"])
        nodes = geometry.bits(g.legal_mask & ~excluded & geometry.ALL)
        if not nodes:  # pragma: no cover - the real treasure is never excluded
            nodes = geometry.bits(g.legal_mask)
        # draw until Silver could have laid the face-down hints' tokens around it (cheap, so many tries)
        # and hand the other pirates chests whose clues hold there (cheap, so many tries)
        for _ in range(TREASURE_TRIES):
            state["treasure"] = list(geometry.ij(rng.choice(nodes)))
            t = tuple(state["treasure"])
            if _hint_tokens(state, priv, t, trick_hand0, points0, True) is None:
                continue
            given = next((g for g in (_sample_given(state, seat, priv, t, rng, True) for _ in range(3)) if g), None)
            if given is not None:
                break
    t = tuple(state["treasure"]) if state["treasure"] else None

    # tokens under the hints, Silver's tokens and tricks
    if seat == silver:
        state["hint_tokens"] = [priv["hint_tokens"][str(h["day"])] for h in state["hints"]]
        state["tokens"] = dict(priv["tokens"])
        tr = priv["tricks"]
        state["tricks"] = {
            "hand": list(tr["hand"]),
            "points": tr["points_left"],
            "played": [dict(x) for x in tr["played"]],
        }
        state["traitor"] = priv["traitor"]
        state["real"] = priv["real_figure"]
    else:
        if reveal:
            state["hint_tokens"] = [reveal["tokens"][str(h["day"])] for h in state["hints"]]
            played = [dict(x) for x in reveal["tricks_played"]]
        else:
            toks = _hint_tokens(state, priv, t, trick_hand0, points0, strict)
            if toks is None:
                return False
            state["hint_tokens"], played = toks
        used = {k: sum(1 for x in state["hint_tokens"] if x == k) for k in ("truth", "bluff")}
        state["tokens"] = {"truth": 6 - used["truth"], "bluff": state["bluffs_taken"] - used["bluff"], "lie": 0}
        state["tricks"] = {
            "hand": [c for c in trick_hand0 if c not in {x["card"] for x in played}],
            "points": points0 - sum(x["value"] for x in played),
            "played": played,
        }
        if reveal:
            state["traitor"] = reveal["traitor"]
            state["real"] = reveal["real_figure"]
        else:
            state["traitor"] = seat if priv.get("traitor") else None
            ids = [f["id"] for f in state["figures"]]
            state["real"] = (
                None
                if state["state"] == "phantom"
                else (rng.choice(ids) if len(ids) > 1 else (ids[0] if ids else None))
            )

    # who verified what (the token is the one under the hint)
    for ver in state["verifications"]:
        idx = next(i for i, h in enumerate(state["hints"]) if h["day"] == ver["target_day"])
        who = state["owner"][ver["by"]]
        state["verified"][who].append(
            {"target_day": ver["target_day"], "token": state["hint_tokens"][idx], "by": ver["by"]}
        )
    if seat != silver:
        state["memory"][seat] = [dict(x) for x in priv["memory"]]

    # District Hints
    if buried and not _districts(state, v, seat, silver, priv, reveal, g, t, rng) and strict:
        return False

    # compass cards shown
    if not _compass(state, v, seat, silver, priv, reveal, t, mid, rng, strict):
        return False

    # chests
    if not _chests(state, v, seat, silver, priv, reveal, t, rng, strict, given) and strict:
        return False

    # Silver's hint cards
    if seat == silver:
        state["hand"] = list(priv["hand"])
        state["discards"] = list(priv["discards"])
    return _hint_cards(state, v, seat, silver, expansion, rng) or not strict


def _hint_tokens(
    state: State, priv: dict[str, Any], t: tuple[int, int] | None, trick_hand0: list[str], points0: int, strict: bool
) -> tuple[list[str], list[dict[str, Any]]] | None:
    """Tokens for the hints that fit the treasure ``t``, and Silver's tricks played (public and the Lie)."""
    known = {x["target_day"]: x["token"] for x in priv.get("verified", [])}
    bluff_days = [c["day"] for c in state["calendar"] if c["event"] == "bluff"]
    public = [dict(x) for x in state["tricks_public"]]
    points = points0 - sum(x["value"] for x in public)
    lie_value, date_a, date_b = calendar.TRICKS["lie"]
    lie_last = date_a if state["side"] == "A" else date_b
    lie_free = "lie" in trick_hand0 and points >= lie_value
    out: list[str] = []
    played = list(public)
    bluffs_used = 0
    truths = 0
    for i, h in enumerate(state["hints"]):
        day = h["day"]
        if i == 0:
            tok = "truth"
        elif day in known:
            tok = known[day]
        else:
            holds = t is not None and bool(geometry.mask_from_b64(h["true_mask"]) >> geometry.node(*t) & 1)
            bluffs = sum(1 for d in bluff_days if d <= day) - bluffs_used
            if holds and truths < 6:
                tok = "truth"
            elif bluffs > 0:
                tok = "bluff"
            elif not holds and lie_free and day <= lie_last:
                tok = "lie"
            elif strict:
                return None
            else:
                tok = "truth" if holds else "bluff"
        if tok == "truth":
            truths += 1
        elif tok == "bluff":
            bluffs_used += 1
        elif tok == "lie":
            if not lie_free and strict:
                return None
            lie_free = False
            played.append({"card": "lie", "day": day, "value": lie_value})
        out.append(tok)
    if strict and (truths > 6 or bluffs_used > state["bluffs_taken"]):
        return None
    if priv.get("traitor"):
        # the seat holds the Traitor token, so Silver spent that trick on one of its chests
        day = min((x["day"] for x in priv.get("info_tokens", [])), default=state["day"])
        played.append({"card": "traitor", "day": day, "value": calendar.TRICKS["traitor"][0]})
    played.sort(key=lambda x: x["day"])
    return out, played


def _districts(
    state: State,
    v: dict[str, Any],
    seat: int,
    silver: int,
    priv: dict[str, Any],
    reveal: dict[str, Any] | None,
    g: geometry.Geo,
    t: tuple[int, int] | None,
    rng: random.Random,
) -> bool:
    if reveal:
        state["districts"] = {m: list(d) for m, d in reveal["districts"].items()}
        state["set_aside"] = reveal["set_aside"]
    elif seat == silver:
        state["set_aside"] = priv["districts"]["set_aside"]
    else:
        assert t is not None
        state["set_aside"] = f"D{g.district[geometry.node(*t)]}"
    mine = set(priv.get("minis", [])) if seat != silver else set()
    known: dict[str, list[str]] = {}
    if reveal:
        known = {m: list(d) for m, d in reveal["districts"].items()}
    else:
        for m in mine:
            known[m] = list(priv["districts"][m])
    scrolls: list[str] = []
    if "charlotte" in state["minis"]:
        if "charlotte" in known:
            scrolls = known["charlotte"][1:3]
        elif seat == silver:
            scrolls = list(priv["districts"]["scrolls"])
    taken = {state["set_aside"], *scrolls, *(d for ds in known.values() for d in ds)}
    if state["set_aside"] in {d for ds in known.values() for d in ds}:
        return False
    pool = [f"D{d}" for d in sorted(g.district_mask) if f"D{d}" not in taken]
    rng.shuffle(pool)
    for m in state["deal_order"]:
        if m in known:
            state["districts"][m] = list(known[m])
            continue
        state["districts"][m] = [pool.pop(0)]
        if m == "charlotte":
            if not scrolls:
                scrolls, pool = pool[:2], pool[2:]
            state["districts"][m] += scrolls
    state["scrolls"] = scrolls
    state["district_pile"] = pool
    return len(pool) == v["counts"]["district_pile"]


def _compass(
    state: State,
    v: dict[str, Any],
    seat: int,
    silver: int,
    priv: dict[str, Any],
    reveal: dict[str, Any] | None,
    t: tuple[int, int] | None,
    mid: str,
    rng: random.Random,
    strict: bool,
) -> bool:
    if seat == silver or reveal:
        src = priv["compass_given"] if seat == silver else reveal["compass_given"]  # type: ignore[index]
        state["compass_given"] = [{**c, "pos": _hu(c["pos"]), "skulls": list(c["skulls"])} for c in src]
        return True
    own = list(priv["compass"])
    shown = {c["card"] for c in priv["compass"]}
    pool = [c for c in hints.COMPASS if c not in shown]
    rng.shuffle(pool)
    out = []
    answered = list(state["compass_uses"])
    if state["state"] == "compass":
        answered = answered[:-1]  # the last use waits for Silver's card
    for use in answered:
        c = next((c for c in own if (c["day"], c["mini"]) == (use["day"], use["by"])), None)
        if c is not None:
            own.remove(c)
            out.append(
                {
                    "day": c["day"],
                    "mini": c["mini"],
                    "pos": _hu(c["pos"]),
                    "card": c["card"],
                    "skulls": list(c["skulls"]),
                }
            )
            continue
        fits = [c for c in pool if t is not None and hints.compass_true(c, tuple(use["pos"]), t)]
        if not fits and strict:
            return False
        fits = fits or pool or list(hints.COMPASS)
        card = fits[0]
        if card in pool:
            pool.remove(card)
        out.append(
            {
                "day": use["day"],
                "mini": use["by"],
                "pos": list(use["pos"]),
                "card": card,
                "skulls": list(hints.COMPASS[card]),
            }
        )
    state["compass_given"] = out
    return True


def _chests(
    state: State,
    v: dict[str, Any],
    seat: int,
    silver: int,
    priv: dict[str, Any],
    reveal: dict[str, Any] | None,
    t: tuple[int, int] | None,
    rng: random.Random,
    strict: bool,
    given: list[dict[str, Any]] | None,
) -> bool:
    if seat == silver or reveal:
        given = [dict(x) for x in (priv["given"] if seat == silver else reveal["given"])]  # type: ignore[index]
    else:
        given = given or _sample_given(state, seat, priv, t, rng, strict)
        if given is None:
            return False
    state["given"] = given
    state["chest_tokens"] = [tok for tok in calendar.CHEST_TOKENS if tok not in {x["token"] for x in given}]
    for x in given:
        who = state["owner"][x["mini"]]
        state["received"][who] = True
        if x["token"] in calendar.ITEMS:
            state["items"][who].append(x["token"])
        else:
            state["info_tokens"][who].append(
                {
                    "day": x["day"],
                    "mini": x["mini"],
                    "pos": _search_pos(state, x["mini"], x["day"]),
                    "token": x["token"],
                }
            )
    for m, mi in state["minis"].items():
        for item in mi["items_used"]:
            items = state["items"][state["owner"][m]]
            if item in items:
                items.remove(item)
    if seat != silver:
        state["items"][seat] = list(priv["items"])
        state["received"][seat] = priv["received"]
        state["info_tokens"][seat] = [{**x, "pos": _hu(x["pos"])} for x in priv["info_tokens"]]
    return len(state["chest_tokens"]) == v["chests"]["left"]


def _stand(state: State, sr: dict[str, Any]) -> list[int]:
    """Where the searcher stood when ``sr`` ended (the chest's spot): the anchor, except for the two specials
    that search from afar, where it is the last place the trail reached by that day."""
    if sr["kind"] not in ("monkey", "spyglass"):
        return list(sr["anchor"])
    trail = [seg for seg in state["minis"][sr["by"]]["trail"] if seg[3] <= sr["day"]]
    return list(trail[-1][1]) if trail else list(state["minis"][sr["by"]]["pos"])


def _search_pos(state: State, m: str, day: int) -> list[int]:
    """Where ``m`` stood when a chest followed its search on ``day``."""
    mine = [sr for sr in state["searches"] if sr["by"] == m and sr["day"] == day]
    return _stand(state, mine[-1]) if mine else list(state["minis"][m]["pos"])


def _sample_given(
    state: State, seat: int, priv: dict[str, Any], t: tuple[int, int] | None, rng: random.Random, strict: bool
) -> list[dict[str, Any]] | None:
    """The chests handed out so far: the seat's own exactly, the others by each miniature's public count, each
    after a distinct failed search of that miniature."""
    mine = set(priv["minis"])
    given: list[dict[str, Any]] = []
    searches = {m: [sr for sr in state["searches"] if sr["by"] == m] for m in state["minis"]}
    if state["state"] == "chest":
        last_by = state["searches"][-1]["by"]
        searches[last_by] = searches[last_by][:-1]  # its chest is not decided yet

    def after_search(m: str, day: int | None = None) -> dict[str, Any] | None:
        pool = searches[m]
        if day is not None:
            pool = [sr for sr in pool if sr["day"] == day] or pool
        if not pool:
            return None
        sr = rng.choice(pool)
        searches[m].remove(sr)
        return sr

    own_tokens = [x["token"] for x in priv["info_tokens"]]
    own_items = list(priv["items"]) + [i for m in mine for i in state["minis"][m]["items_used"]]
    own_tokens += own_items
    count = {m: state["minis"][m]["chests"] for m in state["minis"]}
    for x in priv["info_tokens"]:
        after_search(x["mini"], x["day"])
        given.append({"day": x["day"], "mini": x["mini"], "token": x["token"], "traitor": False})
        count[x["mini"]] -= 1
    for item in own_items:
        user = next((m for m in mine if item in state["minis"][m]["items_used"]), None)
        holder = user if user is not None and count[user] > 0 else next((m for m in mine if count[m] > 0), None)
        if holder is None:
            return None
        count[holder] -= 1
        sr = after_search(holder)
        given.append({"day": sr["day"] if sr else state["day"], "mini": holder, "token": item, "traitor": False})
    if priv.get("traitor") and given:
        given[0]["traitor"] = True
    pool = [tok for tok in calendar.CHEST_TOKENS if tok not in own_tokens]
    rng.shuffle(pool)
    for other in range(state["n"]):
        minis = [m for m in state["order"] if state["owner"][m] == other and m not in mine]
        # items are the seat's, whichever of its miniatures opened them
        need = [i for m in minis for i in state["minis"][m]["items_used"]]
        slots = [m for m in minis for _ in range(count[m])]
        if strict and (len(need) > len(slots) or any(i not in pool for i in need)):
            return None
        rng.shuffle(slots)
        for m in slots:
            sr = after_search(m)
            day = sr["day"] if sr else state["day"]
            if need and need[0] in pool:
                tok = need.pop(0)
            else:
                pos = tuple(_stand(state, sr)) if sr else tuple(state["minis"][m]["pos"])
                fits = [x for x in pool if x in calendar.ITEMS or (t is not None and _info_true(state, x, pos, t))]
                if not fits and strict:
                    return None
                fits = fits or pool
                if not fits:
                    return None
                tok = fits[0]
            pool.remove(tok)
            given.append({"day": day, "mini": m, "token": tok, "traitor": False})
    given.sort(key=lambda x: x["day"])
    return given


def _info_true(state: State, token: str, p: tuple[int, int], t: tuple[int, int]) -> bool:
    if token == "west":
        return t[0] <= p[0]
    if token == "east":
        return t[0] >= p[0]
    g = model.geo_of(state)
    return g.district[geometry.node(*t)] != g.district[geometry.node(*p)]


def _hint_cards(state: State, v: dict[str, Any], seat: int, silver: int, expansion: bool, rng: random.Random) -> bool:
    """Silver's hint hand, decks and discards (and compass hand and deck) by the public counts."""
    counts = v["counts"]
    starting = [f"S{k}" for k in (range(2, 9) if expansion else range(1, 8))]
    black = [f"B{k}" for k in range(1, 13 if expansion else 12)]
    played = {h["card"] for h in state["hints"]}
    if state["state"] == "bury":
        starting_left = list(starting)
        rng.shuffle(starting_left)
        if seat != silver:
            state["hand"] = starting_left[:3]
        state["starting_deck"] = [c for c in starting_left if c not in state["hand"]]
        state["black_deck"] = list(black)
        rng.shuffle(state["black_deck"])
    else:
        for attempt in range(20):
            if seat == silver:
                held = set(state["hand"]) | set(state["discards"])
                sl = [c for c in starting if c not in played and c not in held]
                bl = [c for c in black if c not in played and c not in held]
                rng.shuffle(sl)
                rng.shuffle(bl)
                state["starting_deck"], state["black_deck"] = sl, bl
            else:
                sl = [c for c in starting if c not in played]
                bl = [c for c in black if c not in played]
                rng.shuffle(sl)
                rng.shuffle(bl)
                if state["black_spot"]:
                    state["hand"], bl = bl[: counts["hint_hand"]], bl[counts["hint_hand"] :]
                    state["black_deck"], rest_b = bl[: counts["black_spot_deck"]], bl[counts["black_spot_deck"] :]
                    state["starting_deck"], rest_s = sl[: counts["starting_deck"]], sl[counts["starting_deck"] :]
                else:
                    state["hand"], sl = sl[: counts["hint_hand"]], sl[counts["hint_hand"] :]
                    state["starting_deck"], rest_s = sl[: counts["starting_deck"]], sl[counts["starting_deck"] :]
                    state["black_deck"], rest_b = bl[: counts["black_spot_deck"]], bl[counts["black_spot_deck"] :]
                state["discards"] = rest_s + rest_b
            if (
                seat == silver
                or state["state"] != "hint_card"
                or model.playable_cards(state)
                or model.redraw_allowed(state)
            ):
                break
            if attempt == 19:
                return False
    shown = {c["card"] for c in state["compass_given"]}
    if seat == silver:
        state["compass_hand"] = list(v["private"]["compass_hand"])
    cl = [c for c in hints.COMPASS if c not in shown and c not in state["compass_hand"]]
    for attempt in range(20):
        rng.shuffle(cl)
        if seat != silver:
            pool = [c for c in hints.COMPASS if c not in shown]
            rng.shuffle(pool)
            state["compass_hand"] = pool[: counts["compass_hand"]]
            cl = pool[counts["compass_hand"] :]
        state["compass_deck"] = list(cl)
        if state["state"] != "compass" or seat == silver:
            break
        m = state["compass_mini"]
        t = tuple(state["treasure"])
        if any(hints.compass_true(c, tuple(state["minis"][m]["pos"]), t) for c in state["compass_hand"]):
            break
        if attempt == 19:
            return False
    return (
        len(state["hand"]) == counts["hint_hand"]
        and len(state["starting_deck"]) == counts["starting_deck"]
        and len(state["black_deck"]) == counts["black_spot_deck"]
    )
