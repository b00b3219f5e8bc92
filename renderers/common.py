"""Drawing helpers shared by every game's renderer: fonts and measured text, a colour-blind-safe palette, tokens,
encoding and close-ups.

Renderers draw from a view dict only, so a public picture cannot show a secret by construction.
Fonts are the DejaVu faces shipped in ``renderers/fonts`` so every machine draws the same bytes.
"""

from __future__ import annotations

import math
import struct
import sys
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from isal import isal_zlib
from PIL import Image, ImageColor, ImageDraw, ImageFont

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
    """The same face without the memory, for measuring and for the word masks :class:`_Words` keeps itself."""
    return ImageFont.truetype(_face(bold, mono), size)


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#RRGGBB``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#FFFFFF"


def canvas(width: int, height: int, colour: str = PAPER) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


# -- text: every label of every picture is drawn by :func:`text`, so its size can be measured ----------------
#: Discord's inline preview box on desktop; a picture is shown scaled by min(550 / W, 350 / H)
PREVIEW = (550, 350)
#: the smallest a label may be once the picture is scaled into the preview box, in pixels
MIN_PREVIEW_TEXT = 8


def preview_scale(size: tuple[int, int]) -> float:
    """The factor Discord's inline preview scales a ``size`` picture by (never enlarged)."""
    return min(1.0, PREVIEW[0] / size[0], PREVIEW[1] / size[1])


@dataclass
class TextLog:
    """The font size (pixel height of the em) of every label drawn while it is active, grouped by the picture
    it ended up in: :func:`to_png` closes a group with that picture's canvas size."""

    pending: list[tuple[int, str]] = field(default_factory=list)
    pictures: list[tuple[tuple[int, int], list[tuple[int, str]]]] = field(default_factory=list)

    def close(self, size: tuple[int, int]) -> None:
        self.pictures.append((size, self.pending))
        self.pending = []


_LOG: ContextVar[TextLog | None] = ContextVar("parley_text_log", default=None)


