"""Flagon pictures (spec 6): the two ships on the water with every object and character, the time track,
scores and a legend; privately, a seat's hands and queues. Reads only the view dict."""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import HIGHLIGHT, INK, PAPER, SEAT_COLOURS, canvas, font, plain_font, text_on, wrap
from rules.flagon.board import VEC
from rules.flagon.cards import CARD, DRAGON

CELL = 58
MARGIN = 34
BOARD_W = 15 * CELL + 2 * MARGIN
BOARD_H = 13 * CELL + 2 * MARGIN
PANEL_W = 400
WIDTH = BOARD_W + PANEL_W
HEIGHT = 1010
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


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    if seat is not None:
        return _private(view, seat)
    img = _background(view.get("map", "ships")).copy()
    draw = ImageDraw.Draw(img)
    _objects_under(img, draw, view)
    _last(draw, view)
    _characters(img, draw, view)
    _loose(img, draw, view)
    _panel(img, draw, view)
    _roster(draw, view)
    return _png(img)


def _png(img: Image.Image) -> bytes:
    """PNG with a fixed palette: ``common.to_png``'s median cut costs ~60 ms on this picture, which alone
    would spend the 60 ms budget; mapping onto a precomputed palette of the colours we draw takes ~9 ms, and zlib level 3 halves
    the encoding time of level 6 for files still far under the 500 KB budget."""
    out = io.BytesIO()
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    base = [
        INK,
        PAPER,
        HIGHLIGHT,
        WEST,
        EAST,
        WATER,
        WAVE,
        GANGWAY,
        TABLE,
        TABLE_EDGE,
        RUG,
        BARREL,
        GOLD,
        YELLOW,
        "#FFFFFF",
        "#000000",
        "#E8DCC0",
        "#2A2A2A",
        "#D8E8F0",
        "#B00000",
        "#D00000",
        "#009E73",
        "#CC79A7",
        "#5A3A1A",
        "#3A2410",
        "#9A6A3A",
        "#6B4A22",
        "#8B6A3A",
        "#C08040",
        "#F4F4F4",
        "#F4ECD8",
        "#56B4E9",
        *WOOD.values(),
        *PLANK_LINE.values(),
        *SEAT_COLOURS,
        WALL,
    ]
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


@lru_cache(maxsize=2)
def _background(board: str) -> Image.Image:
    """The board never changes: draw it once per process."""
    img, draw = canvas(WIDTH, HEIGHT, PAPER)
    if board == "tavern":
        _tavern_board(draw)
    else:
        _board(draw)
    return img


def _tavern_board(draw: ImageDraw.ImageDraw) -> None:
    draw.rectangle((0, 0, BOARD_W, BOARD_H), fill="#E8DCC0")
    ox, oy = 2, 1
    x0, y0 = MARGIN + ox * CELL, MARGIN + oy * CELL
    draw.rectangle((x0 - 14, y0 - 14, x0 + 11 * CELL + 14, y0 + 11 * CELL + 14), fill=WALL)
    for y in range(11):
        for x in range(11):
            bx, by = x0 + x * CELL, y0 + y * CELL
            draw.rectangle((bx, by, bx + CELL, by + CELL), fill=WOOD["west"])
            for k in (1, 2):
                draw.line((bx, by + k * CELL / 3, bx + CELL, by + k * CELL / 3), fill=PLANK_LINE["west"], width=1)
            draw.rectangle((bx, by, bx + CELL, by + CELL), outline=PLANK_LINE["west"])
    for i in range(11):
        x = x0 + i * CELL + CELL / 2
        for y in (y0 - 34, y0 + 11 * CELL + 34):
            draw.text((x, y), COLS[i], font=font(22, True), fill=INK, anchor="mm")
        y = y0 + i * CELL + CELL / 2
        for x in (x0 - 34, x0 + 11 * CELL + 34):
            draw.text((x, y), str(i + 1), font=font(20, True), fill=INK, anchor="mm")
    draw.text((x0 + 5.5 * CELL, y0 - 62), "The Dragon & Flagon tavern", font=font(24, True), fill=INK, anchor="mm")
    for s in ("B1", "F1", "J1", "A6", "K6", "B11", "F11", "J11"):
        bx, by, _, _ = _box(s, (ox, oy))
        draw.polygon([(bx + 2, by + 2), (bx + 24, by + 2), (bx + 2, by + 24)], fill=INK, outline=INK)
        draw.text((bx + 9, by + 9), "S", font=font(12, True), fill="#FFFFFF", anchor="mm")
    for s in ("D6", "H6"):
        _, by, bx1, _ = _box(s, (ox, oy))
        draw.ellipse((bx1 - 24, by + 3, bx1 - 3, by + 24), outline="#5A3A1A", width=3)
        draw.text((bx1 - 13.5, by + 13.5), "R", font=font(11, True), fill="#5A3A1A", anchor="mm")


