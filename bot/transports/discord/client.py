"""The Discord client: ``parley run`` and ``parley sync``.

``run`` starts an auto-sharded bot over one table host: cogs loaded, the host started and closed with the bot,
a periodic ``host.tick()`` for reminders and time-outs, and application commands synced only to the
development guild (instantly) at start. ``sync`` pushes the commands globally once (Discord rate-limits sync,
so it is never done on every start). A missing or rejected token gives one line on stderr and exit code 2.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Sequence

import aiohttp
import asyncpg
import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.host.factory import build_host
from bot.host.tables import TableHost
from bot.infra import heap
from bot.infra.lease import LeaseError, ShardLease
from bot.infra.settings import Settings, configure_logging
from bot.infra.store import StoreError, is_postgres_url
from bot.infra.store.errors import failure
from bot.transports.discord import options
from bot.transports.discord.cogs import add_cogs
from bot.transports.discord.delivery import Delivery
from bot.transports.discord.views import DYNAMIC_ITEMS, answer_unknown_component
from bot.transports.web.links import WebLinks
from bot.transports.web.serve import WebPages, why

log = logging.getLogger("parley.discord")

TICK_SECONDS = 20.0
EXIT_BAD_TOKEN = 2
EXIT_NO_CONNECTION = 1
EXIT_BAD_SETTINGS = 2
EXIT_SHARDS_TAKEN = 3  # another process serves these shards (or this one lost its lease): a supervisor retries
EXIT_BAD_DATABASE = 2  # a database that cannot be used (unreachable: StoreError.exit_code, 1)
#: at shutdown, how long commands already being handled may take to finish before the database closes
IN_FLIGHT_SECONDS = 5.0
#: the names discord.py gives the tasks that run a slash command or a component's callback
INTERACTION_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-")


class ParleyTree(app_commands.CommandTree):
    """Refuses a command whose options do not fit its declaration (:mod:`bot.transports.discord.options`) before it
    runs, and answers every failed command ephemerally (a refused check or a bad option), never with silence."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        why = options.problem(interaction)
        if why is None:
            return True
        # the values are the sender's: only the command's name is logged
        log.info("refused /%s: an option outside its declaration", getattr(interaction.command, "qualified_name", "?"))
        with contextlib.suppress(discord.HTTPException):  # the interaction expired: nobody is left to tell
            await interaction.response.send_message(why, ephemeral=True)
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure):
            text = "You can't use this command here."
        elif isinstance(error, app_commands.TransformerError):
            text = f"I couldn't understand the option value: {error.value!r}."
        else:
            log.error("command failed", exc_info=error)
            text = "Something went wrong on my side. `/table status` shows the current board."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass  # the interaction expired: nobody is left to tell


