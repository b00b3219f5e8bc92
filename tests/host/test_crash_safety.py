"""Crash safety: a table host in a child process is SIGKILLed at random moments, again and again, on one database
(a SQLite file, and a PostgreSQL schema: every test runs on both stores); after every kill no acknowledged move is missing and the database is intact, and every table's log
replays from its seed to its stored snapshot.

The child is :mod:`tests.host.crash_child`: every seat a human, two tables per game played at once, a tiny
picture for every board. The first run is a cold ``python -m tests.host.crash_child`` killed during its
imports or restore; the others are forked from a warmed fork server (same code, no second of imports and
Treasure Island geometry per start), each killed after a random number of acknowledged moves plus a random
jitter, or at a random moment of its start-up and restore. The child prints ``TRY`` before each move and
``ACK`` after the host returned ok; everything it printed before it died counts.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from bot.host import ratings
from bot.host.ratings_rebuild import rebuild
from bot.host.tables import Caller, TableHost
from bot.infra.replay import replay_steps, same_state
from bot.infra.store import LogRow, Store, is_postgres_url
from rules import registry
from tests import pg
from tests.host import crash_child

REPO = Path(__file__).resolve().parents[2]
KILLS = 60  # forked runs, plus the cold one
CHANNELS = 2 * len(crash_child.GAMES)
#: a child that neither acknowledges the moves it was waiting for nor dies in this long is stuck
STUCK_SECONDS = 30.0
#: tables replayed by the test itself (not only by each restarted host) every this many kills
REPLAY_EVERY = 10


@dataclass
class Move:
    table: int
    n: int
    seat: int
    kind: str
    action: str | None

    @classmethod
    def parse(cls, line: str) -> Move:
        _, table, n, seat, kind, action = line.split(" ", 5)
        return cls(int(table), int(n), int(seat), kind, None if kind == "undo" else action)


@dataclass
class Ledger:
    """What the children said: acknowledged moves, moves in flight when a child died, and what that shows."""

    acked: dict[tuple[int, int], Move] = field(default_factory=dict)
    in_flight: list[Move] = field(default_factory=list)  # of the latest run
    games: dict[int, str] = field(default_factory=dict)  # table id -> game id
    committed_unacked: Counter[str] = field(default_factory=Counter)  # killed after the commit, before the ACK
    lost_unacked: Counter[str] = field(default_factory=Counter)  # killed before the commit
    kills_in_start_up: int = 0
    readies: int = 0

    def take(self, lines: list[str]) -> None:
        tries: dict[int, Move] = {}
        for line in lines:
            word = line.split(" ", 1)[0]
            if word == "ERR" or word == "DONE":
                raise AssertionError(f"the child said: {line}")
            if word == "READY":
                _, errors, mismatches = line.split()
                assert errors == "0" and mismatches == "-", f"restarted host: {line}"
                self.readies += 1
            elif word == "TRY":
                move = Move.parse(line)
                tries[move.table] = move
            elif word == "ACK":
                move = Move.parse(line)
                assert tries.get(move.table) == move, f"ACK without its TRY: {line}"
                del tries[move.table]
                self.acked[(move.table, move.n)] = move
        if not any(line.startswith("READY") for line in lines):
            self.kills_in_start_up += 1
        self.in_flight = list(tries.values())


@dataclass
class Db:
    """One read-only look at the database file, as a restarted host would find it."""

    tables: dict[int, Any]  # sqlite3.Row or asyncpg.Record: both read by column name
    actions: dict[int, dict[int, Any]]
    results: Counter[int]
    rating_changes: Counter[int]  # rated seats per table
    seats: dict[int, list[Any]]

    @classmethod
    def read(cls, path: str) -> Db:
        if is_postgres_url(path):
            return cls.read_postgres(path)
        if not os.path.exists(path):
            # killed before the store created its file (a cold start on a busy machine): nothing was committed
            return cls({}, {}, Counter(), Counter(), {})
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        try:
            if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'actions'").fetchone():
                return cls({}, {}, Counter(), Counter(), {})  # killed before the first migration committed
            check = [r[0] for r in db.execute("PRAGMA integrity_check")]
            assert check == ["ok"], f"integrity_check: {check}"
            tables = {r["id"]: r for r in db.execute("SELECT * FROM tables ORDER BY id")}
            actions: dict[int, dict[int, sqlite3.Row]] = {}
            for r in db.execute("SELECT * FROM actions ORDER BY table_id, n"):
                actions.setdefault(r["table_id"], {})[r["n"]] = r
            results = Counter(r[0] for r in db.execute("SELECT table_id FROM results"))
            rating_changes = Counter(r[0] for r in db.execute("SELECT table_id FROM rating_changes"))
            seats: dict[int, list[sqlite3.Row]] = {}
            for r in db.execute("SELECT * FROM seats ORDER BY table_id, seat"):
                seats.setdefault(r["table_id"], []).append(r)
        finally:
            db.close()
        return cls(tables, actions, results, rating_changes, seats)

    def rated_seats(self, t: Any) -> int:
        """How many seats a finished table's rating update covers (0 where its rules rank nobody)."""
        game = registry.get(t["game_id"])
        outcome = game.outcome(game.load(json.loads(t["snapshot"])))
        seats = [(s["seat"], s["user_id"], s["name"], s["ai_level"], bool(s["vacated"])) for s in self.seats[t["id"]]]
        rated = ratings.rated_game(
            table_id=t["id"], guild_id=t["guild_id"], game_id=t["game_id"], finished=0.0, seats=seats, outcome=outcome
        )
        return 0 if rated is None else len(rated.entries)

    @classmethod
    def read_postgres(cls, url: str) -> Db:
        """The same look at a PostgreSQL schema, in one read-only transaction (one snapshot of every table)."""

        async def read() -> Db:
            import asyncpg

            con = await asyncpg.connect(url)
            try:
                async with con.transaction(isolation="repeatable_read", readonly=True):
                    tables = {r["id"]: r for r in await con.fetch("SELECT * FROM tables ORDER BY id")}
                    actions: dict[int, dict[int, Any]] = {}
                    for r in await con.fetch("SELECT * FROM actions ORDER BY table_id, n"):
                        actions.setdefault(r["table_id"], {})[r["n"]] = r
                    results = Counter(r[0] for r in await con.fetch("SELECT table_id FROM results"))
                    rating_changes = Counter(r[0] for r in await con.fetch("SELECT table_id FROM rating_changes"))
                    seats: dict[int, list[Any]] = {}
                    for r in await con.fetch("SELECT * FROM seats ORDER BY table_id, seat"):
                        seats.setdefault(r["table_id"], []).append(r)
            finally:
                await con.close()
            return cls(tables, actions, results, rating_changes, seats)

        return pg.run_sync(read)

    def log(self, table_id: int) -> list[LogRow]:
        return [
            LogRow(
                r["n"], r["kind"], r["seat"], r["action"], bool(r["by_ai"]), r["user_id"], json.loads(r["public"]), 0
            )
            for r in self.actions.get(table_id, {}).values()
        ]


