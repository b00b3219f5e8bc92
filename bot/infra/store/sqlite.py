"""The SQLite database (aiosqlite, WAL): the default, one file, nothing to install.

One connection serves the whole process, on aiosqlite's thread; write transactions hold an asyncio lock so
statements of two tables never interleave inside one transaction. A run of statements (:meth:`Database.run`:
a move's whole commit) and a read are each one function executed on that thread: one hop from the event loop,
not one per statement, cursor and commit. The schema version is ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.infra.store.db import Database, Exec, IntegrityError, Many, Op, Read, Row, Tx
from bot.infra.store.errors import StoreError, sqlite_failure
from bot.infra.store.schema import MIGRATIONS

T = TypeVar("T")

# aiosqlite logs every statement with its parameters at DEBUG: seeds, snapshots and secret action texts.
# Logs must never hold a secret, so that logger never goes below INFO whatever PARLEY_LOG_LEVEL says.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


def sqlite_path(url: str) -> str:
    """The file a SQLite setting names: a plain path, or ``sqlite:///relative`` / ``sqlite:////absolute``."""
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://") :]
        return rest[1:] if rest.startswith("/") else rest
    return url


class SQLiteDatabase(Database):
    dialect = "sqlite"

    def __init__(self, url: str) -> None:
        """``url`` is the database file (created on first use) or ``sqlite:///file``; ``":memory:"`` works for tests."""
        super().__init__(url)
        self.path = sqlite_path(url)
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()

    # -- connection and schema -----------------------------------------------------------------------
    async def open(self, *, create: bool = True) -> None:
        """Connect (creating the file and its folder unless ``create`` is False) and migrate.
        A file that cannot be used raises :class:`StoreError` with nothing left open: aiosqlite's thread would
        otherwise keep the process alive after a failed start."""
        if self._db is not None:
            return
        on_disk = self.path != ":memory:" and not self.path.startswith("file:")
        if on_disk and Path(self.path).expanduser().is_dir():
            raise StoreError(f"{self.path} is a folder, not a SQLite database file")
        if on_disk and not create and not Path(self.path).expanduser().is_file():
            raise StoreError(f"there is no SQLite database at {self.path}")
        try:
            if on_disk:
                Path(self.path).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
            self._db = await aiosqlite.connect(self.path)
            self._db.row_factory = aiosqlite.Row
            await self._run("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives a crash of the process (the restart case); only a power cut
            # may lose the last transactions. FULL costs an fsync per move.
            await self._run("PRAGMA synchronous=NORMAL")
            await self._run("PRAGMA foreign_keys=ON")
            await self.migrate()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, sqlite3.Error | OSError):
                raise sqlite_failure(self.path, exc) from None
            raise

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def _run(self, sql: str, args: Any = ()) -> _Done:
        """Execute one statement and close its cursor at once: an open cursor keeps its statement "in
        progress", and SQLite then refuses to commit (PRAGMA journal_mode returns a row, for instance)."""
        async with self.connection.execute(sql, args) as cur:
            return _Done(cur.lastrowid, cur.rowcount)

    @property
    def connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Store.open() was not called")
        return self._db

    async def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` run on the database thread: one hop. aiosqlite runs every call this way; it offers
        no public name for handing it a function of our own."""
        db = self.connection
        return await db._execute(fn, db._conn)  # noqa: SLF001 - see the docstring

    async def run(self, ops: Sequence[Op]) -> None:
        async with self._write:
            try:
                await self._call(lambda con: _run_all(con, ops))
            except sqlite3.IntegrityError as exc:
                raise IntegrityError(str(exc)) from exc

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._write:
            try:
                yield _SQLiteTx(self)
                await self.connection.commit()
            except BaseException as exc:
                await self.connection.rollback()
                if isinstance(exc, sqlite3.IntegrityError):
                    raise IntegrityError(str(exc)) from exc
                raise

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return await self._call(lambda con: _fetch(con, sql, args))

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self) -> None:
        async with self._write:
            version = await self.schema_version()
            for i in range(version, len(MIGRATIONS)):
                script = MIGRATIONS[i].text(self.dialect)
                async with self.connection.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {i + 1};\nCOMMIT;"):
                    pass

    async def journal_mode(self) -> str:
        async with self.connection.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0])

    async def table_names(self) -> set[str]:
        rows = await self.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(r[0]) for r in rows} - {"sqlite_sequence"}


def _fetch(con: sqlite3.Connection, sql: str, args: Sequence[Any]) -> list[Row]:
    cur = con.execute(sql, tuple(args))
    try:
        return cur.fetchall()
    finally:
        cur.close()


def _run_all(con: sqlite3.Connection, ops: Sequence[Op]) -> None:
    """On the database thread: ``ops`` in one transaction, committed, or rolled back if one raises."""
    con.execute("BEGIN").close()
    try:
        _run(con, ops)
        con.commit()
    except BaseException:
        con.rollback()
        raise


def _run(con: sqlite3.Connection, ops: Sequence[Op]) -> None:
    for op in ops:
        if isinstance(op, Exec):
            con.execute(op.sql, tuple(op.args)).close()
        elif isinstance(op, Many):
            if op.rows:
                con.executemany(op.sql, op.rows).close()
        elif isinstance(op, Read):
            _run(con, op.then(_fetch(con, op.sql, op.args)))


class _SQLiteTx:
    def __init__(self, db: SQLiteDatabase) -> None:
        self.db = db

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return await self.db.fetch(sql, args)  # one connection: the transaction's own

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return (await self.db._run(sql, tuple(args))).rowcount  # noqa: SLF001 - the database's own helper

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            async with self.db.connection.executemany(sql, rows):
                pass


@dataclass(frozen=True)
class _Done:
    lastrowid: int | None
    rowcount: int
