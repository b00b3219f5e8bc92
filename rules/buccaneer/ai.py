"""Buccaneer AI players (docs/games/buccaneer.md#the-ais). They read only their own view and the legal list; randomness
comes only from the host's ``rnd``.

``normal`` plans a whole move with a breadth-first count of straight moves to its goal (home with a full
hold, Anchor Bay with a chart, Flat Island's treasure, or else Treasure Island's coast); ``easy`` plays at
random with a few guards so that it never stalls a game.
"""

from __future__ import annotations

import math
import random
from collections import deque
from functools import lru_cache
from typing import Any

from rules.buccaneer import board, doubt
from rules.buccaneer.model import (
    CARD_VALUE,
    CREW,
    CREW_VALUE,
    KEEPERS,
    TREASURE,
    TREASURE_VALUE,
    count,
    fighting,
    hold_value,
)

View = dict[str, Any]
NODES: tuple[str, ...] = tuple(board.RAYS)


def easy(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    if len(legal) == 1:
        return legal[0]
    return _easy(view, seat, legal, rnd)


def normal(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    if len(legal) == 1:
        return legal[0]
    return Normal(view, seat, legal, rnd).choose()


# -- easy -----------------------------------------------------------------------------------------------
_MOVE_VERBS = {"sail", "turn", "stay", "end"}


def _easy(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    you = view["you"]
    basket = you.get("basket")
    if basket and (basket["give"] or basket["get"]):
        if "trade" in legal:
            return "trade"
        shrink = [a for a in legal if a.startswith(("unoffer", "unwant"))]
        return rnd.choice(shrink)
    options = [a for a in legal if a not in ("undo", "cancel", "challenge") and " attack " not in a]
    if "attack" in options and you["fighting"] < 8:
        options.remove("attack")
    if view["awaiting"]["kind"] == "TURN" and view["stage"] in ("start", "after"):
        moves = [a for a in options if a.split()[0] in _MOVE_VERBS]
        windows = [a for a in options if a.split()[0] not in _MOVE_VERBS]
        if windows and (not moves or rnd.random() < 0.3):
            return rnd.choice(windows)
        options = moves
    return rnd.choice(options or legal)


# -- distances --------------------------------------------------------------------------------------------
@lru_cache(maxsize=128)  # ≈20 KB an entry; 64 entries already hit 90%
def distances(goals: frozenset[str], reach: int) -> dict[str, int]:
    """T(q): the fewest straight moves of 1..reach squares from each node to a goal. Lines are symmetric
    (a harbour is only ever a line's end), so a search outwards from the goals gives the distance to them."""
    dist = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:
        u = queue.popleft()
        du = dist[u] + 1
        for d in board.DIRS:
            for v in board.RAYS[u][d][:reach]:
                if v not in dist:
                    dist[v] = du
                    queue.append(v)
    return dist


@lru_cache(maxsize=64)  # up to ≈30 KB an entry: a game asks of a few dozen goal sets
def _goods(goals: frozenset[str], reach: int) -> dict[tuple[str, str], bool]:
    """Whether a move of 1..reach squares from a node in a facing can get one step closer to ``goals``, filled in
    as plans ask (the same goals and reach recur over a game, and a plan asks of every square and facing)."""
    return {}


def est(n: int) -> int:
    """A rough expected fighting strength of an unseen hand of ``n`` cards."""
    return round(1.75 * math.sqrt(n))


class Normal:
    def __init__(self, view: View, seat: int, legal: list[str], rnd: random.Random) -> None:
        self.view = view
        self.seat = seat
        self.legal = legal
        self.rnd = rnd
        self.you = view["you"]
        self.me = view["players"][seat]
        self.ship = self.me["ship"]
        self.S = self.you["sailing"]
        self.FS = self.you["fighting"]
        self.home = self.me["harbour"]
        self.harbours = {h["id"]: h for h in view["harbours"]}
        self.occ: dict[str, list[int]] = {}
        for p in view["players"]:
            if p["seat"] != seat and p["ship"]["at"]:
                self.occ.setdefault(p["ship"]["at"], []).append(p["seat"])

    # -- dispatch ---------------------------------------------------------------------------------------
    def choose(self) -> str:
        legal = self.legal
        if "challenge" in legal:
            if doubt.worth_challenging(self.view, self.seat):
                return "challenge"
            legal = [a for a in legal if a != "challenge"]
            self.legal = legal
            if len(legal) == 1:
                return legal[0]
        kind = self.view["awaiting"]["kind"]
        handler = getattr(self, f"on_{kind.lower()}", None)
        action = handler() if handler else None
        if action in legal:
            return action
        return self.fallback()

    def fallback(self) -> str:
        for a in self.legal:
            if a not in ("undo", "cancel") and " attack " not in a:
                return a
        return self.legal[0]

    # -- goals ------------------------------------------------------------------------------------------
    def reach(self, free: bool = False) -> int:
        return max(self.S, 1)

    def goal(self) -> tuple[str, frozenset[str]]:
        hold = self.ship["hold"]
        home_value = self.harbours[self.home]["home_value"]
        at = self.ship["at"]
        if len(hold) == 2 or home_value + hold_value(hold) >= 20 or (hold and self.S <= 4):
            return "HOME", frozenset([self.home])
        reach = self.reach()
        if (
            "chart" in self.me["keepers"]
            and not self.view["kidd_landed"]
            and len(hold) <= 1
            and distances(frozenset([board.ANCHOR_BAY]), reach).get(at, 99) <= 2
        ):
            return "ANCHOR", frozenset([board.ANCHOR_BAY])
        flat = self.view["flat"]["treasure"]
        flat_goal = frozenset(sq for sq in board.FLAT_COAST if len(self.occ.get(sq, [])) < 2)
        if any(flat.values()) and len(hold) < 2 and flat_goal and distances(flat_goal, reach).get(at, 99) <= 2:
            return "FLAT", flat_goal
        coast = frozenset(sq for sq in board.TREASURE_COAST if sq not in self.occ)
        return "COAST", coast or board.TREASURE_COAST_SET

    def targets_ok(self, s: int) -> bool:
        other = self.view["players"][s]
        return bool(other["ship"]["hold"]) and est(other["hand_size"]) + 2 <= self.FS

    # -- move planning ----------------------------------------------------------------------------------
    def plans(self, free: bool) -> list[tuple[tuple, dict[str, Any]]]:
        """Every move this AI would consider, best first: (key, plan)."""
        name, goals = self.goal()
        derelict = self.me["hand_size"] == 0
        reach = 1 if derelict and not free else self.reach(free)
        dist = distances(goals, max(reach, 1))
        at = self.ship["at"]
        facing = self.ship["facing"]
        prefer_coast = free and name != "HOME"

        def t(node: str) -> int:
            return dist.get(node, 60)

        known = _goods(goals, reach)

        def good(node: str, f: str) -> bool:
            ok = known.get((node, f))
            if ok is None:
                want = max(t(node) - 1, 0)
                ok = known[node, f] = any(t(n) == want for n in board.RAYS[node][f][:reach])
            return ok

        if board.is_harbour(at):
            dirs = list(board.EXITS[at])
        elif free or derelict or facing is None:
            dirs = list(board.DIRS)
        else:
            dirs = [facing]
        out: list[tuple[tuple, dict[str, Any]]] = []
        for d in dirs:
            for k, end in enumerate(board.RAYS[at][d][:reach], start=1):
                here = self.occ.get(end, [])
                base = {"kind": "sail", "dir": d, "k": k, "end": end, "target": None}
                bonus = 0 if not (prefer_coast and end in board.TREASURE_COAST_SET) else -1
                if board.is_harbour(end):
                    out.append(((t(end) + bonus, -k, board.DIRS.index(d), 0), {**base, "face": None}))
                    continue
                if not free and not derelict and len(here) <= 2:
                    for s in here:
                        if self.targets_ok(s):
                            tf = self.view["players"][s]["ship"]["facing"]
                            faces = [f for f in board.DIRS if f in (tf, board.opposite(tf))]
                            f = min(faces, key=lambda f: (0 if good(end, f) else 1, board.DIRS.index(f)))
                            rich = hold_value(self.view["players"][s]["ship"]["hold"])
                            plan = {**base, "target": self.view["players"][s]["harbour"], "face": f}
                            out.append(((-100 - rich, -k, board.DIRS.index(d), 0), plan))
                if len(here) >= 2:
                    continue
                for i, f in enumerate(board.DIRS):
                    score = t(end) + (0 if good(end, f) else 1) + bonus
                    out.append(((score, -k, board.DIRS.index(d), i), {**base, "face": f}))
        if not free and not board.is_harbour(at):
            for i, f in enumerate(board.DIRS):
                if f != facing:
                    score = t(at) + (0 if good(at, f) else 1)
                    out.append(
                        (
                            (score, 0, 8, i),
                            {"kind": "turn", "dir": None, "k": None, "end": at, "target": None, "face": f},
                        )
                    )
        out.sort(key=lambda x: x[0])
        return out

    def next_step(self, plan_now: dict[str, Any] | None, free: bool) -> str | None:
        for _, plan in self.plans(free):
            if plan_now is None:
                return f"sail {plan['dir']}" if plan["kind"] == "sail" else "turn"
            if plan["kind"] != plan_now["kind"] or plan["dir"] != plan_now["dir"]:
                continue
            if plan_now["kind"] == "sail" and plan_now["k"] is None:
                text = f"go {plan['k']}" + (f" attack {plan['target']}" if plan["target"] else "")
                if text in self.legal:
                    return text
                continue
            if plan_now["kind"] == "sail" and (plan["k"] != plan_now["k"] or plan["target"] != plan_now["target"]):
                continue
            if plan_now.get("face") is None and f"face {plan['face']}" in self.legal:
                return f"face {plan['face']}"
        if "confirm" in self.legal:
            return "confirm"
        return None

    def face_towards(self) -> str:
        _, goals = self.goal()
        reach = self.reach()
        dist = distances(goals, reach)
        at = self.ship["at"]
        best = None
        for a in self.legal:
            f = a.split()[1]
            here = dist.get(at, 60)
            score = min((dist.get(n, 60) for n in board.RAYS[at][f][:reach]), default=60)
            key = (score if score < here else score + 1, board.DIRS.index(f))
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else self.legal[0]

    # -- the turn ---------------------------------------------------------------------------------------
    def on_turn(self) -> str | None:
        stage = self.view["stage"]
        if stage == "plan":
            return self.next_step(self.you["plan"], False)
        window = self.window()
        if window:
            return window
        if stage == "after":
            return "end"
        name, _ = self.goal()
        if self.ship["at"] == self.home and name == "HOME" and "stay" in self.legal:
            return "stay"
        step = self.next_step(None, False)
        if step in self.legal:
            return step
        return "stay" if "stay" in self.legal else None

    def window(self) -> str | None:
        legal = self.legal
        at = self.ship["at"]
        if at == self.home:
            for prefix in ("unload", "safe"):
                for a in legal:
                    if a.startswith(prefix):
                        return a
            for a in legal:
                if a.startswith("pickup") and a.split()[1] in KEEPERS:
                    return a
            if self.S < 9:
                picks = [a for a in legal if a.startswith("pickup")]
                if picks:
                    return max(picks, key=lambda a: CREW_VALUE[a.split()[1]])
            return None
        if board.is_harbour(at):
            return self.trade_step()
        if "land chart" in legal:
            return "land chart"
        takes = [a for a in legal if a.startswith("flat take")]
        treasure = [a for a in takes if a.split()[2] in TREASURE_VALUE]
        if treasure:
            return treasure[0]
        crew = [a for a in takes if a.split()[2] in CREW_VALUE]
        return crew[0] if crew else None

    def trade_target(self) -> tuple[dict[str, int], dict[str, int]] | None:
        """The one trade worth making here, as (give, get), or None."""
        docks = self.harbours[self.ship["at"]]["docks"]
        hand = dict(self.you["hand"])
        keepers = self.me["keepers"]
        if "longjohn" in keepers and any(docks["crew"].values()):
            get: dict[str, int] = {}
            budget = 5
            for k in sorted(CREW, key=lambda k: -CREW_VALUE[k]):
                while docks["crew"][k] - get.get(k, 0) > 0 and CREW_VALUE[k] <= budget:
                    get[k] = get.get(k, 0) + 1
                    budget -= CREW_VALUE[k]
            if get:
                return {"longjohn": 1}, get
        if len(self.ship["hold"]) >= 2:
            return None
        pieces = [t for t in TREASURE if docks["treasure"][t]]
        for piece in pieces:
            want = TREASURE_VALUE[piece]
            give = self._pay(want, hand, keepers)
            if give:
                return give, {piece: 1}
        return None

    def _pay(self, want: int, hand: dict[str, int], keepers: list[str]) -> dict[str, int] | None:
        cards = [k for k in ("doubloons", "pieces", "chart") if k in keepers]
        pool = [k for k in ("b3", "b2", "b1", "r3", "r2", "r1") for _ in range(hand[k])]
        spare = self.S - 6
        best: dict[str, int] | None = None
        for mask in range(1 << len(cards)):
            used = [cards[i] for i in range(len(cards)) if mask >> i & 1]
            rest = want - sum(CARD_VALUE[c] for c in used)
            if rest < 0:
                continue
            if rest > spare:
                continue
            combo = _subset_sum(pool, rest)
            if combo is None:
                continue
            give = dict.fromkeys(used, 1)
            for k in combo:
                give[k] = give.get(k, 0) + 1
            if give and (best is None or len(used) < sum(1 for c in best if c in KEEPERS)):
                best = give
        return best

    def trade_step(self) -> str | None:
        basket = self.you.get("basket") or {"give": {}, "get": {}}
        target = self.trade_target()
        if target is None:
            return "cancel" if basket["give"] or basket["get"] else None
        give, get = target
        for item in list(give):
            if basket["give"].get(item, 0) < give[item]:
                return f"offer {item}"
        for item in list(get):
            if basket["get"].get(item, 0) < get[item]:
                return f"want {item}"
        if basket["give"] == give and basket["get"] == get and "trade" in self.legal:
            return "trade"
        return "cancel"

    # -- other decisions --------------------------------------------------------------------------------
    def on_free_move(self) -> str | None:
        frame_plan = self.you.get("free_plan")
        return self.next_step(frame_plan, True)

    def on_intercept(self) -> str:
        mover = self.view["players"][self.view["awaiting"]["info"]["mover"]]
        if mover["ship"]["hold"] and est(mover["hand_size"]) + 2 <= self.FS:
            return "attack"
        return "pass"

    def on_spoils(self) -> str:
        loser = self.view["players"][self.view["awaiting"]["info"]["loser"]]
        hold = loser["ship"]["hold"]
        if "spoils treasure" in self.legal and (hold_value(hold) >= 4 or len(self.ship["hold"]) < 2):
            return "spoils treasure"
        return "spoils crew 2" if "spoils crew 2" in self.legal else self.legal[-1]

    def on_return(self) -> str:
        return self.legal[-1]

    def _shed(self) -> str:
        """The crew card whose loss keeps fighting strength highest, then the lowest value."""
        hand = self.you["hand"]

        def key(a: str) -> tuple:
            words = a.split()
            kind = words[-1]
            fs = fighting(hand) if "docks" in words else fighting({**hand, kind: hand[kind] - 1})
            return (-fs, CREW_VALUE[kind], CREW.index(kind))

        return min(self.legal, key=key)

    def on_give(self) -> str:
        return self._shed()

    def on_bury(self) -> str:
        return self._shed()

    def on_yellow_fever(self) -> str:
        return self._shed()

    def on_lose(self) -> str:
        if self.view["awaiting"]["info"]["what"] == "treasure":
            return min(self.legal, key=lambda a: (TREASURE_VALUE[a.split()[1]], a))
        return self._shed()

    def on_choice(self) -> str:
        card = (self.view["last"]["chance"] or {}).get("card")
        if card in (7, 8):
            return "choose crew" if self.S >= 8 else "choose treasure"
        return "choose treasure" if self.S >= 6 else "choose crew"

    def on_pick(self) -> str:
        budget = self.view["awaiting"]["info"]["budget"]
        slots = 2 - len(self.ship["hold"])
        stock = self.view["treasure_island"]
        docks = self.harbours[self.home]["docks"]["treasure"]
        combos: list[tuple[str, ...]] = [()]
        kinds = [t for t in TREASURE if stock[t]]
        for a in kinds:
            combos.append((a,))
            if slots >= 2:
                for b in kinds:
                    if TREASURE.index(b) >= TREASURE.index(a) and (a != b or stock[a] >= 2):
                        combos.append((a, b))
        combos = [c for c in combos if sum(TREASURE_VALUE[t] for t in c) <= budget]
        best = max(
            combos,
            key=lambda c: (
                sum(TREASURE_VALUE[t] for t in c),
                sum(1 for t in c if 1 <= docks[t] <= 2),
                [-TREASURE.index(t) for t in c],
            ),
        )
        return f"pick {best[0]}" if best else "done"

    def on_target(self) -> str:
        card = (self.view["last"]["chance"] or {}).get("card")

        def crew_of(a: str) -> int:
            h = a.split()[1]
            p = self.view["players"][self.harbours[h]["owner"]]
            extra = count(self.harbours[h]["docks"]["crew"]) if card == 2 else 0
            return p["hand_size"] + extra

        return max(self.legal, key=lambda a: (crew_of(a), -self.legal.index(a)))

    def on_place(self) -> str:
        _, goals = self.goal()
        dist = distances(goals, self.reach())
        return min(self.legal, key=lambda a: (dist.get(a.split()[1], 60), self.legal.index(a)))

    def on_port_tie(self) -> str:
        if f"harbour {self.home}" in self.legal:
            return f"harbour {self.home}"
        return max(self.legal, key=lambda a: (self.harbours[a.split()[1]]["docks_value"], -self.legal.index(a)))

    def on_alongside(self) -> str:
        return self.face_towards()

    def on_repoint(self) -> str:
        return self.face_towards()

    def on_forfeit(self) -> str:
        return min(self.legal, key=lambda a: (CREW_VALUE.get(a.split()[1]) or TREASURE_VALUE[a.split()[1]], a))

    def on_port_choice(self) -> str:
        taken = [h["id"] for h in self.view["harbours"] if h["owner"] is not None]

        def key(a: str) -> tuple:
            h = a.split()[1]
            cell = board.HARBOUR_CELL[h]
            near = min((board.cheb(cell, board.HARBOUR_CELL[o]) for o in taken), default=0)
            return (-near, board.HARBOUR_IDS.index(h))

        return min(self.legal, key=key)


def _subset_sum(pool: list[str], target: int) -> list[str] | None:
    """Cards from ``pool`` (high first) adding up to exactly ``target``; fewest cards found greedily first."""
    if target == 0:
        return []
    reachable: dict[int, list[str]] = {0: []}
    for card in pool:
        v = CREW_VALUE[card]
        for total, cards in sorted(reachable.items(), reverse=True):
            nt = total + v
            if nt <= target and nt not in reachable:
                reachable[nt] = [*cards, card]
    return reachable.get(target)
