"""Pictures of views. ``render(game_id, view, seat=None)`` finds ``renderers/<game_id>.py``."""

from __future__ import annotations

import importlib
from typing import Any


def render(game_id: str, view: dict[str, Any], seat: int | None = None) -> bytes:
    """PNG bytes of ``view``: public when ``seat`` is None, else the private picture for that seat."""
    module = importlib.import_module(f"renderers.{game_id}")
    return module.render(view, seat=seat)
