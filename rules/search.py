"""The ``hard`` AI: determinized Monte Carlo search from a seat's own view, guided by the ``normal`` policy.

The search never receives a real state, only ``view = game.view(state, seat)``. Each iteration

1. draws a full state the seat cannot tell from the real one (``game.sample(view, seat, rng)``: the hidden cards,
   tiles and treasure re-drawn from what the view allows, and a fresh seed, so future draws are unknown too);
2. picks one of the seat's candidate actions by UCB1 (the upper confidence bound: the mean result so far plus a
   bonus for actions tried less often), so time goes to the actions that look best without starving the others;
3. plays the game on from there with every seat at ``normal`` (each from its own view of the sampled state), up to
   a horizon, and scores the result for the seat: 1 for a win (shared on a tie), 0 for a loss, and at the horizon
   the game's evaluation (a win chance from the position) when it has one, else the seat's fair share.

``normal``'s own choice is always the first candidate; the action tried most often replaces it only when its mean
result beats it by more than a standard error, so a small budget never plays worse than a coin flip between them. Because
every iteration re-samples the hidden information, the search cannot exploit a secret: it averages over every
state the seat thinks possible (determinized, or "perfect information", Monte Carlo).

Budget: a number of iterations (deterministic for a given view, seed and budget: what tests use) and/or seconds
of wall clock (production: :data:`DEFAULT_SECONDS` a decision, with :data:`MAX_ITERATIONS` as a cap). The budget
comes from :func:`budget` (a context manager) so ``Game.ai_choose(..., level="hard", ...)`` keeps its signature.

Standard library only, like all of ``rules/``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from rules.core import Action, Game, IllegalAction, State

#: seconds a decision may take by default (tables may set another budget)
DEFAULT_SECONDS = 1.0
#: iterations a decision never exceeds, whatever its time budget
MAX_ITERATIONS = 5000
#: candidate actions searched at most: ``normal``'s and ``easy``'s choices, then others in a seeded random order
MAX_CANDIDATES = 24
#: standard errors by which an action must beat ``normal``'s choice to replace it
CONFIDENCE = 1.0
#: the UCB1 exploration constant; results are in [0, 1]
EXPLORATION = 0.7
#: actions a rollout plays before it is scored by evaluation (per game; a whole game where that is cheap)
HORIZON: dict[str, int] = {"cartagena": 40, "martinique": 40, "buccaneer": 40, "flagon": 48, "treasure_island": 24}
DEFAULT_HORIZON = 80


@dataclass(frozen=True)
class Budget:
    """How long a decision may search: ``iterations`` (None: no count limit) and ``seconds`` (None: no clock)."""

    iterations: int | None = MAX_ITERATIONS
    seconds: float | None = DEFAULT_SECONDS

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations or seconds")


_BUDGET: ContextVar[Budget | None] = ContextVar("parley_search_budget", default=None)
_DEFAULT = Budget()


@contextmanager
def budget(iterations: int | None = None, seconds: float | None = None) -> Iterator[Budget]:
    """Search with this budget inside the block: ``budget(iterations=50)`` is deterministic (tests, benchmarks);
    ``budget(seconds=2.0)`` is a time budget, capped at :data:`MAX_ITERATIONS`; neither: the default."""
    if iterations is None and seconds is None:
        chosen = _DEFAULT
    else:
        chosen = Budget(iterations if iterations is not None else MAX_ITERATIONS, seconds)
    token = _BUDGET.set(chosen)
    try:
        yield chosen
    finally:
        _BUDGET.reset(token)


def current_budget() -> Budget:
    return _BUDGET.get() or _DEFAULT


#: position evaluations: the seat's chance to win, in [0, 1], from a (sampled) state that is not over
Evaluator = Callable[[Game, State, int], float]
EVALUATORS: dict[str, Evaluator] = {}


def evaluator(game_id: str) -> Callable[[Evaluator], Evaluator]:
    def register(fn: Evaluator) -> Evaluator:
        EVALUATORS[game_id] = fn
        return fn

    return register


@dataclass
class Stats:
    """What one search did, for benchmarks and logs (never a secret: counts only)."""

    iterations: int = 0
    candidates: int = 0
    seconds: float = 0.0


#: the figures of the last search in this process (the AI worker reports them)
last_stats = Stats()


def choose(
    game: Game, view: dict[str, Any], seat: int, legal: list[Action], rnd: random.Random, *,
    limit: Budget | None = None,
) -> Action:
    """The ``hard`` choice of ``seat`` from its own ``view`` among ``legal``, with the host's randomness ``rnd``."""
    global last_stats
    started = time.perf_counter()
    limit = limit or current_budget()
    rng = random.Random(rnd.getrandbits(64))
    guide = game.ai_choose(view, seat, legal, "normal", random.Random(rng.getrandbits(64)))
    if len(legal) == 1:
        last_stats = Stats(0, 1, time.perf_counter() - started)
        return legal[0]
    candidates = _candidates(game, view, seat, legal, guide, rng)
    visits = [0] * len(candidates)
    totals = [0.0] * len(candidates)
    deadline = None if limit.seconds is None else started + limit.seconds
    horizon = HORIZON.get(game.info.id, DEFAULT_HORIZON)
    n = 0
    while limit.iterations is None or n < limit.iterations:
        if deadline is not None and n:
            # stop when one more iteration of the average length would overrun the budget, not after it did
            now = time.perf_counter()
            if now + (now - started) / n > deadline:
                break
        n += 1
        # progressive widening: a few candidates (``normal``'s first) get the first iterations, more join as the
        # budget allows, so a small budget refines ``normal`` instead of sampling every action once
        width = min(len(candidates), 2 + int(math.sqrt(n)))
        i = _ucb(visits[:width], totals[:width], n)
        sampled = game.sample(view, seat, rng)
        visits[i] += 1
        totals[i] += _playout(game, sampled, seat, candidates[i], horizon, rng, deadline)
    best = max(range(len(candidates)), key=lambda k: (visits[k], totals[k], candidates[k] == guide, -k))
    if candidates[best] != guide and not _clearly_better(visits, totals, best, 0):
        best = 0  # not enough evidence against ``normal``'s choice (always candidate 0)
    last_stats = Stats(n, len(candidates), time.perf_counter() - started)
    return candidates[best]


