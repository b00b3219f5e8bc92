"""Start-up time of the table host with many stored tables (budget: 3 s at 10,000 tables).

A database on disk is filled with ``n_tables`` tables in a realistic mix: most finished (with their whole log
and results), 30% running across all five games (each with a few dozen logged actions, a snapshot and stored
deadlines) and a few lobbies. A handful of template tables are made through the real host once; the rest are
copies of their rows under new ids, channels and players (plain SQL, no games played). Then a fresh
``TableHost(Store(path)).start()`` is timed until it can serve.

    python -m benchmarks.startup [--tables 10000] [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.host.factory import build_host
from bot.host.tables import Caller, TableHost
from bot.infra.settings import Settings
from bot.infra.store import Store
from rules import registry

BUDGET_SECONDS = 3.0
RUNNING_SHARE = 0.30
LOBBY_SHARE = 0.01
#: logged actions of a running template table (a game well under way)
RUNNING_ACTIONS = 36
#: actions after which a finished template that has not ended by itself is ended (abandoned)
MAX_FINISH_ACTIONS = 400
GUILD = 1


def _blank(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """Templates are built without drawing boards (pictures are not what start-up loads): a tiny blank PNG."""
    global _BLANK_PNG
    if _BLANK_PNG is None:
        from renderers.common import canvas, to_png

        _BLANK_PNG = to_png(canvas(8, 8)[0])
    return _BLANK_PNG


_BLANK_PNG: bytes | None = None


def rss_mb() -> float:
    """The resident memory of this process now (Linux), in MB."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return float("nan")
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def _play_humans(host: TableHost, players: list[Caller], rnd: random.Random, limit: int) -> int:
    """Random legal moves by whichever human owes one, until ``limit`` moves or no human owes one."""
    played = 0
    while played < limit:
        owing = [(c, choices) for c in players if (choices := await host.choices(c))]
        if not owing:
            break
        caller, choices = rnd.choice(owing)
        out = await host.play(caller, rnd.choice(choices).action)
        assert out.ok, out.reply
        played += 1
    return played


async def build_templates(path: str) -> dict[str, list[tuple[int, int]]]:
    """Template tables through the real host: ``{"running"|"finished"|"lobby": [(table id, game index)]}``."""
    host = TableHost(Store(path), ai_seed="startup-bench", renderer=_blank, replay_frames=2)
    await host.start()
    rnd = random.Random("startup-bench")
    made: dict[str, list[tuple[int, int]]] = {"running": [], "finished": [], "lobby": []}
    channel = 1
    try:
        for gi, game_id in enumerate(registry.game_ids()):
            # a running table: two humans a few dozen moves in (reseeded if the game ended that fast)
            for attempt in range(20):
                channel += 1
                a = Caller(GUILD, channel, 1, "Ana", moderator=True)
                b = Caller(GUILD, channel, 2, "Ben")
                assert (await host.open(a, game_id, {}, seed=f"run-{game_id}-{attempt}")).ok
                assert (await host.join(b)).ok
                assert (await host.start_table(a)).ok
                await _play_humans(host, [a, b], rnd, RUNNING_ACTIONS)
                summary = host.table_for(channel)
                assert summary is not None
                if summary.status == "running":
                    made["running"].append((summary.table_id, gi))
                    break
            # a finished table: a human against an AI, then the human leaves and the AIs play it out
            channel += 1
            a = Caller(GUILD, channel, 1, "Ana", moderator=True)
            assert (await host.open(a, game_id, {}, seed=f"fin-{game_id}")).ok
            assert (await host.ai_add(a, "easy")).ok
            assert (await host.start_table(a)).ok
            await host.leave(a)
            summary = host.table_for(channel)
            assert summary is not None
            if summary.status == "running":
                assert (await host.end(a)).ok
            made["finished"].append((summary.table_id, gi))
            # a lobby
            channel += 1
            a = Caller(GUILD, channel, 1, "Ana", moderator=True)
            assert (await host.open(a, game_id, {})).ok
            assert (await host.join(Caller(GUILD, channel, 2, "Ben"))).ok
            summary = host.table_for(channel)
            assert summary is not None
            made["lobby"].append((summary.table_id, gi))
    finally:
        await host.close()
    return made


