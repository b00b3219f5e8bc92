"""Tables on the web (bot/transports/web/): each table's unguessable address, the keys every process shares,
and how many times a player's seat links were revoked."""

from __future__ import annotations

from bot.infra.store.db import Database, Exec, Read, Row, collect
from bot.infra.store.rows import TableRow
from bot.infra.store.tables import table_row


class WebRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def slug(self, table_id: int, fresh: str, now: float) -> str:
        """The table's address on the web, ``fresh`` (a random slug) if it has none yet; when two processes make one
        at once, both get the one stored first."""
        row = await self.db.fetchone("SELECT slug FROM web_links WHERE table_id = ?", (table_id,))
        if row is not None:
            return str(row["slug"])
        stored: list[Row] = []
        await self.db.run(
            [
                Exec(
                    "INSERT INTO web_links (table_id, slug, created) VALUES (?, ?, ?) ON CONFLICT (table_id) DO NOTHING",
                    (table_id, fresh, float(now)),
                ),
                Read("SELECT slug FROM web_links WHERE table_id = ?", (table_id,), collect(stored)),
            ]
        )
        return str(stored[0]["slug"])

    async def table(self, slug: str) -> TableRow | None:
        """The table at that web address, if any."""
        row = await self.db.fetchone(
            "SELECT t.* FROM web_links w JOIN tables t ON t.id = w.table_id WHERE w.slug = ?", (slug,)
        )
        return None if row is None else table_row(row)

    async def key(self, name: str, fresh: str) -> str:
        """A key shared by every process (the one that signs seat links): ``fresh`` if none is stored yet, else the
        stored one."""
        row = await self.db.fetchone("SELECT value FROM web_keys WHERE name = ?", (name,))
        if row is not None:
            return str(row["value"])
        stored: list[Row] = []
        await self.db.run(
            [
                Exec("INSERT INTO web_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, fresh)),
                Read("SELECT value FROM web_keys WHERE name = ?", (name,), collect(stored)),
            ]
        )
        return str(stored[0]["value"])

    async def revoke(self, table_id: int, user_id: int) -> None:
        """The user's seat links of that table stop working (they left or were kicked): their generation moves on,
        and a link carries the generation it was made in."""
        await self.db.run(
            [
                Exec(
                    "INSERT INTO web_revoked (table_id, user_id, generation) VALUES (?, ?, 1)"
                    " ON CONFLICT (table_id, user_id) DO UPDATE SET generation = web_revoked.generation + 1",
                    (table_id, user_id),
                )
            ]
        )

    async def generation(self, table_id: int, user_id: int) -> int:
        """How many times the user's seat links of that table were revoked (0: never)."""
        row = await self.db.fetchone(
            "SELECT generation FROM web_revoked WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        return 0 if row is None else int(row["generation"])
