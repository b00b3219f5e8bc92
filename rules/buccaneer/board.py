"""The 1958 Buccaneer board as data, plus the geometry derived from it (docs/games/buccaneer.md#the-board).

Rules never hard-code a coordinate: every square, coast, exit and bay comes from ``BOARD`` below, so a
different layout is a different dict.
"""

from __future__ import annotations

from typing import Any

BOARD: dict[str, Any] = {
    "id": "waddingtons-1958",
    "cols": 24,
    "rows": 24,
    "islands": {
        "treasure": {"cols": [11, 14], "rows": [11, 14]},
        "flat": {"cols": [2, 4], "rows": [20, 23]},
        "pirate": {"cols": [21, 23], "rows": [2, 5]},
    },
    "bays": {"mud_bay": [1, 1], "cliff_creek": [24, 24], "anchor_bay": [24, 1]},
    "harbours": [
        {"id": "amsterdam", "name": "Amsterdam", "code": "AM", "side": "N", "cell": [8, 25], "colour": "#000000"},
        {"id": "marseilles", "name": "Marseilles", "code": "MS", "side": "N", "cell": [16, 25], "colour": "#D55E00"},
        {"id": "bombay", "name": "Bombay", "code": "BO", "side": "E", "cell": [25, 17], "colour": "#009E73"},
        {"id": "cadiz", "name": "Cadiz", "code": "CD", "side": "E", "cell": [25, 9], "colour": "#56B4E9"},
        {"id": "bristol", "name": "Bristol", "code": "BR", "side": "S", "cell": [17, 0], "colour": "#CC79A7"},
        {"id": "london", "name": "London", "code": "LO", "side": "S", "cell": [9, 0], "colour": "#E69F00"},
        {"id": "genoa", "name": "Genoa", "code": "GE", "side": "W", "cell": [0, 8], "colour": "#F0E442"},
        {"id": "venice", "name": "Venice", "code": "VE", "side": "W", "cell": [0, 16], "colour": "#0072B2"},
    ],
}

Cell = tuple[int, int]

COLS: int = BOARD["cols"]
ROWS: int = BOARD["rows"]
DIRS: tuple[str, ...] = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DELTA: dict[str, Cell] = {
    "n": (0, 1),
    "ne": (1, 1),
    "e": (1, 0),
    "se": (1, -1),
    "s": (0, -1),
    "sw": (-1, -1),
    "w": (-1, 0),
    "nw": (-1, 1),
}
DIR_OF: dict[Cell, str] = {v: k for k, v in DELTA.items()}


def opposite(d: str) -> str:
    return DIRS[(DIRS.index(d) + 4) % 8]


def on_grid(c: int, r: int) -> bool:
    return 1 <= c <= COLS and 1 <= r <= ROWS


def name(cell: Cell) -> str:
    """Canonical lower-case square name, ``(13, 15)`` -> ``m15``."""
    return f"{chr(ord('a') + cell[0] - 1)}{cell[1]}"


def cheb(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def euclid2(a: Cell, b: Cell) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _rect(island: str) -> tuple[int, int, int, int]:
    spec = BOARD["islands"][island]
    return spec["cols"][0], spec["cols"][1], spec["rows"][0], spec["rows"][1]


ISLAND_RECTS: dict[str, tuple[int, int, int, int]] = {k: _rect(k) for k in BOARD["islands"]}
ISLAND_OF: dict[Cell, str] = {
    (c, r): k for k, (c0, c1, r0, r1) in ISLAND_RECTS.items() for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)
}

# Reading order (row 24 first, column A first) is the canonical square order (docs/games/buccaneer.md#the-board).
ALL_SQUARES: tuple[Cell, ...] = tuple((c, r) for r in range(ROWS, 0, -1) for c in range(1, COLS + 1))
SEA: frozenset[Cell] = frozenset(cell for cell in ALL_SQUARES if cell not in ISLAND_OF)
POS: dict[str, Cell] = {name(cell): cell for cell in ALL_SQUARES}
ORDER: dict[str, int] = {name(cell): i for i, cell in enumerate(ALL_SQUARES)}


def _coast(island: str) -> tuple[str, ...]:
    c0, c1, r0, r1 = ISLAND_RECTS[island]
    return tuple(
        name(cell)
        for cell in ALL_SQUARES
        if cell in SEA and c0 - 1 <= cell[0] <= c1 + 1 and r0 - 1 <= cell[1] <= r1 + 1
    )


