"""Martinique pictures: the island with its tiles and pirates, the pub, the chests and each seat's haul.

Drawn from a view only. ``seat=None`` is the public board; with ``seat`` the picture adds that seat's own map tiles,
a deduction strip and a dot on every square still possible for the Lost Treasure (its ruled-out letters and numbers
are struck through on the island's edges too).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    SEA,
    canvas,
    fixed_palette,
    font,
    plain_font,
    text_on,
    to_png,
)
from renderers.icons import ICON, icon

CELL = 84
GRID_X, GRID_Y = 48, 92
PANEL_X = GRID_X + 8 * CELL + 52
WIDTH = 1400
HEIGHT = 920
PRIVATE_EXTRA = 120
PANEL_H = 222

SAND = "#F1DFB2"
BEACH_SAND = "#D6B273"
HOOK_FILL = "#7A4A24"
MAP_FILL = "#EADBB0"
PIRATE_FILL = {"black": "#000000", "red": "#D55E00"}
PIRATE_LETTER = {"black": "B", "red": "R"}
TYPE_FILL = {
    "skull": "#D0D0D0",
    "parrot": "#009E73",
    "rum": "#E69F00",
    "musket": "#0072B2",
    "key": "#F0E442",
    "telescope": "#CC79A7",
}
TYPE_LETTER = {"skull": "S", "parrot": "P", "rum": "R", "musket": "M", "key": "K", "telescope": "T"}
TYPES = tuple(TYPE_FILL)
LETTERS = "ABCDEFGH"
NUMBERS = "12345678"
GRID_LINE = "#9C8150"
PANEL_FILL = "#FFF8E6"
BAG_FILL = "#C9A77A"
PRIVATE_FILL = "#FFF3C4"
TREASURE_RED = "#B00020"
MAP_EDGE = "#8A6A2F"
MAP_INK = "#6B4B12"
STEP_WORDS = {"turn": "to move", "hook": "to choose a Hook tile", "claim": "to claim or pass"}


class Pic:
    """The picture being drawn: the image (for pasting cached sprites) and its drawing context."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        self.img.paste(sprite, (round(x), round(y)), sprite)


def _sprite(width: int, height: int) -> Pic:
    return Pic(Image.new("RGBA", (width, height), (0, 0, 0, 0)))


def _cell_origin(sq: str) -> tuple[int, int]:
    col = LETTERS.index(sq[0])
    row = int(sq[1])
    return GRID_X + col * CELL, GRID_Y + (8 - row) * CELL


def _cell_centre(sq: str) -> tuple[int, int]:
    x, y = _cell_origin(sq)
    return x + CELL // 2, y + CELL // 2


def _owes(view: dict[str, Any], seat: int) -> str:
    step = view["step"]
    if step == "reveal":
        owed = view["pending"]["reveals_owed"]
        return f"to reveal {owed} map tile{'s' if owed > 1 else ''}"
    if step == "dig":
        return f"to dig (pub seat {view['next_pub']})"
    return STEP_WORDS.get(step, "")


# -- tiles and pieces -----------------------------------------------------------------------------------------


def _artifact(c: Pic, x: int, y: int, size: int, kind: str, value: int) -> None:
    c.paste(_artifact_sprite(size, kind, value), x, y)


