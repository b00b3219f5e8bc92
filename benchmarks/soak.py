"""A soak run of the production host: does memory stay flat, and latency steady, however many games end?

    python -m benchmarks.soak --minutes 15 [--tables 10] [--think 0.3] [--sample 30] [--json FILE] [--trace 15] [--trim]

The host is the one ``parley run`` serves (``bot.host.factory.build_host``: SQLite on disk, pictures and replays in
render worker processes, real renderers). ``--tables`` tables play at once, the five games in turn; each seats the
game's minimum of players, who move as the bot's picker and ``/play`` do: ask ``choices``, then play one of them,
half the time with the board's state number (a button), half typed (``/play``), after a random think time
(exponential, mean ``--think`` seconds). Outputs are delivered as a transport does (``Outputs.delivered``), so
every finished game's replay GIF is drawn and published after its result. A game still running after
``--max-moves`` moves is ended by its host (random players can wander for thousands of moves in Buccaneer).

Every ``--sample`` seconds one line: the main process's and each render worker's resident memory, the heap in use
(glibc's malloc in use: C extensions, SQLite, Pillow and every Python object over 512 bytes; and Python's own small
blocks), open file descriptors, the database's size, ``play`` p50/p95/max over the window (game-ending moves
included), the event loop's lag (how late a 100 ms timer fires) p99/max, finished games, tables in memory, how
full this process's capped caches are (the rules' and renderers' ``lru_cache``s: memory grows by design while they
fill) and the machine's load.
At the end: the slope of each figure per 100 finished games after the warm-up (the first third of the run), and
the budgets of a 15-minute run side by side. Printed, never asserted.

Diagnoses (they change what they measure, so not for the README's figures): ``--trace N`` runs ``tracemalloc``
and prints, after each sample, the N source lines whose live Python memory grew most since the first sample and
the capped caches' entries; ``--trim`` hands glibc's free memory back (``malloc_trim``) before each sample, so
what RSS still gains is memory in use rather than memory the allocator kept after a peak.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from array import array
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.stats import percentile
from bot.host.factory import build_host
from bot.host.tables import Caller, Outputs, TableHost
from bot.infra.settings import Settings, default_render_processes
from bot.infra.workers import rss_bytes, trim_heap
from rules import registry

MB = 2**20
BUDGETS = {
    "main RSS plateau": "≤ 400 MB",
    "each worker RSS": "≤ 300 MB",
    "RSS slope after warm-up": "≤ 5 MB per 100 games",
    "event-loop lag p99": "≤ 50 ms",
    "latency drift": "none",
}


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                     "keepcost")
    ]


def malloc_in_use() -> int:
    """Bytes glibc's malloc has handed out and not had back (0 where glibc's mallinfo2 is missing)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2
        info = libc.mallinfo2()
        return int(info.uordblks + info.hblkhd)
    except (OSError, AttributeError):
        return 0


def growth(first: tracemalloc.Snapshot | None, top: int) -> tuple[tracemalloc.Snapshot, list[str]]:
    """A snapshot now and the ``top`` source lines that hold more than in ``first``, plus the caches' entries."""
    now = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    lines = [f"    {stat}" for stat in now.compare_to(first, "lineno")[:top]] if first is not None else []
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("rules.", "renderers.", "bot.")):
            continue
        for attr, value in list(vars(module).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name and (stats := info()).currsize:
                lines.append(f"    cache {name}.{attr}: {stats.currsize}/{stats.maxsize} entries")
    return (first or now), lines


def open_fds(pid: int | str = "self") -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def cache_fill() -> float:
    """How full the capped caches of the rules, renderers and host in this process are (entries over room, 0–1):
    while they fill, memory grows by design; once full it must not."""
    used = room = 0
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("rules.", "renderers.", "bot.")):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                stats = info()
                if stats.maxsize:
                    used, room = used + stats.currsize, room + stats.maxsize
    return used / room if room else float("nan")


@dataclass
class Sample:
    minute: float
    games: int
    moves: int
    main_mb: float
    workers_mb: list[float]
    malloc_mb: float
    python_blocks: int
    fds: int
    worker_fds: int
    db_mb: float
    play_p50_ms: float
    play_p95_ms: float
    play_max_ms: float
    lag_p99_ms: float
    lag_max_ms: float
    load: float
    tables_in_memory: int
    caches_full: float


