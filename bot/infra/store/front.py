"""The store: one front over the database and a repository per kind of data.

``Store(url)`` opens the database ``url`` names (:meth:`bot.infra.store.db.Database.for_url`) and composes the
repositories, which share it: ``store.tables`` (tables, their log and deadlines), ``store.seats`` (seats,
take-overs, kicks), ``store.guilds`` (server settings, results and statistics), ``store.ratings`` (rating rows),
``store.posts`` (board posts, DMs owed) and ``store.web`` (web addresses and keys). Each write is one
transaction; a move's, which spans several repositories, is :meth:`Store.append`.

Every guarantee is the store's, whatever the backend: a log entry and its snapshot (and the deadlines, and a
finished game's results and ratings, and the DMs it owes) are one transaction; the primary key (table_id, n)
makes a double append fail with :class:`IntegrityError`; a method that writes returns only after its commit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.infra.store.db import Database, Op, Tx, redact_url
from bot.infra.store.guilds import GuildRepo, results_op
from bot.infra.store.posts import PostRepo, owe_dms_op
from bot.infra.store.ratings import RatingRepo
from bot.infra.store.rows import Change, Commit
from bot.infra.store.seats import SeatRepo
from bot.infra.store.tables import TableRepo
from bot.infra.store.web import WebRepo


class Store:
    """The database and its repositories. ``await open()`` connects and migrates; ``await close()`` at the end."""

    def __init__(self, url: str) -> None:
        self.db = Database.for_url(url)
        self.tables = TableRepo(self.db)
        self.seats = SeatRepo(self.db)
        self.guilds = GuildRepo(self.db)
        self.ratings = RatingRepo(self.db)
        self.posts = PostRepo(self.db)
        self.web = WebRepo(self.db)

    def __repr__(self) -> str:
        return f"Store({redact_url(self.url)!r})"

    @property
    def url(self) -> str:
        return self.db.url

    @property
    def dialect(self) -> str:
        return self.db.dialect

    async def append(self, c: Commit) -> list[Change]:
        """Everything one move writes (:class:`Commit`), as one transaction: on SQLite one call on the database
        thread. Returns the rating changes (none without ``c.rating``). The primary key (table_id, n) makes a
        double append fail (:class:`IntegrityError`, nothing written)."""
        changes: list[Change] = []
        ops: list[Op] = self.tables.append_ops(c)
        if c.results:
            ops.append(results_op(c.results))
        if c.rating is not None:
            if c.rater is None:
                raise ValueError("a commit with a rating needs its rater")
            ops += self.ratings.rate_ops(c.rating, c.rater, changes)
        if c.dms:
            ops.append(owe_dms_op(c.table_id, c.n, c.dms, c.now))
        await self.db.run(ops)
        self.db.changed(c.table_id)
        return changes

    # -- the database's life -------------------------------------------------------------------------
    async def open(self, *, create: bool = True) -> None:
        """Connect and migrate (:meth:`bot.infra.store.db.Database.open`)."""
        await self.db.open(create=create)

    async def close(self) -> None:
        await self.db.close()

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        return self.db.transaction()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self) -> None:
        await self.db.migrate()

    async def listen_tables(self, on_change: Callable[[int | None], None]) -> Callable[[], Awaitable[None]] | None:
        return await self.db.listen_tables(on_change)

    # -- ``parley db copy`` --------------------------------------------------------------------------
    async def table_names(self) -> set[str]:
        return await self.db.table_names()

    def rows(self, table: str, batch: int = 2000) -> AsyncIterator[list[dict[str, Any]]]:
        return self.db.rows(table, batch)

    async def count(self, table: str) -> int:
        return await self.db.count(table)

    async def after_copy(self) -> None:
        await self.db.after_copy()
