"""The PostgreSQL database (asyncpg): one database shared by every process of a cluster deployment.

``PARLEY_DB=postgresql://user[:password]@host:5432/database`` selects it; query parameters of the URL become
server settings of each connection (``?search_path=parley`` keeps Parley's tables in their own schema, which
must exist). A pool of connections serves the process: transactions of different tables run side by side (each
table's own writes are already serialised by the host's per-table lock), each committed before its method
returns. The schema version is the one row of ``parley_schema``; migrations run under a transaction-level
advisory lock, so two processes starting together migrate once.

asyncpg rather than psycopg 3: it is asyncio-native end to end (no libpq, no thread hop), speaks the binary
protocol with prepared statements cached per connection, has its own pool, and is the fastest Python driver
for the small, frequent transactions a move is.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.infra.store.db import Database, Exec, IntegrityError, Many, Op, Read, Row, Tx
from bot.infra.store.errors import CONNECT_SECONDS, StoreError, postgres_failure, url_problem
from bot.infra.store.schema import MIGRATIONS

log = logging.getLogger("parley.store")

#: any constant: the key of the advisory lock that serialises migrations across processes
MIGRATION_LOCK = 0x7061726C6579  # "parley"
POOL_SIZE = 10
#: the channel a schema's table changes are notified on: named after the schema that holds ``tables``, so schemas
#: sharing a database (the tests' ones) never hear each other, cut to PostgreSQL's 63 characters for a name
CHANNEL = (
    "SELECT left('parley_' || n.nspname, 63) FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = 'tables'::regclass"
)


@functools.lru_cache(maxsize=512)
def to_dollars(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (no query of the store has a ``?`` inside a literal)."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _count(status: str) -> int:
    """The row count of a command tag such as ``DELETE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        super().__init__(url)
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._channel: str | None = None
        self._notifying: set[asyncio.Task[None]] = set()

    async def open(self, *, create: bool = True) -> None:
        """Connect the pool and migrate (``create`` is for SQLite files: a PostgreSQL
        database always exists before Parley uses it). A server that cannot be used raises :class:`StoreError`
        in one line, the pool closed; a connection waits at most ``CONNECT_SECONDS``."""
        if self._pool is not None:
            return
        problem = url_problem(self.url)
        if problem is not None:
            raise StoreError(problem)
        try:
            # statements are prepared once per connection and reused (asyncpg's cache): a move is a few round trips
            self._pool = await asyncpg.create_pool(
                self.url, min_size=1, max_size=self.pool_size, reset=_rollback_if_open, timeout=CONNECT_SECONDS
            )
            await self.migrate()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, TimeoutError | OSError | ValueError | asyncpg.PostgresError | asyncpg.InterfaceError):
                raise postgres_failure(self.url, exc) from None
            raise

    async def close(self) -> None:
        if self._notifying:  # the last changes' notifications go out first (each takes a moment)
            await asyncio.wait(list(self._notifying), timeout=2.0)
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), CONNECT_SECONDS)
            except (TimeoutError, OSError, asyncpg.InterfaceError):
                pool.terminate()  # the server is gone: nothing to close gracefully

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("Store.open() was not called")
        return self._pool

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.pool.acquire() as con:
            try:
                async with con.transaction():
                    yield _PostgresTx(con)
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise IntegrityError(str(exc)) from exc

    async def run(self, ops: Sequence[Op]) -> None:
        async with self.pool.acquire() as con:
            try:
                async with con.transaction():
                    await _run(con, ops)
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise IntegrityError(str(exc)) from exc

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.pool.fetch(to_dollars(sql), *args))

    async def schema_version(self) -> int:
        async with self.pool.acquire() as con:
            return await self._version(con)

    @staticmethod
    async def _version(con: asyncpg.Connection) -> int:
        exists = await con.fetchval("SELECT to_regclass('parley_schema') IS NOT NULL")
        if not exists:
            return 0
        return int(await con.fetchval("SELECT COALESCE(MAX(version), 0) FROM parley_schema"))

    async def migrate(self) -> None:
        async with self.pool.acquire() as con:
            async with con.transaction():
                # held until this transaction ends: a second process waits here, then finds nothing left to do
                await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await con.execute("CREATE TABLE IF NOT EXISTS parley_schema (version INTEGER NOT NULL)")
                version = await self._version(con)
                for i in range(version, len(MIGRATIONS)):
                    await con.execute(MIGRATIONS[i].text(self.dialect))
                    await con.execute("DELETE FROM parley_schema")
                    await con.execute("INSERT INTO parley_schema (version) VALUES ($1)", i + 1)
                    log.info("database schema migrated to version %d", i + 1)

    async def table_names(self) -> set[str]:
        rows = await self.fetch(
            "SELECT c.relname FROM pg_class c WHERE c.relkind = 'r'"
            " AND c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
        )
        return {str(r[0]) for r in rows} - {"parley_schema"}

    async def after_copy(self) -> None:
        # copied tables keep their ids: new tables must be numbered after them
        await self.fetch(
            "SELECT setval(pg_get_serial_sequence('tables', 'id'), GREATEST(COALESCE(MAX(id), 0), 1),"
            " MAX(id) IS NOT NULL) FROM tables"
        )

    def changed(self, table_id: int) -> None:
        """Notify ``left('parley_' || schema, 63)`` with the table's id, after the change's commit and in a
        transaction of its own, in the background. Never inside the move's own transaction: a transaction that
        notifies holds a cluster-wide lock through its commit, so every move's commit would wait for every other
        one's (and a killed process's last commit would land later). Nothing waits for it either: a lost
        notification only delays a web page until its next safety poll."""
        task = asyncio.get_running_loop().create_task(self._notify(table_id), name="parley-notify")
        self._notifying.add(task)
        task.add_done_callback(self._notifying.discard)

    async def _notify(self, table_id: int) -> None:
        try:
            async with self.pool.acquire() as con:
                if self._channel is None:
                    self._channel = str(await con.fetchval(CHANNEL))
                # one round trip: the two statements are one implicit transaction, and a notification needs no
                # durable commit (it is gone with the connections that heard it)
                channel = self._channel.replace("'", "''")
                await con.execute(
                    f"SET LOCAL synchronous_commit TO off; SELECT pg_notify('{channel}', '{int(table_id)}')"
                )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError, RuntimeError) as exc:
            log.warning("could not tell listening web pages that table %s changed: %s", table_id, type(exc).__name__)

    async def listen_tables(self, on_change: Callable[[int | None], None]) -> Callable[[], Awaitable[None]] | None:
        """One connection of its own (a pooled one would be handed to queries) listens where :meth:`changed`
        notifies, and is made again after it is lost."""
        task = asyncio.create_task(self._listen(on_change), name="parley-listen-tables")

        async def stop() -> None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

        return stop

    async def _listen(self, on_change: Callable[[int | None], None]) -> None:
        first = True
        while True:
            con: asyncpg.Connection | None = None
            try:
                con = await asyncpg.connect(self.url, timeout=10)
                channel = await con.fetchval(CHANNEL)
                lost = asyncio.Event()
                con.add_termination_listener(lambda _con, lost=lost: lost.set())
                await con.add_listener(channel, lambda _con, _pid, _channel, payload: _heard(on_change, payload))
                if not first:
                    on_change(None)  # what changed while nobody listened is unknown
                first = False
                await lost.wait()
                log.warning("the connection listening for table changes was lost; listening again")
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                log.warning("cannot listen for table changes (%s); trying again", type(exc).__name__)
            finally:
                if con is not None and not con.is_closed():
                    with contextlib.suppress(Exception):
                        await con.close(timeout=2)
            await asyncio.sleep(1.0)


