"""The Martinique island: square names, kinds of squares and the walks a pirate can take.

Squares are indices 0..63 in index order (A1, B1, ..., H1, A2, ..., H8:
docs/games/martinique.md#the-island-and-the-tiles), so every list that is built by iterating ``range(64)`` is already in
index order.
"""

from __future__ import annotations

from functools import lru_cache

#: the crews, in seat order: Black (seat 1) moves first
COLOURS = ("black", "red")
NAMES = ("Black", "Red")
#: pirates in each crew's supply at the start
PIRATES = 4

LETTERS = "ABCDEFGH"
NUMBERS = "12345678"
MAP_TILES: tuple[str, ...] = tuple(LETTERS) + tuple(NUMBERS)  # map tile order: A..H then 1..8


def name(index: int) -> str:
    return f"{LETTERS[index % 8]}{index // 8 + 1}"


SQUARES: tuple[str, ...] = tuple(name(i) for i in range(64))
INDEX: dict[str, int] = {sq: i for i, sq in enumerate(SQUARES)}


def _indices(names: str) -> tuple[int, ...]:
    return tuple(sorted(INDEX[n] for n in names.split()))


HOOK: tuple[int, ...] = _indices("D4 E4 D5 E5")
SCROLL: tuple[int, ...] = _indices("E1 B2 D2 G3 H3 C4 F5 A6 B6 E7 G7 D8")
ARTIFACT_SQUARES: tuple[int, ...] = tuple(i for i in range(64) if i not in HOOK and i not in SCROLL)
BEACH: tuple[int, ...] = tuple(i for i in range(64) if i % 8 in (0, 7) or i // 8 in (0, 7))
HOOK_SET = frozenset(HOOK)
SCROLL_SET = frozenset(SCROLL)
BEACH_SET = frozenset(BEACH)


def neighbours(index: int) -> tuple[int, ...]:
    col, row = index % 8, index // 8
    out = []
    if row > 0:
        out.append(index - 8)
    if col > 0:
        out.append(index - 1)
    if col < 7:
        out.append(index + 1)
    if row < 7:
        out.append(index + 8)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(neighbours(i) for i in range(64))


@lru_cache(maxsize=256)
def walks(start: int, steps: int) -> tuple[tuple[int, ...], ...]:
    """Every path of exactly ``steps`` orthogonal steps from ``start`` that never visits a square twice
    (the start included). Pure geometry: pirates and tiles are checked by the caller."""
    found: list[tuple[int, ...]] = []

    def extend(path: list[int]) -> None:
        if len(path) == steps + 1:
            found.append(tuple(path))
            return
        for nxt in NEIGHBOURS[path[-1]]:
            if nxt not in path:
                path.append(nxt)
                extend(path)
                path.pop()

    extend([start])
    return tuple(found)


def letter_of(index: int) -> str:
    return LETTERS[index % 8]


def number_of(index: int) -> str:
    return NUMBERS[index // 8]


def candidates(excluded_letters: set[str] | list[str], excluded_numbers: set[str] | list[str]) -> list[int]:
    """Squares whose letter and number are both still possible for the Lost Treasure, in index order."""
    xl, xn = set(excluded_letters), set(excluded_numbers)
    return [i for i in range(64) if LETTERS[i % 8] not in xl and NUMBERS[i // 8] not in xn]
