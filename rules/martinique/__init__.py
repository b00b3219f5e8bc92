"""Martinique: two crews comb an island for souvenirs and the coordinates of the Lost Treasure
(docs/games/martinique.md)."""

from __future__ import annotations

from rules.martinique.game import GAME

__all__ = ["GAME"]
