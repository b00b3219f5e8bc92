"""Cartagena played on in place for the ``hard`` search's playouts (rules/rollout.py): the engine's move without
the copy ``apply`` makes and without the turn checks (every action comes from the legal list), so a playout
costs what the moves and ``normal``'s choices cost."""

from __future__ import annotations

from rules.cartagena import engine, moves
from rules.core import Outcome
from rules.rollout import Rollout


class CartagenaRollout(Rollout):
    def to_act(self) -> list[int]:
        return moves.to_act(self.state)

    def legal(self, seat: int) -> list[str]:
        return moves.legal_actions(self.state, seat)

    def play(self, seat: int, action: str) -> None:
        engine.advance(self.state, seat, action, [])

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)
