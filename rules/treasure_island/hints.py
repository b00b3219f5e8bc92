"""Every hint card as data plus an exact predicate (docs/games/treasure_island.md#hints).

A hint's parameters are chosen one at a time (``say <value>``). ``holds`` answers "is this statement true for a
treasure at T?" and ``region`` gives the same answer for every legal node at once as a bitset; a test checks the
two agree. Positions a card names (miniatures, LJS's tower) come from a :class:`Ctx` so the played hint can
freeze them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.treasure_island import geometry
from rules.treasure_island.board import MAPS
from rules.treasure_island.geometry import Pt

NAMES = {
    "anne": "Anne Bonny",
    "olivier": "Olivier Levasseur",
    "jim": "Jim Hawkins",
    "charlotte": "Charlotte de Berry",
    "ben": "Ben Gunn",
}
DIR_WORD = {"N": "north", "E": "east", "S": "south", "W": "west"}


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str  # starting | black
    chest: bool
    params: tuple[str, ...]


CARDS: dict[str, Card] = {
    c.id: c
    for c in (
        Card("S1", "Altitude", "starting", False, ("level",)),
        Card("S2", "Wind Rose", "starting", False, ("mini", "dir")),
        Card("S3", "Long Walk", "starting", False, ("mini", "dist3")),
        Card("S4", "Sea Breeze", "starting", True, ("sea",)),
        Card("S5", "Pacing Off", "starting", False, ("landmark", "dist3")),
        Card("S6", "Lay of the Land", "starting", True, ("terrain",)),
        Card("S7", "The Old Tower", "starting", True, ("tower",)),
        Card("S8", "Level Line", "starting", False, ("contour",)),
        Card("B1", "Crossed Bones", "black", False, ("mini", "quad")),
        Card("B2", "Rivals", "black", False, ("mini", "mini2")),
        Card("B3", "Old Bearings", "black", False, ("landmark", "landmark2")),
        Card("B4", "Near Miss", "black", False, ("mini|none",)),
        Card("B5", "Neighbourhood", "black", False, ("district",)),
        Card("B6", "Landmark Bearing", "black", False, ("landmark", "dir")),
        Card("B7", "The River", "black", False, ("mini", "bank")),
        Card("B8", "Same Ground", "black", True, ("mini|none",)),
        Card("B9", "Not Here Nor There", "black", True, ("district", "district2")),
        Card("B10", "Lookout", "black", True, ("landmark|none",)),
        Card("B11", "Ring of Steel", "black", False, ("mini", "band")),
        Card("B12", "Elevation", "black", False, ("mini", "elev")),
    )
}

COMPASS: dict[str, tuple[str, str]] = {
    "C1": ("N", "S"),
    "C2": ("NE", "SW"),
    "C3": ("E", "W"),
    "C4": ("SE", "NW"),
    "C5": ("N", "E"),
    "C6": ("S", "W"),
    "C7": ("NE", "SE"),
    "C8": ("SW", "NW"),
}

BANDS = {"0-3": (None, 6), "3-6": (6, 12), "6-9": (12, 18), "9-12": (18, 24), "12+": (24, None)}


#: what each hint card tells when Long John Silver plays it (docs/games/treasure_island.md#the-hint-decks); ⛁ a
#chest-icon card
EFFECTS: dict[str, str] = {
    "S1": "the treasure's altitude: the height band it lies in",
    "S2": "the treasure lies N, E, S or W of a pirate (a half-plane)",
    "S3": "the treasure is within or beyond 4, 8 or 12 miles of a pirate",
    "S4": "⛁ the treasure is within or beyond 1-4 miles of the sea",
    "S5": "the treasure is within or beyond 4, 8 or 12 miles of a landmark",
    "S6": "⛁ the kind of land the treasure lies in",
    "S7": "⛁ the treasure is within or beyond 5 or 10 miles of his tower",
    "S8": "the treasure lies above or below a contour line",
    "B1": "the quadrant around a pirate the treasure lies in",
    "B2": "the treasure is closer to one pirate than to another",
    "B3": "the treasure is closer to one landmark than to another",
    "B4": "a pirate within 4 miles of the treasure, or none",
    "B5": "the treasure lies in a district or one of its neighbours",
    "B6": "the direction of the treasure from a landmark",
    "B7": "the treasure is on the same or the other bank of the river as a pirate",
    "B8": "⛁ the treasure is in a pirate's district, or in none of theirs",
    "B9": "⛁ the treasure is in neither of two districts",
    "B10": "⛁ a landmark within 3 miles of the treasure, or none",
    "B11": "the treasure's distance band from a pirate",
    "B12": "the treasure is higher than, level with or lower than a pirate",
}


def title(card: str) -> str:
    """A hint card's id and name (``S5 Pacing Off``)."""
    return f"{card} {CARDS[card].name}" if card in CARDS else card


