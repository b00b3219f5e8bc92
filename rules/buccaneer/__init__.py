"""Buccaneer (Waddingtons, 1958 laws) for 2–8 players (docs/games/buccaneer.md).

Beyond the skeleton every game shares (docs/adding-a-game.md): ``model`` (pieces, values and the state helpers
every module shares), ``setup`` (the steps of setting up), ``movement``, ``combat``, ``chance`` (the chance cards),
``trading`` (ports, home, Flat Island, Anchor Bay) and ``doubt`` (when an AI challenges a long move).
"""

from __future__ import annotations

from rules.buccaneer.game import GAME

__all__ = ["GAME"]
