"""Every card as a precise algorithm (docs/games/flagon.md#characters-and-cards): the options of each reveal-time step,
and what a choice does.

A revealed card sets ``state["pending"] = {"step", "char", "card", "data"}``. ``options`` lists the legal texts of
that step in a fixed order (the first is the time-out default: docs/games/flagon.md#time-out-default); ``choose``
applies one and either sets the next step or finishes the card. Automatic cards resolve in ``begin_card`` with no step
at all.
"""

from __future__ import annotations

import heapq

from rules.flagon.board import DIRS, VEC, Sq, add, arc, dist, in_map, is_solid, name, rigging_of, rowmajor, turn, xy
from rules.flagon.cards import DRAGON, DURATION, card_name, card_time
from rules.flagon.forces import (
    Ctx,
    State,
    barrel_at,
    char_at,
    cname,
    damage,
    daze,
    direction,
    enterable,
    fall,
    flight,
    is_floor,
    knockback,
    loose_at,
    move_char,
    obj,
    on_table,
    opponents,
    parried,
    pos,
    push_table,
    roll_barrel,
    shove,
    shove_dirs,
    sort_hand,
    stands_firm,
    table_at,
)

MOVE_CARDS = {"step": 1, "move": 3, "dash": 5}
TELEPORT = {"shadow-step": 2, "shadow-dash": 4}
FRONT_TARGET = {"punch", "slash", "walk-the-plank", "shield-bash", "god-smack"}
AT_CARDS = FRONT_TARGET | {"kick", "backstab", "push-table", "heave", "pull-rug", "fireball", "lure-of-the-sea"}
RAY_AIM = {"pistol-shot": 6, "broadside": 5, "lightning": 5, "arcane-push": 3}
SWINGS = {"swing": (4, 1, 1), "daring-swing": (4, 2, 2), "arr": (3, 1, None)}  # length, kick damage, rigging reach
AUTO = {"charge", "rampage", "boast", "stand-firm", "parry", "grog", "flurry", "flourish", "cleave"}
KIND_ORDER = ("chest", "flagon", "mug", "chair")


def first_step(card: str) -> str | None:
    if card in MOVE_CARDS or card in TELEPORT or card in ("leap", "dragon-kick"):
        return "to"
    if card in AT_CARDS:
        return "at"
    if card in RAY_AIM or card in SWINGS or card == "throw":
        return "aim"
    if card == "pick-up":
        return "pickup"
    return None


# -- geometry helpers -----------------------------------------------------------------------------------


def ray(state: State, p: Sq, d: Sq, reach: int, stop_at_barrels: bool = True) -> list[Sq]:
    out = []
    for k in range(1, reach + 1):
        q = add(p, d, k)
        if stop_at_barrels and barrel_at(state, q) is not None:
            break
        out.append(q)
    return out


def first_char_on(state: State, squares: list[Sq]) -> int | None:
    for q in squares:
        who = char_at(state, q)
        if who is not None:
            return who
    return None


def front_squares(state: State, i: int) -> list[Sq]:
    p = pos(state, i)
    assert p is not None
    return [add(p, VEC[d]) for d in arc(state["chars"][i]["facing"])]


def walk(state: State, start: Sq, points: int) -> list[Sq]:
    """Dijkstra over enterable squares; climbing from the floor onto a table costs 2."""
    # occupancy sets once per search: the scans behind enterable() would repeat for every edge
    tables = {xy(s) for o in state["objects"] if o["kind"] == "table" and not o["gone"] for s in o["sqs"]}
    blocked = {xy(c["pos"]) for c in state["chars"] if c["pos"] is not None}
    blocked |= {xy(o["sq"]) for o in state["objects"] if o["kind"] == "barrel" and not o["gone"]}
    best = {start: 0}
    heap = [(0, rowmajor(start), start)]
    while heap:
        cost, _, p = heapq.heappop(heap)
        if cost > best.get(p, 99):
            continue
        from_table = p in tables
        for d in VEC.values():
            q = add(p, d)
            if q in blocked or not (q in tables or is_solid(state, q)):
                continue
            c = cost + (2 if (not from_table and q in tables) else 1)
            if c <= points and c < best.get(q, 99):
                best[q] = c
                heapq.heappush(heap, (c, rowmajor(q), q))
    return [q for q in best if q != start]


