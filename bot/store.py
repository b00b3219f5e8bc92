"""SQLite storage (aiosqlite, WAL): tables, seats, the append-only action log, state snapshots, deadlines,
per-server settings and per-player results.

One connection serves the whole process; write transactions hold an asyncio lock so statements of two
tables never interleave inside one transaction. The schema is versioned with ``PRAGMA user_version`` and
migrated at start-up. Swapping SQLite for PostgreSQL means re-implementing this class, nothing above it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot import ratings as R
from rules import registry
from rules.core import IllegalAction

# aiosqlite logs every statement with its parameters at DEBUG: seeds, snapshots and secret action texts.
# Logs must never hold a secret, so that logger never goes below INFO whatever PARLEY_LOG_LEVEL says.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

# Each entry moves the schema from version i to i + 1. Never edit an entry once released: append a new one.
MIGRATIONS: tuple[str, ...] = (
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
    # 2: the channel message that shows a table's current board, so a restarted bot edits it in place
    """
    CREATE TABLE board_posts (
        table_id INTEGER PRIMARY KEY,
        board_key TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL
    );
    """,
    # 3: start-up reads only the lobby and running tables (a handful among thousands of finished ones)
    """
    CREATE INDEX tables_status ON tables (status);
    """,
    # 4: the state number the board post shows, so a restart can tell that a crash lost the newest board
    """
    ALTER TABLE board_posts ADD COLUMN state_no INTEGER;
    """,
    # 5: skill ratings (bot/ratings.py): one per server, game and player (a user id, or "ai:<level>"); each
    # rated seat's change, which is also what the end-of-game line shows; and a marker that the results
    # finished before this step are still to be rated (done once, by Store.open, in one transaction).
    # BIGINT and DOUBLE PRECISION so the same text serves PostgreSQL (Discord ids need 64 bits).
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
    """,
)

UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, game_id, player, user_id, name, mu, sigma, games, updated)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game_id, player) DO UPDATE SET"
    " user_id = excluded.user_id, name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
    " games = excluded.games, updated = excluded.updated"
)
INSERT_RATING_CHANGE = (
    "INSERT INTO rating_changes (table_id, seat, guild_id, game_id, player, user_id, name, team, place,"
    " mu_before, sigma_before, mu_after, sigma_after, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)

RECORD_RESULTS = (
    "INSERT OR REPLACE INTO results (table_id, guild_id, game_id, user_id, name, seat, won, score, finished)"
    " VALUES (:table_id, :guild_id, :game_id, :user_id, :name, :seat, :won, :score, :finished)"
)

DEFAULT_SETTINGS: dict[str, Any] = {
    "host_role_id": None,
    "anyone_can_open": False,
    "turn_limit_seconds": 86400,
    "ai_takeover": True,
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


class Store:
    """The database. ``await open()`` connects and migrates; ``await close()`` at the end."""

    def __init__(self, path: str) -> None:
        """``path`` is the database file (created on first use); ``":memory:"`` works for tests."""
        self.path = path
        self._db: aiosqlite.Connection | None = None
        self._write = asyncio.Lock()

    # -- connection and schema -----------------------------------------------------------------------
    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:" and not self.path.startswith("file:"):
            Path(self.path).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path)
        self._db.row_factory = aiosqlite.Row
        await self._run("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a crash of the process (the restart case); only a power cut
        # may lose the last transactions. FULL costs an fsync per move.
        await self._run("PRAGMA synchronous=NORMAL")
        await self._run("PRAGMA foreign_keys=ON")
        await self.migrate()
        await self._rate_earlier_results()

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    async def _run(self, sql: str, args: Any = ()) -> _Done:
        """Execute one statement and close its cursor at once: an open cursor keeps its statement "in
        progress", and SQLite then refuses to commit (PRAGMA journal_mode returns a row, for instance)."""
        async with self.db.execute(sql, args) as cur:
            return _Done(cur.lastrowid, cur.rowcount)

    async def _run_many(self, sql: str, rows: Any) -> None:
        async with self.db.executemany(sql, rows):
            pass

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("Store.open() was not called")
        return self._db

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0])

    async def migrate(self) -> None:
        async with self._write:
            version = await self.schema_version()
            for i in range(version, len(MIGRATIONS)):
                async with self.db.executescript(f"BEGIN;\n{MIGRATIONS[i]}\nPRAGMA user_version = {i + 1};\nCOMMIT;"):
                    pass

    async def journal_mode(self) -> str:
        async with self.db.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0])

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
        async with self._write:
            cur = await self._run(
                "INSERT INTO tables (guild_id, channel_id, game_id, status, host_id, options, seed, ai_seed,"
                " created, updated) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game_id, host_id, json.dumps(options), seed, ai_seed, now, now),
            )
            table_id = int(cur.lastrowid or 0)
            await self._run_many(
                "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai_level, int(s.vacated), int(s.reachable)) for s in seats],
            )
            await self.db.commit()
            return table_id

    async def set_status(self, table_id: int, status: str, now: float) -> None:
        async with self._write:
            await self._run("UPDATE tables SET status = ?, updated = ? WHERE id = ?", (status, now, table_id))
            if status in ("finished", "abandoned"):
                await self._run("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            await self.db.commit()

    async def touch(self, table_id: int, now: float) -> None:
        async with self._write:
            await self._run("UPDATE tables SET updated = ? WHERE id = ?", (now, table_id))
            await self.db.commit()

    async def save_seats(self, table_id: int, seats: list[SeatRow], now: float) -> None:
        """Replace the seat list of a table (lobby edits, take-overs)."""
        async with self._write:
            await self._run("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await self._run_many(
                "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai_level, int(s.vacated), int(s.reachable)) for s in seats],
            )
            await self._run("UPDATE tables SET updated = ? WHERE id = ?", (now, table_id))
            await self.db.commit()

    async def begin_game(self, table_id: int, seats: list[SeatRow], snapshot: dict[str, Any], now: float) -> None:
        """Lobby → running in one transaction: the final seats, the player count and the first snapshot."""
        async with self._write:
            await self._run("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await self._run_many(
                "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, s.seat, s.user_id, s.name, s.ai_level, int(s.vacated), int(s.reachable)) for s in seats],
            )
            await self._run(
                "UPDATE tables SET status = 'running', players = ?, state_no = 0, snapshot = ?, updated = ?"
                " WHERE id = ?",
                (len(seats), _dumps(snapshot), now, table_id),
            )
            await self.db.commit()

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
    ) -> list[R.Change]:
        """Append log entry ``n`` (state number n after it) with the new snapshot, atomically.

        ``deadlines`` (when given) replaces the table's deadlines in the same transaction, so a restart never
        sees a move without the timers it armed; so are the ``results`` of the game-ending move (rows as for
        :meth:`record_results`) and its ``rating`` update, so a crash never leaves a finished game out of the
        statistics or the ratings. Returns the rating changes (empty without ``rating``). The primary key
        (table_id, n) makes a double append fail.
        """
        changes: list[R.Change] = []
        async with self._write:
            try:
                await self._run(
                    "INSERT INTO actions (table_id, n, kind, seat, action, by_ai, user_id, public, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (table_id, n, kind, seat, action, int(by_ai), user_id, json.dumps(public), now),
                )
                await self._run(
                    "UPDATE tables SET state_no = ?, snapshot = ?, updated = ?, status = ? WHERE id = ?",
                    (n, _dumps(snapshot), now, "finished" if finished else "running", table_id),
                )
                if deadlines is not None or finished:
                    await self._run("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
                    await self._run_many(
                        "INSERT INTO deadlines (table_id, seat, started, due, reminded) VALUES (?, ?, ?, ?, ?)",
                        [(table_id, d.seat, d.started, d.due, int(d.reminded)) for d in (deadlines or [])],
                    )
                if results:
                    await self._run_many(RECORD_RESULTS, results)
                if rating is not None:
                    changes = await self._rate(rating)
                await self.db.commit()
            except BaseException:
                await self.db.rollback()
                raise
        return changes

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return None if row is None else _table(row)

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ",".join("?" for _ in statuses)
        async with self.db.execute(f"SELECT * FROM tables WHERE status IN ({marks}) ORDER BY id", statuses) as cur:
            rows = await cur.fetchall()
        return [_table(r) for r in rows]

    async def last_table_in(self, channel_id: int) -> TableRow | None:
        async with self.db.execute(
            "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _table(row)

    async def seats(self, table_id: int) -> list[SeatRow]:
        async with self.db.execute("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)) as cur:
            rows = await cur.fetchall()
        return [
            SeatRow(r["seat"], r["user_id"], r["name"], r["ai_level"], bool(r["vacated"]), bool(r["reachable"]))
            for r in rows
        ]

    async def seats_of_tables_with_status(self, *statuses: str) -> dict[int, list[SeatRow]]:
        """The seats of every table with one of ``statuses``, by table id, in one query (start-up)."""
        marks = ",".join("?" for _ in statuses)
        async with self.db.execute(
            f"SELECT seats.* FROM seats JOIN tables ON tables.id = seats.table_id WHERE tables.status IN ({marks})"
            " ORDER BY seats.table_id, seats.seat",
            statuses,
        ) as cur:
            rows = await cur.fetchall()
        seats: dict[int, list[SeatRow]] = {}
        for r in rows:
            seats.setdefault(int(r["table_id"]), []).append(
                SeatRow(r["seat"], r["user_id"], r["name"], r["ai_level"], bool(r["vacated"]), bool(r["reachable"]))
            )
        return seats

    async def log(self, table_id: int) -> list[LogRow]:
        async with self.db.execute("SELECT * FROM actions WHERE table_id = ? ORDER BY n", (table_id,)) as cur:
            rows = await cur.fetchall()
        return [
            LogRow(
                r["n"],
                r["kind"],
                r["seat"],
                r["action"],
                bool(r["by_ai"]),
                r["user_id"],
                json.loads(r["public"]),
                r["at"],
            )
            for r in rows
        ]

    # -- deadlines -----------------------------------------------------------------------------------
    async def deadlines(self, table_id: int | None = None) -> list[DeadlineRow]:
        sql = "SELECT * FROM deadlines" + (" WHERE table_id = ?" if table_id is not None else "")
        args: tuple[Any, ...] = (table_id,) if table_id is not None else ()
        async with self.db.execute(sql + " ORDER BY table_id, seat", args) as cur:
            rows = await cur.fetchall()
        return [DeadlineRow(r["table_id"], r["seat"], r["started"], r["due"], bool(r["reminded"])) for r in rows]

    async def set_deadlines(self, table_id: int, deadlines: list[DeadlineRow]) -> None:
        async with self._write:
            await self._run("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
            await self._run_many(
                "INSERT INTO deadlines (table_id, seat, started, due, reminded) VALUES (?, ?, ?, ?, ?)",
                [(table_id, d.seat, d.started, d.due, int(d.reminded)) for d in deadlines],
            )
            await self.db.commit()

    # -- board posts -------------------------------------------------------------------------------------
    async def board_post(self, table_id: int) -> tuple[str, int, int] | None:
        """``(board_key, channel_id, message_id)`` of the table's current board post, if a transport saved one."""
        async with self.db.execute(
            "SELECT board_key, channel_id, message_id FROM board_posts WHERE table_id = ?", (table_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else (row["board_key"], int(row["channel_id"]), int(row["message_id"]))

    async def save_board_post(
        self, table_id: int, board_key: str, channel_id: int, message_id: int, state_no: int | None = None
    ) -> None:
        """Remember the message showing the table's board and the state number it shows (after a send or an edit)."""
        async with self._write:
            await self._run(
                "INSERT OR REPLACE INTO board_posts (table_id, board_key, channel_id, message_id, state_no)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, board_key, channel_id, message_id, state_no),
            )
            await self.db.commit()

    async def shown_states(self) -> dict[int, int]:
        """``{table_id: state number its saved board post shows}`` for the lobby and running tables."""
        async with self.db.execute(
            "SELECT b.table_id, b.state_no FROM board_posts b JOIN tables t ON t.id = b.table_id"
            " WHERE t.status IN ('lobby', 'running') AND b.state_no IS NOT NULL"
        ) as cur:
            rows = await cur.fetchall()
        return {int(r["table_id"]): int(r["state_no"]) for r in rows}

    # -- settings ------------------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> dict[str, Any]:
        async with self.db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return dict(DEFAULT_SETTINGS)
        return {
            "host_role_id": row["host_role_id"],
            "anyone_can_open": bool(row["anyone_can_open"]),
            "turn_limit_seconds": int(row["turn_limit_seconds"]),
            "ai_takeover": bool(row["ai_takeover"]),
        }

    async def save_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        merged = {**DEFAULT_SETTINGS, **settings}
        async with self._write:
            await self._run(
                "INSERT OR REPLACE INTO guild_settings (guild_id, host_role_id, anyone_can_open,"
                " turn_limit_seconds, ai_takeover) VALUES (?, ?, ?, ?, ?)",
                (
                    guild_id,
                    merged["host_role_id"],
                    int(bool(merged["anyone_can_open"])),
                    int(merged["turn_limit_seconds"]),
                    int(bool(merged["ai_takeover"])),
                ),
            )
            await self.db.commit()

    # -- results -------------------------------------------------------------------------------------
    async def record_results(self, rows: list[dict[str, Any]]) -> None:
        async with self._write:
            await self._run_many(RECORD_RESULTS, rows)
            await self.db.commit()

    async def user_name(self, user_id: int) -> str | None:
        """The name a user had in their latest recorded result."""
        async with self.db.execute(
            "SELECT name FROM results WHERE user_id = ? ORDER BY finished DESC LIMIT 1", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def user_stats(self, user_id: int) -> list[tuple[str, int, int]]:
        """(game id, played, won) for a user, per game."""
        async with self.db.execute(
            "SELECT game_id, COUNT(*), SUM(won) FROM results WHERE user_id = ? GROUP BY game_id ORDER BY game_id",
            (user_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], int(r[1]), int(r[2] or 0)) for r in rows]

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[tuple[int, str, int, int]]:
        """(user id, latest name, won, played) best first."""
        async with self.db.execute(
            "SELECT user_id, MAX(name), SUM(won) AS w, COUNT(*) AS p FROM results"
            " WHERE guild_id = ? AND game_id = ? GROUP BY user_id ORDER BY w DESC, p ASC, user_id LIMIT ?",
            (guild_id, game_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [(int(r[0]), str(r[1]), int(r[2] or 0), int(r[3])) for r in rows]

    async def forget_user(self, user_id: int) -> int:
        """Delete a user's results and ratings (their rating changes too); returns how many results went."""
        async with self._write:
            cur = await self._run("DELETE FROM results WHERE user_id = ?", (user_id,))
            await self._run("DELETE FROM ratings WHERE user_id = ?", (user_id,))
            await self._run("DELETE FROM rating_changes WHERE user_id = ?", (user_id,))
            await self.db.commit()
            return int(cur.rowcount)

    # -- ratings (bot/ratings.py computes; these read and write) -----------------------------------------
    async def _rate(self, game: R.RatedGame) -> list[R.Change]:
        """Rate one game inside the caller's transaction (the write lock is held)."""
        players = game.players
        marks = ",".join("?" for _ in players)
        async with self.db.execute(
            f"SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_id = ? AND player IN ({marks})",
            (game.guild_id, game.game_id, *players),
        ) as cur:
            rows = await cur.fetchall()
        current = {r["player"]: R.Rating(r["mu"], r["sigma"], r["games"]) for r in rows}
        changes, new = R.rate(game, current)
        names = {c.player: (c.user_id, c.name) for c in changes}
        await self._run_many(
            UPSERT_RATING,
            [
                (game.guild_id, game.game_id, p, *names[p], r.mu, r.sigma, r.games, game.finished)
                for p, r in sorted(new.items())
            ],
        )
        team = {e.seat: (e.team, e.place) for e in game.entries}
        await self._run_many(
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
                    *team[c.seat],
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

    async def rated_games(self) -> list[R.RatedGame]:
        """The rating input of every finished table, in the order the games ended (their final move's time).

        Read from what the tables keep, the final snapshot and the seats, so a rebuild applies each game's
        current rating rules; a snapshot its game can no longer load (an old state version) is skipped.
        """
        async with self.db.execute(
            "SELECT t.id, t.guild_id, t.game_id, t.snapshot, a.at FROM tables t"
            " JOIN actions a ON a.table_id = t.id AND a.n = t.state_no"
            " WHERE t.status = 'finished' AND t.snapshot IS NOT NULL ORDER BY a.at, t.id"
        ) as cur:
            tables = await cur.fetchall()
        seats = await self.seats_of_tables_with_status("finished")
        games: list[R.RatedGame] = []
        for row in tables:
            try:
                game = registry.get(row["game_id"])
                outcome = game.outcome(game.load(json.loads(row["snapshot"])))
            except (KeyError, IllegalAction) as exc:
                logging.getLogger("parley.ratings").warning("table %s not rated: %s", row["id"], exc)
                continue
            rated = R.rated_game(
                table_id=int(row["id"]),
                guild_id=int(row["guild_id"]),
                game_id=str(row["game_id"]),
                finished=float(row["at"]),
                seats=[(s.seat, s.user_id, s.name, s.ai_level, s.vacated) for s in seats.get(int(row["id"]), [])],
                outcome=outcome,
            )
            if rated is not None:
                games.append(rated)
        return games

    async def rebuild_ratings(self) -> int:
        """Recompute every rating from the finished tables, in order, in one transaction; returns the games rated.

        Incremental updates do exactly this one game at a time, so a rebuild changes nothing unless the rules
        of rating changed (or the tables were edited by hand)."""
        async with self._write:
            try:
                rated = await self._rebuild()
                await self.db.commit()
            except BaseException:
                await self.db.rollback()
                raise
        return rated

    async def _rebuild(self) -> int:
        # the deletes come first: they open the write transaction, so the tables read next are the newest and
        # no other process can finish a game until the commit (which would otherwise be left out)
        await self._run("DELETE FROM ratings")
        await self._run("DELETE FROM rating_changes")
        await self._run("DELETE FROM rating_backfill")
        games = await self.rated_games()
        for g in games:
            await self._rate(g)
        return len(games)

    async def _rate_earlier_results(self) -> None:
        """Migration 5's data step: rate the games finished before ratings existed, once. The marker goes in
        the same transaction as the ratings, so a crash half-way rates them all again at the next start."""
        async with self.db.execute("SELECT COUNT(*) FROM rating_backfill") as cur:
            row = await cur.fetchone()
        if not row or not row[0]:
            return
        async with self._write:
            try:
                rated = await self._rebuild()
                await self.db.commit()
            except BaseException:
                await self.db.rollback()
                raise
        logging.getLogger("parley.ratings").info("rated %d earlier games", rated)

    async def rating_board(
        self, guild_id: int, game_id: str, *, min_games: int = R.MIN_GAMES, limit: int = 10
    ) -> list[tuple[str, int | None, str, R.Rating]]:
        """``(player, user id, name, rating)`` of a server's game, best conservative rating (μ − 3σ) first,
        players with at least ``min_games`` rated games only."""
        async with self.db.execute(
            "SELECT player, user_id, name, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND game_id = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?",
            (guild_id, game_id, min_games, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [(r["player"], r["user_id"], r["name"], R.Rating(r["mu"], r["sigma"], r["games"])) for r in rows]

    async def user_ratings(self, guild_id: int, user_id: int) -> list[tuple[str, R.Rating, int | None]]:
        """``(game id, rating, rank)`` of a user on a server per game; rank among the players a leaderboard
        lists (None while the user has fewer than the games it needs)."""
        async with self.db.execute(
            "SELECT r.game_id, r.mu, r.sigma, r.games,"
            " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game_id = r.game_id"
            "  AND o.games >= ? AND o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) AS better"
            " FROM ratings r WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.game_id",
            (R.MIN_GAMES, guild_id, user_id),
        ) as cur:
            rows = await cur.fetchall()
        out: list[tuple[str, R.Rating, int | None]] = []
        for r in rows:
            rating = R.Rating(r["mu"], r["sigma"], r["games"])
            out.append((r["game_id"], rating, int(r["better"]) + 1 if rating.games >= R.MIN_GAMES else None))
        return out

    async def rating_changes(self, table_id: int) -> list[R.Change]:
        """The rating changes a finished table made, by seat."""
        async with self.db.execute("SELECT * FROM rating_changes WHERE table_id = ? ORDER BY seat", (table_id,)) as cur:
            rows = await cur.fetchall()
        return [
            R.Change(
                r["seat"],
                r["player"],
                r["user_id"],
                r["name"],
                R.Rating(r["mu_before"], r["sigma_before"]),
                R.Rating(r["mu_after"], r["sigma_after"]),
            )
            for r in rows
        ]


@dataclass(frozen=True)
class _Done:
    lastrowid: int | None
    rowcount: int


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _table(row: aiosqlite.Row) -> TableRow:
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
