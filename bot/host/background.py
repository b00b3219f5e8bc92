"""Work done outside a request: a table woken at a given moment, and coroutines run after the current request
answered, whose outputs reach players through ``publish``, which a transport sets to its own delivery.

Without a transport (``publish`` None) both do nothing and the periodic tick (:meth:`bot.host.timers.Timers.tick`)
does the work."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.host.api import Outputs
from bot.host.health import Health
from bot.host.table import Table

log = logging.getLogger("parley.tables")

#: how long background work waits for the outputs it follows to be delivered (a transport that never says so)
AFTER_SECONDS = 120


class Background:
    """Wakes and background work. ``on_wake`` runs a table's timers (:meth:`bot.host.timers.Timers.tick_table`):
    given as a callback, since the timers themselves use the parts that schedule wakes."""

    def __init__(
        self,
        clock: Callable[[], float],
        health: Health,
        on_wake: Callable[[Table], Awaitable[Outputs | None]],
    ) -> None:
        self.clock = clock
        self.health = health
        self.on_wake = on_wake
        #: where outputs made outside a request go (set by the transport); None: nobody to tell, wait for the tick
        self.publish: Callable[[Outputs], Awaitable[None]] | None = None
        self.wakes: dict[int, list[asyncio.TimerHandle]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def wake(self, t: Table, at: float) -> None:
        """Run the table's timers (as a tick does) at clock time ``at`` rather than at the next periodic tick, and
        publish what they produce. Several wakes of one table may be pending; each runs once."""
        if self.publish is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, at - self.clock())
        handles = self.wakes.setdefault(t.id, [])

        def fire() -> None:
            if handle in handles:
                handles.remove(handle)
            if not handles and self.wakes.get(t.id) is handles:
                del self.wakes[t.id]  # one entry per table ever woken would grow for weeks
            self.later(self.on_wake(t))

        handle = loop.call_later(delay, fire)
        handles.append(handle)

    def later(self, work: Awaitable[Outputs | None], *, after: Outputs | None = None) -> None:
        """Run ``work`` in the background (after the current request has answered) and publish its outputs;
        with ``after``, not before the transport has delivered those outputs (the replay follows the result).
        Errors are logged (type only: a message may quote a secret), never raised."""
        if self.publish is None:
            if asyncio.iscoroutine(work):
                work.close()
            return
        publish = self.publish

        async def run() -> None:
            try:
                out = await work
                if after is not None and not await after.wait_delivered(AFTER_SECONDS):
                    log.warning("outputs were not marked delivered within %d s; publishing what follows them",
                                AFTER_SECONDS)
                if out is not None:
                    await publish(out)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - background work must never take the loop down
                self.health.internal_errors += 1
                log.error("background work failed: %s", type(exc).__name__)

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def idle(self, timeout: float = 120.0) -> None:
        """Wait (at most ``timeout`` s) for the background work started so far: the terminal waits for the
        replay of the game it just played before it exits."""
        tasks = list(self.tasks)
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def stop(self) -> None:
        """At close: pending wakes cancelled, background work cancelled and awaited."""
        for handles in self.wakes.values():
            for handle in handles:
                handle.cancel()
        self.wakes.clear()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
