"""Time: idle lobbies closing, half-time reminders, time-outs (the AI or the game's default move), AI seats that
still owe a move after a restart. :meth:`Timers.tick` is called periodically by the transport; a table woken
between ticks (:meth:`bot.host.background.Background.wake`) runs :meth:`Timers.tick_table`."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.host.api import Outputs
from bot.host.guild import GuildSettings
from bot.host.health import Health
from bot.host.index import TableIndex
from bot.host.lobby import LOBBY_IDLE_SECONDS
from bot.host.messages import say
from bot.host.narration import Narration
from bot.host.outputs import duration, escape_name
from bot.host.posts import Batch, lobby_post, note
from bot.host.table import Table
from bot.host.turns import MAX_AI_STEPS, Turns
from bot.infra.store import Store

log = logging.getLogger("parley.tables")

#: a player whose DMs failed is tried again on new private news at most this often
DM_RETRY_SECONDS = 10 * 60


class Timers:
    """Everything that happens because time passed. ``dm_failed`` is shared with :class:`bot.host.reading.Reading`:
    (table, seat) -> when a DM to it last failed."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        health: Health,
        index: TableIndex,
        settings: GuildSettings,
        turns: Turns,
        narration: Narration,
        dm_failed: dict[tuple[int, int], float],
        ai_takeover_level: str,
    ) -> None:
        self.store = store
        self.clock = clock
        self.health = health
        self.index = index
        self.settings = settings
        self.turns = turns
        self.narration = narration
        self.dm_failed = dm_failed
        self.ai_takeover_level = ai_takeover_level

    async def _retry_dms(self) -> None:
        """A player whose DMs failed is tried again on their next private news, at most once every
        :data:`DM_RETRY_SECONDS` (a failure on the retry marks them again, quietly; ``/hand`` retries at once)."""
        now = self.clock()
        for t in list(self.index.tables.values()):
            if t.status != "running":
                continue
            due = []
            for s in t.seats:
                if s.reachable or s.ai_level is not None or s.user_id is None:
                    continue
                # unknown since a restart: counted from now
                if now - self.dm_failed.setdefault((t.id, s.seat), now) >= DM_RETRY_SECONDS:
                    due.append(s)
            if not due:
                continue
            async with t.lock:
                for s in due:
                    s.reachable = True
                await self.store.seats.save(t.id, t.seats, now)

    async def tick(self) -> list[Outputs]:
        """Close idle lobbies, send half-time reminders, take timed-out moves, and let AI seats move that
        still owe one (after a restart). Called periodically by the transport."""
        outs: list[Outputs] = []
        try:
            await self._retry_dms()
        except Exception as exc:  # noqa: BLE001 - the timers below must run anyway
            self.health.internal_errors += 1
            log.error("DM retries failed: %s", type(exc).__name__)
        for t in list(self.index.tables.values()):
            try:
                out = await self.tick_table(t)
            except Exception as exc:  # noqa: BLE001 - one table's failure must not stop the others' timers
                self.health.internal_errors += 1
                log.error("tick failed on table %s: %s", t.id, type(exc).__name__)
                continue
            if out is not None:
                outs.append(out)
        return outs

    async def tick_table(self, t: Table) -> Outputs | None:
        """The table's timers: an idle lobby closed, AI seats moved, time-outs taken, reminders sent."""
        now = self.clock()
        if t.status == "lobby" and now - t.updated >= LOBBY_IDLE_SECONDS:
            async with t.lock:
                if t.status != "lobby":
                    return None
                await self.index.abandon(t)
                return Outputs(
                    public=[
                        lobby_post(t, edit_only=True),
                        note(t, f"The {t.game.info.title} lobby (table {t.id}) closed after 30 idle minutes."),
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
            await self.turns.run_ais(t, batch)
            settings = await self.settings.get(t.guild_id)
            for seat, d in sorted(t.deadlines.items()):
                if t.status != "running":
                    break
                if t.seats[seat].ai_level is not None:
                    continue  # an AI seat's row is its hold for people's reactions: _run_ais settles it
                if now >= d.due:
                    await self._time_out(t, seat, settings["ai_takeover"], batch)
                elif not d.reminded and now >= d.started + (d.due - d.started) / 2:
                    d.reminded = True
                    await self.store.tables.set_deadlines(t.id, list(t.deadlines.values()))
                    s = t.seats[seat]
                    left = duration(d.due - now)
                    text = say("reminder", name=escape_name(s.name), title=game.info.title, table=t.id, left=left)
                    # a reminder must arrive: a player whose DMs failed before is pinged in the channel even while
                    # their news is tried by DM again (_retry_dms)
                    if s.reachable and s.user_id is not None and (t.id, seat) not in self.dm_failed:
                        batch.dm(int(s.user_id), None, [text])
                    else:
                        batch.note(note(t, text, [int(s.user_id)] if s.user_id is not None else []))
            if batch.empty():
                return None
            return await self.narration.flush(t, batch)

    @staticmethod
    def _tick_due(t: Table, now: float) -> bool:
        """Whether a tick has work at a running table: an AI seat owes a move, or a deadline or its half-time
        reminder falls due (the conditions :meth:`tick_table` acts on)."""
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
                await self.turns.ai_action(t, seat, self.ai_takeover_level) if takeover else game.timeout_action(t.state, seat)
            )
            await self.turns.commit(t, seat, action, by_ai=True, user_id=None, batch=batch, prefix=prefix)
            prefix = ""
        await self.turns.run_ais(t, batch)
