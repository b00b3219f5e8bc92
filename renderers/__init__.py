"""Pictures of views. ``render(game_id, view, seat=None)`` finds ``renderers/<game_id>.py``.

Every game's renderer offers the same four functions:

- ``render(view, *, seat=None) -> bytes``: the board (public) or a seat's private picture, as PNG;
- ``picture(view) -> Image``: the public board as the palette image ``render`` encodes (the replay's frames);
- ``caption(view, seat=None) -> str``: the fine print the picture leaves to the message (a few short lines of
  Markdown), plain text and cheap, since the host builds it on its event loop;
- ``zoom(view, seat=None) -> bytes``: a full-resolution close-up of the public board around the last move (or,
  before any move, around ``seat``'s pieces), drawn from the public view only.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from PIL import Image


def _module(game_id: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"renderers.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"renderers.{game_id}":
            raise
        return None


def render(game_id: str, view: dict[str, Any], seat: int | None = None) -> bytes:
    """PNG bytes of ``view``: public when ``seat`` is None, else the private picture for that seat."""
    module = importlib.import_module(f"renderers.{game_id}")
    return module.render(view, seat=seat)


def picture(game_id: str, view: dict[str, Any]) -> Image.Image:
    """The public picture of ``view`` as a palette image, not yet encoded."""
    module = importlib.import_module(f"renderers.{game_id}")
    return module.picture(view)


def caption(game_id: str, view: dict[str, Any], seat: int | None = None) -> str:
    """The text that goes with the picture of ``view`` ("" for a game without a renderer of its own)."""
    module = _module(game_id)
    return module.caption(view, seat) if module is not None else ""


def zoom(game_id: str, view: dict[str, Any], seat: int | None = None) -> bytes:
    """PNG bytes of a close-up of the public ``view`` (``seat``: whose pieces to show when nothing moved yet)."""
    module = importlib.import_module(f"renderers.{game_id}")
    return module.zoom(view, seat)
