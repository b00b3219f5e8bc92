"""CPU per move, per game, against the physical floor of the move's pictures, on the production host.

Seeded games of each game on the host ``parley run`` serves (:func:`bot.host.factory.build_host`: SQLite on disk, render
worker processes), every seat a player who asks for their choices as the picker does (``host.choices``) and plays
the ``normal`` AI's move with the button's state number (``host.play``), as a click in Discord does. Printed per game,
in CPU time of every process, so a busy machine does not move the figures much:

- CPU ms per move of the main process (the event loop, the store's thread, the feeders of the workers), of the render
  workers (the pictures) and of the replay GIF (drawn once at the end, spread over the game's moves);
- the physical floor measured in the same run: the move's pictures re-encoded from their final palette pixels with
  the fastest lossless deflate (ISA-L at level 1, the encoder the renderers use), and the ratios to it;
- the longest single event-loop callback (its CPU time, garbage collection included) and what ran in it, and the
  longest without garbage collection (the host's own work: the picker's first page is built as a click builds it);
- moves per second per core (one core's second over the total CPU of a move).

Budgets (printed, never asserted): total ≤ 4× the floor (≥ 100 moves per second per core), pictures ≤ 2× the floor,
no event-loop callback over 20 ms.

    python -m benchmarks.cpu [--games cartagena,flagon] [--seeds 1] [--moves 5000] [--processes 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from isal import isal_zlib
from PIL import Image

from bot.host.factory import build_host
from bot.host.tables import Caller, TableHost
from bot.infra import heap
from bot.infra.pictures import PICTURE, REPLAY
from bot.infra.settings import Settings
from bot.transports.discord.views import picker_view
from rules import registry

TOTAL_BUDGET = 4.0  # × the floor, all processes, the replay included
PICTURE_BUDGET = 2.0  # × the floor, the render workers
CALLBACK_BUDGET = 0.020  # seconds of CPU in one event-loop callback
#: the deflate level of the floor: ISA-L's level 1, the fastest lossless deflate measured (python -m benchmarks.cpu
#: --encoders) and the one the renderers write with
FLOOR_LEVEL = 1

Log = Callable[[str], None]


# -- the floor ------------------------------------------------------------------------------------------------
def scanlines(img: Image.Image) -> bytes:
    """A palette image's pixels as PNG scanlines (a 0 filter byte before each row), as any PNG writer feeds them."""
    rows = Image.new("P", (img.width + 1, img.height), 0)
    rows.paste(img, (1, 0))
    return rows.tobytes()


def floor_seconds(pngs: list[bytes], repeats: int = 3) -> float:
    """CPU seconds to deflate the final palette pixels of ``pngs`` (each its best of ``repeats``): what writing
    those pictures costs at least, whatever draws them."""
    total = 0.0
    for png in pngs:
        with Image.open(io.BytesIO(png)) as img:
            pixels = img if img.mode == "P" else img.convert("RGB").quantize(256, dither=Image.Dither.NONE)
            raw = scanlines(pixels)
        best = float("inf")
        for _ in range(repeats):
            t0 = time.thread_time()
            isal_zlib.compress(raw, FLOOR_LEVEL)
            best = min(best, time.thread_time() - t0)
        total += best
    return total


# -- the event loop -------------------------------------------------------------------------------------------
_ASYNCIO = str(Path(asyncio.__file__).parent)


def _where(coro: Any) -> str:
    """Where a coroutine is suspended (``file:line function``): the innermost frame of what it awaits that is not
    asyncio's own (``asyncio.sleep(0)`` says nothing)."""
    frame = None
    while coro is not None:
        inner = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if inner is not None and not inner.f_code.co_filename.startswith(_ASYNCIO):
            frame = inner
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    if frame is None:
        return "(finished)"
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}"


@dataclass
class Callback:
    cpu: float = 0.0
    gc: float = 0.0
    what: str = ""