@lru_cache(maxsize=64)
def _artifact_sprite(size: int, kind: str, value: int) -> Image.Image:
    """A rounded tile in the type colour, type letter top-left, value (the movement) large in a white circle.
    Tiles are drawn once per size and pasted: text rendering is most of a picture's cost."""
    s = _sprite(size + 1, size + 1)
    fill = TYPE_FILL[kind]
    s.draw.rounded_rectangle((0, 0, size, size), radius=size // 7, fill=fill, outline=INK, width=2)
    s.draw.text(
        (size * 0.08, size * 0.04), TYPE_LETTER[kind], font=font(int(size * 0.36) + 2, True), fill=text_on(fill)
    )
    r = size * 0.25
    cx = cy = size - r - size * 0.06
    s.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#FFFFFF", outline=INK, width=2)
    s.draw.text((cx, cy), str(value), font=font(int(size * 0.42), True), fill=INK, anchor="mm")
    return s.img


def _map_tile(c: Pic, x: int, y: int, size: int, face: str | None = None) -> None:
    c.paste(_map_sprite(size, face), x, y)


@lru_cache(maxsize=64)
def _map_sprite(size: int, face: str | None) -> Image.Image:
    """A map tile: face down shows ``?`` and the small ``1`` it moves; face up shows its letter or number."""
    s = _sprite(size + 1, size + 1)
    s.draw.rounded_rectangle((0, 0, size, size), radius=size // 7, fill=MAP_FILL, outline=MAP_EDGE, width=3)
    if face is None:
        # "?" sits low-left so a pirate standing in the top-right corner never hides it
        s.draw.text((size * 0.42, size * 0.6), "?", font=font(int(size * 0.6), True), fill=MAP_INK, anchor="mm")
        s.draw.text((size * 0.12, size * 0.06), "1", font=font(max(14, int(size * 0.28))), fill=MAP_INK)
    else:
        s.draw.text((size / 2, size / 2), face, font=font(int(size * 0.6), True), fill=INK, anchor="mm")
    return s.img


def _tile(c: Pic, x: int, y: int, size: int, tile: dict[str, Any]) -> None:
    if tile["kind"] == "map":
        _map_tile(c, x, y, size)
    else:
        _artifact(c, x, y, size, tile["type"], tile["value"])


def _tile_text(c: Pic, x: int, y: int, size: int, text: str) -> None:
    kind, value = text.split(":")
    _artifact(c, x, y, size, kind, int(value))


def _pirate(c: Pic, cx: float, cy: float, r: int, colour: str, label: str | None = None) -> None:
    sprite = _pirate_sprite(r, colour, label or PIRATE_LETTER[colour])
    c.paste(sprite, cx - r - 2, cy - r - 2)


@lru_cache(maxsize=64)
def _pirate_sprite(r: int, colour: str, text: str) -> Image.Image:
    """A disc in the seat colour with a thick white rim and its letter (and pub seat at Sunset)."""
    s = _sprite(2 * r + 5, 2 * r + 5)
    c = r + 2
    s.draw.ellipse((0, 0, 2 * c, 2 * c), fill=INK)
    s.draw.ellipse((c - r, c - r, c + r, c + r), fill="#FFFFFF")
    inner = r - 4
    s.draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=PIRATE_FILL[colour])
    size = int(inner * (1.2 if len(text) == 1 else 0.9))
    s.draw.text((c, c), text, font=font(size, True), fill="#FFFFFF", anchor="mm")
    return s.img


def _scroll_mark(c: Pic, x: int, y: int) -> None:
    """A small scroll outline in the bottom-left corner of a scroll square, kept after its tile is gone."""
    bx, by = x + CELL - 36, y + 8
    c.draw.rectangle((bx + 4, by, bx + 24, by + 14), outline=MAP_INK, width=2)
    c.draw.ellipse((bx, by - 2, bx + 8, by + 16), outline=MAP_INK, width=2)
    c.draw.ellipse((bx + 20, by - 2, bx + 28, by + 16), outline=MAP_INK, width=2)


def _ring(c: Pic, sq: str, r: float, width: int = 5, colour: str = HIGHLIGHT) -> None:
    cx, cy = _cell_centre(sq)
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=width)


def _arrow(c: Pic, path: list[str]) -> None:
    points = [_cell_centre(sq) for sq in path]
    c.draw.line(points, fill=HIGHLIGHT, width=6, joint="curve")
    (x0, y0), (x1, y1) = points[-2], points[-1]
    dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
    tip = (x1 - dx * 14, y1 - dy * 14)
    back = (tip[0] - dx * 22, tip[1] - dy * 22)
    side = (-dy * 13, dx * 13)
    c.draw.polygon(
        [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])], fill=HIGHLIGHT
    )
    c.draw.ellipse((points[0][0] - 8, points[0][1] - 8, points[0][0] + 8, points[0][1] + 8), fill=HIGHLIGHT)


# -- the island -----------------------------------------------------------------------------------------------