# -- board ----------------------------------------------------------------------------------------------


def _board(draw: ImageDraw.ImageDraw) -> None:
    draw.rectangle((0, 0, BOARD_W, BOARD_H), fill="#E8DCC0")
    for y in range(13):
        for x in range(15):
            x0, y0 = MARGIN + x * CELL, MARGIN + y * CELL
            kind = _terrain(x, y)
            if kind == "water":
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WATER)
                for k in (0.35, 0.75):
                    yy = y0 + CELL * k
                    draw.arc((x0 + 6, yy - 6, x0 + 28, yy + 6), 200, 340, fill=WAVE, width=2)
                    draw.arc((x0 + 28, yy - 6, x0 + 50, yy + 6), 200, 340, fill=WAVE, width=2)
            elif kind == "plank":
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WATER)
                draw.rectangle((x0 - 2, y0 + 12, x0 + CELL + 2, y0 + CELL - 12), fill=GANGWAY, outline="#6B4A22")
                for k in range(1, 5):
                    xx = x0 + k * CELL / 5
                    draw.line((xx, y0 + 12, xx, y0 + CELL - 12), fill="#8B6A3A", width=1)
                draw.line((x0, y0 + 9, x0 + CELL, y0 + 9), fill="#F4ECD8", width=2)
                draw.line((x0, y0 + CELL - 9, x0 + CELL, y0 + CELL - 9), fill="#F4ECD8", width=2)
            else:
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=WOOD[kind])
                for k in (1, 2):
                    yy = y0 + k * CELL / 3
                    draw.line((x0, yy, x0 + CELL, yy), fill=PLANK_LINE[kind], width=1)
                draw.rectangle((x0, y0, x0 + CELL, y0 + CELL), outline=PLANK_LINE[kind])
    # ship names on the bows
    draw.text(_centre("E2"), "Saucy Gull", font=font(14, True), fill=INK, anchor="mm")
    draw.text(_centre("K2"), "Grim Kraken", font=font(14, True), fill=INK, anchor="mm")
    cx, cy = _centre("H7")
    draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), outline="#F4ECD8", width=2)
    for i in range(15):
        x = MARGIN + i * CELL + CELL / 2
        for y in (MARGIN / 2, BOARD_H - MARGIN / 2):
            draw.text((x, y), COLS[i], font=font(22, True), fill=INK, anchor="mm")
    for j in range(13):
        y = MARGIN + j * CELL + CELL / 2
        for x in (MARGIN / 2, BOARD_W - MARGIN / 2):
            draw.text((x, y), str(j + 1), font=font(20, True), fill=INK, anchor="mm")
    # fixed marks: starting squares, treasure squares, rigging
    for crew, squares in (("west", ("B9", "B11", "C12", "E12")), ("east", ("N9", "N11", "M12", "K12"))):
        for s in squares:
            x0, y0, _, _ = _box(s)
            draw.polygon([(x0 + 2, y0 + 2), (x0 + 24, y0 + 2), (x0 + 2, y0 + 24)], fill=CREW_COLOUR[crew], outline=INK)
            draw.text((x0 + 9, y0 + 9), "S", font=font(12, True), fill="#FFFFFF", anchor="mm")
    for s in ("D3", "C7", "D11", "L3", "M7", "L11"):
        x0, y0, x1, y1 = _box(s)
        for k in range(0, CELL, 8):
            draw.line((x0 + k, y0 + 3, x0 + min(k + 4, CELL), y0 + 3), fill=GOLD, width=3)
            draw.line((x0 + k, y1 - 3, x0 + min(k + 4, CELL), y1 - 3), fill=GOLD, width=3)
            draw.line((x0 + 3, y0 + k, x0 + 3, y0 + min(k + 4, CELL)), fill=GOLD, width=3)
            draw.line((x1 - 3, y0 + k, x1 - 3, y0 + min(k + 4, CELL)), fill=GOLD, width=3)
    for s in ("E6", "E10", "K6", "K10"):
        x0, y0, x1, y1 = _box(s)
        draw.ellipse((x1 - 24, y0 + 3, x1 - 3, y0 + 24), outline="#5A3A1A", width=3)
        draw.text((x1 - 13.5, y0 + 13.5), "R", font=font(11, True), fill="#5A3A1A", anchor="mm")


