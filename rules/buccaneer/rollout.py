"""Buccaneer played on in place for the ``hard`` search's playouts (rules/rollout.py): the engine's step changes
the sampled state itself (no copy, no narration credited, no turn checks: every action comes from the legal
list)."""

from __future__ import annotations

from rules.buccaneer import engine, moves
from rules.buccaneer.model import Narration
from rules.core import Outcome
from rules.rollout import Rollout


class BuccaneerRollout(Rollout):
    def to_act(self) -> list[int]:
        return moves.to_act(self.state)

    def legal(self, seat: int) -> list[str]:
        return moves.legal_actions(self.state, seat)

    def play(self, seat: int, action: str) -> None:
        engine.advance(self.state, seat, action, Narration())

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)
