"""The two calendar sides (docs/games/treasure_island.md#two-calendar-sides), the trick cards
(docs/games/treasure_island.md#trick-windows) and the seating helpers of setup (docs/games/treasure_island.md#seats)."""

from __future__ import annotations

# day -> (stars, event); events: starting, black, blackspot, prison, bluff, escape
SIDE_A: dict[int, tuple[int, str | None]] = {
    1: (1, "starting"),
    2: (1, None),
    3: (1, None),
    4: (1, "starting"),
    5: (1, "bluff"),
    6: (1, "prison"),
    7: (2, "starting"),
    8: (2, "blackspot"),
    9: (2, "black"),
    10: (2, None),
    11: (2, "bluff"),
    12: (2, "black"),
    13: (2, "prison"),
    14: (2, "black"),
    15: (2, None),
    16: (2, "black"),
    17: (2, "prison"),
    18: (2, "black"),
    19: (0, "escape"),
}
SIDE_B: dict[int, tuple[int, str | None]] = {
    1: (1, "starting"),
    2: (1, None),
    3: (1, None),
    4: (1, None),
    5: (1, "starting"),
    6: (1, "bluff"),
    7: (1, "prison"),
    8: (2, "starting"),
    9: (2, None),
    10: (2, "blackspot"),
    11: (2, "black"),
    12: (2, None),
    13: (2, "bluff"),
    14: (2, "black"),
    15: (2, "prison"),
    16: (2, "black"),
    17: (2, None),
    18: (2, "black"),
    19: (2, "prison"),
    20: (2, "black"),
    21: (0, "escape"),
}
SIDES = {"A": SIDE_A, "B": SIDE_B}

EVENT_NAMES = {
    "starting": "Starting Hint",
    "black": "Black Spot Hint",
    "blackspot": "The Black Spot",
    "prison": "Prison",
    "bluff": "Bluff token",
    "escape": "Escape",
}

# card -> (value, date on side A, date on side B); Phantom's date is the escape day
TRICKS: dict[str, tuple[int, int, int]] = {
    "lie": (1, 14, 16),
    "fog": (1, 12, 14),
    "mutiny": (1, 13, 15),
    "traitor": (2, 12, 14),
    "phantom": (2, 19, 21),
}
TRICK_ORDER = ("lie", "fog", "mutiny", "traitor", "phantom")

CHARACTERS = ("anne", "olivier", "jim", "charlotte", "ben")
LETTERS = {"anne": "A", "olivier": "O", "jim": "J", "charlotte": "C", "ben": "B"}
CHEST_TOKENS = ("stride", "extra", "dig", "west", "east", "notdistrict")
ITEMS = ("stride", "extra", "dig")
CHEST_NAMES = {
    "stride": "Seven-League Stride (one free move of up to 7 miles)",
    "extra": "Second Wind (+1 action)",
    "dig": "Shovel (one free small search)",
    "west": "West Wind",
    "east": "East Wind",
    "notdistrict": "Not Here",
}


def minis_each(players: int) -> int:
    return {2: 3, 3: 2}.get(players, 1)


def side_for(f: int) -> str:
    return "A" if f == 3 else "B"


def passes(seats: list[int], per: int) -> list[tuple[int, int]]:
    """(seat, pass index) in pass order: every seat's p-th miniature before anyone's (p+1)-th."""
    return [(s, p) for p in range(per) for s in seats]


def counter_clockwise_from(silver: int, n: int) -> list[int]:
    return [(silver - k) % n for k in range(1, n)]


def clockwise_from(silver: int, n: int) -> list[int]:
    return [(silver + k) % n for k in range(1, n)]

#: the expansion's trick cards (docs/games/treasure_island.md#trick-windows)
TRICK_EFFECTS: dict[str, str] = {
    "lie": "(1 point) play as a hint's token: the hint must be false",
    "fog": "(1 point) before a hint: three fog banks block moves for three days",
    "mutiny": "(1 point) Long John Silver chooses his own prison tower",
    "traitor": "(2 points) slip into a chest: its receiver wins with Long John Silver",
    "phantom": "(2 points) at the escape: three Silvers leave the tower, only he knows the real one",
}
