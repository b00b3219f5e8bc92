"""The table host: per-channel tables (lobby → running → finished/abandoned), transport-agnostic.

Transports (Discord, the terminal) call the async methods of :class:`TableHost` with a :class:`Caller` and
deliver the :class:`Outputs` they get back. The host knows nothing of Discord; ids are plain ints.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.api import Caller, Choice, Outputs, Post, SeatInfo, TableSummary, guarded, menu_order
from bot.guild import GuildCommands
from bot.outputs import (
    MAX_ACTION_CHARS,
    MAX_TURN_LINES,
    clip,
    defang,
    duration,
    outcome_text,
    private_part,
    private_text,
    quote,
    refusal,
    seat_label,
)
from bot.pictures import Pictures, Renderer
from bot.replay import MAX_FRAMES, current_turn, gif, replay, replay_steps, same_state, sample
from bot.store import DeadlineRow, LogRow, SeatRow, Store, TableRow
from rules import registry
from rules.core import AI_LEVELS, Game, IllegalAction, Outcome, State, canonical_json

log = logging.getLogger("parley.tables")

#: a lobby nobody touches for this long closes itself
LOBBY_IDLE_SECONDS = 30 * 60
#: board posts one call may produce (a run of AI turns); older ones are folded into the newer posts
MAX_BOARDS_PER_CALL = 6
#: a guard against an engine that never hands the turn back to a human
MAX_AI_STEPS = 5000
AI_TAKEOVER_LEVEL = "normal"

__all__ = ["Caller", "Choice", "Outputs", "Post", "SeatInfo", "TableHost", "TableSummary"]


class _LoadingLock(asyncio.Lock):
    """A table's lock that finishes loading the table for whoever takes it first.

    A table restored at start-up is only indexed (its snapshot, seats and deadlines); its log is read and its
    replay checked by ``load`` once, by the first holder of the lock. So every holder sees a loaded table,
    however many calls arrive at once, and a table nobody touches costs nothing at start-up.
    """

    def __init__(self) -> None:
        super().__init__()
        self.load: Callable[[], Awaitable[None]] | None = None

    async def __aenter__(self) -> None:
        await self.acquire()
        if self.load is not None:
            try:
                await self.load()
            except BaseException:
                self.release()  # the next holder tries again
                raise
            self.load = None


@dataclass
class _Table:
    """A table in memory. ``state`` and ``state_no`` change only after the store committed them."""

    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: str
    ai_seed: str
    seats: list[SeatRow]
    updated: float
    state: State | None = None
    state_no: int = 0
    lock: _LoadingLock = field(default_factory=_LoadingLock)
    # the board post of the current turn: its key, who was to act when it began, and its narration
    turn_key: str = ""
    turn_to_act: tuple[int, ...] = ()
    turn_lines: list[str] = field(default_factory=list)
    # moves of the current turn that may be taken back: (state before, seat, undoable)
    undo_stack: list[tuple[State, int, bool]] = field(default_factory=list)
    deadlines: dict[int, DeadlineRow] = field(default_factory=dict)
    # seat -> the state number its own latest action (or undo) produced, known from ``fresh_from`` on (the
    # state number when the table was loaded): lets a simultaneous decision taken on a slightly older board stand
    acted: dict[int, int] = field(default_factory=dict)
    # the last seat's choices and the state they were built for: the picker, its pages and autocomplete ask for
    # the same list many times, and a Treasure Island destination list is thousands of labelled points
    choices_for: tuple[State, int, list[Choice]] | None = None
    fresh_from: int = -1

    def __post_init__(self) -> None:
        if self.fresh_from < 0:
            self.fresh_from = self.state_no

    @property
    def game(self) -> Game:
        return registry.get(self.game_id)

    @property
    def loaded(self) -> bool:
        """False for a table indexed at start-up until the first holder of its lock has loaded it."""
        return self.lock.load is None

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and s.ai_level is None:
                return s.seat
        return None

    def who(self, seat: int) -> str:
        s = self.seats[seat]
        ai = " · AI" if s.vacated and s.ai_level else ""
        return f"{s.name} ({seat_label(self.game, seat)}{ai})"


@dataclass
class _Pending:
    """A board post being built during one host call; rendered once at the end of the call."""

    key: str
    lines: list[str]
    view: dict[str, Any]
    to_act: tuple[int, ...]
    state_no: int
    final: bool = False  # a closed turn's post or the last board: no prompt, no buttons


@dataclass
class _Batch:
    """Everything one host call produces, rendered and turned into :class:`Outputs` at the end."""

    boards: list[_Pending | None] = field(default_factory=list)
    notes: list[Post] = field(default_factory=list)  # public posts without a board (notices), in order
    order: list[tuple[str, int]] = field(default_factory=list)  # ("board", i) / ("note", i)
    # DMs, one per user and kind: (user, seat) -> narration lines; seat None is a text-only notice (a reminder)
    private: dict[tuple[int, int | None], list[str]] = field(default_factory=dict)
    summary: str | None = None
    replay: bool = False

    def board(self, pending: _Pending) -> None:
        for i, old in enumerate(self.boards):
            if old is not None and old.key == pending.key:
                self.boards[i] = pending
                return
        live = [i for i, b in enumerate(self.boards) if b is not None]
        if len(live) >= MAX_BOARDS_PER_CALL:
            # a long run of AI turns: fold the oldest board's narration into the new post instead of drawing it
            oldest = self.boards[live[0]]
            pending.lines = (oldest.lines + pending.lines)[-MAX_TURN_LINES:]
            self.boards[live[0]] = None
        self.order.append(("board", len(self.boards)))
        self.boards.append(pending)

    def dm(self, user: int, seat: int | None, lines: list[str]) -> None:
        self.private.setdefault((user, seat), []).extend(lines)

    def note(self, post: Post) -> None:
        self.order.append(("note", len(self.notes)))
        self.notes.append(post)

    def empty(self) -> bool:
        return not self.order and not self.private and self.summary is None


class TableHost(GuildCommands):
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
    ) -> None:
        """``clock`` returns seconds (injectable for time-out tests); ``ai_seed`` makes table seeds and AI
        randomness reproducible (tests, simulations; by default both come from the OS); ``renderer``
        draws ``(game_id, view, seat)`` (default: ``renderers.render``); ``render_processes`` > 0 draws in that
        many worker processes (pictures are CPU-bound Python: processes keep them from starving the event loop
        and the database thread of the GIL; a custom ``renderer`` must then be picklable), else in two threads."""
        self.store = store
        self.clock = clock
        self._rand: random.Random = random.Random(ai_seed) if ai_seed is not None else random.SystemRandom()
        self.pictures = Pictures(renderer, render_processes)
        self.replay_frames = replay_frames
        self._tables: dict[int, _Table] = {}
        self._active: dict[int, int] = {}  # channel id -> table id (lobby or running)
        self._last: dict[int, int] = {}  # channel id -> last finished/abandoned table id
        self._settings: dict[int, dict[str, Any]] = {}
        self._open_lock = asyncio.Lock()
        self.internal_errors = 0
        self.replay_mismatches: list[int] = []

    # -- life cycle ----------------------------------------------------------------------------------
    async def start(self, caller: Caller | None = None) -> Outputs:
        """Without a caller: start the host (apply migrations, index every lobby and running table from its row,
        snapshot, seats and stored deadlines, so every channel is served and every timer runs at once). A running
        table's log is read and its replay checked against the snapshot, with a loud ERROR log line on a mismatch,
        when the table is first touched (:meth:`_load`): start-up stays quick with thousands of stored tables.
        With a caller: ``/table start`` (same as :meth:`start_table`)."""
        if caller is not None:
            return await self.start_table(caller)
        await self.store.open()
        await self.pictures.warm(registry.game_ids())
        live = ("lobby", "running")
        rows = await self.store.tables_with_status(*live)
        seats = await self.store.seats_of_tables_with_status(*live)
        deadlines: dict[int, dict[int, DeadlineRow]] = {}
        for d in await self.store.deadlines():
            deadlines.setdefault(d.table_id, {})[d.seat] = d
        for row in rows:
            try:
                await self._restore(row, seats.get(row.id, []), deadlines.get(row.id, {}))
            except Exception as exc:  # noqa: BLE001 - one broken table must not keep the others down
                self.internal_errors += 1
                log.error("table %s could not be restored: %s", row.id, type(exc).__name__)
            row.snapshot = None  # the state is a copy: let its memory serve the next tables
        log.info("restored %d tables (logs are replayed when a table is first touched)", len(rows))
        return Outputs()

    async def _restore(self, row: TableRow, seats: list[SeatRow], deadlines: dict[int, DeadlineRow]) -> None:
        """Index a table at start-up: its seats, state (from the snapshot) and deadlines; not its log."""
        t = _Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game_id=row.game_id,
            status=row.status,
            host_id=row.host_id,
            options=row.options,
            seed=row.seed,
            ai_seed=row.ai_seed,
            seats=seats,
            updated=row.updated,
            state_no=row.state_no,
        )
        if row.status == "running":
            game = t.game
            if row.snapshot is None:
                raise ValueError("running table without a snapshot")
            t.state = game.load(row.snapshot)
            t.turn_to_act = tuple(game.to_act(t.state))
            t.turn_key = f"{t.id}:{t.state_no}:r"
            t.deadlines = dict(deadlines)
            missing = [s for s in t.turn_to_act if t.seats[s].ai_level is None and s not in t.deadlines]
            if missing:
                limit = (await self._guild_settings(t.guild_id))["turn_limit_seconds"]
                now = self.clock()
                for s in missing:
                    t.deadlines[s] = DeadlineRow(t.id, s, now, now + limit, False)
                await self.store.set_deadlines(t.id, list(t.deadlines.values()))
            players = row.players

            async def load() -> None:
                await self._load(t, players)

            t.lock.load = load
        self._tables[t.id] = t
        self._active[t.channel_id] = t.id
        log.debug("restored table %s (%s, %s, state %s)", t.id, t.game_id, t.status, t.state_no)

    async def _load(self, t: _Table, players: int) -> None:
        """The first touch of a restored running table, under its lock: replay its log from the seed and check
        it reproduces the snapshot (if not: a loud ERROR line, ``replay_mismatches``, and the table goes on from
        the snapshot, which is what players saw), then pick up the turn in progress."""
        game = t.game
        assert t.state is not None
        entries = await self.store.log(t.id)
        steps: list[tuple[LogRow | None, State]] = []
        try:
            steps = await asyncio.to_thread(replay_steps, game, players, t.options, t.seed, entries)
            reproduced = same_state(game, steps[-1][1], t.state)
        except Exception as exc:  # noqa: BLE001 - e.g. an engine change that refuses an old move
            log.error("table %s: replaying its log raised %s", t.id, type(exc).__name__)
            reproduced = False
        if not reproduced:
            self.replay_mismatches.append(t.id)
            log.error(
                "REPLAY MISMATCH: table %s (%s) replayed from its seed and %d log entries does not reproduce"
                " its snapshot; continuing from the snapshot",
                t.id,
                t.game_id,
                len(entries),
            )
        else:
            # the turn in progress carries on: its narration, what its player may still take back, and its
            # board post (keyed, as when it began, by the state number that started the turn)
            t.undo_stack, t.turn_lines = current_turn(game, steps)
            t.turn_key = f"{t.id}:{t.state_no - len(t.undo_stack)}"
        log.info("loaded table %s (%s, state %s)", t.id, t.game_id, t.state_no)

    async def close(self) -> None:
        await self.store.close()
        self.pictures.shutdown()

    # -- lookups -------------------------------------------------------------------------------------
    def table_for(self, channel_id: int) -> TableSummary | None:
        """The channel's lobby or running table, else the last one finished here since start-up."""
        tid = self._active.get(channel_id, self._last.get(channel_id))
        if tid is None or tid not in self._tables:
            return None
        t = self._tables[tid]
        game = t.game
        seats = tuple(
            SeatInfo(s.seat, s.name if t.status != "lobby" else s.name, s.user_id, s.ai_level, s.reachable)
            for s in t.seats
        )
        to_act = tuple(game.to_act(t.state)) if t.state is not None and t.status == "running" else ()
        return TableSummary(
            t.id, t.guild_id, t.channel_id, t.game_id, t.status, t.host_id, dict(t.options), seats, t.state_no, to_act
        )

    def _active_table(self, channel_id: int) -> _Table | None:
        tid = self._active.get(channel_id)
        return None if tid is None else self._tables.get(tid)

    def _may_run(self, t: _Table, caller: Caller) -> bool:
        return caller.moderator or caller.user_id == t.host_id

    # -- building posts ------------------------------------------------------------------------------
    def _prompt(self, t: _Table, to_act: tuple[int, ...]) -> tuple[str, list[int]]:
        if not to_act:
            return "", []
        humans = [s for s in to_act if t.seats[s].ai_level is None]
        if not humans:
            return "", []  # AI seats move at once: no prompt
        mentions = [int(t.seats[s].user_id) for s in humans if t.seats[s].user_id is not None]
        names = ", ".join(t.who(s) for s in to_act)
        verb = "to act" if len(to_act) == 1 else "to act (each of you)"
        return f"▶ {names} {verb}.", mentions

    def _pend_board(self, t: _Table, batch: _Batch) -> _Pending:
        game = t.game
        assert t.state is not None
        pending = _Pending(
            key=t.turn_key,
            lines=list(t.turn_lines[-MAX_TURN_LINES:]),
            view=game.view(t.state, None),
            to_act=tuple(game.to_act(t.state)) if t.status == "running" else (),
            state_no=t.state_no,
        )
        batch.board(pending)
        return pending

    def _private_post(self, t: _Table, seat: int, lines: list[str], batch: _Batch) -> None:
        s = t.seats[seat]
        if s.ai_level is not None or s.user_id is None or not s.reachable:
            return
        batch.dm(int(s.user_id), seat, lines)

    async def _flush(self, t: _Table, batch: _Batch, *, reply: str = "", ok: bool = True) -> Outputs:
        """Render every picture of the batch in one trip off the event loop and assemble the outputs."""
        game = t.game
        state = t.state
        drawn = [i for i, b in enumerate(batch.boards) if b is not None]
        jobs: list[tuple[dict[str, Any], int | None]] = [(batch.boards[i].view, None) for i in drawn]
        # a DM shows the seat's private view as it is now, after every move of this call
        dms = [(user, seat, lines) for (user, seat), lines in batch.private.items()]
        pictures = [(user, seat) for user, seat, _ in dms if seat is not None and state is not None]
        jobs += [(game.view(state, seat), seat) for _, seat in pictures]
        gif_task: asyncio.Task[bytes | None] | None = None
        if batch.replay:
            gif_task = asyncio.create_task(self._replay_gif(t))
        # identical views (a closed turn's post and the next turn's post) are drawn once
        keys = [canonical_json([v, s]) for v, s in jobs]
        unique = list(dict.fromkeys(keys))
        first = {k: jobs[keys.index(k)] for k in unique}
        drawn_once = dict(
            zip(unique, await self.pictures.render_many(t.game_id, [first[k] for k in unique]), strict=True)
        )
        images = [drawn_once[k] for k in keys]
        gif_bytes = await gif_task if gif_task is not None else None
        board_images = dict(zip(drawn, images, strict=False))
        dm_images = dict(zip(pictures, images[len(drawn) :], strict=True))
        out = Outputs(ok=ok, reply=reply, channel_id=t.channel_id)
        header = f"**{game.info.title}** · table {t.id}"
        for kind, i in batch.order:
            if kind == "note":
                out.public.append(batch.notes[i])
                continue
            b = batch.boards[i]
            if b is None:
                continue
            prompt, mentions = self._prompt(t, b.to_act) if b.final is False else ("", [])
            text = clip("\n".join([f"{header} · move {b.state_no}", *b.lines, prompt]).strip())
            out.public.append(
                Post(
                    text=text,
                    image=board_images[i],
                    mentions=mentions,
                    buttons=bool(mentions),
                    state_no=b.state_no,
                    board_key=b.key,
                    table_id=t.id,
                )
            )
        public_view = game.view(state, None) if state is not None else {}
        for user, seat, lines in dms:
            if seat is None or state is None:
                out.private.append((user, Post(text=clip("\n".join(lines)), table_id=t.id)))
                continue
            summary = self._private_summary(game, public_view, game.view(state, seat), seat)
            text = "\n".join([f"**{game.info.title}** (table {t.id}) — {seat_label(game, seat)}", *lines, summary])
            image = dm_images[(user, seat)]
            out.private.append((user, Post(text=clip(text.strip()), image=image, filename="hand.png", table_id=t.id)))
        if batch.summary is not None:
            # the final board is the last board of the batch: drawn once, shown twice
            final_image = board_images[drawn[-1]] if drawn else None
            out.public.append(Post(text=clip(batch.summary), image=final_image, filename="final.png", table_id=t.id))
        if gif_bytes is not None:
            out.public.append(
                Post(text=f"Replay of table {t.id}.", image=gif_bytes, filename="replay.gif", table_id=t.id)
            )
        return out

    async def _replay_gif(self, t: _Table) -> bytes | None:
        """The animated public board of the whole game, rebuilt from the seed and the action log."""
        try:
            game = t.game
            entries = await self.store.log(t.id)
            chain = await asyncio.to_thread(replay, game, len(t.seats), t.options, t.seed, entries)
            views = [game.view(state, None) for state in sample(chain, self.replay_frames)]
            frames = await self.pictures.render_many(t.game_id, [(v, None) for v in views])
            return await asyncio.to_thread(gif, [f for f in frames if f])
        except Exception as exc:  # noqa: BLE001 - the replay is a bonus, never a failure
            log.error("replay of table %s failed: %s", t.id, type(exc).__name__)
            return None

    @staticmethod
    def _private_summary(game: Game, public_view: dict[str, Any], seat_view: dict[str, Any], seat: int) -> str:
        """The game's own summary of what only ``seat`` knows; a generic one from the view if it gives none."""
        return game.private_summary(seat_view, seat) or private_text(public_view, seat_view)

    def _note(self, t: _Table, text: str, mentions: list[int] | None = None) -> Post:
        return Post(text=clip(text), mentions=mentions or [], table_id=t.id)

    def _lobby_text(self, t: _Table) -> str:
        game = t.game
        opts = ", ".join(f"{k}: {v}" for k, v in t.options.items()) or "none"
        lines = [
            f"**{game.info.title}** lobby · table {t.id} · options: {opts}",
            f"Seats ({len(t.seats)} of {game.info.min_players}–{game.info.max_players}):",
        ]
        names = game.info.seat_names
        for rank, s in enumerate(sorted(t.seats, key=lambda s: s.seat)):
            kind = f"AI ({s.ai_level})" if s.ai_level else s.name
            # the colour (port, role) this seat will get when the game starts: seats are dealt them in order
            colour = f" — {names[rank]}" if rank < len(names) else ""
            lines.append(f"  {s.seat + 1}. {kind}{colour}")
        host = next((s.name for s in t.seats if s.user_id == t.host_id and s.ai_level is None), None)
        lines.append(
            f"Host: {host or 'the opener'}. Join with /table join; the host or a moderator starts with /table start."
            " Seats are played in this order; the game's colours are given out at the start."
        )
        return "\n".join(lines)

    def _lobby_out(self, t: _Table, reply: str) -> Outputs:
        # one lobby message, edited as seats fill (same board_key)
        post = Post(text=clip(self._lobby_text(t)), board_key=f"{t.id}:lobby", table_id=t.id)
        return Outputs(reply=reply, public=[post], channel_id=t.channel_id)

    # -- lobby ---------------------------------------------------------------------------------------
    @guarded
    async def open(
        self, caller: Caller, game_id: str, options: dict[str, str] | None = None, *, seed: str | None = None
    ) -> Outputs:
        """Open a lobby in the caller's channel and seat the opener. ``seed`` fixes the deal (offline play)."""
        try:
            game = registry.get(game_id)
        except KeyError:
            return Outputs(
                ok=False, reply=f"There is no game '{quote(game_id)}'. Games: {', '.join(registry.game_ids())}."
            )
        if any(len(str(k)) > 100 or len(str(v)) > 100 for k, v in (options or {}).items()):
            # an autocompleted option is free text: never quote a huge one back
            return Outputs(ok=False, reply=f"Those are not {game.info.title} options; pick them from the lists.")
        try:
            opts = game.resolve_options(options)
        except IllegalAction as exc:
            return Outputs(ok=False, reply=clip(defang(exc.message)))
        settings = await self._guild_settings(caller.guild_id)
        if not (caller.moderator or settings["anyone_can_open"]):
            return Outputs(
                ok=False, reply="Only moderators or the server's host role may open a table here. Ask one of them."
            )
        async with self._open_lock:
            if self._active_table(caller.channel_id) is not None:
                return Outputs(
                    ok=False,
                    reply="This channel already has a table. Use /table status to see it, or open one in another channel.",
                )
            now = self.clock()
            seed = seed if seed is not None else f"{self._rand.getrandbits(64):016x}"
            ai_seed = f"{self._rand.getrandbits(64):016x}"
            seats = [SeatRow(0, caller.user_id, caller.name, None)]
            tid = await self.store.create_table(
                guild_id=caller.guild_id,
                channel_id=caller.channel_id,
                game_id=game.info.id,
                host_id=caller.user_id,
                options=opts,
                seed=seed,
                ai_seed=ai_seed,
                now=now,
                seats=seats,
            )
            t = _Table(
                tid,
                caller.guild_id,
                caller.channel_id,
                game.info.id,
                "lobby",
                caller.user_id,
                opts,
                seed,
                ai_seed,
                seats,
                now,
            )
            self._tables[tid] = t
            self._active[caller.channel_id] = tid
        log.info("table %s opened (%s) in channel %s", tid, game.info.id, caller.channel_id)
        return self._lobby_out(t, f"Opened a {game.info.title} table; you have seat 1.")

    def _free_seat(self, t: _Table, wanted: int | None) -> int | str:
        game = t.game
        taken = {s.seat for s in t.seats}
        if wanted is not None:
            if not 0 <= wanted < game.info.max_players:
                return f"Seats go from 1 to {game.info.max_players}."
            if wanted in taken:
                free = [str(i + 1) for i in range(game.info.max_players) if i not in taken]
                return f"Seat {wanted + 1} is taken; free seats: {', '.join(free) or 'none'}."
            return wanted
        for i in range(game.info.max_players):
            if i not in taken:
                return i
        return f"The table is full ({game.info.max_players} seats)."

    @guarded
    async def join(self, caller: Caller, seat: int | None = None) -> Outputs:
        """Take a lobby seat (``seat`` 0-based, optional), or take over an AI-played seat of a running game."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel. Open one with /table open.")
        async with t.lock:
            now = self.clock()
            if t.seat_of(caller.user_id) is not None:
                return Outputs(ok=False, reply=f"You already have seat {t.seat_of(caller.user_id) + 1}.")
            if t.status == "lobby":
                got = self._free_seat(t, seat)
                if isinstance(got, str):
                    return Outputs(ok=False, reply=got)
                t.seats.append(SeatRow(got, caller.user_id, caller.name, None))
                t.seats.sort(key=lambda s: s.seat)
                await self.store.save_seats(t.id, t.seats, now)
                t.updated = now
                return self._lobby_out(t, f"You have seat {got + 1}.")
            vacant = [s.seat for s in t.seats if s.vacated and s.ai_level is not None]
            if seat is not None and seat not in vacant:
                return Outputs(
                    ok=False,
                    reply=f"Seat {seat + 1} is not free. Free seats: {', '.join(str(v + 1) for v in vacant) or 'none'}.",
                )
            if not vacant:
                return Outputs(ok=False, reply="The game is running and every seat is taken; you can watch.")
            target = seat if seat is not None else vacant[0]
            s = t.seats[target]
            s.user_id, s.name, s.ai_level, s.vacated, s.reachable = caller.user_id, caller.name, None, False, True
            await self.store.save_seats(t.id, t.seats, now)
            batch = _Batch()
            to_act = tuple(t.game.to_act(t.state))
            await self.store.set_deadlines(t.id, await self._arm(t, to_act, to_act, force=[target]))
            batch.note(self._note(t, f"{caller.name} takes over seat {target + 1} ({seat_label(t.game, target)})."))
            self._private_post(t, target, ["Your seat's private view:"], batch)
            t.turn_key = f"{t.id}:{t.state_no}:j"
            t.turn_lines = []
            self._pend_board(t, batch)
            return await self._flush(t, batch, reply=f"You now play seat {target + 1}.")

    @guarded
    async def leave(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        async with t.lock:
            seat = t.seat_of(caller.user_id)
            if seat is None:
                return Outputs(ok=False, reply="You have no seat at this table.")
            return await self._vacate(t, seat, f"{caller.name} left", reply="You left the table.")

    async def _vacate(self, t: _Table, seat: int, why: str, *, reply: str) -> Outputs:
        now = self.clock()
        if t.status == "lobby":
            t.seats = [s for s in t.seats if s.seat != seat]
            await self.store.save_seats(t.id, t.seats, now)
            t.updated = now
            return self._lobby_out(t, reply)
        s = t.seats[seat]
        s.ai_level, s.vacated = AI_TAKEOVER_LEVEL, True
        await self.store.save_seats(t.id, t.seats, now)
        t.deadlines.pop(seat, None)
        await self.store.set_deadlines(t.id, list(t.deadlines.values()))
        batch = _Batch()
        batch.note(
            self._note(t, f"{why}; an AI plays seat {seat + 1} ({seat_label(t.game, seat)}) until someone joins it.")
        )
        await self._run_ais(t, batch)
        return await self._flush(t, batch, reply=reply)

    @guarded
    async def kick(self, caller: Caller, user_id: int) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can kick a player.")
        async with t.lock:
            seat = t.seat_of(user_id)
            if seat is None:
                return Outputs(ok=False, reply="That member has no seat at this table.")
            name = t.seats[seat].name
            return await self._vacate(t, seat, f"{name} was removed by {caller.name}", reply=f"{name} was removed.")

    @guarded
    async def ai_add(self, caller: Caller, level: str = "normal") -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel. Open one with /table open.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can add AI players.")
        level = level.strip().lower()
        if level not in AI_LEVELS:
            return Outputs(ok=False, reply=f"AI levels: {', '.join(AI_LEVELS)}.")
        async with t.lock:
            if t.status != "lobby":
                return Outputs(ok=False, reply="AI seats are added in the lobby, before /table start.")
            got = self._free_seat(t, None)
            if isinstance(got, str):
                return Outputs(ok=False, reply=got)
            n_ai = sum(1 for s in t.seats if s.ai_level) + 1
            t.seats.append(SeatRow(got, None, f"AI {n_ai} ({level})", level))
            t.seats.sort(key=lambda s: s.seat)
            now = self.clock()
            await self.store.save_seats(t.id, t.seats, now)
            t.updated = now
            return self._lobby_out(t, f"Added an AI ({level}) at seat {got + 1}.")

    @guarded
    async def ai_remove(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can remove AI players.")
        async with t.lock:
            if t.status != "lobby":
                return Outputs(
                    ok=False, reply="AI seats can only be removed in the lobby; use /table join to take one over."
                )
            ais = [s for s in t.seats if s.ai_level]
            if not ais:
                return Outputs(ok=False, reply="There is no AI seat to remove.")
            gone = ais[-1]
            t.seats.remove(gone)
            now = self.clock()
            await self.store.save_seats(t.id, t.seats, now)
            t.updated = now
            return self._lobby_out(t, f"Removed the AI at seat {gone.seat + 1}.")

    @guarded
    async def start_table(self, caller: Caller) -> Outputs:
        """``/table start``: deal and begin (host or moderator; needs the game's minimum players)."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel. Open one with /table open.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can start the game.")
        async with t.lock:
            if t.status != "lobby":
                return Outputs(ok=False, reply="This game has already started.")
            game = t.game
            try:
                game.check_players(len(t.seats))
            except IllegalAction as exc:
                return Outputs(ok=False, reply=f"{exc.message} Join, or add an AI with /table ai add.")
            # engine seats are dense: keep the chosen order, renumber from 0
            seats = [
                SeatRow(i, s.user_id, s.name, s.ai_level, s.vacated, s.reachable)
                for i, s in enumerate(sorted(t.seats, key=lambda s: s.seat))
            ]
            state = game.new(len(seats), t.options, t.seed)
            now = self.clock()
            await self.store.begin_game(t.id, seats, game.dump(state), now)
            t.seats, t.state, t.state_no, t.status, t.updated = seats, state, 0, "running", now
            to_act = tuple(game.to_act(state))
            await self.store.set_deadlines(t.id, await self._arm(t, (), to_act))
            t.turn_key, t.turn_to_act = f"{t.id}:0", to_act
            order = ", ".join(t.who(s.seat) for s in seats)
            t.turn_lines = [f"The game begins. Seats: {order}."]
            batch = _Batch()
            for s in seats:
                self._private_post(t, s.seat, ["The game begins. Your private view:"], batch)
            self._pend_board(t, batch)
            await self._run_ais(t, batch)
            log.info("table %s started with %d seats", t.id, len(seats))
            return await self._flush(t, batch, reply="The game has started.")

    @guarded
    async def end(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can end the table.")
        async with t.lock:
            await self._abandon(t)
            return Outputs(
                reply="The table was ended.",
                public=[self._note(t, f"{caller.name} ended table {t.id}; it is recorded as abandoned.")],
                channel_id=t.channel_id,
            )

    async def _abandon(self, t: _Table) -> None:
        now = self.clock()
        await self.store.set_status(t.id, "abandoned", now)
        t.status, t.updated = "abandoned", now
        t.deadlines.clear()
        self._retire(t)

    def _retire(self, t: _Table) -> None:
        if self._active.get(t.channel_id) == t.id:
            del self._active[t.channel_id]
        old = self._last.get(t.channel_id)
        if old is not None and old != t.id:
            self._tables.pop(old, None)
        self._last[t.channel_id] = t.id

    # -- playing -------------------------------------------------------------------------------------
    async def _arm(
        self, t: _Table, before: tuple[int, ...], after: tuple[int, ...], force: list[int] | None = None
    ) -> list[DeadlineRow]:
        """Deadlines for the humans in ``after``: kept for seats still acting, new for seats starting to act."""
        limit = (await self._guild_settings(t.guild_id))["turn_limit_seconds"]
        now = self.clock()
        new: dict[int, DeadlineRow] = {}
        for s in after:
            if t.seats[s].ai_level is not None:
                continue
            old = t.deadlines.get(s)
            if old is not None and s in before and s not in (force or []):
                new[s] = old
            else:
                new[s] = DeadlineRow(t.id, s, now, now + limit, False)
        t.deadlines = new
        return list(new.values())

    async def _commit(
        self, t: _Table, seat: int, action: str, *, by_ai: bool, user_id: int | None, batch: _Batch, prefix: str = ""
    ) -> None:
        """Apply, commit, then update memory and the batch. Raises IllegalAction with nothing changed."""
        game = t.game
        before = t.state
        assert before is not None
        before_to_act = tuple(game.to_act(before))
        after, events = game.apply(before, seat, action)
        to_act = tuple(game.to_act(after))
        outcome = game.outcome(after)
        finished = outcome is not None or not to_act
        who = t.who(seat)
        public = [f"{prefix}{who}: {e.public}" for e in events if e.public] or [f"{prefix}{who} acted."]
        limit = (await self._guild_settings(t.guild_id))["turn_limit_seconds"]
        now = self.clock()
        # deadlines computed without touching t until the commit succeeded
        deadlines: dict[int, DeadlineRow] = {}
        if not finished:
            for s in to_act:
                if t.seats[s].ai_level is not None:
                    continue
                old = t.deadlines.get(s)
                deadlines[s] = (
                    old if (old is not None and s in before_to_act) else DeadlineRow(t.id, s, now, now + limit, False)
                )
        n = t.state_no + 1
        await self.store.append(
            t.id,
            n=n,
            kind="action",
            seat=seat,
            action=action,
            by_ai=by_ai,
            user_id=user_id,
            public=public,
            snapshot=game.dump(after),
            now=now,
            deadlines=list(deadlines.values()),
            finished=finished,
            # in the same transaction as the game-ending move: a crash just after it must not lose the results
            results=self._result_rows(t, outcome, now) if finished else None,
        )
        undoable = bool(game.undoable(before, seat, action))
        t.state, t.state_no, t.deadlines, t.updated = after, n, deadlines, now
        t.acted[seat] = n
        # a new board post whenever someone starts to owe a decision they did not owe just before
        new_turn = any(s not in before_to_act for s in to_act)
        if new_turn:
            # the move that ends a turn closes that turn's post (no prompt); the next turn gets a new post
            t.turn_lines.extend(public)
            self._pend_board(t, batch).final = True
            t.turn_key, t.turn_to_act, t.turn_lines, t.undo_stack = f"{t.id}:{n}", to_act, [], []
        else:
            t.turn_lines.extend(public)
            t.undo_stack.append((before, seat, undoable))
        # private news: the seat's own event lines, and any change of its private view
        lines: dict[int, list[str]] = {}
        for e in events:
            for s, line in e.private.items():
                lines.setdefault(int(s), []).append(line)
        pub_before, pub_after = game.view(before, None), game.view(after, None)
        for s in range(len(t.seats)):
            if t.seats[s].ai_level is not None:
                continue
            if s in lines:
                self._private_post(t, s, lines[s], batch)
            elif s != seat or by_ai:
                # a player's own move tells them nothing new (they saw the card they played); someone else's
                # move, or the AI moving for them at a time-out, may have changed what they hold
                if private_part(pub_before, game.view(before, s)) != private_part(pub_after, game.view(after, s)):
                    self._private_post(t, s, [], batch)
        if finished:
            await self._finish(t, outcome, batch)
        else:
            self._pend_board(t, batch)

    async def _finish(self, t: _Table, outcome: Outcome | None, batch: _Batch) -> None:
        game = t.game
        assert t.state is not None
        t.status = "finished"
        self._pend_board(t, batch).final = True
        if outcome is None:
            log.error("table %s: nobody is to act but the game has no outcome", t.id)
            outcome = Outcome((), "no one can move")
        who = [t.who(s.seat) for s in t.seats]
        batch.summary = f"**Game over** · {game.info.title} · table {t.id}\n" + outcome_text(game, outcome, who)
        batch.replay = True
        t.deadlines.clear()
        self._retire(t)
        log.info("table %s finished", t.id)

    @staticmethod
    def _result_rows(t: _Table, outcome: Outcome | None, now: float) -> list[dict[str, Any]]:
        """The statistics rows of a finished game, one per human seat (committed with the game-ending move)."""
        outcome = outcome or Outcome((), "no one can move")
        return [
            {
                "table_id": t.id,
                "guild_id": t.guild_id,
                "game_id": t.game_id,
                "user_id": s.user_id,
                "name": s.name,
                "seat": s.seat,
                "won": int(s.seat in outcome.winners),
                "score": None if outcome.scores is None else outcome.scores[s.seat],
                "finished": now,
            }
            for s in t.seats
            if s.user_id is not None and s.ai_level is None
        ]

    def _ai_action(self, t: _Table, seat: int, level: str) -> str:
        game = t.game
        assert t.state is not None
        legal = game.legal_actions(t.state, seat)
        rnd = random.Random(f"{t.ai_seed}:{t.state_no}:{seat}")
        try:
            choice = game.ai_choose(game.view(t.state, seat), seat, list(legal), level, rnd)
        except Exception as exc:  # noqa: BLE001 - a broken AI must not stall the table
            self.internal_errors += 1
            log.error("AI of %s failed on table %s: %s", t.game_id, t.id, type(exc).__name__)
            choice = legal[0]
        if choice not in legal:
            self.internal_errors += 1
            log.error("AI of %s chose an illegal action on table %s", t.game_id, t.id)
            choice = legal[0]
        return choice

    async def _run_ais(self, t: _Table, batch: _Batch) -> None:
        """AI seats move, each move committed and narrated, until a human must act or the game ends."""
        game = t.game
        for _ in range(MAX_AI_STEPS):
            if t.status != "running" or t.state is None:
                return
            ai = [s for s in game.to_act(t.state) if t.seats[s].ai_level is not None]
            if not ai:
                return
            seat = ai[0]
            action = self._ai_action(t, seat, str(t.seats[seat].ai_level))
            try:
                await self._commit(t, seat, action, by_ai=True, user_id=None, batch=batch)
            except Exception as exc:  # noqa: BLE001 - what was committed so far is still delivered
                self.internal_errors += 1
                log.error("table %s: an AI move failed: %s", t.id, type(exc).__name__)
                return
        if all(s.ai_level is not None for s in t.seats):
            # Nobody is left to end it, and some games can circle forever (Cartagena's spec leaves endless play
            # to the host): stop an AI-only table rather than replaying this every tick.
            await self._abandon(t)
            batch.note(
                self._note(
                    t,
                    f"The AI players made {MAX_AI_STEPS} moves without finishing and no person holds a seat, "
                    f"so table {t.id} ends here; it is recorded as abandoned.",
                )
            )
            log.warning("table %s: abandoned after %d AI moves with no human seat", t.id, MAX_AI_STEPS)
            return
        log.error("table %s: AI seats made %d moves in a row; stopping", t.id, MAX_AI_STEPS)
        self.internal_errors += 1

    @guarded
    async def play(self, caller: Caller, text: str, state_no: int | None = None) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running":
            return Outputs(
                ok=False,
                reply="No game is running in this channel." + (" The table is still in its lobby." if t else ""),
            )
        async with t.lock:
            if t.status != "running":
                return Outputs(ok=False, reply="This game is over.")
            game = t.game
            assert t.state is not None
            if state_no is not None and state_no != t.state_no and not self._only_others_moved(t, caller, state_no):
                image = await self.pictures.render(t.game_id, game.view(t.state, None), None)
                return Outputs(
                    ok=False,
                    reply=f"This board is out of date; here is the current one (move {t.state_no}).",
                    reply_image=image,
                )
            seat = t.seat_of(caller.user_id)
            to_act = game.to_act(t.state)
            if seat is None:
                names = ", ".join(t.who(s) for s in to_act)
                return Outputs(ok=False, reply=f"You have no seat at this table. It's {names}'s turn.")
            try:
                if len(text) > MAX_ACTION_CHARS:
                    raise IllegalAction("bad_syntax", f"That is too long to be an action ({len(text)} characters).")
                action = game.parse(text)
            except IllegalAction as exc:
                # the engine's message may quote the typed text: defanged, and the turn named for an idle seat
                if seat not in to_act:
                    names = ", ".join(t.who(s) for s in to_act)
                    return Outputs(ok=False, reply=clip(defang(f"{exc.message} It's {names}'s turn, not yours.")))
                legal = game.legal_actions(t.state, seat)
                return Outputs(ok=False, reply=refusal(exc.message, legal))
            legal = game.legal_actions(t.state, seat)
            if seat not in to_act and action not in legal:
                names = ", ".join(t.who(s) for s in to_act)
                return Outputs(ok=False, reply=f"It's {names}'s turn, not yours.")
            if action not in legal:
                # only what legal_actions lists is ever committed, even if an engine's apply is more lenient;
                # the engine's own words say why when it has them
                try:
                    game.apply(t.state, seat, action)
                    why = f"`{action}` is not a legal action right now."
                except IllegalAction as exc:
                    why = exc.message
                return Outputs(ok=False, reply=refusal(why, legal))
            batch = _Batch()
            try:
                await self._commit(t, seat, action, by_ai=False, user_id=caller.user_id, batch=batch)
            except IllegalAction as exc:
                return Outputs(ok=False, reply=refusal(exc.message, legal))
            await self._run_ais(t, batch)
            return await self._flush(t, batch, reply=f"You played `{action}`.")

    @staticmethod
    def _only_others_moved(t: _Table, caller: Caller, state_no: int) -> bool:
        """Whether a decision taken on the board of ``state_no`` still stands although the table moved on: in
        a simultaneous phase (Flagon's planning, Yellow Fever) the other seats' decisions do not make a seat's
        own pick stale, as long as that seat has neither acted nor undone since and still owes a decision.
        A second tap of the same button is stale, since the seat's first tap has acted."""
        seat = t.seat_of(caller.user_id)
        return (
            seat is not None
            and t.state is not None
            and t.fresh_from <= state_no < t.state_no
            and t.acted.get(seat, -1) <= state_no
            and seat in t.game.to_act(t.state)
        )

    @guarded
    async def undo(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running":
            return Outputs(ok=False, reply="No game is running in this channel.")
        async with t.lock:
            seat = t.seat_of(caller.user_id)
            if seat is None:
                return Outputs(ok=False, reply="You have no seat at this table.")
            if not t.undo_stack or t.undo_stack[-1][1] != seat:
                return Outputs(ok=False, reply="There is nothing of yours to undo in this turn.")
            before, _, undoable = t.undo_stack[-1]
            if not undoable:
                return Outputs(
                    ok=False,
                    reply="Your last action revealed something (a draw or a hidden piece), so it cannot be undone.",
                )
            game = t.game
            n = t.state_no + 1
            now = self.clock()
            line = f"↩ {t.who(seat)} took back their last action."
            await self.store.append(
                t.id,
                n=n,
                kind="undo",
                seat=seat,
                action=None,
                by_ai=False,
                user_id=caller.user_id,
                public=[line],
                snapshot=game.dump(before),
                now=now,
                deadlines=list(t.deadlines.values()),
            )
            t.undo_stack.pop()
            t.state, t.state_no, t.updated = before, n, now
            t.acted[seat] = n
            t.turn_lines.append(line)
            batch = _Batch()
            self._pend_board(t, batch)
            return await self._flush(t, batch, reply="Your last action was taken back.")

    @guarded
    async def status(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel. Open one with /table open.")
        async with t.lock:
            if t.status == "lobby":
                return self._lobby_out(t, "Here is the lobby.")
            # a repost starts a new board post so it lands at the bottom of the channel
            t.turn_key = f"{t.id}:{t.state_no}:s{self._rand.getrandbits(24):06x}"
            batch = _Batch()
            self._pend_board(t, batch)
            return await self._flush(t, batch, reply="Here is the board.")

    async def lost_boards(self) -> list[Outputs]:
        """After a crash: a fresh board post for every running table whose saved board post shows an older state
        than the committed one (the move was acknowledged, but the bot died before its board post arrived)."""
        outs: list[Outputs] = []
        for table_id, shown in (await self.store.shown_states()).items():
            t = self._tables.get(table_id)
            if t is None or t.status != "running" or shown >= t.state_no:
                continue
            try:
                async with t.lock:
                    t.turn_key = f"{t.id}:{t.state_no}:s{self._rand.getrandbits(24):06x}"
                    batch = _Batch()
                    self._pend_board(t, batch)
                    outs.append(await self._flush(t, batch, reply=""))
            except Exception as exc:  # noqa: BLE001 - one broken table must not keep the others' boards back
                self.internal_errors += 1
                log.error("table %s: reposting its board failed: %s", t.id, type(exc).__name__)
        return outs

    @guarded
    async def history(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        row: TableRow | None
        if t is not None:
            row = await self.store.get_table(t.id)
        else:
            row = await self.store.last_table_in(caller.channel_id)
        if row is None:
            return Outputs(ok=False, reply="No table has been played in this channel yet.")
        entries = await self.store.log(row.id)
        game = registry.get(row.game_id)
        if row.status in ("finished", "abandoned"):
            seats = await self.store.seats(row.id)
            names = {s.seat: f"{s.name} ({seat_label(game, s.seat)})" for s in seats}
            lines = [f"**{game.info.title}** · table {row.id} · {row.status} · full record (seed `{row.seed}`)"]
            for e in entries:
                if e.kind == "undo":
                    lines.append(f"{e.n}. ↩ {names.get(e.seat or 0, '?')} undo")
                else:
                    lines.append(f"{e.n}. {names.get(e.seat or 0, '?')}: `{e.action}`" + (" (AI)" if e.by_ai else ""))
        else:
            lines = [f"**{game.info.title}** · table {row.id} · {row.status} · moves so far"]
            for e in entries:
                lines.extend(f"{e.n}. {p}" for p in e.public)
        if len(lines) == 1:
            lines.append("No moves yet.")
        return Outputs(reply=clip("\n".join(lines)), channel_id=row.channel_id)

    async def choices(self, caller: Caller) -> list[Choice]:
        """The caller's legal actions with labels and picker groups; empty if they owe nothing (or on error)."""
        try:
            return self._choices(caller)
        except Exception as exc:  # noqa: BLE001 - autocomplete must always get an answer
            self.internal_errors += 1
            log.error("internal error in choices: %s", type(exc).__name__)
            return []

    def _choices(self, caller: Caller) -> list[Choice]:
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running" or t.state is None:
            return []
        game = t.game
        seat = t.seat_of(caller.user_id)
        if seat is None or seat not in game.to_act(t.state):
            return []
        cached = t.choices_for
        if cached is not None and cached[0] is t.state and cached[1] == seat:
            return list(cached[2])
        view = game.view(t.state, seat)
        choices = menu_order(
            [Choice(a, game.label(view, a), game.group(view, a)) for a in game.legal_actions(t.state, seat)]
        )
        t.choices_for = (t.state, seat, choices)
        return list(choices)

    @guarded
    async def hand(self, caller: Caller) -> Outputs:
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running" or t.state is None:
            return Outputs(ok=False, reply="No game is running in this channel.")
        game = t.game
        seat = t.seat_of(caller.user_id)
        public = game.view(t.state, None)
        if seat is None:
            image = await self.pictures.render(t.game_id, public, None)
            return Outputs(reply="You have no seat here; this is the public board.", reply_image=image)
        mine = game.view(t.state, seat)
        text = self._private_summary(game, public, mine, seat) or "You hold nothing secret right now."
        image = await self.pictures.render(t.game_id, mine, seat)
        return Outputs(reply=clip(f"Your private view ({t.who(seat)}):\n{text}"), reply_image=image)

    @guarded
    async def dm_failed(self, channel_id: int, user_id: int) -> Outputs:
        tid = self._active.get(channel_id, self._last.get(channel_id))
        t = None if tid is None else self._tables.get(tid)
        if t is None:
            return Outputs(ok=False)
        async with t.lock:
            hit = [s for s in t.seats if s.user_id == user_id and s.reachable]
            if not hit:
                return Outputs(channel_id=channel_id)
            for s in hit:
                s.reachable = False
            await self.store.save_seats(t.id, t.seats, self.clock())
            name = hit[0].name
            text = (
                f"{name}, I couldn't send you a direct message (your DMs seem closed). "
                "Use /hand or the “My hand” button to see your private view here."
            )
            return Outputs(public=[self._note(t, text, [user_id])], channel_id=channel_id)

    # -- time ----------------------------------------------------------------------------------------
    async def tick(self) -> list[Outputs]:
        """Close idle lobbies, send half-time reminders, take timed-out moves, and let AI seats move that
        still owe one (after a restart). Called periodically by the transport."""
        outs: list[Outputs] = []
        for t in list(self._tables.values()):
            try:
                out = await self._tick_table(t)
            except Exception as exc:  # noqa: BLE001 - one table's failure must not stop the others' timers
                self.internal_errors += 1
                log.error("tick failed on table %s: %s", t.id, type(exc).__name__)
                continue
            if out is not None:
                outs.append(out)
        return outs

    async def _tick_table(self, t: _Table) -> Outputs | None:
        now = self.clock()
        if t.status == "lobby" and now - t.updated >= LOBBY_IDLE_SECONDS:
            async with t.lock:
                if t.status != "lobby":
                    return None
                await self._abandon(t)
                return Outputs(
                    public=[
                        self._note(t, f"The {t.game.info.title} lobby (table {t.id}) closed after 30 idle minutes.")
                    ],
                    channel_id=t.channel_id,
                )
        if t.status != "running":
            return None
        if not t.loaded and not self._tick_due(t, now):
            return None  # nothing falls due: the table stays unloaded
        async with t.lock:
            if t.status != "running" or t.state is None:
                return None
            game = t.game
            batch = _Batch()
            await self._run_ais(t, batch)
            settings = await self._guild_settings(t.guild_id)
            for seat, d in sorted(t.deadlines.items()):
                if t.status != "running":
                    break
                if now >= d.due:
                    await self._time_out(t, seat, settings["ai_takeover"], batch)
                elif not d.reminded and now >= d.started + (d.due - d.started) / 2:
                    d.reminded = True
                    await self.store.set_deadlines(t.id, list(t.deadlines.values()))
                    s = t.seats[seat]
                    left = duration(d.due - now)
                    text = f"⏳ {s.name}, it's your turn at the {game.info.title} table (table {t.id}); {left} left."
                    if s.reachable and s.user_id is not None:
                        batch.dm(int(s.user_id), None, [text])
                    else:
                        batch.note(self._note(t, text, [int(s.user_id)] if s.user_id is not None else []))
            if batch.empty():
                return None
            return await self._flush(t, batch)

    @staticmethod
    def _tick_due(t: _Table, now: float) -> bool:
        """Whether a tick has work at a running table: an AI seat owes a move, or a deadline or its half-time
        reminder falls due (the conditions :meth:`_tick_table` acts on)."""
        if t.state is None:
            return False
        if any(t.seats[s].ai_level is not None for s in t.game.to_act(t.state)):
            return True
        return any(
            now >= d.due or (not d.reminded and now >= d.started + (d.due - d.started) / 2)
            for d in t.deadlines.values()
        )

    async def _time_out(self, t: _Table, seat: int, takeover: bool, batch: _Batch) -> None:
        """The seat's whole remaining turn is decided for it: by the AI, or the game's documented default."""
        game = t.game
        name = t.seats[seat].name
        how = "the AI moves for them" if takeover else "the default move is applied"
        prefix = f"⏰ {name} ran out of time; {how}. "
        for _ in range(MAX_AI_STEPS):
            if t.status != "running" or t.state is None or seat not in game.to_act(t.state):
                break
            if t.seats[seat].ai_level is not None:
                break
            action = self._ai_action(t, seat, AI_TAKEOVER_LEVEL) if takeover else game.timeout_action(t.state, seat)
            await self._commit(t, seat, action, by_ai=True, user_id=None, batch=batch, prefix=prefix)
            prefix = ""
        await self._run_ais(t, batch)
