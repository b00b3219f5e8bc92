"""Tiles and chest claims.

Tiles are strings in the state: an artifact is ``"rum:2"``, a map tile ``"map:C"``, a joker ``"joker"``. Artifacts of
the same type and value are interchangeable, so no tile needs an id.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

TYPES: tuple[str, ...] = ("skull", "parrot", "rum", "musket", "key", "telescope")  # type order
TYPE_LETTER: dict[str, str] = {"skull": "S", "parrot": "P", "rum": "R", "musket": "M", "key": "K", "telescope": "T"}
TYPE_POS: dict[str, int] = {t: i for i, t in enumerate(TYPES)}
CHESTS: tuple[str, ...] = ("chest2", "chest3", "chest4")
CHEST_SIZE: dict[str, int] = {"chest2": 2, "chest3": 3, "chest4": 4}
JOKERS = 3


def all_artifacts() -> list[str]:
    """The 96 artifacts in the setup order: type order, within a type six 1s, six 2s, four 3s."""
    out: list[str] = []
    for t in TYPES:
        out += [f"{t}:1"] * 6 + [f"{t}:2"] * 6 + [f"{t}:3"] * 4
    return out


def is_map(tile: str | None) -> bool:
    return tile is not None and tile.startswith("map:")


def type_of(tile: str) -> str:
    return tile.split(":", 1)[0]


def value_of(tile: str) -> int:
    """Movement value (and ship points for artifacts): a face-down map tile shows a 1 on its back."""
    return 1 if tile.startswith("map:") else int(tile.split(":", 1)[1])


def type_counts(tiles: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(TYPES, 0)
    for tile in tiles:
        counts[type_of(tile)] += 1
    return counts


def claim_options(chest: list[str], collection: list[str], jokers: int) -> list[tuple[str, ...]]:
    """Every multiset of jokered types (as a type-ordered tuple) that covers ``chest`` with ``collection`` and at most
    ``jokers`` jokers, in the order of docs/games/martinique.md#the-action-language: by size, then by the sorted list of
    type positions."""
    if not chest:
        return []
    # asked after every move and of every tile an AI weighs, and the same chests and collections recur
    return list(_claim_options(tuple(chest), tuple(sorted(collection)), jokers))


@lru_cache(maxsize=1024)
def _claim_options(chest: tuple[str, ...], collection: tuple[str, ...], jokers: int) -> tuple[tuple[str, ...], ...]:
    need = type_counts(chest)
    have = type_counts(collection)
    req = [t for t in TYPES if need[t]]
    ranges = []
    for t in req:
        low = max(0, need[t] - have[t])
        ranges.append(range(low, need[t] + 1))
    found: list[tuple[str, ...]] = []
    for combo in product(*ranges):
        if sum(combo) > jokers:
            continue
        found.append(tuple(t for t, k in zip(req, combo, strict=True) for _ in range(k)))
    found.sort(key=lambda s: (len(s), [TYPE_POS[t] for t in s]))
    return tuple(found)


def claim_text(chest: str, jokered: tuple[str, ...] | list[str]) -> str:
    return f"claim {chest}" + (" joker " + " ".join(jokered) if jokered else "")


def pairs_points(collection: list[str]) -> int:
    return sum(2 * (n // 2) for n in type_counts(collection).values())
