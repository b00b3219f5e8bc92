"""The table host: per-channel tables (lobby → running → finished/abandoned), transport-agnostic.

Transports (Discord, the terminal) call the async methods of :class:`TableHost` with a :class:`Caller` and
deliver the :class:`Outputs` they get back. The host knows nothing of Discord; ids are plain ints.

:class:`TableHost` is the one entry point. Its parts live in modules named for what they do:

- :mod:`bot.host.table`: the in-memory table and the lock that serialises (and lazily loads) it;
- :mod:`bot.host.lobby`: open, join, leave, AI seats, start, end;
- :mod:`bot.host.play`: a move from check to commit, AI seats, undo, the end of a game;
- :mod:`bot.host.reactions`: optional actions of seats that owe nothing (a challenge), and an AI seat held for them;
- :mod:`bot.host.posts`: board posts, prompts, DMs and the lobby post, drawn off the event loop;
- :mod:`bot.host.reading`: status, history, choices, the private view;
- :mod:`bot.host.timers`: reminders, time-outs, idle lobbies, and tables woken at a given time;
- :mod:`bot.host.restore`: start-up indexing, the lazy replay check, boards lost in a crash;
- :mod:`bot.host.guild`: per-server settings, statistics and rules;
- :mod:`bot.host.direct`: requests from a player's DMs (``/hand``), which may name a table another process serves.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host.api import Caller, Choice, Outputs, Post, SeatInfo, TableSummary
from bot.host.direct import DirectMixin
from bot.host.guild import GuildCommands
from bot.host.lobby import LOBBY_IDLE_SECONDS, LobbyMixin
from bot.host.play import AI_TAKEOVER_LEVEL, MAX_AI_STEPS, PlayMixin
from bot.host.posts import MAX_BOARDS_PER_CALL, PostsMixin
from bot.host.reactions import ReactionsMixin
from bot.host.reading import ReadingMixin
from bot.host.restore import RestoreMixin
from bot.host.table import Table
from bot.host.timers import TimersMixin
from bot.infra.aipool import AIPool
from bot.infra.pictures import Pictures, Renderer
from bot.infra.replay import MAX_FRAMES
from bot.infra.store import Store
from rules.search import DEFAULT_SECONDS

log = logging.getLogger("parley.tables")

__all__ = [
    "AI_TAKEOVER_LEVEL",
    "LOBBY_IDLE_SECONDS",
    "MAX_AI_STEPS",
    "MAX_BOARDS_PER_CALL",
    "Caller",
    "Choice",
    "Outputs",
    "Post",
    "SeatInfo",
    "TableHost",
    "TableSummary",
]


class TableHost(
    RestoreMixin,
    LobbyMixin,
    PlayMixin,
    ReactionsMixin,
    ReadingMixin,
    TimersMixin,
    PostsMixin,
    GuildCommands,
    DirectMixin,
):
    """Every table of every channel. One ``asyncio.Lock`` per table serialises its mutations."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        ai_seed: str | None = None,
        renderer: Renderer | None = None,
        replay_frames: int = MAX_FRAMES,
        render_processes: int = 0,
        owns_guild: Callable[[int], bool] | None = None,
        ai_processes: int = 0,
        ai_seconds: float = DEFAULT_SECONDS,
        ai_iterations: int | None = None,
        ai_takeover_level: str = AI_TAKEOVER_LEVEL,
    ) -> None:
        """``clock`` returns seconds (injectable for time-out tests); ``ai_seed`` makes table seeds and AI
        randomness reproducible (tests, simulations; by default both come from the OS); ``renderer``
        draws ``(game_id, view, seat)`` (default: ``renderers.render``); ``render_processes`` > 0 draws in that
        many worker processes (pictures are CPU-bound Python: processes keep them from starving the event loop
        and the database thread of the GIL; a custom ``renderer`` must then be picklable), else in two threads.
        ``owns_guild`` (a cluster's :meth:`bot.infra.shards.Shards.owns`) limits the tables this host restores, and so
        times and reposts, to the guilds on its shards; by default it serves every guild."""
        self.store = store
        self.clock = clock
        self.owns_guild: Callable[[int], bool] = owns_guild or _every_guild
        self._rand: random.Random = random.Random(ai_seed) if ai_seed is not None else random.SystemRandom()
        self.pictures = Pictures(renderer, render_processes)
        # hard AI decisions (bot.infra.aipool): in ``ai_processes`` worker processes (0: a thread, for tests and tools),
        # ``ai_seconds`` each, or a fixed ``ai_iterations`` (deterministic: tests); seats that time out or are
        # vacated are played at ``ai_takeover_level``
        self.ai = AIPool(ai_processes, seconds=ai_seconds, iterations=ai_iterations)
        self.ai_takeover_level = ai_takeover_level
        self.replay_frames = replay_frames
        self._tables: dict[int, Table] = {}
        self._active: dict[int, int] = {}  # channel id -> table id (lobby or running)
        self._last: dict[int, int] = {}  # channel id -> last finished/abandoned table id (kept in memory)
        self._finished: OrderedDict[int, int] = OrderedDict()  # see LobbyMixin._retire
        self._settings: dict[int, dict[str, Any]] = {}
        self._open_lock = asyncio.Lock()
        self.internal_errors = 0
        self.replay_mismatches: list[int] = []
        self.publish: Callable[[Outputs], Awaitable[None]] | None = None
        self._wakes: dict[int, list[asyncio.TimerHandle]] = {}
        self._later: set[asyncio.Task[None]] = set()
        self._dm_failed: dict[tuple[int, int], float] = {}  # (table, seat) -> when a DM to it last failed
        #: DMs are stored until the transport says they went out (bot.host.restore): set by a transport that reports it
        self.dms_tracked = False

    async def start(self, caller: Caller | None = None, *, workers: bool = True) -> Outputs:
        """Without a caller: start the host (see :meth:`RestoreMixin._start_host`) and, unless ``workers`` is
        False, its worker processes (:meth:`start_workers`). With a caller: ``/table start`` (same as
        :meth:`start_table`)."""
        if caller is not None:
            return await self.start_table(caller)
        await self._start_host()
        if workers:
            self.start_workers()
        return Outputs()

    def start_workers(self) -> None:
        """Start the render and AI worker processes in the background (idempotent). Their boot takes seconds of
        CPU each, so the Discord transport starts them only once the boards and DMs a crash lost are out: on a
        small machine the boot would otherwise slow those down. Pictures needed meanwhile are drawn here."""
        self.pictures.start()
        self.ai.start()

    async def close(self) -> None:
        await self._stop_timers()
        await self.store.close()
        await asyncio.to_thread(self.pictures.shutdown)
        await asyncio.to_thread(self.ai.shutdown)

    def _active_table(self, channel_id: int) -> Table | None:
        tid = self._active.get(channel_id)
        return None if tid is None else self._tables.get(tid)

    def _may_run(self, t: Table, caller: Caller) -> bool:
        return caller.moderator or caller.user_id == t.host_id


def _every_guild(guild_id: int) -> bool:
    return True