def id_num(card_id: str) -> int:
    return int(card_id[1:])


def sort_ids(ids: list[str]) -> list[str]:
    """Id order: by letter, then by number (B2 before B10)."""
    return sorted(ids, key=lambda c: (c[0], id_num(c)))


@dataclass(frozen=True)
class Ctx:
    """What a hint may refer to at the moment it is played."""

    map_id: str
    minis: tuple[tuple[str, Pt], ...]  # calendar order
    tower: tuple[str, Pt]

    def pos(self, mini: str) -> Pt:
        for m, p in self.minis:
            if m == mini:
                return p
        raise KeyError(mini)


def _dists(rs: tuple[int, ...]) -> list[str]:
    return [f"within-{r}" for r in rs] + [f"beyond-{r}" for r in rs]


def values(kind: str, ctx: Ctx, chosen: tuple[str, ...]) -> list[str]:
    """The legal-action order of one parameter's values (docs/games/treasure_island.md#the-action-language)."""
    g = geometry.geo(ctx.map_id)
    minis = [m for m, _ in ctx.minis]
    if kind == "mini":
        return minis
    if kind == "mini2":
        return [m for m in minis if m != chosen[0]]
    if kind == "mini|none":
        return [*minis, "none"]
    if kind == "dir":
        return ["N", "E", "S", "W"]
    if kind == "quad":
        return ["NE", "SE", "SW", "NW"]
    if kind == "landmark":
        return list(g.landmark_ids)
    if kind == "landmark2":
        return [lm for lm in g.landmark_ids if lm != chosen[0]]
    if kind == "landmark|none":
        return [*g.landmark_ids, "none"]
    if kind == "district":
        return [f"D{d}" for d in sorted(g.district_mask)]
    if kind == "district2":
        first = int(chosen[0][1:])
        return [f"D{d}" for d in sorted(g.district_mask) if d > first]
    if kind == "level":
        return [f"level-{lvl}" for lvl in range(4)]
    if kind == "contour":
        return ["above-1", "above-2", "above-3", "below-1", "below-2", "below-3"]
    if kind == "terrain":
        return [f"in-{t}" for t in g.terrains] + [f"notin-{t}" for t in g.terrains]
    if kind == "bank":
        return ["same", "other"]
    if kind == "band":
        return list(BANDS)
    if kind == "elev":
        return ["higher", "same", "lower"]
    if kind == "dist3":
        return _dists((4, 8, 12))
    if kind == "sea":
        return _dists((1, 2, 3, 4))
    if kind == "tower":
        return _dists((5, 10))
    raise KeyError(kind)


