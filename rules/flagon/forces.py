"""What happens to bodies and objects: damage, drops, statuses, forced movement, water and Overboard, barrels
and tables (docs/games/flagon.md#squares-damage-objects). Every function works on a state the caller owns and narrates
into a ``Ctx``."""

from __future__ import annotations

from typing import Any

from rules.core import Event
from rules.flagon.board import (
    DIR_OF,
    VEC,
    Sq,
    add,
    centre_of,
    dir_between,
    in_grid,
    is_solid,
    is_tavern,
    name,
    rowmajor,
    xy,
)
from rules.flagon.cards import CARD, CHAR_NAME, deck_index

State = dict[str, Any]


class Ctx:
    """Scratch for one card's resolution: narration, the active character, who has parried, splashes."""

    def __init__(self, state: State | None = None) -> None:
        self.active: int | None = None
        self.events: list[Event] = []
        self.parried: set[int] = set()
        self.touched: list[str] = []
        self.arrows: list[list[str]] = []
        self.splash: list[str] = []
        if state is not None and state.get("pending") and state["pending"].get("card"):
            self.active = state["pending"]["char"]
            self.parried = set(state["pending"]["data"].get("parried", []))
        if state is not None and state.get("last"):
            self.bind(state["last"])

    def bind(self, last: dict) -> None:
        """Narrate the marks of the current card into ``last`` (the view's highlight) directly."""
        self.touched = last["touched"]
        self.arrows = last["arrows"]
        self.splash = last["splash"]

    def say(self, text: str, private: dict[int, str] | None = None, actor: int | str | None = None) -> None:
        """A line; ``actor`` is the seat whose choice it tells ("Seat 2 picks the Monk"), "game" for an automatic
        step, None (most lines) when it names its own subject, a character."""
        self.events.append(Event(text, private or {}, actor))

    def touch(self, p: Sq) -> None:
        if in_grid(p) and name(p) not in self.touched:
            self.touched.append(name(p))


# -- lookups --------------------------------------------------------------------------------------------


def cname(state: State, i: int) -> str:
    return CHAR_NAME.get(state["chars"][i]["id"] or "", f"character {i + 1}")


def opponents(state: State, a: int | None, b: int) -> bool:
    return a is not None and state["chars"][a]["crew"] != state["chars"][b]["crew"]


def pos(state: State, i: int) -> Sq | None:
    p = state["chars"][i]["pos"]
    return None if p is None else xy(p)


def char_at(state: State, p: Sq) -> int | None:
    if not in_grid(p):
        return None
    s = name(p)
    for c in state["chars"]:
        if c["pos"] == s:
            return c["idx"]
    return None


def obj(state: State, oid: str) -> dict:
    for o in state["objects"]:
        if o["id"] == oid:
            return o
    raise KeyError(oid)


def barrel_at(state: State, p: Sq) -> dict | None:
    if not in_grid(p):
        return None
    s = name(p)
    for o in state["objects"]:
        if o["kind"] == "barrel" and not o["gone"] and o["sq"] == s:
            return o
    return None


def table_at(state: State, p: Sq) -> dict | None:
    if not in_grid(p):
        return None
    s = name(p)
    for o in state["objects"]:
        if o["kind"] == "table" and not o["gone"] and s in o["sqs"]:
            return o
    return None


def rug_at(state: State, p: Sq) -> dict | None:
    s = name(p) if in_grid(p) else ""
    for o in state["objects"]:
        if o["kind"] == "rug" and s in o["sqs"]:
            return o
    return None


def loose_at(state: State, p: Sq) -> list[dict]:
    s = name(p) if in_grid(p) else ""
    return [o for o in state["objects"] if o.get("held", 0) is None and not o["gone"] and o["sq"] == s]


def standable(state: State, p: Sq) -> bool:
    return is_solid(state, p) or table_at(state, p) is not None


def is_floor(state: State, p: Sq) -> bool:
    return is_solid(state, p) and table_at(state, p) is None


def enterable(state: State, p: Sq) -> bool:
    return standable(state, p) and char_at(state, p) is None and barrel_at(state, p) is None


def on_table(state: State, i: int) -> bool:
    p = pos(state, i)
    return p is not None and table_at(state, p) is not None


def stands_firm(state: State, i: int) -> bool:
    return "stand-firm" in state["chars"][i]["duration"]


# -- objects --------------------------------------------------------------------------------------------


def remove_loose(state: State, ctx: Ctx, o: dict) -> None:
    """A loose or held object goes into the sea; the Flagon floats back to the centre instead
    (docs/games/flagon.md#water)."""
    o["held"] = None
    if o["kind"] == "flagon":
        o["sq"] = name(centre_of(state))
        ctx.say(f"The Flagon floats back to {name(centre_of(state))}.")
        return
    o["sq"] = None
    o["gone"] = True
    ctx.say(f"A {o['kind']} sinks.")


