"""Memory per live table: a host with N running tables (every game in turn, each a few moves in), the
growth of the process divided by N.

    python -m benchmarks.memory [--tables 200] [--moves 10]

Two figures: the Python heap the tables hold (``tracemalloc``: exact for Python objects, blind to SQLite's
and PIL's C allocations) and the growth of the resident set (everything, but coarse: the allocator keeps
freed pages). The host is the production one (``bot.host.factory``), whose render workers are other processes;
pictures are a constant tiny PNG: they are not kept by a table.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks.host import _game_ids, _seat_table, owing
from bot.host.factory import build_host
from bot.host.tables import Caller, TableHost
from bot.infra.settings import Settings
from renderers.common import tiny_png


def rss_bytes() -> int:
    """Resident memory of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


TINY_PNG = tiny_png()


def _no_picture(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """A real 8×8 picture: the figure is the table's memory, not its pictures (the replay GIF still decodes it)."""
    return TINY_PNG


async def _live_tables(host: TableHost, first: int, count: int, ids: list[str], moves: int, rnd: random.Random) -> None:
    for i in range(first, first + count):
        callers: list[Caller] = await _seat_table(host, i, ids[i % len(ids)])
        for _ in range(moves):
            summary = host.table_for(callers[0].channel_id)
            if summary is None or summary.status != "running":
                break
            caller, choices = await owing(host, callers, summary)
            if caller is None:
                break
            out = await host.play(caller, rnd.choice(choices).action)
            assert out.ok, out.reply


async def measure_memory(
    tables: int = 200, *, game: str = "mix", moves: int = 10, folder: str | None = None
) -> dict[str, Any]:
    """Open, start and play ``moves`` moves on ``tables`` tables, twice: once watching the resident set, once
    under ``tracemalloc``. Keys: tables, moves, kb_per_table (Python heap), rss_kb_per_table."""
    own = folder is None
    where = Path(folder or tempfile.mkdtemp(prefix="parley-memory-"))
    where.mkdir(parents=True, exist_ok=True)
    ids = _game_ids(game)
    rnd = random.Random(7)
    # the production host (its render workers are other processes: this process's growth is the tables')
    host = build_host(Settings(db_path=str(where / "memory.sqlite3")), ai_seed="memory", renderer=_no_picture)
    await host.start()
    try:
        # warm-up: imports, caches and the database's first pages are not a table's
        await _live_tables(host, 0, len(ids), ids, moves, rnd)
        gc.collect()
        rss0 = rss_bytes()
        await _live_tables(host, len(ids), tables, ids, moves, rnd)
        gc.collect()
        rss1 = rss_bytes()
        tracemalloc.start()
        try:
            gc.collect()
            heap0 = tracemalloc.get_traced_memory()[0]
            await _live_tables(host, len(ids) + tables, tables, ids, moves, rnd)
            gc.collect()
            heap1 = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
    finally:
        await host.close()
        if own:
            shutil.rmtree(where, ignore_errors=True)
    return {
        "tables": tables,
        "game": game,
        "moves": moves,
        "kb_per_table": (heap1 - heap0) / tables / 1024,
        "rss_kb_per_table": (rss1 - rss0) / tables / 1024,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--game", default="mix")
    args = parser.parse_args(argv)
    r = asyncio.run(measure_memory(args.tables, game=args.game, moves=args.moves))
    print(f"{r['tables']} live tables ({r['game']}, {r['moves']} moves each)")
    print(f"  Python heap per table: {r['kb_per_table']:.1f} KB (tracemalloc)")
    print(f"  resident set per table: {r['rss_kb_per_table']:.1f} KB")


if __name__ == "__main__":
    main()
