"""Flagon AI players (docs/games/flagon.md#the-ais). They read only their own view and the legal list; randomness comes from ``rnd``.

- ``easy``: a uniformly random legal action.
- ``normal``: plans by a short list of rules for the position it expects at reveal, and resolves every
  reveal-time step by trying each option on a public replica of the board and scoring the result.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from rules.core import clone
from rules.flagon import resolution
from rules.flagon.board import CREWS, DIR_OF, VEC, Sq, add, dist, is_solid, near_water, ship_of, sign, solid, xy
from rules.flagon.cards import DRAGON, card_time, deck
from rules.flagon.engine import AI_DRAFT, scores
from rules.flagon.forces import Ctx

View = dict[str, Any]

ADJ_ATTACK = ("cleave", "slash", "kick", "shield-bash", "flurry", "punch")
KNOCKERS = ("kick", "shield-bash", "god-smack", "walk-the-plank", "dragon-kick")
RANGED = {"pistol-shot": 6, "lightning": 5, "arcane-push": 3, "throw": 5}
MOVERS = {"step": 1, "move": 3, "dash": 5, "leap": 3, "shadow-step": 2, "shadow-dash": 4}
MAX_TRIES = 60

# own-deck squares at distance >= 2 from water, where a chest carrier is safe
SAFE: dict[str, list[Sq]] = {
    crew: [
        (x, y)
        for y in range(13)
        for x in range(15)
        if ship_of((x, y)) == crew and all(solid((x + dx, y + dy)) for dx in range(-2, 3) for dy in range(-2, 3))
    ]
    for crew in CREWS
}


def easy(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    """A uniformly random legal action."""
    return legal[rnd.randrange(len(legal))]


def normal(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    if len(legal) == 1:
        return legal[rnd.randrange(1)]  # draws from ``rnd`` like every other choice, so the stream stays as it was
    step = view["step"]
    if step == "pick":
        for cid in AI_DRAFT:
            if f"pick {cid}" in legal:
                return f"pick {cid}"
        return legal[0]
    if step in ("start", "enter"):
        return legal[0]
    if view["phase"] in ("plan", "replan"):
        return plan(view, seat, legal)
    if step == "face":
        return face(view, legal)
    return resolve(view, seat, legal)


# -- reading the view -----------------------------------------------------------------------------------


def my_crew(view: View, seat: int) -> str:
    for crew, info in view["crews"].items():
        if seat in info["seats"]:
            return crew
    return "west"


def obj_at(view: View) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for o in view["objects"]:
        if o.get("held", 0) is None and not o["gone"] and o.get("sq"):
            out.setdefault(o["sq"], []).append(o)
    return out


def goal(view: View, c: dict, crew: str) -> Sq | None:
    if c["pos"] is None:
        return None
    p = xy(c["pos"])
    held = _held_kind(view, c)
    if held == "chest" and crew in SAFE:
        return min(SAFE[crew], key=lambda q: (dist(p, q), q[1], q[0]))
    loose = [o for o in view["objects"] if o.get("held", 0) is None and not o["gone"] and o.get("sq")]
    if c["dragon"] == "locked":
        fl = [xy(o["sq"]) for o in loose if o["kind"] == "flagon" and dist(p, xy(o["sq"])) <= 6]
        if fl:
            return fl[0]
    chests = [xy(o["sq"]) for o in loose if o["kind"] == "chest" and ship_of(xy(o["sq"])) != crew]
    chests = [q for q in chests if dist(p, q) <= 6]
    if chests:
        return min(chests, key=lambda q: (dist(p, q), q[1], q[0]))
    opps = [xy(o["pos"]) for o in view["chars"] if o["crew"] != crew and o["pos"] is not None]
    if not opps:
        return None
    return min(opps, key=lambda q: (dist(p, q), q[1], q[0]))


def _held_kind(view: View, c: dict) -> str | None:
    if c["held"] is None:
        return None
    for o in view["objects"]:
        if o["id"] == c["held"]:
            return o["kind"]
    return None


def toward(a: Sq, b: Sq) -> str | None:
    v = (sign(b[0] - a[0]), sign(b[1] - a[1]))
    return DIR_OF.get(v)


# -- evaluation -----------------------------------------------------------------------------------------


def evaluate(state: dict, crew: str) -> float:
    sc = scores(state)
    e = float(sc[crew]["total"] - max(s["total"] for k, s in sc.items() if k != crew))
    ships = state.get("map") != "tavern"
    opp_pos = [xy(c["pos"]) for c in state["chars"] if c["crew"] != crew and c["pos"] is not None]
    holders = {o["held"]: o["kind"] for o in state["objects"] if o.get("held") is not None}
    for c in state["chars"]:
        mine = c["crew"] == crew
        if c["pos"] is None:
            e += -3 if mine else 3
            continue
        if not mine:
            continue
        p = xy(c["pos"])
        if ships and not near_water(p):
            e += 0.3
        kind = holders.get(c["idx"])
        if kind == "flagon" or c["dragon"] == "unlocked":
            e += 1
        if kind == "chest" and any(dist(p, q) <= 1 for q in opp_pos):
            e -= 0.5
    return e


def replica(view: View) -> dict:
    """A state the engine functions accept, built from public data (and this seat's own secrets)."""
    chars = []
    for row in view["chars"]:
        c = {k: copy.copy(v) for k, v in row.items() if k not in ("hand", "queue", "name", "tag", "queued", "owed")}
        known = set(row["duration"]) | set(row["used"])
        c["hand"] = list(row["hand"]) if "hand" in row else [x for x in deck(row["id"]) if x not in known]
        c["queue"] = list(row.get("queue", []))
        chars.append(c)
    pend = view["pending"]
    pending = None
    if pend is not None:
        pending = {k: v for k, v in pend.items() if k != "target"}
        pending["data"] = {"target": pend["target"]} if "target" in pend else {}
    return {
        "seed": "replica",
        "map": view.get("map", "ships"),
        "rng_n": 0,
        "players": view["players"],
        "T": view["T"],
        "end_spaces": list(view["end_spaces"]),
        "navy": view["end_spaces"][-1],
        "end_revealed": dict(view["end_revealed"]),
        "crews": {crew: list(info["seats"]) for crew, info in view["crews"].items()},
        "chars": chars,
        "objects": clone(view["objects"]),
        "phase": view["phase"],
        "pending": pending,
        "owed": {},
        "victims": [],
        "last": {"char": None, "card": None, "touched": [], "arrows": [], "splash": []},
        "result": None,
    }


def _clone(state: dict) -> dict:
    out = dict(state)
    out["chars"] = [
        {
            **c,
            "hand": list(c["hand"]),
            "queue": list(c["queue"]),
            "duration": list(c["duration"]),
            "used": list(c["used"]),
        }
        for c in state["chars"]
    ]
    out["objects"] = [dict(o, sqs=list(o["sqs"])) if "sqs" in o else dict(o) for o in state["objects"]]
    out["pending"] = clone(state["pending"])
    out["victims"] = []
    out["owed"] = {}
    out["last"] = {"char": None, "card": None, "touched": [], "arrows": [], "splash": []}
    return out


def resolve(view: View, seat: int, legal: list[str]) -> str:
    crew = my_crew(view, seat)
    base = replica(view)
    i = base["pending"]["char"]
    best, best_score = legal[0], float("-inf")
    for action in legal[:MAX_TRIES]:
        state = _clone(base)
        ctx = Ctx()
        ctx.active = i
        resolution.choose(state, ctx, action)
        score = evaluate(state, crew)
        me = state["chars"][i]
        g = goal(view, me, crew) if me["pos"] is not None else None
        if g is not None and me["pos"] is not None:
            score -= 0.5 * max(0, dist(xy(me["pos"]), g) - (0 if _wants_square(view, me, crew) else 1))
        if score > best_score + 1e-9:
            best, best_score = action, score
    return best


def _wants_square(view: View, c: dict, crew: str) -> bool:
    """True when the goal is a square to stand on (an object or home), not an opponent to stand next to."""
    return _held_kind(view, c) == "chest" or any(
        o.get("sq") == c["pos"] for o in view["objects"] if o["kind"] in ("chest", "flagon")
    )


def face(view: View, legal: list[str]) -> str:
    pend = view["pending"] or {}
    c = view["chars"][pend["char"]]
    if c["pos"] is None:
        return legal[0]
    p = xy(c["pos"])
    opps = [xy(o["pos"]) for o in view["chars"] if o["crew"] != c["crew"] and o["pos"] is not None]
    target = min(opps, key=lambda q: (dist(p, q), q[1], q[0])) if opps else None
    if target is None or dist(p, target) > 4:
        target = goal(view, c, c["crew"]) or target
    if target is None or target == p:
        return legal[0]
    d = toward(p, target)
    return f"face {d}" if f"face {d}" in legal else legal[0]


# -- planning -------------------------------------------------------------------------------------------


def plan(view: View, seat: int, legal: list[str]) -> str:
    cid = legal[0].split()[1]
    c = next(row for row in view["chars"] if row["id"] == cid)
    crew = c["crew"]
    hand = [a.split()[2] for a in legal]
    card = plan_card(view, c, crew, hand)
    return f"plan {cid} {card}" if f"plan {cid} {card}" in legal else legal[0]


def plan_card(view: View, c: dict, crew: str, hand: list[str]) -> str:
    dragon = DRAGON[c["id"]]
    usable = [x for x in hand if x != dragon or c["dragon"] == "unlocked"]
    if c["pos"] is None:
        return _cheapest_move(usable) or usable[0]
    p = xy(c["pos"])
    g = goal(view, c, crew)
    reach = sum(MOVERS.get(x, 0) for x in c.get("queue", []))
    if g is not None and reach:
        p = _approach(p, g, reach)
    opps = [xy(o["pos"]) for o in view["chars"] if o["crew"] != crew and o["pos"] is not None]
    dmin = min((dist(p, q) for q in opps), default=99)
    adjacent = [q for q in opps if dist(p, q) == 1]
    held = _held_kind(view, c)
    # 1. a knockback that throws an adjacent opponent into the sea
    for q in adjacent:
        d = (sign(q[0] - p[0]), sign(q[1] - p[1]))
        board = {"map": view.get("map", "ships")}
        if not is_solid(board, add(q, d)) or not is_solid(board, add(q, d, 2)):
            for k in KNOCKERS:
                if k in usable:
                    return k
    # 2. an unlocked Dragon card with a target in reach
    if dragon in usable and dmin <= {"dragon-kick": 4, "broadside": 5, "fireball": 5, "rampage": 6}.get(dragon, 1):
        return dragon
    # 5 (early for chests). a chest or the Flagon here or next to us, hands empty
    if held is None and "pick-up" in usable:
        near = obj_at(view)
        for sq, objs in near.items():
            q = xy(sq)
            if dist(p, q) <= 1 and any(
                (o["kind"] == "chest" and ship_of(q) != crew) or (o["kind"] == "flagon" and c["dragon"] == "locked")
                for o in objs
            ):
                return "pick-up"
    if held == "chest":
        return _mover(usable, g, p) or usable[0]
    # 3. adjacent attack
    if adjacent:
        for a in ADJ_ATTACK:
            if a in usable:
                return a
    # 4. ranged
    lined = [q for q in opps if (q[0] == p[0] or q[1] == p[1] or abs(q[0] - p[0]) == abs(q[1] - p[1]))]
    for card, rng in RANGED.items():
        if card in usable and any(dist(p, q) <= rng for q in lined):
            if card == "throw" and held not in ("mug", "chair"):
                continue
            return card
    f = VEC[c["facing"]]
    for k in range(2, 6):
        q = add(p, f, k)
        if q in opps and "charge" in usable:
            return "charge"
    # 6. nobody near: Boast
    if dmin > 4 and "boast" in usable:
        return "boast"
    return _mover(usable, g, p) or usable[0]


def _approach(p: Sq, g: Sq, reach: int) -> Sq:
    steps = max(0, min(reach, dist(p, g) - 1))
    for _ in range(steps):
        p = (p[0] + sign(g[0] - p[0]), p[1] + sign(g[1] - p[1]))
    return p


def _mover(usable: list[str], g: Sq | None, p: Sq) -> str | None:
    far = 99 if g is None else dist(p, g)
    if far <= 2:
        order = ["step", "move", "shadow-step", "dash"]
    elif far <= 4:
        order = ["shadow-dash", "move", "leap", "dash", "step"]
    else:
        order = ["shadow-dash", "dash", "move", "leap", "step"]
    for card in order:
        if card in usable:
            return card
    return None


def _cheapest_move(usable: list[str]) -> str | None:
    movers = [x for x in usable if x in MOVERS]
    return min(movers, key=card_time) if movers else None
