"""States the toy's ``hard`` AI cannot tell from the real one: the gems nobody has shown this seat (the other hands
and the deck) dealt again at random, and a fresh seed, so future draws are unknown too."""

from __future__ import annotations

import random
from typing import Any

from rules.core import State
from tests.host.toygame.board import GEMS


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    players = view["players"]
    unseen = [g for g in GEMS if g not in view["hand"] and g not in view["played"]]
    rng.shuffle(unseen)
    hands = []
    for s in range(players):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            size = view["hand_sizes"][s]
            hands.append(unseen[:size])
            unseen = unseen[size:]
    if len(unseen) != view["deck_size"]:
        raise ValueError("the view's gem counts do not add up to the deck")
    return {
        "seed": f"{rng.getrandbits(64):016x}",
        "rng_n": 0,
        "players": players,
        "options": dict(view["options"]),
        "hands": hands,
        "deck": unseen,
        "phase": view["phase"],
        "ready": [view["phase"] != "ready" or s not in view["to_act"] for s in range(players)],
        "turn": view["turn"],
        "left": view["left"],
        "pile": view["pile"],
        "played": list(view["played"]),
        "marks": list(view["marks"]),
        "winner": view["winner"],
        "last": None if view["last"] is None else dict(view["last"]),
    }
