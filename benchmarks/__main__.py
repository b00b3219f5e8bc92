"""Every Parley benchmark in one command, printed as one table with floors, ratios, budgets and verdicts.

    python -m benchmarks [--quick] [--only games,cpu,host,store,startup,memory,cluster,clicks]
                         [--games cartagena,flagon] [--tables 1,50,200,500] [--store-tables 200,500]
                         [--json [figures.json]]
    parley bench ...                      (the same)
    python -m benchmarks --json | python -m benchmarks.report -    (docs/performance.md from this run)

Sections: per game (engine action time, a whole game of ``normal`` AIs, public picture CPU time and size against
the floor of its own pixels deflated again, ``normal`` AI decision time); the
host (action → committed reply at 1, 50, 200 and 500 live tables on SQLite on disk, against the drawing and
the commit that reply waited for, and one SQLite commit alone); PostgreSQL against SQLite (a commit, a move
end to end, the host at 200 and 500 live tables on each, per core too; PostgreSQL at ``PARLEY_BENCH_PG``,
default the local server, in a schema dropped afterwards; not measured without a server); start-up with
10,000 stored tables; memory per live table; CPU per move of whole seeded games against the floor of their
pictures (``benchmarks.cpu``); clicks per turn through Discord's buttons over whole games (``benchmarks.clicks``, not in
``--quick``). ``--quick`` measures fewer samples (under two minutes on a 2-core machine); the full run
takes about a quarter of an hour. Figures are printed, never asserted: the verdict column says where a budget is
missed. Every picture and CPU verdict is a ratio to a floor measured in the same run, in CPU time, so a busy machine
does not turn it red; the host's latency budgets are wall-clock and are not judged on a busy machine. Progress goes to
stderr, the table to stdout; ``--json`` alone writes the figures as JSON to stdout instead (the table then goes to
stderr), which ``benchmarks.report`` turns into ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.infra.settings import default_render_processes
from rules import registry

SECTIONS = ("games", "cpu", "host", "store", "startup", "memory", "cluster", "clicks")
#: clicks per turn through Discord's buttons (benchmarks.clicks), a budget of issue 28
CLICKS_BUDGET = {"buccaneer": 3.5}
PICTURE_BUDGET = 2.0  # × the floor: the picture's own pixels deflated again (benchmarks.cpu), both in CPU time
#: a host run whose pictures took this many times their CPU time in wall time ran on a busy machine: its wall-clock
#: budgets (latency) say nothing about the bot there, so they get no verdict
BUSY = 1.5
HOST_P95_BUDGET = 0.100  # seconds, at HOST_BUDGET_TABLES
HOST_BUDGET_TABLES = 200
HOST_SHARE_BUDGET = 0.20
STARTUP_BUDGET = 3.0  # seconds at 10,000 tables


@dataclass(frozen=True)
class HostPoint:
    """One load point: ``tables`` live tables whose players think ``think`` seconds on average; ``actions``
    measured in all. One table alone is measured back to back (its think time only stretches the run)."""

    tables: int
    think: float
    actions: int


@dataclass
class Config:
    games: list[str] = field(default_factory=registry.game_ids)
    only: tuple[str, ...] = SECTIONS
    engine_games: int = 200
    ai_games: int = 20
    render_games: int = 3
    render_every: int = 3
    render_max: int | None = None
    floor_repeats: int = 10
    #: stop starting new engine / AI games after this many seconds (each, per game); None: all of them
    section_seconds: float | None = 60.0
    #: CPU per move (benchmarks.cpu): seeded games of each game, at most this many moves each
    cpu_seeds: int = 1
    cpu_moves: int = 5000
    host_game: str = "mix"
    host_points: list[HostPoint] = field(
        default_factory=lambda: [
            HostPoint(1, 0.05, 200),
            HostPoint(50, 20.0, 300),
            HostPoint(200, 20.0, 600),
            HostPoint(500, 20.0, 600),
        ]
    )
    #: render worker processes of the host: production's default (one per core, bot.infra.settings)
    processes: int = field(default_factory=default_render_processes)
    #: PostgreSQL against SQLite (benchmarks.store): host load points, measured moves each, commits timed
    store_tables: list[int] = field(default_factory=lambda: [200, 500])
    store_actions: int = 600
    store_moves: int = 100
    store_commits: int = 300
    startup_tables: int = 10_000
    memory_tables: int = 100
    memory_moves: int = 10
    #: clusters (benchmarks/cluster.py): live tables in all, offered moves per second climbed, seconds per rung
    cluster_tables: int = 60
    cluster_rates: list[float] = field(default_factory=lambda: [2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0])
    cluster_seconds: float = 8.0
    cluster_min_moves: int = 40
    cluster_game: str = "cartagena"  # see benchmarks/cluster.py: moves of even cost measure capacity
    #: clicks per turn (benchmarks.clicks): one whole game of each game through simulated Discord, with these options
    clicks_options: dict[str, dict[str, str]] = field(default_factory=dict)
    clicks_decisions: int | None = None  # None: whole games (tests play a few picks)

    @classmethod
    def quick(cls) -> Config:
        """Fewer samples and load points: under two minutes on a 2-core machine shared with other work (whole games
        through simulated Discord, the clicks section, take longer: only asked for by name)."""
        return cls(
            only=tuple(s for s in SECTIONS if s != "clicks"),
            engine_games=30,
            ai_games=3,
            render_games=1,
            render_every=5,
            render_max=20,
            floor_repeats=3,
            section_seconds=4.0,
            cpu_moves=60,
            host_points=[
                HostPoint(1, 0.05, 30),
                HostPoint(200, 10.0, 80),
                HostPoint(500, 20.0, 80),
            ],
            store_tables=[200],
            store_actions=40,
            store_moves=20,
            store_commits=100,
            memory_tables=30,
            memory_moves=3,
            cluster_tables=30,
            cluster_rates=[8.0, 16.0],
            cluster_seconds=3.0,
            cluster_min_moves=20,
        )


@dataclass
class Row:
    """One line of the table. ``value``/``floor``/``ratio`` are already formatted; ``verdict`` is OK, OVER,
    ERROR or empty (no budget)."""

    figure: str
    value: str
    floor: str = ""
    ratio: str = ""
    budget: str = ""
    verdict: str = ""


COLUMNS = ("figure", "value", "floor", "ratio", "budget", "verdict")


def fmt_time(seconds: float) -> str:
    """µs under a millisecond, ms under a second, else s."""
    if math.isnan(seconds):
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms" if seconds >= 0.01 else f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.2f}×" if x < 10 else f"{x:.0f}×"


def verdict(ok: bool) -> str:
    return "OK" if ok else "OVER"


def render_table(rows: list[Row]) -> str:
    """Plain text, aligned columns; a row whose value is empty is a section heading."""
    measured = [r for r in rows if r.value] or [Row("", "")]
    widths = [max(len(c), *(len(getattr(r, c)) for r in measured)) for c in COLUMNS]
    line = "  ".join(c.upper().ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip()
    out = [line, "-" * len(line)]
    for r in rows:
        if not r.value:
            out.append(f"[{r.figure}]")
            continue
        out.append("  ".join(getattr(r, c).ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip())
    return "\n".join(out)


# -- sections ------------------------------------------------------------------------------------------


def game_rows(game_id: str, cfg: Config, results: dict[str, Any]) -> list[Row]:
    from benchmarks.ai import measure_ai
    from benchmarks.engine import measure_engine
    from benchmarks.render import measure_render

    game = registry.get(game_id)
    eng = measure_engine(game_id, games=cfg.engine_games, max_seconds=cfg.section_seconds)
    ai = measure_ai(game_id, level="normal", games=cfg.ai_games, max_seconds=cfg.section_seconds)
    pic = measure_render(
        game_id,
        games=cfg.render_games,
        every=cfg.render_every,
        max_pictures=cfg.render_max,
        floor_repeats=cfg.floor_repeats,
    )
    results[game_id] = {
        k: {kk: vv for kk, vv in v.items() if "samples" not in kk}
        for k, v in {"engine": eng, "ai": ai, "render": pic}.items()
    }
    p = ai["players"]
    ratio = pic["ratio"]
    return [
        Row(f"{game.info.title}", ""),
        Row(
            f"{game_id} engine action (legal+apply)",
            f"{fmt_time(eng['per_action']['median'])} median",
        ),
        Row(
            f"{game_id} whole game, normal AIs ({p} p, n={ai['games']})",
            f"{fmt_time(ai['game_seconds']['median'])} median",
        ),
        Row(
            f"{game_id} public picture CPU time",
            f"{fmt_time(pic['public']['median'])} med, p95 {fmt_time(pic['public']['p95'])}",
            floor=f"{fmt_time(pic['floor'])} deflate",
            ratio=fmt_ratio(ratio),
            budget=f"≤ {PICTURE_BUDGET:g}× floor",
            verdict="n/a" if math.isnan(ratio) else verdict(ratio <= PICTURE_BUDGET),
        ),
        Row(
            f"{game_id} public picture size",
            f"{pic['public_bytes']['median'] / 1024:.0f} KB med, max {pic['public_bytes']['max'] / 1024:.0f} KB",
        ),
        Row(
            f"{game_id} normal AI decision",
            f"p95 {fmt_time(ai['decision']['p95'])} (med {fmt_time(ai['decision']['median'])})",
        ),
    ]


def offered(point: HostPoint, r: dict[str, Any]) -> str:
    """Actions per second achieved, and offered by the players' think time when it is the limit (a table
    alone plays back to back). Achieved well under offered means the replies queue: the machine is full."""
    if point.tables == 1:
        return f"{r['rate']:.1f}/s back to back"
    return f"{r['rate']:.1f} of {point.tables / point.think:.1f}/s"


def host_rows(cfg: Config, results: dict[str, Any], log: Callable[[str], None]) -> list[Row]:
    from benchmarks.host import measure_host

    rows = [
        Row(
            f"Host: action → committed reply (production host from bot.host.factory; {cfg.host_game},"
            f" {cfg.processes} render processes)",
            "",
        )
    ]
    runs = []
    busy_note = False
    for point in cfg.host_points:
        log(f"host: {point.tables} tables, think {point.think:g} s, {point.actions} actions ...")
        r = asyncio.run(
            measure_host(
                point.tables,
                game=cfg.host_game,
                think=point.think,
                actions=point.actions,
                processes=cfg.processes,
                log=log,
            )
        )
        runs.append(r)
        lat = r["latency"]
        checks = [r["share"] <= HOST_SHARE_BUDGET]
        budget = f"own ≤ {HOST_SHARE_BUDGET:.0%}"
        if point.tables == HOST_BUDGET_TABLES:
            checks.append(lat["p95"] <= HOST_P95_BUDGET)
            budget = f"p95 ≤ {HOST_P95_BUDGET * 1000:.0f} ms, " + budget
        # wall-clock budgets: met, or missed on a quiet machine (OVER), or not judged on a busy one
        load = r["drawing"]["median"] / r["drawing_cpu"] if r.get("drawing_cpu", 0) > 0 else float("nan")
        judged = verdict(all(checks)) if r["actions"] else "n/a"
        if judged == "OVER" and load > BUSY:
            judged = f"busy ({load:.1f}× CPU)"
            busy_note = True
        rows.append(
            Row(
                f"{point.tables} table{'s' if point.tables != 1 else ''} ({offered(point, r)}, n={r['actions']})",
                f"p50 {fmt_time(lat['p50'])} p95 {fmt_time(lat['p95'])} p99 {fmt_time(lat['p99'])}",
                floor=f"draw {fmt_time(r['drawing']['median'])} + commit {fmt_time(r['commit_floor']['p50'])}",
                ratio=f"own {r['share']:.0%}" if not math.isnan(r["share"]) else "n/a",
                budget=budget,
                verdict=judged,
            )
        )
    ends = [x for r in runs for x in ([r["game_end"]] if r.get("game_end") else [])]
    if ends:
        # the move that ends a game posts the result at once; its replay GIF is drawn afterwards in a worker
        worst = max(e["max"] for e in ends)
        rows.append(
            Row(
                f"game-ending move, result posted (n={sum(e['n'] for e in ends)}, replay after it)",
                f"max {fmt_time(worst)}",
                budget="≤ 1 s",
                verdict=verdict(worst <= 1.0),
            )
        )
    if runs:
        floor = runs[-1]["commit_floor"]
        rows.append(
            Row(
                "one SQLite commit alone (WAL, same disk)",
                f"p50 {fmt_time(floor['p50'])} p95 {fmt_time(floor['p95'])}",
            )
        )
        # where the host's own time goes: the move's commit as the host waits for it (aiosqlite's thread, the
        # store's write lock, the event loop's turn), next to the bare commit above
        for r in runs:
            if r["tables"] == HOST_BUDGET_TABLES or r is runs[-1]:
                rows.append(
                    Row(
                        f"store.append as waited for ({r['tables']} tables)",
                        f"p50 {fmt_time(r['commit']['p50'])} p95 {fmt_time(r['commit']['p95'])}",
                    )
                )
    if busy_note:
        rows.append(
            Row(
                f"busy: the pictures' wall time was over {BUSY:g}× their CPU time (other processes had the cores);"
                " the latency budgets are not judged on such a run",
                "-",
            )
        )
    results["host"] = runs
    return rows


def cpu_rows(cfg: Config, results: dict[str, Any], log: Callable[[str], None]) -> list[Row]:
    """CPU per move of whole seeded games on the production host, against the floor of their pictures."""
    from benchmarks.cpu import CALLBACK_BUDGET, TOTAL_BUDGET, measure
    from benchmarks.cpu import PICTURE_BUDGET as PICTURES

    figures = asyncio.run(
        measure(cfg.games, seeds=cfg.cpu_seeds, processes=cfg.processes, max_moves=cfg.cpu_moves, log=log)
    )
    results["cpu"] = [asdict(f) for f in figures]
    rows = [Row(f"CPU per move, all processes, replay included (benchmarks.cpu; {cfg.processes} render processes)", "")]
    for f in figures:
        floor = f.per_move(f.floor)
        rows += [
            Row(
                f"{f.game} CPU per move ({f.moves} moves: main, pictures, replay)",
                f"{fmt_time(f.per_move(f.total))} ({fmt_time(f.per_move(f.main))}, {fmt_time(f.per_move(f.workers))},"
                f" {fmt_time(f.per_move(f.replay))}); {1 / max(1e-9, f.per_move(f.total)):.0f} moves/s per core",
                floor=f"{fmt_time(floor)} deflate",
                ratio=fmt_ratio(f.total / f.floor) if f.floor else "n/a",
                budget=f"≤ {TOTAL_BUDGET:g}× floor",
                verdict=verdict(f.total <= TOTAL_BUDGET * f.floor) if f.floor else "n/a",
            ),
            Row(
                f"{f.game} pictures per move (render workers)",
                fmt_time(f.per_move(f.workers)),
                floor=f"{fmt_time(floor)} deflate",
                ratio=fmt_ratio(f.workers / f.floor) if f.floor and f.workers else "n/a",
                budget=f"≤ {PICTURES:g}× floor",
                verdict=verdict(f.workers <= PICTURES * f.floor) if f.floor and f.workers else "n/a",
            ),
            Row(
                f"{f.game} longest event-loop callback (CPU)",
                f"{fmt_time(f.longest.cpu)}: {f.longest.what}"[:160],
                budget=f"≤ {CALLBACK_BUDGET * 1000:g} ms",
                verdict=verdict(f.longest.cpu <= CALLBACK_BUDGET),
            ),
        ]
    return rows


def store_rows(cfg: Config, results: dict[str, Any], log: Callable[[str], None]) -> list[Row]:
    from benchmarks.store import PG_SERVER, measure_stores

    r = asyncio.run(
        measure_stores(
            tables=cfg.store_tables,
            actions=cfg.store_actions,
            move_actions=cfg.store_moves,
            commits=cfg.store_commits,
            processes=cfg.processes,
            game=cfg.host_game,
            log=log,
        )
    )
    results["store"] = r
    n = r["cores"]
    rows = [Row(f"PostgreSQL against SQLite ({n} cores; per core = the figure / {n}; benchmarks.store)", "")]
    if r["pg_unreachable"]:
        rows.append(Row("PostgreSQL", f"not measured: no server at {PG_SERVER} ({r['pg_unreachable']})"[:100]))
    for kind in ("sqlite", "postgresql"):
        f = r.get(kind)
        if not f:
            continue
        c, m = f["commit"], f["move"]["latency"]
        rows += [
            Row(
                f"{kind} commit (store.append alone, one table)",
                f"p50 {fmt_time(c['alone']['p50'])} p95 {fmt_time(c['alone']['p95'])}",
            ),
            Row(
                f"{kind} CPU per commit (this process + the server's processes)",
                f"{fmt_time(c['cpu_client'] + c['cpu_server'])} ({fmt_time(c['cpu_client'])} + "
                f"{fmt_time(c['cpu_server'])}),"
                f" ≤ {1 / max(1e-9, c['cpu_client'] + c['cpu_server']):.0f} commits/s per core",
            ),
            Row(
                f"{kind} commits, {c['concurrent']} tables appending at once",
                f"{c['rate']:.0f}/s, {c['rate'] / n:.0f}/s per core; each p95 {fmt_time(c['together']['p95'])}",
            ),
            Row(
                f"{kind} move end to end (one table, back to back)",
                f"p50 {fmt_time(m['p50'])} p95 {fmt_time(m['p95'])}",
            ),
        ]
        for tables, h in f["host"].items():
            lat = h["latency"]
            rows.append(
                Row(
                    f"{kind}: {tables} live tables ({h['rate']:.1f} moves/s, {h['rate'] / n:.1f} per core, "
                    f"n={h['actions']})",
                    f"p50 {fmt_time(lat['p50'])} p95 {fmt_time(lat['p95'])} p99 {fmt_time(lat['p99'])}",
                    floor=f"commit {fmt_time(h['commit']['p50'])}, CPU/move {fmt_time(h['cpu_per_move'])}",
                )
            )
    return rows


def startup_rows(cfg: Config, results: dict[str, Any]) -> list[Row]:
    rows = [Row("Start-up", "")]
    try:
        from benchmarks.startup import measure_startup
    except ImportError as exc:
        rows.append(Row(f"start-up, {cfg.startup_tables:,} stored tables", "not measured", verdict=f"ERROR: {exc}"))
        return rows
    r = asyncio.run(measure_startup(cfg.startup_tables))
    results["startup"] = r
    extra = f", {r['rss_mb']:.0f} MB RSS" if "rss_mb" in r else ""
    if not math.isnan(r.get("first_touch_ms", math.nan)):
        extra += f"; first touch {r['first_touch_ms']:.0f} ms"
    rows.append(
        Row(
            f"start-up, {r['tables']:,} stored tables ({r['running']:,} running)",
            f"{fmt_time(r['seconds'])}{extra}",
            budget=f"≤ {STARTUP_BUDGET:g} s",
            verdict=verdict(r["seconds"] <= STARTUP_BUDGET),
        )
    )
    return rows


def memory_rows(cfg: Config, results: dict[str, Any]) -> list[Row]:
    from benchmarks.memory import measure_memory

    r = asyncio.run(measure_memory(cfg.memory_tables, game="mix", moves=cfg.memory_moves))
    results["memory"] = r
    label = f"{r['tables']} tables, {r['moves']} moves each"
    return [
        Row("Memory per live table", ""),
        Row(f"Python heap per table ({label})", f"{r['kb_per_table']:.1f} KB"),
        Row(
            f"resident set per table ({label})",
            f"{r['rss_kb_per_table']:.1f} KB" if r["rss_kb_per_table"] > 0 else "below page noise",
        ),
    ]


def clicks_rows(cfg: Config, results: dict[str, Any], log: Callable[[str], None]) -> list[Row]:
    """Clicks per turn through Discord's buttons over one whole seeded game of each game."""
    from benchmarks.clicks import run as clicks

    played = asyncio.run(clicks(cfg.games, ["clicks-1"], log, cfg.clicks_options, cfg.clicks_decisions))
    results["clicks"] = [{"game": r.game_id, "turns": r.turns, "finished": r.finished} for r in played]
    rows = [Row("Clicks per turn through Discord's buttons (benchmarks.clicks; people only, one game each)", "")]
    for r in played:
        budget = CLICKS_BUDGET.get(r.game_id)
        rows.append(
            Row(
                f"{r.game_id} clicks per turn ({len(r.turns)} turns, {r.clicks} clicks)",
                f"{r.per_turn():.2f}, at most {max(r.turns, default=0)}" + ("" if r.finished else " (unfinished)"),
                budget=f"≤ {budget:g}" if budget else "",
                verdict=verdict(r.per_turn() <= budget) if budget else "",
            )
        )
    return rows


