"""The toy's pieces: 30 uniquely named gems, each worth 1 to 3, the seats' colours and the pile's targets."""

from __future__ import annotations

GEMS: tuple[str, ...] = tuple(f"gem{i:02d}" for i in range(1, 31))
#: the pile a play must reach to win, by the ``length`` option
TARGET = {"short": 6, "long": 12}
ACTIONS_PER_TURN = 3
#: the seats' colours, in seat order
NAMES = ("Red", "Blue", "Green", "Yellow")


def value(gem: str) -> int:
    return int(gem[3:]) % 3 + 1
