"""Lobby commands: open a table, take and leave seats, kick, hand the table on, add AI players, start, end."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from bot.host.api import Caller, Outputs, Post
from bot.host.guild import GuildSettings
from bot.host.index import TableIndex
from bot.host.messages import refuse, say
from bot.host.narration import Narration
from bot.host.outputs import clip, defang, escape_name, quote, seat_label
from bot.host.posts import Batch, lobby_out, lobby_post, note, pend_board, private_post
from bot.host.table import Table
from bot.host.turns import Turns
from bot.infra.aipool import MAX_SECONDS, MIN_SECONDS, seat_level
from bot.infra.store import KickRow, SeatRow, Store
from rules import registry
from rules.core import AI_LEVELS, IllegalAction

log = logging.getLogger("parley.tables")
#: a lobby nobody touches for this long closes itself
LOBBY_IDLE_SECONDS = 30 * 60
#: a Discord id (a snowflake) is a positive 63-bit integer; anything else names nobody
MAX_USER_ID = 2**63 - 1


class Lobby:
    """The lobby and who sits where. Commands but :meth:`open` take the table their runner found, checked and
    locked (:mod:`bot.host.commands`)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        rand: random.Random,
        index: TableIndex,
        settings: GuildSettings,
        turns: Turns,
        narration: Narration,
        ai_takeover_level: str,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rand = rand
        self.index = index
        self.settings = settings
        self.turns = turns
        self.narration = narration
        #: the level an AI plays a seat its player left at
        self.ai_takeover_level = ai_takeover_level

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
            return refuse("no_such_game", game=quote(game_id), games=", ".join(registry.game_ids()))
        if any(len(str(k)) > 100 or len(str(v)) > 100 for k, v in (options or {}).items()):
            # an autocompleted option is free text: never quote a huge one back
            return refuse("not_options", title=game.info.title)
        try:
            opts = game.resolve_options(options)
        except IllegalAction as exc:
            return Outputs(ok=False, reply=clip(defang(exc.message)))
        settings = await self.settings.get(caller.guild_id)
        if not (caller.moderator or settings["anyone_can_open"]):
            return refuse("open_needs_moderator")
        if not seat and not caller.moderator:
            return refuse("host_without_seat")
        async with self.index.open_lock:
            if self.index.active(caller.channel_id) is not None:
                return refuse("channel_has_table")
            now = self.clock()
            seed = seed if seed is not None else f"{self.rand.getrandbits(64):016x}"
            ai_seed = f"{self.rand.getrandbits(64):016x}"
            seats = [SeatRow(0, caller.user_id, caller.name, None)] if seat else []
            tid = await self.store.tables.create(
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
            self.index.add(t)
        log.info("table %s opened (%s) in channel %s", tid, game.info.id, caller.channel_id)
        if not seat:
            return lobby_out(
                t,
                f"Opened a {game.info.title} table; you host it without a seat. Players join with /table join;"
                " you add AI players, start and end it, and /table host hands it on.",
            )
        return lobby_out(t, f"Opened a {game.info.title} table; you have seat 1.")

    def _free_seat(self, t: Table, wanted: int | None) -> int | str:
        game = t.game
        taken = {s.seat for s in t.seats}
        if wanted is not None:
            if not 0 <= wanted < game.info.max_players:
                return say("seat_range", seats=game.info.max_players)
            if wanted in taken:
                free = [str(i + 1) for i in range(game.info.max_players) if i not in taken]
                return say("seat_taken", seat=wanted + 1, free=", ".join(free) or "none")
            return wanted
        for i in range(game.info.max_players):
            if i not in taken:
                return i
        return say("table_full", seats=game.info.max_players)

    async def join(self, caller: Caller, t: Table, seat: int | None = None) -> Outputs:
        """Take a lobby seat (``seat`` 0-based, optional), or take over an AI-played seat of a running game."""
        now = self.clock()
        if t.seat_of(caller.user_id) is not None:
            return refuse("already_seated", seat=t.seat_of(caller.user_id) + 1)
        await self._members(t)
        if caller.user_id in (t.kicked or {}):
            return refuse("kicked_cannot_join")
        if t.status == "lobby":
            got = self._free_seat(t, seat)
            if isinstance(got, str):
                return Outputs(ok=False, reply=got)
            t.seats.append(SeatRow(got, caller.user_id, caller.name, None))
            t.seats.sort(key=lambda s: s.seat)
            await self.store.seats.save(t.id, t.seats, now)
            t.updated = now
            return lobby_out(t, f"You have seat {got + 1}.")
        vacant = self._open_seats(t, caller.user_id)
        held = sorted(t.held(caller.user_id))
        # a seat's private view is only ever its own player's: who has seen one is never given another
        mine = f"seat {held[0] + 1} ({seat_label(t.game, held[0], t.public_view())})" if held else ""
        if held and not vacant:
            return refuse("played_another_seat", mine=mine)
        if seat is not None and seat not in vacant:
            if held:
                return refuse("only_your_old_seat", mine=mine)
            return refuse("seat_not_free", seat=seat + 1, free=", ".join(str(v + 1) for v in vacant) or "none")
        if not vacant:
            return refuse("every_seat_taken")
        target = seat if seat is not None else vacant[0]
        s = t.seats[target]
        # the player a take-over replaces in the seat row is remembered: they saw this seat's private view
        replaced = [(target, int(s.user_id))] if s.user_id is not None and s.user_id != caller.user_id else []
        s.user_id, s.name, s.ai_level, s.vacated, s.reachable = caller.user_id, caller.name, None, False, True
        await self.store.seats.save(t.id, t.seats, now, held=replaced)
        assert t.replaced is not None  # loaded by _members above
        for seat_no, user in replaced:
            t.replaced.setdefault(user, set()).add(seat_no)
        batch = Batch()
        to_act = tuple(t.game.to_act(t.state))
        await self.store.tables.set_deadlines(t.id, await self.turns.arm(t, to_act, to_act, force=[target]))
        batch.note(
            note(t, f"{escape_name(caller.name)} takes over seat {target + 1} ({seat_label(t.game, target)}).")
        )
        private_post(t, target, [say("your_view")], batch)
        t.turn_key = f"{t.id}:{t.state_no}:j"
        t.turn_lines = []
        pend_board(t, batch)
        return await self.narration.flush(t, batch, reply=f"You now play seat {target + 1}.")

    async def leave(self, caller: Caller, t: Table) -> Outputs:
        seat = t.seat_of(caller.user_id)
        if seat is None:
            return refuse("no_seat")
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
            await self.store.seats.save(t.id, t.seats, now, kick=kick)
            t.updated = now
            heir = await self._host_after(t, now, by=by) if was_host and not keep_host else None
            if heir is False:
                await self.index.abandon(t)
                return lobby_out(t, reply + " Nobody else was seated, so the lobby is closed.")
            out = lobby_out(t, reply)
            if isinstance(heir, Post):
                out.public.append(heir)
            return out
        s = t.seats[seat]
        s.ai_level, s.vacated = self.ai_takeover_level, True
        await self.store.seats.save(t.id, t.seats, now, kick=kick)
        if s.user_id is not None:
            await self.store.web.revoke(t.id, int(s.user_id))  # their seat page closes (bot/transports/web/)
        t.deadlines.pop(seat, None)
        await self.store.tables.set_deadlines(t.id, list(t.deadlines.values()))
        batch = Batch()
        batch.note(
            note(t, f"{why}; an AI plays seat {seat + 1} ({seat_label(t.game, seat)}) until someone joins it.")
        )
        if was_host and not keep_host:
            heir = await self._host_after(t, now, by=by)  # a running table keeps a host who can end it
            if isinstance(heir, Post):
                batch.note(lobby_post(t, edit_only=True))
                batch.note(heir)
        elif was_host:
            batch.note(lobby_post(t, edit_only=True))  # the lobby post says the host plays no more
        await self.turns.run_ais(t, batch)
        return await self.narration.flush(t, batch, reply=reply)

    async def _host_after(self, t: Table, now: float, *, by: Caller | None) -> Post | bool:
        """The host's seat was emptied: a moderator who kicked them hosts now; else the next person seated does.
        The channel's note of it, or False when nobody is left to host."""
        if by is not None and by.moderator:
            await self._set_host(t, by.user_id, by.name, now)
            return note(t, f"{escape_name(by.name)} now hosts the table.")
        heir = await self._hand_on(t, now)
        if heir is None:
            return False
        return note(t, f"{escape_name(heir.name)} is now the table's host.", [t.host_id])

    async def _set_host(self, t: Table, user_id: int, name: str, now: float) -> None:
        t.host_id, t.host_name = user_id, name
        await self.store.tables.set_host(t.id, user_id, now, name)

    async def _members(self, t: Table) -> None:
        """Load who may sit where (kicks, players replaced in their seats) the first time a table needs it."""
        if t.kicked is None:
            t.kicked = await self.store.seats.kicks(t.id)
        if t.replaced is None:
            replaced: dict[int, set[int]] = {}
            for seat, user in await self.store.seats.history(t.id):
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
        t = self.index.active(caller.channel_id)
        if t is None or t.status != "running":
            return []
        await self._members(t)
        if caller.user_id in (t.kicked or {}) or t.seat_of(caller.user_id) is not None:
            return []
        return self._open_seats(t, caller.user_id)

    async def kick(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """Remove a member from the table for good (while it lasts): their seat, if they hold one, is emptied
        (played by an AI in a running game), and they may not sit at the table again until a moderator (or the
        host, for a kick of their own) lifts it with :meth:`unkick`. ``name`` is the member's, for the replies."""
        if not 0 < user_id <= MAX_USER_ID:
            return refuse("not_a_member")
        if user_id == caller.user_id:
            return refuse("kick_yourself")
        await self._members(t)
        assert t.kicked is not None
        seat = t.seat_of(user_id)
        shown = escape_name(t.row(seat).name if seat is not None else name or "That member")
        if user_id in t.kicked:
            return refuse("already_kicked", who=shown)
        kick = KickRow(user_id, caller.user_id, caller.moderator, self.clock())
        if seat is None:
            await self.store.seats.save(t.id, t.seats, kick.at, kick=kick)
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

    async def unkick(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """Lift a kick: the member may sit at the table again (a running game's seat only their own, as ever). A
        moderator's kick is lifted only by a moderator; the host may lift their own."""
        shown = escape_name(name or "That member")
        await self._members(t)
        assert t.kicked is not None
        kick = t.kicked.get(user_id)
        if kick is None:
            return refuse("not_kicked", who=shown)
        if kick.by_moderator and not caller.moderator:
            return refuse("moderators_kick", who=shown)
        await self.store.seats.lift_kick(t.id, user_id)
        del t.kicked[user_id]
        return Outputs(
            reply=f"{shown} may sit at this table again.",
            public=[note(t, f"{escape_name(caller.name)} let {shown} sit at this table again.")],
            channel_id=t.channel_id,
        )

    async def hand_host(self, caller: Caller, t: Table, user_id: int, name: str | None = None) -> Outputs:
        """``/table host``: the host (or a moderator) makes another member the table's host: a player seated at
        it, or, when a moderator hands it on, anyone who is not kicked from it."""
        if not 0 < user_id <= MAX_USER_ID:
            return refuse("not_a_member")
        await self._members(t)
        seat = t.seat_of(user_id)
        full = t.row(seat).name if seat is not None else name or "That member"
        shown = escape_name(full)
        if user_id == t.host_id:
            return refuse("already_hosts", who=shown)
        if user_id in (t.kicked or {}):
            return refuse("kicked_cannot_host", who=shown)
        if seat is None and not caller.moderator:
            return refuse("host_must_be_seated")
        now = self.clock()
        await self._set_host(t, user_id, full, now)
        t.updated = now
        told = note(t, f"{escape_name(caller.name)} handed the table to {shown}, who hosts it now.", [user_id])
        if t.status == "lobby":
            out = lobby_out(t, f"{shown} hosts the table now.")
            out.public.append(told)
            return out
        return Outputs(
            reply=f"{shown} hosts the table now.",
            public=[lobby_post(t, edit_only=True), told],
            channel_id=t.channel_id,
        )

    async def ai_add(self, caller: Caller, t: Table, level: str = "normal", seconds: float | None = None) -> Outputs:
        """Add an AI seat; ``seconds`` is a searching level's think time a decision at this table (else the
        host's default, ``PARLEY_AI_SECONDS``)."""
        level = level.strip().lower()
        if level not in AI_LEVELS:
            return refuse("ai_levels", levels=", ".join(AI_LEVELS))
        if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return refuse("ai_seconds", low=MIN_SECONDS, high=MAX_SECONDS)
        if t.status != "lobby":
            return refuse("add_ai_in_lobby")
        got = self._free_seat(t, None)
        if isinstance(got, str):
            return Outputs(ok=False, reply=got)
        n_ai = sum(1 for s in t.seats if s.ai_level) + 1
        stored = seat_level(level, seconds)
        shown = level if stored == level else f"{level}, {seconds:g} s"
        t.seats.append(SeatRow(got, None, f"AI {n_ai} ({shown})", stored))
        t.seats.sort(key=lambda s: s.seat)
        now = self.clock()
        await self.store.seats.save(t.id, t.seats, now)
        t.updated = now
        return lobby_out(t, f"Added an AI ({shown}) at seat {got + 1}.")

    async def ai_remove(self, caller: Caller, t: Table) -> Outputs:
        ais = [s for s in t.seats if s.ai_level]
        if not ais:
            return refuse("no_ai_seat")
        gone = ais[-1]
        t.seats.remove(gone)
        now = self.clock()
        await self.store.seats.save(t.id, t.seats, now)
        t.updated = now
        return lobby_out(t, f"Removed the AI at seat {gone.seat + 1}.")

    async def start_table(self, caller: Caller, t: Table) -> Outputs:
        """``/table start``: deal and begin (host or moderator; needs the game's minimum players)."""
        game = t.game
        try:
            game.check_players(len(t.seats))
        except IllegalAction as exc:
            return refuse("too_few_players", why=exc.message)
        # engine seats are dense: keep the chosen order, renumber from 0
        seats = [
            SeatRow(i, s.user_id, s.name, s.ai_level, s.vacated, s.reachable)
            for i, s in enumerate(sorted(t.seats, key=lambda s: s.seat))
        ]
        state = game.new(len(seats), t.options, t.seed)
        now = self.clock()
        await self.store.tables.begin(t.id, seats, game.dump(state), now)
        t.seats, t.state, t.state_no, t.status, t.updated = seats, state, 0, "running", now
        to_act = tuple(game.to_act(state))
        await self.store.tables.set_deadlines(t.id, await self.turns.arm(t, (), to_act))
        t.turn_key, t.turn_to_act = f"{t.id}:0", to_act
        order = ", ".join(t.who(s.seat) for s in seats)
        t.turn_lines = [f"The game begins. Seats: {order}."]
        batch = Batch()
        batch.note(lobby_post(t, edit_only=True))  # the lobby post now says the game is on, and who plays
        for s in seats:
            private_post(t, s.seat, [say("game_begins_view")], batch)
        pend_board(t, batch)
        await self.turns.run_ais(t, batch)
        log.info("table %s started with %d seats", t.id, len(seats))
        return await self.narration.flush(t, batch, reply="The game has started.")

    async def end(self, caller: Caller, t: Table) -> Outputs:
        await self.index.abandon(t)
        return Outputs(
            reply="The table was ended.",
            public=[
                lobby_post(t, edit_only=True),
                note(t, f"{escape_name(caller.name)} ended table {t.id}; it is recorded as abandoned."),
            ],
            channel_id=t.channel_id,
        )

    async def _hand_on(self, t: Table, now: float) -> SeatRow | None:
        """The host left: the next person seated (in seat order) hosts the table now; None if nobody is left."""
        heir = next((s for s in t.seats if s.ai_level is None and s.user_id is not None and s.user_id != t.host_id), None)
        if heir is not None:
            await self._set_host(t, int(heir.user_id), heir.name, now)  # type: ignore[arg-type]
        return heir
