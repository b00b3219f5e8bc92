"""What each seat may know: everything but the other hands and the deck; and a seat's private summary, its gems."""

from __future__ import annotations

from typing import Any

from rules.core import State
from tests.host.toygame.board import value
from tests.host.toygame.moves import to_act


def view(state: State, seat: int | None) -> dict[str, Any]:
    v: dict[str, Any] = {
        "players": state["players"],
        "options": dict(state["options"]),
        "phase": state["phase"],
        "to_act": to_act(state),
        "turn": state["turn"],
        "left": state["left"],
        "pile": state["pile"],
        "played": list(state["played"]),
        "hand_sizes": [len(h) for h in state["hands"]],
        "deck_size": len(state["deck"]),
        "marks": list(state["marks"]),
        "winner": state["winner"],
        "last": state["last"],
    }
    if seat is not None:
        v["hand"] = sorted(state["hands"][seat])
        v["seat"] = seat
    return v


def private_summary(view: dict[str, Any], seat: int) -> str:
    if view.get("seat") != seat:
        return ""
    gems = ", ".join(f"{g} (+{value(g)})" for g in view["hand"]) or "none"
    return f"Your gems: {gems}."
