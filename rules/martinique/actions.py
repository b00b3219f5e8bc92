"""Martinique's action text: parsing what a person types into the one form the engine, the log and the AI share,
and the words a picker shows for an action (``label``, ``group``)."""

from __future__ import annotations

from typing import Any

from rules.core import Action, IllegalAction, normalize_text
from rules.martinique.board import INDEX, MAP_TILES
from rules.martinique.tiles import CHESTS, TYPE_POS, TYPES

EXAMPLES = (
    "say e.g. `place A6`, `move C3 C5 via C4`, `reveal 6`, `take map`, `claim chest3 joker rum`, `done`, `dig F6`"
)


def _square(token: str) -> str:
    sq = token.upper()
    if sq not in INDEX:
        raise IllegalAction("bad_syntax", f"'{sq}' is not a square: squares are A1 to H8 ({EXAMPLES}).")
    return sq


def parse(text: str) -> str:
    words = normalize_text(text).split()
    if not words:
        raise IllegalAction("bad_syntax", f"Type an action: {EXAMPLES}.")
    verb, args = words[0], words[1:]
    if verb == "place" and len(args) == 1:
        return f"place {_square(args[0])}"
    if verb == "dig" and len(args) == 1:
        return f"dig {_square(args[0])}"
    if verb == "retire" and len(args) == 1:
        return "retire supply" if args[0] == "supply" else f"retire {_square(args[0])}"
    if verb == "move" and len(args) >= 2:
        frm, to = _square(args[0]), _square(args[1])
        if len(args) == 2:
            return f"move {frm} {to}"
        if args[2] == "via" and len(args) >= 4:
            return f"move {frm} {to} via " + " ".join(_square(a) for a in args[3:])
        raise IllegalAction("bad_syntax", "say e.g. `move C3 C5` or `move C3 C5 via C4`.")
    if verb == "reveal" and len(args) == 1:
        tile = args[0].upper()
        if tile not in MAP_TILES:
            raise IllegalAction("bad_syntax", "say e.g. `reveal C` or `reveal 6`: map tiles are A to H and 1 to 8.")
        return f"reveal {tile}"
    if verb == "take" and len(args) == 1 and args[0] in ("joker", "map"):
        return f"take {args[0]}"
    if verb == "done" and not args:
        return "done"
    if verb == "claim" and args:
        chest = args[0] if args[0].startswith("chest") else f"chest{args[0]}"
        if chest not in CHESTS:
            raise IllegalAction(
                "bad_syntax", "say e.g. `claim chest2`, `claim chest3 joker rum`: chests are 2, 3 and 4."
            )
        if len(args) == 1:
            return f"claim {chest}"
        if args[1] != "joker" or len(args) < 3 or any(t not in TYPE_POS for t in args[2:]):
            raise IllegalAction(
                "bad_syntax", f"say e.g. `claim {chest} joker rum`; artifact types are {', '.join(TYPES)}."
            )
        return f"claim {chest} joker " + " ".join(sorted(args[2:], key=TYPE_POS.__getitem__))
    raise IllegalAction("bad_syntax", f"'{text}' is not a Martinique action: {EXAMPLES}.")


def label(view: dict[str, Any], action: Action) -> str:
    words = action.split()
    squares = view.get("squares", {})
    if words[0] == "place":
        return f"place on {words[1]} ({_tile_word(squares[words[1]]['tile'])})"
    if words[0] == "move":
        end = squares[words[2]]
        if end["hook"]:
            landing = "The Hook → pub"
        elif end["tile"] is None:
            landing = "bare sand → pub"
        else:
            landing = f"stays on {_tile_word(end['tile'])}"
        passing = f", passes {', '.join(words[4:])}" if len(words) > 3 else ""
        return f"{words[1]} → {words[2]}: take {_tile_word(squares[words[1]]['tile'])}, {landing}{passing}"
    if words[0] == "dig":
        cands = (view.get("private") or {}).get("candidates")
        if cands is not None and words[1] in cands:
            return f"dig {words[1]} (possible treasure)"
    if words[0] == "claim" and words[1] in (view.get("chests") or {}):
        # what the chest gives, and the jokers it costs (docs/games/martinique.md#claims-are-optional)
        tiles = view["chests"][words[1]]
        points = sum(int(t.split(":")[1]) for t in tiles)
        jokered = words[3:]
        paid = "a joker" if len(jokered) == 1 else f"{len(jokered)} jokers"
        jokers = f", {paid} for {', '.join(jokered)}" if jokered else ""
        return f"{words[1]}: {' '.join(tiles)} ({points} points){jokers}"
    if action == "done":
        return "done (claim nothing more)"
    if words[0] == "retire":
        # docs/games/martinique.md#retire: only when no place or move is legal
        if words[1] == "supply":
            return "send a supply pirate to the pub"
        return f"{words[1]} to the pub: take {_tile_word(squares[words[1]]['tile'])}"
    if action == "take map":
        return "take a map tile (a blind draw)"
    if action == "take joker":
        return "take a joker"
    return action

def group(view: dict[str, Any], action: Action) -> str:
    words = action.split()
    if words[0] == "move":
        return f"move {words[1]}"
    if words[0] == "dig":
        return f"dig {words[1][0]}"
    return words[0]


def _tile_word(tile: dict[str, Any] | None) -> str:
    if tile is None:
        return "nothing"
    if tile["kind"] == "map":
        return "a map tile"
    return f"{tile['type']}:{tile['value']}"
