"""Flagon: The Dragon & Flagon pirate brawl on two ships (spec ../shared/specs/flagon.md)."""

from __future__ import annotations

from .game import GAME, Flagon

__all__ = ["GAME", "Flagon"]
