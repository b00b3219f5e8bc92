"""Who owes a decision in Buccaneer and what each seat may do, frame by frame
(docs/games/buccaneer.md#every-decision-is-a-step-from-a-finite-list), in a fixed order;
and why an action is not legal. The actions of each phase are made by the module of that phase (``movement``,
``combat``, ``chance``, ``trading``); this module asks the one the state is in."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board, chance, combat, movement, trading
from rules.buccaneer.model import CREW, CREW_VALUE, TREASURE, count, top
from rules.buccaneer.setup import choosing_seat, free_ports
from rules.core import IllegalAction, State


def to_act(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    if state["phase"] == "choose_ports":
        seat = choosing_seat(state)
        return [] if seat is None else [seat]
    frame = top(state)
    if frame is None:
        return [state["turn"]["seat"]]
    if frame["kind"] == "YELLOW_FEVER":
        return chance.fever_seats(frame)
    return [frame["seat"]]


def frame_actions(state: State, frame: dict[str, Any], seat: int) -> list[str]:
    kind = frame["kind"]
    if kind == "YELLOW_FEVER":
        return chance.fever_actions(state, frame, seat)
    if seat != frame["seat"]:
        return []
    if kind == "INTERCEPT":
        return ["attack", "pass"]
    if kind == "SPOILS":
        return combat.spoils_options(state, frame["loser"])
    if kind == "RETURN":
        return combat.return_actions(state, frame)
    if kind == "GIVE":
        return combat.give_actions(state, frame)
    if kind == "FREE_MOVE":
        return movement.free_move_actions(state, frame)
    if kind in ("ALONGSIDE",):
        return combat.alongside_actions(frame)
    if kind == "REPOINT":
        return [f"face {d}" for d in board.DIRS]
    if kind == "CHOICE":
        return chance.choice_actions(state, frame)
    if kind == "PICK":
        return chance.pick_actions(state, frame)
    if kind == "PLACE":
        return [f"place {sq}" for sq in frame["squares"]]
    if kind == "PORT_TIE":
        return [f"harbour {h}" for h in frame["harbours"]]
    if kind == "TARGET":
        return [f"target {h}" for h in frame["options"]]
    if kind == "LOSE":
        return chance.lose_actions(state, frame)
    if kind == "BURY":
        return chance.bury_actions(state, frame)
    if kind == "FORFEIT":
        return forfeit_actions(state, frame["seat"])
    raise AssertionError(kind)


def turn_actions(state: State, seat: int) -> list[str]:
    turn = state["turn"]
    if seat != turn["seat"]:
        return []
    basket = turn["basket"]
    busy = bool(basket["give"] or basket["get"])
    stage = turn["stage"]
    if stage == "start":
        if busy:
            return trading.trade_actions(state, seat)
        return trading.window_actions(state, seat) + movement.start_moves(state, seat)
    if stage == "plan":
        return movement.plan_actions(state, seat, turn["plan"], False)
    if stage == "after":
        if busy:
            return trading.trade_actions(state, seat)
        return [*trading.window_actions(state, seat), "end"]
    return []


def legal_actions(state: State, seat: int) -> list[str]:
    if state["phase"] == "over" or not 0 <= seat < len(state["players"]):
        return []
    if state["phase"] == "choose_ports":
        return [f"home {h}" for h in free_ports(state)] if seat == choosing_seat(state) else []
    frame = top(state)
    out = turn_actions(state, seat) if frame is None else frame_actions(state, frame, seat)
    window = state["challenge"]
    if window and seat != window["mover"]:
        out = [*out, "challenge"]
    return out


def forfeit_actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    hand = p["hand"]
    out = []
    if count(hand):
        top_value = max(CREW_VALUE[k] for k in CREW if hand[k])
        out += [f"forfeit {k}" for k in CREW if hand[k] and CREW_VALUE[k] == top_value]
    out += [f"forfeit {t}" for t in TREASURE if t in p["ship"]["hold"]]
    return out


# -- refusals ---------------------------------------------------------------------------------------------
def explain(state: State, seat: int, action: str, legal: list[str]) -> IllegalAction | None:
    """Why ``action`` is not legal for ``seat`` (which owes a decision), where the rules say more than the shared
    wording does; None otherwise."""
    words = action.split()
    verb = words[0] if words else ""
    frame = top(state)
    if frame is None and state["phase"] == "play":
        turn = state["turn"]
        if verb == "go" and turn["stage"] == "plan" and turn["plan"]["kind"] == "sail" and turn["plan"]["k"] is None:
            return movement.explain_go(state, seat, turn["plan"], action, False)
        if verb == "trade" and "cancel" in legal:
            return IllegalAction("unbalanced", f"{trading.basket_status(state, seat)['status']}; adjust or `cancel`.")
        if verb in ("load", "want", "flat", "pickup") and len(words) >= 2:
            item = words[-1]
            if item in TREASURE and verb in ("load", "flat") and len(state["players"][seat]["ship"]["hold"]) >= 2:
                return IllegalAction("hold_full", "a ship carries at most 2 treasures; unload or trade one first.")
            if verb == "want":
                return IllegalAction("not_available", f"the Docks hold no {item} to spare; `want` only what is listed.")
    if frame is not None and frame["kind"] == "FREE_MOVE" and verb == "go" and frame["plan"]:
        return movement.explain_go(state, seat, frame["plan"], action, True)
    if verb not in _VERBS:
        return IllegalAction("bad_syntax", f"`{action}` is not a Buccaneer action; try one of: {_some(legal)}.")
    return None


def _some(legal: list[str]) -> str:
    shown = ", ".join(legal[:12])
    return shown + (f" (and {len(legal) - 12} more)" if len(legal) > 12 else "")


_VERBS = {
    "home",
    "unload",
    "load",
    "safe",
    "leave",
    "pickup",
    "offer",
    "want",
    "unoffer",
    "unwant",
    "trade",
    "cancel",
    "flat",
    "land",
    "sail",
    "turn",
    "stay",
    "go",
    "face",
    "confirm",
    "undo",
    "end",
    "attack",
    "pass",
    "spoils",
    "return",
    "give",
    "choose",
    "pick",
    "done",
    "place",
    "harbour",
    "target",
    "lose",
    "bury",
    "challenge",
    "forfeit",
}
