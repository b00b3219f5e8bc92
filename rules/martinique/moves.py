"""Who owes a decision in Martinique and what each seat may do, in a fixed order; and why an action is not legal.

Squares are indices 0..63 in index order, so every list built by iterating ``range(64)`` is in index order
(docs/games/martinique.md#the-action-language).
"""

from __future__ import annotations

from typing import Any

from rules.core import State
from rules.martinique.board import BEACH, BEACH_SET, INDEX, MAP_TILES, NAMES, PIRATES, SQUARES, walks
from rules.martinique.tiles import CHESTS, claim_options, claim_text, value_of


def to_act(state: State) -> list[int]:
    step = state["step"]
    if step == "over":
        return []
    if step == "turn":
        return [state["turn_seat"]]
    if step == "reveal":
        return [1 - state["pending"]["mover"]]
    if step in ("hook", "claim"):
        return [state["pending"]["mover"]]
    return [state["pub"][state["next_pub"]]]


def landed(state: State, seat: int) -> int:
    return PIRATES - state["players"][seat]["supply"]


def hidden_maps(player: dict[str, Any]) -> list[str]:
    """The seat's hidden map tiles (``map:X``) in map tile order."""
    return sorted((m["id"] for m in player["maps"] if not m["revealed"]), key=lambda t: MAP_TILES.index(t[4:]))


def place_squares(state: State, seat: int) -> list[int]:
    if state["players"][seat]["supply"] == 0:
        return []
    island, pirates = state["island"], state["pirates"]
    return [i for i in BEACH if island[i] is not None and pirates[i] is None]


def moves_from(state: State, seat: int, start: int) -> dict[tuple[int, tuple[int, ...]], tuple[int, ...]]:
    """Legal (end, via) pairs of the pirate on ``start``, each with the first path that realises it."""
    pirates = state["pirates"]
    opp = 1 - seat
    found: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
    for path in walks(start, value_of(state["island"][start])):
        end = path[-1]
        if pirates[end] is not None:
            continue
        key = (end, tuple(p for p in path[1:-1] if pirates[p] == opp))
        if key not in found:
            found[key] = path
    return found


def move_text(start: int, end: int, via: tuple[int, ...]) -> str:
    text = f"move {SQUARES[start]} {SQUARES[end]}"
    return text + (" via " + " ".join(SQUARES[v] for v in via) if via else "")


def move_actions(state: State, seat: int) -> list[str]:
    if landed(state, seat) < state["options"]["move_after"]:
        return []
    out: list[str] = []
    pirates = state["pirates"]
    for start in range(64):
        if pirates[start] != seat:
            continue
        keys = sorted(moves_from(state, seat, start), key=lambda k: (k[0], k[1]))
        out += [move_text(start, end, via) for end, via in keys]
    return out


def claim_actions(state: State, seat: int) -> list[str]:
    player = state["players"][seat]
    out: list[str] = []
    for chest in CHESTS:
        for jokered in claim_options(state["chests"][chest], player["collection"], player["jokers"]):
            out.append(claim_text(chest, jokered))
    return out


def legal_actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    step = state["step"]
    if step == "turn":
        out = [f"place {SQUARES[i]}" for i in place_squares(state, seat)] + move_actions(state, seat)
        if out:
            return out
        retire = [f"retire {SQUARES[i]}" for i in range(64) if state["pirates"][i] == seat]
        return retire + (["retire supply"] if state["players"][seat]["supply"] else [])
    if step == "reveal":
        return [f"reveal {t[4:]}" for t in hidden_maps(state["players"][seat])]
    if step == "hook":
        return ["take joker", "take map"]
    if step == "claim":
        return claim_actions(state, seat) + ["done"]
    pirates = state["pirates"]
    return [f"dig {SQUARES[i]}" for i in range(64) if pirates[i] is None]


def explain(state: State, seat: int, text: str, legal: list[str]) -> str:
    """Why ``text`` is refused, in words that name what is allowed instead; "" when there is nothing to say beyond
    the shared wording (the action is simply not one of this step's)."""
    words = text.split()
    verb = words[0]
    step = state["step"]
    examples = ", ".join(f"`{a}`" for a in legal[:4]) + (", ..." if len(legal) > 4 else "")
    if step != "turn" or verb not in ("place", "move", "retire"):
        if verb == "dig" and step == "dig":
            return f"{words[1]} already holds a pirate: dig on a free square, e.g. {examples}."
        if verb == "claim" and step == "claim":
            return f"you cannot cover `{text[6:]}` with your artifacts and jokers; possible: {examples}."
        return ""
    player = state["players"][seat]
    if verb == "place":
        sq = INDEX[words[1]]
        if player["supply"] == 0:
            return "you have no pirate left in your supply; move a pirate instead."
        if sq not in BEACH_SET:
            return f"{words[1]} is not a beach square: place on an edge square that holds a tile."
        if state["island"][sq] is None:
            return f"{words[1]} has no tile left: place only where a tile lies."
        return f"{words[1]} holds a pirate already: choose a free beach square."
    if verb == "retire":
        return f"retire is allowed only when you can neither place nor move; try {examples}."
    have = landed(state, seat)
    need = state["options"]["move_after"]
    if have < need:
        return f"you have only {have} pirates landed; Move unlocks at {need}."
    start, end = INDEX[words[1]], INDEX[words[2]]
    if state["pirates"][start] != seat:
        return f"you have no pirate on {words[1]}."
    if state["pirates"][end] is not None:
        return f"{words[2]} holds a pirate: a move cannot end there."
    n = value_of(state["island"][start])
    if not any(path[-1] == end for path in walks(start, n)):
        return (
            f"your pirate on {words[1]} must walk exactly {n} square{'s' if n > 1 else ''}, orthogonally and never "
            f"over the same square twice; {words[2]} cannot be reached that way."
        )
    forms = [a for a in legal if a.startswith(f"move {words[1]} {words[2]}")]
    return f"that is not how this walk passes {NAMES[1 - seat]}: write {' or '.join(f'`{f}`' for f in forms)}."
