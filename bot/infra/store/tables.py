"""The tables: each table's row (status, snapshot, state number), its append-only action log and its deadlines.

The primary key (table_id, n) of the log makes a double append fail with :class:`IntegrityError`, nothing
written. A move's own commit, which also writes other repositories' rows, is composed by the store
(:meth:`bot.infra.store.front.Store.append`) from :meth:`TableRepo.append_ops` and theirs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.infra.store.db import Database, Exec, Many, Op, Read, Row, marks
from bot.infra.store.rows import Commit, DeadlineRow, LogRow, SeatRow, TableRow
from bot.infra.store.seats import delete_seats, insert_seats

INSERT_DEADLINES = "INSERT INTO deadlines (table_id, seat, started, due, reminded) VALUES (?, ?, ?, ?, ?)"


class TableRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- the row -------------------------------------------------------------------------------------
    async def create(
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
        host_name: str | None = None,
    ) -> int:
        """A new lobby and its first seats in one transaction, so a crash never leaves a lobby without its opener."""
        made: list[int] = []

        def then(rows: list[Row]) -> list[Op]:
            made.append(int(rows[0]["id"]))
            return [insert_seats(made[0], seats)]

        await self.db.run(
            [
                Read(
                    "INSERT INTO tables (guild_id, channel_id, game_id, status, host_id, options, seed, ai_seed,"
                    " created, updated, host_name) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        game_id,
                        host_id,
                        json.dumps(options),
                        seed,
                        ai_seed,
                        float(now),
                        float(now),
                        host_name,
                    ),
                    then,
                )
            ]
        )
        return made[0]

    async def set_status(self, table_id: int, status: str, now: float) -> None:
        ops: list[Op] = [Exec("UPDATE tables SET status = ?, updated = ? WHERE id = ?", (status, float(now), table_id))]
        if status in ("finished", "abandoned"):
            ops.append(Exec("DELETE FROM deadlines WHERE table_id = ?", (table_id,)))
        await self.db.run(ops)
        self.db.changed(table_id)

    async def set_host(self, table_id: int, host_id: int, now: float, name: str | None = None) -> None:
        """The table's host handed on (its host left, or handed it on); ``name`` is theirs."""
        await self.db.run(
            [
                Exec(
                    "UPDATE tables SET host_id = ?, host_name = ?, updated = ? WHERE id = ?",
                    (host_id, name, float(now), table_id),
                )
            ]
        )

    async def touch(self, table_id: int, now: float) -> None:
        await self.db.run([touch(table_id, now)])

    async def begin(self, table_id: int, seats: list[SeatRow], snapshot: dict[str, Any], now: float) -> None:
        """Lobby → running in one transaction: the final seats, the player count and the first snapshot."""
        await self.db.run(
            [
                delete_seats(table_id),
                insert_seats(table_id, seats),
                Exec(
                    "UPDATE tables SET status = 'running', players = ?, state_no = 0, snapshot = ?, updated = ?"
                    " WHERE id = ?",
                    (len(seats), dumps(snapshot), float(now), table_id),
                ),
            ]
        )
        self.db.changed(table_id)

    @staticmethod
    def append_ops(c: Commit) -> list[Op]:
        """The log entry, the snapshot and the deadlines of a commit."""
        ops: list[Op] = [
            Exec(
                "INSERT INTO actions (table_id, n, kind, seat, action, by_ai, user_id, public, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    c.table_id,
                    c.n,
                    c.kind,
                    c.seat,
                    c.action,
                    int(c.by_ai),
                    c.user_id,
                    json.dumps(c.public),
                    float(c.now),
                ),
            ),
            Exec(
                "UPDATE tables SET state_no = ?, snapshot = ?, updated = ?, status = ? WHERE id = ?",
                (c.n, dumps(c.snapshot), float(c.now), "finished" if c.finished else "running", c.table_id),
            ),
        ]
        if c.deadlines is not None or c.finished:
            ops += replace_deadlines(c.table_id, c.deadlines or [])
        return ops

    # -- reads ---------------------------------------------------------------------------------------
    async def get(self, table_id: int) -> TableRow | None:
        row = await self.db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else table_row(row)

    async def with_status(self, *statuses: str) -> list[TableRow]:
        rows = await self.db.fetch(f"SELECT * FROM tables WHERE status IN ({marks(statuses)}) ORDER BY id", statuses)
        return [table_row(r) for r in rows]

    async def last_in(self, channel_id: int) -> TableRow | None:
        row = await self.db.fetchone(
            "SELECT * FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return None if row is None else table_row(row)

    async def marks(self, table_ids: Sequence[int]) -> dict[int, tuple[int, str, float]]:
        """``{table_id: (state number, status, updated)}``: what changes whenever a table does (a move, a seat, its
        status), read without the snapshot, for web processes that poll the tables they show live."""
        if not table_ids:
            return {}
        rows = await self.db.fetch(
            f"SELECT id, state_no, status, updated FROM tables WHERE id IN ({marks(table_ids)})",
            [int(i) for i in table_ids],
        )
        return {int(r["id"]): (int(r["state_no"]), str(r["status"]), float(r["updated"])) for r in rows}

    # -- the log -------------------------------------------------------------------------------------
    async def log(self, table_id: int) -> list[LogRow]:
        rows = await self.db.fetch("SELECT * FROM actions WHERE table_id = ? ORDER BY n", (table_id,))
        return [_log_row(r) for r in rows]

    async def log_since(self, table_id: int, after: int, limit: int | None = None) -> list[LogRow]:
        """The log entries numbered above ``after``, oldest first (at most ``limit``: the oldest of them)."""
        cap = f" LIMIT {int(limit)}" if limit is not None else ""
        rows = await self.db.fetch(
            f"SELECT * FROM actions WHERE table_id = ? AND n > ? ORDER BY n{cap}", (table_id, int(after))
        )
        return [_log_row(r) for r in rows]

    # -- deadlines -----------------------------------------------------------------------------------
    async def deadlines(self, table_id: int | None = None) -> list[DeadlineRow]:
        sql = "SELECT * FROM deadlines" + (" WHERE table_id = ?" if table_id is not None else "")
        args: tuple[Any, ...] = (table_id,) if table_id is not None else ()
        rows = await self.db.fetch(sql + " ORDER BY table_id, seat", args)
        return [DeadlineRow(r["table_id"], r["seat"], r["started"], r["due"], bool(r["reminded"])) for r in rows]

    async def set_deadlines(self, table_id: int, deadlines: list[DeadlineRow]) -> None:
        await self.db.run(replace_deadlines(table_id, deadlines))


def touch(table_id: int, now: float) -> Exec:
    return Exec("UPDATE tables SET updated = ? WHERE id = ?", (float(now), table_id))


def replace_deadlines(table_id: int, deadlines: Sequence[DeadlineRow]) -> list[Op]:
    return [
        Exec("DELETE FROM deadlines WHERE table_id = ?", (table_id,)),
        Many(
            INSERT_DEADLINES,
            [(table_id, d.seat, float(d.started), float(d.due), int(d.reminded)) for d in deadlines],
        ),
    ]


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _log_row(r: Row) -> LogRow:
    return LogRow(
        r["n"], r["kind"], r["seat"], r["action"], bool(r["by_ai"]), r["user_id"], json.loads(r["public"]), r["at"]
    )


def table_row(row: Row) -> TableRow:
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
        host_name=row["host_name"],
    )
