"""Skill ratings as rows: one per server, game and player, and each rated seat's change. The model that computes
them is the host's (bot/host/ratings.py), handed in as a :class:`Rater`; the replay of finished games a rebuild
rates from is the host's too (bot/host/ratings_rebuild.py): this repository only reads and writes rows."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

from bot.infra.store.db import Database, Many, Op, Read, Row, Tx, marks, run_in
from bot.infra.store.rows import Change, FinishedTable, RatedGame, Rater, Rating, SeatRow
from bot.infra.store.seats import seat_row

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


class RatingRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    def rate_ops(self, game: RatedGame, rater: Rater, changes: list[Change]) -> list[Op]:
        """Rate one game in the transaction these statements join; its changes are added to ``changes``.

        Each player's row is created if new, then read and locked (PostgreSQL: FOR UPDATE, in player order so
        two games never wait on each other crosswise): a game finishing at the same moment in another process
        waits, and rates from this game's result instead of overwriting it."""
        players = game.players
        names = {e.player: (e.user_id, e.name) for e in game.entries}
        place = {e.seat: (e.team, e.place) for e in game.entries}
        start = rater.initial

        def then(rows: list[Row]) -> list[Op]:
            current = {r["player"]: Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows}
            made, new = rater.rate(game, current)
            changes.extend(made)
            return [
                Many(
                    SAVE_RATING,
                    [
                        (*names[p], r.mu, r.sigma, r.games, game.finished, game.guild_id, game.game_id, p)
                        for p, r in sorted(new.items())
                    ],
                ),
                Many(
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
                        for c in made
                    ],
                ),
            ]

        lock = " FOR UPDATE" if self.db.dialect == "postgresql" else ""
        return [
            Many(
                NEW_RATING,
                [(game.guild_id, game.game_id, p, *names[p], start.mu, start.sigma, game.finished) for p in players],
            ),
            Read(
                "SELECT player, mu, sigma, games FROM ratings WHERE guild_id = ? AND game_id = ?"
                f" AND player IN ({marks(players)}) ORDER BY player{lock}",
                (game.guild_id, game.game_id, *players),
                then,
            ),
        ]

    # -- a rebuild -----------------------------------------------------------------------------------
    async def finished(self, tx: Tx | None = None) -> AsyncIterator[FinishedTable]:
        """Every finished table with its final snapshot and seats, in the order the games ended (their final
        move's time, then table id), read inside ``tx`` when given. The snapshots are read a batch at a time: a
        server's whole history need not fit in memory at once."""
        fetch = self.db.fetch if tx is None else tx.fetch
        order = await fetch(
            "SELECT t.id, t.guild_id, t.game_id, a.at FROM tables t"
            " JOIN actions a ON a.table_id = t.id AND a.n = t.state_no"
            " WHERE t.status = 'finished' AND t.snapshot IS NOT NULL ORDER BY a.at, t.id"
        )
        for i in range(0, len(order), RATING_BATCH):
            batch = order[i : i + RATING_BATCH]
            ids = [int(r["id"]) for r in batch]
            snapshots = {
                int(r["id"]): r["snapshot"]
                for r in await fetch(f"SELECT id, snapshot FROM tables WHERE id IN ({marks(ids)})", ids)
            }
            seats: dict[int, list[SeatRow]] = {}
            for r in await fetch(f"SELECT * FROM seats WHERE table_id IN ({marks(ids)}) ORDER BY table_id, seat", ids):
                seats.setdefault(int(r["table_id"]), []).append(seat_row(r))
            for row in batch:
                table_id = int(row["id"])
                yield FinishedTable(
                    table_id,
                    int(row["guild_id"]),
                    str(row["game_id"]),
                    float(row["at"]),
                    json.loads(snapshots[table_id]),
                    seats.get(table_id, []),
                )

    async def pending(self) -> bool:
        """Whether the games finished before ratings existed are still to be rated (migration 5's marker)."""
        return bool(await self.db.fetch("SELECT pending FROM rating_backfill"))

    async def rebuild(
        self, rated: Callable[[FinishedTable], RatedGame | None], rater: Rater, *, if_pending: bool = False
    ) -> int | None:
        """Every rating again from the finished tables, in order, in one transaction: ``rated`` turns a table
        into its rating input (None: not rated). Returns the games rated; with ``if_pending``, None (and
        nothing done) unless the marker of earlier games still to be rated is there, which goes in the same
        transaction as the ratings are written."""
        async with self.db.transaction() as tx:
            # the write comes first: it takes the write lock before the tables are read (SQLite's one writer;
            # PostgreSQL's table lock), so a game another process finishes meanwhile is rated after the rebuild,
            # on top of it, rather than lost
            if self.db.dialect == "postgresql":
                await tx.execute("LOCK TABLE ratings IN EXCLUSIVE MODE")
            if if_pending and not await tx.fetch("SELECT pending FROM rating_backfill"):
                return None
            await tx.execute("DELETE FROM ratings")
            await tx.execute("DELETE FROM rating_changes")
            await tx.execute("DELETE FROM rating_backfill")
            games = [g async for t in self.finished(tx) if (g := rated(t)) is not None]
            for g in games:
                await run_in(tx, self.rate_ops(g, rater, []))
            return len(games)

    # -- reads ---------------------------------------------------------------------------------------
    async def board(
        self, guild_id: int, game_id: str, *, min_games: int, limit: int = 10
    ) -> list[tuple[str, int | None, str, Rating]]:
        """``(player, user id, name, rating)`` of a server's game, best conservative rating (μ − 3σ) first,
        players with at least ``min_games`` rated games only."""
        rows = await self.db.fetch(
            "SELECT player, user_id, name, mu, sigma, games FROM ratings"
            " WHERE guild_id = ? AND game_id = ? AND games >= ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?",
            (guild_id, game_id, min_games, limit),
        )
        return [
            (r["player"], r["user_id"], r["name"], Rating(float(r["mu"]), float(r["sigma"]), int(r["games"])))
            for r in rows
        ]

    async def changes(self, table_id: int) -> list[Change]:
        """The rating changes a finished table made, by seat."""
        rows = await self.db.fetch("SELECT * FROM rating_changes WHERE table_id = ? ORDER BY seat", (table_id,))
        return [
            Change(
                r["seat"],
                r["player"],
                r["user_id"],
                r["name"],
                Rating(float(r["mu_before"]), float(r["sigma_before"])),
                Rating(float(r["mu_after"]), float(r["sigma_after"])),
            )
            for r in rows
        ]

    async def of_user(self, guild_id: int, user_id: int, *, min_games: int) -> list[tuple[str, Rating, int | None]]:
        """``(game id, rating, rank)`` of a user on a server per game; the rank among the players a leaderboard
        lists (None while the user has fewer than ``min_games`` rated games)."""
        rows = await self.db.fetch(
            "SELECT r.game_id, r.mu, r.sigma, r.games,"
            " (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.game_id = r.game_id"
            "  AND o.games >= ? AND o.mu - 3 * o.sigma > r.mu - 3 * r.sigma) AS better"
            " FROM ratings r WHERE r.guild_id = ? AND r.user_id = ? ORDER BY r.game_id",
            (min_games, guild_id, user_id),
        )
        out: list[tuple[str, Rating, int | None]] = []
        for r in rows:
            rating = Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
            out.append((r["game_id"], rating, int(r["better"]) + 1 if rating.games >= min_games else None))
        return out