def run(
    cfg: Config, log: Callable[[str], None] = lambda s: print(s, file=sys.stderr)
) -> tuple[list[Row], dict[str, Any]]:
    """Measure every selected section. A section that fails becomes an ERROR row; the others still run."""
    rows: list[Row] = []
    results: dict[str, Any] = {"games": {}}

    def guarded(name: str, fn: Callable[[], list[Row]]) -> None:
        t0 = time.perf_counter()
        log(f"{name} ...")
        try:
            rows.extend(fn())
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            log(traceback.format_exc())
            rows.append(Row(name, "not measured", verdict=f"ERROR: {type(exc).__name__}: {exc}"[:80]))
        log(f"{name}: {time.perf_counter() - t0:.1f} s")

    if "games" in cfg.only:
        for game_id in cfg.games:
            guarded(game_id, lambda g=game_id: game_rows(g, cfg, results["games"]))
    if "cpu" in cfg.only:
        guarded("cpu", lambda: cpu_rows(cfg, results, log))
    if "host" in cfg.only:
        guarded("host", lambda: host_rows(cfg, results, log))
    if "store" in cfg.only:
        guarded("store", lambda: store_rows(cfg, results, log))
    if "startup" in cfg.only:
        guarded("startup", lambda: startup_rows(cfg, results))
    if "memory" in cfg.only:
        guarded("memory", lambda: memory_rows(cfg, results))
    if "cluster" in cfg.only:
        guarded("cluster", lambda: cluster_rows(cfg, results, log))
    if "clicks" in cfg.only:
        guarded("clicks", lambda: clicks_rows(cfg, results, log))
    return rows, results


