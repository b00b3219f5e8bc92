"""Commands that read a table without changing its game: the channel's table, the board again, the history,
the caller's choices and private view; and marking a player unreachable by DM."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from bot.host.api import SUBMENU, Caller, Choice, LazyChoice, Outputs, Post, SeatInfo, TableSummary, menu_order
from bot.host.health import Health
from bot.host.index import TableIndex
from bot.host.messages import refuse
from bot.host.narration import Narration
from bot.host.outputs import MAX_TEXT, clip, escape_name, seat_label
from bot.host.posts import Batch, lobby_text, note, pend_board, private_summary, with_fine_print
from bot.host.table import Table
from bot.infra.pictures import Pictures
from bot.infra.store import Store, TableRow
from rules import registry
from rules.core import Game, State

log = logging.getLogger("parley.tables")
#: /table status posts the board to the channel again at most once per table in this many seconds
REPOST_SECONDS = 60


def choices_of(t: Table | None, user_id: int, joined: bool = False) -> list[Choice]:
    """The legal actions of ``user_id``'s seat at the running table ``t``, with labels and picker groups, in the
    picker's order; empty if they have no seat. Kept on the table for its current state and seat. Labels and
    descriptions are read only when asked (``LazyChoice``: a picker reads those of the page it shows). With ``joined``
    (the picker), a step the game joins to the next (``Game.joins``) is offered once per next action, as one pick
    (``Choice.then``)."""
    if t is None or t.status != "running" or t.state is None:
        return []
    game = t.game
    seat = t.seat_of(user_id)
    if seat is None:
        return []  # a seat that owes nothing may still have optional actions (a challenge): they are listed
    cached = t.choices_for
    if cached is not None and cached[0] is t.state and cached[1] == (seat, joined):
        return list(cached[2])
    view = game.view(t.state, seat)

    def words(action: str) -> tuple[str, str]:
        # the label and what a card does (the option's description), read only for the options a picker shows
        return game.label(view, action), game.describe(view, action) or ""

    legal = game.legal_actions(t.state, seat)
    listed: list[Choice] = []
    for a, group in zip(legal, game.groups(view, legal), strict=True):
        if joined and game.joins(view, a):
            listed += _joined(game, t.state, seat, view, a)
        else:
            listed.append(LazyChoice(a, group, words))
    choices = menu_order(listed)
    t.choices_for = (t.state, (seat, joined), choices)
    return list(choices)


def _joined(game: Game, state: State, seat: int, view: dict[str, Any], action: str) -> list[Choice]:
    """``action`` joined to each action its seat may take right after it (Buccaneer's ``sail n`` with each
    distance): what the picker offers instead of the step alone. Only a step that draws and shows nothing is joined,
    so the state after it is the seat's own business; the step alone if nothing follows it."""
    after, _ = game.apply(state, seat, action)
    nexts = [b for b in game.legal_actions(after, seat) if b != game.take_back] if seat in game.to_act(after) else []
    group, label = game.group(view, action), game.label(view, action)
    if not nexts:
        return [Choice(action, label, group)]
    later = game.view(after, seat)
    # a menu per first step (each of a harbour's exits: a pick for direction and distance), named as the step is
    menu = label + group.partition(SUBMENU)[1] + group.partition(SUBMENU)[2]
    return [Choice(action, game.label(later, b), menu, f"{action}, then {b}", (b,)) for b in nexts]