@lru_cache(maxsize=32)
def _rug_patch(board: str, sqs: tuple[str, ...], off: tuple[int, int]) -> tuple[Image.Image, tuple[int, int]]:
    """A rug's hatched squares on the board art (rugs go down first, on the bare board), and where it goes."""
    boxes = [_box(s, off) for s in sqs]
    pad = 2  # the 3 px hatch lines reach a pixel past their square
    left, top = min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad
    right, bottom = max(b[2] for b in boxes) + pad + 1, max(b[3] for b in boxes) + pad + 1
    patch = _background(board).crop((left, top, right, bottom))
    draw = ImageDraw.Draw(patch)
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = bx0 - left, by0 - top, bx1 - left, by1 - top
        for c in range(x0 + y0 + 10, x1 + y1, 12):
            a = (max(x0, c - y1), min(y1, c - x0))
            b = (min(x1, c - y0), max(y0, c - x1))
            draw.line((a, b), fill=RUG, width=3)
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=RUG, width=2)
    return patch, (left, top)


def _objects_under(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    board = view.get("map", "ships")
    for o in view["objects"]:
        if o["gone"]:
            continue
        if o["kind"] == "rug":
            patch, at = _rug_patch(board, tuple(o["sqs"]), off)
            img.paste(patch, at)
    for o in view["objects"]:
        if o["gone"] or o["kind"] != "table":
            continue
        boxes = [_box(s, off) for s in o["sqs"]]
        x0 = min(b[0] for b in boxes) + 5
        y0 = min(b[1] for b in boxes) + 5
        x1 = max(b[2] for b in boxes) - 5
        y1 = max(b[3] for b in boxes) - 5
        draw.rounded_rectangle((x0 + 5, y0 + 5, x1 + 5, y1 + 5), 10, fill="#2A2A2A")
        draw.rounded_rectangle((x0, y0, x1, y1), 10, fill=TABLE, outline=TABLE_EDGE, width=3)
        draw.line((x0 + 8, y0 + 10, x1 - 8, y0 + 10), fill="#9A6A3A", width=2)
    for o in view["objects"]:
        if o["gone"] or o["kind"] != "barrel" or not o["sq"]:
            continue
        cx, cy = _centre(o["sq"], off)
        r = CELL * 0.38
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BARREL, outline="#3A2410", width=3)
        for k in (0.55, 0.85):
            draw.ellipse((cx - r * k, cy - r * k, cx + r * k, cy + r * k), outline="#3A2410", width=2)


