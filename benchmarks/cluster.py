"""Clusters: how many moves per second one PostgreSQL serves with p95 ≤ 100 ms, from one process and from two
clusters (two processes, each serving half the shards) sharing it.

Each process is the production host (``bot.host.factory.build_host``: the PostgreSQL store, one render worker per core
unless ``--processes`` says otherwise) over its own live tables, in guilds of its shards, every seat a human.
Moves arrive open-loop, as players' clicks do: Poisson arrivals at the offered rate, split evenly between the
processes; each arrival takes a table that is not busy with a move, asks for the owing seat's choices as the
picker does and plays a random one; the figure is the time from ``play`` to its committed, drawn reply. The
offered rate climbs a ladder until two rungs in a row miss; the result is the highest rung whose p95 stays
≤ 100 ms while at least 90% of the offered moves were served (a full machine queues arrivals instead of slowing
them), and per core of the machine (everything shares them: both processes, their render workers and
PostgreSQL).

    python -m benchmarks.cluster [--tables 60] [--rates 2,4,6,8,12,16,24,32,48] [--seconds 8] [--min-moves 40]
                                 [--game cartagena|mix] [--processes N] [--pg postgresql://…]

Printed, never asserted. Needs a reachable PostgreSQL (``PARLEY_BENCH_PG``, default the tests' server); each run
works in a fresh schema and drops it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from benchmarks.stats import describe, percentile

P95_BUDGET = 0.100
SERVED_FLOOR = 0.9  # of the offered moves: below it, arrivals queued (all tables busy) and the rung fails
DEFAULT_PG = os.environ.get(
    "PARLEY_BENCH_PG", os.environ.get("PARLEY_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
)
Log = Callable[[str], None]


@dataclass
class ClusterConfig:
    tables: int = 60  # live tables in all, split between the processes
    rates: list[float] = field(default_factory=lambda: [2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0])
    seconds: float = 8.0  # per rung, at least
    min_moves: int = 40  # per rung: a slow rung runs longer, so its p95 is not just its second-worst move
    # Cartagena by default: its moves cost about the same, so the figure measures capacity. In a mix, one Treasure
    # Island move (a 2,000-action picker and the heaviest picture) passes 100 ms on a loaded 2-core machine at any
    # rate, and the p95 then says nothing about processes or PostgreSQL
    game: str = "cartagena"
    processes: int | None = None  # render workers per cluster process (None: production's, one per core)
    pg: str = DEFAULT_PG
    clusters: list[int] = field(default_factory=lambda: [1, 2])  # the configurations measured, in this order


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


# -- one cluster process --------------------------------------------------------------------------------------
def _worker(conn: Connection, url: str, shard: int, count: int, tables: int, game: str, processes: int | None) -> None:
    try:
        asyncio.run(_serve(conn, url, shard, count, tables, game, processes))
    except BaseException as exc:  # noqa: BLE001 - reported to the coordinator, which prints it
        conn.send({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        conn.close()


async def _serve(
    conn: Connection, url: str, shard: int, count: int, tables: int, game: str, processes: int | None
) -> None:
    from benchmarks.host import SwitchRenderer, _game_ids, _warm, owing
    from bot.host.factory import build_host
    from bot.host.tables import Caller, TableHost
    from bot.infra.settings import Settings, default_render_processes
    from bot.infra.shards import Shards
    from rules import registry

    shards = Shards.of(str(shard), count) if count > 1 else Shards()
    settings = Settings(
        db_path=url,
        render_processes=default_render_processes() if processes is None else processes,
        shards=shards,
    )
    renderer = SwitchRenderer()
    host: TableHost = build_host(settings, ai_seed=f"cluster-{shard}", renderer=renderer)
    ids = _game_ids(game)
    rnd = random.Random(shard)

    async def seat(i: int, round_no: int) -> list[Caller]:
        # guild i of this shard: its id carries the shard in the bits Discord reads ((id >> 22) % count)
        guild = ((i * count + shard) << 22) | 1
        channel = 10_000 * (shard + 1) + i
        game_id = ids[(i + round_no) % len(ids)]
        base = 100_000 * (shard + 1) + 1_000 * i + 10 * round_no
        players = registry.get(game_id).info.min_players
        callers = [Caller(guild, channel, base + k, f"P{i}.{k}", moderator=(k == 0)) for k in range(players)]
        assert (await host.open(callers[0], game_id, {})).ok
        for c in callers[1:]:
            assert (await host.join(c)).ok
        assert (await host.start_table(callers[0])).ok
        return callers

    await host.start()
    try:
        seated = {i: await seat(i, 0) for i in range(tables)}
        rounds = dict.fromkeys(seated, 0)
        renderer.real = True
        await _warm(host, ids, settings.render_processes)
        conn.send({"ready": True})
        while True:
            order = await asyncio.to_thread(conn.recv)
            if order.get("stop"):
                break
            rate, seconds = float(order["rate"]), float(order["seconds"])
            conn.send(await _rung(host, seated, rounds, seat, rnd, rate, seconds, owing))
        await host.idle(10)
    finally:
        await host.close()


async def _rung(
    host: Any,
    seated: dict[int, list[Any]],
    rounds: dict[int, int],
    seat: Callable[[int, int], Any],
    rnd: random.Random,
    rate: float,
    seconds: float,
    owing: Any,
) -> dict[str, Any]:
    """Poisson arrivals at ``rate`` for ``seconds``; each takes an idle table and plays one move there."""
    latencies: list[float] = []
    counts = {"offered": 0, "busy": 0, "refused": 0, "skipped": 0}
    idle = deque(rnd.sample(list(seated), len(seated)))
    running: set[asyncio.Task[None]] = set()

    async def move(i: int) -> None:
        try:
            callers = seated[i]
            summary = host.table_for(callers[0].channel_id)
            if summary is None or summary.status != "running":
                counts["skipped"] += 1  # its game ended: a new one is opened, not measured
                rounds[i] += 1
                seated[i] = await seat(i, rounds[i])
                return
            who, choices = await owing(host, callers, summary)
            if who is None:
                counts["skipped"] += 1
                return
            start = time.perf_counter()
            out = await host.play(who, rnd.choice(choices).action, summary.state_no)
            end = time.perf_counter()
            out.delivered()
            if out.ok:
                latencies.append(end - start)
            else:
                counts["refused"] += 1
        finally:
            idle.append(i)

    loop = asyncio.get_running_loop()
    t0 = loop.time()
    due = t0
    while True:
        due += rnd.expovariate(rate)
        if due - t0 >= seconds:
            break
        await asyncio.sleep(max(0.0, due - loop.time()))
        counts["offered"] += 1
        if not idle:
            counts["busy"] += 1  # every table is in the middle of a move: the arrival is not served
            continue
        task = loop.create_task(move(idle.popleft()))
        running.add(task)
        task.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)
    return {"latencies": latencies, **counts, "errors": host.internal_errors}


# -- the coordinator ------------------------------------------------------------------------------------------
async def _schema(url: str, sql: str) -> None:
    import asyncpg

    con = await asyncpg.connect(url, timeout=5)
    try:
        await con.execute(sql)
    finally:
        await con.close()


def _ladder(cfg: ClusterConfig, clusters: int, url: str, log: Log) -> dict[str, Any]:
    """Climb the offered rates with ``clusters`` processes (1: one process for every shard; 2: shards 0 and 1
    of 2) until two rungs in a row miss p95 ≤ 100 ms or serve under 90% of their moves."""
    ctx = multiprocessing.get_context("spawn")
    pipes: list[Connection] = []
    procs = []
    per = max(1, cfg.tables // clusters)
    for shard in range(clusters):
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(
            target=_worker, args=(theirs, url, shard, clusters, per, cfg.game, cfg.processes), daemon=False
        )
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    rungs: list[dict[str, Any]] = []
    try:
        for pipe in pipes:
            answer = pipe.recv()
            if "error" in answer:
                raise RuntimeError(answer["error"])
        # a rung not measured first, half as long as the first measured one: the store's connection pool grows to
        # its working size, PostgreSQL's and the renderers' caches fill
        warm = max(cfg.seconds, cfg.min_moves / cfg.rates[0]) / 2
        for pipe in pipes:
            pipe.send({"rate": cfg.rates[0] / clusters, "seconds": warm})
        for pipe in pipes:
            if "error" in (answer := pipe.recv()):
                raise RuntimeError(answer["error"])
        for rate in cfg.rates:
            seconds = max(cfg.seconds, cfg.min_moves / rate)
            for pipe in pipes:
                pipe.send({"rate": rate / clusters, "seconds": seconds})
            answers = [pipe.recv() for pipe in pipes]
            errors = [a["error"] for a in answers if "error" in a]
            if errors:
                raise RuntimeError(errors[0])
            latencies = [x for a in answers for x in a["latencies"]]
            offered = sum(a["offered"] - a["skipped"] for a in answers)  # arrivals at a table owing a move
            served = len(latencies) / offered if offered else 0.0
            p95 = percentile(latencies, 95)
            ok = bool(latencies) and p95 <= P95_BUDGET and served >= SERVED_FLOOR
            rung = {
                "rate": rate,
                "achieved": len(latencies) / seconds,
                "served": served,
                "latency": describe(latencies),
                "busy": sum(a["busy"] for a in answers),
                "errors": sum(a["errors"] for a in answers),
                "ok": ok,
            }
            rungs.append(rung)
            log(
                f"cluster: {clusters} process{'es' if clusters > 1 else ''}, {rate:g} moves/s offered:"
                f" {rung['achieved']:.1f}/s served, p50 {rung['latency']['p50'] * 1000:.0f} ms"
                f" p95 {p95 * 1000:.0f} ms{'' if ok else '  (over)'}"
            )
            # a busy machine makes one rung miss now and then: the ladder stops after two misses in a row
            if not ok and len(rungs) >= 2 and not rungs[-2]["ok"]:
                break
        for pipe in pipes:
            pipe.send({"stop": True})
    finally:
        for proc in procs:
            proc.join(60)
            if proc.is_alive():
                proc.kill()
    # the highest offered rate served within the budget (what was served at it is printed beside it: Poisson
    # arrivals over a short rung scatter around the offered rate)
    passed = [r for r in rungs if r["ok"]]
    best = passed[-1]["rate"] if passed else 0.0
    achieved = passed[-1]["achieved"] if passed else 0.0
    return {"clusters": clusters, "best": best, "achieved": achieved, "per_core": best / cores(), "rungs": rungs}


def measure_clusters(cfg: ClusterConfig, log: Log = lambda s: print(s, file=sys.stderr)) -> dict[str, Any]:
    """One process, then two clusters, each on a fresh schema of ``cfg.pg``. Raises ``OSError`` when no
    PostgreSQL is reachable."""
    results: dict[str, Any] = {"cores": cores(), "tables": cfg.tables, "game": cfg.game, "runs": []}
    for clusters in cfg.clusters:
        schema = f"parley_bench_{uuid.uuid4().hex[:10]}"
        try:
            asyncio.run(_schema(cfg.pg, f"CREATE SCHEMA {schema}"))
        except Exception as exc:  # noqa: BLE001 - no server: the caller prints why
            raise OSError(f"no PostgreSQL at {cfg.pg} ({type(exc).__name__})") from None
        url = f"{cfg.pg}{'&' if '?' in cfg.pg else '?'}search_path={schema}"
        try:
            results["runs"].append(_ladder(cfg, clusters, url, log))
        finally:
            asyncio.run(_schema(cfg.pg, f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    return results


def report(results: dict[str, Any]) -> list[str]:
    lines = [
        f"Moves per second with p95 ≤ {P95_BUDGET * 1000:.0f} ms, one PostgreSQL, {results['tables']} live tables"
        f" ({results['game']}), {results['cores']} cores shared by everything:"
    ]
    for run in results["runs"]:
        who = "one process" if run["clusters"] == 1 else f"{run['clusters']} clusters"
        last = run["rungs"][-1] if run["rungs"] else None  # the rung that ended the ladder
        tail = ""
        if last is not None and not last["ok"]:
            tail = (
                f"; next rung {last['rate']:g}/s offered: {last['achieved']:.1f}/s served,"
                f" p95 {last['latency']['p95'] * 1000:.0f} ms"
            )
        lines.append(
            f"  {who}: {run['best']:g} moves/s offered ({run['per_core']:.1f} per core;"
            f" {run['achieved']:.1f}/s served){tail}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.cluster", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=ClusterConfig.tables)
    p.add_argument("--rates", default=None, help="offered moves per second, comma-separated, ascending")
    p.add_argument("--seconds", type=float, default=ClusterConfig.seconds, help="seconds per rung, at least")
    p.add_argument("--min-moves", type=int, default=ClusterConfig.min_moves, help="moves per rung, at least")
    p.add_argument("--game", default=ClusterConfig.game, help="a game id, or mix")
    p.add_argument("--processes", type=int, default=None, help="render workers per process (default one per core)")
    p.add_argument("--clusters", default="1,2", help="processes per configuration, in order (1: one process)")
    p.add_argument("--pg", default=DEFAULT_PG, help="PostgreSQL server URL (a schema is created and dropped)")
    args = p.parse_args(argv)
    cfg = ClusterConfig(
        tables=args.tables,
        seconds=args.seconds,
        min_moves=args.min_moves,
        game=args.game,
        processes=args.processes,
        pg=args.pg,
        clusters=[int(c) for c in args.clusters.split(",")],
    )
    if args.rates:
        cfg.rates = [float(r) for r in args.rates.split(",")]
    try:
        results = measure_clusters(cfg)
    except OSError as exc:
        print(f"benchmarks.cluster: not measured: {exc}", file=sys.stderr)
        return 1
    print("\n".join(report(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