@dataclass
class Soak:
    host: TableHost
    db: Path
    started: float = field(default_factory=time.perf_counter)
    games: int = 0
    ended: int = 0
    moves: int = 0
    replays: int = 0
    replays_missing: int = 0
    refused: int = 0
    window_play: list[float] = field(default_factory=list)
    window_lag: list[float] = field(default_factory=list)
    # the whole run's figures as packed doubles: a list of floats (32 bytes each) would be the soak's own growth,
    # ~1 MB per 100 games in the main process's figures
    all_play: array[float] = field(default_factory=lambda: array("d"))
    all_lag: array[float] = field(default_factory=lambda: array("d"))
    last_moves: list[float] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)

    async def publish(self, out: Outputs) -> None:
        for post in out.public:
            if post.filename == "replay.gif":
                if post.image is None:
                    self.replays_missing += 1
                else:
                    self.replays += 1

    def sample(self) -> Sample:
        play, lag = self.window_play, self.window_lag
        self.window_play, self.window_lag = [], []
        pids = self.host.pictures.worker_pids()
        db = sum(Path(f"{self.db}{s}").stat().st_size for s in ("", "-wal") if Path(f"{self.db}{s}").exists())
        s = Sample(
            minute=(time.perf_counter() - self.started) / 60,
            games=self.games,
            moves=self.moves,
            main_mb=rss_bytes() / MB,
            workers_mb=[rss_bytes(p) / MB for p in pids],
            malloc_mb=malloc_in_use() / MB,
            python_blocks=sys.getallocatedblocks(),
            fds=open_fds(),
            worker_fds=sum(open_fds(p) for p in pids),
            db_mb=db / MB,
            play_p50_ms=percentile(play, 50) * 1000,
            play_p95_ms=percentile(play, 95) * 1000,
            play_max_ms=max(play, default=float("nan")) * 1000,
            lag_p99_ms=percentile(lag, 99) * 1000,
            lag_max_ms=max(lag, default=float("nan")) * 1000,
            load=os.getloadavg()[0],
            tables_in_memory=len(self.host.index.tables),  # noqa: SLF001 - the soak looks inside
            caches_full=cache_fill(),
        )
        self.samples.append(s)
        return s


def line(s: Sample) -> str:
    workers = "/".join(f"{w:.0f}" for w in s.workers_mb) or "-"
    return (
        f"{s.minute:5.1f} min  games {s.games:4d}  moves {s.moves:6d}  main {s.main_mb:5.0f} MB  workers {workers} MB"
        f"  malloc {s.malloc_mb:5.0f} MB  py blocks {s.python_blocks / 1e6:4.2f} M  fds {s.fds}+{s.worker_fds}"
        f"  db {s.db_mb:5.1f} MB  play p50 {s.play_p50_ms:5.1f} p95 {s.play_p95_ms:5.1f} max {s.play_max_ms:6.0f} ms"
        f"  lag p99 {s.lag_p99_ms:4.1f} max {s.lag_max_ms:4.0f} ms  tables {s.tables_in_memory}"
        f"  caches {s.caches_full:4.0%} full  load {s.load:.2f}"
    )


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys over xs (NaN with fewer than two distinct xs)."""
    if len(set(xs)) < 2:
        return float("nan")
    return statistics.linear_regression(xs, ys).slope


async def lag_probe(soak: Soak, stop: asyncio.Event) -> None:
    """How late a 100 ms timer fires: the event loop's responsiveness (heartbeats, the 3-second deadline)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        t0 = loop.time()
        await asyncio.sleep(0.1)
        late = max(0.0, loop.time() - t0 - 0.1)
        soak.window_lag.append(late)
        soak.all_lag.append(late)


async def seat_table(host: TableHost, channel: int, game_id: str, round_no: int) -> list[Caller]:
    players = registry.get(game_id).info.min_players
    base = 100_000 * channel + 10 * round_no
    callers = [Caller(1, channel, base + k + 1, f"P{channel}.{k}", moderator=(k == 0)) for k in range(players)]
    out = await host.open(callers[0], game_id, {})
    assert out.ok, out.reply
    for c in callers[1:]:
        assert (await host.join(c)).ok
    out = await host.start_table(callers[0])
    assert out.ok, out.reply
    out.delivered()
    return callers


