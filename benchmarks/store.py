"""PostgreSQL against SQLite, on this machine: what moving to PostgreSQL costs a move.

- a commit: ``Store.append`` (a log entry, a ~4 KB snapshot, the deadlines) awaited one after another on one
  table, and the commits per second when ``--concurrent`` tables append at once (a pool of connections lets
  PostgreSQL commit them side by side; SQLite's one connection takes them in turn);
- a move end to end: one table played back to back through the production host (``measure_host``, pictures
  drawn), from ``play`` to the committed, rendered reply;
- the host at 200 and 500 live tables on each store (``measure_host``: p50/p95/p99, moves per second achieved).

Every figure is printed, never asserted, and per core as well: two cores cap the absolute figures. The
PostgreSQL side runs in a fresh schema of the server ``--pg`` (default the local one), dropped afterwards.

    python -m benchmarks.store [--pg URL] [--tables 200,500] [--actions 600] [--commits 300] [--quick]
    python -m benchmarks.store --commit-only [--commits 2000]   # CPU per commit beside SQLite's own commit
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from benchmarks.host import measure_host
from benchmarks.stats import describe
from bot.infra.store import Commit, DeadlineRow, SeatRow, Store, redact_url

PG_SERVER = os.environ.get("PARLEY_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
Log = Callable[[str], None]


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


async def pg_unreachable(server: str = PG_SERVER) -> str | None:
    import asyncpg

    try:
        con = await asyncpg.connect(server, timeout=5)
    except Exception as exc:  # noqa: BLE001 - the reason is printed instead of the figures
        return f"{type(exc).__name__}: {exc}"
    await con.close()
    return None


@asynccontextmanager
async def fresh_store(kind: str, server: str = PG_SERVER) -> AsyncIterator[str]:
    """The URL of an empty store: a SQLite file in a temporary folder, or a new schema on ``server``; removed
    afterwards."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="parley-store-bench-")
        try:
            yield str(Path(folder) / "bench.sqlite3")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return
    import asyncpg

    schema = f"parley_bench_{uuid.uuid4().hex[:10]}"
    con = await asyncpg.connect(server)
    try:
        await con.execute(f"CREATE SCHEMA {schema}")
        try:
            yield f"{server}{'&' if '?' in server else '?'}search_path={schema}"
        finally:
            await con.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await con.close()


