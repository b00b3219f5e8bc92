"""Operator errors as real processes: ``parley run``, ``parley db copy`` and ``parley ratings rebuild`` given a
database they cannot use (a corrupt SQLite file, a path that cannot be created, a directory, a malformed
PostgreSQL URL, a server nobody answers at) each print one line on stderr and exit non-zero: no traceback, no
password, and no hang (every process runs under a timeout; a store left open after a failed start used to keep
``parley run`` alive forever). ``parley run`` is pointed at the loopback fake Discord, so nothing here reaches
the network even if the database were not checked first."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.infra.lease import LeaseError, ShardLease
from bot.infra.shards import ALL
from bot.infra.store import PostgresDatabase, Store, StoreError
from bot.infra.store import errors as store_errors
from tests import pg
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "s3cret-pw"
#: seconds a failing command may take: far more than one needs, far less than a hang
BOUND = 60
UNREACHABLE = f"postgresql://parley:{PASSWORD}@127.0.0.1:1/parley"  # port 1: nothing listens, refused at once


def bad_databases(tmp: Path) -> dict[str, str]:
    """Databases a command cannot use, by what is wrong with them."""
    corrupt = tmp / "corrupt.sqlite3"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"this is not a database page " * 200)
    blocker = tmp / "a-file"
    blocker.write_text("not a folder")
    folder = tmp / "a-folder"
    folder.mkdir()
    return {
        "corrupt": str(corrupt),
        "unwritable": str(blocker / "parley.sqlite3"),  # its folder cannot be created: a file is in the way
        "directory": str(folder),
        "port-not-a-number": f"postgresql://parley:{PASSWORD}@127.0.0.1:notaport/parley",
        "port-out-of-range": f"postgresql://parley:{PASSWORD}@127.0.0.1:99999/parley",
        "unreachable": UNREACHABLE,
    }


EXPECTED = {
    "corrupt": "is not a usable SQLite database (file is not a database)",
    "unwritable": "cannot create the folder of the SQLite file",
    "directory": "a-folder is a folder, not a SQLite database file",
    "port-not-a-number": "the port 'notaport' in postgresql://parley:***@127.0.0.1:notaport/parley is not a number",
    "port-out-of-range": "the port '99999' in postgresql://parley:***@127.0.0.1:99999/parley is not a number",
    "unreachable": "cannot reach PostgreSQL",
}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def parley(args: list[str], tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PARLEY_", "DISCORD_"))}
    environ.update(PYTHONPATH=str(ROOT), PARLEY_RENDER_PROCESSES="1", PARLEY_AI_PROCESSES="1", **env)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=tmp, env=environ, timeout=BOUND)


def one_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The process failed with exactly one line on stderr, no traceback and no password; that line."""
    everything = proc.stdout + proc.stderr
    assert proc.returncode != 0, everything
    assert "Traceback" not in everything and PASSWORD not in everything, everything
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("parley: "), everything
    return lines[0]


@pytest.mark.parametrize("case", list(EXPECTED))
def test_parley_run_with_a_database_it_cannot_use_says_so_in_one_line(
    case: str, tmp_path: Path, fake: FakeDiscord
) -> None:
    db = bad_databases(tmp_path)[case]
    proc = parley(
        ["-m", "tests.discord.fakediscord", str(fake.port), "--env-file", str(tmp_path / "no.env"), "run"],
        tmp_path,
        DISCORD_TOKEN=GOOD_TOKEN,
        PARLEY_DB=db,
    )
    line = one_line(proc)
    if case == "unreachable":  # the lease is claimed first, on PostgreSQL; nothing claimed, nothing released
        assert "cannot reach PostgreSQL to claim every shard" in line and proc.returncode == 3, line
    else:
        assert EXPECTED[case] in line and proc.returncode == 2, line
    assert not fake.identified, "the bot connected to Discord with a database it cannot use"


@pytest.mark.parametrize("case", list(EXPECTED))
def test_parley_ratings_rebuild_with_a_database_it_cannot_use_says_so_in_one_line(case: str, tmp_path: Path) -> None:
    db = bad_databases(tmp_path)[case]
    line = one_line(parley(["-m", "bot", "--env-file", "no.env", "ratings", "rebuild", "--db", db], tmp_path))
    expected = "there is no SQLite database at" if case == "unwritable" else EXPECTED[case]
    assert expected in line, line