def drop(state: State, ctx: Ctx, i: int) -> None:
    c = state["chars"][i]
    if c["held"] is None or c["pos"] is None:
        return
    o = obj(state, c["held"])
    c["held"] = None
    if not standable(state, xy(c["pos"])):
        # mid-flight above the sea: the object ends up in a water square (docs/games/flagon.md#water)
        remove_loose(state, ctx, o)
        return
    o["held"] = None
    o["sq"] = c["pos"]
    ctx.say(f"{cname(state, i)} drops a {o['kind']} on {c['pos']}.")


def spoil(state: State, i: int) -> None:
    if "boast" in state["chars"][i]["duration"]:
        state["chars"][i]["spoiled"] = True


# -- damage and statuses --------------------------------------------------------------------------------


def parried(state: State, ctx: Ctx, i: int) -> bool:
    """True if the active card's direct effects do not reach ``i`` (Parry: docs/games/flagon.md#duration-cards).

    Only an opponent's card triggers it, only once, and then the whole card leaves him alone."""
    if i in ctx.parried:
        return True
    c = state["chars"][i]
    if "parry" in c["duration"] and opponents(state, ctx.active, i):
        c["duration"].remove("parry")
        c["hand"].append("parry")
        sort_hand(c)
        ctx.parried.add(i)
        ctx.say(f"{cname(state, i)} parries! The card has no effect on him.")
        return True
    return False


def sort_hand(c: dict) -> None:
    order = deck_index(c["id"])
    c["hand"].sort(key=order.__getitem__)


def damage(state: State, ctx: Ctx, i: int, n: int, what: str) -> None:
    c = state["chars"][i]
    k = min(n, c["rep"])
    c["rep"] -= k
    a = ctx.active
    if a is not None and opponents(state, a, i):
        state["chars"][a]["rep"] += k
        ctx.say(f"{what}: {cname(state, i)} −{k} → {c['rep']}; {cname(state, a)} +{k} → {state['chars'][a]['rep']}.")
    else:
        ctx.say(f"{what}: {cname(state, i)} −{k} → {c['rep']} (discarded).")
    if c["pos"] is not None:
        ctx.touch(xy(c["pos"]))
    if n >= 1:
        spoil(state, i)
        drop(state, ctx, i)


def daze(state: State, ctx: Ctx, i: int) -> None:
    c = state["chars"][i]
    if c["pos"] is None or stands_firm(state, i):
        return
    c["dazed"] = True
    spoil(state, i)
    ctx.say(f"{cname(state, i)} is Dazed.")
    drop(state, ctx, i)


def fall(state: State, ctx: Ctx, i: int) -> None:
    c = state["chars"][i]
    if c["pos"] is None or stands_firm(state, i):
        return
    drop(state, ctx, i)
    spoil(state, i)
    c["waiting"] = False
    c["time"] += 1
    ctx.say(f"{cname(state, i)} falls: time {c['time'] - 1} → {c['time']}.")


def overboard(state: State, ctx: Ctx, i: int, at: Sq | None = None) -> None:
    """Overboard (docs/games/flagon.md#water), in this order: off the board, object lost, queue to hand, Dazed cleared,
    pay 2, replan 2."""
    c = state["chars"][i]
    if at is not None and in_grid(at):
        ctx.splash.append(name(at))
    c["pos"] = None
    lost = ""
    if c["held"] is not None:
        o = obj(state, c["held"])
        c["held"] = None
        lost = f" The {o['kind']} is lost." if o["kind"] != "flagon" else ""
        remove_loose(state, ctx, o)
    back = [CARD[x][0] for x in c["queue"]]  # planned, never revealed: only the seat knows which
    c["hand"].extend(c["queue"])
    c["queue"] = []
    sort_hand(c)
    c["dazed"] = False
    spoil(state, i)
    k = min(2, c["rep"])
    c["rep"] -= k
    a = ctx.active
    if a is not None and a != i and opponents(state, a, i):
        state["chars"][a]["rep"] += k
        paid = f"{cname(state, a)} +{k} → {state['chars'][a]['rep']}"
    else:
        paid = "discarded"
    # the seat's plan changes through someone else's card: it is told which planned cards came back (the channel
    # hears only the splash); with nothing planned there is no news for it alone
    private = {}
    if back:
        verb = "is" if len(back) == 1 else "are"
        private[c["seat"]] = (
            f"Your {cname(state, i)} went overboard: the planned {' and '.join(back)} {verb} back in your hand; "
            "plan 2 new cards."
        )
    ctx.say(f"🌊 {cname(state, i)} goes OVERBOARD! −{k} → {c['rep']}; {paid}.{lost}", private)
    if i not in state["victims"]:
        state["victims"].append(i)