def _ticks(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far, from /proc (nan where unreadable)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def _server_pids(store: Store) -> list[int]:
    """The PostgreSQL server processes serving ``store``'s pool (empty for SQLite)."""
    if store.dialect != "postgresql":
        return []
    rows = await store.db.fetch(  # noqa: SLF001 - the benchmark looks inside
        "SELECT pid FROM pg_stat_activity WHERE application_name = ?", (_APP,)
    )
    return [int(r[0]) for r in rows]


_APP = f"parley_bench_{os.getpid()}"


async def measure_commit(url: str, *, commits: int = 300, concurrent: int = 20, payload: int = 4000) -> dict[str, Any]:
    """``Store.append`` timed alone on one table (``commits`` in a row), then ``concurrent`` tables appending
    ``commits`` moves in all at once: latency (seconds, ``describe``) and commits per second. Also the CPU one
    commit costs, measured as CPU time rather than wall time so that a busy machine does not inflate it: this
    process's (``cpu_client``) and, for a PostgreSQL server on this machine, its server processes'
    (``cpu_server``); ``1 / (cpu_client + cpu_server)`` is what one core could commit."""
    if url.startswith(("postgresql://", "postgres://")):
        url += f"{'&' if '?' in url else '?'}application_name={_APP}"
    store = Store(url)
    await store.open()
    try:
        snapshot = {"state": "x" * payload}

        async def table() -> int:
            tid = await store.tables.create(
                guild_id=1,
                channel_id=1,
                game_id="cartagena",
                host_id=1,
                options={},
                seed="s",
                ai_seed="a",
                now=0.0,
                seats=[SeatRow(0, 1, "A", None), SeatRow(1, 2, "B", None)],
            )
            await store.tables.begin(tid, [SeatRow(0, 1, "A", None), SeatRow(1, 2, "B", None)], snapshot, 0.0)
            return tid

        async def move(tid: int, n: int) -> float:
            t0 = time.perf_counter()
            await store.append(Commit(
                tid,
                n=n,
                kind="action",
                seat=n % 2,
                action=f"move {n}",
                by_ai=False,
                user_id=1 + n % 2,
                public=[f"A moved ({n})"],
                snapshot=snapshot,
                now=float(n),
                deadlines=[DeadlineRow(tid, (n + 1) % 2, float(n), float(n) + 86400, False)],
            ))
            return time.perf_counter() - t0

        one = await table()
        for n in range(1, 11):  # warm: connections, prepared statements, the file's pages
            await move(one, n)
        pids = await _server_pids(store)
        server0, client0 = sum(_ticks(p) for p in pids), time.process_time()
        alone = [await move(one, n) for n in range(11, 11 + commits)]
        cpu_client = (time.process_time() - client0) / commits
        cpu_server = (sum(_ticks(p) for p in pids) - server0) / commits if pids else 0.0

        tids = [await table() for _ in range(concurrent)]
        per = max(1, commits // concurrent)

        async def player(tid: int) -> list[float]:
            return [await move(tid, n) for n in range(1, per + 1)]

        t0 = time.perf_counter()
        together = [x for xs in await asyncio.gather(*(player(t) for t in tids)) for x in xs]
        elapsed = time.perf_counter() - t0
        return {
            "alone": describe(alone),
            "concurrent": concurrent,
            "together": describe(together),
            "rate": len(together) / elapsed,
            "cpu_client": cpu_client,
            "cpu_server": cpu_server,
        }
    finally:
        await store.close()


async def measure_stores(
    *,
    tables: list[int],
    actions: int = 600,
    move_actions: int = 100,
    commits: int = 300,
    think: float = 20.0,
    processes: int | None = None,
    game: str = "mix",
    server: str = PG_SERVER,
    log: Log | None = None,
) -> dict[str, Any]:
    """Every figure on SQLite and on PostgreSQL (when reachable): ``{"sqlite": {...}, "postgresql": {...} | None,
    "cores": n, "pg_unreachable": reason | None}``; each store's dict holds ``commit``, ``move`` and ``host``
    (``{tables: measure_host result}``)."""
    say = log or (lambda _: None)
    out: dict[str, Any] = {
        "cores": cores(),
        "server": redact_url(server),
        "pg_unreachable": await pg_unreachable(server),
    }
    for kind in ("sqlite", "postgresql"):
        if kind == "postgresql" and out["pg_unreachable"]:
            out[kind] = None
            continue
        figures: dict[str, Any] = {"host": {}}
        async with fresh_store(kind, server) as url:
            say(f"store: {kind} commits ...")
            figures["commit"] = await measure_commit(url, commits=commits)
        async with fresh_store(kind, server) as url:
            say(f"store: {kind} one table back to back ...")
            figures["move"] = await measure_host(
                1, game=game, think=0.05, actions=move_actions, processes=processes, db=url, log=say
            )
        for n in tables:
            async with fresh_store(kind, server) as url:
                say(f"store: {kind} {n} tables ...")
                figures["host"][n] = await measure_host(
                    n, game=game, think=think, actions=actions, processes=processes, db=url, log=say
                )
        out[kind] = figures
    return out


def sqlite_commit_floor(url: str, *, commits: int = 300, payload: int = 4000) -> float:
    """CPU seconds of one SQLite commit alone: the statements a move's ``append`` runs (its log entry, a
    snapshot of ``payload`` bytes, the deadlines replaced) in one transaction, straight through ``sqlite3`` in
    this thread, on the store's own schema and settings (WAL, synchronous=NORMAL) in the file ``url``. The
    floor ``append`` is measured beside: what is above it is the store's own cost."""
    db = sqlite3.connect(url, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL").close()
        db.execute("PRAGMA synchronous=NORMAL").close()
        db.execute(
            "INSERT INTO tables (guild_id, channel_id, game_id, status, host_id, options, seed, ai_seed, created,"
            " updated) VALUES (1, 1, 'cartagena', 'running', 1, '{}', 's', 'a', 0, 0)"
        ).close()
        tid = db.execute("SELECT MAX(id) FROM tables").fetchone()[0]
        blob = "x" * payload

        def commit(n: int) -> None:
            db.execute("BEGIN")
            db.execute(
                "INSERT INTO actions (table_id, n, kind, seat, action, by_ai, user_id, public, at)"
                " VALUES (?, ?, 'action', ?, ?, 0, ?, ?, ?)",
                (tid, n, n % 2, f"move {n}", 1 + n % 2, f'["A moved ({n})"]', float(n)),
            )
            db.execute(
                "UPDATE tables SET state_no = ?, snapshot = ?, updated = ?, status = 'running' WHERE id = ?",
                (n, blob, float(n), tid),
            )
            db.execute("DELETE FROM deadlines WHERE table_id = ?", (tid,))
            db.execute(
                "INSERT INTO deadlines (table_id, seat, started, due, reminded) VALUES (?, ?, ?, ?, 0)",
                (tid, (n + 1) % 2, float(n), float(n) + 86400),
            )
            db.execute("COMMIT")

        for n in range(1, 11):
            commit(n)
        t0 = time.process_time()
        for n in range(11, 11 + commits):
            commit(n)
        return (time.process_time() - t0) / commits
    finally:
        db.close()


async def measure_commit_only(*, commits: int = 2000) -> dict[str, float]:
    """CPU per ``append`` on SQLite (one table, one commit after another) and the floor, SQLite's own commit of
    the same statements (:func:`sqlite_commit_floor`), each on a fresh file; the smaller of two runs of each,
    so a busy machine's noise counts once."""
    best: dict[str, float] = {}
    for _ in range(2):
        async with fresh_store("sqlite") as url:
            c = await measure_commit(url, commits=commits, concurrent=1)
            best["append"] = min(best.get("append", 1.0), c["cpu_client"])
        async with fresh_store("sqlite") as url:
            store = Store(url)
            await store.open()
            await store.close()
            best["floor"] = min(best.get("floor", 1.0), sqlite_commit_floor(url, commits=commits))
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"


def report(r: dict[str, Any]) -> list[str]:
    n = r["cores"]
    lines = [f"{n} cores; PostgreSQL at {r['server']}"]
    if r["pg_unreachable"]:
        lines.append(f"PostgreSQL not measured: {r['pg_unreachable']}")
    for kind in ("sqlite", "postgresql"):
        f = r.get(kind)
        if not f:
            continue
        c = f["commit"]
        lines.append(
            f"{kind}: commit alone p50 {ms(c['alone']['p50'])} p95 {ms(c['alone']['p95'])};"
            f" {c['concurrent']} tables at once {c['rate']:.0f} commits/s ({c['rate'] / n:.0f} per core),"
            f" each p95 {ms(c['together']['p95'])}"
        )
        cpu = c["cpu_client"] + c["cpu_server"]
        lines.append(
            f"{kind}: CPU per commit {ms(cpu)} (this process {ms(c['cpu_client'])}, server {ms(c['cpu_server'])})"
            f" -> at most {1 / cpu:.0f} commits/s per core"
            if cpu > 0
            else f"{kind}: CPU per commit not measured"
        )
        m = f["move"]["latency"]
        lines.append(f"{kind}: a move end to end (one table, back to back) p50 {ms(m['p50'])} p95 {ms(m['p95'])}")
        for tables, h in f["host"].items():
            lat = h["latency"]
            lines.append(
                f"{kind}: {tables} live tables p50 {ms(lat['p50'])} p95 {ms(lat['p95'])} p99 {ms(lat['p99'])};"
                f" {h['rate']:.1f} moves/s ({h['rate'] / n:.1f} per core); store.append p95 {ms(h['commit']['p95'])};"
                f" bot process CPU per move {ms(h['cpu_per_move'])}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pg", default=PG_SERVER, help="PostgreSQL server (a schema is created and dropped there)")
    parser.add_argument("--tables", default="200,500", help="host load points")
    parser.add_argument("--actions", type=int, default=600, help="measured moves per load point")
    parser.add_argument(
        "--commits", type=int, default=None, help="commits timed per store (default 300; 2000 with --commit-only)"
    )
    parser.add_argument("--processes", type=int, default=None, help="render worker processes (default one per core)")
    parser.add_argument("--quick", action="store_true", help="fewer samples (80 moves per point, 100 commits)")
    parser.add_argument(
        "--commit-only",
        action="store_true",
        help="only the CPU one SQLite append costs, beside SQLite's own commit of the same statements",
    )
    args = parser.parse_args(argv)
    if args.commit_only:
        c = asyncio.run(measure_commit_only(commits=args.commits or 2000))
        print(
            f"sqlite: CPU per append {c['append'] * 1e6:.0f} µs; floor (SQLite's own commit of the same statements)"
            f" {c['floor'] * 1e6:.0f} µs; append ÷ floor {c['append'] / c['floor']:.1f}×"
        )
        return 0
    actions, commits, moves = (80, 100, 30) if args.quick else (args.actions, args.commits or 300, 100)
    r = asyncio.run(
        measure_stores(
            tables=[int(t) for t in args.tables.split(",")],
            actions=actions,
            move_actions=moves,
            commits=commits,
            processes=args.processes,
            server=args.pg,
            log=lambda s: print(s, flush=True),
        )
    )
    print("\n".join(report(r)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