@pytest.mark.parametrize("case", list(EXPECTED))
def test_parley_db_copy_from_or_to_a_database_it_cannot_use_says_so_in_one_line(case: str, tmp_path: Path) -> None:
    db = bad_databases(tmp_path)[case]
    good = str(tmp_path / "good.sqlite3")
    copy = ["-m", "bot", "--env-file", "no.env", "db", "copy"]
    if case in ("corrupt", "unreachable", "port-not-a-number"):
        args, expected = ["--from", db, "--to", good], EXPECTED[case]  # a source it cannot read
    else:
        source = tmp_path / "source.sqlite3"
        asyncio.run(_empty_database(str(source)))
        args, expected = ["--from", str(source), "--to", db], EXPECTED[case]  # a target it cannot write
    line = one_line(parley([*copy, *args], tmp_path))
    assert expected in line, line


def test_a_missing_source_or_database_is_refused_instead_of_created(tmp_path: Path) -> None:
    """A typo in --from or --db must not create an empty database and report success."""
    missing = tmp_path / "typo.sqlite3"
    line = one_line(parley(["-m", "bot", "--env-file", "no.env", "ratings", "rebuild", "--db", str(missing)], tmp_path))
    assert line == f"parley: there is no SQLite database at {missing}"
    copy = ["-m", "bot", "--env-file", "no.env", "db", "copy", "--from", str(missing), "--to", str(tmp_path / "t.db")]
    assert one_line(parley(copy, tmp_path)) == f"parley: there is no SQLite database at {missing}"
    assert not missing.exists()


async def _empty_database(path: str) -> None:
    store = Store(path)
    await store.open()
    await store.close()


# -- in this process: what makes the lines above possible ------------------------------------------------------
async def test_a_store_that_fails_to_open_leaves_nothing_running(tmp_path: Path) -> None:
    """aiosqlite runs each connection in a thread of its own; one left behind by a failed open kept ``parley
    run`` from ever exiting."""
    path = bad_databases(tmp_path)["corrupt"]
    before = set(threading.enumerate())
    store = Store(path)
    with pytest.raises(StoreError) as failed:
        await store.open()
    assert not failed.value.retry and failed.value.exit_code == 2
    for _ in range(100):
        if not [t for t in threading.enumerate() if t not in before and t.is_alive()]:
            break
        await asyncio.sleep(0.05)
    assert [t.name for t in threading.enumerate() if t not in before and t.is_alive()] == []


async def test_a_postgresql_server_that_never_answers_is_given_up_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that accepts the connection and then says nothing (a wedged machine, a firewall that drops): the
    store stops waiting after CONNECT_SECONDS (10 s in production; 0.5 s here) instead of asyncpg's 60."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        try:
            accepted.append(listener.accept()[0])  # and never a byte back
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    monkeypatch.setattr(store_errors, "CONNECT_SECONDS", 0.5)
    monkeypatch.setattr("bot.infra.store.postgres.CONNECT_SECONDS", 0.5)
    port = listener.getsockname()[1]
    store = PostgresDatabase(f"postgresql://parley:{PASSWORD}@127.0.0.1:{port}/parley")
    try:
        with pytest.raises(StoreError) as failed:
            await asyncio.wait_for(store.open(), BOUND)
    finally:
        listener.close()
        for s in accepted:
            s.close()
    assert failed.value.retry and "no answer within 0.5 s" in str(failed.value)
    assert PASSWORD not in str(failed.value)


async def test_a_lease_never_claimed_is_not_released(caplog: pytest.LogCaptureFixture) -> None:
    """A start that failed to claim its shards logged "could not release the lease" though it held nothing."""
    lease = ShardLease(UNREACHABLE, ALL, 30)
    with caplog.at_level(logging.DEBUG, logger="parley.lease"):
        with pytest.raises(LeaseError, match="cannot reach PostgreSQL"):
            await lease.acquire()
        await lease.release()
    assert caplog.records == []


async def test_a_database_postgresql_refuses_is_one_line(tmp_path: Path) -> None:
    """A reachable server that refuses: a database that does not exist."""
    pg.require_server()
    url = pg.SERVER.rsplit("/", 1)[0] + "/parley_no_such_database"
    with pytest.raises(StoreError) as failed:
        await Store(url).open()
    assert "does not exist" in str(failed.value) and "\n" not in str(failed.value)
