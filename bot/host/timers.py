"""Time: idle lobbies closing, half-time reminders, time-outs (the AI or the game's default move), AI seats that
still owe a move after a restart. :meth:`TimersMixin.tick` is called periodically by the transport.

Work that falls due between ticks, or that should not hold up the request that caused it, reaches players through
``publish``, which a transport sets to its own delivery: :meth:`TimersMixin.wake` runs a table's timers at a given
moment, :meth:`TimersMixin.later` runs any coroutine after the current request and publishes what it returns.
Without a transport (``publish`` None) both do nothing and the periodic tick does the work."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.host.api import Outputs, Post
from bot.host.lobby import LOBBY_IDLE_SECONDS
from bot.host.outputs import duration, escape_name
from bot.host.play import MAX_AI_STEPS
from bot.host.posts import Batch
from bot.host.table import Table
from bot.infra.store import Store

log = logging.getLogger("parley.tables")

#: a player whose DMs failed is tried again on new private news at most this often
DM_RETRY_SECONDS = 10 * 60
#: how long background work waits for the outputs it follows to be delivered (a transport that never says so)
AFTER_SECONDS = 120


class TimersMixin:
    """Part of :class:`bot.host.tables.TableHost`: everything that happens because time passed."""

    clock: Callable[[], float]
    store: Store
    _tables: dict[int, Table]
    internal_errors: int
    ai_takeover_level: str
    #: where outputs made outside a request go (set by the transport); None: nobody to tell, wait for the tick
    publish: Callable[[Outputs], Awaitable[None]] | None
    _wakes: dict[int, list[asyncio.TimerHandle]]
    _later: set[asyncio.Task[None]]
    _dm_failed: dict[tuple[int, int], float]  # (table, seat) -> when a DM to it last failed (bot.host.reading)
    _lobby_post: Callable[..., Post]  # bot.host.lobby: the table's lobby post as it is now

    def wake(self, t: Table, at: float) -> None:
        """Run the table's timers (as a tick does) at clock time ``at`` rather than at the next periodic tick, and
        publish what they produce. Several wakes of one table may be pending; each runs once."""
        if self.publish is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, at - self.clock())
        handles = self._wakes.setdefault(t.id, [])

        def fire() -> None:
            if handle in handles:
                handles.remove(handle)
            if not handles and self._wakes.get(t.id) is handles:
                del self._wakes[t.id]  # one entry per table ever woken would grow for weeks
            self.later(self._tick_table(t))

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
                self.internal_errors += 1
                log.error("background work failed: %s", type(exc).__name__)

        task = asyncio.get_running_loop().create_task(run())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def idle(self, timeout: float = 120.0) -> None:
        """Wait (at most ``timeout`` s) for the background work started so far: the terminal waits for the
        replay of the game it just played before it exits."""
        tasks = list(self._later)
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def _stop_timers(self) -> None:
        """At close: pending wakes cancelled, background work cancelled and awaited."""
        for handles in self._wakes.values():
            for handle in handles:
                handle.cancel()
        self._wakes.clear()
        tasks = list(self._later)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _retry_dms(self) -> None:
        """A player whose DMs failed is tried again on their next private news, at most once every
        :data:`DM_RETRY_SECONDS` (a failure on the retry marks them again, quietly; ``/hand`` retries at once)."""
        now = self.clock()
        for t in list(self._tables.values()):
            if t.status != "running":
                continue
            due = []
            for s in t.seats:
                if s.reachable or s.ai_level is not None or s.user_id is None:
                    continue
                # unknown since a restart: counted from now
                if now - self._dm_failed.setdefault((t.id, s.seat), now) >= DM_RETRY_SECONDS:
                    due.append(s)
            if not due:
                continue
            async with t.lock:
                for s in due:
                    s.reachable = True
                await self.store.save_seats(t.id, t.seats, now)

    async def tick(self) -> list[Outputs]:
        """Close idle lobbies, send half-time reminders, take timed-out moves, and let AI seats move that
        still owe one (after a restart). Called periodically by the transport."""
        outs: list[Outputs] = []
        try:
            await self._retry_dms()
        except Exception as exc:  # noqa: BLE001 - the timers below must run anyway
            self.internal_errors += 1
            log.error("DM retries failed: %s", type(exc).__name__)
        for t in list(self._tables.values()):
            try:
                out = await self._tick_table(t)
            except Exception as exc:  # noqa: BLE001 - one table's failure must not stop the others' timers
                self.internal_errors += 1
                log.error("tick failed on table %s: %s", t.id, type(exc).__name__)
                continue
            if out is not None:
                outs.append(out)
        return outs

    async def _tick_table(self, t: Table) -> Outputs | None:
        now = self.clock()
        if t.status == "lobby" and now - t.updated >= LOBBY_IDLE_SECONDS:
            async with t.lock:
                if t.status != "lobby":
                    return None
                await self._abandon(t)
                return Outputs(
                    public=[
                        self._lobby_post(t, edit_only=True),
                        self._note(t, f"The {t.game.info.title} lobby (table {t.id}) closed after 30 idle minutes."),
                    ],
                    channel_id=t.channel_id,
                )
        if t.status != "running":
            return None
        if not t.loaded and not self._tick_due(t, now):
            return None  # nothing falls due: the table stays unloaded
        async with t.lock:
            if t.status != "running" or t.state is None:
                return None
            game = t.game
            batch = Batch()
            await self._run_ais(t, batch)
            settings = await self._guild_settings(t.guild_id)
            for seat, d in sorted(t.deadlines.items()):
                if t.status != "running":
                    break
                if t.seats[seat].ai_level is not None:
                    continue  # an AI seat's row is its hold for people's reactions: _run_ais settles it
                if now >= d.due:
                    await self._time_out(t, seat, settings["ai_takeover"], batch)
                elif not d.reminded and now >= d.started + (d.due - d.started) / 2:
                    d.reminded = True
                    await self.store.set_deadlines(t.id, list(t.deadlines.values()))
                    s = t.seats[seat]
                    left = duration(d.due - now)
                    text = f"⏳ {escape_name(s.name)}, it's your turn at the {game.info.title} table (table {t.id}); {left} left."
                    # a reminder must arrive: a player whose DMs failed before is pinged in the channel even while
                    # their news is tried by DM again (_retry_dms)
                    if s.reachable and s.user_id is not None and (t.id, seat) not in self._dm_failed:
                        batch.dm(int(s.user_id), None, [text])
                    else:
                        batch.note(self._note(t, text, [int(s.user_id)] if s.user_id is not None else []))
            if batch.empty():
                return None
            return await self._flush(t, batch)

    @staticmethod
    def _tick_due(t: Table, now: float) -> bool:
        """Whether a tick has work at a running table: an AI seat owes a move, or a deadline or its half-time
        reminder falls due (the conditions :meth:`_tick_table` acts on)."""
        if t.state is None:
            return False
        if any(t.seats[s].ai_level is not None for s in t.game.to_act(t.state)):
            return True
        return any(
            now >= d.due or (not d.reminded and now >= d.started + (d.due - d.started) / 2)
            for d in t.deadlines.values()
        )

    async def _time_out(self, t: Table, seat: int, takeover: bool, batch: Batch) -> None:
        """The seat's whole remaining turn is decided for it: by the AI, or the game's documented default."""
        game = t.game
        name = escape_name(t.seats[seat].name)
        how = "the AI moves for them" if takeover else "the default move is applied"
        prefix = f"⏰ {name} ran out of time; {how}. "
        for _ in range(MAX_AI_STEPS):
            if t.status != "running" or t.state is None or seat not in game.to_act(t.state):
                break
            if t.seats[seat].ai_level is not None:
                break
            action = (
                await self._ai_action(t, seat, self.ai_takeover_level) if takeover else game.timeout_action(t.state, seat)
            )
            await self._commit(t, seat, action, by_ai=True, user_id=None, batch=batch, prefix=prefix)
            prefix = ""
        await self._run_ais(t, batch)
