"""The toy's AI policies: ``easy`` plays any gem it holds, ``normal`` its most valuable one."""

from __future__ import annotations

import random
from typing import Any

from tests.host.toygame.board import value


def easy(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """Any gem it holds, else a draw, else the end of the turn."""
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        return rnd.choice(plays)
    return legal[0] if legal == ["ready"] else ("draw" if "draw" in legal else "end")


def normal(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """Its most valuable gem, else a draw, else the end of the turn."""
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        return max(plays, key=lambda a: value(a[5:]))
    return legal[0] if legal == ["ready"] else ("draw" if "draw" in legal else "end")
