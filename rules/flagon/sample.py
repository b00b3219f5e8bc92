"""A full Flagon state consistent with one seat's view, for AIs that search (issue 17).

What a seat cannot see: the cards planned by characters of the other crew(s) (their number is public), those
characters' hands, and which face-down end token is the Navy. Everything else is in the view.

Each character's 16 cards are always split between hand, queue, duration cards, used Dragon and the card being
resolved, so an unseen queue is a random draw (order included) from what is neither in play, nor spent, nor a
Duration, and the hand is the rest in deck order. The Navy is one of the unrevealed end spaces, uniformly.
The draw ignores what a player would rule out from earlier turns (a card planned together with one already
revealed is not that card): the sampler reads only the view, and the view holds no history of plans.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core import State, clone
from rules.flagon.cards import deck
from rules.flagon.engine import LENGTHS

CHAR_KEYS = (
    "idx",
    "id",
    "crew",
    "seat",
    "pos",
    "facing",
    "rep",
    "time",
    "held",
    "dragon",
    "dazed",
    "spoiled",
    "waiting",
)


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A legal state whose view for ``seat`` is ``view``; hidden cards and the Navy drawn with ``rng``."""
    pend_view = view["pending"]
    pending = None
    if pend_view is not None:
        pending = {k: clone(v) for k, v in pend_view.items() if k not in ("target", "parried")}
        if "card" in pend_view or "char" in pend_view:
            data: dict[str, Any] = {}
            if pend_view.get("target") is not None:
                data["target"] = pend_view["target"]
            if pend_view.get("parried"):
                data["parried"] = list(pend_view["parried"])
            pending["data"] = data
    active = None
    if pending is not None and pending.get("card") is not None:
        active = (pending["char"], pending["card"])

    chars = []
    owed: dict[str, int] = {}
    for row in view["chars"]:
        c: dict[str, Any] = {k: clone(row[k]) for k in CHAR_KEYS}
        c["duration"] = list(row["duration"])
        c["used"] = list(row["used"])
        if row["owed"]:
            owed[str(row["idx"])] = row["owed"]
        if c["id"] is None:
            c["hand"], c["queue"] = [], []
        else:
            order = deck(c["id"])
            free = [card for card in order if card not in c["used"] and card not in c["duration"]]
            if active is not None and active[0] == c["idx"]:
                free.remove(active[1])
            queue = list(row["queue"]) if "queue" in row else rng.sample(free, row["queued"])
            c["queue"] = queue
            c["hand"] = list(row["hand"]) if "hand" in row else [card for card in free if card not in queue]
        chars.append(c)

    end_spaces = list(view["end_spaces"])
    revealed = dict(view["end_revealed"])
    navy_shown = [int(t) for t, what in revealed.items() if what == "navy"]
    hidden = [t for t in end_spaces if str(t) not in revealed]
    navy = navy_shown[0] if navy_shown else rng.choice(hidden)
    length = next((name for name, start in LENGTHS.items() if start == end_spaces[0]), "standard")

    crews = {crew: list(info["seats"]) for crew, info in view["crews"].items()}
    return {
        "seed": f"{rng.getrandbits(64):016x}",
        "rng_n": rng.randrange(1 << 20),
        # crews and setup only shape ``new``; the values a finished setup leaves are all in the view
        "options": {"map": view["map"], "length": length, "crews": "seats", "setup": "draft"},
        "players": view["players"],
        "map": view["map"],
        "crews": crews,
        "first_crew": chars[0]["crew"] if chars else next(iter(crews)),
        "T": view["T"],
        "end_spaces": end_spaces,
        "navy": navy,
        "end_revealed": revealed,
        "chars": chars,
        "objects": clone(view["objects"]),
        "phase": view["phase"],
        "pending": pending,
        "owed": owed,
        "victims": list(view["victims"]),
        "last": clone(view["last"]),
        "result": clone(view["result"]),
    }