def cluster_rows(cfg: Config, results: dict[str, Any], log: Callable[[str], None]) -> list[Row]:
    from benchmarks.cluster import P95_BUDGET, ClusterConfig, measure_clusters

    ccfg = ClusterConfig(
        tables=cfg.cluster_tables,
        rates=list(cfg.cluster_rates),
        seconds=cfg.cluster_seconds,
        min_moves=cfg.cluster_min_moves,
        game=cfg.cluster_game,
        processes=cfg.processes,
    )
    title = f"Clusters: moves/s at p95 ≤ {P95_BUDGET * 1000:.0f} ms, one PostgreSQL ({ccfg.tables} tables, {ccfg.game})"
    try:
        r = measure_clusters(ccfg, log)
    except OSError as exc:
        return [Row(title, ""), Row("one process / 2 clusters", f"not measured: {exc}")]
    results["cluster"] = r
    rows = [Row(title, "")]
    for run in r["runs"]:
        who = "one process" if run["clusters"] == 1 else f"{run['clusters']} clusters sharing it"
        rows.append(
            Row(
                who,
                f"{run['best']:g}/s ({run['per_core']:.1f} per core of {r['cores']})",
                floor=f"{run['achieved']:.1f}/s served",
            )
        )
    return rows


def _commit() -> str:
    """The checked-out commit, so a report says what it measured ("" outside a git checkout)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except OSError:
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def machine(load_before: tuple[float, float, float], quick: bool) -> dict[str, Any]:
    """Where and when the figures were taken: a figure means little without the machine and its load."""
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": _commit(),
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "load_before": list(load_before),
        "load_after": list(os.getloadavg()),
        "quick": quick,
    }


def payload(
    cfg: Config, rows: list[Row], results: dict[str, Any], seconds: float, run: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The configuration, the machine, the printed rows and the raw figures (seconds, bytes, KB)."""
    return {
        "run": run or {},
        "config": asdict(cfg),
        "seconds": seconds,
        "rows": [asdict(r) for r in rows],
        "results": results,
    }


