"""The toy's picture (a real game's is ``renderers/<game>.py``): a small deterministic drawing of the view."""

from __future__ import annotations

from typing import Any


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    from renderers.common import canvas, font, to_png

    img, draw = canvas(240, 80)
    draw.text((4, 4), f"pile {view['pile']} left {view['left']}", font=font(14), fill="#000000")
    if seat is not None:
        draw.text((4, 30), " ".join(view["hand"]), font=font(12), fill="#000000")
    return to_png(img)