def _candidates(
    game: Game, view: dict[str, Any], seat: int, legal: list[Action], guide: Action, rng: random.Random
) -> list[Action]:
    first = [guide]
    try:
        easy = game.ai_choose(view, seat, legal, "easy", random.Random(rng.getrandbits(64)))
        if easy != guide and easy in legal:
            first.append(easy)
    except Exception:  # noqa: BLE001 - a game without an easy level still searches
        pass
    rest = [a for a in legal if a not in first]
    rng.shuffle(rest)
    return first + rest[: MAX_CANDIDATES - len(first)]


def _clearly_better(visits: list[int], totals: list[float], a: int, b: int) -> bool:
    """Whether candidate ``a``'s mean beats ``b``'s by more than one standard error of the difference (results
    are in [0, 1], so each mean's variance is at most 1/4 per visit)."""
    if visits[a] == 0:
        return False
    if visits[b] == 0:
        return True
    gap = totals[a] / visits[a] - totals[b] / visits[b]
    return gap > CONFIDENCE * math.sqrt(0.25 / visits[a] + 0.25 / visits[b])


def _ucb(visits: list[int], totals: list[float], n: int) -> int:
    """The candidate to try next: each once in order, then the highest upper confidence bound (ties: first)."""
    for i, v in enumerate(visits):
        if v == 0:
            return i
    log_n = math.log(n)
    return max(range(len(visits)), key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i]))


def _playout(
    game: Game, state: State, seat: int, action: Action, horizon: int, rng: random.Random,
    deadline: float | None = None,
) -> float:
    """``seat`` plays ``action`` in ``state``, then everyone plays ``normal`` for up to ``horizon`` actions (fewer
    when the time budget runs out mid-rollout: the position reached is then evaluated)."""
    players = _players(game, state)
    try:
        state, _ = game.apply(state, seat, action)
        for _ in range(horizon):
            acting = game.to_act(state)
            if not acting or (deadline is not None and time.perf_counter() > deadline):
                break
            s = acting[0]
            legal = game.legal_actions(state, s)
            if len(legal) == 1:
                choice = legal[0]
            else:
                choice = game.ai_choose(game.view(state, s), s, legal, "normal", rng)
            state, _ = game.apply(state, s, choice)
    except IllegalAction:
        return 0.0  # the sample allowed something the engine does not: count it as a loss, never crash
    outcome = game.outcome(state)
    if outcome is not None:
        if not outcome.winners:
            return 1.0 / max(1, players)
        return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    evaluate = EVALUATORS.get(game.info.id)
    return evaluate(game, state, seat) if evaluate is not None else 1.0 / max(1, players)


def _players(game: Game, state: State) -> int:
    players = state.get("players")
    if isinstance(players, int):
        return players
    if isinstance(players, list):
        return len(players)
    if isinstance(state.get("n"), int):  # Treasure Island
        return state["n"]
    return game.info.min_players


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


# -- evaluations at the horizon: a win chance from a position nobody has finished -------------------------------
@evaluator("cartagena")
def _cartagena(game: Game, state: State, seat: int) -> float:
    """Progress (sum of positions, the sloop counting 42, plus about 3.5 a card) against the best rival's."""
    def progress(s: int) -> float:
        return sum(42 if p == 37 else p for p in state["pirates"][s]) + 3.0 * min(sum(state["hands"][s]), 10)

    mine = progress(seat)
    best_other = max(progress(s) for s in range(state["players"]) if s != seat)
    return _logistic((mine - best_other) / 15.0)


@evaluator("martinique")
def _martinique(game: Game, state: State, seat: int) -> float:
    """Points on the table (the view's own score preview) against the opponent's."""
    view = game.view(state, None)
    mine = view["players"][seat]["score_preview"]["total"]
    theirs = view["players"][1 - seat]["score_preview"]["total"]
    return _logistic((mine - theirs) / 6.0)


@evaluator("buccaneer")
def _buccaneer(game: Game, state: State, seat: int) -> float:
    """Treasure at home (20 wins) plus most of what is in the hold, against the best rival's."""
    from rules.buccaneer.model import TREASURE_VALUE

    view = game.view(state, None)
    worth: dict[int, float] = {}
    for harbour in view["harbours"]:
        if harbour.get("owner") is not None:
            worth[harbour["owner"]] = float(harbour["home_value"])
    for player in view["players"]:
        hold = sum(TREASURE_VALUE.get(item, 0) for item in player["ship"]["hold"])
        worth[player["seat"]] = worth.get(player["seat"], 0.0) + 0.7 * hold
    mine = worth.get(seat, 0.0)
    best_other = max((v for s, v in worth.items() if s != seat), default=0.0)
    return _logistic((mine - best_other) / 5.0)


@evaluator("flagon")
def _flagon(game: Game, state: State, seat: int) -> float:
    """The seat's crew's score (Reputation and treasure) against the best other crew's."""
    view = game.view(state, None)
    crew = next(name for name, c in view["crews"].items() if seat in c["seats"])
    mine = view["scores"][crew]["total"]
    best_other = max(s["total"] for name, s in view["scores"].items() if name != crew)
    return _logistic((mine - best_other) / 8.0)