def _island_base(c: Pic, layout: tuple[tuple[str, bool, bool, bool], ...]) -> None:
    """Sea, sand, beach band, scroll marks, coordinates and the tavern block: the same in every picture."""
    c.draw.rectangle((GRID_X - 40, GRID_Y - 40, GRID_X + 8 * CELL + 40, GRID_Y + 8 * CELL + 40), fill=SEA)
    for sq, beach, scroll, hook in layout:
        x, y = _cell_origin(sq)
        if hook:
            continue
        c.draw.rectangle((x, y, x + CELL, y + CELL), fill=BEACH_SAND if beach else SAND, outline=GRID_LINE)
        if scroll:
            _scroll_mark(c, x, y)
    hx, hy = _cell_origin("D5")
    c.draw.rectangle((hx, hy, hx + 2 * CELL, hy + 2 * CELL), fill=HOOK_FILL, outline=INK, width=3)
    c.draw.text((hx + CELL, hy + 40), "HOOK", font=font(32, True), fill="#FFFFFF", anchor="mm")
    for label, cx, cy in _coordinates():
        c.draw.text((cx, cy), label, font=font(28, True), fill=INK, anchor="mm")


def _coordinates() -> list[tuple[str, int, int]]:
    out = []
    for k in range(8):
        out += [
            (LETTERS[k], GRID_X + k * CELL + CELL // 2, GRID_Y - 20),
            (LETTERS[k], GRID_X + k * CELL + CELL // 2, GRID_Y + 8 * CELL + 20),
            (NUMBERS[7 - k], GRID_X - 22, GRID_Y + k * CELL + CELL // 2),
            (NUMBERS[7 - k], GRID_X + 8 * CELL + 22, GRID_Y + k * CELL + CELL // 2),
        ]
    return out


@lru_cache(maxsize=4)
def _base(layout: tuple[tuple[str, bool, bool, bool], ...], height: int) -> Image.Image:
    img, _ = canvas(WIDTH, height, PAPER)
    c = Pic(img)
    _island_base(c, layout)
    _legend(c, GRID_Y + 8 * CELL + 48)
    return img


@lru_cache(maxsize=256)
def _tile_on_square(
    layout: tuple[tuple[str, bool, bool, bool], ...], x: int, y: int, kind: str, typ: str | None, value: int | None
) -> Image.Image:
    """A face-up board tile already laid on its square's art: one opaque paste instead of an alpha blend.
    Nothing is drawn on a square before its tile, so these are the very pixels the blend gives."""
    size = CELL - 12
    patch = _base(layout, HEIGHT).crop((x, y, x + size + 1, y + size + 1))
    c = Pic(patch)
    _tile(c, 0, 0, size, {"kind": kind, "type": typ, "value": value})
    return patch


@lru_cache(maxsize=8)
def _seat_frame(layout: tuple[tuple[str, bool, bool, bool], ...], y: int, acting: bool) -> Image.Image:
    """A seat panel's empty frame on the board art, drawn once per place and state."""
    box = (PANEL_X - 8, y, WIDTH - 12 + 1, y + PANEL_H + 1)
    patch = _base(layout, HEIGHT).crop(box)
    ImageDraw.Draw(patch).rounded_rectangle(
        (0, 0, box[2] - box[0] - 1, PANEL_H),
        radius=12,
        fill=PANEL_FILL,
        outline=HIGHLIGHT if acting else INK,
        width=5 if acting else 2,
    )
    return patch


def _island(c: Pic, view: dict[str, Any], private: dict[str, Any] | None) -> None:
    layout = _layout(view)
    squares = view["squares"]
    hx, hy = _cell_origin("D5")
    hook = view["hook"]
    c.draw.text((hx + CELL, hy + 86), f"maps {hook['maps']}", font=font(24), fill="#FFFFFF", anchor="mm")
    c.draw.text((hx + CELL, hy + 118), f"jokers {hook['jokers']}", font=font(24), fill="#FFFFFF", anchor="mm")
    if private is not None:
        excluded = set(private["excluded_letters"]) | set(private["excluded_numbers"])
        for label, cx, cy in _coordinates():
            if label in excluded:
                c.draw.rectangle((cx - 17, cy - 17, cx + 17, cy + 17), fill=SEA)
                c.draw.text((cx, cy), label, font=font(28, True), fill=MUTED, anchor="mm")
                c.draw.line((cx - 14, cy + 12, cx + 14, cy - 12), fill=HIGHLIGHT, width=4)
    for sq, info in squares.items():
        x, y = _cell_origin(sq)
        if info["tile"] is not None:
            tile = info["tile"]
            patch = _tile_on_square(layout, x + 6, y + 6, tile["kind"], tile.get("type"), tile.get("value"))
            c.img.paste(patch, (x + 6, y + 6))
    if private is not None:
        # bottom-left: the one corner of a square that no letter, value or pirate uses
        possible = set(private["candidates"])
        for sq in squares:
            x, y = _cell_origin(sq)
            _deduction_mark(c, x + 15, y + CELL - 15, sq in possible)
    treasure = view.get("lost_treasure")
    if treasure:
        # the X goes under any pirate so its letter and pub seat stay readable; the frame marks the square
        x, y = _cell_origin(treasure["square"])
        c.draw.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), outline=TREASURE_RED, width=7)
        c.draw.line((x + 10, y + 10, x + CELL - 10, y + CELL - 10), fill=TREASURE_RED, width=7)
        c.draw.line((x + 10, y + CELL - 10, x + CELL - 10, y + 10), fill=TREASURE_RED, width=7)
    last = view.get("last_move")
    if last and last["kind"] == "move" and len(last["path"]) > 1:
        _arrow(c, last["path"])
    for sq, info in squares.items():
        if info["pirate"] is None:
            continue
        cx, cy = _cell_centre(sq)
        if info["tile"] is not None:
            _pirate(c, cx + 14, cy - 16, 21, info["pirate"])
        else:
            number = info.get("pub_seat")
            label = f"{PIRATE_LETTER[info['pirate']]}{number}" if number else None
            _pirate(c, cx, cy, 30, info["pirate"], label)
    if last:
        for sq in last["passed"]:
            _ring(c, sq, 38)
        if last["kind"] in ("place", "dig", "retire") and last["path"]:
            _ring(c, last["path"][0], 40)


# -- the side panel -------------------------------------------------------------------------------------------


def _pub(c: Pic, view: dict[str, Any], y: int) -> None:
    c.draw.text((PANEL_X, y), "PUB (digs first →)", font=font(22, True), fill=INK)
    cy = y + 58
    for spot in view["pub"]:
        cx = PANEL_X + 24 + (spot["pub_seat"] - 1) * 48
        if spot["colour"] is None:
            c.draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), outline=INK, width=2, fill="#FFFFFF")
            c.draw.text((cx, cy), str(spot["pub_seat"]), font=font(22), fill=MUTED, anchor="mm")
        else:
            _pirate(c, cx, cy, 22, spot["colour"], f"{PIRATE_LETTER[spot['colour']]}{spot['pub_seat']}")
    tx = PANEL_X + 8 * 48 + 12
    c.draw.text((tx, y), "treasure", font=font(22, True), fill=INK)
    treasure = view.get("lost_treasure")
    faces = (treasure["letter"], treasure["number"]) if treasure else (None, None)
    for k, face in enumerate(faces):
        x = tx + k * 50
        if face is None:
            _map_tile(c, x, cy - 22, 44)
        else:
            _map_tile(c, x, cy - 22, 44, face)