async def table_loop(
    soak: Soak, index: int, stop: asyncio.Event, think: float, max_moves: int, rnd: random.Random
) -> None:
    host = soak.host
    ids = registry.game_ids()
    channel = 1000 + index
    round_no = 0
    while not stop.is_set():
        callers = await seat_table(host, channel, ids[(index + round_no) % len(ids)], round_no)
        by_user = {c.user_id: c for c in callers}
        round_no += 1
        played = 0
        while not stop.is_set():
            summary = host.table_for(channel)
            if summary is None or summary.status != "running":
                break
            if played >= max_moves:
                (await host.end(callers[0])).delivered()
                soak.ended += 1
                break
            owing = [by_user[s.user_id] for s in summary.seats if s.seat in summary.to_act and s.user_id in by_user]
            caller = rnd.choice(owing) if owing else None
            choices = await host.choices(caller) if caller is not None else []
            if not choices:
                await asyncio.sleep(0.05)
                continue
            action = rnd.choice(choices).action
            button = rnd.random() < 0.5
            t0 = time.perf_counter()
            out = await host.play(caller, action, summary.state_no if button else None)
            elapsed = time.perf_counter() - t0
            out.delivered()
            if not out.ok:
                soak.refused += 1
            else:
                soak.moves += 1
                played += 1
                soak.window_play.append(elapsed)
                soak.all_play.append(elapsed)
                if any(p.filename == "final.png" for p in out.public):
                    soak.games += 1
                    soak.last_moves.append(elapsed)
            try:
                await asyncio.wait_for(stop.wait(), rnd.expovariate(1 / think) if think > 0 else 0)
            except TimeoutError:
                pass