def to_squares(state: State, i: int, card: str) -> list[Sq]:
    p = pos(state, i)
    assert p is not None
    if card == "step":
        dests = [add(p, d) for d in VEC.values() if enterable(state, add(p, d))]
    elif card in MOVE_CARDS:
        dests = walk(state, p, MOVE_CARDS[card])
    elif card == "leap":
        dests = [add(p, d, k) for d in VEC.values() for k in (2, 3) if enterable(state, add(p, d, k))]
    elif card in TELEPORT:
        r = TELEPORT[card]
        dests = [
            (x, y)
            for y in range(p[1] - r, p[1] + r + 1)
            for x in range(p[0] - r, p[0] + r + 1)
            if (x, y) != p and enterable(state, (x, y))
        ]
    else:  # dragon-kick: straight ahead, skipping everything in between (docs/games/flagon.md#characters-and-cards)
        f = VEC[state["chars"][i]["facing"]]
        dests = [add(p, f, k) for k in (1, 2, 3) if enterable(state, add(p, f, k))]
    return [p, *sorted(set(dests), key=rowmajor)]


def swing_landing(state: State, p: Sq, d: Sq, length: int) -> int:
    """The largest i in L..1 whose square is enterable (water is never a landing); 0 if none."""
    for k in range(length, 0, -1):
        if enterable(state, add(p, d, k)):
            return k
    return 0


def rigging_near(state: State, p: Sq, reach: int) -> bool:
    return any(dist(p, xy(r)) <= reach for r in rigging_of(state))


def held_kind(state: State, i: int) -> str | None:
    h = state["chars"][i]["held"]
    return None if h is None else obj(state, h)["kind"]


def rugs_in_reach(state: State, i: int) -> list[dict]:
    p = pos(state, i)
    assert p is not None
    if not is_floor(state, p):
        return []
    out = []
    for o in state["objects"]:
        if o["kind"] != "rug" or name(p) in o["sqs"]:
            continue
        if any(dist(p, xy(s)) == 1 for s in o["sqs"]):
            out.append(o)
    return out


def fireball_centres(state: State, i: int) -> list[Sq]:
    p = pos(state, i)
    assert p is not None
    out = {add(p, VEC[d], k) for d in arc(state["chars"][i]["facing"]) for k in (2, 3, 4)}
    return sorted((q for q in out if in_map(state, q)), key=rowmajor)


def lure_targets(state: State, i: int) -> list[Sq]:
    p = pos(state, i)
    assert p is not None
    out = []
    for d in arc(state["chars"][i]["facing"]):
        who = first_char_on(state, ray(state, p, VEC[d], 3))
        if who is not None and not stands_firm(state, who):
            out.append(pos(state, who))
    return sorted(set(out), key=rowmajor)  # type: ignore[arg-type]


def at_squares(state: State, i: int, card: str) -> list[Sq]:
    p = pos(state, i)
    assert p is not None
    if card in FRONT_TARGET or card == "dragon-kick":
        out = [q for q in front_squares(state, i) if char_at(state, q) is not None]
    elif card == "kick":
        out = [q for q in front_squares(state, i) if char_at(state, q) is not None or barrel_at(state, q) is not None]
    elif card == "backstab":
        out = [add(p, d) for d in VEC.values() if char_at(state, add(p, d)) is not None]
    elif card in ("push-table", "heave"):
        out = [q for q in front_squares(state, i) if table_at(state, q) is not None] if is_floor(state, p) else []
    elif card == "pull-rug":
        out = [xy(o["sqs"][0]) for o in rugs_in_reach(state, i)]
    elif card == "fireball":
        out = fireball_centres(state, i)
    else:  # lure-of-the-sea
        out = lure_targets(state, i)
    return sorted(out, key=rowmajor)