def _chests(c: Pic, view: dict[str, Any], y: int) -> None:
    for k, chest in enumerate(("chest2", "chest3", "chest4")):
        row_y = y + k * 64
        c.draw.text((PANEL_X, row_y + 29), f"chest {chest[-1]}", font=font(24, True), fill=INK, anchor="lm")
        tiles = view["chests"][chest]
        if not tiles:
            c.draw.text((PANEL_X + 110, row_y + 29), "empty", font=font(22), fill=MUTED, anchor="lm")
        for j, tile in enumerate(tiles):
            _tile_text(c, PANEL_X + 110 + j * 64, row_y, 58, tile)
    bx = PANEL_X + 110 + 4 * 64 + 30
    c.draw.rounded_rectangle((bx, y + 20, bx + 130, y + 140), radius=18, fill=BAG_FILL, outline=INK, width=2)
    c.draw.text((bx + 65, y + 58), "bag", font=font(24, True), fill=INK, anchor="mm")
    c.draw.text((bx + 65, y + 100), str(view["bag"]["count"]), font=font(36, True), fill=INK, anchor="mm")


def _chip(c: Pic, x: float, y: float, fill: str, text: str) -> float:
    """A coloured label; returns the x after it."""
    width = font(22, True).getlength(text) + 16
    c.draw.rounded_rectangle((x, y, x + width, y + 32), radius=8, fill=fill, outline=INK, width=2)
    c.draw.text((x + width / 2, y + 16), text, font=font(22, True), fill=text_on(fill), anchor="mm")
    return x + width + 6


