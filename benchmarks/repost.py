"""After a crash: how soon the boards it lost are back. ``parley run`` starts its host, and then reposts the lost
boards, while it logs in, before READY; so the time from the host's start to the reposts being ready bounds the
time after READY (target: within 3 s).

A database holds one running table per game whose newest board never reached Discord (a crash between the move's
commit and its post). Each round is a fresh process, as after a crash: the production host
(:func:`bot.host.factory.build_host`: the real renderers, render worker processes booting in the background) starts and
``lost_boards()`` draws every board. Printed per round: the wall time from the start to every repost ready and the
main process's CPU time meanwhile; beside them the floor, measured in the same process: the same boards drawn
again, warm (the pictures' own CPU cost), and when the render workers became ready (what the reposts used to wait
for; ``--wait-for-workers`` measures that old behaviour); and the main process's memory at the reposts (the
renderers' caches of the boards drawn there) and once a worker draws again (those caches dropped).

    python -m benchmarks.repost [--rounds 3] [--processes N] [--games cartagena,flagon] [--wait-for-workers]
                                [--parley-run]

``--parley-run`` measures the target itself, from READY: each round runs the real ``parley run`` (a copy of the
database each time) against the loopback fake Discord of the tests (``tests/discord/fakediscord.py``, so from a
source checkout) and prints when each lost board's post arrived, counted from the moment the fake sent READY.

Printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.host.factory import build_host
from bot.host.tables import Caller, TableHost
from bot.infra.settings import Settings, default_render_processes
from bot.infra.store import Store
from bot.infra.workers import rss_bytes
from rules import registry

GUILD = 1
MOVES = 12


async def lost_boards_database(path: str, games: list[str] | None = None) -> int:
    """One running table per game (``games``, default all), ``MOVES`` moves in, whose saved board post shows the
    state before the last move. Returns the number of tables."""
    from benchmarks.startup import _blank

    host = TableHost(Store(path), ai_seed="repost-bench", renderer=_blank)
    await host.start()
    try:
        chosen = games or registry.game_ids()
        for channel, game_id in enumerate(chosen, start=10):
            ana, ben = Caller(GUILD, channel, 1, "Ana", moderator=True), Caller(GUILD, channel, 2, "Ben")
            assert (await host.open(ana, game_id, {}, seed=f"repost-{game_id}")).ok
            assert (await host.join(ben)).ok
            assert (await host.start_table(ana)).ok
            for _ in range(MOVES):
                owing = [(c, ch) for c in (ana, ben) if (ch := await host.choices(c))]
                summary = host.table_for(channel)
                if not owing or summary is None or summary.status != "running":
                    break
                caller, choices = owing[0]
                assert (await host.play(caller, choices[0].action)).ok
            summary = host.table_for(channel)
            assert summary is not None and summary.status == "running", game_id
            # what the transport saved for the board before the last move; the last move's post was lost
            await host.store.posts.save_board_post(summary.table_id, "lost", channel, 1, summary.state_no - 1)
        return len(chosen)
    finally:
        await host.close()


async def one_round(path: str, processes: int, wait_for_workers: bool) -> dict[str, float]:
    """In a fresh process: start the production host and repost the lost boards."""
    if wait_for_workers:  # the behaviour before the fallback: every picture waits for a worker
        from bot.infra.workers import WorkerPool

        WorkerPool.any_ready = lambda self: True  # type: ignore[method-assign]
    settings = dataclasses.replace(Settings(), db_path=path, render_processes=processes, ai_processes=1)
    wall, cpu = time.perf_counter(), time.process_time()
    host = build_host(settings)
    # as parley run does it (bot/transports/discord/client.py): the workers boot once the lost boards are out
    await host.start(workers=wait_for_workers)
    outs = await host.lost_boards()
    repost_wall, repost_cpu = time.perf_counter() - wall, time.process_time() - cpu
    host.start_workers()
    boards = [p for o in outs for p in o.public if p.board_key is not None and p.image]
    assert len(boards) == len(outs) and boards, "a lost board came back without its picture"
    rss_repost = rss_bytes()
    # the floor: the same public boards drawn again here, warm
    views = [(t.game_id, t.game.view(t.state, None)) for t in host.index.tables.values() if t.state is not None]  # noqa: SLF001
    import renderers

    floor = time.process_time()
    for game_id, view in views:
        renderers.render(game_id, view, seat=None)
    floor_cpu = time.process_time() - floor
    pool = host.pictures.pool
    if pool is not None:
        await pool.ready()
    workers_wall = time.perf_counter() - wall
    # the next picture goes to a worker, and this process drops what its own drawings cached
    t = next(t for t in host.index.tables.values() if t.state is not None)  # noqa: SLF001
    await host.pictures.render(t.game_id, t.game.view(t.state, None), None)
    await asyncio.sleep(0.5)
    rss_after = rss_bytes()
    await host.close()
    return {
        "boards": len(boards),
        "repost_wall": repost_wall,
        "repost_cpu": repost_cpu,
        "floor_cpu": floor_cpu,
        "workers_wall": workers_wall,
        "rss_repost": rss_repost / 2**20,
        "rss_after": rss_after / 2**20,
    }


def after_ready(path: str, tables: int, rounds: int, processes: int, wait_for_workers: bool) -> None:
    """``--parley-run``: the real command line, killed after each round; the board posts' arrival after READY."""
    import os
    import shutil

    from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord

    class Timed(FakeDiscord):
        ready_at: float = 0.0

        async def _identify(self, ws: object, request: object, data: dict[str, object]) -> None:
            await super()._identify(ws, request, data)  # type: ignore[arg-type]
            assert self._loop is not None
            self.ready_at = self._loop.time()

    root = Path(__file__).resolve().parents[1]
    for n in range(1, rounds + 1):
        copy = f"{path}.{n}"
        shutil.copy(path, copy)
        fake = Timed()
        fake.start()
        env = dict(
            os.environ,
            DISCORD_TOKEN=GOOD_TOKEN,
            PARLEY_DB=copy,
            PARLEY_LOG_LEVEL="WARNING",
            PARLEY_RENDER_PROCESSES=str(processes),
        )
        patch = "import bot.infra.workers as w; w.WorkerPool.any_ready = lambda self: True; " if wait_for_workers else ""
        code = f"import runpy, sys; {patch}sys.argv = sys.argv[:1] + sys.argv[1:]; runpy.run_module('tests.discord.fakediscord', run_name='__main__')"
        child = subprocess.Popen(
            [sys.executable, "-c", code, str(fake.port), "--env-file", "/nonexistent", "run"], cwd=root, env=env
        )
        try:
            deadline = time.monotonic() + 120
            posts: list[float] = []
            while time.monotonic() < deadline:
                posts = [
                    r.at for r in fake.requests if r.method == "POST" and "/channels/" in r.path and r.status < 300
                ]
                if len(posts) >= tables and fake.ready_at:
                    break
                time.sleep(0.05)
            shown = ", ".join(f"{at - fake.ready_at:+.2f}" for at in posts) or "none"
            print(f"round {n}: lost boards posted at {shown} s after READY")
        finally:
            child.terminate()
            child.wait(30)
            fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.repost", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--processes", type=int, default=default_render_processes(), help="render workers")
    parser.add_argument("--wait-for-workers", action="store_true", help="measure the old behaviour")
    parser.add_argument("--games", default=None, help="the games with a lost board, comma-separated (default all)")
    parser.add_argument("--parley-run", action="store_true", help="the real parley run, timed from READY")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(asyncio.run(one_round(args.child, args.processes, args.wait_for_workers))))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "parley.sqlite3")
        games = [registry.get(g.strip()).info.id for g in args.games.split(",")] if args.games else None
        tables = asyncio.run(lost_boards_database(path, games))
        mode = "waiting for a worker (old)" if args.wait_for_workers else "drawn here until a worker is ready"
        print(f"{tables} lost boards, {args.processes} render workers, {mode}")
        if args.parley_run:
            after_ready(path, tables, args.rounds, args.processes, args.wait_for_workers)
            return 0
        for n in range(1, args.rounds + 1):
            command = [sys.executable, "-m", "benchmarks.repost", "--child", path, "--processes", str(args.processes)]
            if args.wait_for_workers:
                command.append("--wait-for-workers")
            r = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            print(
                f"round {n}: reposts ready {r['repost_wall']:.2f} s after the start (main CPU {r['repost_cpu']:.2f} s);"
                f" floor {r['floor_cpu'] * 1000:.0f} ms CPU for the {r['boards']} boards drawn warm;"
                f" workers ready after {r['workers_wall']:.2f} s; main process {r['rss_repost']:.0f} MB at the"
                f" reposts, {r['rss_after']:.0f} MB once a worker draws"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
