"""Building what a table says: board posts (one per turn, edited as the turn goes on), prompts, DMs and the
lobby post. A host call collects everything in a :class:`Batch`; :meth:`PostsMixin._flush` draws all its pictures in
one trip off the event loop and turns it into :class:`Outputs`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import renderers
from bot.host.api import Outputs, Post
from bot.host.outputs import MAX_TEXT, MAX_TURN_LINES, clip, fold_repeats, private_text
from bot.host.table import Table
from bot.infra.pictures import Pictures
from bot.infra.store import Store
from rules.core import Game, canonical_json

log = logging.getLogger("parley.tables")

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
    reaction: Any = None  # bot.host.reactions.Reaction: what the seats that owe nothing may still do


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
    #: users whose news in this batch is already owed in the store, committed with its moves (bot.host.play)
    owed: set[int] = field(default_factory=set)

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


def with_fine_print(text: str, game_id: str, view: dict[str, Any], seat: int | None = None) -> str:
    """``text`` (clipped) and, after a blank line, the game's caption for the picture of ``view``: the fine print
    the picture leaves to the message. The caption gives way to the text: only its lines that still fit are kept."""
    text = clip(text.strip())
    caption = renderers.caption(game_id, view, seat)
    kept: list[str] = []
    for line in caption.splitlines():
        if len(text) + 2 + len("\n".join([*kept, line])) > MAX_TEXT:
            break
        kept.append(line)
    return text + "\n\n" + "\n".join(kept) if kept else text


class PostsMixin:
    """Part of :class:`bot.host.tables.TableHost`: turns a table's moves into posts."""

    pictures: Pictures
    replay_frames: int
    store: Store
    later: Callable[..., None]

    def _prompt(self, t: Table, to_act: tuple[int, ...], view: dict[str, Any]) -> tuple[str, list[int]]:
        """The board post's last line: who must act and what they owe, in the game's words (``Game.owed``), each
        seat named as everywhere else. A simultaneous phase lists everyone still owing."""
        if not to_act:
            return "", []
        humans = [s for s in to_act if t.seats[s].ai_level is None]
        if not humans:
            return "", []  # AI seats move at once: no prompt
        mentions = [int(t.seats[s].user_id) for s in humans if t.seats[s].user_id is not None]
        return prompt_line(t.game, view, list(to_act), lambda s: t.who(s, view)), mentions

    def owed_for(self, caller: Any) -> str:
        """What the caller must do now, in the game's words (the picker's heading), or "" if they owe nothing. The
        heading is the caller's alone, so the game reads the caller's own view: it may name the next step of a plan
        only the caller knows (Buccaneer's distance, then facing; Long John Silver's hint token)."""
        t = self._active_table(caller.channel_id)  # type: ignore[attr-defined]
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

    def _pend_board(self, t: Table, batch: Batch) -> Pending:
        game = t.game
        assert t.state is not None
        pending = Pending(
            key=t.turn_key,
            lines=list(t.turn_lines[-MAX_TURN_LINES:]),
            view=game.view(t.state, None),
            to_act=tuple(game.to_act(t.state)) if t.status == "running" else (),
            state_no=t.state_no,
            reaction=self._reaction(t),
        )
        batch.board(pending)
        return pending

    def _private_post(self, t: Table, seat: int, lines: list[str], batch: Batch) -> None:
        s = t.seats[seat]
        if s.ai_level is not None or s.user_id is None or not s.reachable:
            return
        batch.dm(int(s.user_id), seat, lines)

    async def _flush(self, t: Table, batch: Batch, *, reply: str = "", ok: bool = True) -> Outputs:
        """Render every picture of the batch in one trip off the event loop and assemble the outputs."""
        game = t.game
        state = t.state
        drawn = [i for i, b in enumerate(batch.boards) if b is not None]
        jobs: list[tuple[dict[str, Any], int | None]] = [(batch.boards[i].view, None) for i in drawn]
        # a DM shows the seat's private view as it is now, after every move of this call
        dms = [(user, seat, lines) for (user, seat), lines in batch.private.items()]
        pictures = [(user, seat) for user, seat, _ in dms if seat is not None and state is not None]
        jobs += [(game.view(state, seat), seat) for _, seat in pictures]
        # identical views (a closed turn's post and the next turn's post) are drawn once
        keys = [canonical_json([v, s]) for v, s in jobs]
        unique = list(dict.fromkeys(keys))
        first = {k: jobs[keys.index(k)] for k in unique}
        drawn_once = dict(
            zip(unique, await self.pictures.render_many(t.game_id, [first[k] for k in unique]), strict=True)
        )
        images = [drawn_once[k] for k in keys]
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
            prompt, mentions = self._prompt(t, b.to_act, b.view) if b.final is False else ("", [])
            reaction = b.reaction if b.final is False else None
            extra = [reaction.line] if reaction is not None else []
            missing = [NO_BOARD] if board_images[i] is None else []
            lines = [f"{header} · move {b.state_no}", *fold_repeats(b.lines), *filter(None, [prompt, *extra]), *missing]
            text = with_fine_print("\n".join(lines), t.game_id, b.view)
            out.public.append(
                Post(
                    text=text,
                    image=board_images[i],
                    mentions=mentions,
                    buttons=bool(mentions),
                    state_no=b.state_no,
                    board_key=b.key,
                    table_id=t.id,
                    optional=list(reaction.offer) if reaction is not None else [],
                    decline=reaction is not None and reaction.hold,
                )
            )
        public_view = game.view(state, None) if state is not None else {}
        for user, seat, lines in dms:
            if seat is None or state is None:
                out.private.append((user, Post(text=clip("\n".join(lines)), table_id=t.id)))
                continue
            mine = game.view(state, seat)
            summary = self._private_summary(game, public_view, mine, seat)
            head = f"**{game.info.title}** (table {t.id}) — {t.who(seat, public_view)}"
            text = "\n".join([head, *lines, summary])
            image = dm_images[(user, seat)]
            if image is None:
                text += f"\n{NO_HAND}"
            text = with_fine_print(text, t.game_id, mine, seat)
            if t.last_dm.get(seat) == text:
                continue  # the same news twice says nothing new
            t.last_dm[seat] = text
            out.private.append((user, Post(text=text, image=image, filename="hand.png", table_id=t.id)))
        if batch.summary is not None:
            # the final board is the last board of the batch: drawn once, shown twice
            final_image = board_images[drawn[-1]] if drawn else None
            out.public.append(Post(text=clip(batch.summary), image=final_image, filename="final.png", table_id=t.id))
        if batch.replay:
            # the result is posted now, as fast as any move; the replay follows in its own message once drawn
            self.later(self._replay_post(t), after=out)
        return out

    async def _replay_post(self, t: Table) -> Outputs:
        """The animated public board of the whole game, rebuilt in a render worker from the seed and the log."""
        entries = await self.store.log(t.id)
        moves = [(e.kind, e.seat, e.action) for e in entries]
        data = await self.pictures.replay(t.game_id, len(t.seats), t.options, t.seed, moves, self.replay_frames)
        text = f"Replay of table {t.id}." if data else f"The replay of table {t.id} could not be drawn, sorry."
        post = Post(text=text, image=data, filename="replay.gif", table_id=t.id)
        return Outputs(public=[post], channel_id=t.channel_id)

    @staticmethod
    def _private_summary(game: Game, public_view: dict[str, Any], seat_view: dict[str, Any], seat: int) -> str:
        """The game's own summary of what only ``seat`` knows; a generic one from the view if it gives none."""
        if type(game).private_summary is not Game.private_summary:
            # the game speaks for its private view: empty means nothing secret yet (not a dump of raw fields)
            return game.private_summary(seat_view, seat) or "You hold nothing secret yet."
        return private_text(public_view, seat_view)

    def _note(self, t: Table, text: str, mentions: list[int] | None = None) -> Post:
        return Post(text=clip(text), mentions=mentions or [], table_id=t.id)
