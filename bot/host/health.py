"""What the host counts about its own health: unexpected errors it survived and tables whose log did not replay.

One :class:`Health` is shared by the parts of the host (:mod:`bot.host.tables`); the transports read it through
``TableHost.internal_errors`` and ``TableHost.replay_mismatches`` (the Discord transport's status, the tests)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Health:
    #: unexpected errors turned into a polite refusal or skipped (each logged by type)
    internal_errors: int = 0
    #: tables whose log, replayed from the seed, did not reproduce their snapshot (bot.host.restore)
    replay_mismatches: list[int] = field(default_factory=list)
