"""Running the pages: ``parley web`` (a process of its own, any number of them beside a cluster, each with its own
store connection and render workers) and :class:`WebPages`, the pages served from inside ``parley run`` on
``PARLEY_WEB_PORT`` with the bot's own render workers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys

from bot.host.factory import build_store
from bot.infra.pictures import Pictures
from bot.infra.settings import Settings, configure_logging
from bot.transports.web.app import WebApp

log = logging.getLogger("parley.web")

#: the port ``parley web`` listens on when neither ``--port`` nor ``PARLEY_WEB_PORT`` says
DEFAULT_PORT = 8080
EXIT_CANNOT_LISTEN = 2


class WebPages:
    """The pages of ``settings``' database, drawn with ``pictures``: a store connection of their own, so pages never
    queue behind the bot's commits."""

    def __init__(self, settings: Settings, pictures: Pictures, port: int | None = None) -> None:
        self.settings = settings
        self.store = build_store(settings)
        self.app = WebApp(self.store, pictures, base_url=settings.web_url)
        self.port = port if port is not None else settings.web_port if settings.web_port is not None else DEFAULT_PORT

    async def start(self) -> int:
        await self.store.open()
        try:
            return await self.app.start(self.settings.web_bind, self.port)
        except BaseException:
            await self.store.close()
            raise

    async def stop(self) -> None:
        try:
            await self.app.stop()
        finally:
            await self.store.close()


def why(exc: OSError) -> str:
    """An address that cannot be listened on, in a few words ("Address already in use")."""
    return os.strerror(exc.errno) if exc.errno else type(exc).__name__


def run(settings: Settings) -> int:
    """``parley web``: serve the pages until SIGTERM or Ctrl-C; the exit code."""
    configure_logging(settings)

    async def main() -> int:
        pictures = Pictures(None, settings.render_processes)
        pictures.start()
        pages = WebPages(settings, pictures)
        try:
            try:
                port = await pages.start()
            except OSError as exc:
                print(f"parley: cannot serve the pages on {settings.web_bind}:{pages.port} ({why(exc)}).",
                      file=sys.stderr)
                return EXIT_CANNOT_LISTEN
            print(f"parley: web pages on http://{settings.web_bind}:{port}"
                  + (f" (public address {settings.web_url})" if settings.web_url else ""), file=sys.stderr)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            await pages.stop()
            return 0
        finally:
            await asyncio.to_thread(pictures.shutdown)

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 0
