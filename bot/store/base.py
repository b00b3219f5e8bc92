"""The store contract: tables, seats, the append-only action log, state snapshots, deadlines, per-server
settings, per-player results and board posts, with one implementation per database.

:class:`Store` holds every query, written once in SQL that SQLite and PostgreSQL both accept (``?``
placeholders, ``INSERT ... ON CONFLICT ... DO UPDATE`` upserts). A backend supplies only the connection: reads
(:meth:`Store._fetch`), a transaction (:meth:`Store.transaction`, committed when the block ends, rolled back if
it raises) and how a migration step and the schema version are stored. ``Store(url)`` picks the backend:
``postgresql://…`` (or ``postgres://…``) is :class:`bot.store.postgres.PostgresStore`; a path,
``sqlite:///path`` or ``":memory:"`` is :class:`bot.store.sqlite.SQLiteStore`.

Every guarantee is the contract's, whatever the backend: a log entry and its snapshot (and the deadlines, and a
finished game's results) are one transaction; the primary key (table_id, n) makes a double append fail with
:class:`IntegrityError`; a method that writes returns only after its commit.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from bot import ratings as R
from rules import registry
from rules.core import IllegalAction


class IntegrityError(Exception):
    """A write broke a key or a constraint (a second log entry with the same number, for instance), on any backend."""


@dataclass(frozen=True)
class Step:
    """One migration step: ``sql`` for every backend, or ``postgresql`` where PostgreSQL needs its own text
    (64-bit ids as BIGINT, REAL as DOUBLE PRECISION, identity columns). Several statements may be given, separated
    by semicolons; a step runs in one transaction with the new schema version."""

    sql: str
    postgresql: str | None = None

    def text(self, dialect: str) -> str:
        return self.postgresql if dialect == "postgresql" and self.postgresql is not None else self.sql


#: migration 7's tables, the same text for both databases (BIGINT and DOUBLE PRECISION read as INTEGER and REAL in
#: SQLite)
WEB_TABLES = """
    CREATE TABLE web_links (
        table_id BIGINT PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE web_keys (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE web_revoked (
        table_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        generation INTEGER NOT NULL,
        PRIMARY KEY (table_id, user_id)
    );
    ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER NOT NULL DEFAULT 1;
    """

# Each entry moves the schema from version i to i + 1. Never edit an entry once released: append a new one.
MIGRATIONS: tuple[Step, ...] = (
    Step(
        """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game_id TEXT NOT NULL,
        status TEXT NOT NULL,
        host_id INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        ai_seed TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        state_no INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX tables_channel ON tables (channel_id, status);
    CREATE TABLE seats (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        ai_level TEXT,
        vacated INTEGER NOT NULL DEFAULT 0,
        reachable INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        n INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        action TEXT,
        by_ai INTEGER NOT NULL DEFAULT 0,
        user_id INTEGER,
        public TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE deadlines (
        table_id INTEGER NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        started REAL NOT NULL,
        due REAL NOT NULL,
        reminded INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        host_role_id INTEGER,
        anyone_can_open INTEGER NOT NULL DEFAULT 0,
        turn_limit_seconds INTEGER NOT NULL DEFAULT 86400,
        ai_takeover INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE results (
        table_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        seat INTEGER NOT NULL,
        won INTEGER NOT NULL,
        score REAL,
        finished REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX results_user ON results (user_id);
    CREATE INDEX results_game ON results (guild_id, game_id);
    """,
        # Discord ids are 64-bit (BIGINT; PostgreSQL's INTEGER is 32-bit) and PostgreSQL's REAL is a 4-byte float
        postgresql="""
    CREATE TABLE tables (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game_id TEXT NOT NULL,
        status TEXT NOT NULL,
        host_id BIGINT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        ai_seed TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        state_no INTEGER NOT NULL DEFAULT 0,
        snapshot TEXT,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX tables_channel ON tables (channel_id, status);
    CREATE TABLE seats (
        table_id BIGINT NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        ai_level TEXT,
        vacated INTEGER NOT NULL DEFAULT 0,
        reachable INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE actions (
        table_id BIGINT NOT NULL REFERENCES tables (id),
        n INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        action TEXT,
        by_ai INTEGER NOT NULL DEFAULT 0,
        user_id BIGINT,
        public TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE deadlines (
        table_id BIGINT NOT NULL REFERENCES tables (id),
        seat INTEGER NOT NULL,
        started DOUBLE PRECISION NOT NULL,
        due DOUBLE PRECISION NOT NULL,
        reminded INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        host_role_id BIGINT,
        anyone_can_open INTEGER NOT NULL DEFAULT 0,
        turn_limit_seconds INTEGER NOT NULL DEFAULT 86400,
        ai_takeover INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE results (
        table_id BIGINT NOT NULL,
        guild_id BIGINT NOT NULL,
        game_id TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        seat INTEGER NOT NULL,
        won INTEGER NOT NULL,
        score DOUBLE PRECISION,
        finished DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX results_user ON results (user_id);
    CREATE INDEX results_game ON results (guild_id, game_id);
    """,
    ),
    # 2: the channel message that shows a table's current board, so a restarted bot edits it in place
    Step(
        """
    CREATE TABLE board_posts (
        table_id INTEGER PRIMARY KEY,
        board_key TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL
    );
    """,
        postgresql="""
    CREATE TABLE board_posts (
        table_id BIGINT PRIMARY KEY,
        board_key TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL
    );
    """,
    ),
    # 3: start-up reads only the lobby and running tables (a handful among thousands of finished ones)
    Step("CREATE INDEX tables_status ON tables (status);"),
    # 4: the state number the board post shows, so a restart can tell that a crash lost the newest board
    Step("ALTER TABLE board_posts ADD COLUMN state_no INTEGER;"),
    # 5: skill ratings (bot/ratings.py): one per server, game and player (a user id, or "ai:<level>"); each
    # rated seat's change, which is also what the end-of-game line shows; and a marker that the games finished
    # before this step are still to be rated (done once, by Store.open, in one transaction). BIGINT and DOUBLE
    # PRECISION are understood by both databases (SQLite reads them as INTEGER and REAL), so one text serves.
    Step(
        """
    CREATE TABLE ratings (
        guild_id BIGINT NOT NULL,
        game_id TEXT NOT NULL,
        player TEXT NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game_id, player)
    );
    CREATE INDEX ratings_user ON ratings (user_id);
    CREATE TABLE rating_changes (
        table_id BIGINT NOT NULL,
        seat INTEGER NOT NULL,
        guild_id BIGINT NOT NULL,
        game_id TEXT NOT NULL,
        player TEXT NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        team INTEGER NOT NULL,
        place INTEGER NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu_after DOUBLE PRECISION NOT NULL,
        sigma_after DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX rating_changes_user ON rating_changes (user_id);
    CREATE TABLE rating_backfill (pending INTEGER NOT NULL);
    INSERT INTO rating_backfill (pending) VALUES (1);
    """
    ),
    # 6: DMs handed to the transport and not yet reported sent, so a restart sends the ones a crash lost, each once
    # (bot/restore.py). One per user, table and state number: a second one of the same moment is not kept.
    Step(
        """
    CREATE TABLE dms_owed (
        table_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        state_no INTEGER NOT NULL,
        text TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, user_id, state_no)
    );
    """
    ),
    # 7: tables on the web (bot/web/). An unguessable address per table (never its sequential id), made on first
    # use; the key that signs seat links, made once and shared by every process of a cluster; how many times a
    # player's seat links were revoked (they left or were kicked: a link made before is refused); and the setting
    # that turns the pages off. On PostgreSQL a trigger tells listening web processes at once whenever a table's row
    # changes (a move, a seat, its status), on a channel named after the schema, so that schemas sharing a database
    # never hear each other; on SQLite web processes poll the tables they watch.
    Step(
        WEB_TABLES,
        postgresql=WEB_TABLES
        + """
    CREATE FUNCTION parley_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify(left('parley_' || TG_TABLE_SCHEMA, 63), NEW.id::text);
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER parley_table_changed AFTER UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION parley_table_changed();
    """,
    ),
)

#: the tables ``parley db copy`` copies, parents first, each with its key (the order rows are read in); a
#: migration that adds a table appends it here (not rating_backfill: the target's own marker decides, and
#: rating the copied games again gives the same numbers)
DATA_TABLES: dict[str, str] = {
    "tables": "id",
    "seats": "table_id, seat",
    "actions": "table_id, n",
    "deadlines": "table_id, seat",
    "guild_settings": "guild_id",
    "results": "table_id, seat",
    "board_posts": "table_id",
    "ratings": "guild_id, game_id, player",
    "rating_changes": "table_id, seat",
    "dms_owed": "table_id, user_id, state_no",
    "web_links": "table_id",
    "web_keys": "name",
    "web_revoked": "table_id, user_id",
}

RECORD_RESULTS = (
    "INSERT INTO results (table_id, guild_id, game_id, user_id, name, seat, won, score, finished)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, seat) DO UPDATE SET guild_id = excluded.guild_id, game_id = excluded.game_id,"
    " user_id = excluded.user_id, name = excluded.name, won = excluded.won, score = excluded.score,"
    " finished = excluded.finished"
)
#: finished tables whose snapshots a rebuild reads at once
RATING_BATCH = 200
NEW_RATING = (
    "INSERT INTO ratings (guild_id, game_id, player, user_id, name, mu, sigma, games, updated)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, game_id, player) DO NOTHING"
)
SAVE_RATING = (
    "UPDATE ratings SET user_id = ?, name = ?, mu = ?, sigma = ?, games = ?, updated = ?"
    " WHERE guild_id = ? AND game_id = ? AND player = ?"
)
INSERT_RATING_CHANGE = (
    "INSERT INTO rating_changes (table_id, seat, guild_id, game_id, player, user_id, name, team, place,"
    " mu_before, sigma_before, mu_after, sigma_after, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_SEATS = (
    "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
INSERT_DEADLINES = "INSERT INTO deadlines (table_id, seat, started, due, reminded) VALUES (?, ?, ?, ?, ?)"
OWE_DM = (
    "INSERT INTO dms_owed (table_id, user_id, state_no, text, created) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, user_id, state_no) DO NOTHING"
)

DEFAULT_SETTINGS: dict[str, Any] = {
    "host_role_id": None,
    "anyone_can_open": False,
    "turn_limit_seconds": 86400,
    "ai_takeover": True,
    "web_pages": True,
}


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    ai_level: str | None
    vacated: bool = False
    reachable: bool = True


@dataclass
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: str
    ai_seed: str
    players: int
    state_no: int
    snapshot: dict[str, Any] | None
    created: float
    updated: float


@dataclass
class LogRow:
    n: int
    kind: str  # "action" | "undo"
    seat: int | None
    action: str | None
    by_ai: bool
    user_id: int | None
    public: list[str]
    at: float


@dataclass
class DeadlineRow:
    table_id: int
    seat: int
    started: float
    due: float
    reminded: bool


Row = Mapping[str, Any]  # a fetched row: by column name or by position (aiosqlite.Row, asyncpg.Record)


class Tx(Protocol):
    """The statements of one transaction (``?`` placeholders)."""

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Rows read inside the transaction (what it wrote so far included)."""
        ...

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def insert(self, sql: str, args: Sequence[Any]) -> int:
        """Run one INSERT into a table with an ``id`` key; the new row's id."""
        ...


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


class Store:
    """The database. ``Store(url)`` builds the backend ``url`` names; ``await open()`` connects and migrates;
    ``await close()`` at the end."""

    #: "sqlite" or "postgresql": which text of a migration :class:`Step` this backend runs
    dialect: ClassVar[str] = ""

    _backends: ClassVar[dict[str, type[Store]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.dialect:
            Store._backends[cls.dialect] = cls

    def __new__(cls, url: str, *args: Any, **kwargs: Any) -> Store:
        if cls is Store:  # the backends register themselves (bot/store/__init__.py imports them)
            cls = Store._backends["postgresql" if is_postgres_url(url) else "sqlite"]
        return super().__new__(cls)

    def __init__(self, url: str) -> None:
        self.url = url

    def __repr__(self) -> str:
        return f"{type(self).__name__}({redact_url(self.url)!r})"

    # -- what a backend provides ---------------------------------------------------------------------------
    async def open(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """``async with store.transaction() as tx:`` statements committed together when the block ends (rolled
        back if it raises); a key or constraint broken inside raises :class:`IntegrityError`."""
        raise NotImplementedError

    async def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def migrate(self) -> None:
        """Apply the :data:`MIGRATIONS` steps past :meth:`schema_version`, each in one transaction with its version."""
        raise NotImplementedError

    async def table_names(self) -> set[str]:
        """The tables of the schema (for ``parley db copy``)."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """Called once rows with explicit ids were copied in (PostgreSQL moves its id sequence past them)."""

    async def listen_tables(self, on_change: Callable[[int | None], None]) -> Callable[[], Awaitable[None]] | None:
        """Hear every change of a table's row, made by any process: ``on_change(table_id)`` at each commit that
        changed it, ``on_change(None)`` when changes may have been missed (the listening connection was lost and
        made again). Returns the function that stops listening, or None when this database cannot tell (SQLite:
        web processes poll :meth:`table_marks` instead)."""
        return None

    async def _fetchone(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        rows = await self._fetch(sql, args)
        return rows[0] if rows else None

    async def rows(self, table: str, batch: int = 2000) -> AsyncIterator[list[dict[str, Any]]]:
        """Every row of ``table`` (one of :data:`DATA_TABLES`) as dicts, in batches in key order (``parley db copy``)."""
        key = DATA_TABLES[table]
        offset = 0
        while True:
            rows = await self._fetch(f"SELECT * FROM {table} ORDER BY {key} LIMIT {batch} OFFSET {offset}")
            if not rows:
                return
            offset += len(rows)
            yield [dict(r) for r in rows]

    async def count(self, table: str) -> int:
        rows = await self._fetch(f"SELECT COUNT(*) FROM {table}")
        return int(rows[0][0])

    # -- tables --------------------------------------------------------------------------------------
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game_id: str,
        host_id: int,
        options: dict[str, str],
        seed: str,
        ai_seed: str,
        now: float,
        seats: Sequence[SeatRow] = (),
    ) -> int:
        """A new lobby and its first seats in one transaction, so a crash never leaves a lobby without its opener."""
        async with self.transaction() as tx:
            table_id = await tx.insert(
                "INSERT INTO tables (guild_id, channel_id, game_id, status, host_id, options, seed, ai_seed,"
                " created, updated) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game_id, host_id, json.dumps(options), seed, ai_seed, float(now), float(now)),
            )
            await tx.executemany(INSERT_SEATS, _seat_args(table_id, seats))
            return table_id

    async def set_status(self, table_id: int, status: str, now: float) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE tables SET status = ?, updated = ? WHERE id = ?", (status, float(now), table_id))
            if status in ("finished", "abandoned"):
                await tx.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))

    async def set_host(self, table_id: int, host_id: int, now: float) -> None:
        """The table's host handed on (its host left)."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE tables SET host_id = ?, updated = ? WHERE id = ?", (host_id, float(now), table_id))

    async def touch(self, table_id: int, now: float) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE tables SET updated = ? WHERE id = ?", (float(now), table_id))

    async def save_seats(self, table_id: int, seats: list[SeatRow], now: float) -> None:
        """Replace the seat list of a table (lobby edits, take-overs)."""
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await tx.executemany(INSERT_SEATS, _seat_args(table_id, seats))
            await tx.execute("UPDATE tables SET updated = ? WHERE id = ?", (float(now), table_id))

    async def begin_game(self, table_id: int, seats: list[SeatRow], snapshot: dict[str, Any], now: float) -> None:
        """Lobby → running in one transaction: the final seats, the player count and the first snapshot."""
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await tx.executemany(INSERT_SEATS, _seat_args(table_id, seats))
            await tx.execute(
                "UPDATE tables SET status = 'running', players = ?, state_no = 0, snapshot = ?, updated = ?"
                " WHERE id = ?",
                (len(seats), _dumps(snapshot), float(now), table_id),
            )

    async def append(
        self,
        table_id: int,
        *,
        n: int,
        kind: str,
        seat: int | None,
        action: str | None,
        by_ai: bool,
        user_id: int | None,
        public: list[str],
        snapshot: dict[str, Any],
        now: float,
        deadlines: list[DeadlineRow] | None = None,
        finished: bool = False,
        results: list[dict[str, Any]] | None = None,
        rating: R.RatedGame | None = None,
        dms: list[tuple[int, str]] | None = None,
    ) -> list[R.Change]:
        """Append log entry ``n`` (state number n after it) with the new snapshot, atomically.

        ``deadlines`` (when given) replaces the table's deadlines in the same transaction, so a restart never
        sees a move without the timers it armed; so are the ``results`` of the game-ending move (rows as for
        :meth:`record_results`) and its ``rating`` update, so a crash never leaves a finished game out of the
        statistics or the ratings; so are the private news ``dms`` (``(user_id, text)``, owed until sent as
        :meth:`owe_dms` remembers them), so a crash before they go out cannot lose them. Returns the rating changes (none without
        ``rating``). The primary key (table_id, n) makes a double append fail (:class:`IntegrityError`, nothing
        written).
        """
        changes: list[R.Change] = []
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO actions (table_id, n, kind, seat, action, by_ai, user_id, public, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, n, kind, seat, action, int(by_ai), user_id, json.dumps(public), float(now)),
            )
            await tx.execute(
                "UPDATE tables SET state_no = ?, snapshot = ?, updated = ?, status = ? WHERE id = ?",
                (n, _dumps(snapshot), float(now), "finished" if finished else "running", table_id),
            )
            if deadlines is not None or finished:
                await tx.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
                await tx.executemany(INSERT_DEADLINES, _deadline_args(table_id, deadlines or []))
            if results:
                await tx.executemany(RECORD_RESULTS, _result_args(results))
            if rating is not None:
                changes = await self._rate(tx, rating)
            if dms:
                await tx.executemany(OWE_DM, [(table_id, user, n, text, float(now)) for user, text in dms])
        return changes

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else _table(row)

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ",".join("?" for _ in statuses)
        rows = await self._fetch(f"SELECT * FROM tables WHERE status IN ({marks}) ORDER BY id", statuses)
        return [_table(r) for r in rows]

    async def last_table_in(self, channel_id: int) -> TableRow | None:
        row = await self._fetchone("SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return None if row is None else _table(row)

    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self._fetch("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_seat(r) for r in rows]

    async def seats_of_tables_with_status(self, *statuses: str) -> dict[int, list[SeatRow]]:
        """The seats of every table with one of ``statuses``, by table id, in one query (start-up)."""
        marks = ",".join("?" for _ in statuses)
        rows = await self._fetch(
            f"SELECT seats.* FROM seats JOIN tables ON tables.id = seats.table_id WHERE tables.status IN ({marks})"
            " ORDER BY seats.table_id, seats.seat",
            statuses,
        )
        seats: dict[int, list[SeatRow]] = {}
        for r in rows:
            seats.setdefault(int(r["table_id"]), []).append(_seat(r))
        return seats

    async def log(self, table_id: int) -> list[LogRow]:
        rows = await self._fetch("SELECT * FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
        return [_log_row(r) for r in rows]

    async def log_since(self, table_id: int, after: int, limit: int | None = None) -> list[LogRow]:
        """The log entries numbered above ``after``, oldest first (at most ``limit``: the oldest of them)."""
        cap = f" LIMIT {int(limit)}" if limit is not None else ""
        rows = await self._fetch(
            f"SELECT * FROM actions WHERE table_id = ? AND n > ? ORDER BY n{cap}", (table_id, int(after))
        )
        return [_log_row(r) for r in rows]

    # -- deadlines -----------------------------------------------------------------------------------
    async def deadlines(self, table_id: int | None = None) -> list[DeadlineRow]:
        sql = "SELECT * FROM deadlines" + (" WHERE table_id = ?" if table_id is not None else "")
        args: tuple[Any, ...] = (table_id,) if table_id is not None else ()
        rows = await self._fetch(sql + " ORDER BY table_id, seat", args)
        return [DeadlineRow(r["table_id"], r["seat"], r["started"], r["due"], bool(r["reminded"])) for r in rows]

    async def set_deadlines(self, table_id: int, deadlines: list[DeadlineRow]) -> None:
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            await tx.executemany(INSERT_DEADLINES, _deadline_args(table_id, deadlines))

    # -- board posts -------------------------------------------------------------------------------------
    async def board_post(self, table_id: int) -> tuple[str, int, int] | None:
        """``(board_key, channel_id, message_id)`` of the table's current board post, if a transport saved one."""
        row = await self._fetchone(
            "SELECT board_key, channel_id, message_id FROM board_posts WHERE table_id = ?", (table_id,)
        )
        return None if row is None else (row["board_key"], int(row["channel_id"]), int(row["message_id"]))

    async def save_board_post(
        self, table_id: int, board_key: str, channel_id: int, message_id: int, state_no: int | None = None
    ) -> None:
        """Remember the message showing the table's board and the state number it shows (after a send or an edit)."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO board_posts (table_id, board_key, channel_id, message_id, state_no)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET board_key = excluded.board_key,"
                " channel_id = excluded.channel_id, message_id = excluded.message_id, state_no = excluded.state_no",
                (table_id, board_key, channel_id, message_id, state_no),
            )

    async def shown_states(self) -> dict[int, int]:
        """``{table_id: state number its saved board post shows}`` for the lobby and running tables."""
        rows = await self._fetch(
            "SELECT b.table_id, b.state_no FROM board_posts b JOIN tables t ON t.id = b.table_id"
            " WHERE t.status IN ('lobby', 'running') AND b.state_no IS NOT NULL"
        )
        return {int(r["table_id"]): int(r["state_no"]) for r in rows}

    # -- DMs owed ------------------------------------------------------------------------------------------
    async def owe_dms(self, rows: list[tuple[int, int, int, str]], now: float) -> None:
        """Remember DMs about to be sent: ``(table_id, user_id, state_no, text)`` each."""
        if not rows:
            return
        async with self.transaction() as tx:
            await tx.executemany(OWE_DM, [(*row, float(now)) for row in rows])

    async def dm_sent(self, table_id: int, user_id: int, state_no: int) -> None:
        """The user's DMs of that table up to ``state_no`` went out (or were refused for good): no longer owed."""
        async with self.transaction() as tx:
            await tx.execute(
                "DELETE FROM dms_owed WHERE table_id = ? AND user_id = ? AND state_no <= ?",
                (table_id, user_id, state_no),
            )

    async def dms_owed(self) -> list[tuple[int, int, int, str]]:
        """Every DM still owed, oldest first: ``(table_id, user_id, state_no, text)``."""
        rows = await self._fetch(
            "SELECT table_id, user_id, state_no, text FROM dms_owed ORDER BY created, table_id, state_no"
        )
        return [(int(r["table_id"]), int(r["user_id"]), int(r["state_no"]), str(r["text"])) for r in rows]

    # -- the web (bot/web/) ------------------------------------------------------------------------------
    async def web_slug(self, table_id: int, fresh: str, now: float) -> str:
        """The table's address on the web, ``fresh`` (a random slug) if it has none yet; when two processes make one
        at once, both get the one stored first."""
        row = await self._fetchone("SELECT slug FROM web_links WHERE table_id = ?", (table_id,))
        if row is not None:
            return str(row["slug"])
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO web_links (table_id, slug, created) VALUES (?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
                (table_id, fresh, float(now)),
            )
            rows = await tx.fetch("SELECT slug FROM web_links WHERE table_id = ?", (table_id,))
        return str(rows[0]["slug"])

    async def table_by_slug(self, slug: str) -> TableRow | None:
        """The table at that web address, if any."""
        row = await self._fetchone(
            "SELECT t.* FROM web_links w JOIN tables t ON t.id = w.table_id WHERE w.slug = ?", (slug,)
        )
        return None if row is None else _table(row)

    async def table_marks(self, table_ids: Sequence[int]) -> dict[int, tuple[int, str, float]]:
        """``{table_id: (state number, status, updated)}``: what changes whenever a table does (a move, a seat, its
        status), read without the snapshot, for web processes that poll the tables they show live."""
        if not table_ids:
            return {}
        marks = ",".join("?" for _ in table_ids)
        rows = await self._fetch(
            f"SELECT id, state_no, status, updated FROM tables WHERE id IN ({marks})", [int(i) for i in table_ids]
        )
        return {int(r["id"]): (int(r["state_no"]), str(r["status"]), float(r["updated"])) for r in rows}

    async def web_key(self, name: str, fresh: str) -> str:
        """A key shared by every process (the one that signs seat links): ``fresh`` if none is stored yet, else the
        stored one."""
        row = await self._fetchone("SELECT value FROM web_keys WHERE name = ?", (name,))
        if row is not None:
            return str(row["value"])
        async with self.transaction() as tx:
            await tx.execute("INSERT INTO web_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, fresh))
            rows = await tx.fetch("SELECT value FROM web_keys WHERE name = ?", (name,))
        return str(rows[0]["value"])

    async def revoke_web_links(self, table_id: int, user_id: int) -> None:
        """The user's seat links of that table stop working (they left or were kicked): their generation moves on,
        and a link carries the generation it was made in."""
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO web_revoked (table_id, user_id, generation) VALUES (?, ?, 1)"
                " ON CONFLICT (table_id, user_id) DO UPDATE SET generation = web_revoked.generation + 1",
                (table_id, user_id),
            )

    async def web_links_generation(self, table_id: int, user_id: int) -> int:
        """How many times the user's seat links of that table were revoked (0: never)."""
        row = await self._fetchone(
            "SELECT generation FROM web_revoked WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        return 0 if row is None else int(row["generation"])

    # -- settings ------------------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> dict[str, Any]:
        row = await self._fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return dict(DEFAULT_SETTINGS)
        return {
            "host_role_id": row["host_role_id"],
            "anyone_can_open": bool(row["anyone_can_open"]),
            "turn_limit_seconds": int(row["turn_limit_seconds"]),
            "ai_takeover": bool(row["ai_takeover"]),
            "web_pages": bool(row["web_pages"]),
        }

    async def save_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        merged = {**DEFAULT_SETTINGS, **settings}
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, host_role_id, anyone_can_open, turn_limit_seconds, ai_takeover,"
                " web_pages) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " host_role_id = excluded.host_role_id, anyone_can_open = excluded.anyone_can_open,"
                " turn_limit_seconds = excluded.turn_limit_seconds, ai_takeover = excluded.ai_takeover,"
                " web_pages = excluded.web_pages",
                (
                    guild_id,
                    merged["host_role_id"],
                    int(bool(merged["anyone_can_open"])),
                    int(merged["turn_limit_seconds"]),
                    int(bool(merged["ai_takeover"])),
                    int(bool(merged["web_pages"])),
                ),
            )

    # -- results -------------------------------------------------------------------------------------
    async def record_results(self, rows: list[dict[str, Any]]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(RECORD_RESULTS, _result_args(rows))

    async def user_name(self, user_id: int) -> str | None:
        """The name a user had in their latest recorded result."""
        row = await self._fetchone(
            "SELECT name FROM results WHERE user_id = ? ORDER BY finished DESC LIMIT 1", (user_id,)
        )
        return None if row is None else str(row[0])

    async def user_stats(self, user_id: int) -> list[tuple[str, int, int]]:
        """(game id, played, won) for a user, per game."""
        rows = await self._fetch(
            "SELECT game_id, COUNT(*), SUM(won) FROM results WHERE user_id = ? GROUP BY game_id ORDER BY game_id",
            (user_id,),
        )
        return [(r[0], int(r[1]), int(r[2] or 0)) for r in rows]

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[tuple[int, str, int, int]]:
        """(user id, latest name, won, played) best first."""
        rows = await self._fetch(
            "SELECT user_id, MAX(name), SUM(won) AS w, COUNT(*) AS p FROM results"
            " WHERE guild_id = ? AND game_id = ? GROUP BY user_id ORDER BY w DESC, p ASC, user_id LIMIT ?",
            (guild_id, game_id, limit),
        )
        return [(int(r[0]), str(r[1]), int(r[2] or 0), int(r[3])) for r in rows]

    async def forget_user(self, user_id: int) -> int:
        """Delete a user's results and ratings (their rating changes too); returns how many results went."""
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            await tx.execute("DELETE FROM rating_changes WHERE user_id = ?", (user_id,))
            return await tx.execute("DELETE FROM results WHERE user_id = ?", (user_id,))

    # -- ratings (bot/ratings.py computes; these read and write) -----------------------------------------
    async def _rate(self, tx: Tx, game: R.RatedGame) -> list[R.Change]:
        """Rate one game inside ``tx``.

        Each player's row is created if new, then read and locked (PostgreSQL: FOR UPDATE, in player order so
        two games never wait on each other crosswise): a game finishing at the same moment in another process
        waits, and rates from this game's result instead of overwriting it."""
        players = game.players
        names = {e.player: (e.user_id, e.name) for e in game.entries}
        await tx.executemany(
            NEW_RATING,
            [
                (game.guild_id, game.game_id, p, *names[p], R.DEFAULT.mu, R.DEFAULT.sigma, game.finished)
                for p in players
            ],
        )
        marks = ",".join("?" for _ in players)
        lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
        rows = await tx.fetch(
            "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_id = ?"
            f" AND player IN ({marks}) ORDER BY player{lock}",
            (game.guild_id, game.game_id, *players),
        )
        current = {r["player"]: R.Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows}
        changes, new = R.rate(game, current)
        await tx.executemany(
            SAVE_RATING,
            [
                (*names[p], r.mu, r.sigma, r.games, game.finished, game.guild_id, game.game_id, p)
                for p, r in sorted(new.items())
            ],
        )
        place = {e.seat: (e.team, e.place) for e in game.entries}
        await tx.executemany(
            INSERT_RATING_CHANGE,
            [
                (
                    game.table_id,
                    c.seat,
                    game.guild_id,
                    game.game_id,
                    c.player,
                    c.user_id,
                    c.name,
                    *place[c.seat],
                    c.before.mu,
                    c.before.sigma,
                    c.after.mu,
                    c.after.sigma,
                    game.finished,
                )
                for c in changes
            ],
        )
        return changes

    async def rated_games(self, tx: Tx | None = None) -> list[R.RatedGame]:
        """The rating input of every finished table, in the order the games ended (their final move's time,
        then table id), read inside ``tx`` when given.

        Read from what the tables keep, the final snapshot and the seats, so a rebuild applies each game's
        current rating rules; a snapshot its game can no longer load (an old state version) is skipped. The
        snapshots are read a batch at a time: a server's whole history need not fit in memory at once.
        """
        fetch = self._fetch if tx is None else tx.fetch
        order = await fetch(
            "SELECT t.id, t.guild_id, t.game_id, a.at FROM tables t"
            " JOIN actions a ON a.table_id = t.id AND a.n = t.state_no"
            " WHERE t.status = 'finished' AND t.snapshot IS NOT NULL ORDER BY a.at, t.id"
        )
        games: list[R.RatedGame] = []
        for i in range(0, len(order), RATING_BATCH):
            batch = order[i : i + RATING_BATCH]
            marks = ",".join("?" for _ in batch)
            ids = [int(r["id"]) for r in batch]
            snapshots = {
                int(r["id"]): r["snapshot"]
                for r in await fetch(f"SELECT id, snapshot FROM tables WHERE id IN ({marks})", ids)
            }
            seats: dict[int, list[SeatRow]] = {}
            for r in await fetch(f"SELECT * FROM seats WHERE table_id IN ({marks}) ORDER BY table_id, seat", ids):
                seats.setdefault(int(r["table_id"]), []).append(_seat(r))
            for row in batch:
                table_id = int(row["id"])
                try:
                    game = registry.get(row["game_id"])
                    outcome = game.outcome(game.load(json.loads(snapshots[table_id])))
                except (KeyError, IllegalAction) as exc:
                    logging.getLogger("parley.ratings").warning("table %s not rated: %s", table_id, exc)
                    continue
                rated = R.rated_game(
                    table_id=table_id,
                    guild_id=int(row["guild_id"]),
                    game_id=str(row["game_id"]),
                    finished=float(row["at"]),
                    seats=[(s.seat, s.user_id, s.name, s.ai_level, s.vacated) for s in seats.get(table_id, [])],
                    outcome=outcome,
                )
                if rated is not None:
                    games.append(rated)
        return games

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the finished tables, in order, in one transaction; returns the games rated.

        Incremental updates do exactly this one game at a time, so a rebuild changes nothing unless the rules
        of rating changed (or the tables were edited by hand)."""
        async with self.transaction() as tx:
            return await self._rebuild(tx)

    async def _rebuild(self, tx: Tx) -> int:
        # the write comes first: it takes the write lock before the tables are read (SQLite's one writer;
        # PostgreSQL's table lock), so a game another process finishes meanwhile is rated after the rebuild,
        # on top of it, rather than lost
        if self.dialect == "postgresql":
            await tx.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
        await tx.execute("DELETE FROM ratings")
        await tx.execute("DELETE FROM rating_changes")
        await tx.execute("DELETE FROM rating_backfill")
        games = await self.rated_games(tx)
        for g in games:
            await self._rate(tx, g)
        return len(games)

    async def rate_earlier_games(self) -> None:
        """Migration 5's data step, run by ``open`` after the schema migration: rate the games finished before
        ratings existed, once. The marker is deleted in the same transaction as the ratings are written, so a
        crash half-way rates them all again at the next start, and a second process starting at the same time
        finds nothing left to do."""
        if not await self._fetch("SELECT pending FROM rating_backfill"):
            return
        async with self.transaction() as tx:
            if self.dialect == "postgresql":
                await tx.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
            if not await tx.fetch("SELECT pending FROM rating_backfill"):
                return
            rated = await self._rebuild(tx)
        logging.getLogger("parley.ratings").info("rated %d earlier games", rated)

    async def rating_board(
        self, guild_id: int, game_id: str, *, min_games: int = R.MIN_GAMES, limit: int = 10
    ) -> list[tuple[str, int | None, str, R.Rating]]:
        """``(player, user id, name, rating)`` of a server's game, best conservative rating (μ − 3σ) first,
        players with at least ``min_games`` rated games only."""
        rows = await self._fetch(
            "SELECT player, user_id, name, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND game_id = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?",
            (guild_id, game_id, min_games, limit),
        )
        return [
            (r["player"], r["user_id"], r["name"], R.Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])))
            for r in rows
        ]

    async def rating_changes(self, table_id: int) -> list[R.Change]:
        """The rating changes a finished table made, by seat."""
        rows = await self._fetch("SELECT * FROM rating_changes WHERE table_id = ? ORDER BY seat", (table_id,))
        return [
            R.Change(
                r["seat"],
                r["player"],
                r["user_id"],
                r["name"],
                R.Rating(float(r["mu_before"]), float(r["sigma_before"])),
                R.Rating(float(r["mu_after"]), float(r["sigma_after"])),
            )
            for r in rows
        ]

    async def user_ratings(self, guild_id: int, user_id: int) -> list[tuple[str, R.Rating, int | None]]:
        """``(game id, rating, rank)`` of a user on a server per game; the rank among the players a leaderboard
        lists (None while the user has fewer rated games than it needs)."""
        rows = await self._fetch(
            "SELECT r.game_id, r.mu, r.sigma, r.games,"
            " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game_id = r.game_id"
            "  AND o.games >= ? AND o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) AS better"
            " FROM ratings r WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.game_id",
            (R.MIN_GAMES, guild_id, user_id),
        )
        out: list[tuple[str, R.Rating, int | None]] = []
        for r in rows:
            rating = R.Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
            out.append((r["game_id"], rating, int(r["better"]) + 1 if rating.games >= R.MIN_GAMES else None))
        return out


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _seat_args(table_id: int, seats: Sequence[SeatRow]) -> list[tuple[Any, ...]]:
    return [(table_id, s.seat, s.user_id, s.name, s.ai_level, int(s.vacated), int(s.reachable)) for s in seats]


def _deadline_args(table_id: int, deadlines: Sequence[DeadlineRow]) -> list[tuple[Any, ...]]:
    return [(table_id, d.seat, float(d.started), float(d.due), int(d.reminded)) for d in deadlines]


def _result_args(rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (
            r["table_id"],
            r["guild_id"],
            r["game_id"],
            r["user_id"],
            r["name"],
            r["seat"],
            int(r["won"]),
            None if r["score"] is None else float(r["score"]),
            float(r["finished"]),
        )
        for r in rows
    ]


def _seat(r: Row) -> SeatRow:
    return SeatRow(r["seat"], r["user_id"], r["name"], r["ai_level"], bool(r["vacated"]), bool(r["reachable"]))


def _log_row(r: Row) -> LogRow:
    return LogRow(
        r["n"], r["kind"], r["seat"], r["action"], bool(r["by_ai"]), r["user_id"], json.loads(r["public"]), r["at"]
    )


def _table(row: Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_id=row["game_id"],
        status=row["status"],
        host_id=row["host_id"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        ai_seed=row["ai_seed"],
        players=row["players"],
        state_no=row["state_no"],
        snapshot=None if row["snapshot"] is None else json.loads(row["snapshot"]),
        created=row["created"],
        updated=row["updated"],
    )
