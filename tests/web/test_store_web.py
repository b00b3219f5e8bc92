"""The store's web queries on both databases: table addresses, the shared signing key, revocations, marks, the log
after a move, the server setting, and PostgreSQL's notifications of changed tables."""

from __future__ import annotations

import asyncio
import contextlib

from bot.infra.store import Commit, IntegrityError, SeatRow, Store
from tests.host.test_store import SNOWFLAKE, new_table


async def test_web_queries(db_url: str) -> None:
    store = Store(db_url)
    await store.open()
    other = Store(db_url)  # a second process on the same database
    await other.open()
    try:
        a, b = await new_table(store), await new_table(store)
        # an address is made once; a second process asking at the same time gets the same one
        first = await store.web.slug(a, "slug-a", 1.0)
        assert first == "slug-a" and await other.web.slug(a, "another", 2.0) == "slug-a"
        assert await store.web.slug(b, "slug-b", 1.0) == "slug-b"
        assert (await other.web.table("slug-a")).id == a
        assert await store.web.table("nope") is None
        # the signing key is made once and shared
        key = await store.web.key("seat-links", "k1")
        assert key == "k1" and await other.web.key("seat-links", "k2") == "k1"
        # revocations count up per table and player
        assert await store.web.generation(a, SNOWFLAKE) == 0
        await store.web.revoke(a, SNOWFLAKE)
        await other.web.revoke(a, SNOWFLAKE)
        assert await store.web.generation(a, SNOWFLAKE) == 2
        assert await store.web.generation(b, SNOWFLAKE) == 0
        # marks and the log after a move
        await store.tables.begin(a, [SeatRow(0, SNOWFLAKE, "Ana", None)], {"x": 0}, 5.0)
        marks = await store.tables.marks([a, b, 999])
        assert marks[a] == (0, "running", 5.0) and marks[b][1] == "lobby" and 999 not in marks
        for n in (1, 2, 3):
            await store.append(Commit(
                a, n=n, kind="action", seat=0, action=f"a{n}", by_ai=False, user_id=SNOWFLAKE,
                public=[f"line {n}"], snapshot={"x": n}, now=5.0 + n,
            ))
        assert [e.n for e in await other.tables.log_since(a, 1)] == [2, 3]
        assert [e.public for e in await other.tables.log_since(a, 0, limit=1)] == [["line 1"]]
        assert (await other.tables.marks([a]))[a] == (3, "running", 8.0)
        # the server setting, on by default
        assert (await store.guilds.settings(SNOWFLAKE))["web_pages"] is True
        await store.guilds.save_settings(SNOWFLAKE, {"web_pages": False})
        assert (await other.guilds.settings(SNOWFLAKE))["web_pages"] is False
    finally:
        await other.close()
        await store.close()


async def test_listening_for_changed_tables(db_url: str) -> None:
    """On PostgreSQL a listener hears every committed change of a table made by the store in any process (a move,
    its seats, its status), after the commit; SQLite says it cannot tell (its web processes poll)."""
    store = Store(db_url)
    await store.open()
    writer = Store(db_url)  # another process's store
    await writer.open()
    heard: asyncio.Queue[int | None] = asyncio.Queue()
    stop = await store.listen_tables(heard.put_nowait)
    try:
        if store.dialect == "sqlite":
            assert stop is None
            return
        assert stop is not None
        table = await new_table(writer)
        await asyncio.sleep(0.5)  # the listener connects in the background
        changes = [
            lambda: writer.seats.save(table, [SeatRow(0, SNOWFLAKE, "Ana", None)], 11.0),
            lambda: writer.tables.begin(table, [SeatRow(0, SNOWFLAKE, "Ana", None)], {"x": 0}, 12.0),
            lambda: writer.append(Commit(
                table, n=1, kind="action", seat=0, action="a", by_ai=False, user_id=SNOWFLAKE, public=["l"],
                snapshot={"x": 1}, now=13.0,
            )),
            lambda: writer.tables.set_status(table, "abandoned", 14.0),
        ]
        for change in changes:
            await change()
            assert await asyncio.wait_for(heard.get(), 10) == table
        # a change that did not commit says nothing
        with contextlib.suppress(IntegrityError):
            await writer.append(Commit(
                table, n=1, kind="action", seat=0, action="again", by_ai=False, user_id=SNOWFLAKE, public=[],
                snapshot={"x": 1}, now=15.0,
            ))
        await writer.tables.touch(table, 16.0)  # nothing a page shows
        await asyncio.sleep(0.5)
        assert heard.empty()
    finally:
        if stop is not None:
            await stop()
        await writer.close()
        await store.close()