def _seat_panel(c: Pic, view: dict[str, Any], seat: int, y: int, private: dict[str, Any] | None) -> None:
    p = view["players"][seat]
    right = WIDTH - 12
    acting = seat in view["to_act"]
    c.img.paste(_seat_frame(_layout(view), y, acting), (PANEL_X - 8, y))
    _pirate(c, PANEL_X + 22, y + 28, 20, p["colour"])
    c.draw.text((PANEL_X + 52, y + 28), f"{p['name']} (seat {seat + 1})", font=font(26, True), fill=INK, anchor="lm")
    c.draw.text((right - 14, y + 28), f"supply {p['supply']} · pub {p['in_pub']}", font=font(22), fill=INK, anchor="rm")
    if acting:
        c.draw.text((right - 14, y + 204), f"▶ {_owes(view, seat)}", font=font(24, True), fill=HIGHLIGHT, anchor="rm")
    # collection grouped by type, jokers last
    x = PANEL_X
    counts = dict.fromkeys(TYPES, 0)
    for tile in p["collection"]:
        counts[tile.split(":")[0]] += 1
    row = y + 50
    if not p["collection"] and not p["jokers"]:
        c.draw.text((x, row + 16), "no artifacts", font=font(22), fill=MUTED, anchor="lm")
    for t in TYPES:
        if counts[t]:
            x = _chip(c, x, row, TYPE_FILL[t], f"{TYPE_LETTER[t]}×{counts[t]}")
    if p["jokers"]:
        x = _chip(c, x, row, "#FFFFFF", f"J×{p['jokers']}")
    _maps_row(c, view, p, seat, y + 88, right, private)
    # ship stacks
    stacks = [" ".join(f"{TYPE_LETTER[t.split(':')[0]]}{t.split(':')[1]}" for t in s) for s in p["ship"]]
    totals = [sum(int(t.split(":")[1]) for t in s) for s in p["ship"]]
    text = "ship: " + (" ".join(f"[{s}]={v}" for s, v in zip(stacks, totals, strict=True)) or "empty")
    if font(22).getlength(text) > right - PANEL_X - 12:
        text = f"ship: {len(stacks)} stacks, {sum(totals)} points"
    c.draw.text((PANEL_X, y + 144), text, font=font(22), fill=INK, anchor="lm")
    # score preview, or the final score
    result = view.get("result")
    if result:
        sc = result["scores"][str(seat)]
        text = (
            f"pairs {sc['pairs']} + ship {sc['ship']} + stacks {sc['stacks_bonus']} + treasure {sc['treasure']}"
            f" = {sc['total']}"
        )
        c.draw.text((PANEL_X, y + 178), text, font=font(22, True), fill=INK, anchor="lm")
    else:
        sp = p["score_preview"]
        bonus = sp["total"] - sp["pairs"] - sp["ship"]
        text = f"now: pairs {sp['pairs']} + ship {sp['ship']} + most stacks {bonus} = {sp['total']}"
        c.draw.text((PANEL_X, y + 178), text, font=font(22), fill=INK, anchor="lm")


