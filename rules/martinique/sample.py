"""States Martinique's ``hard`` AI cannot tell from the real one: hidden map tiles and the bag's order re-drawn.

What a seat does not see: which map tile lies face down on each scroll square, in The Hook, in the opponent's
hidden collection and (until the end) in the Lost Treasure pair; and the order of the bag, whose contents by type
and value are public. A sample deals the map tiles nobody has shown this seat, keeping the deal's structure: the
Lost Treasure is one letter and one number, and The Hook, while it still holds both its tiles, one of each. The
bag is shuffled, and the artifacts and jokers that are nowhere in sight are the ones discarded by claims.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core import State, clone
from rules.martinique.board import COLOURS, INDEX, MAP_TILES, SQUARES
from rules.martinique.tiles import CHESTS, JOKERS, TYPES, all_artifacts


def _artifact(entry: dict[str, Any]) -> str:
    return f"{entry['type']}:{entry['value']}"


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    over = view["phase"] == "over"
    players_view = view["players"]
    opp = 1 - seat
    own = list(view["private"]["maps"]) + list(players_view[seat]["maps_revealed"])
    opp_revealed = list(players_view[opp]["maps_revealed"])
    # map tiles by slot; each slot is filled below from the tiles this seat has not seen
    island: list[str | None] = [None] * 64
    pirates: list[int | None] = [None] * 64
    face_down: list[int] = []
    for i, sq in enumerate(SQUARES):
        cell = view["squares"][sq]
        tile = cell["tile"]
        if tile is not None:
            if tile["kind"] == "map":
                face_down.append(i)
            else:
                island[i] = _artifact(tile)
        if cell["pirate"] is not None:
            pirates[i] = COLOURS.index(cell["pirate"])
    hook_count = view["hook"]["maps"]
    if over:
        opp_all = list(players_view[opp]["maps_at_end"])
        opp_hidden = [x for x in opp_all if x not in opp_revealed]
        lost = [view["lost_treasure"]["letter"], view["lost_treasure"]["number"]]
        seen = set(own) | set(opp_all) | set(lost)
        removed_maps = [x for x in MAP_TILES if x not in seen]
        rng.shuffle(removed_maps)
        hook: list[str] = []
    else:
        unseen = [x for x in MAP_TILES if x not in set(own) | set(opp_revealed)]
        letters = [x for x in unseen if x.isalpha()]
        numbers = [x for x in unseen if x.isdigit()]
        rng.shuffle(letters)
        rng.shuffle(numbers)
        lost = [letters.pop(), numbers.pop()]
        hook = []
        if hook_count == 2 and letters and numbers:
            hook = [letters.pop(), numbers.pop()]
            rng.shuffle(hook)
        rest = letters + numbers
        rng.shuffle(rest)
        hook += [rest.pop() for _ in range(hook_count - len(hook))]
        for i in face_down:
            island[i] = "map:" + rest.pop()
        h = players_view[opp]["maps_hidden"]
        opp_hidden, removed_maps = rest[:h], rest[h:]
        if len(opp_hidden) != h:
            raise ValueError("the view's map tiles do not add up to sixteen")
    # artifacts and jokers out of sight: paid for chests (discarded) or, after Sunrise, removed with the rest
    left = all_artifacts()
    chests = {c: list(view["chests"][c]) for c in CHESTS}
    in_sight = [t for t in island if t is not None and not t.startswith("map:")]
    for c in CHESTS:
        in_sight += chests[c]
    bag = [f"{t}:{v + 1}" for t in TYPES for v in range(3) for _ in range(view["bag"]["by_type"][t][v])]
    in_sight += bag
    for p in players_view:
        in_sight += p["collection"]
        in_sight += [t for stack in p["ship"] for t in stack]
    for t in in_sight:
        left.remove(t)
    rng.shuffle(bag)
    jokers_gone = JOKERS - view["hook"]["jokers"] - sum(p["jokers"] for p in players_view)
    sunset = view["phase"] != "sunrise"
    discarded = ([] if sunset else left) + ["joker"] * (0 if sunset else jokers_gone)
    removed = (left + ["joker"] * jokers_gone if sunset else []) + ["map:" + x for x in removed_maps]
    players = []
    for s, p in enumerate(players_view):
        revealed = p["maps_revealed"]
        hidden = view["private"]["maps"] if s == seat else opp_hidden
        maps = [{"id": "map:" + x, "revealed": True} for x in revealed]
        maps += [{"id": "map:" + x, "revealed": False} for x in hidden]
        players.append(
            {
                "supply": p["supply"],
                "collection": list(p["collection"]),
                "jokers": p["jokers"],
                "maps": maps,
                "ship": [list(stack) for stack in p["ship"]],
            }
        )
    pending = None
    public = view["pending"]
    if public is not None:
        pending = {"mover": public["mover"]}
        if "from" in public:
            via = [INDEX[v] for v in public["via"]]
            owed = public["reveals_owed"]
            pending.update(
                {"from": INDEX[public["from"]], "to": INDEX[public["to"]], "via": via, "owed": owed,
                 "done": len(via) - owed}
            )
    dig_pub = {sq: cell["pub_seat"] for sq, cell in view["squares"].items() if cell["pub_seat"] is not None}
    next_pub = view["next_pub"] - 1 if view["phase"] == "sunset" else 8 if over else 0
    return {
        "game": "martinique",
        "version": 1,
        "seed": f"{rng.getrandbits(64):016x}",
        "rng_n": 0,
        "options": dict(view["options"]),
        "phase": view["phase"],
        "step": view["step"],
        "turn_seat": view["turn_seat"],
        "island": island,
        "pirates": pirates,
        "hook": {"maps": ["map:" + x for x in hook], "jokers": view["hook"]["jokers"]},
        "lost": ["map:" + lost[0], "map:" + lost[1]],
        "chests": chests,
        "bag": bag,
        "pub": [entry["seat"] for entry in view["pub"]],
        "players": players,
        "discarded": discarded,
        "removed": removed,
        "pending": pending,
        "dig_pub": dig_pub,
        "next_pub": next_pub,
        "last": clone(view["last"]),
        "last_move": clone(view["last_move"]),
        "result": clone(view["result"]),
    }
