"""Pirate-item icons drawn from Pillow primitives, shared by every board that shows them (Cartagena's
symbols, Martinique's artifacts). Primitives, not image files, so every machine draws the same bytes.
Each icon is drawn centred on (x, y) and fits a square of side ``s``."""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from renderers.common import INK

ICON = {
    "parrot": ("#009E73", "#D55E00"),
    "telescope": ("#C9A227", "#6D4C41"),
    "musket": ("#6D4C41", "#37474F"),
    "bottle": ("#2E7D32", "#A5D6A7"),
    "dagger": ("#90A4AE", "#6D4C41"),
    "hat": ("#263238", "#F9A825"),
    "key": ("#F9A825", "#8D6E00"),
    "pistol": ("#6D4C41", "#37474F"),
    "skull": ("#F5F1E6", "#1E1E1E"),
}
HOLE = "#D8CDB8"  # the key's bow, the colour of the stone it lies on


def _bottle(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    glass, label = ICON["bottle"]
    d.rounded_rectangle(
        (x - 0.24 * s, y - 0.08 * s, x + 0.24 * s, y + 0.46 * s), 0.1 * s, fill=glass, outline=INK, width=2
    )
    d.polygon(
        [
            (x - 0.24 * s, y - 0.02 * s),
            (x - 0.09 * s, y - 0.22 * s),
            (x + 0.09 * s, y - 0.22 * s),
            (x + 0.24 * s, y - 0.02 * s),
        ],
        fill=glass,
        outline=INK,
    )
    d.rectangle((x - 0.08 * s, y - 0.4 * s, x + 0.08 * s, y - 0.2 * s), fill=glass, outline=INK, width=2)
    d.rectangle((x - 0.1 * s, y - 0.5 * s, x + 0.1 * s, y - 0.38 * s), fill="#A1887F", outline=INK, width=2)
    d.rectangle((x - 0.24 * s, y + 0.08 * s, x + 0.24 * s, y + 0.26 * s), fill=label, outline=INK, width=1)


def _dagger(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    steel, wood = ICON["dagger"]
    d.polygon([(x, y - 0.5 * s), (x + 0.11 * s, y + 0.12 * s), (x - 0.11 * s, y + 0.12 * s)], fill=steel, outline=INK)
    d.line((x, y - 0.4 * s, x, y + 0.1 * s), fill="#ECEFF1", width=2)
    d.rounded_rectangle(
        (x - 0.3 * s, y + 0.1 * s, x + 0.3 * s, y + 0.2 * s), 0.04 * s, fill="#C9A227", outline=INK, width=2
    )
    d.rectangle((x - 0.06 * s, y + 0.2 * s, x + 0.06 * s, y + 0.42 * s), fill=wood, outline=INK, width=2)
    d.ellipse((x - 0.09 * s, y + 0.4 * s, x + 0.09 * s, y + 0.54 * s), fill="#C9A227", outline=INK, width=2)


def _hat(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    """A pirate captain's hat: a high crown over a brim whose ends turn up, trimmed with gold braid."""
    felt, trim = ICON["hat"]
    s *= 0.88  # the widest icon: keep it clear of the space's letter
    y += 0.06 * s
    d.chord((x - 0.42 * s, y - 0.5 * s, x + 0.42 * s, y + 0.3 * s), 180, 360, fill=felt, outline=INK, width=2)
    brim = [
        (x - 0.6 * s, y - 0.3 * s),
        (x - 0.42 * s, y - 0.08 * s),
        (x + 0.42 * s, y - 0.08 * s),
        (x + 0.6 * s, y - 0.3 * s),
        (x + 0.52 * s, y + 0.1 * s),
        (x + 0.3 * s, y + 0.22 * s),
        (x - 0.3 * s, y + 0.22 * s),
        (x - 0.52 * s, y + 0.1 * s),
    ]
    d.polygon(brim, fill=felt, outline=INK)
    d.line([*brim[4:], brim[0]], fill=trim, width=4, joint="curve")
    d.line([brim[3], brim[4]], fill=trim, width=4)
    d.line((x - 0.4 * s, y - 0.14 * s, x + 0.4 * s, y - 0.14 * s), fill=trim, width=3)


def _key(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    gold, dark = ICON["key"]
    d.ellipse((x - 0.5 * s, y - 0.2 * s, x - 0.1 * s, y + 0.2 * s), fill=gold, outline=INK, width=2)
    d.ellipse((x - 0.37 * s, y - 0.07 * s, x - 0.23 * s, y + 0.07 * s), fill=HOLE, outline=INK, width=2)
    d.rectangle((x - 0.12 * s, y - 0.06 * s, x + 0.48 * s, y + 0.06 * s), fill=gold, outline=INK, width=2)
    d.rectangle((x + 0.26 * s, y + 0.05 * s, x + 0.34 * s, y + 0.24 * s), fill=gold, outline=INK, width=2)
    d.rectangle((x + 0.38 * s, y + 0.05 * s, x + 0.48 * s, y + 0.3 * s), fill=gold, outline=INK, width=2)
    d.line((x - 0.08 * s, y, x + 0.44 * s, y), fill=dark, width=1)


def _pistol(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    wood, metal = ICON["pistol"]
    d.rectangle((x - 0.2 * s, y - 0.2 * s, x + 0.52 * s, y - 0.06 * s), fill=metal, outline=INK, width=2)
    d.ellipse((x + 0.44 * s, y - 0.22 * s, x + 0.56 * s, y - 0.04 * s), fill=metal, outline=INK, width=2)
    grip = [
        (x - 0.36 * s, y - 0.24 * s),
        (x - 0.1 * s, y - 0.24 * s),
        (x - 0.06 * s, y),
        (x - 0.28 * s, y + 0.44 * s),
        (x - 0.52 * s, y + 0.38 * s),
    ]
    d.polygon(grip, fill=wood, outline=INK)
    d.line(grip + [grip[0]], fill=INK, width=2)
    d.arc((x - 0.12 * s, y - 0.12 * s, x + 0.14 * s, y + 0.16 * s), 0, 180, fill=INK, width=3)
    d.line((x - 0.02 * s, y - 0.06 * s, x + 0.02 * s, y + 0.06 * s), fill=INK, width=3)
    d.polygon([(x - 0.3 * s, y - 0.24 * s), (x - 0.36 * s, y - 0.36 * s), (x - 0.24 * s, y - 0.24 * s)], fill=INK)


def _skull(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    bone, dark = ICON["skull"]
    d.rounded_rectangle(
        (x - 0.2 * s, y + 0.1 * s, x + 0.2 * s, y + 0.44 * s), 0.06 * s, fill=bone, outline=INK, width=2
    )
    d.ellipse((x - 0.4 * s, y - 0.46 * s, x + 0.4 * s, y + 0.3 * s), fill=bone, outline=INK, width=2)
    d.rectangle((x - 0.18 * s, y + 0.2 * s, x + 0.18 * s, y + 0.3 * s), fill=bone)
    d.ellipse((x - 0.28 * s, y - 0.16 * s, x - 0.06 * s, y + 0.08 * s), fill=dark)
    d.ellipse((x + 0.06 * s, y - 0.16 * s, x + 0.28 * s, y + 0.08 * s), fill=dark)
    d.polygon([(x, y + 0.1 * s), (x - 0.06 * s, y + 0.22 * s), (x + 0.06 * s, y + 0.22 * s)], fill=dark)
    for k in (-1, 0, 1):
        d.line((x + k * 0.09 * s, y + 0.3 * s, x + k * 0.09 * s, y + 0.44 * s), fill=dark, width=2)


def _musket(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    wood, metal = ICON["musket"]
    d.line((x - 0.5 * s, y + 0.26 * s, x + 0.5 * s, y - 0.3 * s), fill=INK, width=max(3, int(0.1 * s)) + 2)
    d.line((x - 0.5 * s, y + 0.26 * s, x + 0.5 * s, y - 0.3 * s), fill=metal, width=max(3, int(0.1 * s)))
    stock = [(x - 0.56 * s, y + 0.2 * s), (x - 0.1 * s, y - 0.02 * s), (x - 0.02 * s, y + 0.12 * s),
             (x - 0.46 * s, y + 0.46 * s)]  # fmt: skip
    d.polygon(stock, fill=wood, outline=INK)
    d.line((x - 0.08 * s, y + 0.06 * s, x - 0.02 * s, y + 0.2 * s), fill=INK, width=2)


def _parrot(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    feather, beak = ICON["parrot"]
    d.ellipse((x - 0.3 * s, y - 0.2 * s, x + 0.22 * s, y + 0.4 * s), fill=feather, outline=INK, width=2)
    d.ellipse((x - 0.14 * s, y - 0.48 * s, x + 0.2 * s, y - 0.12 * s), fill=feather, outline=INK, width=2)
    d.polygon([(x + 0.16 * s, y - 0.36 * s), (x + 0.4 * s, y - 0.24 * s), (x + 0.16 * s, y - 0.16 * s)],
              fill=beak, outline=INK)  # fmt: skip
    d.ellipse((x + 0.02 * s, y - 0.36 * s, x + 0.1 * s, y - 0.28 * s), fill=INK)
    d.polygon([(x - 0.24 * s, y + 0.3 * s), (x - 0.4 * s, y + 0.52 * s), (x - 0.06 * s, y + 0.4 * s)],
              fill=feather, outline=INK)  # fmt: skip


def _telescope(d: ImageDraw.ImageDraw, x: float, y: float, s: float) -> None:
    brass, leather = ICON["telescope"]
    tube = [(x - 0.5 * s, y + 0.14 * s), (x + 0.44 * s, y - 0.34 * s), (x + 0.52 * s, y - 0.18 * s),
            (x - 0.44 * s, y + 0.3 * s)]  # fmt: skip
    d.polygon(tube, fill=brass, outline=INK)
    grip = [(x - 0.2 * s, y - 0.01 * s), (x + 0.06 * s, y - 0.14 * s), (x + 0.13 * s, y + 0.0 * s),
            (x - 0.13 * s, y + 0.14 * s)]  # fmt: skip
    d.polygon(grip, fill=leather, outline=INK)
    d.line((x + 0.3 * s, y - 0.27 * s, x + 0.38 * s, y - 0.11 * s), fill=INK, width=2)


ICONS: dict[str, Callable[[ImageDraw.ImageDraw, float, float, float], None]] = {
    "bottle": _bottle,
    "dagger": _dagger,
    "hat": _hat,
    "key": _key,
    "musket": _musket,
    "parrot": _parrot,
    "pistol": _pistol,
    "rum": _bottle,
    "skull": _skull,
    "telescope": _telescope,
}


def icon(d: ImageDraw.ImageDraw, name: str, centre: tuple[float, float], size: float) -> None:
    """Draw the icon ``name`` centred on ``centre`` in a square of side ``size``."""
    ICONS[name](d, centre[0], centre[1], size)
