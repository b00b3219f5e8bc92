"""What each Cartagena seat may know (docs/games/cartagena.md#hidden-information), and the table's words for it:
the view, a seat's private summary and what a seat owes. Seats keep their colours (``GameInfo.seat_names``)."""

from __future__ import annotations

from typing import Any

from rules.cartagena.board import ACTIONS_PER_TURN, SEAT_NAMES, SLOOP, START, SYMBOLS
from rules.cartagena.moves import to_act
from rules.core import State, clone


def view(state: State, seat: int | None) -> dict[str, Any]:
    opts = state["options"]
    tortuga = opts["mode"] == "tortuga"
    pirates = {}
    hands = {}
    for s, positions in enumerate(state["pirates"]):
        spaces: dict[str, int] = {}
        for pos in positions:
            if START < pos < SLOOP:
                spaces[str(pos)] = spaces.get(str(pos), 0) + 1
        pirates[str(s)] = {"start": positions.count(START), "sloop": positions.count(SLOOP), "spaces": spaces}
        hand = state["hands"][s]
        hands[str(s)] = {"count": sum(hand)}
        if tortuga or s == seat:
            hands[str(s)]["cards"] = {symbol: n for symbol, n in zip(SYMBOLS, hand, strict=True) if n}
    discard = {symbol: state["discard"].count(symbol) for symbol in SYMBOLS if symbol in state["discard"]}
    over = state["result"] is not None
    return {
        "game": "cartagena",
        "mode": opts["mode"],
        "options": {
            "reshuffle": opts["reshuffle"] == "on",
            "back_from_sloop": opts["back_from_sloop"] == "on",
            "board": opts["board"],
        },
        "players": state["players"],
        "seat_names": list(SEAT_NAMES[: state["players"]]),
        "viewer": seat,
        "phase": "over" if over else "turn",
        "step": "over" if over else "turn",
        "path": list(state["path"]),
        "pirates": pirates,
        "turn_seat": state["turn_seat"],
        "turn_number": state["turn_number"],
        "actions_taken": state["actions_taken"],
        "actions_left": 0 if over else ACTIONS_PER_TURN - state["actions_taken"],
        "to_act": to_act(state),
        "passes_in_a_row": state["passes_in_a_row"],
        "hands": hands,
        "row": None if state["row"] is None else list(state["row"]),
        "stock_count": len(state["stock"]),
        "discard": discard,
        "discard_count": len(state["discard"]),
        "reshuffles": state["reshuffles"],
        "this_turn": [dict(move) for move in state["this_turn"]],
        "last": None if state["last"] is None else dict(state["last"]),
        "last_action": None if state["last_action"] is None else dict(state["last_action"]),
        "winners": None if not over else list(state["result"]["winners"]),
        "result": None if not over else clone(state["result"]),
    }


def private_summary(view: dict[str, Any], seat: int) -> str:
    hand = view["hands"][str(seat)]
    cards = hand.get("cards")
    if cards is None:
        return ""
    held = ", ".join(f"{name} ×{cards[name]}" for name in SYMBOLS if cards.get(name))
    return f"Your hand ({hand['count']} card{'' if hand['count'] == 1 else 's'}): {held or 'no cards'}."


def owed(view: dict[str, Any], seat: int) -> str:
    left = view.get("actions_left", 0)
    if not view.get("actions_taken"):
        return "play a card or move a pirate back (up to 3 actions)"
    return f"play a card, move a pirate back or end your turn ({left} action{'' if left == 1 else 's'} left)"
