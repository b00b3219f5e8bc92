"""Databases made by the released migration steps (tests/host/released_migrations.py), stopped at every step,
upgrade to exactly the schema a fresh database gets from the declared one (bot/infra/store/schema.py), on
SQLite and on PostgreSQL, keeping their rows."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from bot.infra.store import MIGRATIONS, Store, is_postgres_url
from bot.infra.store.schema import SCHEMA, TYPES
from tests.host.released_migrations import RELEASED


def test_the_declared_schema_has_the_released_steps() -> None:
    assert len(MIGRATIONS) == len(RELEASED)
    # each kind is spelled for both databases, and a 64-bit id is BIGINT on PostgreSQL
    assert TYPES["id"] == ("INTEGER", "BIGINT") and TYPES["real"][1] == "DOUBLE PRECISION"
    assert [t.name for t in SCHEMA][:3] == ["tables", "seats", "actions"]


async def released(url: str, steps: int) -> None:
    """A database as the released steps left it after ``steps`` of them, with one table row once there is one."""
    row = (
        "INSERT INTO tables (guild_id, channel_id, game_id, status, host_id, options, seed, ai_seed, created,"
        " updated) VALUES (1180000000000000001, 2, 'toy', 'lobby', 3, '{}', 's', 'a', 1.5, 1.5)"
    )
    if is_postgres_url(url):
        import asyncpg

        con = await asyncpg.connect(url)
        try:
            await con.execute("CREATE TABLE parley_schema (version INTEGER NOT NULL)")
            for step in RELEASED[:steps]:
                await con.execute(step.text("postgresql"))
            await con.execute("INSERT INTO parley_schema (version) VALUES ($1)", steps)
            if steps:
                await con.execute(row)
        finally:
            await con.close()
        return
    con = sqlite3.connect(url)
    try:
        for step in RELEASED[:steps]:
            con.executescript(step.text("sqlite"))
        con.execute(f"PRAGMA user_version = {steps}")
        if steps:
            con.execute(row)
        con.commit()
    finally:
        con.close()


def _affinity(declared: str) -> str:
    """SQLite's reading of a declared type (https://sqlite.org/datatype3.html#determination_of_column_affinity):
    a released step said BIGINT where the declared schema says INTEGER, which SQLite stores alike."""
    t = declared.upper()
    if "INT" in t:
        return "INTEGER"
    if any(k in t for k in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if any(k in t for k in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return t


async def shape(store: Store) -> dict[str, Any]:
    """Every table's columns (in order, with type, nullability, default and key) and every index."""
    fetch = store.db.fetch
    if store.dialect == "postgresql":
        columns = await fetch(
            "SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity"
            " FROM information_schema.columns WHERE table_schema = current_schema()"
            " ORDER BY table_name, ordinal_position"
        )
        indexes = await fetch(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            " ORDER BY tablename, indexname"
        )
        schema = str((await fetch("SELECT current_schema()"))[0][0])
        return {
            "columns": [tuple(r.values()) for r in columns],
            "indexes": [(r["tablename"], r["indexname"], r["indexdef"].replace(f"{schema}.", "")) for r in indexes],
        }
    out: dict[str, Any] = {}
    for name in sorted(await store.table_names()):
        info = await fetch(f"PRAGMA table_info({name})")
        out[name] = [(r["name"], _affinity(r["type"]), r["notnull"], r["dflt_value"], r["pk"]) for r in info]
        # what is unique (the primary key, whether a rowid alias or an automatic index, and UNIQUE columns) and
        # the named indexes: INTEGER PRIMARY KEY and BIGINT PRIMARY KEY differ in SQLite only in that index
        unique = {tuple(r["name"] for r in sorted(info, key=lambda r: r["pk"]) if r["pk"])}
        named = []
        for r in await fetch(f"PRAGMA index_list({name})"):
            on = tuple(c["name"] for c in await fetch(f"PRAGMA index_info({r['name']})"))
            if r["unique"]:
                unique.add(on)
            if not r["name"].startswith("sqlite_autoindex_"):
                named.append((r["name"], on))
        out[name + " unique"] = sorted(unique)
        out[name + " indexes"] = sorted(named)
    return out


@pytest.mark.parametrize("steps", range(len(RELEASED) + 1))
async def test_a_database_at_every_released_step_upgrades_to_the_declared_schema(
    db_url: str, tmp_path: Any, steps: int
) -> None:
    fresh_url = db_url if steps == 0 else None
    if fresh_url is None:
        await released(db_url, steps)
    old = Store(db_url)
    await old.open()
    try:
        assert await old.schema_version() == len(MIGRATIONS)
        assert await old.ratings.pending()  # the games finished before ratings are still to be rated
        if steps:
            row = await old.tables.get(1)
            assert row is not None and row.guild_id == 1180000000000000001 and row.host_name is None
        upgraded = await shape(old)
    finally:
        await old.close()
    if steps == 0:
        return
    # the same server (or folder), a database made from the declared schema alone
    fresh = Store(str(tmp_path / "fresh.sqlite3")) if not is_postgres_url(db_url) else None
    if fresh is None:
        from tests import pg

        url, drop = pg.fresh_schema()
        fresh = Store(url)
    else:
        drop = None
    await fresh.open()
    try:
        assert await shape(fresh) == upgraded
    finally:
        await fresh.close()
        if drop is not None:
            drop()
