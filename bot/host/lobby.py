"""Lobby commands: open a table, take and leave seats, add AI players, start, end; and retiring a table."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable

from bot.host.api import Caller, Outputs, Post, guarded
from bot.host.outputs import clip, defang, escape_name, outcome_text, quote, seat_label
from bot.host.posts import Batch
from bot.host.table import Table
from bot.infra.aipool import MAX_SECONDS, MIN_SECONDS, seat_level
from bot.infra.store import KickRow, SeatRow, Store
from bot.infra.workers import trim_heap
from rules import registry
from rules.core import AI_LEVELS, IllegalAction

log = logging.getLogger("parley.tables")
#: a lobby nobody touches for this long closes itself
LOBBY_IDLE_SECONDS = 30 * 60
#: finished tables kept in memory, the most recently used (each channel's last one answers its buttons and
#: /rules); the others are reloaded from the store when asked for
FINISHED_KEPT = 100
#: a Discord id (a snowflake) is a positive 63-bit integer; anything else names nobody
MAX_USER_ID = 2**63 - 1


class LobbyMixin:
    """Part of :class:`bot.host.tables.TableHost`: the lobby and a table's end."""

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
        if not seat and not caller.moderator:
            return Outputs(
                ok=False,
                reply="Only moderators may host a table without playing at it; open it with a seat, or ask one of them.",
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
            seats = [SeatRow(0, caller.user_id, caller.name, None)] if seat else []
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
                host_name=caller.name,
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
                host_name=caller.name,
            )
            self._tables[tid] = t
            self._active[caller.channel_id] = tid
        log.info("table %s opened (%s) in channel %s", tid, game.info.id, caller.channel_id)
        if not seat:
            return self._lobby_out(
                t,
                f"Opened a {game.info.title} table; you host it without a seat. Players join with /table join;"
                " you add AI players, start and end it, and /table host hands it on.",
            )
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
            await self._members(t)
            if caller.user_id in (t.kicked or {}):
                return Outputs(
                    ok=False,
                    reply="You were removed from this table, so you cannot sit at it again while its game runs;"
                    " a moderator can let you back with /table unkick.",
                )
            if t.status == "lobby":
                got = self._free_seat(t, seat)
                if isinstance(got, str):
                    return Outputs(ok=False, reply=got)
                t.seats.append(SeatRow(got, caller.user_id, caller.name, None))
                t.seats.sort(key=lambda s: s.seat)
                await self.store.save_seats(t.id, t.seats, now)
                t.updated = now
                return self._lobby_out(t, f"You have seat {got + 1}.")
            vacant = self._open_seats(t, caller.user_id)
            held = sorted(t.held(caller.user_id))
            # a seat's private view is only ever its own player's: who has seen one is never given another
            mine = f"seat {held[0] + 1} ({seat_label(t.game, held[0], t.public_view())})" if held else ""
            if held and not vacant:
                return Outputs(
                    ok=False,
                    reply=f"You played {mine} in this game and someone else plays it now; a player never takes"
                    " another seat (its hand is not theirs to see), so you can watch.",
                )
            if seat is not None and seat not in vacant:
                if held:
                    return Outputs(
                        ok=False,
                        reply=f"You played {mine} in this game, so it is the only seat you may take: another seat's"
                        " hand is not yours to see.",
                    )
                return Outputs(
                    ok=False,
                    reply=f"Seat {seat + 1} is not free. Free seats: {', '.join(str(v + 1) for v in vacant) or 'none'}.",
                )
            if not vacant:
                return Outputs(ok=False, reply="The game is running and every seat is taken; you can watch.")
            target = seat if seat is not None else vacant[0]
            s = t.seats[target]
            # the player a take-over replaces in the seat row is remembered: they saw this seat's private view
            replaced = [(target, int(s.user_id))] if s.user_id is not None and s.user_id != caller.user_id else []
            s.user_id, s.name, s.ai_level, s.vacated, s.reachable = caller.user_id, caller.name, None, False, True
            await self.store.save_seats(t.id, t.seats, now, held=replaced)
            assert t.replaced is not None  # loaded by _members above
            for seat_no, user in replaced:
                t.replaced.setdefault(user, set()).add(seat_no)
            batch = Batch()
            to_act = tuple(t.game.to_act(t.state))
            await self.store.set_deadlines(t.id, await self._arm(t, to_act, to_act, force=[target]))
            batch.note(
                self._note(t, f"{escape_name(caller.name)} takes over seat {target + 1} ({seat_label(t.game, target)}).")
            )
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
            # a moderator who hosts keeps hosting without a seat: the host's rights never pass to a player unasked
            keep = caller.moderator and caller.user_id == t.host_id
            reply = "You left the table."
            if keep:
                reply += " You still host it: /table host hands it on, /table end ends it."
            return await self._vacate(t, seat, f"{escape_name(caller.name)} left", reply=reply, keep_host=keep)

    async def _vacate(
        self,
        t: Table,
        seat: int,
        why: str,
        *,
        reply: str,
        kick: KickRow | None = None,
        by: Caller | None = None,
        keep_host: bool = False,
    ) -> Outputs:
        """Empty a seat: a lobby seat goes, a running game's seat is played by an AI until someone takes it over.
        A ``kick`` is stored with it. If its player hosted the table, the host's rights go to the moderator who
        kicked them (``by``), stay with a leaving moderator (``keep_host``), or else pass to the next person seated."""
        now = self.clock()
        gone = next(s for s in t.seats if s.seat == seat)
        was_host = gone.user_id == t.host_id
        if t.status == "lobby":
            t.seats = [s for s in t.seats if s.seat != seat]
            await self.store.save_seats(t.id, t.seats, now, kick=kick)
            t.updated = now
            note = await self._host_after(t, now, by=by) if was_host and not keep_host else None
            if note is False:
                await self._abandon(t)
                return self._lobby_out(t, reply + " Nobody else was seated, so the lobby is closed.")
            out = self._lobby_out(t, reply)
            if isinstance(note, Post):
                out.public.append(note)
            return out
        s = t.seats[seat]
        s.ai_level, s.vacated = self.ai_takeover_level, True
        await self.store.save_seats(t.id, t.seats, now, kick=kick)
        if s.user_id is not None:
            await self.store.revoke_web_links(t.id, int(s.user_id))  # their seat page closes (bot/transports/web/)
        t.deadlines.pop(seat, None)
        await self.store.set_deadlines(t.id, list(t.deadlines.values()))
        batch = Batch()
        batch.note(
            self._note(t, f"{why}; an AI plays seat {seat + 1} ({seat_label(t.game, seat)}) until someone joins it.")
        )
        if was_host and not keep_host:
            note = await self._host_after(t, now, by=by)  # a running table keeps a host who can end it
            if isinstance(note, Post):
                batch.note(self._lobby_post(t, edit_only=True))
                batch.note(note)
        elif was_host:
            batch.note(self._lobby_post(t, edit_only=True))  # the lobby post says the host plays no more
        await self._run_ais(t, batch)
        return await self._flush(t, batch, reply=reply)

    async def _host_after(self, t: Table, now: float, *, by: Caller | None) -> Post | bool:
        """The host's seat was emptied: a moderator who kicked them hosts now; else the next person seated does.
        The channel's note of it, or False when nobody is left to host."""
        if by is not None and by.moderator:
            await self._set_host(t, by.user_id, by.name, now)
            return self._note(t, f"{escape_name(by.name)} now hosts the table.")
        heir = await self._hand_on(t, now)
        if heir is None:
            return False
        return self._note(t, f"{escape_name(heir.name)} is now the table's host.", [t.host_id])

    async def _set_host(self, t: Table, user_id: int, name: str, now: float) -> None:
        t.host_id, t.host_name = user_id, name
        await self.store.set_host(t.id, user_id, now, name)

    async def _members(self, t: Table) -> None:
        """Load who may sit where (kicks, players replaced in their seats) the first time a table needs it."""
        if t.kicked is None:
            t.kicked = await self.store.kicks(t.id)
        if t.replaced is None:
            replaced: dict[int, set[int]] = {}
            for seat, user in await self.store.seat_history(t.id):
                replaced.setdefault(user, set()).add(seat)
            t.replaced = replaced

    @staticmethod
    def _open_seats(t: Table, user_id: int) -> list[int]:
        """The seats of a running game ``user_id`` may take over: those an AI keeps for a player who left, and of
        those, for someone who has held a seat of this game, only their own (needs :meth:`_members` loaded)."""
        vacant = [s.seat for s in t.seats if s.vacated and s.ai_level is not None]
        held = t.held(user_id)
        return [v for v in vacant if v in held] if held else vacant

    async def seats_open_to(self, caller: Caller) -> list[int]:
        """The seats the caller may take at the channel's running game (``/table join``'s suggestions)."""
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running":
            return []
        await self._members(t)
        if caller.user_id in (t.kicked or {}) or t.seat_of(caller.user_id) is not None:
            return []
        return self._open_seats(t, caller.user_id)

    @guarded
    async def kick(self, caller: Caller, user_id: int, name: str | None = None) -> Outputs:
        """Remove a member from the table for good (while it lasts): their seat, if they hold one, is emptied
        (played by an AI in a running game), and they may not sit at the table again until a moderator (or the
        host, for a kick of their own) lifts it with :meth:`unkick`. ``name`` is the member's, for the replies."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can kick a player.")
        if not 0 < user_id <= MAX_USER_ID:
            return Outputs(ok=False, reply="That is not a member of this server.")
        if user_id == caller.user_id:
            return Outputs(ok=False, reply="You cannot kick yourself; /table leave gives up your seat.")
        async with t.lock:
            await self._members(t)
            assert t.kicked is not None
            seat = t.seat_of(user_id)
            shown = escape_name(t.row(seat).name if seat is not None else name or "That member")
            if user_id in t.kicked:
                return Outputs(ok=False, reply=f"{shown} is already kicked from this table; /table unkick lets them back.")
            kick = KickRow(user_id, caller.user_id, caller.moderator, self.clock())
            if seat is None:
                await self.store.save_seats(t.id, t.seats, kick.at, kick=kick)
                t.kicked[user_id] = kick
                return Outputs(
                    reply=f"{shown} holds no seat here and now cannot take one at this table while its game runs"
                    " (/table unkick lets them back).",
                    channel_id=t.channel_id,
                )
            out = await self._vacate(
                t,
                seat,
                f"{shown} was removed by {escape_name(caller.name)}",
                reply=f"{shown} was removed and cannot sit at this table again while its game runs"
                " (/table unkick lets them back).",
                kick=kick,
                by=caller,
            )
            t.kicked[user_id] = kick
            return out

    @guarded
    async def unkick(self, caller: Caller, user_id: int, name: str | None = None) -> Outputs:
        """Lift a kick: the member may sit at the table again (a running game's seat only their own, as ever). A
        moderator's kick is lifted only by a moderator; the host may lift their own."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can let a kicked member back.")
        shown = escape_name(name or "That member")
        async with t.lock:
            await self._members(t)
            assert t.kicked is not None
            kick = t.kicked.get(user_id)
            if kick is None:
                return Outputs(ok=False, reply=f"{shown} is not kicked from this table.")
            if kick.by_moderator and not caller.moderator:
                return Outputs(ok=False, reply=f"A moderator kicked {shown}; only a moderator can let them back.")
            await self.store.lift_kick(t.id, user_id)
            del t.kicked[user_id]
            return Outputs(
                reply=f"{shown} may sit at this table again.",
                public=[self._note(t, f"{escape_name(caller.name)} let {shown} sit at this table again.")],
                channel_id=t.channel_id,
            )

    @guarded
    async def hand_host(self, caller: Caller, user_id: int, name: str | None = None) -> Outputs:
        """``/table host``: the host (or a moderator) makes another member the table's host: a player seated at
        it, or, when a moderator hands it on, anyone who is not kicked from it."""
        t = self._active_table(caller.channel_id)
        if t is None:
            return Outputs(ok=False, reply="There is no table in this channel.")
        if not self._may_run(t, caller):
            return Outputs(ok=False, reply="Only the table's host or a moderator can hand the table on.")
        if not 0 < user_id <= MAX_USER_ID:
            return Outputs(ok=False, reply="That is not a member of this server.")
        async with t.lock:
            await self._members(t)
            seat = t.seat_of(user_id)
            full = t.row(seat).name if seat is not None else name or "That member"
            shown = escape_name(full)
            if user_id == t.host_id:
                return Outputs(ok=False, reply=f"{shown} already hosts this table.")
            if user_id in (t.kicked or {}):
                return Outputs(ok=False, reply=f"{shown} is kicked from this table; /table unkick first.")
            if seat is None and not caller.moderator:
                return Outputs(ok=False, reply="The table can only be handed to a player seated at it.")
            now = self.clock()
            await self._set_host(t, user_id, full, now)
            t.updated = now
            note = self._note(t, f"{escape_name(caller.name)} handed the table to {shown}, who hosts it now.", [user_id])
            if t.status == "lobby":
                out = self._lobby_out(t, f"{shown} hosts the table now.")
                out.public.append(note)
                return out
            return Outputs(
                reply=f"{shown} hosts the table now.",
                public=[self._lobby_post(t, edit_only=True), note],
                channel_id=t.channel_id,
            )

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
                    self._note(t, f"{escape_name(caller.name)} ended table {t.id}; it is recorded as abandoned."),
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
            await self._set_host(t, int(heir.user_id), heir.name, now)  # type: ignore[arg-type]
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
                # an AI seat's name says its level and any think time of its own ("AI 1 (hard, 3 s)")
                kind = escape_name(s.name)
                # the colour this seat gets at the start: a game that has colours deals them in seat order
                colour = f" — {names[rank]}" if rank < len(names) else ""
                lines.append(f"  {s.seat + 1}. {kind}{colour}")
            lines += [f"💡 {note}" for note in game.lobby_notes(len(t.seats), t.options)]  # the game's advice
            order = (
                "Seats are played in this order; the game's colours follow it."
                if names
                else "Seats are played in this order."
            )
            lines.append(
                f"Host: {self._host_text(t)}. Join with /table join; the host or a moderator starts with /table start."
                f" {order}"
            )
            return "\n".join(lines)
        if t.state is None:
            return f"{head} · closed before the start."
        who = ", ".join(t.who(s.seat) for s in seats)
        if t.status == "running":
            return (
                f"{head} · started · options: {opts}\nPlaying: {who}.\nHost: {self._host_text(t)}."
                " The board is below; /table status shows it again."
            )
        if t.status == "finished":
            outcome = game.outcome(t.state)
            result = outcome_text(game, outcome, [t.who(s.seat) for s in seats]).splitlines()[0] if outcome else ""
            return f"{head} · finished\nPlayed by: {who}.\n{result}\n/table history has the whole record."
        return f"{head} · ended early (abandoned)\nPlayed by: {who}.\n/table history has the record."

    @staticmethod
    def _host_text(t: Table) -> str:
        """Who hosts the table, as the lobby post says it: their name, marked when they hold no seat."""
        seated = next((s.name for s in t.seats if s.user_id == t.host_id and s.ai_level is None), None)
        if seated is not None:
            return escape_name(seated)
        return f"{escape_name(t.host_name)} (not playing)" if t.host_name else "a moderator"

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
