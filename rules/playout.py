"""Whole games without a host: AI-only and random playouts, shared by tests, benchmarks and balance checks."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.core import Event, Game, Outcome, State


@dataclass
class Step:
    """One applied action: the state before it, who acted, what, and the result."""

    before: State
    seat: int
    action: str
    after: State
    events: list[Event]


Chooser = Callable[[Game, State, int, list[str]], str]


def random_chooser(rnd: random.Random) -> Chooser:
    def choose(game: Game, state: State, seat: int, legal: list[str]) -> str:
        return legal[rnd.randrange(len(legal))]

    return choose


def ai_chooser(levels: list[str], ai_seed: str) -> Chooser:
    """Each seat plays at ``levels[seat]`` from its own view only, with its own RNG stream."""
    streams = [random.Random(f"{ai_seed}:ai:{seat}") for seat in range(len(levels))]

    def choose(game: Game, state: State, seat: int, legal: list[str]) -> str:
        return game.ai_choose(game.view(state, seat), seat, legal, levels[seat], streams[seat])

    return choose


def steps(
    game: Game,
    players: int,
    options: dict[str, str] | None,
    seed: str,
    chooser: Chooser,
    max_actions: int = 20_000,
) -> Iterator[Step]:
    """Play from ``new`` until the game is over, yielding every step. Where several seats owe a decision at
    once, the lowest seat answers first (any order is legal; a fixed one keeps runs reproducible)."""
    state = game.new(players, options, seed)
    for _ in range(max_actions):
        seats = game.to_act(state)
        if not seats:
            return
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        if not legal:
            raise AssertionError(f"{game.info.id}: seat {seat} owes a decision but has no legal action")
        action = chooser(game, state, seat, legal)
        after, events = game.apply(state, seat, action)
        yield Step(state, seat, action, after, events)
        state = after
    raise AssertionError(f"{game.info.id}: no end after {max_actions} actions (seed {seed!r})")


def play(
    game: Game, players: int, options: dict[str, str] | None, seed: str, chooser: Chooser, max_actions: int = 20_000
) -> tuple[State, int]:
    """The final state and the number of actions of one whole game."""
    state = game.new(players, options, seed)
    n = 0
    for step in steps(game, players, options, seed, chooser, max_actions):
        state = step.after
        n += 1
    return state, n


def final_outcome(game: Game, state: State) -> Outcome:
    outcome = game.outcome(state)
    if outcome is None:
        raise AssertionError(f"{game.info.id}: game ended without an outcome")
    return outcome


def default_options(game: Game) -> dict[str, Any]:
    return {opt.name: opt.default for opt in game.info.options}
