"""Tables shown live: each watched table's newest snapshot and its recent moves, and the server-sent event streams
of its spectators and seat pages.

A stream sends each logged move once, as a ``move`` event whose id is the move's number, then the table as it is
now (a ``table`` event; a seat page also gets a ``seat`` event). A browser that reconnects sends the last id it
got (``Last-Event-ID``) and the stream resumes after it, so a spectator misses nothing and sees nothing twice.
A watched table is refreshed when :class:`bot.transports.web.feed.Feed` says it changed: its new moves are read from the
store and turned into events once, for every spectator; a spectator whose connection fell far behind is caught up
from the store.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.infra.store import Store
from bot.transports.web.feed import Feed, Marks
from bot.transports.web.links import SeatPass
from bot.transports.web.snapshot import Snapshot, move_chunk, sse
from bot.transports.web.source import Source

log = logging.getLogger("parley.web")

#: recent moves of a watched table kept as ready events (older ones are read from the store again)
RECENT_MOVES = 256
#: seconds between keep-alive comments on an idle stream (proxies drop silent connections)
KEEPALIVE_SECONDS = 15.0
#: seconds a browser waits before reconnecting a dropped stream
RETRY_MS = 2000
#: seconds a write to one stream may wait for a slow reader before the stream is dropped
WRITE_SECONDS = 30.0


class Full(Exception):
    """A table or an address has as many live connections as it may."""


@dataclass(eq=False)
class Subscriber:
    address: str
    seat: SeatPass | None = None
    woke: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class Watch:
    """One table shown live by this process."""

    snap: Snapshot
    moves: deque[tuple[int, bytes]] = field(default_factory=lambda: deque(maxlen=RECENT_MOVES))
    subscribers: set[Subscriber] = field(default_factory=set)
    refreshing: bool = False
    again: bool = False


class Hub:
    """Every table this process shows live. ``per_table`` and ``per_address`` cap the live connections."""

    def __init__(self, store: Store, source: Source, *, per_table: int, per_address: int, poll_seconds: float) -> None:
        self.store = store
        self.source = source
        self.per_table = per_table
        self.per_address = per_address
        self.watches: dict[int, Watch] = {}
        self._addresses: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        self.feed = Feed(store, self.marks, self.changed, poll_seconds)

    async def start(self) -> None:
        await self.feed.start()

    async def close(self) -> None:
        """Every stream ends (at once, not at its next keep-alive) and the feed stops."""
        self.closing = True
        for w in self.watches.values():
            for sub in w.subscribers:
                sub.woke.set()
        await self.feed.stop()
        for task in list(self._tasks):
            task.cancel()

    def marks(self) -> Marks:
        return {tid: w.snap.mark for tid, w in self.watches.items()}

    def watched(self, table_id: int) -> Watch | None:
        return self.watches.get(table_id)

    def connections(self, table_id: int) -> int:
        w = self.watches.get(table_id)
        return len(w.subscribers) if w is not None else 0

    # -- refreshing a table ------------------------------------------------------------------------------
    def changed(self, table_id: int) -> None:
        """The table may have changed: read it again (once at a time; a change heard meanwhile reads it again)."""
        w = self.watches.get(table_id)
        if w is None:
            return
        if w.refreshing:
            w.again = True
            return
        w.refreshing = True
        task = asyncio.create_task(self._refresh(w), name=f"parley-web-refresh-{table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh(self, w: Watch) -> None:
        try:
            while True:
                w.again = False
                try:
                    await self._read(w)
                except Exception as exc:  # noqa: BLE001 - the next change (or poll) tries again
                    log.warning("refreshing table %s failed: %s", w.snap.table_id, type(exc).__name__)
                if not w.again:
                    return
        finally:
            w.refreshing = False

    async def _read(self, w: Watch) -> None:
        snap = await self.source.load(w.snap.table_id, w.snap.slug)
        if snap is None or (snap.mark == w.snap.mark and snap.seats == w.snap.seats):
            return
        if snap.n > w.snap.n:
            for entry in await self.store.tables.log_since(snap.table_id, w.snap.n):
                if entry.n <= snap.n:
                    w.moves.append((entry.n, move_chunk(entry)))
        w.snap = snap
        for sub in w.subscribers:
            sub.woke.set()

    async def _moves_after(self, w: Watch, last: int, upto: int) -> list[tuple[int, bytes]]:
        """The move events after ``last`` up to ``upto``: from the recent ones when they reach back far enough,
        else from the store."""
        if upto <= last:
            return []
        recent = [m for m in w.moves if last < m[0] <= upto]
        if recent and recent[0][0] == last + 1 and recent[-1][0] == upto:
            return recent
        return [(e.n, move_chunk(e)) for e in await self.store.tables.log_since(w.snap.table_id, last) if e.n <= upto]

    # -- subscribers --------------------------------------------------------------------------------------
    def join(self, snap: Snapshot, address: str, seat: SeatPass | None) -> tuple[Watch, Subscriber]:
        w = self.watches.get(snap.table_id)
        if w is not None and len(w.subscribers) >= self.per_table:
            raise Full("table")
        if self._addresses.get(address, 0) >= self.per_address:
            raise Full("address")
        if w is None:
            w = self.watches[snap.table_id] = Watch(snap)
            self.changed(snap.table_id)  # the snapshot may be a moment old: read the table once more
        elif (snap.n, snap.row.updated) > (w.snap.n, w.snap.row.updated):
            self.changed(snap.table_id)  # the page saw a newer table than the watch: catch up
        sub = Subscriber(address, seat)
        w.subscribers.add(sub)
        self._addresses[address] = self._addresses.get(address, 0) + 1
        return w, sub

    def leave(self, w: Watch, sub: Subscriber) -> None:
        w.subscribers.discard(sub)
        left = self._addresses.get(sub.address, 1) - 1
        if left > 0:
            self._addresses[sub.address] = left
        else:
            self._addresses.pop(sub.address, None)
        if not w.subscribers and self.watches.get(w.snap.table_id) is w:
            del self.watches[w.snap.table_id]

    # -- a stream ---------------------------------------------------------------------------------------------
    async def stream(
        self,
        request: web.Request,
        snap: Snapshot,
        since: int,
        address: str,
        seat: SeatPass | None = None,
        allowed: Callable[[Snapshot], Awaitable[bool]] | None = None,
    ) -> web.StreamResponse:
        """Serve one event stream: the moves after ``since``, the table now, then every change until the game is
        over, the client goes away, or (a seat page) ``allowed`` says its pass no longer holds. Raises
        :class:`Full` before answering when the table or the address has no room for another stream."""
        w, sub = self.join(snap, address, seat)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no"}
        )
        try:
            await response.prepare(request)
            await self._write(response, f"retry: {RETRY_MS}\n\n".encode())
            last, shown = since, None
            while not self.closing:
                now = w.snap
                if allowed is not None and not await allowed(now):
                    await self._write(response, sse("revoked", {"reason": "You no longer hold this seat."}))
                    break
                for n, chunk in await self._moves_after(w, last, now.n):
                    await self._write(response, chunk)
                    last = n
                if shown is not now:
                    await self._write(response, now.card_chunk())
                    if seat is not None:
                        await self._write(response, now.seat_chunk(seat.seat))
                    shown = now
                if now.over:
                    break
                sub.woke.clear()
                if w.snap is not now:
                    continue  # it changed while this stream was writing
                try:
                    await asyncio.wait_for(sub.woke.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await self._write(response, b": keep-alive\n\n")
                    if not await self.source.links.enabled(now.row.guild_id):
                        break  # the server turned its pages off
            return response
        except ConnectionError:  # the reader went away (a closed tab, a lost network): nothing to tell anyone
            return response
        finally:
            self.leave(w, sub)

    @staticmethod
    async def _write(response: web.StreamResponse, chunk: bytes) -> None:
        await asyncio.wait_for(response.write(chunk), WRITE_SECONDS)
