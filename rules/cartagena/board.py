"""The passage: symbols, positions and the two movement rules, shared by the engine, the AI and labels.

Positions are integers: 0 is START (the fortress), 1..36 the passage spaces, 37 the SLOOP. Everything here
is a pure function of plain lists so it works equally on the engine state and on a view.
"""

from __future__ import annotations

from typing import Any

SYMBOLS: tuple[str, ...] = ("bottle", "dagger", "hat", "key", "pistol", "skull")
LETTERS: dict[str, str] = {"bottle": "B", "dagger": "D", "hat": "H", "key": "K", "pistol": "P", "skull": "S"}
BY_LETTER: dict[str, str] = {letter.lower(): symbol for symbol, letter in LETTERS.items()}

START = 0
SLOOP = 37
SPACES = 36
SECTION = 6
MAX_PER_SPACE = 3
PIRATES_PER_SEAT = 6
CARDS_PER_SYMBOL = 17
HAND_SIZE = 6
ACTIONS_PER_TURN = 3

#: the seats' colours, in seat order
SEAT_NAMES: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green", "Purple")

#: the fixed passage, space 1 first (docs/games/cartagena.md#the-passage)
FIXED_PATH: tuple[str, ...] = tuple(
    BY_LETTER[letter.lower()] for letter in "SKBHDP DHPKSB PBSDHK HSKPBD KPDBSH BDHSKP" if letter != " "
)


def position_name(pos: int) -> str:
    """How narration shows a position: ``START``, ``SLOOP`` or the space number."""
    return "START" if pos == START else "SLOOP" if pos == SLOOP else str(pos)


#: how an action's text names each position: ``start``, ``1`` … ``36``, ``sloop``
POSITION_WORDS: tuple[str, ...] = tuple(position_name(pos).lower() for pos in range(SLOOP + 1))


def position_word(pos: int) -> str:
    """How an action's text names a position: ``start``, ``sloop`` or the space number."""
    return POSITION_WORDS[pos]


def occupancy(pirates: list[list[int]]) -> list[int]:
    """Pirates of every colour on each position 0..37, from each seat's list of pirate positions."""
    occ = [0] * (SLOOP + 1)
    for positions in pirates:
        for pos in positions:
            occ[pos] += 1
    return occ


def forward_target(path: list[str], occ: list[int], start: int, symbol: str) -> int:
    """The first empty space after ``start`` showing ``symbol``; the sloop when there is none.

    Matching spaces holding pirates of any colour (the mover's own included) are jumped
    (docs/games/cartagena.md#forward-moves-jump-any-occupied-space)."""
    for pos in range(start + 1, SLOOP):
        if occ[pos] == 0 and path[pos - 1] == symbol:
            return pos
    return SLOOP


def back_target(occ: list[int], start: int) -> int | None:
    """The first space behind ``start`` holding 1 or 2 pirates, or None.

    Empty and full spaces are passed over; START is never a target, so the search stops at space 1."""
    for pos in range(min(start, SLOOP) - 1, 0, -1):
        if 0 < occ[pos] < MAX_PER_SPACE:
            return pos
    return None


def positions_from_view(entry: dict[str, Any]) -> list[int]:
    """A seat's pirate positions (ascending) from the view's ``{"start", "sloop", "spaces"}`` entry."""
    positions = [START] * entry["start"]
    for space, count in sorted(entry["spaces"].items(), key=lambda item: int(item[0])):
        positions.extend([int(space)] * count)
    positions.extend([SLOOP] * entry["sloop"])
    return positions


def occupancy_from_view(view: dict[str, Any]) -> list[int]:
    return occupancy([positions_from_view(entry) for _, entry in sorted(view["pirates"].items(), key=_seat_key)])


def _seat_key(item: tuple[str, Any]) -> int:
    return int(item[0])