@contextmanager
def measuring() -> Iterator[TextLog]:
    """Record every label drawn through :func:`text` inside the block (for the text-size tests). Cached
    sprites and backgrounds are drawn once per process: clear the renderers' caches first to see them all."""
    log = TextLog()
    token_ = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token_)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    *,
    fill: Any = INK,
    bold: bool = False,
    mono: bool = False,
    anchor: str = "la",
    private: bool = False,
    stroke: int = 0,
    stroke_fill: Any = None,
) -> None:
    """Draw one label ``size`` pixels high (the em), anchored as Pillow anchors text.

    Board text is laid out word by word from remembered glyph masks (:class:`_Words`): a board's new strings
    ("Turn 35 · Green") are mostly old words, and rasterising a new string costs 100-150 µs where pasting its
    known words costs a few. ``private`` text (a hand, a plan, a deduction) is laid out as a whole string, as
    Pillow lays it out, from the remembering face (:class:`RememberingFont`: a mask is only ever handed back for the
    same string, so nothing crosses from one seat's picture to another's); so is any anchor on the ink's own top or
    bottom (``t``/``b``), which depends on the whole string. On a :class:`Picture` (``draw`` its
    :class:`PaletteDraw`) the label is blended in RGB over the pixels under it, then mapped onto the palette: the
    same anti-aliased pixels as drawing on an RGB canvas."""
    log = _LOG.get()
    if log is not None:
        log.pending.append((size, s))
    picture = draw.picture if isinstance(draw, PaletteDraw) else None
    if "\n" in s or (picture is None and (private or anchor[1] in "tb")):
        face = font(size, bold, mono)
        if picture is None:
            draw.text(xy, s, font=face, fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
            return
        x0, y0, x1, y1 = _MEASURE.textbbox(xy, s, font=face, anchor=anchor, stroke_width=stroke)
        box = (math.floor(x0) - 2, math.floor(y0) - 2, math.ceil(x1) + 2, math.ceil(y1) + 2)

        def paint(rgb: Any, ox: int, oy: int) -> None:
            # an integer shift keeps the sub-pixel offset, so the glyphs are those of the whole canvas
            ImageDraw.ImageDraw(_wrap(rgb)).text(
                (xy[0] - ox, xy[1] - oy), s, font=face, fill=fill, anchor=anchor, stroke_width=stroke,
                stroke_fill=stroke_fill,
            )  # fmt: skip

        picture.blend(box, paint)
        return
    if picture is not None and (private or anchor[1] in "tb"):
        ink = ImageColor.getrgb(fill) if isinstance(fill, str) else fill
        halo = ink if stroke_fill is None else ImageColor.getrgb(stroke_fill) if isinstance(stroke_fill, str) else stroke_fill
        placed, start = _whole(xy, s, size, bold, mono, anchor, stroke, halo == ink)
        picture.label(placed, (s, size, bold, mono, stroke, "whole", anchor, start), ink, halo)
        return
    placed = _WORDS.layout(xy, s, size, bold, mono, anchor, stroke)
    if picture is None:
        mode = draw.im.mode
        ink = ImageColor.getcolor(fill, mode) if isinstance(fill, str) else fill
        halo = ImageColor.getcolor(stroke_fill, mode) if isinstance(stroke_fill, str) else stroke_fill
        for mask, x, y, outline in placed:
            draw.im.paste(halo if outline else ink, (x, y, x + mask.size[0], y + mask.size[1]), mask)
        return
    ink = ImageColor.getrgb(fill) if isinstance(fill, str) else fill
    halo = ImageColor.getrgb(stroke_fill) if isinstance(stroke_fill, str) else stroke_fill
    picture.label(placed, (s, size, bold, mono, stroke), ink, halo)


def _whole(
    xy: tuple[float, float], s: str, size: int, bold: bool, mono: bool, anchor: str, stroke: int, halo_only: bool
) -> tuple[list[tuple[Any, int, int, bool]], tuple[float, float]]:
    """Where the masks of ``s`` laid out whole go, exactly as ``ImageDraw.text`` places them on one line (its
    sub-pixel start, the halo first, no ink over a halo of the same colour), as (mask, x, y, is the halo); and the
    sub-pixel start."""
    face = font(size, bold, mono)
    start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
    x, y = int(xy[0]), int(xy[1])
    placed: list[tuple[Any, int, int, bool]] = []
    if stroke:
        mask, (ox, oy) = face.getmask2(s, "L", None, None, None, stroke, anchor, 0, start, stroke_filled=True)
        placed.append((mask, x + ox, y + oy, True))
        if halo_only:
            return placed, start
    mask, (ox, oy) = face.getmask2(s, "L", None, None, None, 0, anchor, 0, start, stroke_filled=True)
    placed.append((mask, x + ox, y + oy, False))
    return placed, start


#: measures the box of a label drawn by Pillow (the size of the image it belongs to does not matter)
_MEASURE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


def _wrap(core: Any) -> Image.Image:
    """An Image around one of Pillow's core images (for drawing on a :meth:`Picture.blend` patch)."""
    img = Image.new(core.mode, (1, 1))
    img.im = core
    img._size = core.size  # noqa: SLF001 - Image keeps its size beside the core image
    return img


class _Words:
    """Glyph masks of single words, remembered per face, size and stroke, bounded like :class:`RememberingFont`.
    Keyed by the exact word, so a mask is only ever handed back for that same word."""

    LIMIT = 8192
    MASK_BYTES = 8 << 20

    def __init__(self) -> None:
        self._masks: dict[tuple[Any, ...], tuple[Any, int, int, float]] = {}
        self._bytes = 0

    def word(self, w: str, size: int, bold: bool, mono: bool, stroke: int) -> tuple[Any, int, int, float]:
        """(mask, dx, dy, advance) of ``w`` anchored at its baseline's left end."""
        key = (w, size, bold, mono, stroke)
        hit = self._masks.get(key)
        if hit is None:
            fnt = plain_font(size, bold, mono)  # this memory is the only one: no second copy in the face
            mask, (dx, dy) = fnt.getmask2(w, "L", anchor="ls", stroke_width=stroke)
            hit = (mask, dx, dy, fnt.getlength(w))
            if len(self._masks) >= self.LIMIT or self._bytes > self.MASK_BYTES:
                self._masks.clear()
                self._bytes = 0
            self._masks[key] = hit
            self._bytes += mask.size[0] * mask.size[1]
        return hit

    def width(self, s: str, size: int, bold: bool, mono: bool) -> float:
        space = self.word(" ", size, bold, mono, 0)[3]
        words = s.split(" ")
        return sum(self.word(w, size, bold, mono, 0)[3] for w in words if w) + space * (len(words) - 1)

    def layout(
        self, xy: tuple[float, float], s: str, size: int, bold: bool, mono: bool, anchor: str, stroke: int
    ) -> list[tuple[Any, int, int, bool]]:
        """Where each word's masks go: (mask, x, y, is the stroke's halo), halo before ink, word by word."""
        x, y = xy
        if anchor[0] != "l":
            width = self.width(s, size, bold, mono)
            x -= width if anchor[0] == "r" else width / 2
        ascent, descent = plain_font(size, bold, mono).getmetrics()
        v = anchor[1]
        baseline = y + (ascent if v == "a" else (ascent - descent) / 2 if v == "m" else -descent if v == "d" else 0)
        space = self.word(" ", size, bold, mono, 0)[3]
        by = round(baseline)
        placed: list[tuple[Any, int, int, bool]] = []
        for w in s.split(" "):
            if w:
                px = round(x)
                if stroke:
                    mask, dx, dy, _ = self.word(w, size, bold, mono, stroke)
                    placed.append((mask, px + dx, by + dy, True))
                mask, dx, dy, advance = self.word(w, size, bold, mono, 0)
                placed.append((mask, px + dx, by + dy, False))
                x += advance
            x += space
        return placed


_WORDS = _Words()


def text_width(s: str, size: int, bold: bool = False, mono: bool = False) -> float:
    """How wide :func:`text` draws ``s``."""
    return _WORDS.width(s, size, bold, mono)


def fit_size(s: str, size: int, width: float, bold: bool = False, smallest: int = 1) -> int:
    """The largest size up to ``size`` (and at least ``smallest``) at which ``s`` fits in ``width`` pixels."""
    while size > smallest and text_width(s, size, bold) > width:
        size -= 1
    return size


def centered_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: str = INK, bold: bool = False
) -> None:
    text(draw, xy, s, size, fill=fill, bold=bold, anchor="mm")


