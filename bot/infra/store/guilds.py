"""Per server: its settings, and each player's recorded results (the statistics and the win leaderboard)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.infra.store.db import Database, Exec, Many, Read, Row, collect

DEFAULT_SETTINGS: dict[str, Any] = {
    "host_role_id": None,
    "anyone_can_open": False,
    "turn_limit_seconds": 86400,
    "ai_takeover": True,
    "web_pages": True,
}
RECORD_RESULTS = (
    "INSERT INTO results (table_id, guild_id, game_id, user_id, name, seat, won, score, finished)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (table_id, seat) DO UPDATE SET guild_id = excluded.guild_id, game_id = excluded.game_id,"
    " user_id = excluded.user_id, name = excluded.name, won = excluded.won, score = excluded.score,"
    " finished = excluded.finished"
)


class GuildRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- settings ------------------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> dict[str, Any]:
        row = await self.db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
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
        await self.db.run(
            [
                Exec(
                    "INSERT INTO guild_settings (guild_id, host_role_id, anyone_can_open, turn_limit_seconds,"
                    " ai_takeover, web_pages) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
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
            ]
        )

    # -- results -------------------------------------------------------------------------------------
    async def record_results(self, rows: list[dict[str, Any]]) -> None:
        await self.db.run([results_op(rows)])

    async def user_name(self, guild_id: int, user_id: int) -> str | None:
        """The name a user had in their latest recorded result on a server (else in their rating there): never a
        name from another server."""
        row = await self.db.fetchone(
            "SELECT name FROM results WHERE guild_id = ? AND user_id = ? ORDER BY finished DESC LIMIT 1",
            (guild_id, user_id),
        ) or await self.db.fetchone(
            "SELECT name FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY updated DESC LIMIT 1",
            (guild_id, user_id),
        )
        return None if row is None else str(row[0])

    async def user_stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        """(game id, played, won) for a user on a server, per game."""
        rows = await self.db.fetch(
            "SELECT game_id, COUNT(*), SUM(won) FROM results WHERE guild_id = ? AND user_id = ?"
            " GROUP BY game_id ORDER BY game_id",
            (guild_id, user_id),
        )
        return [(r[0], int(r[1]), int(r[2] or 0)) for r in rows]

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[tuple[int, str, int, int]]:
        """(user id, latest name, won, played) best first."""
        rows = await self.db.fetch(
            "SELECT user_id, MAX(name), SUM(won) AS w, COUNT(*) AS p FROM results"
            " WHERE guild_id = ? AND game_id = ? GROUP BY user_id ORDER BY w DESC, p ASC, user_id LIMIT ?",
            (guild_id, game_id, limit),
        )
        return [(int(r[0]), str(r[1]), int(r[2] or 0), int(r[3])) for r in rows]

    async def forget_user(self, user_id: int) -> int:
        """Delete a user's results and ratings (their rating changes too) on every server: the user's own wish
        to be forgotten, which should not need a visit to each server they ever played on. Returns how many
        results went."""
        gone: list[Row] = []
        await self.db.run(
            [
                Exec("DELETE FROM ratings WHERE user_id = ?", (user_id,)),
                Exec("DELETE FROM rating_changes WHERE user_id = ?", (user_id,)),
                Read("DELETE FROM results WHERE user_id = ? RETURNING seat", (user_id,), collect(gone)),
            ]
        )
        return len(gone)


def results_op(rows: Sequence[dict[str, Any]]) -> Many:
    return Many(
        RECORD_RESULTS,
        [
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
        ],
    )