def _heard(on_change: Callable[[int | None], None], payload: str) -> None:
    try:
        table_id = int(payload)
    except ValueError:
        return
    on_change(table_id)


async def _rollback_if_open(con: asyncpg.Connection) -> None:
    """What a connection needs before it goes back to the pool: the store sets no session state, takes no
    session lock and listens to nothing, so only a transaction left open (a cancelled call) is undone. asyncpg's
    default reset would cost one more round trip per call."""
    if con.is_in_transaction():
        await con.execute("ROLLBACK")


class _PostgresTx:
    def __init__(self, con: asyncpg.Connection) -> None:
        self.con = con

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self.con.fetch(to_dollars(sql), *args))

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return _count(await self.con.execute(to_dollars(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self.con.executemany(to_dollars(sql), rows)


async def _run(con: asyncpg.Connection, ops: Sequence[Op]) -> None:
    for op in ops:
        if isinstance(op, Exec):
            await con.execute(to_dollars(op.sql), *op.args)
        elif isinstance(op, Many):
            if op.rows:
                await con.executemany(to_dollars(op.sql), op.rows)
        elif isinstance(op, Read):
            await _run(con, op.then(await _read(con, op.sql, op.args)))


async def _read(con: asyncpg.Connection, sql: str, args: Sequence[Any]) -> list[Row]:
    return list(await con.fetch(to_dollars(sql), *args))
