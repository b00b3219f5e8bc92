"""Ratings through the host and the store: updated with the game-ending move, shown by /leaderboard, /stats
and the end-of-game summary, rebuilt from the finished tables, rated once by the migration, forgotten."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.cli.main import main
from bot.host import ratings as R
from bot.host.ratings_rebuild import rated_games, rebuild
from bot.host.tables import Caller, TableHost
from bot.infra.store import MIGRATIONS, Commit, Rater, Store
from bot.infra.store import ratings as store_ratings
from bot.infra.store.ratings import RatingRepo
from tests.host.conftest import ANA, BEN, CHANNEL, CID, GUILD, Clock, HostFactory, raw_read, running
from tests.host.test_play import play_to_end


async def games(host: TableHost, clock: Clock, count: int, *callers: Caller, ais: int = 1) -> list[str]:
    """``count`` toy games in a row in one channel; the summary post of each."""
    summaries = []
    for _ in range(count):
        await running(host, *callers, ais=ais)
        outs = await play_to_end(host, ANA, *callers)
        summaries.append(next(p.text for p in outs[-1].public if "Game over" in p.text))
        clock.advance(60)
    return summaries


@pytest.fixture
def db_path(db_url: str) -> str:
    """The host fixtures' database is ``db_url``: every test here runs on SQLite and on PostgreSQL."""
    return db_url


async def rows(url: str, sql: str) -> list[tuple]:
    return [tuple(r) for r in await raw_read(url, sql)]


RATINGS = "SELECT guild_id, game_id, player, user_id, name, mu, sigma, games FROM ratings ORDER BY player"
CHANGES = "SELECT * FROM rating_changes ORDER BY table_id, seat"


async def test_the_final_move_rates_the_game_and_the_summary_shows_the_change(
    host: TableHost, clock: Clock, db_path: str
) -> None:
    [summary] = await games(host, clock, 1, BEN)
    stored = {r[2]: r for r in await rows(db_path, RATINGS)}
    assert set(stored) == {"100", "101", "ai:normal"}
    assert stored["ai:normal"][3:5] == (None, "Parley AI · normal") and stored["100"][3:5] == (100, "Ana")
    line = summary.splitlines()[-1]
    assert line.startswith("Ratings: Ana 25.0 → ")
    for player, (_, _, _, _, name, mu, _, games_played) in stored.items():
        assert f"{name} 25.0 → {mu:.1f}" in line and games_played == 1, player
    # the winners gained, the others lost, as openskill computed them from the stored sides
    changes = await rows(db_path, "SELECT player, place, mu_before, mu_after FROM rating_changes")
    assert len(changes) == 3 and all(
        (mu_after > mu_before) == (place == 1) for _, place, mu_before, mu_after in changes
    )


async def test_leaderboard_lists_after_three_games_by_conservative_rating(host: TableHost, clock: Clock) -> None:
    await games(host, clock, 2, BEN, CID)
    assert "Nobody has 3 rated" in (await host.leaderboard(ANA, "toy")).reply
    await games(host, clock, 1, BEN, CID)
    board = (await host.leaderboard(ANA, "toy")).reply.splitlines()
    assert board[0] == "**Toy Gems** leaderboard · skill μ − 3σ · after 3 rated games"
    assert len(board) == 5 and all(line.endswith("(3 games)") or "3 games)" in line for line in board[1:])
    shown = [float(line.split("**")[1]) for line in board[1:]]
    assert shown == sorted(shown, reverse=True)
    ana = next(line for line in board[1:] if "Ana" in line)
    [(mu, sigma)] = [(r.mu, r.sigma) for _, uid, _, r in await host.store.ratings.board(GUILD, "toy", min_games=R.MIN_GAMES) if uid == 100]
    assert f"**{mu - 3 * sigma:.1f}** ({mu:.1f} ± {sigma:.1f}, 3 games)" in ana
    assert any("Parley AI · normal" in line for line in board)
    # /stats: this server's rating and rank per game
    stats = (await host.stats(ANA)).reply
    rank = [i for i, line in enumerate(board[1:], 1) if "Ana" in line][0]
    assert "Toy Gems: 3 played" in stats and f"rating {mu:.1f} ± {sigma:.1f} here, rank {rank}" in stats
    # another server has its own ratings
    elsewhere = Caller(GUILD + 1, CHANNEL + 1, 100, "Ana")
    assert "Nobody has 3 rated" in (await host.leaderboard(elsewhere, "toy")).reply


