"""The Flagon played on in place for the ``hard`` search's playouts (rules/rollout.py): the engine's act changes
the sampled state itself (no copy, no turn checks: every action comes from the legal list)."""

from __future__ import annotations

from rules.core import Outcome
from rules.flagon import engine, moves
from rules.flagon.forces import Ctx
from rules.rollout import Rollout


class FlagonRollout(Rollout):
    def to_act(self) -> list[int]:
        return moves.to_act(self.state)

    def legal(self, seat: int) -> list[str]:
        return moves.legal_actions(self.state, seat)

    def play(self, seat: int, action: str) -> None:
        engine.act(self.state, Ctx(self.state), seat, action)

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)
