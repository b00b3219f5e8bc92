"""Optional actions: what a seat that owes nothing may still do (a Buccaneer challenge), and the short hold of an
AI seat due to act while a person could still do it.

The engine contract lets a seat outside ``to_act`` have legal actions that the game never waits for. The host
offers them like any other action (the picker, ``/play`` autocomplete) and as a button each on the board post.
An AI seat acting at once would close them before anyone could react, so while some person could still take one,
the AI seat due to act is held for ``Game.reaction_seconds``: until that deadline, until every such person has
let the move stand, or until anyone acts (a commit re-arms the deadlines of human seats only, which ends the hold).
The hold's deadline is stored as a deadline row of the AI seat (a human seat's row is its turn limit), so it
survives a restart; the table is woken when it falls due.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.host.api import Caller, Outputs, guarded
from bot.host.posts import Batch
from bot.host.table import Table
from bot.infra.store import DeadlineRow, Store

log = logging.getLogger("parley.tables")


@dataclass(frozen=True)
class Reaction:
    """What the board post offers the seats that owe nothing: ``(action, public label)`` pairs, the line saying
    who may take them, and whether an AI seat is held for them (then the post also offers "Let it stand")."""

    offer: tuple[tuple[str, str], ...]
    line: str
    hold: bool


MOVED_ON = "The game has moved on; the newest board post shows what is open now."
NOT_OFFERED = "That button is not one this board offers; the newest board post shows what is open now."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def offer_digest(offer: Sequence[tuple[str, str]]) -> str:
    """A short digest of a board's offered actions in order, carried by each of its buttons with the button's
    index: an index means what its presser saw only while the offer is the same."""
    return hashlib.sha1("\n".join(a for a, _ in offer).encode("utf-8", "replace")).hexdigest()[:8]


def offered(offer: Sequence[tuple[str, str]], pick: int | str, digest: str = "") -> str | None:
    """The action a board button means, only if the board offers it: the index ``pick`` into ``offer`` when
    ``digest`` is the offer's, or an offered action's own text (a button posted before indexes); else None."""
    if isinstance(pick, str):
        return next((a for a, _ in offer if a == pick), None)
    if digest != offer_digest(offer) or not 0 <= pick < len(offer):
        return None
    return offer[pick][0]


class ReactionsMixin:
    """Part of :class:`bot.host.tables.TableHost`: optional actions of waiting seats and the AI hold."""

    store: Store
    clock: Callable[[], float]
    _tables: dict[int, Table]

    def _reactors(self, t: Table) -> list[int]:
        """Human seats that owe nothing now but have optional legal actions."""
        if t.status != "running" or t.state is None:
            return []
        game = t.game
        acting = set(game.to_act(t.state))
        return [
            s.seat
            for s in t.seats
            if s.ai_level is None and s.seat not in acting and game.legal_actions(t.state, s.seat)
        ]

    def _undecided(self, t: Table) -> list[int]:
        """The reactors who have not let the current move stand."""
        return [s for s in self._reactors(t) if t.declined.get(s) != t.state_no]

    @staticmethod
    def _hold_of(t: Table) -> DeadlineRow | None:
        return next((d for s, d in sorted(t.deadlines.items()) if t.seats[s].ai_level is not None), None)

    def _reaction(self, t: Table) -> Reaction | None:
        reactors = self._reactors(t)
        if not reactors:
            return None
        game = t.game
        assert t.state is not None
        # a public button shows a public label: from the public view, never a seat's own
        public = game.view(t.state, None)
        offer: dict[str, str] = {}
        for seat in reactors:
            for action in game.legal_actions(t.state, seat):
                offer.setdefault(action, game.label(public, action))
        names = ", ".join(t.who(s) for s in reactors)
        labels = " or ".join(_lower_first(label) for label in offer.values())
        hold = self._hold_of(t)
        if hold is not None:
            line = (
                f"⏳ {t.who(hold.seat)} waits {round(hold.due - hold.started)} s before acting: "
                f"{names} may {labels}, or let it stand."
            )
        else:
            nxt = ", ".join(t.who(s) for s in game.to_act(t.state))
            line = f"{names} may also {labels} until {nxt} acts."
        return Reaction(tuple(offer.items()), line, hold is not None)

    async def _held(self, t: Table, seat: int, batch: Batch) -> bool:
        """Whether the AI ``seat``, due to act, must wait for the people who may still react; starts the hold."""
        now = self.clock()
        hold = t.deadlines.get(seat)
        undecided = self._undecided(t)
        if hold is not None:
            if undecided and now < hold.due:
                return True
            del t.deadlines[seat]
            await self.store.set_deadlines(t.id, list(t.deadlines.values()))
            return False
        seconds = t.game.reaction_seconds(t.options)
        if seconds <= 0 or not undecided:
            return False
        t.deadlines[seat] = DeadlineRow(t.id, seat, now, now + seconds, False)
        await self.store.set_deadlines(t.id, list(t.deadlines.values()))
        self.wake(t, now + seconds)
        self._pend_board(t, batch)  # the post now says who waits, and offers a way on
        return True

    @guarded
    async def react(self, caller: Caller, pick: int | str, state_no: int | None = None, digest: str = "") -> Outputs:
        """A board post's button for an optional action (``challenge``), played like ``/play`` for a seat that may
        take it. ``pick`` is the button's index into what the board of ``state_no`` offers, whose
        :func:`offer_digest` is ``digest`` (a button posted before offers were indexed carries the action's text,
        looked up among the same offers).

        Whatever a button says, only what the board offers publicly is ever looked at: the offer and the seats it
        names on the post. A refusal never depends on anyone's hidden legal actions, so a forged button learns
        nothing (an action a hidden hand allows is refused exactly like one it does not)."""
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running" or t.state is None:
            return Outputs(ok=False, reply="No game is running in this channel.")
        async with t.lock:
            if state_no is not None and state_no != t.state_no:
                return Outputs(ok=False, reply=MOVED_ON)
            reaction = self._reaction(t)
            offer = list(reaction.offer) if reaction is not None else []
            action = offered(offer, pick, digest)
            if action is None:
                return Outputs(ok=False, reply=NOT_OFFERED)
            reactors = self._reactors(t)
            if t.seat_of(caller.user_id) not in reactors:
                label = dict(offer)[action]
                names = ", ".join(t.who(s) for s in reactors)
                return Outputs(ok=False, reply=f"Only {names} may {_lower_first(label)} now.")
        return await self.play(caller, action, state_no)

    @guarded
    async def let_stand(self, caller: Caller, state_no: int | None = None) -> Outputs:
        """"Let it stand": the caller will not take the optional actions open to them now. When nobody who could
        is left undecided, a held AI seat acts at once."""
        t = self._active_table(caller.channel_id)
        if t is None or t.status != "running" or t.state is None:
            return Outputs(ok=False, reply="No game is running in this channel.")
        async with t.lock:
            if state_no is not None and state_no != t.state_no:
                return Outputs(ok=False, reply="The game has moved on already.")
            seat = t.seat_of(caller.user_id)
            if seat is None or seat not in self._reactors(t):
                return Outputs(ok=False, reply="There is nothing for you to let stand right now.")
            t.declined[seat] = t.state_no
            batch = Batch()
            if self._hold_of(t) is not None and not self._undecided(t):
                await self._run_ais(t, batch)
            return await self._flush(t, batch, reply="You let it stand.")
