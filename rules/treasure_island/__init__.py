"""Treasure Island: Long John Silver against the pirates (spec ``shared/specs/treasure_island.md``)."""

from __future__ import annotations

from rules.treasure_island.game import TreasureIsland

GAME = TreasureIsland()

__all__ = ["GAME", "TreasureIsland"]
