"""Cartagena: race six pirates through the tunnel onto the sloop (spec ``shared/specs/cartagena.md``)."""

from __future__ import annotations

from rules.cartagena.engine import GAME, Cartagena

__all__ = ["GAME", "Cartagena"]
