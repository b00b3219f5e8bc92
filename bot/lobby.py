"""Lobby commands: open a table, take and leave seats, add AI players, start, end; and retiring a table."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable

from bot.aipool import MAX_SECONDS, MIN_SECONDS, seat_level
from bot.api import Caller, Outputs, Post, guarded
from bot.outputs import clip, defang, outcome_text, quote, seat_label
from bot.posts import Batch
from bot.store import SeatRow, Store
from bot.table import Table
from bot.workers import trim_heap
from rules import registry
from rules.core import AI_LEVELS, IllegalAction

log = logging.getLogger("parley.tables")
#: a lobby nobody touches for this long closes itself
LOBBY_IDLE_SECONDS = 30 * 60
#: finished tables kept in memory, the most recently used (each channel's last one answers its buttons and
#: /rules); the others are reloaded from the store when asked for
FINISHED_KEPT = 100


class LobbyMixin:
    """Part of :class:`bot.tables.TableHost`: the lobby and a table's end."""

    store: Store
    clock: Callable[[], float]
    _rand: random.Random
    _tables: dict[int, Table]
    _active: dict[int, int]
    _last: dict[int, int]
    _finished: OrderedDict[int, int]  # finished table id -> its channel, least recently used first
    _open_lock: asyncio.Lock
    ai_takeover_level: str

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
            t = Table(
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

    def _free_seat(self, t: Table, wanted: int | None) -> int | str:
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
            batch = Batch()
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

    async def _vacate(self, t: Table, seat: int, why: str, *, reply: str) -> Outputs:
        now = self.clock()
        if t.status == "lobby":
            gone = next(s for s in t.seats if s.seat == seat)
            t.seats = [s for s in t.seats if s.seat != seat]
            await self.store.save_seats(t.id, t.seats, now)
            t.updated = now
            if gone.user_id == t.host_id:
                # the host left: the table passes to the next person in seat order, or closes if nobody is left
                heir = await self._hand_on(t, now)
                if heir is None:
                    await self._abandon(t)
                    return self._lobby_out(t, reply + " Nobody else was seated, so the lobby is closed.")
                out = self._lobby_out(t, reply)
                out.public.append(self._note(t, f"{heir.name} is now the table's host.", [t.host_id]))
                return out
            return self._lobby_out(t, reply)
        s = t.seats[seat]
        s.ai_level, s.vacated = self.ai_takeover_level, True
        await self.store.save_seats(t.id, t.seats, now)
        if s.user_id is not None:
            await self.store.revoke_web_links(t.id, int(s.user_id))  # their seat page closes (bot/web/)
        t.deadlines.pop(seat, None)
        await self.store.set_deadlines(t.id, list(t.deadlines.values()))
        batch = Batch()
        batch.note(
            self._note(t, f"{why}; an AI plays seat {seat + 1} ({seat_label(t.game, seat)}) until someone joins it.")
        )
        if s.user_id == t.host_id:
            heir = await self._hand_on(t, now)  # a running table keeps a host who can end it
            if heir is not None:
                batch.note(self._lobby_post(t, edit_only=True))
                batch.note(self._note(t, f"{heir.name} is now the table's host.", [t.host_id]))
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
    async def ai_add(self, caller: Caller, level: str = "normal", seconds: float | None = None) -> Outputs:
        """Add an AI seat; ``seconds`` is a searching level's think time a decision at this table (else the
        host's default, ``PARLEY_AI_SECONDS``)."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel. Open one with /table open.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can add AI players.")
        level = level.strip().lower()
        if level not in AI_LEVELS:
            return Outputs(ok=False, reply=f"AI levels: {', '.join(AI_LEVELS)}.")
        if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return Outputs(
                ok=False, reply=f"An AI may think from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds a decision."
            )
        async with t.lock:
            if t.status != "lobby":
                return Outputs(ok=False, reply="AI seats are added in the lobby, before /table start.")
            got = self._free_seat(t, None)
            if isinstance(got, str):
                return Outputs(ok=False, reply=got)
            n_ai = sum(1 for s in t.seats if s.ai_level) + 1
            stored = seat_level(level, seconds)
            shown = level if stored == level else f"{level}, {seconds:g} s"
            t.seats.append(SeatRow(got, None, f"AI {n_ai} ({shown})", stored))
            t.seats.sort(key=lambda s: s.seat)
            now = self.clock()
            await self.store.save_seats(t.id, t.seats, now)
            t.updated = now
            return self._lobby_out(t, f"Added an AI ({shown}) at seat {got + 1}.")

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
            batch = Batch()
            batch.note(self._lobby_post(t, edit_only=True))  # the lobby post now says the game is on, and who plays
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
                public=[
                    self._lobby_post(t, edit_only=True),
                    self._note(t, f"{caller.name} ended table {t.id}; it is recorded as abandoned."),
                ],
                channel_id=t.channel_id,
            )

    async def _abandon(self, t: Table) -> None:
        now = self.clock()
        await self.store.set_status(t.id, "abandoned", now)
        t.status, t.updated = "abandoned", now
        t.deadlines.clear()
        self._retire(t)

    def _retire(self, t: Table) -> None:
        """A table that ended leaves its channel free and keeps only what a finished table needs: its picker,
        undo and turn caches are dropped (they can be most of a table's memory), and it stays in memory only
        among the :data:`FINISHED_KEPT` most recently used finished tables."""
        if self._active.get(t.channel_id) == t.id:
            del self._active[t.channel_id]
        t.choices_for, t.undo_stack, t.turn_lines, t.acted, t.deadlines = None, [], [], {}, {}
        old = self._last.get(t.channel_id)
        if old is not None and old != t.id:
            self._forget(old)
        self._last[t.channel_id] = t.id
        self._finished[t.id] = t.channel_id
        self._finished.move_to_end(t.id)
        while len(self._finished) > FINISHED_KEPT:
            self._forget(next(iter(self._finished)))
        # a game's end frees its turn caches and often a whole table; glibc would keep those pages, and a bot
        # that ends thousands of games would look as if it leaked
        trim_heap()

    def _forget(self, table_id: int) -> None:
        """A finished table out of memory (the store still has all of it)."""
        self._tables.pop(table_id, None)
        channel = self._finished.pop(table_id, None)
        if channel is not None and self._last.get(channel) == table_id:
            del self._last[channel]

    async def _hand_on(self, t: Table, now: float) -> SeatRow | None:
        """The host left: the next person seated (in seat order) hosts the table now; None if nobody is left."""
        heir = next((s for s in t.seats if s.ai_level is None and s.user_id is not None and s.user_id != t.host_id), None)
        if heir is not None:
            t.host_id = int(heir.user_id)  # type: ignore[arg-type]
            await self.store.set_host(t.id, t.host_id, now)
        return heir

    # -- the lobby post: one message per table, edited as the table changes --------------------------------
    def _lobby_text(self, t: Table) -> str:
        """The lobby post as the table is now: its seats while it gathers; once started, who plays what; at the
        end, how it ended. Colours (ports, roles) are named only for a game that deals them by seat order."""
        game = t.game
        names = game.info.seat_names
        opts = ", ".join(f"{k}: {v}" for k, v in t.options.items()) or "none"
        head = f"**{game.info.title}** · table {t.id}"
        seats = sorted(t.seats, key=lambda s: s.seat)
        if t.status == "lobby":
            lines = [
                f"{head} · lobby · options: {opts}",
                f"Seats ({len(t.seats)} of {game.info.min_players}–{game.info.max_players}):",
            ]
            for rank, s in enumerate(seats):
                kind = s.name  # an AI seat's name says its level and any think time of its own ("AI 1 (hard, 3 s)")
                # the colour this seat gets at the start: a game that has colours deals them in seat order
                colour = f" — {names[rank]}" if rank < len(names) else ""
                lines.append(f"  {s.seat + 1}. {kind}{colour}")
            lines += [f"💡 {note}" for note in game.lobby_notes(len(t.seats), t.options)]  # the game's advice
            host = next((s.name for s in t.seats if s.user_id == t.host_id and s.ai_level is None), None)
            order = (
                "Seats are played in this order; the game's colours follow it."
                if names
                else "Seats are played in this order."
            )
            lines.append(
                f"Host: {host or 'the opener'}. Join with /table join; the host or a moderator starts with /table start."
                f" {order}"
            )
            return "\n".join(lines)
        if t.state is None:
            return f"{head} · closed before the start."
        who = ", ".join(t.who(s.seat) for s in seats)
        if t.status == "running":
            host = next((s.name for s in seats if s.user_id == t.host_id and s.ai_level is None), "a moderator")
            return (
                f"{head} · started · options: {opts}\nPlaying: {who}.\nHost: {host}."
                " The board is below; /table status shows it again."
            )
        if t.status == "finished":
            outcome = game.outcome(t.state)
            result = outcome_text(game, outcome, [t.who(s.seat) for s in seats]).splitlines()[0] if outcome else ""
            return f"{head} · finished\nPlayed by: {who}.\n{result}\n/table history has the whole record."
        return f"{head} · ended early (abandoned)\nPlayed by: {who}.\n/table history has the record."

    def _lobby_post(self, t: Table, *, edit_only: bool = False) -> Post:
        return Post(text=clip(self._lobby_text(t)), board_key=f"{t.id}:lobby", table_id=t.id, edit_only=edit_only)

    def _lobby_out(self, t: Table, reply: str) -> Outputs:
        # one lobby message, edited as seats fill (same board_key)
        return Outputs(reply=reply, public=[self._lobby_post(t)], channel_id=t.channel_id)

    async def _recent(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table, else its last finished one, reloaded from the store (seats, no
        game state) when it is no longer in memory."""
        tid = self._active.get(channel_id, self._last.get(channel_id))
        if tid is not None and tid in self._tables:
            return self._tables[tid]
        row = await self.store.last_table_in(channel_id)
        if row is None or row.status not in ("finished", "abandoned") or channel_id in self._active:
            return None
        t = Table.from_row(row, await self.store.seats(row.id))
        self._tables[t.id] = t
        self._retire(t)
        return t