def _maps_row(
    c: Pic,
    view: dict[str, Any],
    p: dict[str, Any],
    seat: int,
    row: int,
    right: int,
    private: dict[str, Any] | None,
) -> None:
    """Map tiles: parchment = hidden (faces only in the owner's picture or after the game), white = revealed."""
    c.draw.text((PANEL_X, row + 18), "maps", font=font(22, True), fill=INK, anchor="lm")
    x = PANEL_X + 76
    own = private["maps"] if private is not None and private["seat"] == seat else None
    if view.get("lost_treasure"):
        hidden_faces = [m for m in p["maps_at_end"] if m not in p["maps_revealed"]]
    else:
        hidden_faces = own
    faces: list[tuple[str | None, bool]] = [(m, False) for m in hidden_faces or []]
    if hidden_faces is None and p["maps_hidden"]:
        _map_tile(c, x, row, 36)
        c.draw.text((x + 42, row + 18), f"×{p['maps_hidden']}", font=font(22, True), fill=INK, anchor="lm")
        x += 96
    faces += [(m, True) for m in p["maps_revealed"]]
    if not faces and not p["maps_hidden"]:
        c.draw.text((x, row + 18), "none", font=font(22), fill=MUTED, anchor="lm")
    step = min(42, (right - 16 - x) / max(1, len(faces)))
    for face, revealed in faces:
        if revealed:
            c.draw.rounded_rectangle((x, row, x + 36, row + 36), radius=5, fill="#FFFFFF", outline=MAP_EDGE, width=3)
            c.draw.text((x + 18, row + 18), face, font=font(24, True), fill=INK, anchor="mm")
        else:
            _map_tile(c, x, row, 36, face)
        x += step


def _title(view: dict[str, Any]) -> str:
    names = [p["name"] for p in view["players"]]
    result = view.get("result")
    if result:
        sq = result["treasure"]
        if result["reason"] == "treasure":
            return f"{names[result['winners'][0]]} wins: the Lost Treasure was at {sq}"
        if result["reason"] == "tie":
            return f"No winner (a tie). The Lost Treasure was at {sq}"
        how = "on points" if result["reason"] == "points" else "on most stacks"
        return f"{names[result['winners'][0]]} wins {how}. Treasure at {sq}"
    phase = view["phase"].capitalize()
    seat = view["to_act"][0]
    return f"Martinique · {phase} · {names[seat]} {_owes(view, seat)}"


def _legend(c: Pic, y: int) -> None:
    x = 12.0
    for t in TYPES:
        x = _chip(c, x, y, TYPE_FILL[t], TYPE_LETTER[t])
        icon(c.draw, t, (x + 18, y + 16), 32)
        x += 42
        c.draw.text((x, y + 16), t, font=font(22), fill=INK, anchor="lm")
        x += font(22).getlength(t) + 18
    y2 = y + 44
    _map_tile(c, 12, y2, 34)
    c.draw.text((52, y2 + 17), "map tile (moves 1)", font=font(22), fill=INK, anchor="lm")
    x = 290.0
    for colour, name in (("black", "Black pirate"), ("red", "Red pirate")):
        _pirate(c, x + 17, y2 + 17, 17, colour)
        c.draw.text((x + 42, y2 + 17), name, font=font(22), fill=INK, anchor="lm")
        x += 42 + font(22).getlength(name) + 20
    c.draw.rectangle((x, y2, x + 34, y2 + 34), fill=BEACH_SAND, outline=INK)
    c.draw.text((x + 42, y2 + 17), "beach", font=font(22), fill=INK, anchor="lm")
    x += 120
    c.draw.rectangle((x, y2, x + 34, y2 + 34), fill=HOOK_FILL, outline=INK)
    c.draw.text((x + 42, y2 + 17), "HOOK (→ pub)", font=font(22), fill=INK, anchor="lm")
    x += 220
    c.draw.line((x, y2 + 17, x + 40, y2 + 17), fill=HIGHLIGHT, width=6)
    c.draw.text((x + 48, y2 + 17), "last move", font=font(22), fill=INK, anchor="lm")


def _deduction_mark(c: Pic, cx: float, cy: float, possible: bool) -> None:
    """A white dot where the Lost Treasure may still lie; the same dot crossed out where it is ruled out."""
    c.draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill="#FFFFFF", outline=INK if possible else MUTED, width=3)
    if not possible:
        c.draw.line((cx - 6, cy - 6, cx + 6, cy + 6), fill=HIGHLIGHT, width=3)
        c.draw.line((cx - 6, cy + 6, cx + 6, cy - 6), fill=HIGHLIGHT, width=3)