def move_char(state: State, i: int, p: Sq) -> None:
    state["chars"][i]["pos"] = name(p)


# -- forced movement ------------------------------------------------------------------------------------


def knockback(state: State, ctx: Ctx, i: int, d: Sq, n: int) -> None:
    if stands_firm(state, i) or state["chars"][i]["pos"] is None:
        return
    start = pos(state, i)
    assert start is not None
    started_on_table = on_table(state, i)
    cur = start
    for _ in range(n):
        nxt = add(cur, d)
        hit = char_at(state, nxt)
        if hit is not None or barrel_at(state, nxt) is not None:
            move_char(state, i, cur)
            ctx.say(f"{cname(state, i)} slams into {'the ' + cname(state, hit) if hit is not None else 'a barrel'}.")
            _arrow(ctx, start, cur)
            damage(state, ctx, i, 1, "Slam")
            break
        if table_at(state, nxt) is not None:
            if table_at(state, cur) is not None:
                cur = nxt
                continue
            move_char(state, i, cur)
            ctx.say(f"{cname(state, i)} slams into a table's edge.")
            _arrow(ctx, start, cur)
            damage(state, ctx, i, 1, "Slam")
            break
        if is_solid(state, nxt):
            cur = nxt
            continue
        if is_tavern(state):
            # the tavern is walled: a body hits the wall instead of the sea
            move_char(state, i, cur)
            ctx.say(f"{cname(state, i)} slams into the wall.")
            _arrow(ctx, start, cur)
            damage(state, ctx, i, 1, "Slam")
            break
        ctx.say(f"{cname(state, i)} is knocked {DIR_OF[d].upper()}: {name(start)} → the water.")
        _arrow(ctx, start, nxt)
        overboard(state, ctx, i, nxt)
        return
    else:
        move_char(state, i, cur)
        if cur != start:
            ctx.say(f"{cname(state, i)} is knocked {DIR_OF[d].upper()}: {name(start)} → {name(cur)}.")
            _arrow(ctx, start, cur)
    if started_on_table and not on_table(state, i):
        fall(state, ctx, i)


def flight(state: State, ctx: Ctx, i: int, d: Sq, n: int = 4) -> None:
    """God Smack: four single squares, water ignored until the body comes down
    (docs/games/flagon.md#forced-movement)."""
    if stands_firm(state, i) or state["chars"][i]["pos"] is None:
        return
    start = pos(state, i)
    assert start is not None
    cur = start
    for _ in range(n):
        nxt = add(cur, d)
        hit = char_at(state, nxt)
        if hit is not None or barrel_at(state, nxt) is not None:
            state["chars"][i]["pos"] = name(cur) if in_grid(cur) else None
            ctx.say(f"{cname(state, i)} slams into {'the ' + cname(state, hit) if hit is not None else 'a barrel'}.")
            damage(state, ctx, i, 1, "Slam")
            break
        if is_tavern(state) and not is_solid(state, nxt):
            move_char(state, i, cur)
            ctx.say(f"{cname(state, i)} slams into the wall.")
            damage(state, ctx, i, 1, "Slam")
            break
        cur = nxt
    _arrow(ctx, start, cur)
    if not standable(state, cur):
        ctx.say(f"{cname(state, i)} flies {DIR_OF[d].upper()} from {name(start)} and lands in the water.")
        overboard(state, ctx, i, cur)
        return
    move_char(state, i, cur)
    ctx.say(f"{cname(state, i)} flies {DIR_OF[d].upper()}: {name(start)} → {name(cur)} and lands.")
    fall(state, ctx, i)


def shove_dirs(state: State, i: int) -> list[str]:
    p = pos(state, i)
    assert p is not None
    rider = on_table(state, i)
    out = []
    for dn, d in VEC.items():
        q = add(p, d)
        if char_at(state, q) is not None or barrel_at(state, q) is not None:
            continue
        if table_at(state, q) is not None and not rider:
            continue
        if is_tavern(state) and not is_solid(state, q):
            continue  # a wall, not the sea
        out.append(dn)
    return out


def shove(state: State, ctx: Ctx, i: int, d: Sq) -> None:
    if stands_firm(state, i):
        return
    p = pos(state, i)
    assert p is not None
    rider = on_table(state, i)
    q = add(p, d)
    _arrow(ctx, p, q)
    if not standable(state, q):
        ctx.say(f"{cname(state, i)} is shoved {DIR_OF[d].upper()} into the water.")
        overboard(state, ctx, i, q)
        return
    move_char(state, i, q)
    ctx.say(f"{cname(state, i)} is shoved {DIR_OF[d].upper()}: {name(p)} → {name(q)}.")
    if rider and not on_table(state, i):
        fall(state, ctx, i)


