"""Flagon pictures (docs/games/flagon.md#picture): the two ships on the water with every object and character, the time track and
scores; privately, a seat's characters with their hands and queues. Reads only the view dict.

Drawn for Discord's inline preview (550×350, half this canvas): the board, the prompt, the crews' scores and the
time track (who acts next, and when the game may end) stay in the picture; each character's Reputation and plans
and the legend of the symbols on the board go to :func:`caption`."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    KEY,
    MUTED,
    PAPER,
    SEAT_COLOURS,
    Box,
    Palette,
    Picture,
    canvas,
    close_up,
    encode,
    font,
    text,
    text_on,
    union,
    wrap,
    wrap_board,
)
from rules.flagon.board import VEC
from rules.flagon.cards import CARD, DRAGON

WIDTH, HEIGHT = 1100, 700  # twice the 550×350 preview: every label is at least 16 px
CELL = 50
MARGIN = 22
BOARD_W = 15 * CELL + 2 * MARGIN
BOARD_H = 13 * CELL + 2 * MARGIN
PANEL_X = BOARD_W + 12
PANEL_R = WIDTH - 8
PANEL_W = PANEL_R - PANEL_X
COLS = "ABCDEFGHIJKLMNO"

WEST, EAST = "#E69F00", "#0072B2"
CREW_COLOUR = {"west": WEST, "east": EAST}
CREW_LABEL = {"west": "Gulls", "east": "Krakens"}
WATER = "#1F5E6B"
WAVE = "#4E8E9A"
WOOD = {"west": "#D9B27A", "east": "#9DB8CC"}
PLANK_LINE = {"west": "#B88E55", "east": "#7C98AE"}
GANGWAY = "#C8A26B"
TABLE = "#7A4A22"
TABLE_EDGE = "#4A2A10"
RUG = "#B03A2E"
BARREL = "#8B5A2B"
GOLD = "#E0B000"
YELLOW = "#FFE600"
WALL = "#4A3B2E"
OBJ_MARK = {"chest": "$", "flagon": "F", "mug": "u", "chair": "h"}
TRACK_NOW = "#FFE98A"
DRAGON_CARDS = frozenset(DRAGON.values())


def _sq(s: str) -> tuple[int, int]:
    return COLS.index(s[0]), int(s[1:]) - 1


def _box(s: str, off: tuple[int, int] = (0, 0)) -> tuple[int, int, int, int]:
    x, y = _sq(s)
    x, y = x + off[0], y + off[1]
    return MARGIN + x * CELL, MARGIN + y * CELL, MARGIN + (x + 1) * CELL, MARGIN + (y + 1) * CELL


def _centre(s: str, off: tuple[int, int] = (0, 0)) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(s, off)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _off(view: dict[str, Any]) -> tuple[int, int]:
    """The tavern's 11x11 grid sits in the middle of the ships' 15x13 drawing area."""
    return (2, 1) if view.get("map") == "tavern" else (0, 0)


def _tavern(view: dict[str, Any]) -> bool:
    return view.get("map") == "tavern"


def _crew_colour(crew: str) -> str:
    if crew in CREW_COLOUR:
        return CREW_COLOUR[crew]
    return SEAT_COLOURS[int(crew[1:]) % len(SEAT_COLOURS)]  # tavern: one crew per seat


def _shape(crew: str) -> str:
    if crew in CREW_COLOUR:
        return "circle" if crew == "west" else "square"
    return ("circle", "square", "diamond")[int(crew[1:]) % 3]


def _draw_shape(draw: ImageDraw.ImageDraw, c: tuple[float, float], crew: str, r: float) -> None:
    x, y = c
    shape, colour = _shape(crew), _crew_colour(crew)
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=INK, width=2)
    else:
        k = r * 1.3
        draw.polygon([(x, y - k), (x + k, y), (x, y + k), (x - k, y)], fill=colour, outline=INK, width=2)


def _crew_name(view: dict[str, Any], crew: str) -> str:
    return (view.get("crews") or {}).get(crew, {}).get("name") or CREW_LABEL.get(crew, crew)


def _terrain(x: int, y: int) -> str:
    def west(px: int, py: int) -> bool:
        return (py == 1 and px in (3, 4)) or (py == 2 and 2 <= px <= 5) or (3 <= py <= 11 and 1 <= px <= 6)

    if west(x, y):
        return "west"
    if west(14 - x, y):
        return "east"
    if x == 7 and y in (4, 6, 8):
        return "plank"
    return "water"


def _picture(view: dict[str, Any]) -> Picture:
    """The public picture: the board with everything on it, and the side panel."""
    pic = Picture(_background(view.get("map", "ships")), _PALETTE)
    draw = pic.draw
    _objects_under(pic, view)
    _last(draw, view)
    _characters(pic, draw, view)
    _loose(pic, draw, view)
    _panel(pic, draw, view)
    return pic


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    if seat is not None:
        return _private(view, seat).png()
    return _picture(view).png()


def picture(view: dict[str, Any]) -> Image.Image:
    """The public board as a palette image (a replay's frame)."""
    return _picture(view).img


def focus(view: dict[str, Any], seat: int | None = None) -> Box | None:
    """Where a close-up looks: the squares the last card touched, else ``seat``'s characters on the board."""
    off = _off(view)
    last = view.get("last") or {}
    squares = [*last.get("touched", []), *last.get("splash", [])]
    squares += [sq for pair in last.get("arrows", []) for sq in pair]
    if not squares and seat is not None:
        squares = [c["pos"] for c in view["chars"] if c["id"] and c["pos"] and c["seat"] == seat]
    return union(_box(sq, off) for sq in squares)


def zoom(view: dict[str, Any], seat: int | None = None) -> bytes:
    """A full-resolution close-up of the board around :func:`focus` (public view only)."""
    return encode(close_up(_picture(view).img, focus(view, seat), (0, 0, BOARD_W, HEIGHT)))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _palette() -> Image.Image:
    """The fixed palette every picture is drawn in (an adaptive quantise costs ~60 ms on this picture)."""
    base = [
        INK, PAPER, HIGHLIGHT, MUTED, WEST, EAST, WATER, WAVE, GANGWAY, TABLE, TABLE_EDGE, RUG, BARREL, GOLD, YELLOW,
        "#FFFFFF", "#000000", "#E8DCC0", "#2A2A2A", "#D8E8F0", "#B00000", "#D00000", "#009E73", "#CC79A7", "#5A3A1A",
        "#3A2410", "#9A6A3A", "#6B4A22", "#8B6A3A", "#C08040", "#F4F4F4", "#F4ECD8", "#56B4E9", TRACK_NOW,
        *WOOD.values(), *PLANK_LINE.values(), *SEAT_COLOURS, WALL,
    ]  # fmt: skip
    colours: list[tuple[int, int, int]] = []
    for c in base:
        if _rgb(c) not in colours:
            colours.append(_rgb(c))
    mixers = [_rgb(c) for c in (INK, "#FFFFFF", PAPER, WATER, WOOD["west"], WOOD["east"])]
    for c in list(colours):
        for m in mixers:
            for t in (0.33, 0.66):
                mix = tuple(round(a * (1 - t) + b * t) for a, b in zip(c, m, strict=True))
                if mix not in colours and len(colours) < 256:
                    colours.append(mix)  # type: ignore[arg-type]
    flat = [v for c in colours for v in c] + [0] * (768 - 3 * len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


_PALETTE = Palette(_palette())


@lru_cache(maxsize=2)
def _background(board: str) -> Image.Image:
    """The board never changes: drawn once per process and mapped onto the palette."""
    return _PALETTE.map(_background_rgb(board))


@lru_cache(maxsize=2)
def _background_rgb(board: str) -> Image.Image:
    img, draw = canvas(WIDTH, HEIGHT, PAPER)
    draw.rectangle((0, 0, BOARD_W, HEIGHT), fill="#E8DCC0")
    if board == "tavern":
        _tavern_board(draw)
    else:
        _board(draw)
    return img


@lru_cache(maxsize=1)
def _blank() -> Image.Image:
    """The private picture's empty parchment."""
    return _PALETTE.map(canvas(WIDTH, HEIGHT, PAPER)[0])


def _flag(draw: ImageDraw.ImageDraw, x0: float, y0: float, colour: str) -> None:
    """A starting square's corner flag with its "S"."""
    draw.polygon([(x0 + 2, y0 + 2), (x0 + 30, y0 + 2), (x0 + 2, y0 + 30)], fill=colour, outline=INK)
    text(draw, (x0 + 11, y0 + 11), "S", 16, bold=True, fill="#FFFFFF", anchor="mm")


def _rigging(draw: ImageDraw.ImageDraw, x1: float, y0: float) -> None:
    """A rope ring with "R" in a square's top-right corner."""
    draw.ellipse((x1 - 25, y0 + 2, x1 - 2, y0 + 25), fill=PAPER, outline="#5A3A1A", width=3)
    text(draw, (x1 - 13.5, y0 + 13.5), "R", 16, bold=True, fill="#5A3A1A", anchor="mm")


def _coordinates(draw: ImageDraw.ImageDraw, x0: float, y0: float, cols: int, rows: int, gap: float) -> None:
    for i in range(cols):
        x = x0 + i * CELL + CELL / 2
        for y in (y0 - gap, y0 + rows * CELL + gap):
            text(draw, (x, y), COLS[i], 18, bold=True, anchor="mm")
    for j in range(rows):
        y = y0 + j * CELL + CELL / 2
        for x in (x0 - gap, x0 + cols * CELL + gap):
            text(draw, (x, y), str(j + 1), 18, bold=True, anchor="mm")


def _tavern_board(draw: ImageDraw.ImageDraw) -> None:
    ox, oy = 2, 1
    x0, y0 = MARGIN + ox * CELL, MARGIN + oy * CELL
    draw.rectangle((x0 - 12, y0 - 12, x0 + 11 * CELL + 12, y0 + 11 * CELL + 12), fill=WALL)
    for y in range(11):
        for x in range(11):
            bx, by = x0 + x * CELL, y0 + y * CELL
            draw.rectangle((bx, by, bx + CELL, by + CELL), fill=WOOD["west"])
            for k in (1, 2):
                draw.line((bx, by + k * CELL / 3, bx + CELL, by + k * CELL / 3), fill=PLANK_LINE["west"], width=1)
            draw.rectangle((bx, by, bx + CELL, by + CELL), outline=PLANK_LINE["west"])
    _coordinates(draw, x0, y0, 11, 11, 28)
    text(draw, (x0 + 5.5 * CELL, 16), "The Dragon & Flagon tavern", 20, bold=True, anchor="mm")
    for s in ("B1", "F1", "J1", "A6", "K6", "B11", "F11", "J11"):
        bx, by, _, _ = _box(s, (ox, oy))
        _flag(draw, bx, by, INK)
    for s in ("D6", "H6"):
        _, by, bx1, _ = _box(s, (ox, oy))
        _rigging(draw, bx1, by)


# -- board ----------------------------------------------------------------------------------------------


def _board(draw: ImageDraw.ImageDraw) -> None:
    for y in range(13):
        for x in range(15):
            x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
            kind = _terrain(x, y)
            if kind == "water":
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WATER)
                for k in (0.35, 0.75):
                    yy = y0 + CELL * k
                    draw.arc((x0 + 5, yy - 5, x0 + 24, yy + 5), 200, 340, fill=WAVE, width=2)
                    draw.arc((x0 + 25, yy - 5, x0 + 44, yy + 5), 200, 340, fill=WAVE, width=2)
            elif kind == "plank":
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WATER)
                draw.rectangle((x0 - 2, y0 + 10, x0 + CELL + 2, y0 + CELL - 10), fill=GANGWAY, outline="#6B4A22")
                for k in range(1, 5):
                    xx = x0 + k * CELL / 5
                    draw.line((xx, y0 + 10, xx, y0 + CELL - 10), fill="#8B6A3A", width=1)
                draw.line((x0, y0 + 7, x0 + CELL, y0 + 7), fill="#F4ECD8", width=2)
                draw.line((x0, y0 + CELL - 7, x0 + CELL, y0 + CELL - 7), fill="#F4ECD8", width=2)
            else:
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WOOD[kind])
                for k in (1, 2):
                    yy = y0 + k * CELL / 3
                    draw.line((x0, yy, x0 + CELL, yy), fill=PLANK_LINE[kind], width=1)
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), outline=PLANK_LINE[kind])
    # ship names on the bows
    text(draw, _centre("E2"), "Saucy Gull", 16, bold=True, anchor="mm")
    text(draw, _centre("K2"), "Grim Kraken", 16, bold=True, anchor="mm")
    cx, cy = _centre("H7")
    draw.ellipse((cx - 21, cy - 21, cx + 21, cy + 21), outline="#F4ECD8", width=2)
    _coordinates(draw, MARGIN, MARGIN, 15, 13, MARGIN / 2)
    # fixed marks: starting squares, treasure squares, rigging
    for crew, squares in (("west", ("B9", "B11", "C12", "E12")), ("east", ("N9", "N11", "M12", "K12"))):
        for s in squares:
            x0, y0, _, _ = _box(s)
            _flag(draw, x0, y0, CREW_COLOUR[crew])
    for s in ("D3", "C7", "D11", "L3", "M7", "L11"):
        x0, y0, x1, y1 = _box(s)
        for k in range(0, CELL, 8):
            draw.line((x0 + k, y0 + 3, x0 + min(k + 4, CELL), y0 + 3), fill=GOLD, width=3)
            draw.line((x0 + k, y1 - 3, x0 + min(k + 4, CELL), y1 - 3), fill=GOLD, width=3)
            draw.line((x0 + 3, y0 + k, x0 + 3, y0 + min(k + 4, CELL)), fill=GOLD, width=3)
            draw.line((x1 - 3, y0 + k, x1 - 3, y0 + min(k + 4, CELL)), fill=GOLD, width=3)
    for s in ("E6", "E10", "K6", "K10"):
        x0, y0, x1, y1 = _box(s)
        _rigging(draw, x1, y0)