def check_after_kill(path: str, ledger: Ledger, replayed: dict[int, int], replay_all: bool) -> None:
    db = Db.read(path)
    for t in db.tables.values():
        ledger.games[t["id"]] = t["game_id"]
    for (table, n), move in ledger.acked.items():
        row = db.actions.get(table, {}).get(n)
        assert row is not None, f"acknowledged move lost: table {table} ({ledger.games.get(table)}) move {n} {move}"
        assert (row["kind"], row["seat"], row["action"]) == (move.kind, move.seat, move.action), (
            f"table {table} move {n} is {tuple(row)} in the log, but {move} was acknowledged"
        )
    for move in ledger.in_flight:
        row = db.actions.get(move.table, {}).get(move.n)
        game = ledger.games.get(move.table, "?")
        if row is None:
            ledger.lost_unacked[game] += 1
        else:
            assert (row["kind"], row["seat"], row["action"]) == (move.kind, move.seat, move.action)
            ledger.committed_unacked[game] += 1
    for t in db.tables.values():
        ns = list(db.actions.get(t["id"], {}))
        if t["status"] == "lobby":
            assert ns == [] and t["snapshot"] is None, f"lobby table {t['id']} has moves or a snapshot"
            continue
        # the snapshot and the log entry are one transaction: the state number is always the last entry's
        assert ns == list(range(1, t["state_no"] + 1)), f"table {t['id']}: state {t['state_no']}, log {ns[-3:]}"
        if t["status"] == "finished":
            # committed with the game-ending move (every seat is a human here), and so is the rating update
            assert db.results[t["id"]] == t["players"], f"finished table {t['id']} lacks its results"
            assert db.rating_changes[t["id"]] == db.rated_seats(t), f"finished table {t['id']} lacks its ratings"
        else:
            assert db.rating_changes[t["id"]] == 0, f"table {t['id']} is rated but not finished"
        if replayed.get(t["id"]) != t["state_no"] and (replay_all or t["status"] == "finished"):
            game = registry.get(t["game_id"])
            steps = replay_steps(game, t["players"], json.loads(t["options"]), t["seed"], db.log(t["id"]))
            snapshot = game.load(json.loads(t["snapshot"]))
            assert same_state(game, steps[-1][1], snapshot), f"table {t['id']} ({t['game_id']}) does not replay"
            replayed[t["id"]] = t["state_no"]


