"""Building what a table says: board posts (one per turn, edited as the turn goes on), prompts, DMs, notes and
the lobby post. A host call collects everything in a :class:`Batch`; :meth:`bot.host.narration.Narration.flush`
draws all its pictures in one trip off the event loop and turns it into :class:`Outputs`. Everything here is a
plain function of a table: no part of the host is needed to say what the table looks like."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import renderers
from bot.host.api import Outputs, Post
from bot.host.outputs import MAX_TEXT, MAX_TURN_LINES, clip, escape_name, outcome_text, private_text
from bot.host.reactions import Reaction, reaction
from bot.host.table import Table
from rules.core import Game

#: said in a post whose picture could not be drawn (logged), so a missing picture is never silent
NO_BOARD = "(The board picture could not be drawn this time; `/table status` shows the board.)"
NO_HAND = "(Your picture could not be drawn this time; `/hand` shows your private view.)"

#: board posts one call may produce (a run of AI turns); older ones are folded into the newer posts
MAX_BOARDS_PER_CALL = 6


@dataclass
class Pending:
    """A board post being built during one host call; rendered once at the end of the call."""

    key: str
    lines: list[str]
    view: dict[str, Any]
    to_act: tuple[int, ...]
    state_no: int
    final: bool = False  # a closed turn's post or the last board: no prompt, no buttons
    reaction: Reaction | None = None  # what the seats that owe nothing may still do (bot.host.reactions)


@dataclass
class Batch:
    """Everything one host call produces, rendered and turned into :class:`Outputs` at the end."""

    boards: list[Pending | None] = field(default_factory=list)
    notes: list[Post] = field(default_factory=list)  # public posts without a board (notices), in order
    order: list[tuple[str, int]] = field(default_factory=list)  # ("board", i) / ("note", i)
    # DMs, one per user and kind: (user, seat) -> narration lines; seat None is a text-only notice (a reminder)
    private: dict[tuple[int, int | None], list[str]] = field(default_factory=dict)
    summary: str | None = None
    replay: bool = False
    #: users whose news in this batch is already owed in the store, committed with its moves (bot.host.turns)
    owed: set[int] = field(default_factory=set)
    #: for each DM a move started, how many posts of the batch came before it (:func:`note_dm_places`)
    dm_places: dict[tuple[int, int | None], int] = field(default_factory=dict)

    def board(self, pending: Pending) -> None:
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


def prompt_line(game: Game, view: dict[str, Any], to_act: list[int], who: Callable[[int], str]) -> str:
    """"▶ Ana (London): choose your home port." for one seat; for several at once, "▶ Plan your cards in secret —
    waiting for: Ana (Monk), Bo (Rogue)." (or each seat with its own duty when they differ)."""
    owed = [(who(s), game.owed(view, s).rstrip(".") or "take your turn") for s in to_act]
    if len(owed) == 1:
        return f"▶ {owed[0][0]}: {owed[0][1]}."
    duties = {o for _, o in owed}
    if len(duties) == 1:
        duty = owed[0][1]
        return f"▶ {duty[:1].upper()}{duty[1:]} — waiting for: {', '.join(n for n, _ in owed)}."
    return "▶ waiting for: " + "; ".join(f"{n}: {o}" for n, o in owed) + "."


def with_fine_print(
    text: str, game_id: str, view: dict[str, Any], seat: int | None = None, caption: str | None = None
) -> str:
    """``text`` (clipped) and, after a blank line, the game's caption for the picture of ``view`` (``caption`` when
    the caller has it already): the fine print the picture leaves to the message. The caption gives way to the
    text: only its lines that still fit are kept."""
    text = clip(text.strip())
    caption = renderers.caption(game_id, view, seat) if caption is None else caption
    kept: list[str] = []
    for line in caption.splitlines():
        if len(text) + 2 + len("\n".join([*kept, line])) > MAX_TEXT:
            break
        kept.append(line)
    return text + "\n\n" + "\n".join(kept) if kept else text


def prompt(t: Table, to_act: tuple[int, ...], view: dict[str, Any]) -> tuple[str, list[int]]:
    """The board post's last line: who must act and what they owe, in the game's words (``Game.owed``), each
    seat named as everywhere else. A simultaneous phase lists everyone still owing."""
    if not to_act:
        return "", []
    humans = [s for s in to_act if t.seats[s].ai_level is None]
    if not humans:
        return "", []  # AI seats move at once: no prompt
    mentions = [int(t.seats[s].user_id) for s in humans if t.seats[s].user_id is not None]
    return prompt_line(t.game, view, list(to_act), lambda s: t.who(s, view)), mentions


