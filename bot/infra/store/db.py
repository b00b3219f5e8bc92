"""The database under the store: what a backend (SQLite, PostgreSQL) provides, and the statements the
repositories hand it.

A backend supplies the connection and nothing else: reads (:meth:`Database.fetch`), a run of statements as one
transaction (:meth:`Database.run`: on SQLite one call on the database thread, on PostgreSQL one transaction on
one connection), a transaction held open across awaits for the rare write that needs it
(:meth:`Database.transaction`), and how the schema version is kept. Every query is written once, in SQL that
SQLite and PostgreSQL both accept (``?`` placeholders, ``INSERT ... ON CONFLICT ... DO UPDATE`` upserts).
``Database.for_url(url)`` picks the backend: ``postgresql://…`` (or ``postgres://…``) is PostgreSQL; a path,
``sqlite:///path`` or ``":memory:"`` is SQLite.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from bot.infra.store.schema import DATA_TABLES


class IntegrityError(Exception):
    """A write broke a key or a constraint (a second log entry with the same number, for instance), on any backend."""


Row = Mapping[str, Any]  # a fetched row: by column name or by position (sqlite3.Row, asyncpg.Record)


@dataclass(frozen=True)
class Exec:
    """One statement."""

    sql: str
    args: Sequence[Any] = ()


@dataclass(frozen=True)
class Many:
    """One statement for each of ``rows`` (nothing when there are none)."""

    sql: str
    rows: Sequence[Sequence[Any]]


@dataclass(frozen=True)
class Read:
    """Rows read inside the transaction (what it wrote so far included), and what to run next given them: a
    write that depends on a read (a rating from the current one) stays in the same transaction and, on SQLite,
    in the same call on the database thread."""

    sql: str
    args: Sequence[Any]
    then: Callable[[list[Row]], Sequence[Op]]


Op = Exec | Many | Read


class Tx(Protocol):
    """The statements of one transaction held open across awaits (``?`` placeholders)."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Rows read inside the transaction (what it wrote so far included)."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def redact_url(url: str) -> str:
    """``url`` without its password, for log lines and reprs."""
    if not is_postgres_url(url):
        return url
    url = re.sub(r"([?&]password=)[^&]*", r"\1***", url)
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    userinfo, _, host = rest.rpartition("@")
    user = userinfo.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in userinfo else ''}@{host}"


class Database:
    """One database connection (SQLite) or pool (PostgreSQL)."""

    #: "sqlite" or "postgresql": which spelling of the schema's types this backend reads
    dialect: ClassVar[str] = ""

    _backends: ClassVar[dict[str, type[Database]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.dialect:
            Database._backends[cls.dialect] = cls

    @staticmethod
    def for_url(url: str) -> Database:
        """The backend ``url`` names (they register themselves: bot/infra/store/__init__.py imports them)."""
        return Database._backends["postgresql" if is_postgres_url(url) else "sqlite"](url)

    def __init__(self, url: str) -> None:
        self.url = url

    def __repr__(self) -> str:
        return f"{type(self).__name__}({redact_url(self.url)!r})"

    # -- what a backend provides ---------------------------------------------------------------------------
    async def open(self, *, create: bool = True) -> None:
        """Connect and migrate. A database that cannot be used raises :class:`bot.infra.store.errors.StoreError`
        (one line for the operator) with nothing left open; ``create=False`` refuses a SQLite file that does not
        exist yet (a typo in ``--db`` must not make an empty database)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def run(self, ops: Sequence[Op]) -> None:
        """``ops`` in order as one transaction, committed before this returns (nothing written if one raises; a
        key or constraint broken raises :class:`IntegrityError`). On SQLite one call on the database thread."""
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """``async with db.transaction() as tx:`` statements committed together when the block ends (rolled
        back if it raises), for the writes that await between statements (a rating rebuild, a copy); a key or
        constraint broken inside raises :class:`IntegrityError`."""
        raise NotImplementedError

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def migrate(self) -> None:
        """Apply the migration steps past :meth:`schema_version`, each in one transaction with its version."""
        raise NotImplementedError

    async def table_names(self) -> set[str]:
        """The tables of the schema (for ``parley db copy``)."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """Called once rows with explicit ids were copied in (PostgreSQL moves its id sequence past them)."""

    def changed(self, table_id: int) -> None:
        """A committed change of the table's row (a move, its seats, its status), for web processes that listen
        (:meth:`listen_tables`): PostgreSQL notifies them; SQLite has nobody to tell (they poll)."""

    async def listen_tables(self, on_change: Callable[[int | None], None]) -> Callable[[], Awaitable[None]] | None:
        """Hear every change of a table's row, made by any process: ``on_change(table_id)`` at each commit that
        changed it, ``on_change(None)`` when changes may have been missed (the listening connection was lost and
        made again). Returns the function that stops listening, or None when this database cannot tell (SQLite:
        web processes poll ``TableRepo.marks`` instead)."""
        return None

    # -- shared ----------------------------------------------------------------------------------------------
    async def fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, args)
        return rows[0] if rows else None

    async def rows(self, table: str, batch: int = 2000) -> AsyncIterator[list[dict[str, Any]]]:
        """Every row of ``table`` (one of :data:`DATA_TABLES`) as dicts, in batches in key order (``parley db copy``)."""
        key = DATA_TABLES[table]
        offset = 0
        while True:
            rows = await self.fetch(f"SELECT * FROM {table} ORDER BY {key} LIMIT {batch} OFFSET {offset}")
            if not rows:
                return
            offset += len(rows)
            yield [dict(r) for r in rows]

    async def count(self, table: str) -> int:
        rows = await self.fetch(f"SELECT COUNT(*) FROM {table}")
        return int(rows[0][0])


def marks(values: Sequence[Any]) -> str:
    """``?, ?, ?``: one placeholder per value of an ``IN (...)`` list."""
    return ",".join("?" for _ in values)


async def run_in(tx: Tx, ops: Sequence[Op]) -> None:
    """``ops`` inside a transaction held open (:meth:`Database.transaction`), one statement after another."""
    for op in ops:
        if isinstance(op, Exec):
            await tx.execute(op.sql, op.args)
        elif isinstance(op, Many):
            await tx.executemany(op.sql, op.rows)
        elif isinstance(op, Read):
            await run_in(tx, op.then(await tx.fetch(op.sql, op.args)))


def collect(into: list[Row]) -> Callable[[list[Row]], Sequence[Op]]:
    """A :class:`Read`'s ``then`` that keeps the rows it read in ``into`` and runs nothing more."""

    def keep(rows: list[Row]) -> Sequence[Op]:
        into.extend(rows)
        return ()

    return keep
