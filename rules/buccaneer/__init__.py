"""Buccaneer (Waddingtons, 1958 laws) for 2–8 players: see ``/work/shared/specs/buccaneer.md``.

Modules: ``board`` (the map as data), ``model`` (pieces and helpers), ``setup``, ``movement``, ``combat``,
``chance``, ``trading`` (ports, home, Flat Island, Anchor Bay), ``engine`` (frames and turn flow), ``views``,
``ai`` and ``game`` (the engine object).
"""

from __future__ import annotations

from rules.buccaneer.game import Buccaneer

GAME = Buccaneer()

__all__ = ["GAME", "Buccaneer"]
