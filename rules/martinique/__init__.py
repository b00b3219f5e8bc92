"""Martinique: two crews comb an island for souvenirs and the coordinates of the Lost Treasure."""

from __future__ import annotations

from rules.martinique.game import Martinique

GAME = Martinique()

__all__ = ["GAME", "Martinique"]