@lru_cache(maxsize=32)
def _rug_patch(board: str, sqs: tuple[str, ...], off: tuple[int, int]) -> tuple[Image.Image, tuple[int, int]]:
    """A rug's hatched squares on the board art (rugs go down first, on the bare board), and where it goes."""
    boxes = [_box(s, off) for s in sqs]
    pad = 2  # the 3 px hatch lines reach a pixel past their square
    left, top = min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad
    right, bottom = max(b[2] for b in boxes) + pad + 1, max(b[3] for b in boxes) + pad + 1
    patch = _background_rgb(board).crop((left, top, right, bottom))
    draw = ImageDraw.Draw(patch)
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = bx0 - left, by0 - top, bx1 - left, by1 - top
        for c in range(x0 + y0 + 10, x1 + y1, 11):
            a = (max(x0, c - y1), min(y1, c - x0))
            b = (min(x1, c - y0), max(y0, c - x1))
            draw.line((a, b), fill=RUG, width=3)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=RUG, width=2)
    return patch, (left, top)


def _objects_under(pic: Picture, view: dict[str, Any]) -> None:
    off = _off(view)
    board = view.get("map", "ships")
    for o in view["objects"]:
        if o["gone"]:
            continue
        if o["kind"] == "rug":
            patch, at = _rug_patch(board, tuple(o["sqs"]), off)
            pic.paste(patch, at)
    for o in view["objects"]:
        if not o["gone"] and o["kind"] == "table":
            boxes = [_box(sq, off) for sq in o["sqs"]]
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            sprite = _table_sprite(max(b[2] for b in boxes) - x0, max(b[3] for b in boxes) - y0)
            pic.paste(sprite, (x0, y0), sprite)
    for o in view["objects"]:
        if not o["gone"] and o["kind"] == "barrel" and o["sq"]:
            x0, y0, _, _ = _box(o["sq"], off)
            sprite = _barrel_sprite()
            pic.paste(sprite, (x0, y0), sprite)