def write_json(
    path: str, cfg: Config, rows: list[Row], results: dict[str, Any], seconds: float, run: dict[str, Any] | None = None
) -> None:
    """The payload as JSON, into ``path`` or, for ``-``, to stdout."""
    text = json.dumps(payload(cfg, rows, results, seconds, run), indent=2, default=str)
    if path == "-":
        print(text)
    else:
        Path(path).write_text(text)


def _list(text: str, allowed: tuple[str, ...] | list[str], what: str) -> list[str]:
    items = [t.strip().lower() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise SystemExit(f"benchmarks: {what} are {', '.join(allowed)} (got {text!r})")
    return items


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--quick", action="store_true", help="fewer samples, for development (a couple of minutes)")
    p.add_argument("--only", default=None, help=f"comma-separated sections: {', '.join(SECTIONS)}")
    p.add_argument("--games", default=None, help="comma-separated game ids for the per-game section")
    p.add_argument("--tables", default=None, help="host load points, e.g. 1,50,200,500")
    p.add_argument("--host-game", default=None, help="game of the host's tables: an id or mix (default mix)")
    p.add_argument(
        "--processes",
        type=int,
        default=None,
        help="render worker processes of the host (default: production's, one per core)",
    )
    p.add_argument("--store-tables", default=None, help="PostgreSQL against SQLite load points (default 200,500)")
    p.add_argument("--startup-tables", type=int, default=None, help="stored tables for start-up (default 10000)")
    p.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="also write the rows and raw figures as JSON here; alone, to stdout (the table then goes to stderr)",
    )
    return p