def pend_board(t: Table, batch: Batch) -> Pending:
    """The table's board post as it is now, added to the batch (replacing an earlier one of the same turn)."""
    game = t.game
    assert t.state is not None
    pending = Pending(
        key=t.turn_key,
        lines=list(t.turn_lines[-MAX_TURN_LINES:]),
        view=game.view(t.state, None),
        to_act=tuple(game.to_act(t.state)) if t.status == "running" else (),
        state_no=t.state_no,
        reaction=reaction(t),
    )
    batch.board(pending)
    return pending


def private_post(t: Table, seat: int, lines: list[str], batch: Batch) -> None:
    """News for the seat's player by DM, if a person who can be reached plays it."""
    s = t.seats[seat]
    if s.ai_level is not None or s.user_id is None or not s.reachable:
        return
    batch.dm(int(s.user_id), seat, lines)


def note_dm_places(batch: Batch, before: set[tuple[int, int | None]]) -> None:
    """Remember, for each DM the last move started, how many posts of the batch came before it, so a transport
    that shows everything in one stream (the terminal) prints the news with the move that caused it rather than
    after a run of AI turns. Applied to the outputs by :func:`place_dms`."""
    for key in batch.private:
        if key not in before:
            batch.dm_places.setdefault(key, len(batch.order))


def place_dms(batch: Batch, out: Outputs) -> None:
    """Set ``Post.after`` of the outputs' DMs from the places :func:`note_dm_places` noted: the number of public
    posts that precede the news (a board folded away by a long run of AI turns counts for nothing)."""
    places = batch.dm_places
    if not places:
        return
    shown = [kind == "note" or batch.boards[i] is not None for kind, i in batch.order]
    keys = list(batch.private)
    for (user, post), key in zip(out.private, keys, strict=False):
        if key in places and key[0] == user:
            post.after = sum(shown[: places[key]])


def private_summary(game: Game, public_view: dict[str, Any], seat_view: dict[str, Any], seat: int) -> str:
    """The game's own summary of what only ``seat`` knows; a generic one from the view if it gives none."""
    if type(game).private_summary is not Game.private_summary:
        # the game speaks for its private view: empty means nothing secret yet (not a dump of raw fields)
        return game.private_summary(seat_view, seat) or "You hold nothing secret yet."
    return private_text(public_view, seat_view)


def note(t: Table, text: str, mentions: list[int] | None = None) -> Post:
    """A public notice of the table, without a board."""
    return Post(text=clip(text), mentions=mentions or [], table_id=t.id)


# -- the lobby post: one message per table, edited as the table changes --------------------------------
def lobby_text(t: Table) -> str:
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
        lines += [f"💡 {tip}" for tip in game.lobby_notes(len(t.seats), t.options)]  # the game's advice
        order = (
            "Seats are played in this order; the game's colours follow it."
            if names
            else "Seats are played in this order."
        )
        lines.append(
            f"Host: {host_text(t)}. Join with /table join; the host or a moderator starts with /table start."
            f" {order}"
        )
        return "\n".join(lines)
    if t.state is None:
        return f"{head} · closed before the start."
    who = ", ".join(t.who(s.seat) for s in seats)
    if t.status == "running":
        return (
            f"{head} · started · options: {opts}\nPlaying: {who}.\nHost: {host_text(t)}."
            " The board is below; /table status shows it again."
        )
    if t.status == "finished":
        outcome = game.outcome(t.state)
        result = outcome_text(game, outcome, [t.who(s.seat) for s in seats]).splitlines()[0] if outcome else ""
        return f"{head} · finished\nPlayed by: {who}.\n{result}\n/table history has the whole record."
    return f"{head} · ended early (abandoned)\nPlayed by: {who}.\n/table history has the record."


def host_text(t: Table) -> str:
    """Who hosts the table, as the lobby post says it: their name, marked when they hold no seat."""
    seated = next((s.name for s in t.seats if s.user_id == t.host_id and s.ai_level is None), None)
    if seated is not None:
        return escape_name(seated)
    return f"{escape_name(t.host_name)} (not playing)" if t.host_name else "a moderator"


def lobby_post(t: Table, *, edit_only: bool = False) -> Post:
    """The table's lobby post as it is now."""
    return Post(text=clip(lobby_text(t)), board_key=f"{t.id}:lobby", table_id=t.id, edit_only=edit_only)


def lobby_out(t: Table, reply: str) -> Outputs:
    # one lobby message, edited as seats fill (same board_key)
    return Outputs(reply=reply, public=[lobby_post(t)], channel_id=t.channel_id)
