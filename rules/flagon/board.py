"""The two-ship board as data: terrain, coordinates, directions and the start layout
(docs/games/flagon.md#the-board)."""

from __future__ import annotations

from functools import lru_cache

COLS = "ABCDEFGHIJKLMNO"
WIDTH, HEIGHT = 15, 13

Sq = tuple[int, int]

# Compass order: turning clockwise is one step along this list.
DIRS: tuple[str, ...] = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
VEC: dict[str, Sq] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
DIR_OF: dict[Sq, str] = {v: k for k, v in VEC.items()}


def in_grid(p: Sq) -> bool:
    return 0 <= p[0] < WIDTH and 0 <= p[1] < HEIGHT


@lru_cache(maxsize=512)
def name(p: Sq) -> str:
    return f"{COLS[p[0]]}{p[1] + 1}"


@lru_cache(maxsize=512)
def parse_sq(text: str) -> Sq | None:
    """``H7`` -> (7, 6); None if it is not a square of the grid."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLS or not text[1:].isdigit():
        return None
    p = (COLS.index(text[0]), int(text[1:]) - 1)
    return p if in_grid(p) else None


def xy(text: str) -> Sq:
    p = parse_sq(text)
    if p is None:
        raise ValueError(text)
    return p


def add(p: Sq, d: Sq, k: int = 1) -> Sq:
    return (p[0] + d[0] * k, p[1] + d[1] * k)


def dist(a: Sq, b: Sq) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def dir_between(a: Sq, b: Sq) -> str:
    """Direction from a to b (meant for adjacent squares)."""
    return DIR_OF[(sign(b[0] - a[0]), sign(b[1] - a[1]))]


def turn(d: str, k: int) -> str:
    return DIRS[(DIRS.index(d) + k) % 8]


def arc(d: str) -> list[str]:
    """Front-arc directions: left, centre, right."""
    return [turn(d, -1), d, turn(d, 1)]


def rowmajor(p: Sq) -> tuple[int, int]:
    return (p[1], p[0])


def _ship(west: bool) -> frozenset[Sq]:
    squares = {(3, 1), (4, 1), (2, 2), (3, 2), (4, 2), (5, 2)}
    squares |= {(x, y) for x in range(1, 7) for y in range(3, 12)}
    return frozenset(squares if west else {(14 - x, y) for x, y in squares})


WEST_DECK = _ship(True)
EAST_DECK = _ship(False)
PLANKS = frozenset({(7, 4), (7, 6), (7, 8)})
CENTRE: Sq = (7, 6)

CREWS: tuple[str, ...] = ("west", "east")
CREW_NAME = {"west": "Gulls", "east": "Krakens"}
SHIP_NAME = {"west": "Saucy Gull", "east": "Grim Kraken"}
START_FACING = {"west": "e", "east": "w"}
STARTS: dict[str, tuple[str, ...]] = {"west": ("B9", "B11", "C12", "E12"), "east": ("N9", "N11", "M12", "K12")}
TREASURE: dict[str, tuple[str, ...]] = {"west": ("D3", "C7", "D11"), "east": ("L3", "M7", "L11")}
RIGGING: tuple[str, ...] = ("E6", "E10", "K6", "K10")


def terrain(p: Sq) -> str:
    """'w' west deck, 'e' east deck, '=' gangplank, '~' water (also everything off the grid)."""
    if p in WEST_DECK:
        return "w"
    if p in EAST_DECK:
        return "e"
    if p in PLANKS:
        return "="
    return "~"


def solid(p: Sq) -> bool:
    return p in WEST_DECK or p in EAST_DECK or p in PLANKS


def ship_of(p: Sq) -> str | None:
    if p in WEST_DECK:
        return "west"
    if p in EAST_DECK:
        return "east"
    return None


def near_water(p: Sq) -> bool:
    return any(not solid(add(p, d)) for d in VEC.values())


def layout() -> list[dict]:
    """The objects of the start layout, in id order (docs/games/flagon.md#the-board)."""

    def mirror(s: str) -> str:
        x, y = xy(s)
        return name((14 - x, y))

    objs: list[dict] = []
    west_tables = [["C4", "D4", "C5", "D5"], ["F10", "F11"]]
    tables = west_tables + [[mirror(s) for s in t] for t in west_tables]
    # table ids: table1/table2 west, table3/table4 east
    for i, sqs in enumerate(tables, 1):
        objs.append(
            {"id": f"table{i}", "kind": "table", "sqs": sorted(sqs, key=lambda s: rowmajor(xy(s))), "gone": False}
        )
    for i, s in enumerate(["F5", "F9", "J5", "J9"], 1):
        objs.append({"id": f"barrel{i}", "kind": "barrel", "sq": s, "gone": False})
    rug = ["C8", "D8", "C9", "D9", "C10", "D10"]
    objs.append({"id": "rug1", "kind": "rug", "sqs": rug, "gone": False})
    objs.append(
        {
            "id": "rug2",
            "kind": "rug",
            "sqs": sorted((mirror(s) for s in rug), key=lambda s: rowmajor(xy(s))),
            "gone": False,
        }
    )
    chairs = ["E4", "B6", "E8", "F12"]
    for i, s in enumerate(chairs + [mirror(c) for c in chairs], 1):
        objs.append({"id": f"chair{i}", "kind": "chair", "sq": s, "held": None, "gone": False})
    mugs = ["C4", "D5", "F11", "G7", "B12"]
    for i, s in enumerate(mugs + [mirror(m) for m in mugs], 1):
        objs.append({"id": f"mug{i}", "kind": "mug", "sq": s, "held": None, "gone": False})
    for i, s in enumerate(list(TREASURE["west"]) + list(TREASURE["east"]), 1):
        objs.append({"id": f"chest{i}", "kind": "chest", "sq": s, "held": None, "gone": False})
    objs.append({"id": "flagon", "kind": "flagon", "sq": "H7", "held": None, "gone": False})
    return objs


# -- the tavern (docs/games/flagon.md#the-tavern): an 11x11 floor walled all round, free for all -----------------------

TAVERN_FLOOR = frozenset((x, y) for x in range(11) for y in range(11))
TAVERN_CENTRE: Sq = (5, 5)
TAVERN_STARTS: tuple[str, ...] = ("B1", "F1", "J1", "A6", "K6", "B11", "F11", "J11")
TAVERN_FACING = {"B1": "s", "F1": "s", "J1": "s", "A6": "e", "K6": "w", "B11": "n", "F11": "n", "J11": "n"}
TAVERN_RIGGING: tuple[str, ...] = ("D6", "H6")


def tavern_layout() -> list[dict]:
    tables = [["C3", "D3", "C4", "D4"], ["H8", "I8", "H9", "I9"], ["H3", "I3"], ["C9", "D9"]]
    objs: list[dict] = [{"id": f"table{i}", "kind": "table", "sqs": t, "gone": False} for i, t in enumerate(tables, 1)]
    for i, s in enumerate(["E2", "J2", "B10", "G10"], 1):
        objs.append({"id": f"barrel{i}", "kind": "barrel", "sq": s, "gone": False})
    rugs = [["B5", "C5", "B6", "C6", "B7", "C7"], ["I5", "J5", "I6", "J6", "I7", "J7"]]
    objs += [{"id": f"rug{i}", "kind": "rug", "sqs": r, "gone": False} for i, r in enumerate(rugs, 1)]
    for i, s in enumerate(["D2", "B3", "G3", "E4", "G8", "E9", "J9", "H10"], 1):
        objs.append({"id": f"chair{i}", "kind": "chair", "sq": s, "held": None, "gone": False})
    mugs = ["F2", "C3", "H3", "K3", "D4", "G4", "E8", "H8", "A9", "D9", "I9", "F10"]
    for i, s in enumerate(mugs, 1):
        objs.append({"id": f"mug{i}", "kind": "mug", "sq": s, "held": None, "gone": False})
    objs.append({"id": "flagon", "kind": "flagon", "sq": "F6", "held": None, "gone": False})
    return objs


# -- map-aware helpers: every rule asks these instead of the ship constants --------------------------------------------

SHIPS_SOLID = WEST_DECK | EAST_DECK | PLANKS


def is_tavern(state: dict) -> bool:
    return state.get("map") == "tavern"


def is_solid(state: dict, p: Sq) -> bool:
    """Floor terrain of the current map: ship decks and planks, or the whole tavern floor."""
    return p in (TAVERN_FLOOR if state.get("map") == "tavern" else SHIPS_SOLID)


def in_map(state: dict, p: Sq) -> bool:
    return (0 <= p[0] < 11 and 0 <= p[1] < 11) if is_tavern(state) else in_grid(p)


def centre_of(state: dict) -> Sq:
    return TAVERN_CENTRE if is_tavern(state) else CENTRE


def rigging_of(state: dict) -> tuple[str, ...]:
    return TAVERN_RIGGING if is_tavern(state) else RIGGING
