"""Who owes a decision in Cartagena and what each seat may do, in a fixed order; and why an action is not legal.

Legal actions: ``forward <from> <symbol>`` for each pirate position and each symbol held, then ``back <from>``
for each pirate with a space of one or two pirates behind it, then ``end`` once the turn has an action, or
``pass`` when there is nothing else (docs/games/cartagena.md#the-action-language).
"""

from __future__ import annotations

from rules.cartagena.board import SLOOP, START, SYMBOLS, back_target, occupancy, position_name, position_word
from rules.cartagena.deck import SYMBOL_INDEX
from rules.core import Action, IllegalAction, State


def to_act(state: State) -> list[int]:
    return [] if state["result"] else [state["turn_seat"]]


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["result"] or seat != state["turn_seat"]:
        return []
    mine = sorted(set(state["pirates"][seat]))
    hand = state["hands"][seat]
    held = [symbol for i, symbol in enumerate(SYMBOLS) if hand[i]]
    actions = [f"forward {position_word(pos)} {symbol}" for pos in mine if pos != SLOOP for symbol in held]
    occ = occupancy(state["pirates"])
    back_from_sloop = state["options"]["back_from_sloop"] == "on"
    for pos in mine:
        if pos != START and (pos != SLOOP or back_from_sloop) and back_target(occ, pos) is not None:
            actions.append(f"back {position_word(pos)}")
    if state["actions_taken"]:
        actions.append("end")
    elif not actions:
        actions.append("pass")
    return actions


def check(state: State, seat: int, kind: str, pos: int | None, symbol: str | None) -> None:
    """Raise ``illegal`` with the rule the action breaks and what to do instead; the state is not touched."""
    mine = state["pirates"][seat]
    if kind == "forward":
        if pos == SLOOP:
            raise _illegal("a pirate on the sloop cannot move forward; move another pirate or `back sloop`")
        if not state["hands"][seat][SYMBOL_INDEX[symbol]]:
            raise _illegal(f"you have no {symbol} card; play a symbol you hold, or move back to draw")
        if pos not in mine:
            raise _illegal(f"you have no pirate on {position_name(pos)}; {_where(mine)}")
    elif kind == "back":
        if pos == START:
            raise _illegal("a pirate on START cannot move back; move back a pirate on the passage")
        if pos == SLOOP and state["options"]["back_from_sloop"] != "on":
            raise _illegal("moving back from the sloop is off at this table; move back a pirate on the passage")
        if pos not in mine:
            raise _illegal(f"you have no pirate on {position_name(pos)}; {_where(mine)}")
        if back_target(occupancy(state["pirates"]), pos) is None:
            raise _illegal(
                f"no space with 1 or 2 pirates lies behind {position_name(pos)}; "
                "move back a pirate further ahead, or play a card"
            )
    elif kind == "end":
        if not state["actions_taken"]:
            hint = "type `pass`, you have no action" if _nothing_to_do(state, seat) else "play a card or move back"
            raise _illegal(f"you must take at least one action before ending your turn; {hint}")
    elif state["actions_taken"]:
        raise _illegal("you have already acted this turn; type `end` to finish it")
    elif not _nothing_to_do(state, seat):
        first = legal_actions(state, seat)[0]
        raise _illegal(f"you can still act (for example `{first}`); `pass` is only for a turn with no action")


def _nothing_to_do(state: State, seat: int) -> bool:
    return legal_actions(state, seat) in (["pass"], ["end"])


def _where(mine: list[int]) -> str:
    return "your pirates are on " + ", ".join(position_name(pos) for pos in sorted(set(mine)))


def _illegal(message: str) -> IllegalAction:
    return IllegalAction("illegal", message)