def completions(card_id: str, ctx: Ctx, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every full parameter tuple starting with ``prefix``, in legal-action order."""
    card = CARDS[card_id]
    out: list[tuple[str, ...]] = []

    def rec(chosen: tuple[str, ...]) -> None:
        if len(chosen) == len(card.params):
            out.append(chosen)
            return
        idx = len(chosen)
        if idx < len(prefix):
            rec((*chosen, prefix[idx]))
            return
        for v in values(card.params[idx], ctx, chosen):
            rec((*chosen, v))

    rec(())
    return out


def _dist_parse(v: str) -> tuple[bool, int]:
    word, r = v.split("-")
    return word == "within", int(r)


def _alt(g: geometry.Geo, p: Pt) -> int:
    return g.altitude[geometry.node(*p)]


def _district(g: geometry.Geo, p: Pt) -> int:
    return g.district[geometry.node(*p)]


def holds(card_id: str, vals: tuple[str, ...], ctx: Ctx, t: Pt) -> bool:
    """Whether the statement is true for a treasure at node t (t a legal location)."""
    g = geometry.geo(ctx.map_id)
    c = card_id
    if c == "S1":
        return _alt(g, t) == int(vals[0].split("-")[1])
    if c in ("S2", "B6"):
        p = ctx.pos(vals[0]) if c == "S2" else g.landmarks[vals[0]]
        d = vals[1]
        return {"N": t[1] >= p[1], "S": t[1] <= p[1], "E": t[0] >= p[0], "W": t[0] <= p[0]}[d]
    if c in ("S3", "S5"):
        p = ctx.pos(vals[0]) if c == "S3" else g.landmarks[vals[0]]
        within, r = _dist_parse(vals[1])
        return (geometry.d2(t, p) <= (2 * r) ** 2) == within
    if c == "S4":
        within, r = _dist_parse(vals[0])
        return g.sea_within(t, 2 * r) == within
    if c == "S6":
        word, terr = vals[0].split("-")
        return (g.terrain[geometry.node(*t)] == terr) == (word == "in")
    if c == "S7":
        within, r = _dist_parse(vals[0])
        return (geometry.d2(t, ctx.tower[1]) <= (2 * r) ** 2) == within
    if c == "S8":
        word, k = vals[0].split("-")
        return (_alt(g, t) >= int(k)) == (word == "above")
    if c == "B1":
        p = ctx.pos(vals[0])
        q = vals[1]
        ok_ns = t[1] >= p[1] if "N" in q else t[1] <= p[1]
        ok_ew = t[0] >= p[0] if "E" in q else t[0] <= p[0]
        return ok_ns and ok_ew
    if c == "B2":
        return geometry.d2(t, ctx.pos(vals[0])) <= geometry.d2(t, ctx.pos(vals[1]))
    if c == "B3":
        return geometry.d2(t, g.landmarks[vals[0]]) <= geometry.d2(t, g.landmarks[vals[1]])
    if c == "B4":
        if vals[0] == "none":
            return all(geometry.d2(t, p) > 64 for _, p in ctx.minis)
        return geometry.d2(t, ctx.pos(vals[0])) <= 64
    if c == "B5":
        d = int(vals[0][1:])
        dt = _district(g, t)
        return dt == d or dt in g.borders[d]
    if c == "B7":
        same = g.is_east(t) == g.is_east(ctx.pos(vals[0]))
        return same == (vals[1] == "same")
    if c == "B8":
        dt = _district(g, t)
        if vals[0] == "none":
            return all(_district(g, p) != dt for _, p in ctx.minis)
        return _district(g, ctx.pos(vals[0])) == dt
    if c == "B9":
        return _district(g, t) not in (int(vals[0][1:]), int(vals[1][1:]))
    if c == "B10":
        if vals[0] == "none":
            return all(geometry.d2(t, p) > 36 for p in g.landmarks.values())
        return geometry.d2(t, g.landmarks[vals[0]]) <= 36
    if c == "B11":
        lo, hi = BANDS[vals[1]]
        dd = geometry.d2(t, ctx.pos(vals[0]))
        return (lo is None or dd > lo * lo) and (hi is None or dd <= hi * hi)
    if c == "B12":
        at, ap = _alt(g, t), _alt(g, ctx.pos(vals[0]))
        return {"higher": at > ap, "same": at == ap, "lower": at < ap}[vals[1]]
    raise KeyError(card_id)


def region(card_id: str, vals: tuple[str, ...], ctx: Ctx) -> int:
    """The bitset of legal locations where the statement holds (the hint's ``true_mask``)."""
    return _region(card_id, vals, ctx)


@lru_cache(maxsize=1024)  # ≈0.7 KB an entry; the hit rate levels off at 256 entries
def _region(card_id: str, vals: tuple[str, ...], ctx: Ctx) -> int:
    g = geometry.geo(ctx.map_id)
    legal = g.legal_mask
    mid = ctx.map_id
    c = card_id
    if c == "S1":
        return g.alt_mask[int(vals[0].split("-")[1])]
    if c in ("S2", "B6"):
        p = ctx.pos(vals[0]) if c == "S2" else g.landmarks[vals[0]]
        return geometry.halfplane_mask(mid, p, vals[1])
    if c in ("S3", "S5", "S7"):
        if c == "S7":
            p, dv = ctx.tower[1], vals[0]
        else:
            p = ctx.pos(vals[0]) if c == "S3" else g.landmarks[vals[0]]
            dv = vals[1]
        within, r = _dist_parse(dv)
        return geometry.disc_mask(mid, p, (2 * r) ** 2, within)
    if c == "S4":
        within, r = _dist_parse(vals[0])
        return g.sea_mask[r] if within else legal & ~g.sea_mask[r]
    if c == "S6":
        word, terr = vals[0].split("-")
        return g.terrain_mask[terr] if word == "in" else legal & ~g.terrain_mask[terr]
    if c == "S8":
        word, k = vals[0].split("-")
        above = 0
        for lvl in range(int(k), 4):
            above |= g.alt_mask[lvl]
        return above if word == "above" else legal & ~above
    if c == "B1":
        return geometry.halfplane_mask(mid, ctx.pos(vals[0]), vals[1])
    if c == "B2":
        return geometry.closer_mask(mid, ctx.pos(vals[0]), ctx.pos(vals[1]))
    if c == "B3":
        return geometry.closer_mask(mid, g.landmarks[vals[0]], g.landmarks[vals[1]])
    if c == "B4":
        if vals[0] == "none":
            m = legal
            for _, p in ctx.minis:
                m &= geometry.disc_mask(mid, p, 64, False)
            return m
        return geometry.disc_mask(mid, ctx.pos(vals[0]), 64, True)
    if c == "B5":
        d = int(vals[0][1:])
        m = g.district_mask[d]
        for b in g.borders[d]:
            m |= g.district_mask[b]
        return m
    if c == "B7":
        east = g.is_east(ctx.pos(vals[0]))
        same = g.east_mask if east else legal & ~g.east_mask
        return same if vals[1] == "same" else legal & ~same
    if c == "B8":
        if vals[0] == "none":
            m = legal
            for _, p in ctx.minis:
                m &= ~g.district_mask[_district(g, p)]
            return m
        return g.district_mask[_district(g, ctx.pos(vals[0]))]
    if c == "B9":
        return legal & ~g.district_mask[int(vals[0][1:])] & ~g.district_mask[int(vals[1][1:])]
    if c == "B10":
        if vals[0] == "none":
            m = legal
            for p in g.landmarks.values():
                m &= geometry.disc_mask(mid, p, 36, False)
            return m
        return geometry.disc_mask(mid, g.landmarks[vals[0]], 36, True)
    if c == "B11":
        lo, hi = BANDS[vals[1]]
        p = ctx.pos(vals[0])
        m = legal if hi is None else geometry.disc_mask(mid, p, hi * hi, True)
        if lo is not None:
            m &= geometry.disc_mask(mid, p, lo * lo, False)
        return m
    if c == "B12":
        ap = _alt(g, ctx.pos(vals[0]))
        lv = {"higher": range(ap + 1, 4), "same": range(ap, ap + 1), "lower": range(0, ap)}[vals[1]]
        m = 0
        for lvl in lv:
            m |= g.alt_mask[lvl]
        return m
    raise KeyError(card_id)


def frozen(card_id: str, vals: tuple[str, ...], ctx: Ctx) -> dict[str, str]:
    """The named nodes the statement uses, as text, stored with the played hint."""
    g = geometry.geo(ctx.map_id)
    out: dict[str, str] = {}
    for v in vals:
        if v in NAMES:
            out[v] = geometry.fmt(ctx.pos(v))
        elif v in g.landmarks:
            out[v] = geometry.fmt(g.landmarks[v])
        elif v == "none" and card_id in ("B4", "B8"):
            for m, p in ctx.minis:
                out[m] = geometry.fmt(p)
    if card_id == "S7":
        out[ctx.tower[0]] = geometry.fmt(ctx.tower[1])
    return out


def text(card_id: str, vals: tuple[str, ...], ctx: Ctx) -> str:
    """The public statement (docs/games/treasure_island.md#the-hint-decks)."""
    g = geometry.geo(ctx.map_id)
    c = card_id

    def who(m: str) -> str:
        return f"{NAMES[m]} ({geometry.fmt(ctx.pos(m))})"

    def lm(lid: str) -> str:
        return f"{lid} {_landmark_name(ctx.map_id, lid)}"

    def dist(v: str, of: str) -> str:
        within, r = _dist_parse(v)
        return f"within {r} miles of {of}" if within else f"more than {r} miles from {of}"

    if c == "S1":
        return f"The treasure lies at altitude level {vals[0].split('-')[1]}."
    if c == "S2":
        return f"The treasure lies {DIR_WORD[vals[1]]} of {who(vals[0])} (the line through the pirate counts)."
    if c == "S3":
        return f"The treasure is {dist(vals[1], who(vals[0]))}."
    if c == "S4":
        return f"The treasure is {dist(vals[0], 'the sea')}."
    if c == "S5":
        return f"The treasure is {dist(vals[1], lm(vals[0]))}."
    if c == "S6":
        word, terr = vals[0].split("-")
        shown = _terrain_word(ctx.map_id, terr)
        return f"The treasure is in {shown}." if word == "in" else f"The treasure is not in {shown}."
    if c == "S7":
        return f"The treasure is {dist(vals[0], f'my tower ({ctx.tower[0]})')}."
    if c == "S8":
        word, k = vals[0].split("-")
        return f"The treasure lies {word} contour line {k}."
    if c == "B1":
        return f"The treasure lies {vals[1]} of {who(vals[0])} (both lines count)."
    if c == "B2":
        return f"The treasure is at least as close to {who(vals[0])} as to {who(vals[1])}."
    if c == "B3":
        return f"The treasure is at least as close to {lm(vals[0])} as to {lm(vals[1])}."
    if c == "B4":
        if vals[0] == "none":
            return "No pirate is within 4 miles of the treasure."
        return f"The treasure is within 4 miles of {who(vals[0])}."
    if c == "B5":
        d = int(vals[0][1:])
        return f"The treasure is in D{d} {g.district_names[d]} or in a district bordering it."
    if c == "B6":
        return f"The treasure lies {DIR_WORD[vals[1]]} of {lm(vals[0])} (the line counts)."
    if c == "B7":
        if vals[1] == "same":
            return f"The treasure lies on the same bank of the river as {who(vals[0])}."
        return f"The treasure lies on the other bank from {who(vals[0])}."
    if c == "B8":
        if vals[0] == "none":
            return "The treasure is in no district where a pirate stands."
        return f"The treasure is in the same district as {who(vals[0])}."
    if c == "B9":
        a, b = int(vals[0][1:]), int(vals[1][1:])
        return f"The treasure is neither in D{a} {g.district_names[a]} nor in D{b} {g.district_names[b]}."
    if c == "B10":
        if vals[0] == "none":
            return "The treasure is more than 3 miles from every landmark."
        return f"The treasure is within 3 miles of {lm(vals[0])}."
    if c == "B11":
        band = vals[1]
        if band == "0-3":
            return f"The treasure is within 3 miles of {who(vals[0])}."
        if band == "12+":
            return f"The treasure is more than 12 miles from {who(vals[0])}."
        lo, hi = band.split("-")
        return f"The treasure is between {lo} and {hi} miles from {who(vals[0])}."
    if c == "B12":
        word = {"higher": "higher than", "same": "at the same level as", "lower": "lower than"}[vals[1]]
        return f"The treasure lies {word} {who(vals[0])}."
    raise KeyError(card_id)


def _landmark_name(map_id: str, lid: str) -> str:
    for lm in MAPS[map_id]["landmarks"]:
        if lm["id"] == lid:
            return lm["name"]
    return lid


def _terrain_word(map_id: str, terr: str) -> str:
    if terr == "forest" and map_id == "revenge":
        return "the jungle"
    return {"forest": "the forest", "marsh": "the marsh", "town": "a town", "beach": "beach", "hills": "the hills"}.get(
        terr, terr
    )


def compass_true(card: str, p: Pt, t: Pt) -> bool:
    """A Compass card is true at p when T's sector is neither of its skulls (every card when T == p)."""
    return geometry.sector(p, t) not in COMPASS[card]