@lru_cache(maxsize=16)
def _table_sprite(width: int, height: int) -> Image.Image:
    """A table across its squares, with its drop shadow, on transparency: drawn once per size."""
    sprite = Image.new("RGBA", (width + 6, height + 6), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    x0, y0, x1, y1 = 4, 4, width - 4, height - 4
    draw.rounded_rectangle((x0 + 4, y0 + 4, x1 + 4, y1 + 4), 9, fill="#2A2A2A")
    draw.rounded_rectangle((x0, y0, x1, y1), 9, fill=TABLE, outline=TABLE_EDGE, width=3)
    draw.line((x0 + 7, y0 + 9, x1 - 7, y0 + 9), fill="#9A6A3A", width=2)
    return sprite


@lru_cache(maxsize=1)
def _barrel_sprite() -> Image.Image:
    """A barrel with its hoops, filling one square, on transparency."""
    sprite = Image.new("RGBA", (CELL + 1, CELL + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    cx = cy = CELL / 2
    r = CELL * 0.38
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BARREL, outline="#3A2410", width=3)
    for k in (0.55, 0.85):
        draw.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), outline="#3A2410", width=2)
    return sprite


def _loose(pic: Picture, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    stacks: dict[str, list[str]] = {}
    for o in view["objects"]:
        if o["kind"] in OBJ_MARK and not o["gone"] and o.get("held") is None and o.get("sq"):
            stacks.setdefault(o["sq"], []).append(o["kind"])
    occupied = {c["pos"] for c in view["chars"] if c["pos"] and c["id"]}
    for s in sorted(stacks):
        kinds = stacks[s]
        x0, y0, x1, y1 = _box(s, off)
        top = sorted(kinds, key=lambda k: list(OBJ_MARK).index(k))[0]
        if s in occupied:
            # under a character: smaller and in the very corner, clear of the character's two letters
            _put_obj_icon(pic, (x1 - 10, y1 - 10), top, 9)
        else:
            _put_obj_icon(pic, (x1 - 13, y1 - 13), top, 12 if top != "flagon" else 13)
        if len(kinds) > 1:
            draw.ellipse((x0 + 2, y1 - 22, x0 + 22, y1 - 2), fill=INK)
            text(draw, (x0 + 12, y1 - 12), str(len(kinds)), 16, bold=True, fill="#FFFFFF", anchor="mm")


def _put_obj_icon(pic: Picture, c: tuple[int, int], kind: str, r: int) -> None:
    sprite = _obj_sprite(kind, r)
    half = sprite.width // 2
    pic.paste(sprite, (c[0] - half, c[1] - half), sprite)


@lru_cache(maxsize=32)
def _obj_sprite(kind: str, r: int) -> Image.Image:
    """An object's icon on transparency, drawn once: its letter sits inside its opaque body, so pasting it
    gives the pixels drawing it in place would."""
    half = 2 * r
    sprite = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    _obj_icon(ImageDraw.Draw(sprite), (half, half), kind, r)
    return sprite


def _obj_icon(draw: ImageDraw.ImageDraw, c: tuple[float, float], kind: str, r: float) -> None:
    x, y = c
    size = max(16, int(r * 1.4))
    if kind == "chest":
        draw.rectangle((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=GOLD, outline=INK, width=2)
        text(draw, (x, y), "$", size, bold=True, anchor="mm")
    elif kind == "flagon":
        draw.polygon(
            [(x - r, y - r), (x + r, y - r), (x + r * 0.4, y + r * 0.3), (x - r * 0.4, y + r * 0.3)], fill=GOLD
        )
        draw.rectangle((x - r * 0.5, y + r * 0.3, x + r * 0.5, y + r), fill=GOLD, outline=INK)
        text(draw, (x, y - r * 0.3), "F", max(16, int(r * 1.1)), bold=True, fill="#B00000", anchor="mm")
    else:
        fill = "#F4F4F4" if kind == "mug" else "#C08040"
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), 4, fill=fill, outline=INK, width=2)
        text(draw, (x, y), OBJ_MARK[kind], size, bold=True, anchor="mm")