class ParleyBot(commands.AutoShardedBot):
    """The bot. ``mode="run"`` starts the host and its tick loop; ``mode="sync"`` only builds the commands."""

    def __init__(
        self,
        host: TableHost,
        *,
        dev_guild: int | None = None,
        tick_seconds: float = TICK_SECONDS,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        mode: str = "run",
    ) -> None:
        # No privileged intent: everything arrives as interactions.
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            shard_count=shard_count,
            # a cluster process connects only its own shards (Discord then sends it only their guilds' events)
            shard_ids=list(shard_ids) if shard_ids is not None else None,
            help_command=None,
            tree_cls=ParleyTree,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.host = host
        self.delivery = Delivery(self, host)
        host.publish = self.delivery.deliver  # what the host does between requests (timers, background work)
        host.dms_tracked = True  # the delivery reports each DM sent, so the host can send the ones a crash lost
        self.dev_guild = dev_guild
        #: freeze what start-up made once it is done (bot.infra.heap): ``parley run``'s process only, never a test's
        self.settle_heap = False
        self.mode = mode
        self._host_started = False
        self._closing = False
        self._recovery: asyncio.Task[None] | None = None
        self.tick_loop.change_interval(seconds=tick_seconds)
        #: the tables' web pages served from this process (``PARLEY_WEB_PORT``), started with the host
        self.web: WebPages | None = None

    async def setup_hook(self) -> None:
        await add_cogs(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.mode != "run":
            return
        # the worker processes boot once the recovery is done: on a small machine their boot would hold it up
        await self.host.start(workers=False)
        self._host_started = True
        if self.web is not None:
            try:
                await self.web.start()
            except OSError as exc:  # the port is taken: Discord matters more than the pages
                log.error("cannot serve the web pages on port %s (%s); running without them", self.web.port, why(exc))
                self.web = None
        self.tick_loop.start()
        self._recovery = asyncio.create_task(self._repost_lost_boards())
        if self.dev_guild:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.dev_guild)

    async def _repost_lost_boards(self) -> None:
        """A crash between a committed move and its board post must not leave the channel showing an old board.
        The boards go first, their pictures drawn in this process (no worker has booted yet), then the DMs; then
        the worker processes start."""
        try:
            for out in await self.host.lost_boards():
                await self.delivery.deliver(out)
        except Exception:
            if not self._closing:
                log.exception("reposting boards after a restart failed")
        try:
            if not self._closing:
                for out in await self.host.lost_dms():  # DMs a crash kept from going out, each once
                    await self.delivery.deliver(out)
        except Exception:
            if not self._closing:
                log.exception("sending DMs owed after a restart failed")
        if not self._closing:  # a bot closing must not boot workers
            self.host.start_workers()
            if self.settle_heap:
                heap.settle()  # start-up is done: what it made is out of the collector's way from now on

    @tasks.loop(seconds=TICK_SECONDS)
    async def tick_loop(self) -> None:
        """Reminders, time-outs and idle lobbies; one bad table never stops the loop."""
        try:
            results = await self.host.tick()
        except Exception:
            log.exception("host tick failed")
            return
        for out in results:
            try:
                await self.delivery.deliver(out)
            except Exception:
                log.exception("delivering a tick output failed")

    async def _wait_in_flight(self, timeout: float) -> None:
        """Let the commands and button presses already being handled finish (their moves commit, their answers
        go out) before the database closes under them; at most ``timeout`` seconds in all."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        me = asyncio.current_task()
        while (left := deadline - loop.time()) > 0:
            busy = [
                task
                for task in asyncio.all_tasks()
                if task is not me and not task.done() and task.get_name().startswith(INTERACTION_TASKS)
            ]
            if not busy:
                return
            await asyncio.wait(busy, timeout=left)
        log.warning("closing with commands still in flight after %.0f s", timeout)

    async def close(self) -> None:
        self._closing = True
        if self.tick_loop.is_running():
            self.tick_loop.cancel()
        if self._recovery is not None and not self._recovery.done():
            # waited for: cancelled half-way through a commit, it must finish rolling back before the store closes
            self._recovery.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._recovery
        if self.web is not None:
            await self.web.stop()  # before the render workers it draws with go away
        if self._host_started:
            await self._wait_in_flight(IN_FLIGHT_SECONDS)
        await self.delivery.drain()
        if self._host_started:
            self._host_started = False
            await self.host.close()
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_unknown_component(interaction)


def _fail(message: str) -> None:
    print(f"parley: {message}", file=sys.stderr)


def _guarded(settings: Settings, main: Callable[[str], Awaitable[None]]) -> int:
    """Run ``main(token)``; turn the expected failures into one readable line (never a traceback)."""
    token = settings.token.strip()
    if not token:
        _fail("DISCORD_TOKEN is not set. Put your bot token in .env (see .env.example).")
        return EXIT_BAD_TOKEN
    configure_logging(settings)
    try:
        asyncio.run(main(token))
    except discord.LoginFailure:
        _fail("Discord rejected the token in DISCORD_TOKEN. Reset it in the developer portal and update .env.")
        return EXIT_BAD_TOKEN
    except discord.PrivilegedIntentsRequired:
        _fail("Discord refused a privileged intent; Parley needs none, so check the application settings.")
        return EXIT_BAD_TOKEN
    except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as error:
        _fail(f"cannot reach Discord ({type(error).__name__}). Check the network and try again.")
        return EXIT_NO_CONNECTION
    except LeaseError as error:
        _fail(str(error))
        return EXIT_SHARDS_TAKEN
    except StoreError as error:
        _fail(str(error))
        return error.exit_code
    except (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        # the database failed after it opened (a corrupt page met while restoring tables, the disk full)
        _fail(str(failure(settings.db_path, error) or f"the database failed ({type(error).__name__})"))
        return EXIT_BAD_DATABASE
    except KeyboardInterrupt:
        return 0
    return 0


def _close_on_sigterm(bot: ParleyBot) -> None:
    """SIGTERM (``docker stop``, systemd) closes the bot as Ctrl-C does: DMs drained, the gateway and the
    database closed, exit code 0. Without it Python dies on the spot, skipping all of that."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []  # a task nobody holds may be collected before it runs
    # no signal handlers on Windows, nor outside the main thread
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))


