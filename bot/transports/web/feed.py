"""Hearing that a table changed, whichever process changed it: PostgreSQL tells at once (``LISTEN``/``NOTIFY``,
:meth:`bot.infra.store.Store.listen_tables`), SQLite is polled (:meth:`bot.infra.store.Store.table_marks`) for the tables this
process shows live, a few times a second: a table changed when its state number, status or ``updated`` time did
(every write of the host sets ``updated`` from its clock). With notifications the same poll still runs now and then,
so a notification lost with its connection delays a change by seconds, never loses it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.infra.store import Store

log = logging.getLogger("parley.web")

#: seconds between polls without notifications (SQLite): half of it is the mean delay a change waits
POLL_SECONDS = 0.1
#: seconds between polls beside notifications (PostgreSQL): the worst delay of a lost notification
SAFETY_SECONDS = 5.0

Marks = dict[int, tuple[int, str, float]]


class Feed:
    """Calls ``changed(table_id)`` for each watched table that may have changed; ``marks()`` is what the watcher
    last saw of each table it watches (``(state number, status, updated)``)."""

    def __init__(
        self,
        store: Store,
        marks: Callable[[], Marks],
        changed: Callable[[int], None],
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.marks = marks
        self.changed = changed
        self.poll_seconds = poll_seconds
        self.listening = False
        self._stop_listening: Callable[[], Awaitable[None]] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._stop_listening = await self.store.listen_tables(self._heard)
        self.listening = self._stop_listening is not None
        self._task = asyncio.create_task(self._poll(), name="parley-web-poll")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._stop_listening is not None:
            await self._stop_listening()

    def _heard(self, table_id: int | None) -> None:
        if table_id is None:
            self.poke_all()
        elif table_id in self.marks():
            self.changed(table_id)

    def poke_all(self) -> None:
        for table_id in list(self.marks()):
            self.changed(table_id)

    async def _poll(self) -> None:
        interval = SAFETY_SECONDS if self.listening else self.poll_seconds
        while True:
            await asyncio.sleep(interval)
            seen = self.marks()
            if not seen:
                continue
            try:
                now = await self.store.tables.marks(list(seen))
            except Exception as exc:  # noqa: BLE001 - a failed poll is retried at the next tick
                log.warning("polling the watched tables failed: %s", type(exc).__name__)
                continue
            for table_id, mark in now.items():
                if seen.get(table_id) != mark:
                    self.changed(table_id)
