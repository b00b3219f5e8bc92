"""The table host: per-channel tables (lobby → running → finished/abandoned), transport-agnostic.

Transports (Discord, the web, the terminal) call the async methods of :class:`TableHost` with a :class:`Caller`
and deliver the :class:`Outputs` they get back. The host knows nothing of Discord; ids are plain ints.

:class:`TableHost` is a thin front: each command declares what it needs (the channel's table, the right to run
it, its lock: :func:`bot.host.commands.command`) and hands the table to one part. The parts are built here, each
given what it uses; a part uses only the parts built before it, so every reference points one way:

- :class:`bot.host.index.TableIndex`: the tables in memory and the channels they serve; a table's retirement;
- :class:`bot.host.guild.GuildSettings`: each server's settings, read once;
- :class:`bot.host.background.Background`: wakes at a given time, and work published after the request;
- :class:`bot.host.narration.Narration`: a batch of posts turned into outputs, its pictures drawn off the loop;
- :class:`bot.host.turns.Turns`: a move from check to commit, AI seats, undo, the end of a game, reactions;
- :class:`bot.host.lobby.Lobby`: open, join, leave, kick, AI seats, start, end;
- :class:`bot.host.reading.Reading`: status, history, choices, the private view;
- :class:`bot.host.timers.Timers`: reminders, time-outs, idle lobbies (a wake runs them for one table);
- :class:`bot.host.restore.Restore`: start-up indexing, the lazy replay check, what a crash left unsent;
- :class:`bot.host.guild.GuildCommands`: per-server settings, statistics and rules;
- :class:`bot.host.direct.Direct`: requests from a player's DMs (``/hand``).

What every table says is built by plain functions of the table (:mod:`bot.host.posts`, :mod:`bot.host.reactions`),
which any part may call.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host.api import Caller, Choice, Outputs, Post, SeatInfo, TableSummary
from bot.host.background import Background
from bot.host.commands import NO_GAME, NO_TABLE_OPEN, command, guarded
from bot.host.direct import Direct
from bot.host.guild import GuildCommands, GuildSettings
from bot.host.health import Health
from bot.host.index import TableIndex
from bot.host.lobby import LOBBY_IDLE_SECONDS, Lobby
from bot.host.narration import Narration
from bot.host.posts import MAX_BOARDS_PER_CALL
from bot.host.reading import Reading
from bot.host.restore import Restore
from bot.host.table import Table
from bot.host.timers import Timers
from bot.host.turns import AI_TAKEOVER_LEVEL, MAX_AI_STEPS, Turns
from bot.infra.aipool import AIPool
from bot.infra.pictures import Pictures, Renderer
from bot.infra.replay import MAX_FRAMES
from bot.infra.store import Store
from rules.search import DEFAULT_SECONDS

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


class TableHost:
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
        rand: random.Random = random.Random(ai_seed) if ai_seed is not None else random.SystemRandom()
        self.pictures = Pictures(renderer, render_processes)
        # hard AI decisions (bot.infra.aipool): in ``ai_processes`` worker processes (0: a thread, for tests and tools),
        # ``ai_seconds`` each, or a fixed ``ai_iterations`` (deterministic: tests); seats that time out or are
        # vacated are played at ``ai_takeover_level``
        self.ai = AIPool(ai_processes, seconds=ai_seconds, iterations=ai_iterations)
        self.health = Health()
        self.index = TableIndex(store, clock)
        settings = GuildSettings(store)
        # a wake runs the timers, which are built last: the callback looks them up when it fires
        self.background = Background(clock, self.health, lambda t: self.timers.tick_table(t))
        self.narration = Narration(store, self.pictures, clock, self.background, replay_frames)
        self.turns = Turns(
            store, clock, self.health, self.index, settings, self.ai, self.pictures, self.narration, self.background
        )
        self.lobby = Lobby(store, clock, rand, self.index, settings, self.turns, self.narration, ai_takeover_level)
        dm_failed: dict[tuple[int, int], float] = {}  # (table, seat) -> when a DM to it last failed
        self.reading = Reading(store, clock, rand, self.health, self.index, self.pictures, self.narration, dm_failed)
        self.timers = Timers(
            store, clock, self.health, self.index, settings, self.turns, self.narration, dm_failed, ai_takeover_level
        )
        self.restore = Restore(
            store, clock, rand, self.health, self.index, settings, self.narration, self.background,
            owns_guild or _every_guild,
        )
        self.guild = GuildCommands(store, settings)
        self.direct = Direct(store, self.index, self.hand)

    # -- what the transports set and read ------------------------------------------------------------------
    @property
    def internal_errors(self) -> int:
        return self.health.internal_errors

    @internal_errors.setter
    def internal_errors(self, value: int) -> None:
        self.health.internal_errors = value

    @property
    def replay_mismatches(self) -> list[int]:
        return self.health.replay_mismatches

    @property
    def publish(self) -> Callable[[Outputs], Awaitable[None]] | None:
        """Where outputs made outside a request go (set by the transport); None: nobody to tell, wait for the tick."""
        return self.background.publish

    @publish.setter
    def publish(self, deliver: Callable[[Outputs], Awaitable[None]] | None) -> None:
        self.background.publish = deliver

    @property
    def dms_tracked(self) -> bool:
        """DMs are stored until the transport says they went out (bot.host.restore): set by a transport that
        reports it."""
        return self.narration.dms_tracked

    @dms_tracked.setter
    def dms_tracked(self, tracked: bool) -> None:
        self.narration.dms_tracked = tracked

    @property
    def second_person(self) -> set[int]:
        """Users whose own moves are told to them in the second person (:attr:`bot.host.turns.Turns.second_person`):
        the terminal adds its one reader."""
        return self.turns.second_person

    # -- life -----------------------------------------------------------------------------------------------
    async def start(self, caller: Caller | None = None, *, workers: bool = True) -> Outputs:
        """Without a caller: start the host (see :meth:`bot.host.restore.Restore.start`) and, unless ``workers``
        is False, its worker processes (:meth:`start_workers`). With a caller: ``/table start`` (same as
        :meth:`start_table`)."""
        if caller is not None:
            return await self.start_table(caller)
        await self.restore.start()
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
        await self.background.stop()
        await self.store.close()
        await asyncio.to_thread(self.pictures.shutdown)
        await asyncio.to_thread(self.ai.shutdown)

    # -- the lobby (bot.host.lobby) -------------------------------------------------------------------------
    @guarded
    async def open(
        self,
        caller: Caller,
        game_id: str,
        options: dict[str, str] | None = None,
        *,
        seed: str | None = None,
        seat: bool = True,
    ) -> Outputs:
        """Open a lobby in the caller's channel and seat the opener, who hosts it; with ``seat=False`` a moderator
        hosts it without playing. ``seed`` fixes the deal (offline play)."""
        return await self.lobby.open(caller, game_id, options, seed=seed, seat=seat)

    @command(missing=NO_TABLE_OPEN)
    async def join(self, caller: Caller, t: Table, seat: int | None = None) -> Outputs:
        """Take a lobby seat (``seat`` 0-based, optional), or take over an AI-played seat of a running game."""
        return await self.lobby.join(caller, t, seat)

    @command()
    async def leave(self, caller: Caller, t: Table) -> Outputs:
        return await self.lobby.leave(caller, t)

    @command(host="kick")
    async def kick(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """Remove a member from the table while it lasts (:meth:`bot.host.lobby.Lobby.kick`)."""
        return await self.lobby.kick(caller, t, user_id, name)

    @command(host="unkick")
    async def unkick(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """Lift a kick (:meth:`bot.host.lobby.Lobby.unkick`)."""
        return await self.lobby.unkick(caller, t, user_id, name)

    @command(host="hand_on")
    async def hand_host(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """``/table host``: make another member the table's host (:meth:`bot.host.lobby.Lobby.hand_host`)."""
        return await self.lobby.hand_host(caller, t, user_id, name)

    @command(missing=NO_TABLE_OPEN, host="add_ai")
    async def ai_add(self, caller: Caller, t: Table, level: str = "normal", seconds: float | None = None) -> Outputs:
        """Add an AI seat; ``seconds`` is a searching level's think time a decision at this table (else the
        host's default, ``PARLEY_AI_SECONDS``)."""
        return await self.lobby.ai_add(caller, t, level, seconds)

    @command(host="remove_ai", lobby="remove_ai_in_lobby")
    async def ai_remove(self, caller: Caller, t: Table) -> Outputs:
        return await self.lobby.ai_remove(caller, t)

    @command(missing=NO_TABLE_OPEN, host="start", lobby="already_started")
    async def start_table(self, caller: Caller, t: Table) -> Outputs:
        """``/table start``: deal and begin (host or moderator; needs the game's minimum players)."""
        return await self.lobby.start_table(caller, t)

    @command(host="end")
    async def end(self, caller: Caller, t: Table) -> Outputs:
        return await self.lobby.end(caller, t)

    async def seats_open_to(self, caller: Caller) -> list[int]:
        """The seats the caller may take at the channel's running game (``/table join``'s suggestions)."""
        return await self.lobby.seats_open_to(caller)

    # -- playing (bot.host.turns) ---------------------------------------------------------------------------
    @command(missing=NO_GAME, running=True, in_lobby="still_in_lobby", over="game_over")
    async def play(
        self,
        caller: Caller,
        t: Table,
        text: str,
        state_no: int | None = None,
        then: tuple[str, ...] = (),
        picked: bool = False,
    ) -> Outputs:
        """A move, typed or picked; ``state_no`` is the board the caller picked it on; ``then`` and ``picked``: the
        steps a picker's pick plays after it (:meth:`bot.host.turns.Turns.play`)."""
        return await self.turns.play(caller, t, text, state_no, then, picked)

    @command(missing=NO_GAME, running=True)
    async def undo(self, caller: Caller, t: Table) -> Outputs:
        return await self.turns.undo(caller, t)

    @guarded
    async def react(self, caller: Caller, pick: int | str, state_no: int | None = None, digest: str = "") -> Outputs:
        """A board post's button for an optional action (:meth:`bot.host.turns.Turns.reacted`), played as
        :meth:`play` plays it once the table's lock is free again."""
        got = await self._reacted(caller, pick, state_no, digest)
        return got if isinstance(got, Outputs) else await self.play(caller, got, state_no)

    @command(missing=NO_GAME, running=True)
    async def _reacted(
        self, caller: Caller, t: Table, pick: int | str, state_no: int | None, digest: str
    ) -> Outputs | str:
        return self.turns.reacted(caller, t, pick, state_no, digest)

    @command(missing=NO_GAME, running=True)
    async def let_stand(self, caller: Caller, t: Table, state_no: int | None = None) -> Outputs:
        """"Let it stand": the caller declines the optional actions open to them now."""
        return await self.turns.let_stand(caller, t, state_no)

    # -- reading (bot.host.reading) -------------------------------------------------------------------------
    def table_for(self, channel_id: int) -> TableSummary | None:
        """The channel's lobby or running table, else the last one finished here since start-up."""
        return self.reading.table_for(channel_id)

    @command(missing=NO_TABLE_OPEN)
    async def status(self, caller: Caller, t: Table, repost: bool = False) -> Outputs:
        """``/table status``: the board for the caller; with ``repost``, posted to the channel again."""
        return await self.reading.status(caller, t, repost)

    @guarded
    async def history(self, caller: Caller) -> Outputs:
        return await self.reading.history(caller)

    async def choices(self, caller: Caller, joined: bool = False) -> list[Choice]:
        """The caller's legal actions with labels and picker groups; empty if they owe nothing (or on error). With
        ``joined`` (the picker), a step the game joins to the next is offered with each next action as one pick."""
        return await self.reading.choices(caller, joined)

    def owed_for(self, caller: Caller) -> str:
        """What the caller must do now, in the game's words (the picker's heading), or ""."""
        return self.reading.owed_for(caller)

    @command(missing=NO_GAME, running=True, lock=False)
    async def hand(self, caller: Caller, t: Table) -> Outputs:
        return await self.reading.hand(caller, t)

    @guarded
    async def zoom(self, caller: Caller) -> Outputs:
        return await self.reading.zoom(caller)

    @guarded
    async def dm_failed(self, channel_id: int, user_id: int) -> Outputs:
        return await self.reading.dm_failed(channel_id, user_id)

    # -- time (bot.host.timers, bot.host.background) ------------------------------------------------------
    async def tick(self) -> list[Outputs]:
        """Close idle lobbies, send half-time reminders, take timed-out moves, and let AI seats move that
        still owe one (after a restart). Called periodically by the transport."""
        return await self.timers.tick()

    def wake(self, t: Table, at: float) -> None:
        self.background.wake(t, at)

    def later(self, work: Awaitable[Outputs | None], *, after: Outputs | None = None) -> None:
        self.background.later(work, after=after)

    async def idle(self, timeout: float = 120.0) -> None:
        await self.background.idle(timeout)

    # -- after a restart (bot.host.restore) -----------------------------------------------------------------
    async def dm_sent(self, table_id: int, user_id: int, state_no: int) -> None:
        await self.restore.dm_sent(table_id, user_id, state_no)

    async def lost_dms(self) -> list[Outputs]:
        return await self.restore.lost_dms()

    async def lost_boards(self) -> list[Outputs]:
        return await self.restore.lost_boards()

    # -- per server, and from DMs (bot.host.guild, bot.host.direct) -----------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's settings (host_role_id, anyone_can_open, turn_limit_seconds, ai_takeover, web_pages)."""
        return dict(await self.guild.settings.get(guild_id))

    @guarded
    async def config(self, caller: Caller, **settings: Any) -> Outputs:
        return await self.guild.config(caller, **settings)

    @guarded
    async def stats(self, caller: Caller, user_id: int | None = None) -> Outputs:
        return await self.guild.stats(caller, user_id)

    @guarded
    async def leaderboard(self, caller: Caller, game_id: str) -> Outputs:
        return await self.guild.leaderboard(caller, game_id)

    @guarded
    async def forget_me(self, caller: Caller) -> Outputs:
        return await self.guild.forget_me(caller)

    @guarded
    async def rules(self, game_id: str | None = None, section: str = "rules") -> Outputs:
        return await self.guild.rules(game_id, section)

    @guarded
    async def hand_from_dm(self, caller: Caller) -> Outputs:
        return await self.direct.hand_from_dm(caller)


def _every_guild(guild_id: int) -> bool:
    return True
