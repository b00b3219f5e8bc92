"""Tables as the web reads them through the store: by address, as :class:`Snapshot`\\ s, only for servers that let
their tables be shown, and seat passes checked against who holds the seat now.

The newest snapshot of each recently shown table is kept, so a table read again at the same move reuses its cards
(the tables shown live are read again whenever they change, :mod:`bot.transports.web.live`).
"""

from __future__ import annotations

from collections import OrderedDict

from bot.infra.store import Store, TableRow
from bot.transports.web.links import SeatPass, WebLinks, holds
from bot.transports.web.snapshot import Snapshot

#: tables whose newest snapshot is kept (cards and all)
KEPT = 256


class Source:
    """Reads tables for the pages; ``links`` knows their addresses and the servers' settings."""

    def __init__(self, store: Store, links: WebLinks) -> None:
        self.store = store
        self.links = links
        self._ids: OrderedDict[str, int] = OrderedDict()  # slug -> table id (an address never changes)
        self._kept: OrderedDict[int, Snapshot] = OrderedDict()

    def remember(self, snap: Snapshot) -> None:
        """Keep ``snap`` as the table's newest (unless a newer one is kept already)."""
        old = self._kept.get(snap.table_id)
        if old is not None and (old.n, old.row.updated) > (snap.n, snap.row.updated):
            return
        self._kept[snap.table_id] = snap
        self._kept.move_to_end(snap.table_id)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    def table_id(self, slug: str) -> int | None:
        """The table at an address this process has seen (None: unknown here, ask the store)."""
        return self._ids.get(slug)

    async def load(self, table_id: int, slug: str) -> Snapshot | None:
        """The table as stored now (the kept snapshot again when nothing changed since)."""
        row = await self.store.tables.get(table_id)
        if row is None:
            return None
        return await self._snapshot(row, slug)

    async def by_slug(self, slug: str) -> Snapshot | None:
        """The table at ``/t/<slug>`` as stored now if its server shows its tables, else None (an unknown address
        and a table whose server turned the pages off look the same)."""
        if not slug or len(slug) > 64:
            return None
        row = await self.store.web.table(slug)
        if row is None:
            return None
        self._ids[slug] = row.id
        self._ids.move_to_end(slug)
        while len(self._ids) > 16 * KEPT:
            self._ids.popitem(last=False)
        snap = await self._snapshot(row, slug)
        if not await self.links.enabled(snap.row.guild_id):
            return None
        return snap

    async def _snapshot(self, row: TableRow, slug: str) -> Snapshot:
        old = self._kept.get(row.id)
        seats = await self.store.seats.of(row.id)
        if old is not None and old.mark == (row.state_no, row.status, float(row.updated)) and old.seats == seats:
            return old
        snap = Snapshot.of(row, seats, slug)
        self.remember(snap)
        return snap

    async def seat_pass(self, token: str, kind: str, snap: Snapshot) -> SeatPass | None:
        """The seat pass in ``token`` if it is genuine, unexpired, for this table, and its player still holds the
        seat and has not had their links revoked since it was made."""
        signer = await self.links.signer()
        p = signer.read(token, kind, self.links.clock())
        if p is None or p.slug != snap.slug:
            return None
        return p if await self.still_holds(p, snap) else None

    async def still_holds(self, p: SeatPass, snap: Snapshot) -> bool:
        """Whether the pass's player holds its seat now and their links were not revoked since it was made."""
        if not holds(snap.seats, p):
            return False
        return await self.store.web.generation(snap.table_id, p.user_id) == p.generation