def config_from(args: argparse.Namespace) -> Config:
    cfg = Config.quick() if args.quick else Config()
    if args.only:
        cfg.only = tuple(_list(args.only, SECTIONS, "sections"))
    if args.games:
        cfg.games = _list(args.games, registry.game_ids(), "games")
    if args.tables:
        by_tables = {p.tables: p for p in cfg.host_points}
        template = cfg.host_points[-1]
        cfg.host_points = [
            by_tables.get(n, HostPoint(n, template.think, template.actions))
            for n in (int(t) for t in args.tables.split(","))
        ]
    if args.host_game:
        cfg.host_game = args.host_game
    if args.processes is not None:
        cfg.processes = args.processes
    if args.store_tables:
        cfg.store_tables = [int(t) for t in args.store_tables.split(",")]
    if args.startup_tables is not None:
        cfg.startup_tables = args.startup_tables
    return cfg


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Whatever a benchmark or one of its worker processes prints goes to stderr, so stdout holds only the JSON."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    cfg = config_from(args)
    load_before = os.getloadavg()
    started = time.perf_counter()
    if args.json == "-":
        with stdout_to_stderr():
            rows, results = run(cfg)
    else:
        rows, results = run(cfg)
    elapsed = time.perf_counter() - started
    # with the JSON on stdout, the table is for the person watching
    table = sys.stderr if args.json == "-" else sys.stdout
    print(render_table(rows), file=table)
    print(
        f"({'quick' if args.quick else 'full'} run, {elapsed:.0f} s; figures are noisy on a busy machine)", file=table
    )
    if args.json:
        write_json(args.json, cfg, rows, results, elapsed, machine(load_before, args.quick))
    return 1 if any(r.verdict.startswith("ERROR") for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
