"""The render pool: board pictures and replay GIFs drawn off the event loop.

In production (:func:`bot.host.factory.build_host`) they are drawn in worker processes (:class:`bot.infra.workers.WorkerPool`),
so CPU-bound drawing never competes with the event loop, which carries the gateway heartbeats and the 3-second
interaction deadline, for the GIL. A worker that dies is replaced and the picture it owed is drawn again once; a
picture that still fails is None and its post says so. Until a first worker is ready (each boots and warms every
renderer: seconds after a start, longer on a busy machine) pictures are drawn in a thread of this process instead,
so a board lost in a crash or the first move after a restart is not held back by the boot. Tests may draw in two
threads instead (``processes=0``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

import renderers
from bot.infra.replay import MAX_FRAMES, Move, gif, sampled_views
from bot.infra.workers import WorkerPool, trim_heap
from renderers.common import clear_caches
from rules import registry

log = logging.getLogger("parley.tables")

Renderer = Callable[[str, dict[str, Any], "int | None"], bytes]
Job = tuple[dict[str, Any], "int | None"]

#: seconds a picture may take in a worker before the worker is stopped (a picture takes 10–50 ms)
PICTURE_SECONDS = 30.0
#: seconds a whole replay GIF may take (a long game's 60 frames take 1–3 s)
REPLAY_SECONDS = 180.0
#: a worker whose resident memory passed this after a job is replaced by a fresh one. A worker starts near 185 MB
#: (every renderer warmed up) and grows as the capped caches of the renderers and rules fill; with one job's peak
#: (a replay: under 40 MB) on top, it stays under 300 MB
RECYCLE_BYTES = 256 * 2**20
#: pictures of moves go before replays waiting for a worker
PICTURE, REPLAY = 0, 1


def default_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    return renderers.render(game_id, view, seat=seat)


#: freed image blocks Pillow keeps for the next picture in a render worker. Without them every picture's canvas
#: copy and scanline buffer (~770 KB each) is fresh memory from the system, faulted in page by page: Martinique's
#: public board took 3.3 ms of CPU without, 2.9 ms with (the same views drawn in one process). At most this many
#: blocks of about a picture's size: a few MB against the worker's recycling bound
IMAGE_BLOCKS = 8


def warm_renderers() -> None:
    """In a new worker, before its first job: keep Pillow's freed image blocks (:data:`IMAGE_BLOCKS`), import every
    game's renderer and draw its opening board once, so the first real picture does not pay for the imports, the
    fonts and the cached backgrounds."""
    Image.core.set_blocks_max(IMAGE_BLOCKS)
    for game_id in registry.game_ids():
        try:
            importlib.import_module(f"renderers.{game_id}")
            game = registry.get(game_id)
            renderers.render(game_id, game.view(game.new(game.info.min_players, {}, "warm-up"), None), seat=None)
        except Exception as exc:  # noqa: BLE001 - a failed warm-up only makes the first picture slower
            log.warning("warming up the %s renderer failed: %s", game_id, type(exc).__name__)


def forget_drawings() -> None:
    """Drop what drawing cached in this process (the renderers' backgrounds and sprites) and give the memory back:
    in the main process once a worker draws again."""
    clear_caches()
    trim_heap()


def render_job(fn: Renderer | None, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """One picture, in a worker process or thread (``fn`` None: the game's own renderer)."""
    return (fn or default_renderer)(game_id, view, seat)


def render_jobs(fn: Renderer | None, game_id: str, jobs: list[Job]) -> list[bytes | Exception]:
    """A move's pictures in one worker, in order (each failure returned in its place): one trip to the worker
    instead of one per picture, and a seat's picture finds the board the public one just drew in the renderer's
    memory (Buccaneer's close-up)."""
    out: list[bytes | Exception] = []
    for view, seat in jobs:
        try:
            out.append(render_job(fn, game_id, view, seat))
        except Exception as exc:  # noqa: BLE001 - one failed picture is that picture's None, never the others'
            out.append(exc)
    return out


def replay_job(
    fn: Renderer | None,
    game_id: str,
    players: int,
    options: dict[str, str],
    seed: str,
    moves: Sequence[Move],
    frames: int = MAX_FRAMES,
) -> bytes:
    """A whole game's replay GIF, in one worker: the game replayed from its seed and moves keeping only the
    sampled boards' views, then each frame drawn once, as a palette image, and added to the GIF one at a time (see
    :func:`bot.infra.replay.gif`)."""
    game = registry.get(game_id)
    views = sampled_views(game, players, options, seed, moves, frames)
    if fn is not None:
        return gif(lambda i: fn(game_id, views[i], None), len(views))
    # the game's own renderer hands over each board as the picture itself: no PNG written and read back
    return gif(lambda i: renderers.picture(game_id, views[i]), len(views))


def zoom_job(fn: Renderer | None, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """A close-up of the public ``view`` (``seat``: whose pieces to show before anything moved). A custom
    renderer stands in for it with its public picture."""
    return fn(game_id, view, None) if fn is not None else renderers.zoom(game_id, view, seat)


class Pictures:
    """The render pool. ``processes`` > 0: that many worker processes (a custom ``renderer`` must then be
    picklable); else two threads of this process."""

    def __init__(self, renderer: Renderer | None = None, processes: int = 0) -> None:
        self.renderer: Renderer = renderer or default_renderer
        self.processes = processes
        self.pool: WorkerPool | None = None
        self._threads: concurrent.futures.ThreadPoolExecutor | None = None
        if processes > 0:
            boot = warm_renderers if renderer is None else None
            self.pool = WorkerPool(processes, name="parley-render", boot=boot, recycle_bytes=RECYCLE_BYTES)
        else:
            self._threads = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="parley-render")
        # a replay holds its worker for a second or more: with two or more workers, one is always left for moves
        self._replays = asyncio.Semaphore(max(1, processes - 1))
        self._drew_here = False  # pictures were drawn in this process while no worker was ready

    def start(self) -> None:
        """Start the worker processes in the background; pictures asked for meanwhile wait for the first."""
        if self.pool is not None:
            self.pool.start()

    async def warm(self, game_ids: list[str] | None = None) -> None:
        """Start the workers and wait until every one has warmed up."""
        if self.pool is not None:
            await self.pool.ready()

    def worker_pids(self) -> list[int]:
        return self.pool.pids() if self.pool is not None else []

    async def _run(self, fn: Callable[..., Any], *args: Any, priority: int, timeout: float) -> Any:
        loop = asyncio.get_running_loop()
        if self.pool is not None:
            if priority == PICTURE and not self.pool.any_ready():
                # The workers are still booting (a few seconds after a start, the renderers warmed up in each) or
                # all being replaced: a picture is needed now (a board a crash lost, the first move after a
                # restart), so it is drawn here, in a thread, rather than after the boot. A replay can wait. (The
                # pool is not started from here: parley run boots it once the lost boards are out.)
                self._drew_here = True
                return await loop.run_in_executor(self._local(), fn, *args)
            if self._drew_here:
                # a worker is ready: what those drawings cached in this process (up to ~75 MB with every game's
                # backgrounds) is not needed any more
                self._drew_here = False
                loop.run_in_executor(self._local(), forget_drawings)
            return await self.pool.run(fn, *args, priority=priority, timeout=timeout, trim=priority == REPLAY)
        return await loop.run_in_executor(self._threads, fn, *args)

    def _local(self) -> concurrent.futures.ThreadPoolExecutor:
        """The thread that draws in this process while no worker is ready (created when first needed)."""
        if self._threads is None:
            self._threads = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="parley-render-local")
        return self._threads

    async def render_many(self, game_id: str, jobs: list[Job]) -> list[bytes | None]:
        """Draw a move's pictures in one job of one worker (see :func:`render_jobs`); a picture that fails is None
        (logged), never an exception. A batch whose worker died (twice) is drawn again one picture per job, so a
        picture that kills its worker costs only itself."""
        if not jobs:
            return []
        fn = None if self.renderer is default_renderer else self.renderer
        results: list[Any]
        results: list[Any] = []
        if len(jobs) > 1:
            try:
                timeout = PICTURE_SECONDS * len(jobs)
                results = await self._run(render_jobs, fn, game_id, jobs, priority=PICTURE, timeout=timeout)
            except Exception as exc:  # noqa: BLE001 - a picture that kills its worker: each drawn alone below
                log.error("drawing a batch of %d %s pictures failed (%s); drawing each alone", len(jobs), game_id,
                          type(exc).__name__)
        if not results:
            # after a failed batch, in the workers only (they are being replaced): never in this process, which a
            # picture that kills its worker would kill
            run = self._run if len(jobs) == 1 or self.pool is None else self.pool.run
            results = await asyncio.gather(
                *(run(render_job, fn, game_id, v, s, priority=PICTURE, timeout=PICTURE_SECONDS) for v, s in jobs),
                return_exceptions=True,
            )
        images: list[bytes | None] = []
        for r in results:
            if isinstance(r, BaseException):
                log.error("drawing a %s picture failed: %s", game_id, type(r).__name__)
                images.append(None)
            else:
                images.append(r)
        return images

    async def render(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes | None:
        return (await self.render_many(game_id, [(view, seat)]))[0]

    async def replay(
        self, game_id: str, players: int, options: dict[str, str], seed: str, moves: Sequence[Move], frames: int
    ) -> bytes | None:
        """The replay GIF of a finished game, or None (logged) if it could not be drawn. One replay per worker at
        a time, and never on every worker at once."""
        fn = None if self.renderer is default_renderer else self.renderer
        try:
            async with self._replays:
                return await self._run(
                    replay_job, fn, game_id, players, options, seed, list(moves), frames,
                    priority=REPLAY, timeout=REPLAY_SECONDS,
                )
        except Exception as exc:  # noqa: BLE001 - the replay is a bonus, never a failure of the move
            log.error("the %s replay failed: %s", game_id, type(exc).__name__)
            return None

    async def zoom(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes | None:
        """A close-up of the public ``view``, drawn like any picture of a move (None, logged, if it fails)."""
        fn = None if self.renderer is default_renderer else self.renderer
        try:
            return await self._run(zoom_job, fn, game_id, view, seat, priority=PICTURE, timeout=PICTURE_SECONDS)
        except Exception as exc:  # noqa: BLE001 - a failed picture is a missing picture, never a failed command
            log.error("zooming into a %s board failed: %s", game_id, type(exc).__name__)
            return None

    def shutdown(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