def copy_tables(path: str, templates: dict[str, list[tuple[int, int]]], n_tables: int) -> dict[str, int]:
    """Fill the database up to ``n_tables`` tables with copies of the templates (new ids, channels, users)."""
    con = sqlite3.connect(path)
    try:
        existing = con.execute("SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(MAX(channel_id), 0) FROM tables")
        plan = _copy_plan(templates, n_tables, *existing.fetchone())
        con.execute("BEGIN")
        for sql, rows in _copy_statements(plan):
            con.executemany(sql, rows)
        con.commit()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        counts = dict(con.execute("SELECT status, COUNT(*) FROM tables GROUP BY status").fetchall())
        counts["actions"] = con.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        return counts
    finally:
        con.close()


async def copy_tables_into(store: Store, templates: dict[str, list[tuple[int, int]]], n_tables: int) -> dict[str, int]:
    """:func:`copy_tables` through an open store of either kind (the same statements, one transaction)."""
    [existing] = await store.db.fetch(  # noqa: SLF001 - a benchmark fills the database behind the host
        "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(MAX(channel_id), 0) FROM tables"
    )
    plan = _copy_plan(templates, n_tables, *existing)
    async with store.transaction() as tx:
        for sql, rows in _copy_statements(plan):
            await tx.executemany(sql, rows)
    await store.after_copy()
    counts = {r[0]: int(r[1]) for r in await store.db.fetch("SELECT status, COUNT(*) FROM tables GROUP BY status")}  # noqa: SLF001
    counts["actions"] = int((await store.db.fetch("SELECT COUNT(*) FROM actions"))[0][0])  # noqa: SLF001
    return counts


def _copy_plan(
    templates: dict[str, list[tuple[int, int]]], n_tables: int, count: int, next_id: int, next_channel: int
) -> list[tuple[int, int, int, int]]:
    """(new id, channel, user offset, template id) of every table to add."""
    to_add = max(0, n_tables - count)
    n_running = round(n_tables * RUNNING_SHARE) - len(templates["running"])
    n_lobby = max(0, round(n_tables * LOBBY_SHARE) - len(templates["lobby"]))
    kinds = ["running"] * max(0, n_running) + ["lobby"] * n_lobby
    kinds = (kinds + ["finished"] * to_add)[:to_add]
    plan: list[tuple[int, int, int, int]] = []
    for i, kind in enumerate(kinds):
        source = templates[kind][i % len(templates[kind])][0]
        plan.append((next_id + 1 + i, next_channel + 1 + i, 1000 * (i + 1), source))
    return plan


def _copy_statements(plan: list[tuple[int, int, int, int]]) -> list[tuple[str, list[tuple[int, ...]]]]:
    columns = "guild_id, game_id, status, host_id, options, seed, ai_seed, players, state_no, snapshot, created"
    return [
        (
            f"INSERT INTO tables (id, channel_id, {columns}, updated)"
            f" SELECT ?, ?, {columns.replace('host_id', 'host_id + ?')}, updated FROM tables WHERE id = ?",
            plan,
        ),
        (
            "INSERT INTO seats (table_id, seat, user_id, name, ai_level, vacated, reachable)"
            " SELECT ?, seat, user_id + ?, name, ai_level, vacated, reachable FROM seats WHERE table_id = ?",
            [(tid, offset, src) for tid, _, offset, src in plan],
        ),
        (
            "INSERT INTO actions (table_id, n, kind, seat, action, by_ai, user_id, public, at)"
            " SELECT ?, n, kind, seat, action, by_ai, user_id + ?, public, at FROM actions WHERE table_id = ?",
            [(tid, offset, src) for tid, _, offset, src in plan],
        ),
        (
            "INSERT INTO deadlines (table_id, seat, started, due, reminded)"
            " SELECT ?, seat, started, due, reminded FROM deadlines WHERE table_id = ?",
            [(tid, src) for tid, _, _, src in plan],
        ),
        (
            "INSERT INTO results (table_id, guild_id, game_id, user_id, name, seat, won, score, finished)"
            " SELECT ?, guild_id, game_id, user_id + ?, name, seat, won, score, finished FROM results"
            " WHERE table_id = ?",
            [(tid, offset, src) for tid, _, offset, src in plan],
        ),
    ]


