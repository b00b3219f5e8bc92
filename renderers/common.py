"""Drawing helpers shared by every game's renderer: fonts, a colour-blind-safe palette, tokens, legends.

Renderers draw from a view dict only, so a public picture cannot show a secret by construction.
Fonts are the DejaVu faces shipped in ``renderers/fonts`` so every machine draws the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

# Okabe–Ito: distinguishable under the common colour-vision deficiencies. Always pair a colour with a
# letter or shape as well (``token`` below draws the letter).
SEAT_COLOURS: tuple[str, ...] = (
    "#D55E00",  # vermillion
    "#0072B2",  # blue
    "#F0E442",  # yellow
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
)
SEAT_COLOUR_NAMES: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green", "Purple", "Orange", "Sky", "Black")

INK = "#1E1E1E"
PAPER = "#F4ECD8"  # parchment
SEA = "#9CC9E0"
HIGHLIGHT = "#FF2D95"  # the last move; magenta stands out from every seat colour
MUTED = "#6B6257"


def _face(bold: bool, mono: bool) -> str:
    return str(FONT_DIR / ("DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")))


class RememberingFont(ImageFont.FreeTypeFont):
    """A FreeType face that remembers the coverage mask and advance of each string it has laid out.

    Boards repeat most of their words (labels, numbers, names, headings) from one picture to the next, and
    FreeType layout is the biggest drawing cost left once the static art is cached. ``ImageDraw.text`` asks
    the font for ``getmask2(text, ..., anchor, start=<sub-pixel offset>)``; the answer is a pure function
    of those arguments, so remembering it changes no pixel. The memory is keyed by the exact string, so it
    can only ever be handed back for that same string: nothing crosses from one picture to another. Private
    panels draw their free-form lines (hands, plans, deductions) with :func:`plain_font`, so those are never
    kept; only fixed vocabulary (catalogue card text, letters, small numbers) is remembered there. Bounded
    per face (entries and mask bytes, a few MB at most): cleared when full, so a long-running bot never grows
    without limit."""

    LIMIT = 4096
    MASK_BYTES = 2 << 20

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size)
        self._masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
        self._mask_bytes = 0
        self._lengths: dict[tuple[str, str], float] = {}

    def getmask2(  # type: ignore[override]
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        if direction or features or language or args or mode == "RGBA":  # ink only matters for colour glyphs
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        key = (text, mode, stroke_width, anchor, start, tuple(sorted(kwargs.items())))
        hit = self._masks.get(key)
        if hit is None:
            hit = super().getmask2(text, mode, None, None, None, stroke_width, anchor, ink, start, **kwargs)
            width, height = hit[0].size
            if len(self._masks) >= self.LIMIT or self._mask_bytes + width * height > self.MASK_BYTES:
                self._masks.clear()
                self._mask_bytes = 0
            self._masks[key] = hit
            self._mask_bytes += width * height
        return hit

    def getlength(  # type: ignore[override]
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction or features or language:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode)
        hit = self._lengths.get(key)
        if hit is None:
            hit = super().getlength(text, mode)
            if len(self._lengths) >= self.LIMIT:
                self._lengths.clear()
            self._lengths[key] = hit
        return hit


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The shared face for board text; it remembers the strings it has drawn (see :class:`RememberingFont`)."""
    return RememberingFont(_face(bold, mono), size)


@lru_cache(maxsize=64)
def plain_font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    """The same face without the memory, for private panels (hands, plans): their strings are never kept."""
    return ImageFont.truetype(_face(bold, mono), size)


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#RRGGBB``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#FFFFFF"


def canvas(width: int, height: int, colour: str = PAPER) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def centered_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: str = INK, bold: bool = False
) -> None:
    draw.text(xy, text, font=font(size, bold), fill=fill, anchor="mm")


def token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    colour: str,
    label: str,
    outline: str = INK,
    shape: str = "circle",
) -> None:
    """A seat's piece: a filled circle (or ``square``/``diamond``) with a letter or number on it."""
    x, y = centre
    box = (x - radius, y - radius, x + radius, y + radius)
    if shape == "square":
        draw.rectangle(box, fill=colour, outline=outline, width=2)
    elif shape == "diamond":
        draw.polygon([(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)], fill=colour, outline=outline)
    else:
        draw.ellipse(box, fill=colour, outline=outline, width=2)
    draw.text((x, y), label, font=font(max(10, int(radius * 1.1)), bold=True), fill=text_on(colour), anchor="mm")


def legend(
    draw: ImageDraw.ImageDraw, origin: tuple[float, float], entries: list[tuple[str, str, str]], size: int = 22
) -> float:
    """Draw ``(colour, mark, text)`` rows from ``origin``; returns the y below the last row."""
    x, y = origin
    for colour, mark, text in entries:
        token(draw, (x + size / 2, y + size / 2), size / 2, colour, mark)
        draw.text((x + size + 10, y + size / 2), text, font=font(size - 4), fill=INK, anchor="lm")
        y += size + 8
    return y


def wrap(text: str, fnt: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy word wrap to ``width`` pixels."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and fnt.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def rgb(colour: str) -> tuple[int, int, int]:
    """``#RRGGBB`` → ``(r, g, b)``."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def fixed_palette(
    solid: Iterable[str], blends: Iterable[tuple[str, str]] = (), steps: Sequence[float] = (0.25, 0.5, 0.75)
) -> Image.Image:
    """A palette image holding every ``solid`` colour a renderer paints, plus, for each ``(fg, bg)`` pair, the
    blends anti-aliased text and shapes leave at the given weights of ``fg``. At most 256 entries are kept.

    Mapping a picture onto a known palette costs a few milliseconds where an adaptive quantise of a large
    board costs 100–200 ms, keeps flat colours exact and gives the same bytes for the same picture."""
    colours = [rgb(c) for c in solid]
    for fg, bg in blends:
        a, b = rgb(fg), rgb(bg)
        for t in steps:
            colours.append(tuple(round(b[i] + (a[i] - b[i]) * t) for i in range(3)))  # type: ignore[arg-type]
    unique = list(dict.fromkeys(colours))[:256]
    flat = [v for c in unique for v in c]
    flat += flat[:3] * (256 - len(unique))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def to_png(img: Image.Image, palette: Image.Image | None = None, compress_level: int = 6) -> bytes:
    """PNG bytes in at most 256 colours: flat board art needs no more and is under half the bytes of RGB.

    With a ``palette`` (see :func:`fixed_palette`) the picture is mapped onto it; without one, the fast
    octree quantiser picks 128 colours (deterministic, about 2.5× quicker than median cut)."""
    out = io.BytesIO()
    if palette is not None:
        indexed = img.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        indexed = img.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


@lru_cache(maxsize=1)
def tiny_png() -> bytes:
    """An 8×8 blank picture for tests and benchmarks that are about everything but drawing."""
    img, _ = canvas(8, 8)
    return to_png(img)
