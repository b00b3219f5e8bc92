"""The Toy Gems game object: what a table shows of the game and the ``rules.core.Game`` contract over the modules
of this package, each method one line (docs/adding-a-game.md walks through it)."""

from __future__ import annotations

import random
from typing import Any

from rules.core import Action, Event, Game, GameInfo, Option, Outcome, State
from tests.host.toygame import actions, ai, engine, evaluate, moves, sample, views
from tests.host.toygame.board import NAMES


class ToyGame(Game):
    info = GameInfo(
        id="toy",
        title="Toy Gems",
        min_players=2,
        max_players=4,
        options=(Option("length", ("short", "long"), "short", "pile target"),),
        blurb="A test game.",
        rules="Play gems until the pile reaches the target.",
        seat_names=NAMES,
    )
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        return engine.new_state(players, self.resolve_options(options), seed)

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        return engine.apply(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    def seat_count(self, state: State) -> int:
        return state["players"]

    # -- what a seat sees and reads ------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        return views.private_summary(view, seat)

    # -- action text ---------------------------------------------------------------------------------
    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    # -- the host's helpers --------------------------------------------------------------------------
    def undoable(self, before: State, seat: int, action: Action) -> bool:
        return action in ("mark", "ready")

    # -- the hard AI ---------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    # -- tests ---------------------------------------------------------------------------------------
    def secrets(self, state: State) -> list[str]:
        return [g for h in state["hands"] for g in h] + list(state["deck"]) + [state["seed"]]


GAME = ToyGame()