def _loose(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    stacks: dict[str, list[str]] = {}
    for o in view["objects"]:
        if o["kind"] in OBJ_MARK and not o["gone"] and o.get("held") is None and o.get("sq"):
            stacks.setdefault(o["sq"], []).append(o["kind"])
    for s in sorted(stacks):
        kinds = stacks[s]
        x0, y0, x1, y1 = _box(s, off)
        top = sorted(kinds, key=lambda k: list(OBJ_MARK).index(k))[0]
        _put_obj_icon(img, (x1 - 12, y1 - 12), top, 10 if top != "flagon" else 12)
        if len(kinds) > 1:
            draw.ellipse((x0 + 3, y1 - 19, x0 + 19, y1 - 3), fill=INK)
            draw.text((x0 + 11, y1 - 11), str(len(kinds)), font=font(12, True), fill="#FFFFFF", anchor="mm")


def _put_obj_icon(img: Image.Image, c: tuple[int, int], kind: str, r: int) -> None:
    sprite = _obj_sprite(kind, r)
    half = sprite.width // 2
    img.paste(sprite, (c[0] - half, c[1] - half), sprite)


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
    if kind == "chest":
        draw.rectangle((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=GOLD, outline=INK, width=2)
        draw.text((x, y), "$", font=font(int(r * 1.3), True), fill=INK, anchor="mm")
    elif kind == "flagon":
        draw.polygon(
            [(x - r, y - r), (x + r, y - r), (x + r * 0.4, y + r * 0.3), (x - r * 0.4, y + r * 0.3)], fill=GOLD
        )
        draw.rectangle((x - r * 0.5, y + r * 0.3, x + r * 0.5, y + r), fill=GOLD, outline=INK)
        draw.text((x, y - r * 0.3), "F", font=font(int(r * 1.1), True), fill="#B00000", anchor="mm")
    else:
        fill = "#F4F4F4" if kind == "mug" else "#C08040"
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), 4, fill=fill, outline=INK, width=2)
        draw.text((x, y), OBJ_MARK[kind], font=font(int(r * 1.4), True), fill=INK, anchor="mm")


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
            draw.line((cx, cy, cx + 24 * math.cos(a), cy + 24 * math.sin(a)), fill="#FFFFFF", width=4)
        draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill="#FFFFFF", outline=HIGHLIGHT, width=3)