class Reading:
    """What a table shows on request. ``dm_failed`` is shared with :class:`bot.host.timers.Timers`: (table, seat)
    -> when a DM to it last failed, so the timers retry it later."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        rand: random.Random,
        health: Health,
        index: TableIndex,
        pictures: Pictures,
        narration: Narration,
        dm_failed: dict[tuple[int, int], float],
    ) -> None:
        self.store = store
        self.clock = clock
        self.rand = rand
        self.health = health
        self.index = index
        self.pictures = pictures
        self.narration = narration
        self.dm_failed_at = dm_failed

    def table_for(self, channel_id: int) -> TableSummary | None:
        """The channel's lobby or running table, else the last one finished here since start-up."""
        t = self.index.shown(channel_id)
        if t is None:
            return None
        if t.id in self.index.finished:
            self.index.finished.move_to_end(t.id)  # recently used: kept longer
        game = t.game
        seats = tuple(
            SeatInfo(s.seat, s.name, s.user_id, s.ai_level, s.reachable)
            for s in t.seats
        )
        to_act = tuple(game.to_act(t.state)) if t.state is not None and t.status == "running" else ()
        return TableSummary(
            t.id, t.guild_id, t.channel_id, t.game_id, t.status, t.host_id, dict(t.options), seats, t.state_no, to_act
        )

    async def status(self, caller: Caller, t: Table, repost: bool = False) -> Outputs:
        """``/table status``: the board, whose turn it is and the last moves, for the caller only (with the board's
        buttons). With ``repost``, a seated player, the host or a moderator also posts the board to the channel
        again, at most once a minute per table and without pinging anyone: the next moves edit that post."""
        if t.status == "lobby":
            text = lobby_text(t)
            if repost:
                text += "\n-# There is no board before the game starts; the lobby post is further up the channel."
            return Outputs(reply=clip(text), channel_id=t.channel_id)
        note = ""
        now = self.clock()
        if repost:
            if not (caller.moderator or caller.user_id == t.host_id or t.seat_of(caller.user_id) is not None):
                note = "Only the table's players and moderators can post the board to the channel again."
                repost = False
            elif now - t.reposted < REPOST_SECONDS:
                ago = int(now - t.reposted)
                note = (
                    f"The board was posted to the channel {ago} s ago; it can be posted again in"
                    f" {max(1, REPOST_SECONDS - ago)} s."
                )
                repost = False
        if repost:
            # a new board post at the bottom of the channel, which the next moves edit
            t.reposted = now
            t.turn_key = f"{t.id}:{t.state_no}:s{self.rand.getrandbits(24):06x}"
        batch = Batch()
        pend_board(t, batch)
        board = (await self.narration.flush(t, batch)).public[0]
        mine = Post(
            text=board.text,
            image=board.image,
            buttons=board.buttons,
            state_no=board.state_no,
            table_id=t.id,
            optional=board.optional,
            decline=board.decline,
        )
        if not repost:
            # the note first: a board text at Discord's limit loses the end of its fine print, never the note
            text = f"-# {note} This copy is only for you.\n{board.text}" if note else board.text
            return Outputs(reply=text, reply_image=board.image, reply_board=mine, channel_id=t.channel_id)
        # the repost names whose turn it is without a ping: whoever asked for it, nobody is called
        board.mentions = []
        return Outputs(reply="The board is posted to the channel again.", public=[board], channel_id=t.channel_id)

    async def history(self, caller: Caller) -> Outputs:
        """``/table history``: while the game runs, what the channel was told; once it is over, every move."""
        t = self.index.active(caller.channel_id)
        row: TableRow | None
        if t is not None:
            row = await self.store.tables.get(t.id)
        else:
            row = await self.store.tables.last_in(caller.channel_id)
        if row is None:
            return refuse("no_history")
        entries = await self.store.tables.log(row.id)
        game = registry.get(row.game_id)
        if row.status in ("finished", "abandoned"):
            # the game is over: the whole record, every move's action text (the seed stays in the store: a seed never
            # reaches a message, whatever the game's state)
            seats = await self.store.seats.of(row.id)
            names = {s.seat: f"{escape_name(s.name)} ({seat_label(game, s.seat)})" for s in seats}
            lines = [f"**{game.info.title}** · table {row.id} · {row.status} · full record"]
            for e in entries:
                if e.kind == "undo":
                    lines.append(f"{e.n}. ↩ {names.get(e.seat or 0, '?')} undo")
                else:
                    lines.append(f"{e.n}. {names.get(e.seat or 0, '?')}: `{e.action}`" + (" (AI)" if e.by_ai else ""))
                lines.extend(f"    {p}" for p in e.public)
        else:
            # while the game runs, only what the channel was told: an action's text may name a secret
            lines = [f"**{game.info.title}** · table {row.id} · {row.status} · moves so far"]
            for e in entries:
                lines.extend(f"{e.n}. {p}" for p in e.public)
        if len(lines) == 1:
            lines.append("No moves yet.")
        text = "\n".join(lines)
        if len(text) <= MAX_TEXT:
            return Outputs(reply=text, channel_id=row.channel_id)
        # too long for a message: the whole record as a file, and the newest lines that fit in the reply
        note = f"The whole record ({len(lines) - 1} lines) is in the attached file; the latest:"
        tail: list[str] = []
        room = MAX_TEXT - len(lines[0]) - len(note) - 4
        for line in reversed(lines[1:]):
            if len(line) + 1 > room:
                break
            tail.append(line)
            room -= len(line) + 1
        reply = "\n".join([lines[0], note, *reversed(tail)])
        return Outputs(
            reply=reply,
            reply_file=(f"table-{row.id}-history.txt", text.replace("**", "")),
            channel_id=row.channel_id,
        )

    async def choices(self, caller: Caller, joined: bool = False) -> list[Choice]:
        """The caller's legal actions with labels and picker groups; empty if they owe nothing (or on error)."""
        try:
            return choices_of(self.index.active(caller.channel_id), caller.user_id, joined)
        except Exception as exc:  # noqa: BLE001 - autocomplete must always get an answer
            self.health.internal_errors += 1
            log.error("internal error in choices: %s", type(exc).__name__)
            return []

    def owed_for(self, caller: Caller) -> str:
        """What the caller must do now, in the game's words (the picker's heading), or "" if they owe nothing. The
        heading is the caller's alone, so the game reads the caller's own view: it may name the next step of a plan
        only the caller knows (Buccaneer's distance, then facing; Long John Silver's hint token)."""
        t = self.index.active(caller.channel_id)
        if t is None or t.status != "running" or t.state is None:
            return ""
        seat = t.seat_of(caller.user_id)
        try:
            if seat is None or seat not in t.game.to_act(t.state):
                return ""
            return t.game.owed(t.game.view(t.state, seat), seat).rstrip(".")
        except Exception:  # noqa: BLE001 - a heading must never keep the picker from opening
            log.exception("owed() failed on table %s", t.id)
            return ""

    async def hand(self, caller: Caller, t: Table) -> Outputs:
        """``/hand``: the caller's private view (the public board for someone without a seat)."""
        assert t.state is not None
        game = t.game
        seat = t.seat_of(caller.user_id)
        public = game.view(t.state, None)
        if seat is None:
            image = await self.pictures.render(t.game_id, public, None)
            return Outputs(reply="You have no seat here; this is the public board.", reply_image=image)
        if not t.seats[seat].reachable:
            # a player cut off from DMs who comes for their hand may have opened them: the next news is tried again
            async with t.lock:
                t.seats[seat].reachable = True
                await self.store.seats.save(t.id, t.seats, self.clock())
        mine = game.view(t.state, seat)
        text = private_summary(game, public, mine, seat) or "You hold nothing secret right now."
        image = await self.pictures.render(t.game_id, mine, seat)
        text = with_fine_print(f"Your private view ({t.who(seat)}):\n{text}", t.game_id, mine, seat)
        return Outputs(reply=text, reply_image=image, seat=(t.id, seat))

    async def zoom(self, caller: Caller) -> Outputs:
        """The Zoom button: a full-resolution close-up of the current board around the last move (before any move,
        around the caller's own pieces), drawn from the public view only."""
        t = self.index.shown(caller.channel_id)
        if t is None or t.state is None or t.status not in ("running", "finished"):
            return refuse("no_board_to_zoom")
        image = await self.pictures.zoom(t.game_id, t.game.view(t.state, None), t.seat_of(caller.user_id))
        if image is None:
            return refuse("zoom_failed")
        return Outputs(reply=f"Close-up of the board at move {t.state_no}.", reply_image=image)

    async def dm_failed(self, channel_id: int, user_id: int) -> Outputs:
        """The transport could not DM ``user_id``: their seats are marked unreachable, and the channel told once."""
        t = await self.index.recent(channel_id)
        if t is None:
            return Outputs(ok=False)
        async with t.lock:
            hit = [s for s in t.seats if s.user_id == user_id and s.reachable]
            if not hit:
                return Outputs(channel_id=channel_id)
            now = self.clock()
            again = any((t.id, s.seat) in self.dm_failed_at for s in hit)
            for s in hit:
                s.reachable = False
                # tried again on news DM_RETRY_SECONDS from now (bot.host.timers)
                self.dm_failed_at[(t.id, s.seat)] = now
            await self.store.seats.save(t.id, t.seats, now)
            if again:
                return Outputs(channel_id=channel_id)  # a retry that failed: the table was told the first time
            name = escape_name(hit[0].name)
            text = (
                f"{name}, I couldn't send you a direct message (your DMs seem closed). "
                "Use /hand or the “My hand” button to see your private view here."
            )
            return Outputs(public=[note(t, text, [user_id])], channel_id=channel_id)