def aim_dirs(state: State, i: int, card: str) -> list[str]:
    c = state["chars"][i]
    p = pos(state, i)
    assert p is not None
    front = arc(c["facing"])
    if card == "throw":
        return front if held_kind(state, i) in ("mug", "chair") else []
    if card in SWINGS:
        length, _, reach = SWINGS[card]
        if reach is not None and not rigging_near(state, p, reach):
            return []
        return [d for d in front if swing_landing(state, p, VEC[d], length)]
    return front


def in_compass(dirs: list[str]) -> list[str]:
    return [d for d in DIRS if d in dirs]


# -- options --------------------------------------------------------------------------------------------


def options(state: State) -> list[str]:
    pend = state["pending"]
    i, card, step = pend["char"], pend["card"], pend["step"]
    if step == "to":
        return [f"to {name(q)}" for q in to_squares(state, i, card)]
    if step == "face":
        first = pend["data"].get("default") or state["chars"][i]["facing"]
        return [f"face {first}"] + [f"face {d}" for d in DIRS if d != first]
    if step == "at":
        return ["skip"] + [f"at {name(q)}" for q in at_squares(state, i, card)]
    if step == "aim":
        return ["skip"] + [f"aim {d}" for d in in_compass(aim_dirs(state, i, card))]
    if step == "shove":
        target = pend["data"]["target"]
        return ["skip"] + [f"shove {d}" for d in in_compass(shove_dirs(state, target))]
    if step == "pickup":
        if state["chars"][i]["held"] is not None:
            return ["skip", "drop"]
        p = pos(state, i)
        assert p is not None
        squares = sorted({p, *front_squares(state, i)}, key=rowmajor)
        out = ["skip"]
        for q in squares:
            kinds = {o["kind"] for o in loose_at(state, q)}
            out += [f"take {k} {name(q)}" for k in KIND_ORDER if k in kinds]
        return out
    raise ValueError(step)


# -- resolving ------------------------------------------------------------------------------------------


def begin_card(state: State, ctx: Ctx, i: int, card: str) -> bool:
    """Start resolving a revealed card. Returns True when the card is finished already."""
    c = state["chars"][i]
    if card == DRAGON[c["id"]] and c["dragon"] == "locked":
        ctx.say(f"{cname(state, i)}'s {card_name(card)} fizzles (Dragon locked).")
        finish_card(state, ctx, i, card, fizzled=True)
        return True
    step = first_step(card)
    if step is None:
        auto(state, ctx, i, card)
        finish_card(state, ctx, i, card)
        return True
    state["pending"] = {"step": step, "char": i, "card": card, "data": {}}
    return False


def finish_card(state: State, ctx: Ctx, i: int, card: str, fizzled: bool = False) -> None:
    c = state["chars"][i]
    if card in DURATION and not fizzled:
        c["duration"].append(card)
        if card == "boast":
            c["spoiled"] = False
    elif card == DRAGON[c["id"]] and c["dragon"] != "locked":
        c["used"].append(card)
        c["dragon"] = "used"
    else:
        c["hand"].append(card)
        sort_hand(c)
    spent = 1 if fizzled else card_time(card)
    c["time"] += spent
    ctx.say(f"{cname(state, i)}'s time: {c['time'] - spent} → {c['time']}.")
    state["pending"] = None


