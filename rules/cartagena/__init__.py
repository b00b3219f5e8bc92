"""Cartagena: race six pirates through the tunnel onto the sloop (docs/games/cartagena.md)."""

from __future__ import annotations

from rules.cartagena.game import GAME

__all__ = ["GAME"]
