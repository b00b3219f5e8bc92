"""Which tables the host holds: every table in memory by id, each channel's lobby or running table, each channel's
last finished one; and a table's retirement when it ends. Tables lock themselves (:class:`bot.host.table.Table`'s
``lock`` loads a restored table for its first holder)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

from bot.host.table import Table
from bot.infra.store import Store
from bot.infra.workers import trim_heap

#: finished tables kept in memory, the most recently used (each channel's last one answers its buttons and
#: /rules); the others are reloaded from the store when asked for
FINISHED_KEPT = 100


class TableIndex:
    """The tables in memory and the channels they serve. Nothing here plays a game or says anything."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self.tables: dict[int, Table] = {}
        self.live: dict[int, int] = {}  # channel id -> table id (lobby or running)
        self.last: dict[int, int] = {}  # channel id -> last finished/abandoned table id (kept in memory)
        self.finished: OrderedDict[int, int] = OrderedDict()  # finished table id -> its channel, least recent first
        #: held while a table is opened, so a channel never gets two
        self.open_lock = asyncio.Lock()

    def add(self, t: Table) -> None:
        """A lobby or running table, now served in its channel."""
        self.tables[t.id] = t
        self.live[t.channel_id] = t.id

    def active(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table."""
        tid = self.live.get(channel_id)
        return None if tid is None else self.tables.get(tid)

    def shown(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table, else its last finished one if it is still in memory."""
        tid = self.live.get(channel_id, self.last.get(channel_id))
        return None if tid is None else self.tables.get(tid)

    async def recent(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table, else its last finished one, reloaded from the store (seats, no
        game state) when it is no longer in memory."""
        tid = self.live.get(channel_id, self.last.get(channel_id))
        if tid is not None and tid in self.tables:
            return self.tables[tid]
        row = await self.store.tables.last_in(channel_id)
        if row is None or row.status not in ("finished", "abandoned") or channel_id in self.live:
            return None
        t = Table.from_row(row, await self.store.seats.of(row.id))
        self.tables[t.id] = t
        self.retire(t)
        return t

    async def abandon(self, t: Table) -> None:
        """End the table early: stored as abandoned, and retired."""
        now = self.clock()
        await self.store.tables.set_status(t.id, "abandoned", now)
        t.status, t.updated = "abandoned", now
        t.deadlines.clear()
        self.retire(t)

    def retire(self, t: Table) -> None:
        """A table that ended leaves its channel free and keeps only what a finished table needs: its picker,
        undo and turn caches are dropped (they can be most of a table's memory), and it stays in memory only
        among the :data:`FINISHED_KEPT` most recently used finished tables."""
        if self.live.get(t.channel_id) == t.id:
            del self.live[t.channel_id]
        t.choices_for, t.undo_stack, t.turn_lines, t.acted, t.deadlines = None, [], [], {}, {}
        old = self.last.get(t.channel_id)
        if old is not None and old != t.id:
            self.forget(old)
        self.last[t.channel_id] = t.id
        self.finished[t.id] = t.channel_id
        self.finished.move_to_end(t.id)
        while len(self.finished) > FINISHED_KEPT:
            self.forget(next(iter(self.finished)))
        # a game's end frees its turn caches and often a whole table; glibc would keep those pages, and a bot
        # that ends thousands of games would look as if it leaked
        trim_heap()

    def forget(self, table_id: int) -> None:
        """A finished table out of memory (the store still has all of it)."""
        self.tables.pop(table_id, None)
        channel = self.finished.pop(table_id, None)
        if channel is not None and self.last.get(channel) == table_id:
            del self.last[channel]
