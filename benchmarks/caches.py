"""The main process's capped caches: what each one holds after a soak-like run, what it would hold full, and how
its hit rate depends on its size.

    python -m benchmarks.caches [--games 40] [--tables 10] [--sizes 64,256,1024,4096]

The host is the production one (``bot.host.factory``) with a constant tiny picture, so the process runs what the
bot's main process runs per move (choices, play, views, replays' frames collected) without the drawing, which
happens in render workers. Then ``--ai`` AI-only games, as many at once, move by move in turn: the AI chooses in
the main process too. ``--tables`` tables play at once through the host, the five games in turn, players
picking at random as in ``benchmarks.soak``, until ``--games`` games have finished.

Per cache (every ``lru_cache`` of the rules, renderers and host that holds anything afterwards): entries / room,
hits and misses, the bytes it holds (``tracemalloc``: the heap freed by ``cache_clear``, exact for Python
objects), bytes per entry, the projection to a full cache (bytes per entry × maxsize), and the hit rate a
least-recently-used cache of each of ``--sizes`` entries would have had on the same calls (replayed from the
recorded argument stream). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import sys
import tempfile
import tracemalloc
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.memory import _no_picture
from benchmarks.soak import Soak, table_loop
from bot.host.factory import build_host
from bot.infra.settings import Settings
from rules import registry

KB = 1024


def capped_caches(prefixes: tuple[str, ...] = ("rules.", "renderers.", "bot.")) -> dict[str, tuple[Any, str, Any]]:
    """Every ``lru_cache`` with a maxsize defined at module level under ``prefixes``: name -> (module, attribute,
    cached function)."""
    out: dict[str, tuple[Any, str, Any]] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(prefixes):
            continue
        for attr, value in list(vars(module).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name and info().maxsize:
                out[f"{name}.{attr}"] = (module, attr, value)
    return out


def _recording(cached: Any, stream: list[int]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        stream.append(hash((args, tuple(sorted(kwargs.items())))))
        return cached(*args, **kwargs)

    return call


def lru_hit_rate(stream: list[int], size: int) -> float:
    """The hit rate a least-recently-used cache of ``size`` entries has on this stream of keys."""
    held: OrderedDict[int, None] = OrderedDict()
    hits = 0
    for key in stream:
        if key in held:
            hits += 1
            held.move_to_end(key)
        else:
            held[key] = None
            if len(held) > size:
                held.popitem(last=False)
    return hits / len(stream) if stream else float("nan")


async def play(games: int, tables: int, seed: int) -> None:
    where = Path(tempfile.mkdtemp(prefix="parley-caches-"))
    try:
        settings = Settings(db_path=str(where / "caches.sqlite3"), render_processes=0)
        host = build_host(settings, ai_seed=f"caches-{seed}", renderer=_no_picture)
        soak = Soak(host, where / "caches.sqlite3")
        host.publish = soak.publish
        await host.start()
        stop = asyncio.Event()
        rnd = random.Random(seed)
        tasks = [
            asyncio.create_task(table_loop(soak, i, stop, 0.0, 600, random.Random(rnd.random()))) for i in range(tables)
        ]
        while soak.games < games:
            await asyncio.sleep(0.2)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
        stop.set()
        await asyncio.gather(*tasks)
        await host.idle()
        await host.close()
    finally:
        shutil.rmtree(where, ignore_errors=True)


def ai_games(games: int, tables: int, seed: int) -> None:
    """``games`` AI-only games, ``tables`` at once taking turns move by move, the five games in turn, at the
    "normal" level: the AI's caches (it chooses in the main process, ``bot.host.turns``) see what a busy bot's do."""
    ids = registry.game_ids()
    started = 0
    running: list[tuple[Any, Any, random.Random, int]] = []
    while running or started < games:
        while len(running) < tables and started < games:
            game = registry.get(ids[started % len(ids)])
            state = game.new(game.info.min_players, {}, f"caches-ai-{seed}-{started}")
            running.append((game, state, random.Random(f"{seed}:{started}"), 0))
            started += 1
        for i, (game, state, rnd, moves) in enumerate(list(running)):
            to_act = game.to_act(state)
            if not to_act or moves >= 2000:
                running[i] = None  # type: ignore[call-overload]
                continue
            seat = to_act[0]
            legal = game.legal_actions(state, seat)
            action = game.ai_choose(game.view(state, seat), seat, list(legal), "normal", rnd)
            running[i] = (game, game.apply(state, seat, action)[0], rnd, moves + 1)
        running = [r for r in running if r is not None]


def measure(games: int, tables: int, sizes: list[int], seed: int = 1, ai: int = 0) -> list[dict[str, Any]]:
    for game_id in registry.game_ids():
        registry.get(game_id)
    import bot.host.api  # noqa: F401 - its caches are counted too

    caches = capped_caches()
    streams: dict[str, list[int]] = {name: [] for name in caches}
    for name, (module, attr, cached) in caches.items():
        cached.cache_clear()
        setattr(module, attr, _recording(cached, streams[name]))
    tracemalloc.start()
    try:
        asyncio.run(play(games, tables, seed))
        ai_games(ai, tables, seed)
    finally:
        for module, attr, cached in caches.values():
            setattr(module, attr, cached)
    rows = []
    for name, (_, _, cached) in sorted(caches.items(), key=lambda kv: -kv[1][2].cache_info().currsize):
        info = cached.cache_info()
        if not info.currsize:
            continue
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        cached.cache_clear()
        gc.collect()
        held = max(0, before - tracemalloc.get_traced_memory()[0])
        per_entry = held / info.currsize
        rows.append({
            "cache": name,
            "entries": info.currsize,
            "maxsize": info.maxsize,
            "hits": info.hits,
            "misses": info.misses,
            "held_kb": held / KB,
            "bytes_per_entry": per_entry,
            "full_mb": per_entry * info.maxsize / KB / KB,
            "hit_rate": {size: lru_hit_rate(streams[name], size) for size in sizes + [info.maxsize]},
        })
    tracemalloc.stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--sizes", default="64,256,1024,4096")
    parser.add_argument("--ai", type=int, default=10, help="AI-only games played afterwards (the AI's caches)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = measure(args.games, args.tables, sizes, args.seed, args.ai)
    print(f"{args.games} finished games and {args.ai} AI-only games, {args.tables} tables at once; hit rates of an LRU of each size on the same calls")
    for r in rows:
        rates = "  ".join(f"{size}: {rate:.1%}" for size, rate in r["hit_rate"].items())
        print(
            f"{r['cache']:48s} {r['entries']:6d}/{r['maxsize']:<6d} hits {r['hits']:8d} misses {r['misses']:6d}"
            f"  holds {r['held_kb']:8.0f} KB  {r['bytes_per_entry']:7.0f} B/entry  full {r['full_mb']:6.1f} MB"
            f"  | {rates}"
        )
    print(f"all caches full: {sum(r['full_mb'] for r in rows):.1f} MB (the caches that held anything)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
