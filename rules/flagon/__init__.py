"""Flagon: The Dragon & Flagon pirate brawl on two ships (docs/games/flagon.md).

Beyond the skeleton every game shares (docs/adding-a-game.md): ``cards`` (characters and cards as data), ``forces``
(what happens to bodies and objects: damage, knockback, water, barrels, tables) and ``resolution`` (each card's
reveal-time steps and effects).
"""

from __future__ import annotations

from rules.flagon.game import GAME

__all__ = ["GAME"]
