"""``parley db copy``: a server's data from SQLite to PostgreSQL and back, row for row, verified by replaying
every copied log; a host on the copy carries on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from bot.infra.store import DATA_TABLES, Store
from bot.infra.store.copy import CopyError, copy_database
from tests import pg
from tests.host.conftest import ANA, BEN, CHANNEL, HostFactory, raw_write, running


@pytest.fixture
def pg_url() -> Any:
    url, drop = pg.fresh_schema()
    yield url
    drop()


async def everything(url: str) -> dict[str, list[dict[str, Any]]]:
    store = Store(url)
    await store.open()
    try:
        return {t: [r async for batch in store.rows(t) for r in batch] for t in DATA_TABLES}
    finally:
        await store.close()


async def fill(make_host: HostFactory) -> None:
    """A running table, a finished one with results, a lobby, settings and a board post."""
    host = await make_host()
    out = await running(host, BEN, options={"length": "long"})
    board = next(p for p in out.public if p.board_key is not None)
    await host.store.posts.save_board_post(board.table_id, board.board_key, CHANNEL, 555, board.state_no)
    assert (await host.play(ANA, "mark")).ok
    c2 = CHANNEL + 1
    ana2, ben2 = ANA.__class__(1, c2, ANA.user_id, "Ana", moderator=True), BEN.__class__(1, c2, BEN.user_id, "Ben")
    assert (await host.open(ana2, "toy", {})).ok and (await host.join(ben2)).ok
    assert (await host.start_table(ana2)).ok
    assert (await host.play(ana2, "ready")).ok and (await host.play(ben2, "ready")).ok
    for _ in range(200):
        summary = host.table_for(c2)
        if summary is None or summary.status != "running":
            break
        who = ana2 if 0 in summary.to_act else ben2
        assert (await host.play(who, (await host.choices(who))[0].action)).ok
    assert host.table_for(c2).status == "finished"
    c3 = CHANNEL + 2
    assert (await host.open(ANA.__class__(1, c3, ANA.user_id, "Ana", moderator=True), "toy", {})).ok
    await host.store.guilds.save_settings(1, {"turn_limit_seconds": 600})
    await host.close()


async def test_sqlite_to_postgresql_and_back_row_for_row(
    make_host: HostFactory, db_path: str, pg_url: str, tmp_path: Path
) -> None:
    await fill(make_host)
    report = await copy_database(db_path, pg_url)
    assert report.ok and report.replayed >= 2 and report.rows["actions"] > 0, report
    back = str(tmp_path / "back.sqlite3")
    assert (await copy_database(pg_url, back)).ok
    original, there, again = await everything(db_path), await everything(pg_url), await everything(back)
    assert original == there == again and original["results"] and original["board_posts"]

    # a host on the copy carries on, and new tables are numbered after the copied ones
    host = await make_host(pg_url)
    assert host.table_for(CHANNEL).status == "running"
    assert (await host.play(ANA, "mark")).ok
    assert (await host.open(ANA.__class__(1, CHANNEL + 5, ANA.user_id, "Ana", moderator=True), "toy", {})).ok
    assert host.table_for(CHANNEL + 5).table_id > max(r["id"] for r in original["tables"])


async def test_the_copy_refuses_a_target_with_data_and_reports_a_log_that_does_not_replay(
    make_host: HostFactory, db_path: str, pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await fill(make_host)
    # the command line, as a server owner types it (in a thread: it runs its own event loop)
    assert await asyncio.to_thread(main, ["db", "copy", "--from", db_path, "--to", pg_url]) == 0
    assert (
        await asyncio.to_thread(main, ["db", "copy", "--from", db_path, "--to", pg_url]) == 2
    )  # the target holds data now
    assert "already holds data" in capsys.readouterr().err
    with pytest.raises(CopyError):
        await copy_database(db_path, pg_url)

    await raw_write(db_path, "UPDATE actions SET action = 'end' WHERE action = 'mark'")
    assert (
        await asyncio.to_thread(main, ["db", "copy", "--from", db_path, "--to", str(tmp_path / "other.sqlite3")]) == 1
    )
    assert "MISMATCH table" in capsys.readouterr().out