class LoopWatch:
    """Every event-loop callback timed in CPU (the loop thread's clock), while ``active``: the longest one with what
    ran in it (a task's coroutine, where it resumed and where it stopped), and the garbage collections inside it."""

    def __init__(self) -> None:
        self.active = False
        self.longest = Callback()
        #: the longest callback counted without the garbage collections inside it: the host's own work
        self.longest_own = Callback()
        self.over = 0  # callbacks over CALLBACK_BUDGET
        self.callbacks = 0
        self._skip = False
        self._gc = 0.0
        self._gc_started = 0.0
        self._gc_gens: list[int] = []
        self._real = asyncio.events.Handle._run

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self._gc += time.thread_time() - self._gc_started
            self._gc_gens.append(info.get("generation", -1))

    def install(self) -> None:
        watch, real = self, self._real

        def _run(handle: asyncio.Handle) -> None:
            if not watch.active:
                return real(handle)
            callback = handle._callback  # noqa: SLF001 - the watched callback
            task = getattr(callback, "__self__", None)
            coro = task.get_coro() if isinstance(task, asyncio.Task) else None
            resumed = _where(coro) if coro is not None else ""
            gc0, gens = watch._gc, len(watch._gc_gens)
            t0 = time.thread_time()
            try:
                return real(handle)
            finally:
                watch._record(time.thread_time() - t0, callback, coro, resumed, gc0, gens)

        asyncio.events.Handle._run = _run  # type: ignore[method-assign]
        gc.callbacks.append(self._on_gc)

    def _record(self, cpu: float, callback: Any, coro: Any, resumed: str, gc0: float, gens: int) -> None:
        if self._skip:  # the benchmark's own work (choosing the move, the floor), not the host's
            self._skip = False
            return
        self.callbacks += 1
        if cpu > CALLBACK_BUDGET:
            self.over += 1
        spent = self._gc - gc0
        if cpu - spent > self.longest_own.cpu:
            where = f"task {coro.__qualname__}: from {resumed} to {_where(coro)}" if coro is not None else "a callback"
            self.longest_own = Callback(cpu - spent, 0.0, where)
        if cpu > self.longest.cpu:
            if coro is not None:
                what = f"task {coro.__qualname__}: from {resumed} to {_where(coro)}"
            else:
                what = f"callback {getattr(callback, '__qualname__', repr(callback))}"
            if spent:
                what += f"; garbage collection (generations {self._gc_gens[gens:]}) {spent * 1000:.1f} ms of it"
            self.longest = Callback(cpu, spent, what)

    def skip(self) -> None:
        """The callback running now is the benchmark's own work: not counted."""
        self._skip = True

    def uninstall(self) -> None:
        asyncio.events.Handle._run = self._real  # type: ignore[method-assign]
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def reset(self) -> None:
        self.longest, self.longest_own, self.over, self.callbacks = Callback(), Callback(), 0, 0


# -- one game -------------------------------------------------------------------------------------------------
@dataclass
class GameCPU:
    """One game's figures, CPU seconds over all its moves (see :func:`per_move`)."""

    game: str
    players: int
    games: int = 0
    moves: int = 0
    main: float = 0.0
    workers: float = 0.0
    replay: float = 0.0
    floor: float = 0.0
    pictures: int = 0
    published: int = 0  # replay GIFs drawn and published
    longest: Callback = field(default_factory=Callback)
    longest_own: Callback = field(default_factory=Callback)  # without garbage collection
    over: int = 0
    callbacks: int = 0

    @property
    def total(self) -> float:
        return self.main + self.workers + self.replay

    def per_move(self, seconds: float) -> float:
        return seconds / max(1, self.moves)


async def _table(host: TableHost, game_id: str, players: int, seed: str, n: int) -> list[Caller]:
    channel = 5000 + n
    callers = [Caller(1, channel, 100_000 + 100 * n + k, f"P{n}.{k}", moderator=k == 0) for k in range(players)]
    out = await host.open(callers[0], game_id, {}, seed=seed)
    assert out.ok, out.reply
    for c in callers[1:]:
        assert (await host.join(c)).ok
    assert (await host.start_table(callers[0])).ok
    return callers


async def play_game(
    host: TableHost, watch: LoopWatch, figures: GameCPU, seed: str, n: int, max_moves: int = 5000
) -> None:
    """One seeded game to its end through choices + play, every seat choosing as the ``normal`` AI would."""
    game = registry.get(figures.game)
    callers = await _table(host, figures.game, figures.players, seed, n)
    by_user = {c.user_id: c for c in callers}
    streams = [random.Random(f"{seed}:cpu:{s}") for s in range(figures.players)]
    pool = host.pictures.pool
    cpu = pool.cpu if pool is not None else {}  # no worker processes (tests): the pictures are the main process's
    watch.active = True
    for _ in range(max_moves):
        table = host.index.active(callers[0].channel_id)  # noqa: SLF001 - the benchmark's own choice of move
        if table is None or table.status != "running" or table.state is None:
            break
        watch.skip()  # from here to the next await: choosing the move (and the last move's floor)
        seat = game.to_act(table.state)[0]
        caller = by_user[int(table.seats[seat].user_id or 0)]
        legal = game.legal_actions(table.state, seat)
        wanted = game.ai_choose(game.view(table.state, seat), seat, legal, "normal", streams[seat])
        state_no = table.state_no
        await asyncio.sleep(0)  # the host's work starts in a callback of its own
        cpu0, pictures0, replay0 = time.process_time(), cpu.get(PICTURE, 0.0), cpu.get(REPLAY, 0.0)
        # the picker's first page, as a click on "Take your turn" opens it (bot.transports.discord.views)
        choices = await host.choices(caller, joined=True)
        picker_view(table.id, state_no, choices)
        action = next((c.action for c in choices if c.action == wanted), None)
        assert action is not None, f"{figures.game}: the picker does not offer the AI's move {wanted!r}"
        out = await host.play(caller, action, state_no)
        out.delivered()
        await host.idle()  # the work the move left for later (a game's replay) is the move's too
        figures.main += time.process_time() - cpu0
        figures.workers += cpu.get(PICTURE, 0.0) - pictures0
        figures.replay += cpu.get(REPLAY, 0.0) - replay0
        await asyncio.sleep(0)  # the host's work ends here (idle returns at once when nothing was left for later)
        watch.skip()
        assert out.ok, out.reply
        figures.moves += 1
        # the floor of what this move drew: each distinct picture once
        pngs = list(dict.fromkeys(p.image for p in [*out.public, *(post for _, post in out.private)] if p.image))
        figures.pictures += len(pngs)
        figures.floor += floor_seconds(pngs)
    watch.active = False
    figures.games += 1