def run(settings: Settings) -> int:
    """``parley run``: serve every server (or, in a cluster, the guilds of ``settings.shards``) until interrupted.
    Returns the process exit code.

    On PostgreSQL the process first claims its shards (:mod:`bot.infra.lease`): on a conflict it says who holds them in
    one line and exits with 3, before it has read a table; if it later loses its lease, it stops the same way so
    that the process which took its shards over is the only one serving them. SQLite is one process: no lease."""

    if not settings.shards.everything and not is_postgres_url(settings.db_path):
        # a SQLite file is one process's: several processes on it would have no lease to keep them apart
        _fail(f"serving {settings.shards.describe()} needs a shared PostgreSQL (PARLEY_DB=postgresql://…).")
        return EXIT_BAD_SETTINGS

    async def main(token: str) -> None:
        shards = settings.shards
        lease: ShardLease | None = None
        host = build_host(settings)
        try:
            if is_postgres_url(settings.db_path):
                lease = ShardLease(settings.db_path, shards, settings.lease_seconds)
                await lease.acquire()
            # the database first: one that cannot be used stops the start here, in one line, before Discord
            await host.store.open()
            bot = ParleyBot(host, dev_guild=settings.dev_guild, shard_count=shards.count, shard_ids=shards.ids)
            bot.settle_heap = True
            if settings.web_url:
                bot.delivery.web_links = WebLinks(host.store, settings.web_url)  # Watch buttons, /hand's seat link
            if settings.web_port:
                bot.web = WebPages(settings, host.pictures)
            lost: list[str] = []
            async with bot:
                _close_on_sigterm(bot)
                if lease is not None:
                    loop = asyncio.get_running_loop()
                    closing: list[asyncio.Task[None]] = []

                    def on_lost(reason: str) -> None:
                        lost.append(reason)
                        closing.append(loop.create_task(bot.close()))

                    lease.start(on_lost)
                await bot.start(token)
            if lost:
                raise LeaseError(f"lost the lease of {shards.describe()} ({lost[0]}); stopped so it is served once")
        finally:
            # whatever stopped the start (a bad database, a refused token, an exception in set-up): nothing may be
            # left open, or the store's thread and the workers would keep the process alive
            await host.close()
            if lease is not None:
                await lease.release()

    return _guarded(settings, main)


def sync(settings: Settings) -> int:
    """``parley sync``: push the slash commands (globally, and to the development guild when set)."""

    async def main(token: str) -> None:
        bot = ParleyBot(build_host(settings), mode="sync")  # the host is never started: no worker
        async with bot:
            await bot.login(token)
            dev_guild = settings.dev_guild
            if dev_guild:
                guild = discord.Object(id=dev_guild)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
                print(f"parley: synced {len(synced)} commands to the development guild {dev_guild}.", file=sys.stderr)
            synced = await bot.tree.sync()
            print(f"parley: synced {len(synced)} commands globally (Discord may take up to an hour).", file=sys.stderr)

    return _guarded(settings, main)
