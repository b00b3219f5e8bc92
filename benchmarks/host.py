"""The table host under load: N concurrent tables through TableHost with SQLite on disk (WAL).

Every table has two human seats (console-style ids). Each table's players think for a random time
(exponential, mean ``--think`` seconds) and then play a random legal action with the button's state number.
The figure is the time from calling ``play`` to getting back its committed, rendered outputs (board picture
and any private picture), per action. Budget: p95 under 100 ms with 200 active tables.

    python -m benchmarks.host [--game cartagena] [--tables 200] [--think 20] [--actions 600]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import renderers
from bot.store import Store
from bot.tables import Caller, TableHost
from rules import registry


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class SwitchRenderer:
    """The real renderer, switched off (a blank picture) while the tables are being set up."""

    def __init__(self) -> None:
        self.real = False
        self.blank = b""

    def __call__(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
        if not self.real:
            return self.blank
        return renderers.render(game_id, view, seat=seat)


async def bench(args: argparse.Namespace) -> int:
    folder = Path(args.db_dir or tempfile.mkdtemp(prefix="parley-bench-"))
    db = folder / "bench.sqlite3"
    if db.exists():
        db.unlink()
    renderer = SwitchRenderer()
    host = TableHost(Store(str(db)), ai_seed="bench", renderer=renderer, render_processes=args.processes)
    await host.start()
    commit_ms: list[float] = []
    real_append = host.store.append

    async def timed_append(*a: Any, **kw: Any) -> None:
        t0 = time.perf_counter()
        await real_append(*a, **kw)
        commit_ms.append((time.perf_counter() - t0) * 1000)

    host.store.append = timed_append  # type: ignore[method-assign]

    players: list[tuple[Caller, Caller]] = []
    t0 = time.perf_counter()
    for i in range(args.tables):
        a = Caller(1, 1000 + i, 10 * i + 1, f"A{i}", moderator=True)
        b = Caller(1, 1000 + i, 10 * i + 2, f"B{i}")
        assert (await host.open(a, args.game, {})).ok
        assert (await host.join(b)).ok
        out = await host.start_table(a)
        assert out.ok, out.reply
        players.append((a, b))
    print(f"set up {args.tables} tables in {time.perf_counter() - t0:.1f} s; database {db}")
    renderer.real = True
    commit_ms.clear()

    latencies: list[float] = []
    finals = 0
    errors = 0
    budget = args.actions
    rnd = random.Random(args.seed)
    started = time.perf_counter()
    window = [started, started]  # from the start to the last measured action (the final think times excluded)

    async def table_loop(a: Caller, b: Caller, trnd: random.Random) -> None:
        nonlocal budget, finals, errors
        await asyncio.sleep(trnd.uniform(0, args.think))
        while budget > 0:
            summary = host.table_for(a.channel_id)
            if summary is None or summary.status != "running":
                return
            for c in (a, b):
                choices = await host.choices(c)
                if choices:
                    break
            else:
                return
            budget -= 1
            t = time.perf_counter()
            out = await host.play(c, trnd.choice(choices).action, summary.state_no)
            ms = (time.perf_counter() - t) * 1000
            if not out.ok:
                errors += 1
            elif any(p.filename == "replay.gif" for p in out.public):
                finals += 1  # the end of a game also draws the replay; reported apart
            else:
                latencies.append(ms)
            window[1] = time.perf_counter()
            await asyncio.sleep(trnd.expovariate(1 / args.think))

    await asyncio.gather(*(table_loop(a, b, random.Random(rnd.random())) for a, b in players))
    elapsed = window[1] - window[0]
    await host.close()
    if not latencies:
        print("no actions measured")
        return 1
    print(
        f"{args.game}: {args.tables} active tables, render processes {args.processes}, think {args.think:g} s mean, {len(latencies)} actions in"
        f" {elapsed:.1f} s ({len(latencies) / elapsed:.1f}/s); refused {errors}, game ends {finals}"
    )
    print(
        f"action -> committed, rendered reply: p50 {pct(latencies, 50):.1f} ms, p95 {pct(latencies, 95):.1f} ms,"
        f" p99 {pct(latencies, 99):.1f} ms, mean {statistics.fmean(latencies):.1f} ms, max {max(latencies):.1f} ms"
    )
    print(f"commit alone (SQLite WAL, on disk): p50 {pct(commit_ms, 50):.2f} ms, p95 {pct(commit_ms, 95):.2f} ms")
    verdict = "within" if pct(latencies, 95) < 100 else "OVER"
    print(f"budget p95 < 100 ms: {verdict}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cartagena", choices=registry.game_ids())
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", type=float, default=20.0, help="mean seconds between a table's actions")
    parser.add_argument("--actions", type=int, default=600, help="actions to measure in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2, help="render worker processes (0: two threads)")
    parser.add_argument("--db-dir", default=None, help="folder for the database file (default: a temp folder)")
    args = parser.parse_args(argv)
    return asyncio.run(bench(args))


if __name__ == "__main__":
    raise SystemExit(main())