async def measure_game(
    game_id: str,
    *,
    seeds: int = 1,
    processes: int = 2,
    players: int | None = None,
    max_moves: int = 5000,
    log: Log | None = None,
    settle: bool = True,
) -> GameCPU:
    """``seeds`` whole games of ``game_id`` (at most ``max_moves`` moves each) on a production host of its own
    with ``processes`` render workers (see :func:`measure`)."""
    return (await measure([game_id], seeds=seeds, processes=processes, players=players, max_moves=max_moves,
                          log=log, settle=settle))[0]  # fmt: skip


async def _measure_on(
    host: TableHost,
    game_id: str,
    n: int,
    *,
    seeds: int,
    players: int | None,
    max_moves: int,
    log: Log,
    settle: bool,
) -> GameCPU:
    """One game's figures on a running host, its tables in channels ``n`` up: a few warm-up moves on a table of
    its own (the processes' caches, imports and fonts warm, as in a bot up for a while), then ``seeds`` games."""
    game = registry.get(game_id)
    figures = GameCPU(game_id, players or game.info.min_players)

    async def publish(out: Any) -> None:  # the transport's side: what the host posts later (the replay)
        figures.published += sum(p.filename == "replay.gif" and p.image is not None for p in out.public)

    host.publish = publish
    watch = LoopWatch()
    try:
        warm = GameCPU(game_id, figures.players)
        await play_game(host, watch, warm, f"cpu-warm-{game_id}", n, max_moves=6)
        if settle:
            heap.settle()  # as parley run does once it is up (bot/transports/discord/client.py)
        watch.install()
        for k in range(seeds):
            watch.reset()
            await play_game(host, watch, figures, f"cpu-{game_id}-{k}", n + k + 1, max_moves)
            if watch.longest.cpu > figures.longest.cpu:
                figures.longest = watch.longest
            if watch.longest_own.cpu > figures.longest_own.cpu:
                figures.longest_own = watch.longest_own
            figures.over += watch.over
            figures.callbacks += watch.callbacks
            log(f"cpu: {game_id} game {k + 1}/{seeds}: {figures.moves} moves so far")
    finally:
        watch.uninstall()
    return figures


async def measure(
    games: list[str],
    *,
    seeds: int,
    processes: int,
    players: int | None = None,
    max_moves: int = 5000,
    log: Log | None = None,
    settle: bool = True,
) -> list[GameCPU]:
    """Every game on one production host (SQLite on disk, ``processes`` render workers), one after another: its
    workers boot once, as a bot's do, instead of once per game (most of a quick run's time)."""
    say = log or (lambda _: None)
    with tempfile.TemporaryDirectory(prefix="parley-cpu-") as folder:
        settings = Settings(db_path=str(Path(folder) / "cpu.sqlite3"), render_processes=processes)
        host = build_host(settings, ai_seed="cpu")
        await host.start()
        try:
            await host.pictures.warm()
            return [
                await _measure_on(host, g, 1000 * i, seeds=seeds, players=players, max_moves=max_moves, log=say,
                                  settle=settle)  # fmt: skip
                for i, g in enumerate(games)
            ]
        finally:
            await host.close()