def _arrow(ctx: Ctx, a: Sq, b: Sq) -> None:
    if in_grid(a):
        ctx.touch(a)
    if in_grid(b):
        ctx.touch(b)
    if in_grid(a) and in_grid(b) and a != b:
        ctx.arrows.append([name(a), name(b)])


# -- barrels and tables ---------------------------------------------------------------------------------


def roll_barrel(state: State, ctx: Ctx, o: dict, d: Sq) -> None:
    start = xy(o["sq"])
    cur = start
    while True:
        nxt = add(cur, d)
        if not is_solid(state, nxt) or table_at(state, nxt) is not None or barrel_at(state, nxt) is not None:
            break
        hit = char_at(state, nxt)
        if hit is not None:
            o["sq"] = name(cur)
            ctx.say(f"Barrel rolls {name(start)} → {name(cur)} and hits the {cname(state, hit)}.")
            _arrow(ctx, start, cur)
            damage(state, ctx, hit, 2, "Barrel")
            fall(state, ctx, hit)
            return
        cur = nxt
    o["sq"] = name(cur)
    _arrow(ctx, start, cur)
    ctx.say(f"Barrel rolls {name(start)} → {name(cur)}." if cur != start else "The barrel does not budge.")


def push_table(state: State, ctx: Ctx, t: dict, d: Sq) -> bool:
    """One square in direction d (docs/games/flagon.md#table-pushes). Returns False if it failed (nothing moved)."""
    old = [xy(s) for s in t["sqs"]]
    new = [add(s, d) for s in old]
    fresh = sorted((s for s in new if s not in old), key=rowmajor)
    if is_tavern(state) and not all(is_solid(state, s) for s in new):
        return _wont_budge(ctx)  # it would go through the wall
    for s in fresh:
        other = table_at(state, s)
        if other is not None and other is not t:
            return _wont_budge(ctx)
    shoved: list[tuple[dict, Sq]] = []
    displaced: list[tuple[int, Sq]] = []
    for s in fresh:
        b = barrel_at(state, s)
        who = char_at(state, s)
        if b is None and who is None:
            continue
        dest = add(s, d)
        if char_at(state, dest) is not None or barrel_at(state, dest) is not None or table_at(state, dest) is not None:
            return _wont_budge(ctx)
        if is_tavern(state) and not is_solid(state, dest):
            return _wont_budge(ctx)  # pinned against the wall
        if b is not None:
            shoved.append((b, dest))
        if who is not None:
            if stands_firm(state, who):
                return _wont_budge(ctx)
            displaced.append((who, dest))
    for b, dest in shoved:
        if is_solid(state, dest):
            ctx.say(f"The table shoves a barrel {b['sq']} → {name(dest)}.")
            _arrow(ctx, xy(b["sq"]), dest)
            b["sq"] = name(dest)
        else:
            ctx.say(f"The table shoves a barrel from {b['sq']} into the sea.")
            ctx.touch(xy(b["sq"]))
            b["sq"] = None
            b["gone"] = True
    for who, dest in displaced:
        damage(state, ctx, who, 1, "Table")
        if standable(state, dest):
            _arrow(ctx, pos(state, who), dest)  # type: ignore[arg-type]
            move_char(state, who, dest)
        else:
            _arrow(ctx, pos(state, who), dest)  # type: ignore[arg-type]
            overboard(state, ctx, who, dest)
    old_names = set(t["sqs"])
    riders = [c["idx"] for c in state["chars"] if c["pos"] in old_names]
    cargo = [o for o in state["objects"] if o.get("held", 0) is None and not o["gone"] and o["sq"] in old_names]
    # everything on the table moves with it; cargo may leave the grid only if the table sinks below
    moved_riders = [(i, add(xy(state["chars"][i]["pos"]), d)) for i in riders]
    moved_cargo = [(o, add(xy(o["sq"]), d)) for o in cargo]
    for i, q in moved_riders:
        state["chars"][i]["pos"] = name(q) if in_grid(q) else None
    for o, q in moved_cargo:
        o["sq"] = name(q) if in_grid(q) else None
    for s in old + new:
        ctx.touch(s)
    if all(not is_solid(state, s) for s in new):
        t["gone"] = True
        t["sqs"] = []
        ctx.say("The table sinks!")
        for i, q in sorted(moved_riders):
            state["chars"][i]["pos"] = None
            overboard(state, ctx, i, q)
        for o, _q in moved_cargo:
            remove_loose(state, ctx, o)
        return True
    t["sqs"] = [name(s) for s in sorted(new, key=rowmajor)]
    ctx.say(f"Table pushed {DIR_OF[d].upper()}: now {', '.join(t['sqs'])}.")
    return True


def _wont_budge(ctx: Ctx) -> bool:
    ctx.say("The table won't budge.")
    return False


def direction(a: Sq, b: Sq) -> Sq:
    return VEC[dir_between(a, b)]