def choose(state: State, ctx: Ctx, action: str) -> bool:
    """Apply one step choice of the active card. Returns True when the card is finished."""
    pend = state["pending"]
    i, card, step = pend["char"], pend["card"], pend["step"]
    ctx.active = i
    words = action.split()
    if step == "face":
        state["chars"][i]["facing"] = words[1]
        ctx.say(f"{cname(state, i)} now faces {words[1].upper()}.")
        return _done(state, ctx, i, card)
    if words[0] == "skip":
        ctx.say(f"{cname(state, i)} skips.")
        return _done(state, ctx, i, card)
    if step == "to":
        p = pos(state, i)
        q = xy(words[1])
        if q != p:
            move_char(state, i, q)
            ctx.touch(p)  # type: ignore[arg-type]
            ctx.touch(q)
            ctx.arrows.append([name(p), name(q)])  # type: ignore[arg-type]
            ctx.say(f"{cname(state, i)}: {name(p)} → {name(q)}.")  # type: ignore[arg-type]
        if card == "dragon-kick":
            pend["step"] = "at"
            return False
        pend["step"] = "face"
        return False
    if step == "pickup":
        pick_up(state, ctx, i, words)
        return _done(state, ctx, i, card)
    if step == "at":
        return at_effect(state, ctx, i, card, xy(words[1]))
    if step == "aim":
        aim_effect(state, ctx, i, card, words[1])
        return _done(state, ctx, i, card)
    if step == "shove":
        target = pend["data"]["target"]
        shove(state, ctx, target, VEC[words[1]])
        return _done(state, ctx, i, card)
    raise ValueError(step)


def _done(state: State, ctx: Ctx, i: int, card: str) -> bool:
    finish_card(state, ctx, i, card)
    return True


def pick_up(state: State, ctx: Ctx, i: int, words: list[str]) -> None:
    c = state["chars"][i]
    if words[0] == "drop":
        o = obj(state, c["held"])
        o["held"] = None
        o["sq"] = c["pos"]
        c["held"] = None
        ctx.say(f"{cname(state, i)} puts a {o['kind']} down on {c['pos']}.")
        return
    kind, q = words[1], xy(words[2])
    found = sorted((o for o in loose_at(state, q) if o["kind"] == kind), key=lambda o: _num(o["id"]))
    o = found[0]
    o["held"] = i
    o["sq"] = None
    c["held"] = o["id"]
    ctx.touch(q)
    if kind == "flagon" and c["dragon"] == "locked":
        c["dragon"] = "unlocked"
        ctx.say(f"{cname(state, i)} picks up the Dragon Flagon: {card_name(DRAGON[c['id']])} unlocked!")
    else:
        ctx.say(f"{cname(state, i)} picks up a {kind} on {name(q)}.")


def _num(oid: str) -> int:
    digits = "".join(ch for ch in oid if ch.isdigit())
    return int(digits) if digits else 0