def report(figures: list[GameCPU]) -> list[str]:
    """The table of figures, one column per game."""
    ms = 1000.0

    def row(label: str, cell: Callable[[GameCPU], str]) -> str:
        return f"{label:<44}" + "".join(f"{cell(f):>17}" for f in figures)

    def ratio(x: float, floor: float) -> str:
        return f"{x / floor:.1f}×" if floor > 0 else "n/a"

    lines = [
        row("CPU per move, ms", lambda f: f.game),
        row("games (replays), moves (pictures)", lambda f: f"{f.games} ({f.published}), {f.moves} ({f.pictures})"),
        row("main process", lambda f: f"{f.per_move(f.main) * ms:.2f}"),
        row("render workers (pictures)", lambda f: f"{f.per_move(f.workers) * ms:.2f}"),
        row("replay GIF, spread over the game", lambda f: f"{f.per_move(f.replay) * ms:.2f}"),
        row("total", lambda f: f"{f.per_move(f.total) * ms:.2f}"),
        row("floor: the move's pictures re-deflated", lambda f: f"{f.per_move(f.floor) * ms:.2f}"),
        row(f"total ÷ floor (budget ≤ {TOTAL_BUDGET:g}×)", lambda f: ratio(f.total, f.floor)),
        row(f"pictures ÷ floor (budget ≤ {PICTURE_BUDGET:g}×)", lambda f: ratio(f.workers, f.floor)),
        row(
            f"longest event-loop callback, ms (≤ {CALLBACK_BUDGET * ms:g})",
            lambda f: f"{f.longest.cpu * ms:.1f}" + (f" ({f.over} over)" if f.over else ""),
        ),
        row("  the same without garbage collection, ms", lambda f: f"{f.longest_own.cpu * ms:.1f}"),
        row("moves per second per core", lambda f: f"{1 / f.per_move(f.total):.0f}" if f.total else "n/a"),
        row("verdict (total, pictures, loop)", verdicts),
    ]
    lines.append("longest callback of each game, what ran in it:")
    lines += [f"  {f.game}: {f.longest.cpu * ms:.1f} ms, {f.longest.what}" for f in figures]
    lines.append("longest callback of each game without garbage collection, what ran in it:")
    lines += [f"  {f.game}: {f.longest_own.cpu * ms:.1f} ms, {f.longest_own.what}" for f in figures]
    return lines


def verdicts(f: GameCPU) -> str:
    """OK/OVER for the three budgets, each a ratio to the same run's floor or a CPU time: load does not move them."""
    if not f.floor:
        return "n/a"
    marks = [f.total <= TOTAL_BUDGET * f.floor, f.workers <= PICTURE_BUDGET * f.floor, f.longest.cpu <= CALLBACK_BUDGET]
    return " ".join("OK" if ok else "OVER" for ok in marks)


def encoders(log: Log = print) -> list[str]:
    """The lossless deflates of PyPI on one board's palette pixels: CPU ms and bytes each (the floor's choice)."""
    import zlib

    import renderers

    game = registry.get("cartagena")
    png = renderers.render("cartagena", game.view(game.new(4, {}, "encoders"), None))
    with Image.open(io.BytesIO(png)) as img:
        raw = scanlines(img)
    candidates: list[tuple[str, Callable[[bytes], bytes]]] = [
        ("zlib (Pillow's) level 1", lambda b: zlib.compress(b, 1)),
        ("ISA-L (isal) level 0", lambda b: isal_zlib.compress(b, 0)),
        ("ISA-L (isal) level 1", lambda b: isal_zlib.compress(b, 1)),
    ]
    try:
        from zlib_ng import zlib_ng

        candidates.append(("zlib-ng (zlib-ng) level 1", lambda b: zlib_ng.compress(b, 1)))
    except ImportError:
        log("zlib-ng not installed: pip install zlib-ng to compare it")
    try:
        import deflate

        candidates.append(("libdeflate (deflate) level 1", lambda b: deflate.zlib_compress(b, 1)))
    except ImportError:
        log("libdeflate not installed: pip install deflate to compare it")
    lines = []
    for name, fn in candidates:
        best, size = float("inf"), 0
        for _ in range(20):
            t0 = time.thread_time()
            size = len(fn(raw))
            best = min(best, time.thread_time() - t0)
        lines.append(f"{name:<30} {best * 1000:6.2f} ms  {size / 1024:5.1f} KB")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(registry.game_ids()), help="comma-separated game ids")
    parser.add_argument("--seeds", type=int, default=1, help="seeded games of each game")
    parser.add_argument("--moves", type=int, default=5000, help="at most this many moves of each game (quick: 60)")
    parser.add_argument("--processes", type=int, default=2, help="render worker processes (production: one per core)")
    parser.add_argument("--encoders", action="store_true", help="also compare the lossless deflates installed")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    started = time.perf_counter()
    figures = asyncio.run(
        measure(
            games, seeds=args.seeds, processes=args.processes, max_moves=args.moves,
            log=lambda s: print(s, file=sys.stderr),
        )  # fmt: skip
    )
    print("\n".join(report(figures)))
    if args.encoders:
        print("\n".join(encoders()))
    print(f"({time.perf_counter() - started:.0f} s; CPU time of every process: a busy machine moves these little)")
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(f) for f in figures], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
