"""Shard ranges, their settings, and a host that serves only the tables of the guilds on its shards."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli.main import _parser, run_settings
from bot.host.tables import Caller, TableHost
from bot.infra.settings import SettingsError, load
from bot.infra.shards import ShardError, Shards, format_ranges, parse_ranges, shard_of
from bot.infra.store import Store
from rules import registry
from tests.host.conftest import Clock, RecordingRenderer

COUNT = 2
MINE = 7 << 22 | 1  # shard 1 of 2 (guild ids carry their creation time above bit 22; the shard is taken from there)
THEIRS = 8 << 22 | 1  # shard 0 of 2


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._MODULES, "toy", "tests.host.toygame")


def test_discords_formula_and_the_ranges() -> None:
    assert shard_of(MINE, COUNT) == 1 and shard_of(THEIRS, COUNT) == 0
    assert shard_of(81384788765712384, 8) == (81384788765712384 >> 22) % 8
    assert parse_ranges("0-3") == (0, 1, 2, 3)
    assert parse_ranges(" 5, 0-1,1 ") == (0, 1, 5)
    assert format_ranges((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    for bad in ("", "a-b", "3-1", "-2", "1-"):
        with pytest.raises(ShardError):
            parse_ranges(bad)


def test_a_process_owns_only_its_shards() -> None:
    shards = Shards.of("1", COUNT)
    assert shards.owns(MINE) and not shards.owns(THEIRS)
    assert shards.describe() == "shard 1 of 2" and Shards.of("0-3", 8).describe() == "shards 0-3 of 8"
    assert Shards.of("0-1", COUNT).everything and Shards.of(None, None).owns(THEIRS)
    assert Shards.of(None, 4).ids == (0, 1, 2, 3)  # a count alone: all its shards
    with pytest.raises(ShardError, match="needs a shard count"):
        Shards.of("0-3", None)
    with pytest.raises(ShardError, match="shard 8 does not exist with 8 shards"):
        Shards.of("4-8", 8)


def test_shards_from_the_environment_and_the_command_line(tmp_path: Path) -> None:
    env = {"PARLEY_SHARDS": "0-3", "PARLEY_SHARD_COUNT": "8", "PARLEY_LEASE_SECONDS": "5"}
    settings = load(None, env)
    assert settings.shards == Shards((0, 1, 2, 3), 8) and settings.lease_seconds == 5.0
    assert "shards 0-3 of 8" in repr(settings)
    assert load(None, {}).shards == Shards() and load(None, {}).lease_seconds == 30.0
    for bad, message in (
        ({"PARLEY_SHARDS": "0-3"}, "needs a shard count"),
        ({"PARLEY_SHARD_COUNT": "eight"}, "PARLEY_SHARD_COUNT"),
        ({"PARLEY_LEASE_SECONDS": "0"}, "PARLEY_LEASE_SECONDS"),
    ):
        with pytest.raises(SettingsError, match=message):
            load(None, bad)

    def cli(*argv: str) -> argparse.Namespace:
        args, _ = _parser().parse_known_args(["run", *argv])
        return args

    no_env = str(tmp_path / "none.env")
    args = cli("--shards", "4-7", "--shard-count", "8")
    assert (args.shards, args.shard_count) == ("4-7", 8)
    assert run_settings(no_env, args).shards == Shards((4, 5, 6, 7), 8)
    assert run_settings(no_env, cli()).shards == Shards()  # no flag: exactly as before, every shard
    with pytest.raises(SettingsError, match="--shards"):
        run_settings(no_env, cli("--shards", "4-7"))


async def test_a_host_restores_times_and_reposts_only_the_tables_of_its_shards(db_url: str) -> None:
    db = db_url  # a SQLite file, then a PostgreSQL schema
    clock = Clock()
    mine, theirs = Caller(MINE, 10, 100, "Ana", moderator=True), Caller(THEIRS, 20, 200, "Bea", moderator=True)
    first = TableHost(Store(db), clock=clock, ai_seed="t", renderer=RecordingRenderer())
    await first.start()
    for caller in (mine, theirs):
        assert (await first.open(caller, "toy", {})).ok
        assert (await first.ai_add(caller)).ok
        assert (await first.start_table(caller)).ok
        assert (await first.play(caller, "ready")).ok
    await first.close()

    shards = Shards.of("1", COUNT)
    second = TableHost(Store(db), clock=clock, ai_seed="t", renderer=RecordingRenderer(), owns_guild=shards.owns)
    await second.start()
    try:
        assert second.table_for(10) is not None and second.table_for(20) is None
        assert {t.guild_id for t in second.index.tables.values()} == {MINE}  # noqa: SLF001 - look inside
        # a time-out falls due at both tables: only this process's table is timed
        clock.advance(10 * 24 * 3600)
        outs = await second.tick()
        assert outs and {o.channel_id for o in outs} == {10}
        # the other table's log is untouched: its owner will time it
        other = await second.store.tables.with_status("running")
        assert {row.channel_id for row in other} >= {20}
        theirs_row = next(row for row in other if row.channel_id == 20)
        assert len(await second.store.tables.log(theirs_row.id)) == 2  # ready and the AI's ready, nothing more
        # and no board of the other guild is reposted here, even though none was ever delivered
        assert all(o.channel_id == 10 for o in await second.lost_boards())
        # nor its DMs a crash kept from going out (running or finished tables: the guild decides)
        rows = {c: (await second.store.tables.last_in(c)).id for c in (10, 20)}  # type: ignore[union-attr]
        await second.store.posts.owe_dms([(rows[10], 100, 1, "mine"), (rows[20], 200, 1, "theirs")], 1.0)
        await second.store.tables.set_status(rows[20], "finished", clock())
        assert [p.text for o in await second.lost_dms() for _, p in o.private] == [
            "-# Sent late: Parley restarted before this message went out. /hand shows your view now.\nmine"
        ]
    finally:
        await second.close()


def test_a_shard_range_on_sqlite_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.transports.discord.client import run

    settings = load(
        None,
        {
            "DISCORD_TOKEN": "x",
            "PARLEY_DB": str(tmp_path / "p.sqlite3"),
            "PARLEY_SHARDS": "0-1",
            "PARLEY_SHARD_COUNT": "4",
        },
    )
    assert run(settings) == 2
    assert capsys.readouterr().err == (
        "parley: serving shards 0-1 of 4 needs a shared PostgreSQL (PARLEY_DB=postgresql://…).\n"
    )