def at_effect(state: State, ctx: Ctx, i: int, card: str, q: Sq) -> bool:
    p = pos(state, i)
    assert p is not None
    ctx.touch(q)
    label = card_name(card)
    if card in ("push-table", "heave"):
        t = table_at(state, q)
        assert t is not None
        d = direction(p, q)
        if push_table(state, ctx, t, d) and card == "heave" and not t["gone"]:
            push_table(state, ctx, t, d)
        return _done(state, ctx, i, card)
    if card == "pull-rug":
        rug = next(o for o in state["objects"] if o["kind"] == "rug" and o["sqs"][0] == name(q))
        for s in sorted(rug["sqs"], key=lambda s: rowmajor(xy(s))):
            who = char_at(state, xy(s))
            if who is not None and not on_table(state, who):
                ctx.touch(xy(s))
                damage(state, ctx, who, 1, "Rug")
                fall(state, ctx, who)
        return _done(state, ctx, i, card)
    if card == "fireball":
        for y in range(q[1] - 1, q[1] + 2):
            for x in range(q[0] - 1, q[0] + 2):
                ctx.touch((x, y))
                who = char_at(state, (x, y))
                if who is not None and opponents(state, i, who) and not parried(state, ctx, who):
                    damage(state, ctx, who, 2, label)
                    daze(state, ctx, who)
        return _done(state, ctx, i, card)
    if card == "kick" and barrel_at(state, q) is not None:
        roll_barrel(state, ctx, barrel_at(state, q), direction(p, q))  # type: ignore[arg-type]
        return _done(state, ctx, i, card)
    who = char_at(state, q)
    assert who is not None
    if parried(state, ctx, who):
        state["pending"]["data"]["parried"] = sorted(ctx.parried)
        return _done(state, ctx, i, card)
    d = direction(p, q)
    if card == "punch":
        damage(state, ctx, who, 1, label)
    elif card == "slash":
        if held_kind(state, i) == "chair":
            chair = obj(state, state["chars"][i]["held"])
            chair["held"] = None
            chair["gone"] = True
            state["chars"][i]["held"] = None
            ctx.say(f"{cname(state, i)} smashes a chair!")
            damage(state, ctx, who, 3, label)
            daze(state, ctx, who)
        else:
            damage(state, ctx, who, 2, label)
    elif card == "kick":
        damage(state, ctx, who, 1, label)
        knockback(state, ctx, who, d, 2)
    elif card == "walk-the-plank":
        knockback(state, ctx, who, d, 3)
        daze(state, ctx, who)
    elif card == "shield-bash":
        damage(state, ctx, who, 1, label)
        knockback(state, ctx, who, d, 1)
        daze(state, ctx, who)
    elif card == "god-smack":
        damage(state, ctx, who, 3, label)
        flight(state, ctx, who, d, 4)
    elif card == "dragon-kick":
        damage(state, ctx, who, 3, label)
        knockback(state, ctx, who, d, 3)
    elif card == "backstab":
        tp = pos(state, who)
        behind = add(tp, VEC[turn(state["chars"][who]["facing"], 4)])  # type: ignore[arg-type]
        damage(state, ctx, who, 5 if behind == p else 3, label)
        daze(state, ctx, who)
    elif card == "lure-of-the-sea":
        state["pending"]["step"] = "shove"
        state["pending"]["data"]["target"] = who
        return False
    return _done(state, ctx, i, card)


def aim_effect(state: State, ctx: Ctx, i: int, card: str, dname: str) -> None:
    p = pos(state, i)
    assert p is not None
    d = VEC[dname]
    label = card_name(card)
    if card in SWINGS:
        swing(state, ctx, i, d, dname, SWINGS[card][0], SWINGS[card][1])
        return
    if card == "throw":
        o = obj(state, state["chars"][i]["held"])
        reach, dmg = (5, 1) if o["kind"] == "mug" else (3, 2)
        o["held"] = None
        o["gone"] = True
        state["chars"][i]["held"] = None
        squares = ray(state, p, d, reach)
        for q in squares:
            ctx.touch(q)
        who = first_char_on(state, squares)
        ctx.say(f"{cname(state, i)} throws a {o['kind']} {dname.upper()}.")
        if who is not None and not parried(state, ctx, who):
            damage(state, ctx, who, dmg, label)
            daze(state, ctx, who)
        return
    squares = ray(state, p, d, RAY_AIM[card])
    for q in squares:
        ctx.touch(q)
    if card in ("pistol-shot", "arcane-push"):
        who = first_char_on(state, squares)
        if who is None or parried(state, ctx, who):
            ctx.say(f"{cname(state, i)}'s {label} hits nobody.")
            return
        if card == "pistol-shot":
            damage(state, ctx, who, 2, label)
            daze(state, ctx, who)
        else:
            damage(state, ctx, who, 1, label)
            knockback(state, ctx, who, d, 2)
        return
    victims = [w for w in (char_at(state, q) for q in squares) if w is not None and opponents(state, i, w)]
    if card == "broadside":
        victims.reverse()
    for who in victims:
        if parried(state, ctx, who):
            continue
        if card == "broadside":
            damage(state, ctx, who, 2, label)
            knockback(state, ctx, who, d, 1)
        else:
            damage(state, ctx, who, 1, label)
            daze(state, ctx, who)


