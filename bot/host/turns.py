"""Turns: a move checked against the legal actions, committed, then narrated; AI seats moving until a human
must act (an AI seat held while people may still react: bot.host.reactions); undo within a turn; the end of a
game and its results (committed with the final move); the answers to a board's optional-action buttons."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

from bot.host import ratings
from bot.host.api import Caller, Outputs
from bot.host.background import Background
from bot.host.guild import GuildSettings
from bot.host.health import Health
from bot.host.index import TableIndex
from bot.host.messages import not_your_turn, refuse, say
from bot.host.narration import Narration
from bot.host.outputs import MAX_ACTION_CHARS, clip, defang, narrate, outcome_text, private_news
from bot.host.posts import Batch, lobby_post, note, note_dm_places, pend_board, private_post
from bot.host.reactions import hold_of, lower_first, offered, reaction, reactors, undecided
from bot.host.reading import choices_of
from bot.host.refusals import refusal
from bot.host.table import Table
from bot.infra.aipool import AI_ONLY_TABLE, HUMAN_TABLE, AIPool, split_level
from bot.infra.pictures import Pictures
from bot.infra.store import Commit, DeadlineRow, Store
from rules.core import IllegalAction, Outcome

log = logging.getLogger("parley.tables")

#: a guard against an engine that never hands the turn back to a human
MAX_AI_STEPS = 5000
AI_TAKEOVER_LEVEL = "normal"
#: steps a picker's pick may play by itself after its own (``Game.follows``): Buccaneer's confirm, then end
MAX_FOLLOWS = 3


def confirmation(label: str, action: str, *more: str) -> str:
    """What a player reads after a move: the label they chose, and the canonical text in Discord's small print
    (``-#`` subtext) when it differs, so the same words can be typed with ``/play`` next time (every step of a pick
    that played several, in order)."""
    if more:
        return f"Played: {label}\n-# " + " · ".join(f"`{a}`" for a in (action, *more))
    if not label or label == action:
        return f"Played `{action}`."
    return f"Played: {label}\n-# `{action}`"


class Turns:
    """Moves, AI seats, undo and the end of a game. Commands take the table their runner found and locked
    (:mod:`bot.host.commands`)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        health: Health,
        index: TableIndex,
        settings: GuildSettings,
        ai: AIPool,
        pictures: Pictures,
        narration: Narration,
        background: Background,
    ) -> None:
        self.store = store
        self.clock = clock
        self.health = health
        self.index = index
        self.settings = settings
        self.ai = ai
        self.pictures = pictures
        self.narration = narration
        self.background = background
        #: users whose own moves are told to them in the second person ("You play…": bot.host.outputs.narrate), for a
        #: transport with one reader (the terminal); a channel has many readers, so Discord leaves it empty
        self.second_person: set[int] = set()

    def addressed(self, t: Table, seat: int) -> bool:
        """Whether the table tells ``seat``'s moves to its player in the second person (:attr:`second_person`)."""
        user = t.seats[seat].user_id
        return user is not None and t.seats[seat].ai_level is None and user in self.second_person

    async def arm(
        self, t: Table, before: tuple[int, ...], after: tuple[int, ...], force: list[int] | None = None
    ) -> list[DeadlineRow]:
        """Deadlines for the humans in ``after``: kept for seats still acting, new for seats starting to act."""
        limit = (await self.settings.get(t.guild_id))["turn_limit_seconds"]
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

    async def commit(
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
        public = narrate(game, views, events, who, t.player, prefix, you=lambda s: self.addressed(t, s))
        limit = (await self.settings.get(t.guild_id))["turn_limit_seconds"]
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
        owed = self._owed_news(t, news, views[1]) if self.narration.dms_tracked else None
        changes = await self.store.append(
            Commit(
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
                rater=ratings.RATER,
                dms=owed,
            )
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
            pend_board(t, batch).final = True
            t.turn_key, t.turn_to_act, t.turn_lines, t.undo_stack = f"{t.id}:{n}", to_act, [], []
        else:
            t.turn_lines.extend(public)
            t.undo_stack.append((before, seat, undoable))
        news_before = set(batch.private)  # which DMs this move starts (placed after its turn's post: note_dm_places)
        for s, lines in news.items():
            private_post(t, s, lines, batch)
        note_dm_places(batch, news_before)
        if finished:
            await self.finish(t, outcome, batch, ratings.change_line(changes))
        else:
            pend_board(t, batch)

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

    async def finish(self, t: Table, outcome: Outcome | None, batch: Batch, rating_line: str = "") -> None:
        game = t.game
        assert t.state is not None
        t.status = "finished"
        pend_board(t, batch).final = True
        if outcome is None:
            log.error("table %s: nobody is to act but the game has no outcome", t.id)
            outcome = Outcome((), "no one can move")
        who = [t.who(s.seat) for s in t.seats]
        you = [s.seat for s in t.seats if self.addressed(t, s.seat)]
        batch.summary = f"**Game over** · {game.info.title} · table {t.id}\n" + outcome_text(game, outcome, who, you)
        if rating_line:
            batch.summary += "\n" + rating_line
        batch.note(lobby_post(t, edit_only=True))  # the lobby post, further up, says how it ended
        batch.replay = True
        t.deadlines.clear()
        self.index.retire(t)
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

    async def ai_action(self, t: Table, seat: int, level: str) -> str:
        game = t.game
        assert t.state is not None
        legal = game.legal_actions(t.state, seat)
        seed = f"{t.ai_seed}:{t.state_no}:{seat}"
        level, seconds = split_level(level)  # a seat may carry the table's own think time (``hard:3``)
        try:
            # bot.infra.aipool: a searching level runs in an AI worker process from the seat's view only; the others
            # here
            humans = any(s.ai_level is None for s in t.seats)
            choice = await self.ai.choose(
                t.game_id, game.view(t.state, seat), seat, list(legal), level, seed,
                seconds=seconds, priority=HUMAN_TABLE if humans else AI_ONLY_TABLE,
            )
        except Exception as exc:  # noqa: BLE001 - a broken AI must not stall the table
            self.health.internal_errors += 1
            log.error("AI of %s failed on table %s: %s", t.game_id, t.id, type(exc).__name__)
            choice = legal[0]
        if choice not in legal:
            self.health.internal_errors += 1
            log.error("AI of %s chose an illegal action on table %s", t.game_id, t.id)
            choice = legal[0]
        return choice

    async def run_ais(self, t: Table, batch: Batch) -> None:
        """AI seats move, each move committed and narrated, until a human must act or the game ends."""
        game = t.game
        for _ in range(MAX_AI_STEPS):
            if t.status != "running" or t.state is None:
                return
            ai = [s for s in game.to_act(t.state) if t.seats[s].ai_level is not None]
            if not ai:
                return
            seat = ai[0]
            if await self.held(t, seat, batch):
                return  # people may still react to the last move (bot.host.reactions); a wake resumes
            action = await self.ai_action(t, seat, str(t.seats[seat].ai_level))
            try:
                await self.commit(t, seat, action, by_ai=True, user_id=None, batch=batch)
            except Exception as exc:  # noqa: BLE001 - what was committed so far is still delivered
                self.health.internal_errors += 1
                log.error("table %s: an AI move failed: %s", t.id, type(exc).__name__)
                return
        if all(s.ai_level is not None for s in t.seats):
            # Nobody is left to end it, and some games can circle forever (Cartagena leaves endless play to the host:
            # docs/games/cartagena.md#ai-only-tables-that-never-finish): stop an AI-only table rather than replaying
            # this every tick.
            await self.index.abandon(t)
            batch.note(lobby_post(t, edit_only=True))
            batch.note(
                note(
                    t,
                    f"The AI players made {MAX_AI_STEPS} moves without finishing and no person holds a seat, "
                    f"so table {t.id} ends here; it is recorded as abandoned.",
                )
            )
            log.warning("table %s: abandoned after %d AI moves with no human seat", t.id, MAX_AI_STEPS)
            return
        log.error("table %s: AI seats made %d moves in a row; stopping", t.id, MAX_AI_STEPS)
        self.health.internal_errors += 1

    async def play(
        self,
        caller: Caller,
        t: Table,
        text: str,
        state_no: int | None = None,
        then: tuple[str, ...] = (),
        picked: bool = False,
    ) -> Outputs:
        """A move typed (``/play``) or picked (a button, the picker): checked, committed, and the AI seats after it.
        ``then``: the same seat's actions to play right after it, each only while it is still legal (a picker's
        joined pick, ``Choice.then``); ``picked`` (a picker's pick): then also what follows the pick by itself
        (``Game.follows``)."""
        game = t.game
        assert t.state is not None
        if state_no is not None and state_no != t.state_no and not self._only_others_moved(t, caller, state_no):
            image = await self.pictures.render(t.game_id, game.view(t.state, None), None)
            return Outputs(ok=False, reply=say("board_out_of_date", n=t.state_no), reply_image=image)
        seat = t.seat_of(caller.user_id)
        to_act = game.to_act(t.state)
        if seat is None:
            names = ", ".join(t.who(s) for s in to_act)
            return refuse("no_seat_whose_turn", names=names)
        try:
            if len(text) > MAX_ACTION_CHARS:
                raise IllegalAction("bad_syntax", say("too_long", n=len(text)))
            action = game.parse(text)
        except IllegalAction as exc:
            # the engine's message may quote the typed text: defanged, and the turn named for an idle seat
            if seat not in to_act:
                waiting = not_your_turn([t.who(s) for s in to_act])
                return Outputs(ok=False, reply=clip(defang(say("then", why=exc.message, then=waiting))))
            return Outputs(ok=False, reply=refusal(exc.message, choices_of(t, caller.user_id), text))
        legal = game.legal_actions(t.state, seat)
        if seat not in to_act and action not in legal:
            return Outputs(ok=False, reply=not_your_turn([t.who(s) for s in to_act]))
        if action not in legal:
            # only what legal_actions lists is ever committed, even if an engine's apply is more lenient;
            # the engine's own words say why when it has them
            try:
                game.apply(t.state, seat, action)
                why = say("not_legal_now", action=action)
            except IllegalAction as exc:
                why = exc.message
            return Outputs(ok=False, reply=refusal(why, choices_of(t, caller.user_id), action))
        # the confirmation echoes what the player chose (the picker's label); the canonical text follows small
        label = game.label(game.view(t.state, seat), action)
        batch = Batch()
        try:
            await self.commit(t, seat, action, by_ai=False, user_id=caller.user_id, batch=batch)
        except IllegalAction as exc:
            return Outputs(ok=False, reply=refusal(exc.message, choices_of(t, caller.user_id), action))
        played = [action]
        for step in self._steps_after(t, seat, then, picked):
            if step in then:
                label = game.label(game.view(t.state, seat), step)  # the pick's own words: its last choice
            await self.commit(t, seat, step, by_ai=False, user_id=caller.user_id, batch=batch)
            played.append(step)
        await self.run_ais(t, batch)
        return await self.narration.flush(t, batch, reply=confirmation(label, *played))

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

    async def undo(self, caller: Caller, t: Table) -> Outputs:
        """The caller's last action of this turn taken back, if it revealed nothing."""
        seat = t.seat_of(caller.user_id)
        if seat is None:
            return refuse("no_seat")
        if not t.undo_stack or t.undo_stack[-1][1] != seat:
            return refuse("nothing_to_undo")
        before, _, undoable = t.undo_stack[-1]
        game = t.game
        if not undoable:
            # the host knows only that the game refused it (Game.undoable), not why: a plan may be final by the
            # rules (Flagon), or the step drew a card or showed something hidden (Cartagena's move back)
            return refuse("undo_refused", title=game.info.title)
        n = t.state_no + 1
        now = self.clock()
        you = self.addressed(t, seat)
        line = "↩ You took back your last action." if you else f"↩ {t.who(seat)} took back their last action."
        await self.store.append(
            Commit(
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
        )
        t.undo_stack.pop()
        t.state, t.state_no, t.updated = before, n, now
        t.acted[seat] = n
        t.turn_lines.append(line)
        batch = Batch()
        pend_board(t, batch)
        return await self.narration.flush(t, batch, reply="Your last action was taken back.")

    async def held(self, t: Table, seat: int, batch: Batch) -> bool:
        """Whether the AI ``seat``, due to act, must wait for the people who may still react; starts the hold."""
        now = self.clock()
        hold = t.deadlines.get(seat)
        waiting = undecided(t)
        if hold is not None:
            if waiting and now < hold.due:
                return True
            del t.deadlines[seat]
            await self.store.tables.set_deadlines(t.id, list(t.deadlines.values()))
            return False
        seconds = t.game.reaction_seconds(t.options)
        if seconds <= 0 or not waiting:
            return False
        t.deadlines[seat] = DeadlineRow(t.id, seat, now, now + seconds, False)
        await self.store.tables.set_deadlines(t.id, list(t.deadlines.values()))
        self.background.wake(t, now + seconds)
        pend_board(t, batch)  # the post now says who waits, and offers a way on
        return True

    @staticmethod
    def reacted(caller: Caller, t: Table, pick: int | str, state_no: int | None, digest: str) -> Outputs | str:
        """A board post's button for an optional action (``challenge``): the action to play like ``/play`` for a
        seat that may take it, or the refusal. ``pick`` is the button's index into what the board of ``state_no``
        offers, whose :func:`bot.host.reactions.offer_digest` is ``digest`` (a button posted before offers were
        indexed carries the action's text, looked up among the same offers).

        Whatever a button says, only what the board offers publicly is ever looked at: the offer and the seats it
        names on the post. A refusal never depends on anyone's hidden legal actions, so a forged button learns
        nothing (an action a hidden hand allows is refused exactly like one it does not)."""
        if state_no is not None and state_no != t.state_no:
            return refuse("moved_on")
        offers = reaction(t)
        offer = list(offers.offer) if offers is not None else []
        action = offered(offer, pick, digest)
        if action is None:
            return refuse("not_offered")
        seats = reactors(t)
        if t.seat_of(caller.user_id) not in seats:
            label = dict(offer)[action]
            names = ", ".join(t.who(s) for s in seats)
            return refuse("only_they_may", names=names, label=lower_first(label))
        return action

    async def let_stand(self, caller: Caller, t: Table, state_no: int | None = None) -> Outputs:
        """"Let it stand": the caller will not take the optional actions open to them now. When nobody who could
        is left undecided, a held AI seat acts at once."""
        if state_no is not None and state_no != t.state_no:
            return refuse("moved_on_already")
        seat = t.seat_of(caller.user_id)
        if seat is None or seat not in reactors(t):
            return refuse("nothing_to_let_stand")
        t.declined[seat] = t.state_no
        batch = Batch()
        if hold_of(t) is not None and not undecided(t):
            await self.run_ais(t, batch)
        return await self.narration.flush(t, batch, reply="You let it stand.")
