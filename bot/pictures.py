"""Drawing pictures off the event loop: in two threads, or in worker processes that keep the CPU-bound
drawing from starving the event loop and the database thread of the GIL."""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import logging
import multiprocessing
import time
from collections.abc import Callable
from typing import Any

import renderers

log = logging.getLogger("parley.tables")

Renderer = Callable[[str, dict[str, Any], "int | None"], bytes]
Job = tuple[dict[str, Any], "int | None"]


def default_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    return renderers.render(game_id, view, seat=seat)


def warm_job(game_ids: list[str]) -> None:
    """Import the renderers in a fresh worker so the first real picture does not pay for it."""
    for game_id in game_ids:
        try:
            importlib.import_module(f"renderers.{game_id}")
        except ImportError:
            pass
    time.sleep(0.2)  # hold this worker so the next warm-up job lands on another one


def render_job(fn: Renderer | None, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """One picture, in a worker thread or process (``fn`` None: the game's own renderer)."""
    return (fn or default_renderer)(game_id, view, seat)


class Pictures:
    """The render pool. ``processes`` > 0: that many spawned worker processes (a custom ``renderer`` must then
    be picklable); else two threads."""

    def __init__(self, renderer: Renderer | None = None, processes: int = 0) -> None:
        self.renderer: Renderer = renderer or default_renderer
        self.processes = processes
        self._executor: concurrent.futures.Executor
        if processes > 0:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                processes, mp_context=multiprocessing.get_context("spawn")
            )
        else:
            self._executor = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="parley-render")

    async def warm(self, game_ids: list[str]) -> None:
        if self.processes > 0:
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._executor, warm_job, game_ids) for _ in range(self.processes))
            )

    async def render_many(self, game_id: str, jobs: list[Job]) -> list[bytes | None]:
        """Draw pictures in parallel; a picture that fails is None (logged), never an exception."""
        if not jobs:
            return []
        loop = asyncio.get_running_loop()
        fn = None if self.renderer is default_renderer else self.renderer
        futures = [loop.run_in_executor(self._executor, render_job, fn, game_id, v, s) for v, s in jobs]
        results = await asyncio.gather(*futures, return_exceptions=True)
        images: list[bytes | None] = []
        for r in results:
            if isinstance(r, BaseException):
                log.error("rendering %s failed: %s", game_id, type(r).__name__)
                images.append(None)
            else:
                images.append(r)
        return images

    async def render(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes | None:
        return (await self.render_many(game_id, [(view, seat)]))[0]

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