async def test_stats_before_three_games_says_unranked(host: TableHost, clock: Clock) -> None:
    await games(host, clock, 1, BEN)
    assert "here, unranked until 3 rated games" in (await host.stats(BEN)).reply


async def test_rebuild_equals_the_incremental_updates(
    host: TableHost, clock: Clock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_ratings, "RATING_BATCH", 2)  # the snapshots are read in several batches
    await games(host, clock, 3, BEN, CID, ais=1)
    await games(host, clock, 2, BEN, ais=0)
    incremental, changes = await rows(db_path, RATINGS), await rows(db_path, CHANGES)
    assert len(changes) == 3 * 4 + 2 * 2
    assert await rebuild(host.store) == 5
    assert await rows(db_path, RATINGS) == incremental and await rows(db_path, CHANGES) == changes
    # and the pure replay of the same games gives the same numbers
    replayed = R.replay(await rated_games(host.store))
    assert sorted((g, p, r.mu, r.sigma, r.games) for (_, g, p), r in replayed.items()) == [
        (g, p, mu, sigma, n) for _, g, p, _, _, mu, sigma, n in incremental
    ]


async def test_the_cli_rebuilds(host: TableHost, clock: Clock, db_path: str, capsys: pytest.CaptureFixture) -> None:
    await games(host, clock, 2, BEN)
    before = await rows(db_path, RATINGS)
    # a separate process's command, while the bot is idle (a thread here: asyncio.run needs its own loop)
    assert await asyncio.to_thread(main, ["--env-file", "/nonexistent", "ratings", "rebuild", "--db", db_path]) == 0
    assert "Rated 2 finished games." in capsys.readouterr().out
    assert await rows(db_path, RATINGS) == before


