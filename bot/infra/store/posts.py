"""What the transports were handed and must not lose in a crash: the message showing each table's current
board (edited in place after a restart), and the DMs owed until reported sent."""

from __future__ import annotations

from bot.infra.store.db import Database, Exec, Many

OWE_DM = (
    "INSERT INTO dms_owed (table_id, user_id, state_no, text, created) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, user_id, state_no) DO NOTHING"
)


class PostRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- board posts -----------------------------------------------------------------------------------
    async def board_post(self, table_id: int) -> tuple[str, int, int] | None:
        """``(board_key, channel_id, message_id)`` of the table's current board post, if a transport saved one."""
        row = await self.db.fetchone(
            "SELECT board_key, channel_id, message_id FROM board_posts WHERE table_id = ?", (table_id,)
        )
        return None if row is None else (row["board_key"], int(row["channel_id"]), int(row["message_id"]))

    async def save_board_post(
        self, table_id: int, board_key: str, channel_id: int, message_id: int, state_no: int | None = None
    ) -> None:
        """Remember the message showing the table's board and the state number it shows (after a send or an edit)."""
        await self.db.run(
            [
                Exec(
                    "INSERT INTO board_posts (table_id, board_key, channel_id, message_id, state_no)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET board_key = excluded.board_key,"
                    " channel_id = excluded.channel_id, message_id = excluded.message_id,"
                    " state_no = excluded.state_no",
                    (table_id, board_key, channel_id, message_id, state_no),
                )
            ]
        )

    async def shown_states(self) -> dict[int, int]:
        """``{table_id: state number its saved board post shows}`` for the lobby and running tables."""
        rows = await self.db.fetch(
            "SELECT b.table_id, b.state_no FROM board_posts b JOIN tables t ON t.id = b.table_id"
            " WHERE t.status IN ('lobby', 'running') AND b.state_no IS NOT NULL"
        )
        return {int(r["table_id"]): int(r["state_no"]) for r in rows}

    # -- DMs owed ------------------------------------------------------------------------------------------
    async def owe_dms(self, rows: list[tuple[int, int, int, str]], now: float) -> None:
        """Remember DMs about to be sent: ``(table_id, user_id, state_no, text)`` each."""
        if rows:
            await self.db.run([Many(OWE_DM, [(*row, float(now)) for row in rows])])

    async def dm_sent(self, table_id: int, user_id: int, state_no: int) -> None:
        """The user's DMs of that table up to ``state_no`` went out (or were refused for good): no longer owed."""
        await self.db.run(
            [
                Exec(
                    "DELETE FROM dms_owed WHERE table_id = ? AND user_id = ? AND state_no <= ?",
                    (table_id, user_id, state_no),
                )
            ]
        )

    async def dms_owed(self) -> list[tuple[int, int, int, str]]:
        """Every DM still owed, oldest first: ``(table_id, user_id, state_no, text)``."""
        rows = await self.db.fetch(
            "SELECT table_id, user_id, state_no, text FROM dms_owed ORDER BY created, table_id, state_no"
        )
        return [(int(r["table_id"]), int(r["user_id"]), int(r["state_no"]), str(r["text"])) for r in rows]


def owe_dms_op(table_id: int, state_no: int, dms: list[tuple[int, str]], now: float) -> Many:
    """The DMs of a commit, owed in its transaction."""
    return Many(OWE_DM, [(table_id, user, state_no, text, float(now)) for user, text in dms])