def token(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    colour: str,
    label: str,
    outline: str = INK,
    shape: str = "circle",
    size: int | None = None,
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
    text(draw, (x, y), label, size or max(10, int(radius * 1.1)), fill=text_on(colour), bold=True, anchor="mm")


def wrap_board(s: str, size: int, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of board text (never a hand's) to ``width`` pixels as :func:`text` lays it out: measured
    from the remembered words, so a new sentence costs no new layout."""
    space = text_width(" ", size, bold)
    lines: list[str] = []
    for para in s.split("\n"):
        line, used = "", 0.0
        for word in para.split():
            w = text_width(word, size, bold)
            if line and used + space + w > width:
                lines.append(line)
                line, used = word, w
            else:
                line, used = (f"{line} {word}", used + space + w) if line else (word, w)
        lines.append(line)
    return lines


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


class _Patches:
    """Palette patches (labels blended on a plain background, sprites mapped onto the palette) by exact key,
    bounded in count and pixels like :class:`RememberingFont`'s memory: cleared when full. A few MB per palette,
    so a render worker's caches stay well under its recycling bound."""

    LIMIT = 4096

    def __init__(self, pixels: int) -> None:
        self.PIXELS = pixels  # a palette image's bytes: one per pixel
        self._items: dict[Any, Any] = {}
        self._pixels = 0

    def get(self, key: Any) -> Any:
        return self._items.get(key)

    def put(self, key: Any, patch: Any, pixels: int | None = None) -> None:
        if pixels is None:
            w, h = patch.size
            pixels = w * h
        if len(self._items) >= self.LIMIT or self._pixels + pixels > self.PIXELS:
            self._items.clear()
            self._pixels = 0
        self._items[key] = patch
        self._pixels += pixels

    def cache_clear(self) -> None:
        self._items.clear()
        self._pixels = 0


class Palette:
    """A renderer's fixed palette (see :func:`fixed_palette`) and the entry each colour it paints maps to: the one
    Pillow's own mapping picks, so a shape drawn straight into a :class:`Picture` has the pixels the same shape drawn
    in RGB and mapped afterwards would have."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self._entries: dict[Any, int] = {}
        self._sprites = _Patches(4 << 20)
        self._shades: dict[Any, list[int]] = {}
        #: blended labels on plain backgrounds, see :meth:`Picture.label`
        self.patches = _Patches(2 << 20)

    def ink(self, colour: Any) -> int:
        """The entry of ``colour`` (``#RRGGBB``, a colour name or an opaque RGB(A) tuple; an int is an entry)."""
        if isinstance(colour, int):
            return colour
        hit = self._entries.get(colour)
        if hit is None:
            rgba = ImageColor.getrgb(colour) if isinstance(colour, str) else tuple(colour)
            if len(rgba) == 4 and rgba[3] != 255:
                raise ValueError(f"a palette picture paints opaque colours ({colour!r}): blend it with Picture.tint")
            probe = self.map(Image.new("RGB", (1, 1), rgba[:3]))
            hit = self._entries[colour] = int(probe.getpixel((0, 0)))  # type: ignore[arg-type]
        return hit

    def shades(self, colour: Any, alpha: int) -> list[int]:
        """For each entry, the entry a pixel of it becomes under ``colour`` at ``alpha``: blended in RGB as
        :meth:`Picture.tint` blends, then mapped back as it maps (every pixel of one entry gives the same pixel)."""
        key = ("shades", colour, alpha)
        hit = self._shades.get(key)
        if hit is None:
            entries = Image.new("P", (256, 1))
            entries.putdata(range(256))
            entries.putpalette(self.image.getpalette())  # type: ignore[arg-type]
            rgb = entries.convert("RGB").im
            ink = ImageColor.getrgb(colour) if isinstance(colour, str) else colour
            rgb.paste(ink, (0, 0, 256, 1), Image.new("L", (256, 1), alpha).im)
            hit = self._shades[key] = list(_wrap(rgb.convert("P", 0, self.image.im)).getdata())
        return hit

    def map(self, img: Image.Image) -> Image.Image:
        """``img`` (RGB) mapped onto the palette, each pixel to its nearest entry."""
        return img.quantize(palette=self.image, dither=Image.Dither.NONE)

    def sprite(self, img: Image.Image) -> Image.Image:
        """An opaque RGB sprite mapped onto the palette once and remembered while the sprite lives in its own cache
        (held weakly: the identity check keeps a recycled id from handing back another sprite's pixels)."""
        hit = self._sprites.get(id(img))
        if hit is None or hit[0]() is not img:
            hit = (weakref.ref(img), self.map(img))
            self._sprites.put(id(img), hit, img.width * img.height)
        return hit[1]


class PaletteDraw(ImageDraw.ImageDraw):
    """Pillow's drawing straight into a :class:`Picture`'s palette image. Shapes are not anti-aliased, so each
    colour is one palette entry; labels go through :func:`text`, which blends them."""

    def __init__(self, picture: Picture) -> None:
        super().__init__(picture.img)
        self.picture = picture

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        if ink is None and fill is None:
            return super()._getink(None, None)
        palette = self.picture.palette
        return (
            self.draw.draw_ink(palette.ink(ink)) if ink is not None else None,
            self.draw.draw_ink(palette.ink(fill)) if fill is not None else None,
        )


class Picture:
    """A picture drawn straight into its palette image over a pre-drawn static layer (``base``, already mapped onto
    ``palette``), so no whole RGB canvas is ever mapped onto the palette.

    Shapes are drawn straight into the palette image (:attr:`draw`); only what needs blending (a label's
    anti-aliased edges, a sprite's transparency, a translucent tint) is blended in RGB over the few pixels it
    covers, then mapped back. ``base`` is copied, never changed."""

    def __init__(self, base: Image.Image, palette: Palette) -> None:
        if base.mode != "P":
            raise ValueError("a Picture starts from a palette image")
        self.img = base.copy()
        self.palette = palette
        self.draw = PaletteDraw(self)

    @property
    def size(self) -> tuple[int, int]:
        return self.img.size

    @property
    def width(self) -> int:
        return self.img.width

    @property
    def height(self) -> int:
        return self.img.height

    def paste(self, sprite: Image.Image, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
        """Put ``sprite`` at ``xy``: a palette sprite (of this palette) or an opaque RGB one is copied; one with
        transparency (RGBA, or a ``mask``) is blended over what is under it."""
        x, y = int(xy[0]), int(xy[1])
        if sprite.mode == "P":
            self.img.paste(sprite, (x, y), mask)
        elif sprite.mode == "RGB" and mask is None:
            self.img.paste(self.palette.sprite(sprite), (x, y))
        else:
            core, alpha = sprite.im, (mask if mask is not None else sprite).im
            w, h = sprite.size
            self.blend(
                (x, y, x + w, y + h),
                lambda rgb, ox, oy: rgb.paste(core, (x - ox, y - oy, x - ox + w, y - oy + h), alpha),
            )

    def label(self, placed: list[tuple[Any, int, int, bool]], key: tuple[Any, ...], ink: Any, halo: Any) -> None:
        """Blend a label laid out by :meth:`_Words.layout` (``key``: its string and face). On a plain background (one
        palette entry under its whole box, as on most panels) the blended patch is remembered per label, colours
        and background, and later pasted as it is: the same pixels for a fraction of the work."""
        if not placed:
            return
        x0 = y0 = 1 << 30
        x1 = y1 = -(1 << 30)
        for mask, x, y, _ in placed:
            w, h = mask.size
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
        cx0, cy0 = max(0, x0), max(0, y0)
        cx1, cy1 = min(self.img.width, x1), min(self.img.height, y1)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        core = self.img.im
        region = core.crop((cx0, cy0, cx1, cy1))
        lo, hi = region.getextrema()
        patches = self.palette.patches
        hit = None
        if lo == hi:
            where = tuple((x - x0, y - y0) for _, x, y, _ in placed)
            memo = (key, where, ink, halo, lo, cx0 - x0, cy0 - y0, cx1 - x0, cy1 - y0)
            hit = patches.get(memo)
        if hit is None:
            rgb = region.convert("RGB")
            for mask, x, y, outline in placed:
                x, y = x - cx0, y - cy0
                rgb.paste(halo if outline else ink, (x, y, x + mask.size[0], y + mask.size[1]), mask)
            hit = rgb.convert("P", 0, self.palette.image.im)
            if lo == hi:
                patches.put(memo, hit)
        core.paste(hit, (cx0, cy0, cx1, cy1))

    def shade(self, colour: Any, alpha: int, box: tuple[int, int, int, int], where: Image.Image) -> None:
        """``colour`` at a constant ``alpha`` over the pixels of ``box`` where ``where`` (an 'L' image the size of
        ``box``, each pixel 0 or 255) is set: the pixels :meth:`tint` gives with ``where`` scaled to ``alpha``, mapped
        through a table of the palette's entries instead of blending and mapping every pixel (see
        :meth:`Palette.shades`)."""
        x0, y0, x1, y1 = box
        cx0, cy0 = max(0, x0), max(0, y0)
        cx1, cy1 = min(self.img.width, x1), min(self.img.height, y1)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        if (cx0, cy0, cx1, cy1) != box:
            where = where.crop((cx0 - x0, cy0 - y0, cx1 - x0, cy1 - y0))
        core = self.img.im
        shaded = core.crop((cx0, cy0, cx1, cy1)).point(self.palette.shades(colour, alpha), None)
        core.paste(shaded, (cx0, cy0, cx1, cy1), where.im)

    def keep(self, cache: Recent, key: Any, box: tuple[int, int, int, int], draw: Callable[[], None]) -> None:
        """Let ``draw()`` paint what lies inside ``box`` (and nothing outside it) once per ``key`` and pixels under
        the box; when both are met again the pixels it left are pasted instead. For the parts of a picture that
        change far less often than the picture (a calendar, a seat's row): a panel of labels costs a paste. The
        pixels under the box are compared, not trusted, so a hit is always the same pixels ``draw`` would give."""
        x0, y0 = max(0, box[0]), max(0, box[1])
        x1, y1 = min(self.img.width, box[2]), min(self.img.height, box[3])
        if x0 >= x1 or y0 >= y1:
            draw()
            return
        core = self.img.im
        under = _wrap(core.crop((x0, y0, x1, y1))).tobytes()
        hit = cache.get(key)
        if hit is not None and hit[0] == (x0, y0, x1, y1) and hit[1] == under:
            core.paste(hit[2], (x0, y0, x1, y1))
            return
        draw()
        cache[key] = ((x0, y0, x1, y1), under, core.crop((x0, y0, x1, y1)))

    def tint(self, colour: Any, box: tuple[int, int, int, int], mask: Image.Image) -> None:
        """``colour`` through ``mask`` (an 'L' image the size of ``box``: 255 solid, less translucent)."""
        ink, alpha = ImageColor.getrgb(colour) if isinstance(colour, str) else colour, mask.im
        x0, y0, x1, y1 = box
        self.blend(box, lambda rgb, ox, oy: rgb.paste(ink, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), alpha))

    def over(self, box: tuple[float, float, float, float], draw: Callable[[ImageDraw.ImageDraw, int, int], None]) -> None:
        """Translucent drawing: ``draw(d, left, top)`` draws with Pillow's RGBA blending (``d`` as
        ``ImageDraw.Draw(img, "RGBA")`` on an RGB canvas) on the pixels in ``box``, whose corner is at ``left, top``
        of the picture (shift every coordinate by it)."""
        self.blend(
            (math.floor(box[0]) - 1, math.floor(box[1]) - 1, math.ceil(box[2]) + 2, math.ceil(box[3]) + 2),
            lambda rgb, ox, oy: draw(ImageDraw.Draw(_wrap(rgb), "RGBA"), ox, oy),
        )

    def blend(self, box: tuple[int, int, int, int], paint: Callable[[Any, int, int], None]) -> None:
        """Let ``paint(rgb, left, top)`` draw on an RGB copy of the pixels in ``box`` (whose corner is at
        ``left, top`` of the picture; ``rgb`` is Pillow's core image, as ``Image.im``), then map them back onto the
        palette. The box is clipped to the picture. Pillow's core calls, not its Image wrappers: a label costs a few
        microseconds this way, several times less than through new Image objects."""
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(self.img.width, int(box[2])), min(self.img.height, int(box[3]))
        if x0 >= x1 or y0 >= y1:
            return
        core = self.img.im
        rgb = core.crop((x0, y0, x1, y1)).convert("RGB")
        paint(rgb, x0, y0)
        core.paste(rgb.convert("P", 0, self.palette.image.im), (x0, y0, x1, y1))

    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        return self.img.crop(box)

    def png(self) -> bytes:
        return encode(self.img)


# -- encoding -------------------------------------------------------------------------------------------------
#: ISA-L's fastest level that still searches for matches: among the lossless deflates on PyPI it is the quickest by
#: far (benchmarks/cpu.py, python -m benchmarks.encoders), and its files are smaller than Pillow's zlib at level 1
DEFLATE_LEVEL = 1
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", isal_zlib.crc32(data, isal_zlib.crc32(kind)))


def filtered_rows(img: Image.Image) -> bytes:
    """A palette image's pixels as PNG's scanlines: each row after a 0 byte (filter None, the best one for flat
    board art)."""
    rows = Image.new("P", (img.width + 1, img.height), 0)
    rows.paste(img, (1, 0))
    return rows.tobytes()


def encode(img: Image.Image, level: int = DEFLATE_LEVEL) -> bytes:
    """PNG bytes of a palette image, deflated by ISA-L: the same pixels always give the same bytes.

    Pillow's PNG writer deflates with zlib, 4-5× slower at level 1 than ISA-L for files 5-10% larger."""
    if img.mode != "P":
        raise ValueError("encode writes palette images; to_png maps others first")
    log = _LOG.get()
    if log is not None:
        log.close(img.size)
    palette = bytes(img.getpalette() or [0, 0, 0])  # type: ignore[arg-type]
    return b"".join(
        (
            _PNG_SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", img.width, img.height, 8, 3, 0, 0, 0)),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", isal_zlib.compress(filtered_rows(img), level)),
            _chunk(b"IEND", b""),
        )
    )


def to_png(img: Image.Image, palette: Image.Image | Palette | None = None) -> bytes:
    """PNG bytes in at most 256 colours: flat board art needs no more and is under half the bytes of RGB.

    A palette image is written as it is (see :func:`encode`). Any other is mapped first: onto ``palette`` (see
    :func:`fixed_palette`) if given, else onto 128 colours picked by the fast octree quantiser (deterministic)."""
    if img.mode == "P":
        return encode(img)
    if isinstance(palette, Palette):
        palette = palette.image
    if palette is not None:
        indexed = img.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        indexed = img.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return encode(indexed)


@lru_cache(maxsize=1)
def tiny_png() -> bytes:
    """An 8×8 blank picture for tests and benchmarks that are about everything but drawing."""
    img, _ = canvas(8, 8)
    return to_png(img)


#: a caption line that only explains the marks (a key) is Discord's small grey subtext: there to read, not to shout
KEY = "-# "


# -- memory -------------------------------------------------------------------------------------------------
class Recent(dict[Any, Any]):
    """The last ``size`` entries put in, oldest out first: for cached drawings keyed by more than ``lru_cache`` can
    take as arguments. ``cache_clear`` like an ``lru_cache``, so :func:`clear_caches` finds it."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self and len(self) >= self.size:
            del self[next(iter(self))]
        super().__setitem__(key, value)

    def cache_clear(self) -> None:
        self.clear()


def clear_caches() -> None:
    """Forget every cached drawing of every loaded renderer (sprites, backgrounds, layers), so the next pictures
    draw everything again: what the text-size tests need to see every label."""
    for name, module in list(sys.modules.items()):
        if name == "renderers" or name.startswith("renderers."):
            for value in vars(module).values():
                if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


# -- close-ups ----------------------------------------------------------------------------------------------
Box = tuple[float, float, float, float]


def union(boxes: Iterable[Box]) -> Box | None:
    """The smallest box holding every one of ``boxes`` (None for none)."""
    found = list(boxes)
    if not found:
        return None
    return (
        min(b[0] for b in found),
        min(b[1] for b in found),
        max(b[2] for b in found),
        max(b[3] for b in found),
    )


def close_up(img: Image.Image, focus: Box | None, bounds: Box | None = None, margin: int = 48) -> Image.Image:
    """A crop of ``img`` at full resolution around ``focus``: the preview box's shape, at least the preview's size
    (so Discord shows it pixel for pixel) and big enough for ``focus`` plus ``margin``; kept inside ``bounds``
    (the board's part of the picture; default the whole picture). No focus: the middle of ``bounds``."""
    bx0, by0, bx1, by1 = bounds or (0, 0, img.width, img.height)
    if focus is None:
        focus = ((bx0 + bx1) / 2, (by0 + by1) / 2, (bx0 + bx1) / 2, (by0 + by1) / 2)
    fx0, fy0, fx1, fy1 = focus
    width = max(PREVIEW[0], fx1 - fx0 + 2 * margin)
    height = max(PREVIEW[1], fy1 - fy0 + 2 * margin)
    aspect = PREVIEW[0] / PREVIEW[1]
    if width / height > aspect:
        height = width / aspect
    else:
        width = height * aspect
    # never larger than the board part, keeping the shape where the board allows it
    scale = min(1.0, (bx1 - bx0) / width, (by1 - by0) / height)
    width, height = round(width * scale), round(height * scale)
    cx, cy = (fx0 + fx1) / 2, (fy0 + fy1) / 2
    x0 = round(min(max(cx - width / 2, bx0), bx1 - width))
    y0 = round(min(max(cy - height / 2, by0), by1 - height))
    return img.crop((x0, y0, x0 + width, y0 + height))
