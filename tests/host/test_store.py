"""The store contract, straight against each store (SQLite file and PostgreSQL schema, ``db_url``): the same
calls give the same answers on both, and the transactional guarantees hold on both."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.infra.settings import Settings
from bot.infra.store import MIGRATIONS, Commit, DeadlineRow, IntegrityError, SeatRow, Store

SNOWFLAKE = 1_180_000_000_000_000_123  # Discord ids need 64 bits


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = Store(db_url)
    await s.open()
    yield s
    await s.close()


async def new_table(store: Store, channel: int = SNOWFLAKE + 1) -> int:
    return await store.tables.create(
        guild_id=SNOWFLAKE,
        channel_id=channel,
        game_id="toy",
        host_id=SNOWFLAKE + 2,
        options={"length": "long"},
        seed="s",
        ai_seed="a",
        now=1.5,
        seats=[SeatRow(0, SNOWFLAKE + 2, "Ana", None), SeatRow(1, None, "AI", "easy")],
    )


async def append(store: Store, table_id: int, n: int, **kw: object) -> None:
    args: dict[str, object] = dict(
        n=n, kind="action", seat=0, action="mark", by_ai=False, user_id=SNOWFLAKE + 2, public=[f"move {n}"]
    )
    args.update(kw)
    await store.append(Commit(table_id, snapshot={"n": n}, now=10.0 + n, **args))  # type: ignore[arg-type]


async def test_a_table_round_trips_with_64_bit_ids(store: Store) -> None:
    table_id = await new_table(store)
    row = await store.tables.get(table_id)
    assert row is not None
    assert (row.guild_id, row.channel_id, row.host_id, row.status, row.options) == (
        SNOWFLAKE,
        SNOWFLAKE + 1,
        SNOWFLAKE + 2,
        "lobby",
        {"length": "long"},
    )
    assert row.created == 1.5 and row.snapshot is None
    assert [s.name for s in await store.seats.of(table_id)] == ["Ana", "AI"]
    assert (await store.tables.last_in(SNOWFLAKE + 1)).id == table_id  # type: ignore[union-attr]
    assert await new_table(store, channel=5) > table_id  # ids grow


async def test_the_log_is_append_only_and_a_failed_append_writes_nothing(store: Store) -> None:
    table_id = await new_table(store)
    await store.tables.begin(table_id, await store.seats.of(table_id), {"n": 0}, now=2.0)
    deadline = DeadlineRow(table_id, 0, 11.0, 99.5, False)
    await append(store, table_id, 1, deadlines=[deadline])
    with pytest.raises(IntegrityError):
        await append(store, table_id, 1, action="other", deadlines=[])
    # nothing of the failed transaction stays: not its snapshot, not its deadlines
    row = await store.tables.get(table_id)
    assert row is not None and (row.state_no, row.snapshot, row.status) == (1, {"n": 1}, "running")
    assert await store.tables.deadlines(table_id) == [deadline]
    assert [(e.n, e.action, e.public) for e in await store.tables.log(table_id)] == [(1, "mark", ["move 1"])]
    await append(store, table_id, 2, kind="undo", seat=None, action=None)
    assert [e.kind for e in await store.tables.log(table_id)] == ["action", "undo"]


async def test_the_final_move_commits_its_results_and_clears_the_deadlines(store: Store) -> None:
    table_id = await new_table(store)
    await store.tables.begin(table_id, await store.seats.of(table_id), {"n": 0}, now=2.0)
    await append(store, table_id, 1, deadlines=[DeadlineRow(table_id, 0, 1.0, 2.0, False)])
    result = dict(table_id=table_id, guild_id=SNOWFLAKE, game_id="toy", user_id=SNOWFLAKE + 2, name="Ana")
    await append(
        store, table_id, 2, finished=True, results=[{**result, "seat": 0, "won": True, "score": 3, "finished": 12}]
    )
    row = await store.tables.get(table_id)
    assert row is not None and row.status == "finished" and await store.tables.deadlines(table_id) == []
    assert await store.guilds.user_stats(SNOWFLAKE, SNOWFLAKE + 2) == [("toy", 1, 1)]
    assert await store.guilds.user_stats(SNOWFLAKE + 1, SNOWFLAKE + 2) == []  # another server's statistics are its own
    assert await store.guilds.leaderboard(SNOWFLAKE, "toy") == [(SNOWFLAKE + 2, "Ana", 1, 1)]
    assert await store.guilds.user_name(SNOWFLAKE, SNOWFLAKE + 2) == "Ana"
    assert await store.guilds.user_name(SNOWFLAKE + 1, SNOWFLAKE + 2) is None
    # recording the same seat again replaces it
    await store.guilds.record_results([{**result, "seat": 0, "won": False, "score": None, "finished": 13, "name": "Ana B"}])
    assert await store.guilds.leaderboard(SNOWFLAKE, "toy") == [(SNOWFLAKE + 2, "Ana B", 0, 1)]
    assert await store.guilds.forget_user(SNOWFLAKE + 2) == 1 and await store.guilds.user_stats(SNOWFLAKE, SNOWFLAKE + 2) == []


async def test_settings_board_posts_and_statuses(store: Store) -> None:
    assert (await store.guilds.settings(SNOWFLAKE))["turn_limit_seconds"] == 86400
    await store.guilds.save_settings(SNOWFLAKE, {"host_role_id": SNOWFLAKE + 9, "anyone_can_open": True})
    await store.guilds.save_settings(SNOWFLAKE, {"host_role_id": SNOWFLAKE + 9, "turn_limit_seconds": 600})
    assert await store.guilds.settings(SNOWFLAKE) == {
        "host_role_id": SNOWFLAKE + 9,
        "anyone_can_open": False,
        "turn_limit_seconds": 600,
        "ai_takeover": True,
        "web_pages": True,
    }
    table_id = await new_table(store)
    await store.posts.save_board_post(table_id, "k1", SNOWFLAKE + 1, SNOWFLAKE + 7, 0)
    await store.posts.save_board_post(table_id, "k2", SNOWFLAKE + 1, SNOWFLAKE + 8, 3)
    assert await store.posts.board_post(table_id) == ("k2", SNOWFLAKE + 1, SNOWFLAKE + 8)
    assert await store.posts.shown_states() == {table_id: 3}
    assert [t.id for t in await store.tables.with_status("lobby")] == [table_id]
    assert list(await store.seats.by_status("lobby")) == [table_id]
    await store.tables.set_deadlines(table_id, [DeadlineRow(table_id, 1, 1.0, 2.0, True)])
    await store.tables.set_status(table_id, "abandoned", now=3.0)
    assert await store.tables.with_status("lobby", "running") == [] and await store.tables.deadlines() == []
    assert await store.posts.shown_states() == {}


async def test_migrations_are_numbered_and_idempotent(db_url: str) -> None:
    first, second = Store(db_url), Store(db_url)
    await first.open()
    await second.open()  # a second process on the same database finds nothing left to migrate
    try:
        assert await first.schema_version() == await second.schema_version() == len(MIGRATIONS)
        await second.migrate()
        assert await first.schema_version() == len(MIGRATIONS)
    finally:
        await first.close()
        await second.close()


def test_the_url_picks_the_store() -> None:
    from bot.infra.store.postgres import PostgresDatabase
    from bot.infra.store.sqlite import SQLiteDatabase

    assert type(Store("postgresql://u:secret@h/db").db) is PostgresDatabase
    assert type(Store("postgres://h/db").db) is PostgresDatabase
    plain, url = Store("x/parley.sqlite3").db, Store("sqlite:///x/parley.sqlite3").db
    assert type(plain) is type(url) is SQLiteDatabase and plain.path == url.path == "x/parley.sqlite3"  # type: ignore[attr-defined]
    assert Store("sqlite:////abs/p.db").db.path == "/abs/p.db"  # type: ignore[attr-defined]
    assert "secret" not in repr(Store("postgresql://u:secret@h/db"))
    assert "secret" not in repr(Store("postgresql://h/db?user=u&password=secret"))
    assert "secret" not in repr(Settings(db_path="postgresql://u:secret@h/db"))


def test_without_a_server_the_postgresql_tests_skip_but_fail_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import pg

    monkeypatch.setattr(pg, "unreachable", lambda: "ConnectionRefusedError: nobody there")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="need a server at .*nobody there"):
        pg.require_server()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true, so this is a failure"):
        pg.require_server()


async def test_dms_owed_until_sent_and_a_handed_on_host(store: Store) -> None:
    table_id = await new_table(store)
    user = SNOWFLAKE + 2
    await store.posts.owe_dms([(table_id, user, 3, "drew a key"), (table_id, SNOWFLAKE + 5, 3, "other")], 1.0)
    await store.posts.owe_dms([(table_id, user, 3, "the same moment again"), (table_id, user, 5, "drew a hat")], 2.0)
    assert await store.posts.dms_owed() == [
        (table_id, user, 3, "drew a key"),  # one per user, table and state: the second of a moment is not kept
        (table_id, SNOWFLAKE + 5, 3, "other"),
        (table_id, user, 5, "drew a hat"),
    ]
    await store.posts.dm_sent(table_id, user, 4)  # what was sent up to state 4 is no longer owed
    assert await store.posts.dms_owed() == [(table_id, SNOWFLAKE + 5, 3, "other"), (table_id, user, 5, "drew a hat")]
    await store.tables.set_host(table_id, SNOWFLAKE + 5, 3.0)
    row = await store.tables.get(table_id)
    assert row is not None and row.host_id == SNOWFLAKE + 5
