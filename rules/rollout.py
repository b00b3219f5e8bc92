"""The playouts of the ``hard`` search: a game played on from a sampled state, as fast as the game can make it.

A :class:`Rollout` owns one state (a sample the search drew for this playout, so nobody else holds it) and plays it
forward: who owes a decision, the legal actions, one action applied, a cheap choice for the mover (the rollout
policy), the result. The default below drives the public contract (``Game.apply`` copies the state and checks the
action, the policy is ``normal`` from the mover's view); a game replaces it through ``Game.rollout`` with its own
(``rules/<game>/rollout.py``): the state changed in place, the turn checks skipped (every action comes from the
rollout's own lists or policy), a policy that reads only what the mover may know but without building a view.

A game's rollout must play exactly the game: tests/ai/test_rollouts.py compares its legal actions and results with
the engine's over seeded playouts. What it may change is the policy: a cheaper one buys more playouts a second,
and ``python -m benchmarks.winrate`` says whether that makes ``hard`` stronger.

Standard library only, and it names no game.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rules.refusals import IllegalAction

if TYPE_CHECKING:  # the contract builds rollouts, so this module imports it only for type checkers
    from rules.core import Action, Game, Outcome, State


class Rollout:
    """``game`` played on from ``state`` through the contract; subclasses make each step cheaper."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state

    def to_act(self) -> list[int]:
        """Seats that owe a decision now, ascending; empty once the game is over."""
        return self.game.to_act(self.state)

    def legal(self, seat: int) -> list[Action]:
        """Every legal action of ``seat``, as ``Game.legal_actions`` lists them (same texts, same order)."""
        return self.game.legal_actions(self.state, seat)

    def play(self, seat: int, action: Action) -> None:
        """Apply a legal ``action`` of ``seat`` (one from :meth:`legal` or :meth:`choose`)."""
        self.state, _ = self.game.apply(self.state, seat, action)

    def choose(self, seat: int, rng: random.Random) -> Action:
        """The rollout policy: the mover's choice, from what it may know."""
        legal = self.legal(seat)
        if len(legal) == 1:
            return legal[0]
        return self.game.ai_choose(self.game.view(self.state, seat), seat, legal, "normal", rng)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def evaluate(self, seat: int) -> float:
        """The seat's chance to win from a position that is not over (``Game.evaluate``)."""
        return self.game.evaluate(self.state, seat)

    def seats(self) -> int:
        return self.game.seat_count(self.state)


def score(rollout: Rollout, seat: int) -> float:
    """The seat's result: 1 for a win (shared on a tie; a fair share when nobody wins), 0 for a loss, and the
    game's evaluation when the playout stopped before the end."""
    outcome = rollout.outcome()
    if outcome is None:
        return rollout.evaluate(seat)
    if not outcome.winners:
        return 1.0 / max(1, rollout.seats())
    return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0


def play_out(
    rollout: Rollout, seat: int, action: Action, horizon: int, rng: random.Random, clock: object = None,
    deadline: float | None = None,
) -> float:
    """``seat`` plays ``action``, then every seat plays the rollout policy for up to ``horizon`` actions (fewer when
    ``clock()`` passes ``deadline`` mid-rollout: the position reached is then evaluated)."""
    try:
        rollout.play(seat, action)
        for _ in range(horizon):
            acting = rollout.to_act()
            if not acting or (deadline is not None and clock() > deadline):  # type: ignore[operator]
                break
            mover = acting[0]
            rollout.play(mover, rollout.choose(mover, rng))
    except IllegalAction:
        return 0.0  # the sample allowed something the engine does not: count it as a loss, never crash
    return score(rollout, seat)
