"""Playing: a move checked against the legal actions, committed, then narrated; AI seats moving until a human
must act; undo within a turn; the end of a game and its results (committed with the final move)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

from bot.host import ratings
from bot.host.api import Caller, Choice, Outputs, Post, guarded
from bot.host.outputs import MAX_ACTION_CHARS, clip, defang, narrate, outcome_text, private_news
from bot.host.posts import Batch
from bot.host.refusals import refusal
from bot.host.table import Table
from bot.infra.aipool import AI_ONLY_TABLE, HUMAN_TABLE, AIPool, split_level
from bot.infra.store import DeadlineRow, Store
from rules.core import IllegalAction, Outcome

log = logging.getLogger("parley.tables")

#: a guard against an engine that never hands the turn back to a human
MAX_AI_STEPS = 5000
AI_TAKEOVER_LEVEL = "normal"
#: steps a picker's pick may play by itself after its own (``Game.follows``): Buccaneer's confirm, then end
MAX_FOLLOWS = 3


def note_dm_places(batch: Batch, before: set[tuple[int, int | None]]) -> None:
    """Remember, for each DM the last move started, how many posts of the batch came before it, so a transport
    that shows everything in one stream (the terminal) prints the news with the move that caused it rather than
    after a run of AI turns. Kept beside the batch (its ``dm_places``) and applied to the outputs by
    :func:`place_dms`."""
    places: dict[tuple[int, int | None], int] = batch.__dict__.setdefault("dm_places", {})
    for key in batch.private:
        if key not in before:
            places.setdefault(key, len(batch.order))


def place_dms(batch: Batch, out: Outputs) -> None:
    """Set ``Post.after`` of the outputs' DMs from the places :func:`note_dm_places` noted: the number of public
    posts that precede the news (a board folded away by a long run of AI turns counts for nothing)."""
    places: dict[tuple[int, int | None], int] = batch.__dict__.get("dm_places", {})
    if not places:
        return
    shown = [kind == "note" or batch.boards[i] is not None for kind, i in batch.order]
    keys = list(batch.private)
    for (user, post), key in zip(out.private, keys, strict=False):
        if key in places and key[0] == user:
            post.after = sum(shown[: places[key]])


def confirmation(label: str, action: str, *more: str) -> str:
    """What a player reads after a move: the label they chose, and the canonical text in Discord's small print
    (``-#`` subtext) when it differs, so the same words can be typed with ``/play`` next time (every step of a pick
    that played several, in order)."""
    if more:
        return f"Played: {label}\n-# " + " · ".join(f"`{a}`" for a in (action, *more))
    if not label or label == action:
        return f"Played `{action}`."
    return f"Played: {label}\n-# `{action}`"


class PlayMixin:
    """Part of :class:`bot.host.tables.TableHost`: moves, AI seats, undo and the end of a game."""

    store: Store
    clock: Callable[[], float]
    internal_errors: int
    ai: AIPool
    dms_tracked: bool  # the transport reports each DM sent (Discord), so DMs are owed until then
    _choices: Callable[[Caller], list[Choice]]  # bot.host.reading: the caller's choices in the picker's order
    _lobby_post: Callable[..., Post]  # bot.host.lobby: the table's lobby post as it is now

    async def _arm(
        self, t: Table, before: tuple[int, ...], after: tuple[int, ...], force: list[int] | None = None
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
        self, t: Table, seat: int, action: str, *, by_ai: bool, user_id: int | None, batch: Batch, prefix: str = ""
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
        # every line names its true actor (bot.host.outputs.narrate), each seat called as it was when the move began
        views = [game.view(before, None), game.view(after, None)]
        who = lambda s: t.who(s, views[0])  # noqa: E731 - a one-line name for a name
        public = narrate(game, views, events, who, t.player, prefix)
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
        # private news only (bot.host.outputs.private_news): a card drawn, a hint received, a tile seen
        news = {
            s: lines
            for s, lines in private_news(events, seat, chosen_by_player=not by_ai).items()
            if t.seats[s].ai_level is None
        }
        # owed with the move itself: a crash while its pictures are drawn must not lose a player's news
        owed = self._owed_news(t, news, views[1]) if self.dms_tracked else None
        changes = await self.store.append(
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
            rating=self._rated_game(t, outcome, now) if finished else None,
            dms=owed,
        )
        batch.owed.update(user for user, _ in owed or ())
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
        news_before = set(batch.private)  # which DMs this move starts (placed after its turn's post: note_dm_places)
        for s, lines in news.items():
            self._private_post(t, s, lines, batch)
        note_dm_places(batch, news_before)
        if finished:
            await self._finish(t, outcome, batch, ratings.change_line(changes))
        else:
            self._pend_board(t, batch)

    @staticmethod
    def _owed_news(t: Table, news: dict[int, list[str]], public_view: dict[str, Any]) -> list[tuple[int, str]]:
        """The DMs a move owes, as the text a restart would send late: whose table, then the news lines."""
        owed = []
        for s, lines in news.items():
            seat = t.seats[s]
            if seat.user_id is not None and seat.reachable:
                head = f"**{t.game.info.title}** (table {t.id}) — {t.who(s, public_view)}"
                owed.append((int(seat.user_id), clip("\n".join([head, *lines]))))
        return owed

    async def _finish(self, t: Table, outcome: Outcome | None, batch: Batch, rating_line: str = "") -> None:
        game = t.game
        assert t.state is not None
        t.status = "finished"
        self._pend_board(t, batch).final = True
        if outcome is None:
            log.error("table %s: nobody is to act but the game has no outcome", t.id)
            outcome = Outcome((), "no one can move")
        who = [t.who(s.seat) for s in t.seats]
        batch.summary = f"**Game over** · {game.info.title} · table {t.id}\n" + outcome_text(game, outcome, who)
        if rating_line:
            batch.summary += "\n" + rating_line
        batch.note(self._lobby_post(t, edit_only=True))  # the lobby post, further up, says how it ended
        batch.replay = True
        t.deadlines.clear()
        self._retire(t)
        log.info("table %s finished", t.id)

    @staticmethod
    def _result_rows(t: Table, outcome: Outcome | None, now: float) -> list[dict[str, Any]]:
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

    @staticmethod
    def _rated_game(t: Table, outcome: Outcome | None, now: float) -> ratings.RatedGame | None:
        """The rating update of a finished game (committed with the game-ending move), None if not rated."""
        return ratings.rated_game(
            table_id=t.id,
            guild_id=t.guild_id,
            game_id=t.game_id,
            finished=now,
            # an AI is rated by its level, whatever think time the table gave it (``hard:3`` is ``hard``)
            seats=[(s.seat, s.user_id, s.name, s.ai_level and split_level(s.ai_level)[0], s.vacated) for s in t.seats],
            outcome=outcome,
        )

    async def _ai_action(self, t: Table, seat: int, level: str) -> str:
        game = t.game
        assert t.state is not None
        legal = game.legal_actions(t.state, seat)
        seed = f"{t.ai_seed}:{t.state_no}:{seat}"
        level, seconds = split_level(level)  # a seat may carry the table's own think time (``hard:3``)
        try:
            # bot.infra.aipool: a searching level runs in an AI worker process from the seat's view only; the others here
            humans = any(s.ai_level is None for s in t.seats)
            choice = await self.ai.choose(
                t.game_id, game.view(t.state, seat), seat, list(legal), level, seed,
                seconds=seconds, priority=HUMAN_TABLE if humans else AI_ONLY_TABLE,
            )
        except Exception as exc:  # noqa: BLE001 - a broken AI must not stall the table
            self.internal_errors += 1
            log.error("AI of %s failed on table %s: %s", t.game_id, t.id, type(exc).__name__)
            choice = legal[0]
        if choice not in legal:
            self.internal_errors += 1
            log.error("AI of %s chose an illegal action on table %s", t.game_id, t.id)
            choice = legal[0]
        return choice

    async def _run_ais(self, t: Table, batch: Batch) -> None:
        """AI seats move, each move committed and narrated, until a human must act or the game ends."""
        game = t.game
        for _ in range(MAX_AI_STEPS):
            if t.status != "running" or t.state is None:
                return
            ai = [s for s in game.to_act(t.state) if t.seats[s].ai_level is not None]
            if not ai:
                return
            seat = ai[0]
            if await self._held(t, seat, batch):
                return  # people may still react to the last move (bot.host.reactions); a wake resumes
            action = await self._ai_action(t, seat, str(t.seats[seat].ai_level))
            try:
                await self._commit(t, seat, action, by_ai=True, user_id=None, batch=batch)
            except Exception as exc:  # noqa: BLE001 - what was committed so far is still delivered
                self.internal_errors += 1
                log.error("table %s: an AI move failed: %s", t.id, type(exc).__name__)
                return
        if all(s.ai_level is not None for s in t.seats):
            # Nobody is left to end it, and some games can circle forever (Cartagena leaves endless play to the host:
            # docs/games/cartagena.md#ai-only-tables-that-never-finish): stop an AI-only table rather than replaying
            # this every tick.
            await self._abandon(t)
            batch.note(self._lobby_post(t, edit_only=True))
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
    async def play(
        self, caller: Caller, text: str, state_no: int | None = None, then: tuple[str, ...] = (), picked: bool = False
    ) -> Outputs:
        """Play ``text`` for the caller's seat. ``then``: the same seat's actions to play right after it, each only
        while it is still legal (a picker's joined pick, ``Choice.then``); ``picked`` (a picker's pick): then also
        what follows the pick by itself (``Game.follows``)."""
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
                return Outputs(ok=False, reply=refusal(exc.message, self._choices(caller), text))
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
                return Outputs(ok=False, reply=refusal(why, self._choices(caller), action))
            # the confirmation echoes what the player chose (the picker's label); the canonical text follows small
            label = game.label(game.view(t.state, seat), action)
            batch = Batch()
            try:
                await self._commit(t, seat, action, by_ai=False, user_id=caller.user_id, batch=batch)
            except IllegalAction as exc:
                return Outputs(ok=False, reply=refusal(exc.message, self._choices(caller), action))
            played = [action]
            for step in self._steps_after(t, seat, then, picked):
                if step in then:
                    label = game.label(game.view(t.state, seat), step)  # the pick's own words: its last choice
                await self._commit(t, seat, step, by_ai=False, user_id=caller.user_id, batch=batch)
                played.append(step)
            await self._run_ais(t, batch)
            return await self._flush(t, batch, reply=confirmation(label, *played))

    @staticmethod
    def _steps_after(t: Table, seat: int, then: tuple[str, ...], picked: bool) -> Iterator[str]:
        """The steps a pick plays after its first action, each read from the table as it is once the one before was
        committed: ``then`` while each is still legal, then, for a picker's pick, what the game plays by itself
        (``Game.follows``: a finished plan's confirm), a few at most."""
        game = t.game
        queue = list(then)
        for _ in range(len(then) + MAX_FOLLOWS):
            if t.status != "running" or t.state is None or seat not in game.to_act(t.state):
                return
            legal = game.legal_actions(t.state, seat)
            step = queue.pop(0) if queue else game.follows(game.view(t.state, seat), seat, legal) if picked else None
            if step is None or step not in legal:
                return
            yield step

    @staticmethod
    def _only_others_moved(t: Table, caller: Caller, state_no: int) -> bool:
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
            batch = Batch()
            self._pend_board(t, batch)
            return await self._flush(t, batch, reply="Your last action was taken back.")
