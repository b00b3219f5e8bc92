"""The ``hard`` AI: determinized Monte Carlo search from a seat's own view, guided by the ``normal`` policy.

The search never receives a real state, only ``view = game.view(state, seat)``. Each iteration

1. draws a full state the seat cannot tell from the real one (``game.sample(view, seat, rng)``: the hidden cards,
   tiles and treasure re-drawn from what the view allows, and a fresh seed, so future draws are unknown too);
2. picks one of the seat's candidate actions by UCB1 (the upper confidence bound: the mean result so far plus a
   bonus for actions tried less often), so time goes to the actions that look best without starving the others;
3. plays the game on from there with the game's rollout (``Game.rollout``, rules/rollout.py: by default every seat
   at ``normal`` from its own view of the sampled state; a game may play faster in place, with a cheaper policy), up
   to the game's ``search_horizon``, and scores the result for the seat: 1 for a win (shared on a tie), 0 for a loss,
   and at the horizon the game's ``evaluate`` (a win chance from the position; by default the seat's fair share).

The search knows no game: everything it needs is the contract of ``rules.core.Game``.

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
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import rollout

if TYPE_CHECKING:  # the contract dispatches ``hard`` here, so this module imports it only for type checkers
    from rules.core import Action, Game, State

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
    horizon = game.search_horizon
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
    """``seat`` plays ``action`` in the sampled ``state``, then everyone plays the game's rollout policy for up to
    ``horizon`` actions (fewer when the time budget runs out mid-rollout: the position reached is then evaluated)."""
    return rollout.play_out(game.rollout(state), seat, action, horizon, rng, time.perf_counter, deadline)
