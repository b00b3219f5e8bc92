"""Exact half-mile geometry (the rules G1–G15 of docs/games/treasure_island.md#geometry-rules) and the static
per-map tables built from it.

Everything is integer arithmetic on half-mile units ("hu"): a node is ``(i, j) = (2x, 2y)`` and its index is
``k = j * 73 + i``. Node sets are Python ints used as bitsets over those indices, so hint regions, search
coverage and candidate sets combine with ``&``, ``|`` and ``~`` at C speed.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from rules.treasure_island.board import MAPS

W = 73  # nodes per row (x = 0 … 36 miles)
H = 57  # rows (y = 0 … 28 miles)
N = W * H
ALL = (1 << N) - 1
MASK_BYTES = (N + 7) // 8

Pt = tuple[int, int]

SECTORS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


# -- nodes and text ------------------------------------------------------------------------------------------
def node(i: int, j: int) -> int:
    return j * W + i


def ij(k: int) -> Pt:
    return k % W, k // W


def hu(p: list[float] | tuple[float, float]) -> Pt:
    return int(round(p[0] * 2)), int(round(p[1] * 2))


def fmt_mile(v: int) -> str:
    return str(v // 2) if v % 2 == 0 else f"{v // 2}.5"


def fmt(p: Pt) -> str:
    """Canonical text of a node: ``12.5,7``."""
    return f"{fmt_mile(p[0])},{fmt_mile(p[1])}"


def miles_between(a: Pt, b: Pt) -> str:
    """The distance from ``a`` to ``b`` in miles, as narration writes it (``4.5``)."""
    return f"{math.sqrt(d2(a, b)) / 2:.1f}".rstrip("0").rstrip(".")


def fmt_k(k: int) -> str:
    """Canonical text of the node with index ``k``."""
    return NODE_TEXT[k]


#: every node's canonical text by index, made once: legal lists spell thousands of points per decision
NODE_TEXT: tuple[str, ...] = tuple(fmt(ij(k)) for k in range(N))


@lru_cache(maxsize=4096)  # pickers label thousands of destinations per decision; the same points recur (≈0.7 MB full)
def parse_point(text: str) -> Pt | None:
    """``12.5,7``, ``12.5, 7``, ``12.5 7`` or ``(12.5, 7)`` → hu pair; None when it is not a half-mile node."""
    t = text.strip().strip("()").replace(",", " ").split()
    if len(t) != 2:
        return None
    out = []
    for part in t:
        try:
            val = Fraction(part)
        except (ValueError, ZeroDivisionError):
            return None
        twice = val * 2
        if twice.denominator != 1:
            return None
        out.append(int(twice))
    i, j = out
    if not (0 <= i < W and 0 <= j < H):
        return None
    return i, j


def d2(a: Pt, b: Pt) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


# -- masks --------------------------------------------------------------------------------------------------
def mask_of(nodes: list[int] | tuple[int, ...]) -> int:
    m = 0
    for k in nodes:
        m |= 1 << k
    return m


def bits(mask: int) -> list[int]:
    """Node indices set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_b64(mask: int) -> str:
    return base64.b64encode(mask.to_bytes(MASK_BYTES, "little")).decode("ascii")


@lru_cache(maxsize=512)  # ≈1.3 KB an entry; the same searches and hints are read at every decision and playout
def mask_from_b64(text: str) -> int:
    return int.from_bytes(base64.b64decode(text), "little")