def _deduction(c: Pic, private: dict[str, Any], y: int) -> None:
    c.draw.rectangle((0, y, WIDTH, y + PRIVATE_EXTRA), fill=PRIVATE_FILL)
    maps = private["maps"]
    head = "Your secret map tiles:" + ("" if maps else " none")
    c.draw.text((12, y + 26), head, font=plain_font(24, True), fill=INK, anchor="lm")
    x = 12 + int(plain_font(24, True).getlength(head)) + 14
    for face in maps:
        _map_tile(c, x, y + 6, 42, face)
        x += 48
    cx = x + 30
    _deduction_mark(c, cx, y + 26, True)
    count = len(private["candidates"])
    text = f"= still possible ({count} square{'s' if count != 1 else ''})"
    c.draw.text((cx + 16, y + 26), text, font=plain_font(24), fill=INK, anchor="lm")
    cx += int(plain_font(24).getlength(text)) + 46
    _deduction_mark(c, cx, y + 26, False)
    c.draw.text((cx + 16, y + 26), "= ruled out", font=plain_font(24), fill=INK, anchor="lm")
    excluded = set(private["excluded_letters"]) | set(private["excluded_numbers"])
    x = 12
    row = y + 82
    c.draw.text((x, row), "Treasure:", font=plain_font(24, True), fill=INK, anchor="lm")
    x = 175
    for k, label in enumerate(LETTERS + NUMBERS):
        cx = x + k * 46 + (30 if k >= 8 else 0)
        out = label in excluded
        c.draw.text((cx, row), label, font=plain_font(30, True), fill=MUTED if out else INK, anchor="mm")
        if out:
            c.draw.line((cx - 16, row + 14, cx + 16, row - 14), fill=HIGHLIGHT, width=5)


def _layout(view: dict[str, Any]) -> tuple[tuple[str, bool, bool, bool], ...]:
    """The static island: every square with its beach, scroll and hook flags."""
    return tuple((sq, info["beach"], info["scroll"], info["hook"]) for sq, info in view["squares"].items())


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """The board as a PNG. With ``seat`` (and that seat's view), add its secret map tiles and deductions."""
    private = view.get("private") if seat is not None else None
    height = HEIGHT + (PRIVATE_EXTRA if private is not None else 0)
    img = _base(_layout(view), height).copy()
    c = Pic(img)
    c.draw.text((12, 26), _title(view), font=font(30, True), fill=INK, anchor="lm")
    _island(c, view, private)
    _pub(c, view, 60)
    _chests(c, view, 150)
    for s in range(2):
        _seat_panel(c, view, s, 350 + s * (PANEL_H + 10), private)
    if private is not None:
        _deduction(c, private, HEIGHT)
    return _encode(img)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour this renderer paints, plus the anti-aliasing blends of ink and white over each."""
    base = [INK, PAPER, SEA, HIGHLIGHT, MUTED, SAND, BEACH_SAND, HOOK_FILL, MAP_FILL, MAP_EDGE, MAP_INK, GRID_LINE]
    base += [PANEL_FILL, BAG_FILL, PRIVATE_FILL, TREASURE_RED, "#FFFFFF", "#000000", *PIRATE_FILL.values()]
    base += list(TYPE_FILL.values())
    base = list(dict.fromkeys(base))
    pairs = [(fg, bg) for fg in (INK, "#FFFFFF") for bg in base]
    base += [c for name in ("skull", "parrot", "bottle", "musket", "key", "telescope") for c in ICON[name]]
    pairs += [
        (fg, bg) for fg in (HIGHLIGHT, TREASURE_RED, MAP_INK) for bg in (PAPER, SAND, BEACH_SAND, MAP_FILL, PANEL_FILL)
    ]
    return fixed_palette(base, pairs)


def _encode(img: Image.Image) -> bytes:
    # zlib level 1: about a third of level 6's time for ~45% more bytes, still a fraction of the size budget
    return to_png(img, _palette(), compress_level=1)