def summary(soak: Soak, warmup: float) -> dict[str, Any]:
    after = [s for s in soak.samples if s.minute >= warmup]
    games = [float(s.games) for s in after]
    per100 = 100.0

    def per_100(values: list[float]) -> float:
        return slope(games, values) * per100

    workers = [max(s.workers_mb, default=0.0) for s in soak.samples]
    drift_p50 = per_100([s.play_p50_ms for s in after])
    drift_p95 = per_100([s.play_p95_ms for s in after])
    first = after[: max(1, len(after) // 3)]
    last = after[-max(1, len(after) // 3) :]
    return {
        "finished_games": soak.games,
        "ended_by_host": soak.ended,
        "moves": soak.moves,
        "refused": soak.refused,
        "replays": soak.replays,
        "replays_missing": soak.replays_missing,
        "main_mb_max": max((s.main_mb for s in soak.samples), default=float("nan")),
        "main_mb_plateau": statistics.median([s.main_mb for s in after]) if after else float("nan"),
        "worker_mb_max": max(workers, default=float("nan")),
        "worker_total_mb_max": max((sum(s.workers_mb) for s in soak.samples), default=float("nan")),
        "main_mb_per_100_games": per_100([s.main_mb for s in after]),
        "workers_mb_per_100_games": per_100([sum(s.workers_mb) for s in after]),
        "malloc_mb_per_100_games": per_100([s.malloc_mb for s in after]),
        "python_blocks_per_100_games": per_100([float(s.python_blocks) for s in after]),
        "fds_per_100_games": per_100([float(s.fds + s.worker_fds) for s in after]),
        "db_mb_per_100_games": per_100([s.db_mb for s in after]),
        "play_p50_ms_per_100_games": drift_p50,
        "play_p95_ms_per_100_games": drift_p95,
        "play_p95_ms_first_third": statistics.median([s.play_p95_ms for s in first]) if first else float("nan"),
        "play_p95_ms_last_third": statistics.median([s.play_p95_ms for s in last]) if last else float("nan"),
        "play_p50_ms": percentile(list(soak.all_play), 50) * 1000,
        "play_p95_ms": percentile(list(soak.all_play), 95) * 1000,
        "play_max_ms": max(soak.all_play, default=float("nan")) * 1000,
        "last_move_max_ms": max(soak.last_moves, default=float("nan")) * 1000,
        "lag_p99_ms": percentile(list(soak.all_lag), 99) * 1000,
        "lag_max_ms": max(soak.all_lag, default=float("nan")) * 1000,
        "internal_errors": soak.host.internal_errors,
        "workers_replaced": soak.host.pictures.pool.replaced if soak.host.pictures.pool else 0,
        "workers_recycled": soak.host.pictures.pool.recycled if soak.host.pictures.pool else 0,
    }


def report(r: dict[str, Any], warmup: float) -> list[str]:
    return [
        f"finished games {r['finished_games']} (+{r['ended_by_host']} ended by their host after the move cap),"
        f" moves {r['moves']}, refused {r['refused']}, replays posted {r['replays']}"
        f" (missing {r['replays_missing']}), internal errors {r['internal_errors']},"
        f" workers replaced {r['workers_replaced']}, recycled {r['workers_recycled']}",
        f"main RSS: plateau (median after {warmup:g} min) {r['main_mb_plateau']:.0f} MB, max {r['main_mb_max']:.0f} MB"
        f"   [budget {BUDGETS['main RSS plateau']}]",
        f"render workers: largest {r['worker_mb_max']:.0f} MB, all together at most {r['worker_total_mb_max']:.0f} MB"
        f"   [budget {BUDGETS['each worker RSS']} each]",
        f"slopes per 100 finished games after {warmup:g} min: main RSS {r['main_mb_per_100_games']:+.1f} MB, workers"
        f" {r['workers_mb_per_100_games']:+.1f} MB, malloc in use {r['malloc_mb_per_100_games']:+.1f} MB, Python"
        f" blocks {r['python_blocks_per_100_games']:+.0f}, fds {r['fds_per_100_games']:+.1f},"
        f" database {r['db_mb_per_100_games']:+.1f} MB   [budget RSS {BUDGETS['RSS slope after warm-up']}]",
        f"play: p50 {r['play_p50_ms']:.1f} ms, p95 {r['play_p95_ms']:.1f} ms, max {r['play_max_ms']:.0f} ms;"
        f" slowest game-ending move {r['last_move_max_ms']:.0f} ms (the replay follows it)",
        f"latency drift per 100 games: p50 {r['play_p50_ms_per_100_games']:+.1f} ms, p95"
        f" {r['play_p95_ms_per_100_games']:+.1f} ms; window p95 first third {r['play_p95_ms_first_third']:.1f} ms,"
        f" last third {r['play_p95_ms_last_third']:.1f} ms   [budget {BUDGETS['latency drift']}]",
        f"event-loop lag: p99 {r['lag_p99_ms']:.1f} ms, max {r['lag_max_ms']:.0f} ms"
        f"   [budget {BUDGETS['event-loop lag p99']}]",
    ]


async def soak_run(
    minutes: float,
    *,
    tables: int = 10,
    think: float = 0.3,
    every: float = 30.0,
    max_moves: int = 600,
    processes: int | None = None,
    trim: bool = False,
    trace: int = 0,
    seed: int = 1,
    folder: str | None = None,
    say: Any = print,
) -> dict[str, Any]:
    own = folder is None
    where = Path(folder or tempfile.mkdtemp(prefix="parley-soak-"))
    where.mkdir(parents=True, exist_ok=True)
    db = where / "soak.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    settings = Settings(db_path=str(db), render_processes=default_render_processes() if processes is None else processes)
    host = build_host(settings, ai_seed=f"soak-{seed}")
    soak = Soak(host, db)
    host.publish = soak.publish
    await host.start()
    await host.pictures.warm()
    say(
        f"soak: {tables} tables, think {think:g} s, {settings.render_processes} render processes, {minutes:g} min;"
        f" load {os.getloadavg()[0]:.2f}; database {db}"
    )
    stop = asyncio.Event()
    rnd = random.Random(seed)
    soak.started = time.perf_counter()
    first: tracemalloc.Snapshot | None = None
    if trace:
        tracemalloc.start()
    tasks = [asyncio.create_task(lag_probe(soak, stop))]
    tasks += [
        asyncio.create_task(table_loop(soak, i, stop, think, max_moves, random.Random(rnd.random())))
        for i in range(tables)
    ]
    try:
        deadline = soak.started + minutes * 60
        while time.perf_counter() < deadline:
            await asyncio.sleep(min(every, max(0.0, deadline - time.perf_counter())))
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            if trim:
                trim_heap()
            say(line(soak.sample()))
            if trace:
                first, lines = growth(first, trace)
                say("\n".join(lines))
        stop.set()
        await asyncio.gather(*tasks)
        await host.idle()
        r = summary(soak, minutes / 3)
        r["samples"] = [asdict(s) for s in soak.samples]
        r.update(minutes=minutes, tables=tables, think=think, render_processes=settings.render_processes)
        return r
    finally:
        if trace:
            tracemalloc.stop()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await host.close()
        if own:
            shutil.rmtree(where, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--think", type=float, default=0.3, help="mean seconds between a table's moves")
    parser.add_argument("--sample", type=float, default=30.0, help="seconds between samples")
    parser.add_argument("--max-moves", type=int, default=600, help="moves after which a game is ended by its host")
    parser.add_argument("--processes", type=int, default=None, help="render workers (default: production's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="folder for the database (kept); default a temporary one")
    parser.add_argument("--json", default=None, help="also write the figures and samples to this file")
    parser.add_argument("--trim", action="store_true", help="malloc_trim before each sample (a diagnosis)")
    parser.add_argument("--trace", type=int, default=0, help="tracemalloc: the N lines that grew most (a diagnosis)")
    args = parser.parse_args(argv)
    r = asyncio.run(
        soak_run(
            args.minutes,
            tables=args.tables,
            think=args.think,
            every=args.sample,
            max_moves=args.max_moves,
            processes=args.processes,
            seed=args.seed,
            folder=args.dir,
            trim=args.trim,
            trace=args.trace,
        )
    )
    print("\n".join(report(r, args.minutes / 3)))
    print(f"(load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())})")
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
