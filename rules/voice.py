"""Who did what (``Event.actor``), for engines whose narration names its subject first ("Red takes…").

Standard library only, like every module of ``rules``."""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import GAME_ACTOR, Event


def credit(events: list[Event], names: dict[int, Iterable[str]]) -> list[Event]:
    """Set each line's ``actor`` to the seat whose name starts it (longest name first, so "Seat 1" never takes
    "Seat 10"), else to the game, unless the engine already set one. Private lines stay where they are: on a line
    with public text they are news, even to the seat whose move it tells ("Black takes a map tile" with "Your map
    tile is C")."""
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
                actor = seat
                break
        out.append(Event(e.public, dict(e.private), actor))
    return out