class Lines:
    """The child's stdout, read by a thread so that waiting never blocks the child's writes."""

    def __init__(self, stream: IO[str]) -> None:
        self.queue: queue.Queue[str | None] = queue.Queue()
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def get(self, deadline: float) -> str | None:
        try:
            return self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError("the child is stuck: no line in time") from None


@dataclass
class Plan:
    """When to kill: ``seconds`` after the ``acks``-th acknowledged move, or (``acks`` None) ``seconds`` after the
    child was started, whatever it is doing then."""

    acks: int | None
    seconds: float

    @classmethod
    def draw(cls, rnd: random.Random) -> Plan:
        luck = rnd.random()
        if luck < 0.2:  # while it opens the database and restores the tables
            return cls(None, rnd.uniform(0.0, 0.15))
        if luck < 0.3:  # while it replays the logs of the tables it touches first, or soon after
            return cls(None, rnd.uniform(0.15, 0.6))
        return cls(rnd.randint(1, 60), rnd.uniform(0.0, 0.02))


def run_until_killed(lines: Lines, pid: int, plan: Plan, end_word: str | None = None) -> tuple[list[str], str | None]:
    """Collect the child's lines, SIGKILL it as planned, and return every line it wrote before it died, and the
    line starting with ``end_word`` that the reader sees once the child is gone (None: end of the stream)."""
    got: list[str] = []
    start = time.monotonic()
    acks = 0
    try:
        if plan.acks is not None:
            while acks < plan.acks:
                line = lines.get(start + STUCK_SECONDS)
                assert line is not None and not (end_word and line.startswith(end_word)), f"child ended: {got[-5:]}"
                got.append(line)
                acks += line.startswith("ACK")
            time.sleep(plan.seconds)
        else:
            time.sleep(max(0.0, start + plan.seconds - time.monotonic()))
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:  # it died by itself: the caller's checks say so
            pass
    while True:
        line = lines.get(time.monotonic() + STUCK_SECONDS)
        if line is None or (end_word and line.startswith(end_word)):
            return got, line
        got.append(line)


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}


def child_db(path: str) -> str:
    """The database as a child opens it. On PostgreSQL its connections carry a name of their own (the schema's), so
    that after a kill the test can wait until the server is done with them (:func:`wait_for_the_dead`)."""
    return f"{path}&application_name={_child_name(path)}" if is_postgres_url(path) else path


def _child_name(path: str) -> str:
    return "parley-crash-" + path.rpartition("search_path=")[2].split("&")[0]