def swing(state: State, ctx: Ctx, i: int, d: Sq, dname: str, length: int, k: int) -> None:
    p = pos(state, i)
    assert p is not None
    landing = swing_landing(state, p, d, length)
    for n in range(1, landing):
        q = add(p, d, n)
        ctx.touch(q)
        who = char_at(state, q)
        if who is not None and opponents(state, i, who) and not parried(state, ctx, who):
            damage(state, ctx, who, k, "Swing kick")
            fall(state, ctx, who)
    q = add(p, d, landing)
    move_char(state, i, q)
    state["chars"][i]["facing"] = dname
    ctx.touch(q)
    ctx.arrows.append([name(p), name(q)])
    ctx.say(f"{cname(state, i)} swings {dname.upper()}: {name(p)} → {name(q)}.")


def auto(state: State, ctx: Ctx, i: int, card: str) -> None:
    c = state["chars"][i]
    p = pos(state, i)
    assert p is not None
    label = card_name(card)
    if card in ("charge", "rampage"):
        charge(state, ctx, i, *((6, 3, 2) if card == "rampage" else (4, 2, 1)))
    elif card in DURATION:
        ctx.say(f"{cname(state, i)}'s {label} goes face up.")
    elif card == "grog":
        mug = obj(state, c["held"]) if held_kind(state, i) == "mug" else None
        if mug is None:
            mugs = sorted((o for o in loose_at(state, p) if o["kind"] == "mug"), key=lambda o: _num(o["id"]))
            mug = mugs[0] if mugs else None
        if mug is None:
            ctx.say(f"{cname(state, i)}'s Grog fizzles: no mug.")
            return
        if c["held"] == mug["id"]:
            c["held"] = None
        mug["held"] = None
        mug["sq"] = None
        mug["gone"] = True
        c["rep"] += 2
        c["dazed"] = False
        ctx.say(f"{cname(state, i)} drinks Grog: +2 → {c['rep']}.")
    elif card in ("flurry", "flourish"):
        for dn in DIRS:
            q = add(p, VEC[dn])
            who = char_at(state, q)
            if who is not None and opponents(state, i, who) and not parried(state, ctx, who):
                ctx.touch(q)
                damage(state, ctx, who, 1 if card == "flurry" else 2, label)
                if card == "flourish":
                    daze(state, ctx, who)
    elif card == "cleave":
        for q in front_squares(state, i):
            ctx.touch(q)
            who = char_at(state, q)
            if who is not None and opponents(state, i, who) and not parried(state, ctx, who):
                damage(state, ctx, who, 2, label)


def charge(state: State, ctx: Ctx, i: int, most: int, dmg: int, kb: int) -> None:
    c = state["chars"][i]
    f = VEC[c["facing"]]
    start = pos(state, i)
    assert start is not None
    moved = 0
    while True:
        cur = pos(state, i)
        assert cur is not None
        nxt = add(cur, f)
        who = char_at(state, nxt)
        if who is not None:
            if opponents(state, i, who) and not parried(state, ctx, who):
                ctx.touch(nxt)
                damage(state, ctx, who, dmg, card_name("rampage" if most == 6 else "charge"))
                knockback(state, ctx, who, f, kb)
            break
        if moved == most or not is_floor(state, nxt) or barrel_at(state, nxt) is not None:
            break
        move_char(state, i, nxt)
        ctx.touch(nxt)
        moved += 1
    end = pos(state, i)
    if end != start:
        ctx.touch(start)
        ctx.arrows.append([name(start), name(end)])  # type: ignore[arg-type]
        ctx.say(f"{cname(state, i)} charges: {name(start)} → {name(end)}.")  # type: ignore[arg-type]
