"""What a seat may know: the public view, and a seat's own map tiles with its deduction aid."""

from __future__ import annotations

from typing import Any

from rules.core import State, clone
from rules.martinique.board import BEACH_SET, COLOURS, HOOK_SET, MAP_TILES, NAMES, SCROLL_SET, SQUARES, candidates
from rules.martinique.moves import hidden_maps, landed, to_act
from rules.martinique.tiles import TYPES, is_map, pairs_points, value_of


def _tile_view(tile: str | None) -> dict[str, Any] | None:
    if tile is None:
        return None
    if is_map(tile):
        return {"kind": "map"}
    t, v = tile.split(":")
    return {"kind": "artifact", "type": t, "value": int(v)}


def _map_order(ids: list[str]) -> list[str]:
    return sorted(ids, key=MAP_TILES.index)


def _bag_by_type(bag: list[str]) -> dict[str, list[int]]:
    out = {t: [0, 0, 0] for t in TYPES}
    for tile in bag:
        t, v = tile.split(":")
        out[t][int(v) - 1] += 1
    return out


def _player_view(state: State, seat: int, over: bool) -> dict[str, Any]:
    p = state["players"][seat]
    pirates = state["pirates"]
    stacks = [len(x["ship"]) for x in state["players"]]
    bonus = 2 if stacks[seat] > stacks[1 - seat] else 0
    pairs = pairs_points(p["collection"])
    ship = sum(value_of(t) for stack in p["ship"] for t in stack)
    out = {
        "seat": seat,
        "colour": COLOURS[seat],
        "name": NAMES[seat],
        "supply": p["supply"],
        "landed": landed(state, seat),
        "on_island": [SQUARES[i] for i in range(64) if pirates[i] == seat],
        "in_pub": state["pub"].count(seat),
        "collection": list(p["collection"]),
        "jokers": p["jokers"],
        "maps_hidden": sum(1 for m in p["maps"] if not m["revealed"]),
        "maps_revealed": _map_order([m["id"][4:] for m in p["maps"] if m["revealed"]]),
        "ship": [list(stack) for stack in p["ship"]],
        "score_preview": {"pairs": pairs, "ship": ship, "stacks": stacks[seat], "total": pairs + ship + bonus},
    }
    if over:
        out["maps_at_end"] = _map_order([m["id"][4:] for m in p["maps"]])
    return out


def knowledge(state: State, seat: int) -> dict[str, Any]:
    """The seat's own map tiles and what they, with every revealed tile, rule out."""
    own = [m["id"][4:] for m in state["players"][seat]["maps"]]
    opp = [m["id"][4:] for m in state["players"][1 - seat]["maps"] if m["revealed"]]
    known = set(own) | set(opp)
    xl = [x for x in MAP_TILES if x in known and x.isalpha()]
    xn = [x for x in MAP_TILES if x in known and x.isdigit()]
    return {
        "seat": seat,
        "maps": [t[4:] for t in hidden_maps(state["players"][seat])],
        "excluded_letters": xl,
        "excluded_numbers": xn,
        "candidates": [SQUARES[i] for i in candidates(xl, xn)],
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    island, pirates, dig_pub = state["island"], state["pirates"], state["dig_pub"]
    squares = {}
    for i, sq in enumerate(SQUARES):
        owner = pirates[i]
        squares[sq] = {
            "tile": _tile_view(island[i]),
            "pirate": None if owner is None else COLOURS[owner],
            "pub_seat": dig_pub.get(sq),
            "hook": i in HOOK_SET,
            "beach": i in BEACH_SET,
            "scroll": i in SCROLL_SET,
        }
    pending = state["pending"]
    public_pending = None
    if pending is not None:
        public_pending = {"mover": pending["mover"], "reveals_owed": pending.get("owed", 0)}
        if "from" in pending:
            public_pending.update(
                {
                    "from": SQUARES[pending["from"]],
                    "to": SQUARES[pending["to"]],
                    "via": [SQUARES[v] for v in pending["via"]],
                }
            )
    lost = None
    if over:
        letter, number = state["lost"][0][4:], state["lost"][1][4:]
        lost = {"letter": letter, "number": number, "square": letter + number}
    view: dict[str, Any] = {
        "game": "martinique",
        "phase": state["phase"],
        "step": state["step"],
        "to_act": to_act(state),
        "turn_seat": state["turn_seat"],
        "options": dict(state["options"]),
        "squares": squares,
        "hook": {"maps": len(state["hook"]["maps"]), "jokers": state["hook"]["jokers"]},
        "lost_treasure": lost,
        "chests": {k: list(v) for k, v in state["chests"].items()},
        "bag": {"count": len(state["bag"]), "by_type": _bag_by_type(state["bag"])},
        "pub": [
            {"pub_seat": k + 1, "seat": s, "colour": None if s is None else COLOURS[s]}
            for k, s in enumerate(state["pub"])
        ],
        "next_pub": state["next_pub"] + 1 if state["phase"] == "sunset" else None,
        "players": [_player_view(state, s, over) for s in range(2)],
        "pending": public_pending,
        "last": clone(state["last"]),
        "last_move": clone(state["last_move"]),
        "result": clone(state["result"]),
    }
    if seat is not None:
        view["private"] = knowledge(state, seat)
    return view


def private_summary(view: dict[str, Any], seat: int) -> str:
    mine = view.get("private") or {}
    if mine.get("seat") != seat:
        return ""
    maps = ", ".join(mine["maps"]) or "none"
    places = mine["candidates"]
    where = ", ".join(places) if len(places) <= 12 else f"{len(places)} squares (crossed out on your map)"
    return f"Your secret map tiles: {maps}.\nThe Lost Treasure may still lie on: {where}."


def owed(view: dict[str, Any], seat: int) -> str:
    step = view.get("step")
    if step == "reveal":
        return "reveal one of your hidden map tiles (the other pirate passed yours)"
    if step == "hook":
        return "take a joker or a map tile from The Hook"
    if step == "claim":
        return "claim a chest with your artifacts, or say done"
    if view.get("phase") == "sunset" or step == "dig":
        pub = view.get("next_pub")
        # docs/games/martinique.md#sunset-digs: each pub seat in turn places a pirate where it digs
        where = "dig: place a pirate on the square where you think the Lost Treasure lies"
        return f"{where} (pub seat {pub})" if pub else where
    return "place or move a pirate"