def _arrows(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    for a, b in (view.get("last") or {}).get("arrows", []):
        (ax, ay), (bx, by) = _centre(a, off), _centre(b, off)
        draw.line((ax, ay, bx, by), fill=HIGHLIGHT, width=5)
        ang = math.atan2(by - ay, bx - ax)
        tip = [
            (bx, by),
            (bx - 16 * math.cos(ang - 0.45), by - 16 * math.sin(ang - 0.45)),
            (bx - 16 * math.cos(ang + 0.45), by - 16 * math.sin(ang + 0.45)),
        ]
        draw.polygon(tip, fill=HIGHLIGHT)


def _characters(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    off = _off(view)
    held_kind = {o["id"]: o["kind"] for o in view["objects"]}
    tables = {s for o in view["objects"] if o["kind"] == "table" and not o["gone"] for s in o["sqs"]}
    _arrows(draw, view)
    for c in view["chars"]:
        if c["pos"] is None or c["id"] is None:
            continue
        cx, cy = _centre(c["pos"], off)
        _char_token(draw, (cx, cy), c, 19, c["pos"] in tables)
        # badges
        if c["held"]:
            _put_obj_icon(img, (int(cx) + 20, int(cy) - 20), held_kind.get(c["held"], "mug"), 9)
        badges = []
        if c["dazed"]:
            badges.append(("Z", "#CC79A7"))
        for card, mark in (("boast", "B"), ("stand-firm", "SF"), ("parry", "P")):
            if card in c["duration"]:
                badges.append((mark, "#009E73"))
        for k, (mark, colour) in enumerate(badges):
            bx, by = cx - 20 + k * 17, cy + 21
            draw.rounded_rectangle((bx - 9, by - 8, bx + 9, by + 8), 4, fill=colour, outline=INK)
            draw.text((bx, by), mark, font=font(10 if len(mark) > 1 else 12, True), fill="#FFFFFF", anchor="mm")
        if c["dragon"] != "locked":
            fill = "#D00000" if c["dragon"] == "unlocked" else None
            draw.ellipse((cx - 26, cy - 26, cx - 14, cy - 14), fill=fill, outline="#D00000", width=3)


def _char_token(draw: ImageDraw.ImageDraw, c_xy: tuple[float, float], c: dict, r: float, on_table: bool) -> None:
    cx, cy = c_xy
    if on_table:
        draw.ellipse((cx - r - 5, cy - r - 5, cx + r + 5, cy + r + 5), outline="#FFFFFF", width=4)
    _draw_shape(draw, (cx, cy), c["crew"], r)
    dx, dy = VEC[c["facing"]]
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    tip = (cx + ux * (r + 10), cy + uy * (r + 10))
    left = (cx + ux * r - uy * 8, cy + uy * r + ux * 8)
    right = (cx + ux * r + uy * 8, cy + uy * r - ux * 8)
    draw.polygon([tip, left, right], fill=INK)
    draw.text((cx, cy), c["tag"], font=font(17, True), fill=text_on(_crew_colour(c["crew"])), anchor="mm")


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
        owing = [f"{names[c['idx']]} ×{c['owed']}" for c in view["chars"] if c["owed"]]
        return f"T {view['T']} · planning in secret: " + ", ".join(owing)
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
        return f"T {view['T']} · {who} reveals {CARD[card][0].upper()} · {what}"
    return f"T {view['T']} · {who} · {what}"


def _panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    x0 = BOARD_W + 14
    y = 12
    draw.text((x0, y), f"Flagon · Time {view['T']}", font=font(28, True), fill=INK)
    y += 40
    for line in wrap(_prompt(view), font(19), PANEL_W - 28)[:4]:
        draw.text((x0, y), line, font=font(19), fill=INK)
        y += 24
    y += 8
    sc = view["scores"]
    if _tavern(view):
        for k, crew in enumerate(sc):
            col, row = k % 2, k // 2
            _crew_mark(draw, (x0 + 12 + col * 190, y + 13 + row * 30), crew, 11)
            text = f"{_crew_name(view, crew)}: {sc[crew]['total']}"
            draw.text((x0 + 32 + col * 190, y + 13 + row * 30), text, font=font(20, True), fill=INK, anchor="lm")
        y += 30 * ((len(sc) + 1) // 2)
    for crew in () if _tavern(view) else ("west", "east"):
        s = sc[crew]
        _crew_mark(draw, (x0 + 12, y + 13), crew, 12)
        draw.text(
            (x0 + 32, y + 13),
            f"{CREW_LABEL[crew]}: {s['rep']} + {s['chests']}×5 = {s['total']}",
            font=font(20, True),
            fill=INK,
            anchor="lm",
        )
        y += 30
    drafting = view["phase"] in ("pick", "start")
    overboard = [c for c in view["chars"] if c["id"] and c["pos"] is None and not drafting]
    if overboard:
        draw.text((x0, y), "≈ Overboard: " + ", ".join(c["tag"] for c in overboard), font=font(19, True), fill=EAST)
        y += 28
    y += 6
    y = _track(img, draw, view, x0, y)
    y += 8
    board = view.get("map", "ships")
    img.paste(_legend_patch(board, x0, y), (x0, y))


@lru_cache(maxsize=16)
def _legend_patch(board: str, x0: int, y: int) -> Image.Image:
    """The static legend on the board art from ``(x0, y)`` down: nothing else is drawn in that corner."""
    patch = _background(board).crop((x0, y, WIDTH, HEIGHT))
    _legend(ImageDraw.Draw(patch), 0, 0, board == "tavern")
    return patch


@lru_cache(maxsize=256)
def _track_box(board: str, bx: int, by: int, t: int, fill: str, thick: bool, mark: str | None) -> Image.Image:
    """One Time track square (frame, number, end-space mark), drawn on the board art once per look and place."""
    cw, ch = 54, 58
    patch = _background(board).crop((bx, by, bx + cw - 2, by + ch - 2))
    draw = ImageDraw.Draw(patch)
    draw.rectangle((0, 0, cw - 3, ch - 3), fill=fill, outline=INK, width=2 if thick else 1)
    draw.text((3, 1), str(t), font=font(14, True), fill=INK)
    if mark is not None:
        draw.text((cw - 6, 1), mark, font=font(12, True), fill="#B00000", anchor="ra")
        if mark == "⚓":
            draw.rectangle((0, 0, cw - 3, ch - 3), outline="#B00000", width=3)
    return patch


def _crew_mark(draw: ImageDraw.ImageDraw, c: tuple[float, float], crew: str, r: float) -> None:
    _draw_shape(draw, c, crew, r)


def _track(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], x0: int, y: int) -> int:
    draw.text((x0, y), "Time track", font=font(20, True), fill=INK)
    y += 28
    last = view["end_spaces"][-1] + 3
    per_row, cw, ch = 7, 54, 58
    revealed = view["end_revealed"]
    for t in range(last + 1):
        r, k = divmod(t, per_row)
        bx, by = x0 + k * cw, y + r * ch
        fill = "#FFFFFF"
        if t in view["end_spaces"]:
            fill = "#D8E8F0"
        if t == view["T"]:
            fill = YELLOW
        mark = None
        if t in view["end_spaces"]:
            mark = {"navy": "⚓", "calm": "~"}.get(revealed.get(str(t), ""), "?")
        img.paste(_track_box(view.get("map", "ships"), bx, by, t, fill, t == view["T"], mark), (bx, by))
        here = [c for c in view["chars"] if c["id"] and c["time"] == t]
        for j, c in enumerate(here[:4]):
            cx = bx + 13 + (j % 2) * 25
            cy = by + 26 + (j // 2) * 17
            _crew_mark(draw, (cx, cy), c["crew"], 11)
            draw.text((cx, cy), c["tag"], font=font(12, True), fill=text_on(_crew_colour(c["crew"])), anchor="mm")
        if len(here) > 4:
            draw.text((bx + cw - 6, by + ch - 6), f"+{len(here) - 4}", font=font(11, True), fill=INK, anchor="rd")
    rows = (last + per_row) // per_row
    return y + rows * ch


def _legend(draw: ImageDraw.ImageDraw, x0: int, y: int, tavern: bool) -> None:
    draw.text((x0, y), "Legend", font=font(20, True), fill=INK)
    y += 26
    entries = [
        ("● Gulls (west) · ■ Krakens (east)", None),
        ("▲ facing · white ring: on a table", None),
        ("$ chest · F Flagon · u mug · h chair", None),
        ("Z Dazed · B Boast · SF Stand Firm", None),
        ("P Parry · red dot: Dragon unlocked", None),
        ("hollow red dot: Dragon used", None),
        ("S start · R rigging · gold: treasure", None),
        ("yellow: last card · arrow: its path", None),
        ("white star: overboard splash", None),
    ]
    if tavern:
        entries = (
            [("colour + shape: one per seat", None)]
            + entries[1:6]
            + [
                ("S start · R chandelier (rigging)", None),
                ("dark border: the tavern walls", None),
                ("yellow: last card · arrow: its path", None),
            ]
        )
    for text, _ in entries:
        for line in wrap(text, font(18), PANEL_W - 28):
            draw.text((x0, y), line, font=font(18), fill=INK)
            y += 23


def _roster(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Below the board: one line per character, two columns."""
    kinds = {o["id"]: o["kind"] for o in view["objects"]}
    y0 = BOARD_H + 2
    for k, c in enumerate(c for c in view["chars"] if c["id"]):
        col, row = divmod(k, 4)
        x, y = 16 + col * (BOARD_W // 2), y0 + row * 44
        _crew_mark(draw, (x + 14, y + 18), c["crew"], 14)
        draw.text((x + 14, y + 18), c["tag"], font=font(14, True), fill=text_on(_crew_colour(c["crew"])), anchor="mm")
        bits = [f"Rep {c['rep']}", f"t {c['time']}", f"{c['queued']} planned"]
        if c["held"]:
            bits.append(kinds.get(c["held"], "?"))
        if c["pos"] is None:
            bits.append("not placed yet" if view["phase"] in ("pick", "start") else "OVERBOARD")
        who = f"{c['name']} ({_crew_name(view, c['crew'])})" if _tavern(view) else c["name"]
        draw.text((x + 36, y + 18), f"{who}: " + " · ".join(bits), font=font(18), fill=INK, anchor="lm")


# -- private picture ------------------------------------------------------------------------------------


def _private(view: dict[str, Any], seat: int) -> bytes:
    cards = CARD
    mine = [c for c in view["chars"] if c.get("hand") is not None and c["seat"] == seat and c["id"]]
    crew_mates = [c for c in view["chars"] if c.get("queue") is not None and c["seat"] != seat and c["id"]]
    rows = sum(len(c["hand"]) + 5 for c in mine) + len(crew_mates) + 4
    width, height = 1000, max(300, 40 + rows * 30)
    img, draw = canvas(width, height, PAPER)
    draw.text((20, 12), f"Your characters · seat {seat + 1} · Time {view['T']}", font=plain_font(26, True), fill=INK)
    y = 54
    held_kind = {o["id"]: o["kind"] for o in view["objects"]}
    if not mine:
        draw.text((20, y), "No character yet (draft in progress).", font=plain_font(20), fill=INK)
        y += 30
    for c in mine:
        _crew_mark(draw, (34, y + 14), c["crew"], 13)
        draw.text((34, y + 14), c["tag"], font=plain_font(12, True), fill=text_on(_crew_colour(c["crew"])), anchor="mm")
        status = [f"Rep {c['rep']}", f"time {c['time']}", f"at {c['pos'] or 'overboard'}"]
        if c["held"]:
            status.append(f"holds {held_kind.get(c['held'], '?')}")
        if c["dazed"]:
            status.append("Dazed")
        draw.text(
            (56, y + 14), f"{c['name']} — " + " · ".join(status), font=plain_font(21, True), fill=INK, anchor="lm"
        )
        y += 32
        queue = [cards[k][0] for k in c.get("queue", [])]
        plan = "next: " + ", then: ".join(queue) if queue else "queue empty"
        draw.text((40, y), plan, font=plain_font(20, True), fill="#0072B2")
        y += 28
        if c["duration"]:
            draw.text(
                (40, y), "face up: " + ", ".join(cards[k][0] for k in c["duration"]), font=plain_font(19), fill=INK
            )
            y += 26
        if c["used"]:
            draw.text((40, y), "used: " + ", ".join(cards[k][0] for k in c["used"]), font=plain_font(19), fill=INK)
            y += 26
        for card in c["hand"]:
            name, time, text = cards[card]
            if card in DRAGON_CARDS:
                text = f"[{c['dragon']}] {text}"
            # card names and rules come from the fixed catalogue (the Dragon state is public): safe to remember
            draw.text((40, y), f"{name} ({time})", font=font(19, True), fill=INK)
            draw.text((270, y), text, font=font(18), fill=INK)
            y += 28
        y += 14
    if crew_mates:
        draw.text((20, y), "Crew plans", font=plain_font(22, True), fill=INK)
        y += 30
        for c in crew_mates:
            queue = ", ".join(cards[k][0] for k in c["queue"]) or "nothing queued"
            draw.text((40, y), f"{c['name'] or '?'}: {queue}", font=plain_font(19), fill=INK)
            y += 28
    return _png(img)