def wait_for_the_dead(path: str) -> None:
    """On PostgreSQL, wait until the server has finished with a killed child's connections. A COMMIT the child sent
    just before it died still lands, and under a busy disk it can land a second later: a host restarted at once
    would read a table's row before that commit and its log after it. A real replacement starts only once the dead
    process's lease has lapsed (docs/architecture.md#12-clusters), long after."""
    if not is_postgres_url(path):
        return

    async def left() -> int:
        store = Store(path)
        await store.open()
        try:
            rows = await store.db.fetch(  # noqa: SLF001 - the test looks at the server itself
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?", (_child_name(path),)
            )
            return int(rows[0][0])
        finally:
            await store.close()

    deadline = time.monotonic() + STUCK_SECONDS
    while asyncio.run(left()):
        assert time.monotonic() < deadline, "a killed child's connections never went away"
        time.sleep(0.05)


def cold_run(path: str, seed: int, delay: float, stderr: IO[str]) -> list[str]:
    """The documented command, killed ``delay`` seconds after it was spawned (imports, restore or play)."""
    cmd = [sys.executable, "-m", "tests.host.crash_child", "--db", child_db(path), "--seed", str(seed)]
    cmd += ["--channels", str(CHANNELS)]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env(), stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        got, _ = run_until_killed(Lines(proc.stdout), proc.pid, Plan(None, delay))
    finally:
        proc.kill()
        wait_for_the_dead(path)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL, f"the cold child ended by itself ({proc.returncode})"
    return got


