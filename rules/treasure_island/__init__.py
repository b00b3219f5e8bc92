"""Treasure Island: Long John Silver against the pirates (docs/games/treasure_island.md).

Beyond the skeleton every game shares (docs/adding-a-game.md): ``model`` (the state helpers every module shares),
``days`` (the course of the game day by day), ``calendar`` (the calendar, tricks and chest tokens as data),
``geometry`` (exact half-mile geometry and the per-map tables) and ``hints`` (every hint card and its predicate).
"""

from __future__ import annotations

from rules.treasure_island.game import GAME

__all__ = ["GAME"]