async def measure_startup(n_tables: int = 10_000, folder: str | None = None) -> dict[str, Any]:
    """Build a database of ``n_tables`` stored tables in ``folder`` (a temporary one by default, removed after),
    then time a fresh host's start-up on it. Returns the figures (seconds, tables, running, rss_mb, ...)."""
    own = folder is None
    where = Path(folder or tempfile.mkdtemp(prefix="parley-startup-"))
    where.mkdir(parents=True, exist_ok=True)
    path = str(where / "startup.sqlite3")
    for suffix in ("", "-wal", "-shm"):
        Path(path + suffix).unlink(missing_ok=True)
    try:
        t0 = time.perf_counter()
        templates = await build_templates(path)
        counts = copy_tables(path, templates, n_tables)
        build_seconds = time.perf_counter() - t0

        rss_before = rss_mb()
        host = build_host(Settings(db_path=path))  # production's host: its render workers boot meanwhile
        t0 = time.perf_counter()
        await host.start()
        seconds = time.perf_counter() - t0
        rss_after = rss_mb()
        # the transport's first timer tick: nothing is due, so it must not load (replay) the tables
        t1 = time.perf_counter()
        await host.tick()
        first_tick_ms = (time.perf_counter() - t1) * 1000
        # the render workers boot in the background from start(): when can they draw?
        await host.pictures.warm()
        workers_ready = time.perf_counter() - t0
        # the first action on a table after start-up (it may pay for loading that table)
        summary = next(
            (s for cid in range(1, 10 * n_tables) if (s := host.table_for(cid)) and s.status == "running"), None
        )
        first_touch_ms = float("nan")
        if summary is not None:
            seat = summary.to_act[0]
            user = summary.seats[seat].user_id
            caller = Caller(summary.guild_id, summary.channel_id, int(user or 0), "bench")
            t1 = time.perf_counter()
            await host.status(caller)  # takes the table's lock (loading the table if needed) and draws the board
            first_touch_ms = (time.perf_counter() - t1) * 1000
        mismatches = len(host.replay_mismatches)
        errors = host.internal_errors
        await host.close()
        return {
            "tables": sum(v for k, v in counts.items() if k != "actions"),
            "running": counts.get("running", 0),
            "lobby": counts.get("lobby", 0),
            "finished": counts.get("finished", 0) + counts.get("abandoned", 0),
            "actions": counts["actions"],
            "seconds": seconds,
            "budget_seconds": BUDGET_SECONDS,
            "ok": seconds <= BUDGET_SECONDS,
            "rss_mb": rss_after,
            "rss_delta_mb": rss_after - rss_before,
            "first_touch_ms": first_touch_ms,
            "first_tick_ms": first_tick_ms,
            "workers_ready_seconds": workers_ready,
            "render_processes": host.pictures.processes,
            "replay_mismatches": mismatches,
            "internal_errors": errors,
            "db_mb": Path(path).stat().st_size / 2**20,
            "build_seconds": build_seconds,
        }
    finally:
        if own:
            shutil.rmtree(where, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10_000, help="stored tables (default 10000)")
    parser.add_argument("--dir", default=None, help="folder for the database (kept); default a temporary one")
    args = parser.parse_args()
    r = asyncio.run(measure_startup(args.tables, args.dir))
    print(
        f"stored tables: {r['tables']} ({r['running']} running, {r['lobby']} lobbies, {r['finished']} over;"
        f" {r['actions']} logged actions; database {r['db_mb']:.0f} MB, built in {r['build_seconds']:.1f} s)"
    )
    print(f"start-up: {r['seconds']:.2f} s (budget {BUDGET_SECONDS:.0f} s) → {'OK' if r['ok'] else 'OVER BUDGET'}")
    print(f"memory: {r['rss_mb']:.0f} MB resident after start-up (+{r['rss_delta_mb']:.0f} MB for the start-up)")
    print(f"first timer tick (nothing due): {r['first_tick_ms']:.0f} ms")
    print(f"{r['render_processes']} render workers warmed up {r['workers_ready_seconds']:.2f} s after start() began")
    print(f"first /table status on a table after start-up (with its picture): {r['first_touch_ms']:.0f} ms")
    print(f"replay mismatches: {r['replay_mismatches']}, internal errors: {r['internal_errors']}")


if __name__ == "__main__":
    main()