def _last(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    last = view.get("last") or {}
    for s in last.get("touched", []):
        x0, y0, x1, y1 = _box(s, off)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=YELLOW, width=4)
    for s in last.get("splash", []):
        cx, cy = _centre(s, off)
        for k in range(8):
            a = k * math.pi / 4
            draw.line((cx, cy, cx + 21 * math.cos(a), cy + 21 * math.sin(a)), fill="#FFFFFF", width=4)
        draw.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), fill="#FFFFFF", outline=HIGHLIGHT, width=3)


def _arrows(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    for a, b in (view.get("last") or {}).get("arrows", []):
        (ax, ay), (bx, by) = _centre(a, off), _centre(b, off)
        draw.line((ax, ay, bx, by), fill=HIGHLIGHT, width=5)
        ang = math.atan2(by - ay, bx - ax)
        tip = [
            (bx, by),
            (bx - 15 * math.cos(ang - 0.45), by - 15 * math.sin(ang - 0.45)),
            (bx - 15 * math.cos(ang + 0.45), by - 15 * math.sin(ang + 0.45)),
        ]
        draw.polygon(tip, fill=HIGHLIGHT)


def _badges(c: dict[str, Any]) -> list[tuple[str, str]]:
    badges = [("Z", "#CC79A7")] if c["dazed"] else []
    for card, mark in (("boast", "B"), ("stand-firm", "SF"), ("parry", "P")):
        if card in c["duration"]:
            badges.append((mark, "#009E73"))
    return badges


def _characters(pic: Picture, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    held_kind = {o["id"]: o["kind"] for o in view["objects"]}
    tables = {s for o in view["objects"] if o["kind"] == "table" and not o["gone"] for s in o["sqs"]}
    _arrows(draw, view)
    for c in view["chars"]:
        if c["pos"] is None or c["id"] is None:
            continue
        cx, cy = _centre(c["pos"], off)
        sprite = _token_sprite(c["crew"], c["tag"], c["facing"], c["pos"] in tables)
        pic.paste(sprite, (round(cx) - TOKEN_HALF, round(cy) - TOKEN_HALF), sprite)
        if c["held"]:
            _put_obj_icon(pic, (int(cx) + 17, int(cy) - 17), held_kind.get(c["held"], "mug"), 11)
        badges = _badges(c)
        for k, (mark, colour) in enumerate(badges):
            bx, by = cx + (k - (len(badges) - 1) / 2) * 26, cy + 20
            draw.rounded_rectangle((bx - 12, by - 9, bx + 12, by + 9), 4, fill=colour, outline=INK)
            text(draw, (bx, by), mark, 16, bold=True, fill="#FFFFFF", anchor="mm")
        if c["dragon"] != "locked":
            fill = "#D00000" if c["dragon"] == "unlocked" else None
            draw.ellipse((cx - 24, cy - 24, cx - 12, cy - 12), fill=fill, outline="#D00000", width=3)


TOKEN_R = 17
TOKEN_HALF = TOKEN_R + 12


@lru_cache(maxsize=256)
def _token_sprite(crew: str, tag: str, facing: str, on_table: bool) -> Image.Image:
    """A character: its crew's shape and colour with its tag, a wedge along its facing, and a white ring when it
    stands on a table; drawn once per look."""
    size = 2 * TOKEN_HALF + 1
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    c, r = TOKEN_HALF, TOKEN_R
    if on_table:
        draw.ellipse((c - r - 5, c - r - 5, c + r + 5, c + r + 5), outline="#FFFFFF", width=4)
    _draw_shape(draw, (c, c), crew, r)
    dx, dy = VEC[facing]
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    tip = (c + ux * (r + 9), c + uy * (r + 9))
    left = (c + ux * r - uy * 7, c + uy * r + ux * 7)
    right = (c + ux * r + uy * 7, c + uy * r - ux * 7)
    draw.polygon([tip, left, right], fill=INK)
    text(draw, (c, c), tag, 17, bold=True, fill=text_on(_crew_colour(crew)), anchor="mm")
    return sprite


# -- side panel -----------------------------------------------------------------------------------------


def _prompt(view: dict[str, Any]) -> str:
    names = {c["idx"]: f"{c['name']} ({_crew_name(view, c['crew'])})" for c in view["chars"] if c["id"]}
    phase = view["phase"]
    pend = view.get("pending") or {}
    if phase == "over":
        res = view.get("result") or {}
        winner = res.get("winner")
        if winner is None:
            return "Game over: a draw." if not _tavern(view) else "Game over: a shared win."
        return f"Game over: {_crew_name(view, winner)} win{'s' if _tavern(view) else ''}!"
    if phase in ("pick", "start"):
        return f"Draft: seat {view['to_act'][0] + 1} {'picks a character' if phase == 'pick' else 'picks a start'}."
    if phase in ("plan", "replan"):
        # by the tags on the board: with full names the list outgrew the panel's four lines and was cut
        owing = [f"{c['tag']} ×{c['owed']}" for c in view["chars"] if c["owed"]]
        return "Planning in secret: " + " · ".join(owing)
    who = names.get(pend.get("char"), "?")
    card = pend.get("card")
    what = {
        "to": "choose a square",
        "at": "choose a target",
        "aim": "choose a direction",
        "shove": "choose where to shove",
        "pickup": "take or drop",
        "face": "choose facing",
        "enter": "climb back aboard",
    }.get(pend.get("step", ""), "")
    if card:
        return f"▶ {who} reveals {CARD[card][0].upper()} · {what}"
    return f"▶ {who} · {what}"


def _panel(pic: Picture, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    x0 = PANEL_X
    y = 6
    text(draw, (x0, y), f"Flagon · Time {view['T']}", 26, bold=True)
    y += 38
    for line in wrap_board(_prompt(view), 20, PANEL_W)[:4]:
        text(draw, (x0, y), line, 20)
        y += 25
    y += 8
    sc = view["scores"]
    crews = list(sc) if _tavern(view) else ["west", "east"]
    for k, crew in enumerate(crews):
        if _tavern(view):
            col, row = k % 2, k // 2
            at = (x0 + col * (PANEL_W // 2), y + row * 30)
            label = f"{_crew_name(view, crew)} {sc[crew]['total']}"
        else:
            at = (x0, y + k * 30)
            s = sc[crew]
            label = f"{CREW_LABEL[crew]} {s['total']}"  # its parts are in the caption
        _draw_shape(draw, (at[0] + 11, at[1] + 13), crew, 10)
        text(draw, (at[0] + 28, at[1] + 13), label, 22 if not _tavern(view) else 20, bold=True, anchor="lm")
    y += 30 * (((len(crews) + 1) // 2) if _tavern(view) else 2) + 6
    drafting = view["phase"] in ("pick", "start")
    overboard = [c for c in view["chars"] if c["id"] and c["pos"] is None and not drafting]
    if overboard:
        text(draw, (x0, y), "≈ Overboard: " + ", ".join(c["tag"] for c in overboard), 20, bold=True, fill=EAST)
        y += 30
    _track(pic, draw, view, x0, y + 4)


def _track(pic: Picture, draw: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y: int) -> None:
    """The time track, read for what it decides: the characters in the order they act (lowest time first, one
    column per time), then the end spaces where the game may stop."""
    text(draw, (x0, y), "Next to act", 20, bold=True)
    y += 28
    times: dict[int, list[dict[str, Any]]] = {}
    for c in view["chars"]:
        if c["id"]:
            times.setdefault(c["time"], []).append(c)
    order = sorted(times)
    width = min(48, PANEL_W // max(1, len(order)))
    tallest = 0
    for k, t in enumerate(order):
        bx = x0 + k * width
        now = t == view["T"]
        if now:
            draw.rounded_rectangle((bx, y, bx + width - 3, y + 26 + 32 * len(times[t])), 6, fill=TRACK_NOW)
        text(draw, (bx + width / 2 - 1, y + 13), str(t), 20, bold=True, anchor="mm")
        for j, c in enumerate(times[t]):
            sprite = _mark_sprite(c["crew"], c["tag"])
            pic.paste(sprite, (round(bx + width / 2 - 1) - 17, y + 44 + j * 32 - 17), sprite)
        tallest = max(tallest, 28 + 32 * len(times[t]))
    y += tallest + 14
    text(draw, (x0, y), "Game may end at", 20, bold=True)
    y += 28
    revealed = view["end_revealed"]
    for k, t in enumerate(view["end_spaces"]):
        bx = x0 + k * 56
        mark = {"navy": "⚓", "calm": "~"}.get(revealed.get(str(t), ""), "?")
        draw.rectangle((bx, y, bx + 50, y + 34), fill="#D8E8F0", outline="#B00000" if mark == "⚓" else INK, width=2)
        text(draw, (bx + 25, y + 17), f"{t}{mark}", 20, bold=True, anchor="mm")


@lru_cache(maxsize=64)
def _mark_sprite(crew: str, tag: str) -> Image.Image:
    """A character's mark on the time track: its crew's shape and colour with its tag, on transparency."""
    sprite = Image.new("RGBA", (35, 35), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    _draw_shape(draw, (17, 17), crew, 14)
    text(draw, (17, 17), tag, 16, bold=True, fill=text_on(_crew_colour(crew)), anchor="mm")
    return sprite


# -- the caption ----------------------------------------------------------------------------------------


def caption(view: dict[str, Any], seat: int | None = None) -> str:
    """The fine print: each character's Reputation, plans and what it holds, by crew; and what the symbols on the
    board mean (only those drawn now). A seat's own picture leaves nothing out."""
    if seat is not None or view["phase"] in ("pick", "start"):
        return ""
    kinds = {o["id"]: o["kind"] for o in view["objects"]}
    lines = []
    for crew in view["scores"]:
        chars = [c for c in view["chars"] if c["id"] and c["crew"] == crew]
        if not chars:
            continue
        parts = []
        for c in chars:
            bits = [f"Rep {c['rep']}", f"{c['queued']} planned"]
            if c["held"]:
                bits.append(kinds.get(c["held"], "?"))
            if c["pos"] is None:
                bits.append("overboard")
            parts.append(f"{c['tag']} {c['name']} ({', '.join(bits)})")
        score = view["scores"][crew]
        total = f"{score['total']} = Rep {score['rep']} + {score['chests']} chest{'s' * (score['chests'] != 1)} × 5"
        lines.append(f"**{_crew_name(view, crew)}** {total}: " + " · ".join(parts))
    shown = _symbols(view)
    if shown:
        lines.append(KEY + "Key: " + " · ".join(shown))
    return "\n".join(lines)


def _symbols(view: dict[str, Any]) -> list[str]:
    """The legend entries for what the board shows now."""
    chars = [c for c in view["chars"] if c["id"] and c["pos"]]
    marks = {m for c in chars for m, _ in _badges(c)}
    found = [f"{m} {name}" for m, name in (("Z", "Dazed"), ("B", "Boast"), ("SF", "Stand Firm"), ("P", "Parry"))
             if m in marks]  # fmt: skip
    dragons = {c["dragon"] for c in chars}
    if "unlocked" in dragons:
        found.append("red dot: Dragon card unlocked")
    if "used" in dragons:
        found.append("hollow red dot: Dragon card used")
    tables = {s for o in view["objects"] if o["kind"] == "table" and not o["gone"] for s in o["sqs"]}
    if any(c["pos"] in tables for c in chars):
        found.append("white ring: on a table")
    loose = {o["kind"] for o in view["objects"] if o["kind"] in OBJ_MARK and not o["gone"]}
    found += [f"{OBJ_MARK[k]} {k}" for k in OBJ_MARK if k in loose]
    return found


# -- private picture ------------------------------------------------------------------------------------


def _private(view: dict[str, Any], seat: int) -> Picture:
    """The seat's characters side by side: status, queue, face-up and used cards, and the hand (card names and
    times; a card's effect is in the picker's label when planning). Crew-mates' plans underneath."""
    mine = [c for c in view["chars"] if c.get("hand") is not None and c["seat"] == seat and c["id"]]
    crew_mates = [c for c in view["chars"] if c.get("queue") is not None and c["seat"] != seat and c["id"]]
    pic = Picture(_blank(), _PALETTE)
    draw = pic.draw
    text(draw, (16, 10), f"Your characters · seat {seat + 1} · Time {view['T']}", 26, bold=True, private=True)
    held_kind = {o["id"]: o["kind"] for o in view["objects"]}
    if not mine:
        text(draw, (16, 54), "No character yet (draft in progress).", 22, private=True)
    width = (WIDTH - 24) // max(1, len(mine))
    bottom = 54
    for k, c in enumerate(mine):
        x, y = 16 + k * width, 54
        _draw_shape(draw, (x + 14, y + 15), c["crew"], 14)
        text(draw, (x + 14, y + 15), c["tag"], 16, bold=True, fill=text_on(_crew_colour(c["crew"])), anchor="mm")
        text(draw, (x + 36, y + 15), c["name"], 22, bold=True, anchor="lm", private=True)
        y += 34
        status = [f"Rep {c['rep']}", f"time {c['time']}", f"at {c['pos'] or 'overboard'}"]
        if c["held"]:
            status.append(f"holds {held_kind.get(c['held'], '?')}")
        if c["dazed"]:
            status.append("Dazed")
        for line in wrap(" · ".join(status), font(20), width - 12):
            text(draw, (x, y), line, 20, private=True)
            y += 26
        queue = [CARD[q][0] for q in c.get("queue", [])]
        plan = "next: " + ", then ".join(queue) if queue else "queue empty"
        for line in wrap(plan, font(20, True), width - 12):
            text(draw, (x, y), line, 20, bold=True, fill="#0072B2", private=True)
            y += 26
        for label, cards in (("face up", c["duration"]), ("used", c["used"])):
            if cards:
                for line in wrap(f"{label}: " + ", ".join(CARD[q][0] for q in cards), font(20), width - 12):
                    text(draw, (x, y), line, 20, private=True)
                    y += 26
        y += 6
        rows = len(c["hand"])
        cols = 1 if rows * 27 <= HEIGHT - y - 60 or width < 400 else 2
        per_col = -(-rows // cols)
        for i, card in enumerate(c["hand"]):
            name, time, _ = CARD[card]
            if card in DRAGON.values():
                name += f" [{c['dragon']}]"
            cx, cy = x + (i // per_col) * (width // cols), y + (i % per_col) * 27
            # card names and times come from the fixed catalogue (the Dragon state is public): safe to remember
            text(draw, (cx, cy), f"{name} ({time})", 20)
        bottom = max(bottom, y + per_col * 27)
    if crew_mates:
        y = max(bottom + 10, HEIGHT - 34 - 26 * ((len(crew_mates) + 1) // 2))
        text(draw, (16, y), "Crew plans", 20, bold=True)
        for k, c in enumerate(crew_mates):
            queue = ", ".join(CARD[q][0] for q in c["queue"]) or "nothing queued"
            cx, cy = 16 + (k % 2) * (WIDTH // 2), y + 28 + (k // 2) * 26
            text(draw, (cx, cy), f"{c['name'] or '?'}: {queue}", 20, private=True)
    return pic
