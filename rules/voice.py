"""Who did what (``Event.actor``), for engines whose narration names its subject first ("Red takes…").

Standard library only, like every module of ``rules``."""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import GAME_ACTOR, Event


def credit(events: list[Event], names: dict[int, Iterable[str]]) -> list[Event]:
    """Set each line's ``actor`` to the seat whose name starts it (longest name first, so "Seat 1" never takes
    "Seat 10"), else to the game, unless the engine already set one.

    A line that also carries a private line for that same seat ("Black takes a map tile" with "Your map tile is
    C" for Black) is news to that seat even when its own move set it off (a tile seen, cards drawn), so such a line
    is left with no actor: it names its own subject, and the host then sends the private line as news."""
    ranked = sorted(((n, seat) for seat, ns in names.items() for n in set(ns) if n), key=lambda p: -len(p[0]))
    out: list[Event] = []
    for e in events:
        if e.actor is not None:
            out.append(e)
            continue
        actor: int | str | None = GAME_ACTOR
        text = e.public or ""
        for name, seat in ranked:
            if text.startswith(name) and not text[len(name) : len(name) + 1].isalnum():
                actor = None if seat in e.private else seat
                break
        out.append(Event(e.public, dict(e.private), actor))
    return out
