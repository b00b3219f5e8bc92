"""Optional actions: what a seat that owes nothing may still do (a Buccaneer challenge), and the short hold of an
AI seat due to act while a person could still do it.

The engine contract lets a seat outside ``to_act`` have legal actions that the game never waits for. The host
offers them like any other action (the picker, ``/play`` autocomplete) and as a button each on the board post.
An AI seat acting at once would close them before anyone could react, so while some person could still take one,
the AI seat due to act is held for ``Game.reaction_seconds``: until that deadline, until every such person has
let the move stand, or until anyone acts (a commit re-arms the deadlines of human seats only, which ends the hold).
The hold's deadline is stored as a deadline row of the AI seat (a human seat's row is its turn limit), so it
survives a restart; the table is woken when it falls due.

This module only reads a table: what is offered and to whom. The hold itself and the commands that answer a
board's buttons (``react``, ``let_stand``) are :class:`bot.host.turns.Turns`'s, since they move the game on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.host.table import Table
from bot.infra.store import DeadlineRow


@dataclass(frozen=True)
class Reaction:
    """What the board post offers the seats that owe nothing: ``(action, public label)`` pairs, the line saying
    who may take them, and whether an AI seat is held for them (then the post also offers "Let it stand")."""

    offer: tuple[tuple[str, str], ...]
    line: str
    hold: bool



def lower_first(text: str) -> str:
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


def reactors(t: Table) -> list[int]:
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


def undecided(t: Table) -> list[int]:
    """The reactors who have not let the current move stand."""
    return [s for s in reactors(t) if t.declined.get(s) != t.state_no]


def hold_of(t: Table) -> DeadlineRow | None:
    """The deadline row of an AI seat held for people's reactions, if one is."""
    return next((d for s, d in sorted(t.deadlines.items()) if t.seats[s].ai_level is not None), None)


def reaction(t: Table) -> Reaction | None:
    """What the table's board post offers the seats that owe nothing now, or None."""
    seats = reactors(t)
    if not seats:
        return None
    game = t.game
    assert t.state is not None
    # a public button shows a public label: from the public view, never a seat's own
    public = game.view(t.state, None)
    offer: dict[str, str] = {}
    for seat in seats:
        for action in game.legal_actions(t.state, seat):
            offer.setdefault(action, game.label(public, action))
    names = ", ".join(t.who(s) for s in seats)
    labels = " or ".join(lower_first(label) for label in offer.values())
    hold = hold_of(t)
    if hold is not None:
        line = (
            f"⏳ {t.who(hold.seat)} waits {round(hold.due - hold.started)} s before acting: "
            f"{names} may {labels}, or let it stand."
        )
    else:
        nxt = ", ".join(t.who(s) for s in game.to_act(t.state))
        line = f"{names} may also {labels} until {nxt} acts."
    return Reaction(tuple(offer.items()), line, hold is not None)
