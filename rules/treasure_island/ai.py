"""AI players for both sides (docs/games/treasure_island.md#the-ais). They read only their own view and the legal list;
randomness comes from the host's ``rnd``. Static map geometry is shared rule data, not a secret, so they may use it.
"""

from __future__ import annotations

import heapq
import math
import random
from functools import lru_cache
from typing import Any

from rules.treasure_island import geometry, hints
from rules.treasure_island.geometry import Pt

View = dict[str, Any]
# docs/games/treasure_island.md#the-ais: a ride scores 0.6 × the search it sets up, minus 0.02 per mile
RIDE_COST = 0.02


def pt_of(action: str) -> Pt:
    p = geometry.parse_point(action.split(" ")[-1])
    assert p is not None
    return p


def easy(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    return _choose(view, seat, legal, "easy", rnd)


def normal(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    return _choose(view, seat, legal, "normal", rnd)


def _choose(view: View, seat: int, legal: list[str], level: str, rnd: random.Random) -> str:
    if len(legal) == 1:
        return legal[0]
    if seat == view["silver_seat"]:
        return SilverAI(view, legal, level, rnd).choose()
    return PirateAI(view, seat, legal, level, rnd).choose()


# -- shared ----------------------------------------------------------------------------------------------------
def _offsets(r: int) -> list[tuple[int, int]]:
    return [(di, dj) for di in range(-r, r + 1) for dj in range(-r, r + 1) if di * di + dj * dj <= r * r]


OFF_SMALL = _offsets(2)
OFF_LARGE = _offsets(4)
OFF_JIM = _offsets(5)


def ctx_of(view: View) -> hints.Ctx:
    g = geometry.geo(view["options"]["map"])
    minis = tuple((m, geometry.hu(view["miniatures"][m]["pos"])) for m in view["order"])
    tower = view["silver"]["tower"] or g.tower_ids[0]
    return hints.Ctx(view["options"]["map"], minis, (tower, g.towers[tower]))


@lru_cache(maxsize=4)
def step_graph(map_id: str) -> dict[int, list[tuple[int, float]]]:
    """8-neighbour G6 steps between legal nodes (Silver's escape paths)."""
    g = geometry.geo(map_id)
    out: dict[int, list[tuple[int, float]]] = {}
    for k in g.legal_nodes:
        a = geometry.ij(k)
        nb = []
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if di == 0 and dj == 0:
                    continue
                b = (a[0] + di, a[1] + dj)
                if not (0 <= b[0] < geometry.W and 0 <= b[1] < geometry.H):
                    continue
                if g.move_error(a, b, 2) is None:
                    nb.append((geometry.node(*b), math.sqrt(di * di + dj * dj)))
        out[k] = nb
    return out


@lru_cache(maxsize=256)
def path(map_id: str, start: int, goal: int) -> tuple[int, ...]:
    """A* shortest path on legal half-mile steps (docs/games/treasure_island.md#the-ais)."""
    graph = step_graph(map_id)
    gx, gy = geometry.ij(goal)

    def h(k: int) -> float:
        i, j = geometry.ij(k)
        return math.hypot(i - gx, j - gy)

    best = {start: 0.0}
    prev: dict[int, int] = {}
    heap = [(h(start), 0.0, start)]
    while heap:
        _, cost, k = heapq.heappop(heap)
        if k == goal:
            break
        if cost > best.get(k, 1e18):
            continue
        for nk, w in graph.get(k, []):
            nc = cost + w
            if nc < best.get(nk, 1e18):
                best[nk] = nc
                prev[nk] = k
                heapq.heappush(heap, (nc + h(nk), nc, nk))
    if goal not in best:
        return ()
    out = [goal]
    while out[-1] != start:
        out.append(prev[out[-1]])
    return tuple(reversed(out))


def run_toward(map_id: str, here: Pt, goal: Pt, legal: list[str]) -> str | None:
    """The farthest node of the shortest path that one 4-mile G6 move reaches."""
    g = geometry.geo(map_id)
    route = path(map_id, geometry.node(*here), geometry.node(*goal))
    if len(route) < 2:
        return None
    legal_set = set(legal)
    for k in reversed(route[1:]):
        b = geometry.ij(k)
        if geometry.d2(here, b) > 64:
            continue
        if g.move_error(here, b, 8) is None and f"run {geometry.fmt(b)}" in legal_set:
            return f"run {geometry.fmt(b)}"
    return None


# -- pirates ---------------------------------------------------------------------------------------------------
class PirateAI:
    def __init__(self, view: View, seat: int, legal: list[str], level: str, rnd: random.Random) -> None:
        self.v = view
        self.seat = seat
        self.legal = legal
        self.level = level
        self.rnd = rnd
        self.map_id = view["options"]["map"]
        self.g = geometry.geo(self.map_id)
        self.w = self._belief()
        self._s_large: dict[int, float] = {}

    # belief ---------------------------------------------------------------------------------------------
    def _belief(self) -> list[float]:
        v = self.v
        cands = geometry.mask_from_b64(v["public_candidates"])
        priv = v.get("private") or {}
        if priv.get("certain_excluded"):
            cands &= ~geometry.mask_from_b64(priv["certain_excluded"])
        nodes = geometry.bits(cands)
        w = [0.0] * (geometry.N + 600)
        if not nodes:
            nodes = geometry.bits(geometry.mask_from_b64(v["public_candidates"])) or list(self.g.legal_nodes)
        verified = {x["target_day"]: x["token"] for x in priv.get("verified", [])}
        bluff_days = [c["day"] for c in v["calendar"] if c["event"] == "bluff"]
        factors: list[tuple[int, float]] = []
        for h in v["hints"][1:]:
            tok = verified.get(h["day"])
            if tok in ("truth", "lie"):
                continue  # already a certainty
            eps = 0.6 if tok == "bluff" else 0.35 if any(d < h["day"] for d in bluff_days) else 0.05
            factors.append((geometry.mask_from_b64(h["true_mask"]), eps))
        for k in nodes:
            x = 1.0
            for m, eps in factors:
                if not m >> k & 1:
                    x *= eps
            w[k] = x
        figs = v["silver"]["figures"]
        if figs:
            for k in nodes:
                n = geometry.ij(k)
                f = 1.0
                near = False
                for fig in figs:
                    p = geometry.hu(fig["pos"])
                    if geometry.d2(p, n) <= 256:
                        near = True
                    if fig["trail"]:
                        a, b = geometry.hu(fig["trail"][-1][0]), geometry.hu(fig["trail"][-1][1])
                        mv = (b[0] - a[0], b[1] - a[1])
                        to = (n[0] - a[0], n[1] - a[1])
                        den = math.hypot(*mv) * math.hypot(*to)
                        cos = (mv[0] * to[0] + mv[1] * to[1]) / den if den else 0.0
                        f *= 1 + 0.8 * cos
                w[k] *= max(0.2, f) * (1.5 if near else 1.0)
        total = sum(w[k] for k in nodes) or 1.0
        for k in nodes:
            w[k] /= total
        self.nodes = nodes
        return w

    def mass(self, mask: int) -> float:
        w = self.w
        return sum(w[k] for k in geometry.bits(mask))

    def disc_sum(self, c: int, offs: list[tuple[int, int]]) -> float:
        w = self.w
        return sum(w[c + dj * geometry.W + di] for di, dj in offs if 0 <= c + dj * geometry.W + di < geometry.N)

    def s_large(self, c: int) -> float:
        val = self._s_large.get(c)
        if val is None:
            val = self.disc_sum(c, OFF_JIM if self.mini == "jim" else OFF_LARGE)
            self._s_large[c] = val
        return val

    def potential(self, k: int) -> float:
        """Roughly the best large search from node k."""
        best = 0.0
        for di, dj in ((0, 0), (3, 0), (-3, 0), (0, 3), (0, -3), (2, 2), (2, -2), (-2, 2), (-2, -2)):
            c = k + dj * geometry.W + di
            if 0 <= c < geometry.N:
                best = max(best, self.s_large(c))
        return best

    # decisions ------------------------------------------------------------------------------------------
    @property
    def mini(self) -> str:
        return self.v["active"]

    def here(self) -> Pt:
        return geometry.hu(self.v["miniatures"][self.mini]["pos"])

    def covered_mass(self, centre: Pt, r: int, anchor: Pt) -> float:
        return self.mass(self.g.covered(centre, r, anchor))

    def choose(self) -> str:
        step = self.v["step"]
        if step == "prison":
            return self.prison()
        if step == "ride2":
            return self.move_choice("ride", "halt")
        if step == "step":
            return self.move_choice("step", "stay")
        return self.turn_easy() if self.level == "easy" else self.turn_normal()

    def prison(self) -> str:
        towers = [a for a in self.legal if a.startswith("tower ")]
        if self.level == "easy":
            return self.rnd.choice(towers)
        sample = self.nodes[:: max(1, len(self.nodes) // 300)]
        traitor = bool((self.v.get("private") or {}).get("traitor"))
        best, best_score = towers[0], None
        for a in towers:
            tp = self.g.towers[a.split()[1]]
            score = sum(self.w[k] * math.sqrt(geometry.d2(geometry.ij(k), tp)) for k in sample)
            if traitor:
                score = -score
            if best_score is None or score > best_score:
                best, best_score = a, score
        return best

    def move_choice(self, verb: str, stop: str) -> str:
        here = geometry.node(*self.here())
        best, best_score = stop, self.potential(here) if self.level != "easy" else 1.0
        if self.level == "easy":
            return stop
        for a in self.legal:
            if a.startswith(verb + " "):
                k = geometry.node(*pt_of(a))
                sc = self.potential(k)
                if sc > best_score * 1.05:
                    best, best_score = a, sc
        return best

    def _items(self) -> list[str]:
        return [a for a in self.legal if a.startswith("use ")]

    def turn_easy(self) -> str:
        left = self.v["left"]
        for a in self._items():
            if a == "use extra" or a == "use dig":
                return a
            if a.startswith("use stride"):
                return self.rnd.choice([x for x in self.legal if x.startswith("use stride")])
        if left >= 1:
            if "compass" in self.legal:
                return "compass"
            here = self.here()
            r = 5 if self.mini == "jim" else 4
            best, best_mass = None, 0.0
            for a in self.legal:
                if a.startswith("search "):
                    m = self.covered_mass(pt_of(a), r, here)
                    if m > best_mass:
                        best, best_mass = a, m
            if best is not None:
                return best
            rides = [a for a in self.legal if a.startswith("ride ")]
            if rides:
                return self.rnd.choice(rides)
        return "end"

    def turn_normal(self) -> str:
        v = self.v
        left = v["left"]
        here = self.here()
        hk = geometry.node(*here)
        r = 5 if self.mini == "jim" else 4
        gamma = 0.6 if left >= 2 else 0.35
        items = self._items()
        if left >= 1:
            scored: list[tuple[float, int, str]] = []
            for idx, a in enumerate(self.legal):
                verb = a.split(" ")[0]
                if verb == "search":
                    scored.append((self.covered_mass(pt_of(a), r, here), idx, a))
                elif verb == "dig":
                    scored.append((self.covered_mass(here, 2, here), idx, a))
                elif verb == "walk":
                    b = pt_of(a)
                    k = geometry.node(*b)
                    scored.append((self.disc_sum(k, OFF_SMALL) + gamma * self.potential(k), idx, a))
                elif verb == "ride":
                    b = pt_of(a)
                    k = geometry.node(*b)
                    dist = math.sqrt(geometry.d2(here, b)) / 2
                    scored.append((gamma * self.potential(k) - RIDE_COST * dist, idx, a))
            scored.sort(key=lambda t: (-t[0], t[1]))
            best_score, _, best = scored[0] if scored else (0.0, 0, "end")
            local_search = max((s for s, _, a in scored if a.startswith("search")), default=0.0)
            special = self.specials(best_score, local_search, here, left)
            if special:
                return special
            if "use extra" in items and left == 1 and best_score > 0:
                return "use extra"
            if best_score <= 0:
                rides = [a for a in self.legal if a.startswith("ride ")]
                return self.rnd.choice(rides) if rides else "end"
            return best
        # no actions left: spend items that still help, then end
        if "use extra" in items and self.potential(hk) > 0:
            return "use extra"
        if "use dig" in items and self.disc_sum(hk, OFF_SMALL) > 0:
            return "use dig"
        strides = [a for a in self.legal if a.startswith("use stride ")]
        if strides:
            best, best_score = None, self.potential(hk) * 1.3
            for a in strides:
                sc = self.potential(geometry.node(*pt_of(a)))
                if sc > best_score:
                    best, best_score = a, sc
            if best:
                return best
        return "end"

    def specials(self, best_score: float, local_search: float, here: Pt, left: int) -> str | None:
        legal = self.legal
        # remote searches: Anne's King George, Olivier's Spyglass
        for verb, offs, r in (("monkey", OFF_SMALL, 2), ("spyglass", OFF_LARGE, 4)):
            if legal and any(a.startswith(verb + " ") for a in legal[-2300:]):
                best_k, best_m = self._best_remote(offs)
                if best_k is not None:
                    c = geometry.ij(best_k)
                    m = self.mass(self.g.covered(c, r, c))
                    if m >= 1.5 * max(local_search, 1e-9) and m > 0.02:
                        return f"{verb} {geometry.fmt(c)}"
        gallops = [a for a in legal if a.startswith("gallop ")]
        if gallops:
            best_k, best_m = self._best_remote(OFF_LARGE)
            if (
                best_k is not None
                and geometry.d2(geometry.ij(best_k), here) > 18 * 18
                and best_m >= 1.5 * max(best_score, 1e-9)
            ):
                target = self._nearest_legal(gallops, geometry.ij(best_k))
                if target:
                    return target
        if "compass" in legal and local_search < 0.05:
            secs: dict[str, float] = {}
            within = 0.0
            for k in self.nodes:
                p = geometry.ij(k)
                sec = geometry.sector(here, p)
                if sec:
                    secs[sec] = secs.get(sec, 0.0) + self.w[k]
                if geometry.d2(here, p) <= 400:
                    within += self.w[k]
            if sum(1 for x in secs.values() if x >= 0.1) >= 3 and 0.25 <= within <= 0.75:
                return "compass"
        verifies = [a for a in legal if a.startswith("verify ")]
        if verifies and local_search < 0.04:
            bluff_days = [c["day"] for c in self.v["calendar"] if c["event"] == "bluff"]
            best, best_flip = None, 0.2
            for a in verifies:
                day = int(a.split()[1])
                if not any(d < day for d in bluff_days):
                    continue
                h = next(h for h in self.v["hints"] if h["day"] == day)
                inside = self.mass(geometry.mask_from_b64(h["true_mask"]))
                flip = min(inside, 1 - inside) * 2
                if flip > best_flip:
                    best, best_flip = a, flip
            if best:
                return best
        recalls = [a for a in legal if a.startswith("recall ")]
        if recalls and local_search < 0.05:
            best, gap = None, 1.0
            for a in recalls:
                lm = self.g.landmarks[a.split()[1]]
                inside = self.mass(geometry.disc_mask(self.map_id, lm, 100, True))
                if abs(inside - 0.5) < gap:
                    best, gap = a, abs(inside - 0.5)
            return best
        return None

    def _best_remote(self, offs: list[tuple[int, int]]) -> tuple[int | None, float]:
        best_k, best_m = None, 0.0
        for k in self.g.legal_nodes:
            i, j = geometry.ij(k)
            if i % 2 or j % 2:
                continue
            m = self.disc_sum(k, offs)
            if m > best_m:
                best_k, best_m = k, m
        return best_k, best_m

    def _nearest_legal(self, actions: list[str], p: Pt) -> str | None:
        best, bd = None, None
        for a in actions:
            q = pt_of(a)
            d = geometry.d2(p, q)
            if bd is None or d < bd:
                best, bd = a, d
        return best


# -- Long John Silver --------------------------------------------------------------------------------------------
class SilverAI:
    def __init__(self, view: View, legal: list[str], level: str, rnd: random.Random) -> None:
        self.v = view
        self.legal = legal
        self.level = level
        self.rnd = rnd
        self.map_id = view["options"]["map"]
        self.g = geometry.geo(self.map_id)
        self.priv = view["private"]
        self.t = geometry.hu(self.priv["treasure"]) if self.priv.get("treasure") else None
        self.cands = geometry.mask_from_b64(view["public_candidates"])

    def choose(self) -> str:
        step = self.v["step"]
        handler = getattr(self, "on_" + step, None)
        if handler is None:
            return self.rnd.choice(self.legal)
        return handler()

    # burial ---------------------------------------------------------------------------------------------
    def on_bury(self) -> str:
        if self.level == "easy":
            return self.rnd.choice(self.legal)
        spots = [geometry.hu(self.v["miniatures"][m]["pos"]) for m in self.v["order"]]
        cx = sum(p[0] for p in spots) / len(spots)
        cy = sum(p[1] for p in spots) / len(spots)
        scored = []
        for a in self.legal:
            p = pt_of(a)
            near = min(math.sqrt(geometry.d2(p, s)) / 2 for s in spots)
            cen = math.hypot(p[0] - cx, p[1] - cy) / 2
            scored.append((min(8.0, near) + 0.3 * cen + self.rnd.random() * 2, a))
        scored.sort(key=lambda t: -t[0])
        top = scored[: max(1, len(scored) // 20)]
        return self.rnd.choice(top)[1]

    # hints ----------------------------------------------------------------------------------------------
    def keep(self, card: str, comp: tuple[str, ...], ctx: hints.Ctx) -> float:
        """The share of the public candidates a statement leaves standing (bigger is vaguer)."""
        total = max(1, geometry.popcount(self.cands))
        return geometry.popcount(hints.region(card, comp, ctx) & self.cands) / total

    def hint_events_left(self) -> int:
        day = self.v["day"]
        return sum(1 for c in self.v["calendar"] if c["day"] > day and c["event"] in ("starting", "black"))

    def plan(self, card: str, token: str | None, ctx: hints.Ctx) -> tuple[float, str, tuple[str, ...]]:
        """(score, token, completion) of the best way to play ``card``."""
        assert self.t is not None
        pend = self.priv.get("pending") or {}
        prefix = tuple(pend.get("params") or []) if pend.get("card") == card else ()
        comps = hints.completions(card, ctx, prefix)
        trues = [(self.keep(card, c, ctx), c) for c in comps if hints.holds(card, c, ctx, self.t)]
        falses = [(self.keep(card, c, ctx), c) for c in comps if not hints.holds(card, c, ctx, self.t)]
        tokens = self.priv["tokens"]
        best_true = max(trues, key=lambda x: x[0], default=(0.0, ()))
        allowed = ("truth", "bluff", "lie") if token is None else (token,)
        first = not self.v["hints"]
        if "lie" in allowed and token in (None, "lie") and not first and falses:
            lie_ok = token == "lie" or ("token lie" in self.legal)
            good = [x for x in falses if x[0] >= 0.55]
            if lie_ok and good and token in (None, "lie"):
                k, c = max(good, key=lambda x: x[0])
                return k + 0.5, "lie", c
            if token == "lie":
                k, c = max(falses, key=lambda x: x[0])
                return k, "lie", c
        can_bluff = ("bluff" in allowed) and (token == "bluff" or (tokens.get("bluff", 0) > 0 and not first))
        if can_bluff:
            late = tokens.get("bluff", 0) >= max(1, self.hint_events_left())
            if token == "bluff" or late or best_true[0] < 0.35:
                good = [x for x in falses if x[0] >= 0.4] or falses
                if good and (token == "bluff" or self.rnd.random() >= 0.25):
                    k, c = max(good, key=lambda x: (x[0] >= 0.4, self._push(card, x[1], ctx)))
                    return k + 0.2, "bluff", c
                if trues:
                    return best_true[0], "bluff", best_true[1]
        if token in (None, "truth") and trues:
            return best_true[0], "truth", best_true[1]
        k, c = max(trues or falses, key=lambda x: x[0])
        return k, token or "truth", c

    def _push(self, card: str, comp: tuple[str, ...], ctx: hints.Ctx) -> float:
        """How far the remaining candidates' centroid lies from the treasure (bigger is a better bluff)."""
        m = hints.region(card, comp, ctx) & self.cands
        nodes = geometry.bits(m)[::7]
        if not nodes or self.t is None:
            return 0.0
        cx = sum(k % geometry.W for k in nodes) / len(nodes)
        cy = sum(k // geometry.W for k in nodes) / len(nodes)
        return math.hypot(cx - self.t[0], cy - self.t[1])

    def on_hint_card(self) -> str:
        cards = [a for a in self.legal if a.startswith("hint ")]
        if "trick fog" in self.legal and self.level != "easy" and self._fog_wanted():
            return "trick fog"
        if self.level == "easy":
            return self.rnd.choice(cards) if cards else "redraw"
        if not cards:
            return "redraw"
        ctx = ctx_of(self.v)
        credit = self.v["chests"]["credit"]
        best, best_score = cards[0], -1.0
        plain_best = max(
            (self.plan(a.split()[1], None, ctx)[0] for a in cards if not hints.CARDS[a.split()[1]].chest), default=0.0
        )
        for a in cards:
            cid = a.split()[1]
            score = self.plan(cid, None, ctx)[0]
            if hints.CARDS[cid].chest and credit == 1 and plain_best >= 0.6:
                score -= 0.5
            if score > best_score:
                best, best_score = a, score
        return best

    def on_hint_token(self) -> str:
        if self.level == "easy":
            if "token truth" in self.legal and (len(self.legal) == 1 or self.rnd.random() < 0.75):
                return "token truth"
            return self.rnd.choice(self.legal)
        card = self.priv["pending"]["card"]
        _, tok, _ = self.plan(card, None, ctx_of(self.v))
        return f"token {tok}" if f"token {tok}" in self.legal else self.legal[0]

    def on_hint_param(self) -> str:
        if self.level == "easy":
            return self.rnd.choice(self.legal)
        pend = self.priv["pending"]
        _, _, comp = self.plan(pend["card"], pend["token"], ctx_of(self.v))
        idx = len(pend["params"])
        want = f"say {comp[idx]}" if comp and idx < len(comp) else None
        return want if want in self.legal else self.legal[0]

    def _fog_wanted(self) -> bool:
        if self.t is None:
            return False
        return any(geometry.d2(geometry.hu(m["pos"]), self.t) <= 144 for m in self.v["miniatures"].values())

    def on_fog(self) -> str:
        if self.level == "easy" or self.t is None:
            return self.rnd.choice(self.legal)
        minis = sorted(
            (geometry.hu(m["pos"]) for m in self.v["miniatures"].values()), key=lambda p: geometry.d2(p, self.t)
        )
        p = minis[0]
        laid = len(self.v["fog"]) % 3
        frac = (laid + 1) / 4
        target = (p[0] + (self.t[0] - p[0]) * frac, p[1] + (self.t[1] - p[1]) * frac)
        best, bd = self.legal[0], None
        for a in self.legal:
            q = pt_of(a)
            d = (q[0] - target[0]) ** 2 + (q[1] - target[1]) ** 2
            if bd is None or d < bd:
                best, bd = a, d
        return best

    # other decisions ------------------------------------------------------------------------------------
    def on_prison(self) -> str:
        if self.t is None or self.level == "easy":
            return self.rnd.choice(self.legal)
        return min(self.legal, key=lambda a: geometry.d2(self.g.towers[a.split()[1]], self.t))

    def on_prison_trick(self) -> str:
        if self.level != "easy" and "trick mutiny" in self.legal:
            return "trick mutiny"
        return "proceed"

    def on_chest(self) -> str:
        if self.level == "easy" or self.t is None:
            return "nothing"
        hand = self.priv["hand"]
        credit = self.v["chests"]["credit"]
        day = self.v["day"]
        soon = any(c["event"] in ("starting", "black") and day < c["day"] <= day + 3 for c in self.v["calendar"])
        chest_cards = [c for c in hand if hints.CARDS[c].chest]
        if not (chest_cards and credit <= 0 and soon):
            return "nothing"
        gives = [a for a in self.legal if a.startswith("give ") and not a.endswith("traitor")]
        ctxp = self.priv.get("chest_ctx") or {}
        p = geometry.hu(ctxp["pos"]) if ctxp.get("pos") else None
        order = []
        for a in gives:
            tok = a.split()[1]
            if tok in ("west", "east", "notdistrict") and p is not None:
                if tok == "west":
                    ex = self.g.legal_mask & ~geometry.halfplane_mask(self.map_id, p, "W")
                elif tok == "east":
                    ex = self.g.legal_mask & ~geometry.halfplane_mask(self.map_id, p, "E")
                else:
                    ex = self.g.district_mask[self.g.district[geometry.node(*p)]]
                share = geometry.popcount(ex & self.cands) / max(1, geometry.popcount(self.cands))
                if share < 0.1:
                    order.append((0, share, a))
            else:
                order.append(({"dig": 1, "stride": 2, "extra": 3}[tok], 0.0, a))
        if not order:
            return "nothing"
        order.sort()
        choice = order[0][2]
        if f"{choice} traitor" in self.legal:
            return f"{choice} traitor"
        return choice

    def on_compass(self) -> str:
        if self.level == "easy":
            return self.rnd.choice(self.legal)
        m = self.priv.get("compass_mini") or self.v["active"]
        here = geometry.hu(self.v["miniatures"][m]["pos"])
        best, best_n = self.legal[0], None
        for a in self.legal:
            n = geometry.popcount(geometry.sector_mask(self.map_id, here, hints.COMPASS[a.split()[1]]) & self.cands)
            if best_n is None or n < best_n:
                best, best_n = a, n
        return best

    def on_escape(self) -> str:
        if "trick phantom" in self.legal and self.level != "easy":
            return "trick phantom"
        figs = self.v["silver"]["figures"]
        idx = self.v["silver"]["fig"] or 0
        fig = figs[idx]
        here = geometry.hu(fig["pos"])
        real = self.priv.get("real_figure")
        goal = self.t
        if fig["id"] != real and self.t is not None:
            goal = self._decoy_goal(fig["id"])
        if goal is None or goal == here:
            return "stay"
        act = run_toward(self.map_id, here, goal, self.legal)
        return act or "stay"

    def _decoy_goal(self, fig_id: str) -> Pt | None:
        assert self.t is not None
        far = [k for k in geometry.bits(self.cands) if geometry.d2(geometry.ij(k), self.t) > 400]
        if not far:
            return None
        idx = ("ABC".index(fig_id) * 7919 + self.t[0] * 31 + self.t[1]) % len(far)
        return geometry.ij(far[idx])

    def on_phantom(self) -> str:
        return self.rnd.choice(self.legal)
