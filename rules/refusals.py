"""Refusals: the exception an engine raises for an action it will not take, and the one wording of each refusal
the framework makes itself before any game code runs (``rules.core.Game.apply``: the game is over, it is not the
seat's turn, the action is not legal).

A leaf module (standard library only, importing nothing of ``rules``), so the search can catch a refusal without
importing the contract that dispatches to it.
"""

from __future__ import annotations

#: codes used across games; a game may add its own (``too_far``, ``hold_full``...) for the reasons it explains
GAME_OVER = "game_over"
NOT_YOUR_TURN = "not_your_turn"
ILLEGAL = "illegal"
BAD_SYNTAX = "bad_syntax"
BAD_OPTION = "bad_option"
BAD_PLAYERS = "bad_players"
BAD_VERSION = "bad_version"

#: how many legal actions a refusal names before it counts the rest
LISTED = 12


class IllegalAction(Exception):
    """An action the engine refuses. ``message`` is written for the player and names what is allowed.

    Codes used across games: ``game_over``, ``not_your_turn``, ``bad_syntax``, ``illegal``,
    ``bad_option``, ``bad_players``, ``bad_version``. Games may add their own.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


def game_over() -> IllegalAction:
    """Any action once the game is over."""
    return IllegalAction(GAME_OVER, "The game is over; open a new table to play again.")


def not_your_turn(waiting: list[str]) -> IllegalAction:
    """An action of a seat that owes no decision and has no such optional action; ``waiting`` names the seats that
    do owe one (their names from the public view, never a secret)."""
    return IllegalAction(NOT_YOUR_TURN, f"It is not your turn: waiting for {', '.join(waiting)}.")


def not_legal(action: str, owed: str, legal: list[str]) -> IllegalAction:
    """An action that is not among the legal actions of a seat that owes a decision, when the game has no more
    precise reason to give: what the seat must do (``Game.owed``, public words) and what it may play."""
    owed = owed.rstrip(".")
    shown = ", ".join(f"`{a}`" for a in legal[:LISTED])
    more = f" (and {len(legal) - LISTED} more)" if len(legal) > LISTED else ""
    return IllegalAction(ILLEGAL, f"`{action}` is not possible now (you must {owed}); choose one of: {shown}{more}.")
