"""AI decisions off the event loop: ``hard`` searches in their own worker processes, within a time budget.

A ``hard`` decision is a second of pure-Python search (rules/search.py). Run on the event loop it would freeze
every table for that second; in a thread it would still hold the GIL against the loop and the database thread.
So it runs in worker processes, fed by the same :class:`bot.infra.workers.WorkerPool` machinery as the pictures
(a worker that dies is replaced, its job retried once; a job past its time limit has its worker killed).

It is a pool of its own, not the render pool's: a render worker busy searching for a second would hold up every
board post queued behind it, and pictures must stay fast. The AI pool's queue is a priority queue: decisions for
tables where a person sits go first, so an AI-only table (``parley simulate`` style, or a server's demo table)
waits behind them and never starves a human table.

What crosses to the worker is only what the seat may know: the game id, the seat's own view, its legal actions,
the level, the AI seed of this decision and the budget. Never a state. If the worker fails, dies or overruns its
budget by far, the table does not wait: the decision is taken by ``normal`` in this process (milliseconds), and
the failure is logged with its kind only (no view, no action: they may hold a seat's secrets).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import random
from collections.abc import Callable
from typing import Any

from bot.infra.workers import WorkerPool
from rules import registry, search

log = logging.getLogger("parley.ai")

#: levels that search, and so run in a worker process; the others take milliseconds and run where they are asked
SEARCHING_LEVELS = frozenset({"hard"})
#: the level a failed search falls back to
FALLBACK_LEVEL = "normal"
#: priorities in the pool's queue: lower goes first
HUMAN_TABLE, AI_ONLY_TABLE = 0, 1
#: an AI worker past this resident size after a decision is replaced by a fresh one (the games' own capped
#: caches, Treasure Island's geometry above all, fill up over many searches)
RECYCLE_BYTES = 400 * 2**20
#: the think time a table may give a searching AI seat, in seconds
MIN_SECONDS, MAX_SECONDS = 0.2, 10.0


def seat_level(level: str, seconds: float | None = None) -> str:
    """How a seat stores its AI: the level, and for a searching level with its own think time ``level:seconds``
    (``hard:3``), so a table's budget survives restarts in the seat row like the level itself."""
    if seconds is None or level not in SEARCHING_LEVELS:
        return level
    return f"{level}:{seconds:g}"


def split_level(stored: str) -> tuple[str, float | None]:
    """(level, think time or None for the host's default) of a seat's stored AI level."""
    level, _, seconds = stored.partition(":")
    try:
        return level, (min(MAX_SECONDS, max(MIN_SECONDS, float(seconds))) if seconds else None)
    except ValueError:
        return level, None


def decide(
    game_id: str,
    view: dict[str, Any],
    seat: int,
    legal: list[str],
    level: str,
    seed: str,
    seconds: float | None,
    iterations: int | None,
) -> str:
    """One decision, in whatever process runs it: the game's AI from the seat's own view, with this budget."""
    game = registry.get(game_id)
    with search.budget(iterations=iterations, seconds=seconds):
        return game.ai_choose(view, seat, list(legal), level, random.Random(seed))


def _boot() -> None:
    """Warm a new worker: import every game and the search, so the first decision pays no import."""
    registry.all_games()


class AIPool:
    """``processes`` AI worker processes (0: searches run in a thread of this process, for tests and tools).

    ``seconds`` is the default time budget of a decision and ``iterations`` an optional fixed iteration count
    (deterministic: tests); a call may pass its own ``seconds`` (a table's setting)."""

    def __init__(self, processes: int = 1, *, seconds: float = search.DEFAULT_SECONDS,
                 iterations: int | None = None) -> None:
        self.processes = processes
        self.seconds = seconds
        self.iterations = iterations
        self.pool = (
            WorkerPool(processes, name="parley-ai", boot=_boot, recycle_bytes=RECYCLE_BYTES) if processes > 0 else None
        )
        #: what a worker runs for a searching decision (a test swaps in one that crashes its process)
        self.job: Callable[..., str] = decide
        #: decisions that fell back to ``normal`` because their search failed
        self.fallbacks = 0

    def _budget(self, seconds: float | None) -> tuple[float | None, int | None]:
        if self.iterations is not None:
            return None, self.iterations
        return (seconds if seconds is not None else self.seconds), None

    def _patience(self, seconds: float | None) -> float:
        """How long a table waits for a search before deciding with ``normal``: the budget, the hop and a worker
        busy with one other decision (at most twice the budget), then a margin for a loaded machine."""
        if seconds is None:
            return 120.0  # a fixed iteration count (tests, benchmarks): as long as the machine needs
        return 3 * seconds + 5.0

    async def choose(
        self, game_id: str, view: dict[str, Any], seat: int, legal: list[str], level: str, seed: str, *,
        seconds: float | None = None, priority: int = HUMAN_TABLE,
    ) -> str:
        """The AI's action; never raises for a failed search (it falls back to ``normal``)."""
        if level not in SEARCHING_LEVELS or len(legal) == 1:
            return decide(game_id, view, seat, legal, level, seed, None, None)
        secs, iterations = self._budget(seconds)
        args = (game_id, view, seat, legal, level, seed, secs, iterations)
        try:
            if self.pool is None:
                action = await asyncio.wait_for(asyncio.to_thread(self.job, *args), self._patience(secs))
            else:
                future = self.pool.submit(self.job, *args, priority=priority, timeout=self._patience(secs))
                action = await asyncio.wait_for(asyncio.wrap_future(future), self._patience(secs))
        except Exception as exc:  # noqa: BLE001 - a search that failed in any way must not stall the table
            return self._fallback(game_id, view, seat, legal, seed, exc)
        return action

    def choose_sync(
        self, game_id: str, view: dict[str, Any], seat: int, legal: list[str], level: str, seed: str,
        seconds: float | None = None, priority: int = HUMAN_TABLE,
    ) -> str:
        """:meth:`choose` for callers without an event loop (``parley simulate``, benchmarks)."""
        if level not in SEARCHING_LEVELS or len(legal) == 1:
            return decide(game_id, view, seat, legal, level, seed, None, None)
        secs, iterations = self._budget(seconds)
        args = (game_id, view, seat, legal, level, seed, secs, iterations)
        try:
            if self.pool is None:
                return self.job(*args)
            return self.pool.submit(self.job, *args, priority=priority, timeout=self._patience(secs)).result(
                self._patience(secs)
            )
        except (Exception, concurrent.futures.TimeoutError) as exc:  # noqa: BLE001 - see choose
            return self._fallback(game_id, view, seat, legal, seed, exc)

    def _fallback(
        self, game_id: str, view: dict[str, Any], seat: int, legal: list[str], seed: str, exc: BaseException
    ) -> str:
        self.fallbacks += 1
        log.error("a hard AI decision for %s failed (%s); %s decides instead", game_id, type(exc).__name__,
                  FALLBACK_LEVEL)
        return decide(game_id, view, seat, legal, FALLBACK_LEVEL, seed, None, None)

    def start(self) -> None:
        """Start the workers in the background, so the first ``hard`` decision does not wait for one to boot."""
        if self.pool is not None:
            self.pool.start()

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