# -- primitive predicates (G1, G2) ---------------------------------------------------------------------------
def orient(p: Pt, q: Pt, r: Pt) -> int:
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def _on_seg(p: Pt, q: Pt, r: Pt) -> bool:
    """r lies on the closed segment pq (collinear assumed)."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_touch(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    if o1 == 0 and _on_seg(a, b, c):
        return True
    if o2 == 0 and _on_seg(a, b, d):
        return True
    if o3 == 0 and _on_seg(c, d, a):
        return True
    return o4 == 0 and _on_seg(c, d, b)


def in_polygon(p: Pt, poly: list[Pt]) -> bool:
    """G1: inside or on the boundary."""
    x, y = p
    n = len(poly)
    inside = False
    for idx in range(n):
        x1, y1 = poly[idx]
        x2, y2 = poly[(idx + 1) % n]
        if orient((x1, y1), (x2, y2), p) == 0 and _on_seg((x1, y1), (x2, y2), p):
            return True
        if (y1 > y) != (y2 > y):
            # crossing x > x, cross-multiplied by (y2 - y1) whose sign we fold in
            num = (x1 - x) * (y2 - y1) + (y - y1) * (x2 - x1)
            if (num > 0) == (y2 > y1):
                inside = not inside
    return inside


def on_boundary(p: Pt, poly: list[Pt]) -> bool:
    n = len(poly)
    for idx in range(n):
        a, b = poly[idx], poly[(idx + 1) % n]
        if orient(a, b, p) == 0 and _on_seg(a, b, p):
            return True
    return False


def seg_disc_touch(a: Pt, b: Pt, c: Pt, r2: int) -> bool:
    """G2: segment ab touches the closed disc (centre c, squared radius r2 in hu²)."""
    t = (c[0] - a[0]) * (b[0] - a[0]) + (c[1] - a[1]) * (b[1] - a[1])
    length = d2(a, b)
    if t <= 0 or length == 0:
        return d2(c, a) <= r2
    if t >= length:
        return d2(c, b) <= r2
    return d2(c, a) * length - t * t <= r2 * length


def seg_dist2(c: Pt, a: Pt, b: Pt) -> Fraction:
    """Exact squared distance from c to the closed segment ab (G12)."""
    t = (c[0] - a[0]) * (b[0] - a[0]) + (c[1] - a[1]) * (b[1] - a[1])
    length = d2(a, b)
    if t <= 0:
        return Fraction(d2(c, a))
    if t >= length:
        return Fraction(d2(c, b))
    return Fraction(d2(c, a) * length - t * t, length)


def sector(p: Pt, t: Pt) -> str | None:
    """G9: the compass eighth of t seen from p (None when t == p)."""
    dx, dy = t[0] - p[0], t[1] - p[1]
    if dx == 0 and dy == 0:
        return None
    a, b = abs(dx), abs(dy)
    if a > b and (a + b) ** 2 < 2 * a * a:
        return "E" if dx > 0 else "W"
    if b > a and (a + b) ** 2 < 2 * b * b:
        return "N" if dy > 0 else "S"
    if dx > 0:
        return "NE" if dy > 0 else "SE"
    return "NW" if dy > 0 else "SW"


# -- a map made exact ---------------------------------------------------------------------------------------
Edge = tuple[Pt, Pt, int, int, int, int]  # a, b and its bounding box


def _edges(poly: list[Pt]) -> list[Edge]:
    out = []
    for idx in range(len(poly)):
        a, b = poly[idx], poly[(idx + 1) % len(poly)]
        out.append((a, b, min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1])))
    return out


def _touches_any(a: Pt, b: Pt, edges: list[Edge]) -> bool:
    lx, hx = min(a[0], b[0]), max(a[0], b[0])
    ly, hy = min(a[1], b[1]), max(a[1], b[1])
    for c, d, ex0, ex1, ey0, ey1 in edges:
        if ex1 < lx or ex0 > hx or ey1 < ly or ey0 > hy:
            continue
        if segments_touch(a, b, c, d):
            return True
    return False


def _near(edges: list[Edge], x0: int, x1: int, y0: int, y1: int) -> list[Edge]:
    return [e for e in edges if not (e[3] < x0 or e[2] > x1 or e[5] < y0 or e[4] > y1)]


@dataclass
class Geo:
    """The static tables of one island."""

    id: str
    coast: list[Pt]
    coast_edges: list[Edge]
    red_polys: list[list[Pt]]
    red_edges: list[Edge]
    red_of_edge: list[int]
    land: bytearray
    restricted: bytearray
    legal: bytearray
    legal_nodes: list[int]  # sorted by x, then y
    legal_mask: int
    district: list[int]
    altitude: list[int]
    terrain: list[str]
    sea2: dict[int, Fraction]
    east: bytearray
    district_mask: dict[int, int]
    alt_mask: list[int]
    terrain_mask: dict[str, int]
    sea_mask: dict[int, int]
    east_mask: int
    borders: dict[int, list[int]]
    towers: dict[str, Pt]
    tower_ids: list[str]
    landmarks: dict[str, Pt]
    landmark_ids: list[str]
    spots: dict[str, Pt]
    district_names: dict[int, str]
    blocked_steps: set[tuple[int, int]] = field(default_factory=set)
    river: list[Pt] = field(default_factory=list)
    terrains: list[str] = field(default_factory=list)

    # -- G6 ---------------------------------------------------------------------------------------------
    def move_error(
        self, a: Pt, b: Pt, limit_hu: int, ben: bool = False, fog: list[Pt] | tuple[Pt, ...] = ()
    ) -> str | None:
        """None when the straight move a→b is legal, otherwise the error code (G6)."""
        if a == b or not self.legal[node(*b)]:
            return "bad_destination"
        if d2(a, b) > limit_hu * limit_hu:
            return "too_far"
        if _touches_any(a, b, self.coast_edges):
            return "blocked"
        if not ben and _touches_any(a, b, self.red_edges):
            return "blocked"
        for c in fog:
            if seg_disc_touch(a, b, c, 9):
                return "blocked"
        return None

    def blocker(self, a: Pt, b: Pt, ben: bool = False, fog: list[Pt] | tuple[Pt, ...] = ()) -> str:
        """A name for what blocks a→b, for error messages."""
        if _touches_any(a, b, self.coast_edges):
            return "the coastline"
        if not ben:
            for idx, e in enumerate(self.red_edges):
                if _touches_any(a, b, [e]):
                    return "the red zone " + RED_NAMES[self.id][self.red_of_edge[idx]]
        for c in fog:
            if seg_disc_touch(a, b, c, 9):
                return f"the fog at ({fmt(c)})"
        return "an obstacle"

    def reach(self, a: Pt, limit_hu: int, ben: bool = False, fog: tuple[Pt, ...] = ()) -> list[int]:
        """Every legal G6 target from a within limit_hu, sorted by x then y."""
        return list(_reach(self.id, a, limit_hu, ben, fog))

    # -- G7 ---------------------------------------------------------------------------------------------
    def covered(self, centre: Pt, r_hu: int, anchor: Pt) -> int:
        return _covered(self.id, centre, r_hu, anchor)

    # -- G14 --------------------------------------------------------------------------------------------
    def is_east(self, p: Pt) -> bool:
        return bool(self.east[node(*p)])

    def sea_within(self, p: Pt, r_hu: int) -> bool:
        return self.sea2[node(*p)] <= r_hu * r_hu


RED_NAMES: dict[str, list[str]] = {
    mid: [f"{r['id']} {r['name']}" for r in data["restricted"]] for mid, data in MAPS.items()
}


def _river_x(river: list[Pt], y: int) -> Fraction:
    if y >= river[0][1]:
        return Fraction(river[0][0])
    if y <= river[-1][1]:
        return Fraction(river[-1][0])
    for (x1, y1), (x2, y2) in zip(river, river[1:], strict=False):
        if y2 <= y <= y1:
            return Fraction(x1) + Fraction((y - y1) * (x2 - x1), y2 - y1)
    return Fraction(river[-1][0])


@lru_cache(maxsize=4)
def geo(map_id: str) -> Geo:
    data = MAPS[map_id]
    coast = [hu(p) for p in data["coast"]]
    red_polys = [[hu(p) for p in r["poly"]] for r in data["restricted"]]
    coast_edges = _edges(coast)
    red_edges: list[Edge] = []
    red_of_edge: list[int] = []
    for idx, poly in enumerate(red_polys):
        es = _edges(poly)
        red_edges += es
        red_of_edge += [idx] * len(es)
    land = bytearray(N)
    restricted = bytearray(N)
    for j in range(H):
        for i in range(W):
            p = (i, j)
            if in_polygon(p, coast) and not on_boundary(p, coast):
                land[node(i, j)] = 1
            if any(in_polygon(p, poly) for poly in red_polys):
                restricted[node(i, j)] = 1
    legal = bytearray(N)
    for k in range(N):
        legal[k] = 1 if land[k] and not restricted[k] else 0
    legal_nodes = sorted((k for k in range(N) if legal[k]), key=lambda k: (k % W, k // W))
    legal_mask = mask_of(legal_nodes)
    # G10 districts: nearest seed point, ties to the lower number
    seeds = [hu(d["seed"]) for d in data["districts"]]
    district = [0] * N
    for k in range(N):
        p = ij(k)
        best, bd = 0, None
        for idx, s in enumerate(seeds):
            dd = d2(p, s)
            if bd is None or dd < bd:
                best, bd = idx + 1, dd
        district[k] = best
    # G11 altitude
    altitude = [0] * N
    for hill in data["hills"]:
        c = hu(hill["centre"])
        for lvl, (a, b) in enumerate(hill["levels"], start=1):
            a2, b2 = int(a * 2), int(b * 2)
            for k in range(N):
                if altitude[k] >= lvl:
                    continue
                di, dj = k % W - c[0], k // W - c[1]
                if (di * b2) ** 2 + (dj * a2) ** 2 <= (a2 * b2) ** 2:
                    altitude[k] = lvl
    # G12 sea distance for legal nodes
    sea2: dict[int, Fraction] = {}
    for k in legal_nodes:
        p = ij(k)
        sea2[k] = min(seg_dist2(p, e[0], e[1]) for e in coast_edges)
    # G13 terrain
    areas = [(a["kind"], [hu(p) for p in a["poly"]]) for a in data["areas"]]
    terrain = [""] * N
    for k in legal_nodes:
        p = ij(k)
        t = ""
        for kind in ("forest", "marsh", "town"):
            if any(ak == kind and in_polygon(p, poly) for ak, poly in areas):
                t = kind
                break
        if not t:
            if altitude[k] == 0 and sea2[k] <= 4:
                t = "beach"
            elif altitude[k] >= 1:
                t = "hills"
            else:
                t = "grass"
        terrain[k] = t
    # G14 river bank
    river = [hu(p) for p in data["river"]]
    east = bytearray(N)
    for k in range(N):
        i, j = ij(k)
        if i > _river_x(river, j):
            east[k] = 1
    district_mask = {d: mask_of([k for k in legal_nodes if district[k] == d]) for d in range(1, len(seeds) + 1)}
    alt_mask = [mask_of([k for k in legal_nodes if altitude[k] == lvl]) for lvl in range(4)]
    present = [
        t for t in ("forest", "marsh", "town", "beach", "hills", "grass") if any(terrain[k] == t for k in legal_nodes)
    ]
    terrain_mask = {t: mask_of([k for k in legal_nodes if terrain[k] == t]) for t in present}
    sea_mask = {r: mask_of([k for k in legal_nodes if sea2[k] <= (2 * r) ** 2]) for r in (1, 2, 3, 4)}
    east_mask = mask_of([k for k in legal_nodes if east[k]])
    # districts border when two 4-neighbour land nodes lie in them
    pairs: set[tuple[int, int]] = set()
    for k in range(N):
        if not land[k]:
            continue
        i, j = ij(k)
        for nk in ((node(i + 1, j) if i + 1 < W else -1), (node(i, j + 1) if j + 1 < H else -1)):
            if nk >= 0 and land[nk] and district[nk] != district[k]:
                a, b = sorted((district[k], district[nk]))
                pairs.add((a, b))
    borders = {d: sorted({b for a, b in pairs if a == d} | {a for a, b in pairs if b == d}) for d in district_mask}
    g = Geo(
        id=map_id,
        coast=coast,
        coast_edges=coast_edges,
        red_polys=red_polys,
        red_edges=red_edges,
        red_of_edge=red_of_edge,
        land=land,
        restricted=restricted,
        legal=legal,
        legal_nodes=legal_nodes,
        legal_mask=legal_mask,
        district=district,
        altitude=altitude,
        terrain=terrain,
        sea2=sea2,
        east=east,
        district_mask=district_mask,
        alt_mask=alt_mask,
        terrain_mask=terrain_mask,
        sea_mask=sea_mask,
        east_mask=east_mask,
        borders=borders,
        towers={t["id"]: hu(t["pos"]) for t in data["towers"]},
        tower_ids=[t["id"] for t in data["towers"]],
        landmarks={lm["id"]: hu(lm["pos"]) for lm in data["landmarks"]},
        landmark_ids=[lm["id"] for lm in data["landmarks"]],
        spots={c: hu(p) for c, p in data["spots"].items()},
        district_names={idx + 1: d["name"] for idx, d in enumerate(data["districts"])},
        river=river,
        terrains=present,
    )
    g.blocked_steps = _blocked_steps(g)
    return g


_STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _blocked_steps(g: Geo) -> set[tuple[int, int]]:
    """Every 8-neighbour step (as an ordered pair k1 < k2) whose segment touches a red polygon."""
    out: set[tuple[int, int]] = set()
    xs = [e[2] for e in g.red_edges] + [e[3] for e in g.red_edges]
    ys = [e[4] for e in g.red_edges] + [e[5] for e in g.red_edges]
    if not xs:
        return out
    for j in range(max(0, min(ys) - 2), min(H, max(ys) + 3)):
        for i in range(max(0, min(xs) - 2), min(W, max(xs) + 3)):
            for di, dj in _STEPS:
                i2, j2 = i + di, j + dj
                if not (0 <= i2 < W and 0 <= j2 < H):
                    continue
                if _touches_any((i, j), (i2, j2), g.red_edges):
                    a, b = node(i, j), node(i2, j2)
                    out.add((min(a, b), max(a, b)))
    return out


@lru_cache(maxsize=128)  # up to ~25 KB an entry (ints of a disc of 14 half-miles); hits are within a decision
def _reach(map_id: str, a: Pt, limit_hu: int, ben: bool, fog: tuple[Pt, ...]) -> tuple[int, ...]:
    g = geo(map_id)
    x0, x1, y0, y1 = a[0] - limit_hu, a[0] + limit_hu, a[1] - limit_hu, a[1] + limit_hu
    coast = _near(g.coast_edges, x0, x1, y0, y1)
    red = [] if ben else _near(g.red_edges, x0, x1, y0, y1)
    lim2 = limit_hu * limit_hu
    out = []
    for i in range(max(0, x0), min(W - 1, x1) + 1):
        for j in range(max(0, y0), min(H - 1, y1) + 1):
            b = (i, j)
            if b == a or not g.legal[node(i, j)] or d2(a, b) > lim2:
                continue
            if _touches_any(a, b, coast) or _touches_any(a, b, red):
                continue
            if any(seg_disc_touch(a, b, c, 9) for c in fog):
                continue
            out.append(node(i, j))
    return tuple(out)


@lru_cache(maxsize=2048)  # ≈0.6 KB an entry; the AI's searches hit 46% at 1024, 47% at 65536
def _covered(map_id: str, centre: Pt, r_hu: int, anchor: Pt) -> int:
    g = geo(map_id)
    r2 = r_hu * r_hu
    start = node(*anchor)
    if d2(anchor, centre) > r2 or g.restricted[start]:
        return 0
    seen = {start}
    todo = [anchor]
    while todo:
        i, j = todo.pop()
        k = node(i, j)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if di == 0 and dj == 0:
                    continue
                i2, j2 = i + di, j + dj
                if not (0 <= i2 < W and 0 <= j2 < H):
                    continue
                k2 = node(i2, j2)
                if k2 in seen or g.restricted[k2] or d2((i2, j2), centre) > r2:
                    continue
                if (min(k, k2), max(k, k2)) in g.blocked_steps:
                    continue
                seen.add(k2)
                todo.append((i2, j2))
    return mask_of([k for k in seen if g.land[k]])


def circle_nodes(centre: Pt, r_hu: int) -> list[int]:
    """Every node of the closed disc, sorted by x then y (search-centre lists)."""
    out = []
    r2 = r_hu * r_hu
    for i in range(max(0, centre[0] - r_hu), min(W - 1, centre[0] + r_hu) + 1):
        for j in range(max(0, centre[1] - r_hu), min(H - 1, centre[1] + r_hu) + 1):
            if d2((i, j), centre) <= r2:
                out.append(node(i, j))
    return out


@lru_cache(maxsize=64)
def eligible_mask(map_id: str, used: tuple[str, ...]) -> int:
    """G15: legal, more than 2 miles from every spot in use, and not exactly 2 miles from an unused spot."""
    g = geo(map_id)
    used_pts = [g.spots[c] for c in used]
    unused_pts = [p for c, p in g.spots.items() if c not in used]
    out = []
    for k in g.legal_nodes:
        p = ij(k)
        if any(d2(p, s) <= 16 for s in used_pts):
            continue
        if any(d2(p, s) == 16 for s in unused_pts):
            continue
        out.append(k)
    return mask_of(out)


def disc_mask(map_id: str, centre: Pt, r2: int, inside: bool = True) -> int:
    """Legal nodes with d² ≤ r2 (inside) or d² > r2 (not inside)."""
    return _disc_mask(map_id, centre, r2) if inside else geo(map_id).legal_mask & ~_disc_mask(map_id, centre, r2)


@lru_cache(maxsize=1024)  # masks ≈0.7 KB an entry; hit rates level off below 256 entries
def _disc_mask(map_id: str, centre: Pt, r2: int) -> int:
    g = geo(map_id)
    m = 0
    for k in g.legal_nodes:
        i, j = k % W, k // W
        if (i - centre[0]) ** 2 + (j - centre[1]) ** 2 <= r2:
            m |= 1 << k
    return m


@lru_cache(maxsize=1024)
def halfplane_mask(map_id: str, p: Pt, direction: str) -> int:
    """G8 half-planes (N, E, S, W) and quadrants (NE, SE, SW, NW) of p, over legal nodes."""
    g = geo(map_id)
    m = 0
    for k in g.legal_nodes:
        i, j = k % W, k // W
        ok = True
        if "N" in direction:
            ok = ok and j >= p[1]
        if "S" in direction:
            ok = ok and j <= p[1]
        if "E" in direction:
            ok = ok and i >= p[0]
        if "W" in direction:
            ok = ok and i <= p[0]
        if ok:
            m |= 1 << k
    return m


@lru_cache(maxsize=1024)
def closer_mask(map_id: str, a: Pt, b: Pt) -> int:
    """Legal nodes at least as close to a as to b."""
    g = geo(map_id)
    m = 0
    for k in g.legal_nodes:
        p = (k % W, k // W)
        if d2(p, a) <= d2(p, b):
            m |= 1 << k
    return m


@lru_cache(maxsize=1024)
def sector_mask(map_id: str, p: Pt, sectors: tuple[str, ...]) -> int:
    """Legal nodes whose G9 sector seen from p is one of ``sectors``."""
    g = geo(map_id)
    m = 0
    for k in g.legal_nodes:
        if sector(p, (k % W, k // W)) in sectors:
            m |= 1 << k
    return m