class ForkServer:
    """``python -m tests.host.crash_child --serve``: imports and warms up once, then forks one child per run."""

    def __init__(self, stderr: IO[str]) -> None:
        cmd = [sys.executable, "-m", "tests.host.crash_child", "--serve"]
        self.proc = subprocess.Popen(
            cmd, cwd=REPO, env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True
        )
        self.lines = Lines(self.proc.stdout)
        self.warm = False

    def run(self, path: str, seed: int, plan: Plan, fault: str = "none") -> list[str]:
        """One child on ``path``, killed as planned; every line it wrote."""
        if not self.warm:
            assert self.lines.get(time.monotonic() + 60) == "WARM", "the fork server did not start"
            self.warm = True
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"RUN {child_db(path)} {seed} {CHANNELS} {STUCK_SECONDS * 2} {fault}\n")
        self.proc.stdin.flush()
        first = self.lines.get(time.monotonic() + STUCK_SECONDS)
        assert first is not None and first.startswith("PID "), first
        pid = int(first.split()[1])
        got, end = run_until_killed(self.lines, pid, plan, end_word=f"EXIT {pid} ")
        assert end is not None, "the fork server died"
        wait_for_the_dead(path)
        code = os.waitstatus_to_exitcode(int(end.split()[2]))
        assert code == -signal.SIGKILL, f"the child ended by itself ({code}): {got[-5:]}"
        return got

    def close(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write("QUIT\n")
            self.proc.stdin.close()
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def child_stderr(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("crash") / "children.stderr"
    path.touch()
    yield path
    log = path.read_text()
    # a restarted host logs a replay mismatch or an internal error at ERROR; a child's crash leaves a traceback
    assert "ERROR" not in log and "Traceback" not in log, log[-3000:]


@pytest.fixture(scope="module")
def server(child_stderr: Path) -> Iterator[ForkServer]:
    with open(child_stderr, "a") as stderr:
        fork_server = ForkServer(stderr)
        try:
            yield fork_server
        finally:
            fork_server.close()


async def touch_every_table(path: str) -> TableHost:
    """A host restarted on the file, every channel's table touched: it must carry on without a complaint."""
    latest = {t["channel_id"]: t for t in Db.read(path).tables.values()}  # ids grow: the last one wins
    host = TableHost(Store(path), renderer=crash_child.tiny_renderer, render_processes=0)
    await host.start()
    try:
        for channel in crash_child.channel_ids(CHANNELS):
            out = await host.status(crash_child.caller(channel, 0))
            summary = host.table_for(channel)
            row = latest.get(channel)
            if row is None or row["status"] == "finished":  # killed before the next table was opened
                assert summary is None or summary.status == "finished"
                continue
            assert out.ok and summary is not None, f"channel {channel} lost its table"
            assert (summary.table_id, summary.status, summary.state_no) == (row["id"], row["status"], row["state_no"])
            callers = [
                Caller(crash_child.GUILD, channel, int(summary.seats[s].user_id or 0), "x") for s in summary.to_act
            ]
            for who in callers:
                assert await host.choices(who), f"table {summary.table_id}: {who.user_id} is to act but has no choices"
            if summary.status == "running":  # and the game goes on
                out = await host.play(callers[0], (await host.choices(callers[0]))[0].action, summary.state_no)
                assert out.ok, out.reply
    finally:
        await host.close()
    return host


async def ratings_rebuilt(path: str) -> bool:
    """Rebuild the ratings; whether they came out as they were (and some game was rated at all)."""
    query = "SELECT * FROM ratings ORDER BY guild_id, game_id, player"
    store = Store(path)
    await store.open()
    try:
        before = [tuple(r) for r in await store.db.fetch(query)]  # noqa: SLF001 - tests look inside
        await rebuild(store)
        return bool(before) and before == [tuple(r) for r in await store.db.fetch(query)]  # noqa: SLF001
    finally:
        await store.close()


# the default run kills the host on SQLite; the slow tier kills it on PostgreSQL too (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("db_url", ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)], indirect=True)
def test_sigkill_at_random_moments_never_loses_an_acknowledged_move(
    server: ForkServer, child_stderr: Path, db_url: str
) -> None:
    path = db_url
    rnd = random.Random(20261122)
    ledger = Ledger()
    replayed: dict[int, int] = {}
    with open(child_stderr, "a") as stderr:  # the fork server warms up meanwhile
        ledger.take(cold_run(path, 0, rnd.uniform(0.3, 2.5), stderr))
    check_after_kill(path, ledger, replayed, replay_all=False)
    for k in range(1, KILLS + 1):
        ledger.take(server.run(path, k, Plan.draw(rnd)))
        check_after_kill(path, ledger, replayed, replay_all=k % REPLAY_EVERY == 0)
    check_after_kill(path, ledger, replayed, replay_all=True)
    host = asyncio.run(touch_every_table(path))
    assert host.internal_errors == 0 and host.replay_mismatches == []
    # the ratings the killed hosts wrote one game at a time are what a rebuild computes from the finished tables
    assert asyncio.run(ratings_rebuilt(path)), "a rebuild changed the ratings"

    played = Counter(ledger.games[t] for t, _ in ledger.acked)
    tables = Db.read(path).tables.values()
    finished = Counter(t["game_id"] for t in tables if t["status"] == "finished")
    print(
        f"\n{KILLS + 1} kills, {ledger.kills_in_start_up} before the tables were ready; acknowledged moves per game:"
        f" {dict(played)}; killed after the commit, before the ACK: {dict(ledger.committed_unacked)};"
        f" killed before the commit: {dict(ledger.lost_unacked)}; finished tables: {dict(finished)}"
    )
    # the kills did land where they matter, for every game
    for game in crash_child.GAMES:
        assert played[game] >= 100, f"{game}: only {played[game]} acknowledged moves"
        assert ledger.committed_unacked[game] + ledger.lost_unacked[game] >= 10, f"{game}: few kills mid-move"
    assert sum(ledger.committed_unacked.values()) and sum(ledger.lost_unacked.values())
    assert ledger.kills_in_start_up >= 3
    # games end (results recorded, the replay drawn, new tables opened) under the kills too
    assert finished["martinique"] >= 2 and sum(finished.values()) >= 3, finished


@pytest.mark.parametrize("fault", ["no-commit"])
def test_the_checks_catch_a_host_that_acknowledges_before_committing(
    server: ForkServer, db_url: str, fault: str
) -> None:
    path = db_url
    ledger = Ledger()
    with pytest.raises(AssertionError, match="acknowledged move lost"):
        for k in range(3):
            ledger.take(server.run(path, k, Plan(40, 0.0), fault))
            check_after_kill(path, ledger, {}, replay_all=True)