TREASURE_COAST: tuple[str, ...] = _coast("treasure")
FLAT_COAST: tuple[str, ...] = _coast("flat")
PIRATE_COAST: tuple[str, ...] = _coast("pirate")
TREASURE_COAST_SET = frozenset(TREASURE_COAST)
FLAT_COAST_SET = frozenset(FLAT_COAST)

MUD_BAY: str = name(tuple(BOARD["bays"]["mud_bay"]))
CLIFF_CREEK: str = name(tuple(BOARD["bays"]["cliff_creek"]))
ANCHOR_BAY: str = name(tuple(BOARD["bays"]["anchor_bay"]))

HARBOURS: tuple[dict[str, Any], ...] = tuple(BOARD["harbours"])
HARBOUR_IDS: tuple[str, ...] = tuple(h["id"] for h in HARBOURS)
HARBOUR: dict[str, dict[str, Any]] = {h["id"]: h for h in HARBOURS}
HARBOUR_CELL: dict[str, Cell] = {h["id"]: (h["cell"][0], h["cell"][1]) for h in HARBOURS}
HARBOUR_AT: dict[Cell, str] = {cell: hid for hid, cell in HARBOUR_CELL.items()}
EXITS: dict[str, tuple[str, ...]] = {
    hid: tuple(d for d in DIRS if on_grid(cell[0] + DELTA[d][0], cell[1] + DELTA[d][1]))
    for hid, cell in HARBOUR_CELL.items()
}


def cell_of(at: str) -> Cell:
    """The cell of a ship position: a square name or a harbour id."""
    return HARBOUR_CELL[at] if at in HARBOUR_CELL else POS[at]


def is_harbour(at: str) -> bool:
    return at in HARBOUR_CELL


def step(cell: Cell, d: str, k: int = 1) -> Cell:
    dc, dr = DELTA[d]
    return cell[0] + k * dc, cell[1] + k * dr


def ray(at: str, d: str) -> list[str]:
    """The cells a straight line from ``at`` may end on, nearest first: sea squares, and a harbour cell as
    the very last one when the line runs off an exit. The line stops at islands and the frame."""
    out: list[str] = []
    cell = cell_of(at)
    while True:
        cell = step(cell, d)
        if cell in SEA:
            out.append(name(cell))
            continue
        if cell in HARBOUR_AT:
            out.append(HARBOUR_AT[cell])
        return out


RAYS: dict[str, dict[str, tuple[str, ...]]] = {
    at: {d: tuple(ray(at, d)) for d in DIRS} for at in [*(name(c) for c in ALL_SQUARES if c in SEA), *HARBOUR_IDS]
}


def blocker(at: str, d: str, k: int) -> str | None:
    """Why a line of ``k`` from ``at`` towards ``d`` is impossible, in words; None when it is possible."""
    cell = cell_of(at)
    for i in range(1, k + 1):
        nxt = step(cell, d, i)
        if nxt in SEA:
            continue
        if nxt in HARBOUR_AT and i == k:
            return None
        if nxt in ISLAND_OF:
            return f"the line meets {ISLAND_OF[nxt].title()} Island at {name(nxt).upper()}"
        return "the line runs off the board"
    return None


def blown_off_target(square: str) -> Cell:
    """Card 1: the fifth square out from Treasure Island, square to the side or diagonal at a corner."""
    c, r = POS[square]
    c0, c1, r0, r1 = ISLAND_RECTS["treasure"]
    dc = -1 if c < c0 else (1 if c > c1 else 0)
    dr = -1 if r < r0 else (1 if r > r1 else 0)
    return c + 4 * dc, r + 4 * dr


def blown_to_port(at: str, facing: str) -> list[str]:
    """Card 6: the harbours nearest to where the ship's heading leaves the grid (islands ignored)."""
    cell = cell_of(at)
    dc, dr = DELTA[facing]
    while on_grid(cell[0] + dc, cell[1] + dr):
        cell = (cell[0] + dc, cell[1] + dr)
    sides = []
    if cell[1] + dr > ROWS:
        sides.append("N")
    if cell[0] + dc > COLS:
        sides.append("E")
    if cell[1] + dr < 1:
        sides.append("S")
    if cell[0] + dc < 1:
        sides.append("W")
    cands = [h["id"] for h in HARBOURS if h["side"] in sides]
    best = min(cheb(cell, HARBOUR_CELL[h]) for h in cands)
    return [h for h in cands if cheb(cell, HARBOUR_CELL[h]) == best]
