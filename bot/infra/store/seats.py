"""Who sits where: a table's seats, the players a take-over replaced in a seat (so nobody who has seen one seat's
private view is ever given another's), and the members kicked from a table."""

from __future__ import annotations

from collections.abc import Sequence

from bot.infra.store.db import Database, Exec, Many, Op, Read, Row, collect, marks
from bot.infra.store.rows import KickRow, SeatRow

INSERT_SEATS = (
    "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
HOLD_SEAT = (
    "INSERT INTO seat_history (table_id, user_id, seat, at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (table_id, user_id, seat) DO NOTHING"
)
KICK = (
    "INSERT INTO table_kicks (table_id, user_id, by_id, by_moderator, at) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, user_id) DO UPDATE SET by_id = excluded.by_id, by_moderator = excluded.by_moderator,"
    " at = excluded.at"
)


class SeatRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def of(self, table_id: int) -> list[SeatRow]:
        rows = await self.db.fetch("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [seat_row(r) for r in rows]

    async def by_status(self, *statuses: str) -> dict[int, list[SeatRow]]:
        """The seats of every table with one of ``statuses``, by table id, in one query (start-up)."""
        rows = await self.db.fetch(
            "SELECT seats.* FROM seats JOIN tables ON tables.id = seats.table_id"
            f" WHERE tables.status IN ({marks(statuses)}) ORDER BY seats.table_id, seats.seat",
            statuses,
        )
        seats: dict[int, list[SeatRow]] = {}
        for r in rows:
            seats.setdefault(int(r["table_id"]), []).append(seat_row(r))
        return seats

    async def save(
        self,
        table_id: int,
        seats: list[SeatRow],
        now: float,
        *,
        held: Sequence[tuple[int, int]] = (),
        kick: KickRow | None = None,
    ) -> None:
        """Replace the seat list of a table (lobby edits, take-overs). In the same transaction: ``held``, the
        ``(seat, user id)`` of players a take-over replaces in a running game's seat rows, is remembered for good
        (:meth:`history`); a ``kick`` is recorded with the seat it empties (:meth:`kicks`)."""
        ops: list[Op] = [
            delete_seats(table_id),
            insert_seats(table_id, seats),
            Exec("UPDATE tables SET updated = ? WHERE id = ?", (float(now), table_id)),
            Many(HOLD_SEAT, [(table_id, user, seat, float(now)) for seat, user in held]),
        ]
        if kick is not None:
            ops.append(Exec(KICK, (table_id, kick.user_id, kick.by_id, int(kick.by_moderator), float(kick.at))))
        await self.db.run(ops)
        self.db.changed(table_id)

    async def history(self, table_id: int) -> list[tuple[int, int]]:
        """``(seat, user id)`` of every player a take-over replaced in a seat of the table (the seat rows hold the
        others)."""
        rows = await self.db.fetch(
            "SELECT seat, user_id FROM seat_history WHERE table_id = ? ORDER BY seat, user_id", (table_id,)
        )
        return [(int(r["seat"]), int(r["user_id"])) for r in rows]

    async def kicks(self, table_id: int) -> dict[int, KickRow]:
        """The members kicked from the table and not let back, by user id."""
        rows = await self.db.fetch(
            "SELECT user_id, by_id, by_moderator, at FROM table_kicks WHERE table_id = ? ORDER BY user_id",
            (table_id,),
        )
        return {
            int(r["user_id"]): KickRow(int(r["user_id"]), int(r["by_id"]), bool(r["by_moderator"]), float(r["at"]))
            for r in rows
        }

    async def lift_kick(self, table_id: int, user_id: int) -> bool:
        """The member may sit at the table again; whether they had been kicked."""
        lifted: list[Row] = []
        await self.db.run(
            [
                Read(
                    "DELETE FROM table_kicks WHERE table_id = ? AND user_id = ? RETURNING user_id",
                    (table_id, user_id),
                    collect(lifted),
                )
            ]
        )
        return bool(lifted)


def delete_seats(table_id: int) -> Exec:
    return Exec("DELETE FROM seats WHERE table_id = ?", (table_id,))


def insert_seats(table_id: int, seats: Sequence[SeatRow]) -> Many:
    return Many(
        INSERT_SEATS,
        [(table_id, s.seat, s.user_id, s.name, s.ai_level, int(s.vacated), int(s.reachable)) for s in seats],
    )


def seat_row(r: Row) -> SeatRow:
    return SeatRow(r["seat"], r["user_id"], r["name"], r["ai_level"], bool(r["vacated"]), bool(r["reachable"]))