async def test_the_migration_rates_earlier_games_once(
    make_host: HostFactory, clock: Clock, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = db_url
    host = await make_host(path)
    await games(host, clock, 3, BEN)
    want = await rows(path, RATINGS)
    await host.close()
    # the same database as it was before ratings existed: schema version 4, no rating tables (nor later ones)
    store = Store(path)
    await store.open()
    async with store.transaction() as tx:
        # every table and column after step 4
        for table in (
            "ratings", "rating_changes", "rating_backfill", "dms_owed", "seat_history", "table_kicks",
            "web_links", "web_keys", "web_revoked",
        ):
            await tx.execute(f"DROP TABLE {table}")
        await tx.execute("ALTER TABLE tables DROP COLUMN host_name")
        await tx.execute("ALTER TABLE guild_settings DROP COLUMN web_pages")
        if store.dialect == "postgresql":
            await tx.execute("UPDATE parley_schema SET version = 4")
        else:
            await tx.execute("PRAGMA user_version = 4")
    await store.close()
    # the host's start migrates, then rates the earlier games
    host = await make_host(path)
    assert await host.store.schema_version() == len(MIGRATIONS)
    assert await rows(path, RATINGS) == want
    await host.close()
    # started again, nothing is rated a second time
    calls: list[int] = []
    real = RatingRepo.rebuild

    async def counting(self: RatingRepo, *args: Any, **kwargs: Any) -> int | None:
        calls.append(1)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(RatingRepo, "rebuild", counting)
    host = await make_host(path)
    await host.close()
    assert calls == [] and await rows(path, RATINGS) == want


async def test_forget_removes_ratings_too(host: TableHost, clock: Clock, db_path: str) -> None:
    await games(host, clock, 3, BEN)
    assert "ratings" in (await host.forget_me(BEN)).reply
    assert await rows(db_path, "SELECT * FROM ratings WHERE user_id = 101") == []
    assert await rows(db_path, "SELECT * FROM rating_changes WHERE user_id = 101") == []
    assert all("Ben" not in line for line in (await host.leaderboard(ANA, "toy")).reply.splitlines())
    assert len(await rows(db_path, "SELECT * FROM ratings")) == 2  # Ana and the AI keep theirs


async def test_a_player_who_left_is_rated_for_the_seat(host: TableHost, clock: Clock, db_path: str) -> None:
    await running(host, BEN, ais=1)
    assert (await host.leave(BEN)).ok  # an AI finishes Ben's seat
    await play_to_end(host, ANA)
    assert {r[2] for r in await rows(db_path, RATINGS)} == {"100", "101", "ai:normal"}
    # no result row (an AI finished the seat), but /stats shows the rating
    assert "• Toy Gems: rating " in (await host.stats(BEN)).reply


async def test_a_failing_rating_update_rolls_back_the_final_move(
    host: TableHost, clock: Clock, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rating is written in the final move's transaction: if it cannot be, the move is not committed either
    (and is refused), so no database ever holds a finished game without its rating."""
    await running(host, BEN, ais=1)

    def broken(*_: object) -> None:
        raise RuntimeError("rating failed")

    monkeypatch.setattr(R, "RATER", Rater(R.DEFAULT, broken))
    last = None
    for _ in range(500):
        summary = host.table_for(CHANNEL)
        assert summary is not None and summary.status == "running"
        choices = [c for c in (ANA, BEN) if await host.choices(c)]
        out = await host.play(choices[0], (await host.choices(choices[0]))[0].action, summary.state_no)
        if not out.ok:
            last = summary.state_no
            break
    assert last is not None and host.internal_errors == 1
    [(status, state_no)] = await rows(db_path, "SELECT status, state_no FROM tables")
    assert (status, state_no) == ("running", last)
    assert await rows(db_path, "SELECT * FROM results") == [] and await rows(db_path, "SELECT * FROM ratings") == []


async def test_two_processes_finishing_games_of_one_player_at_once_lose_no_update(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two stores on one database (two processes of a cluster) commit game-ending moves sharing a player at the same
    moment: the second waits for the first's rating and rates on top of it (PostgreSQL: the row lock)."""
    from bot.infra.store import SeatRow, postgres, sqlite
    from rules.core import Outcome

    # a pause after reading the ratings, so the other transaction surely reads them too unless a lock stops it
    # (SQLite reads on its database thread: that thread pauses, not the event loop)
    real_pg, real_sqlite = postgres._read, sqlite._fetch  # noqa: SLF001 - tests look inside

    async def slow_pg(con: object, sql: str, args: tuple = ()) -> list:
        got = await real_pg(con, sql, args)  # type: ignore[arg-type]
        if "FROM ratings" in sql:
            await asyncio.sleep(0.1)
        return got

    def slow_sqlite(con: object, sql: str, args: tuple = ()) -> list:
        got = real_sqlite(con, sql, args)  # type: ignore[arg-type]
        if "FROM ratings" in sql:
            time.sleep(0.1)
        return got

    monkeypatch.setattr(postgres, "_read", slow_pg)
    monkeypatch.setattr(sqlite, "_fetch", slow_sqlite)

    stores = [Store(db_url), Store(db_url)]
    for store in stores:
        await store.open()
    try:
        # Ana is rated already: her row exists, so nothing but its lock orders the two updates
        async with stores[0].transaction() as tx:
            await tx.execute(
                "INSERT INTO ratings (guild_id, game_id, player, user_id, name, mu, sigma, games, updated)"
                " VALUES (?, 'toy', '100', 100, 'Ana', 25.0, 8.0, 1, 0.0)",
                (GUILD,),
            )
        tables = []
        for k, store in enumerate(stores):
            seats = [SeatRow(0, 100, "Ana", None), SeatRow(1, 200 + k, f"P{k}", None)]
            table_id = await store.tables.create(
                guild_id=GUILD,
                channel_id=50 + k,
                game_id="toy",
                host_id=100,
                options={},
                seed="s",
                ai_seed="a",
                now=1.0,
                seats=seats,
            )
            await store.tables.begin(table_id, seats, {"n": 0}, 1.0)
            rated = R.rated_game(
                table_id=table_id,
                guild_id=GUILD,
                game_id="toy",
                finished=2.0 + k,
                seats=[(0, 100, "Ana", None, False), (1, 200 + k, f"P{k}", None, False)],
                outcome=Outcome((0,), "won"),
            )
            tables.append((store, table_id, rated))
        changes = await asyncio.gather(
            *(
                store.append(Commit(
                    table_id,
                    n=1,
                    kind="action",
                    seat=0,
                    action="x",
                    by_ai=False,
                    user_id=100,
                    public=[],
                    snapshot={"n": 1},
                    now=2.0,
                    finished=True,
                    rating=rated,
                    rater=R.RATER,
                ))
                for store, table_id, rated in tables
            )
        )
        ana = {r[2]: r for r in await rows(db_url, RATINGS)}["100"]
        assert ana[7] == 3  # both games counted
        # one of the two games saw the other's result as Ana's prior
        befores = sorted(c.before.mu for cs in changes for c in cs if c.player == "100")
        assert befores[0] == 25.0 and befores[1] > 25.0
        assert ana[5] == max(c.after.mu for cs in changes for c in cs if c.player == "100")
    finally:
        for store in stores:
            await store.close()
