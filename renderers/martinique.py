"""Martinique pictures: the island with its tiles and pirates, the pub, the chests and each seat's haul.

Drawn for Discord's inline preview (550×350, half this canvas): tiles with their values, pirates beside the values
(never on them), the pub, the chests, each seat's haul and score stay in the picture; the score's parts, the ship's
stacks and the tile legend go to :func:`caption`.

Drawn from a view only. ``seat=None`` is the public board; with ``seat`` the picture shows that seat's own map tiles
face up and a dot on every square still possible for the Lost Treasure (its ruled-out letters and numbers are struck
through on the island's edges).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    KEY,
    MUTED,
    PAPER,
    SEA,
    Box,
    Palette,
    Picture,
    canvas,
    close_up,
    encode,
    fit_size,
    fixed_palette,
    text,
    text_on,
    text_width,
    union,
)

WIDTH, HEIGHT = 1100, 700  # twice the 550×350 preview: every label is at least 16 px
CELL = 72
GRID_X, GRID_Y = 40, 78
ISLAND_R = GRID_X + 8 * CELL + 36  # the sea's right edge
PANEL_X = ISLAND_R + 16
PANEL_R = WIDTH - 8
SEAT_Y = 292  # the two seat panels, one under the other
PANEL_H = 196
MAPS_LABEL_X = PANEL_X + 4  # a seat panel's "maps:" label
MAPS_X = PANEL_X + 90  # its map tiles (or "none"), a clear gap after the label: it once read "mapsnone"

SAND = "#F1DFB2"
BEACH_SAND = "#D6B273"
HOOK_FILL = "#7A4A24"
HOOK_SQUARES = ("D5", "E5", "D4", "E4")  # The Hook, four squares at the island's centre
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
TREASURE_RED = "#B00020"
MAP_EDGE = "#8A6A2F"
MAP_INK = "#6B4B12"
STEP_WORDS = {"turn": "to move", "hook": "to choose a Hook tile", "claim": "to claim or pass"}


class Pic:
    """An image being drawn (a sprite, a cached patch): the image and its drawing context."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw: ImageDraw.ImageDraw = ImageDraw.Draw(img)

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        """A sprite through its own transparency."""
        self.img.paste(sprite, (round(x), round(y)), sprite)

    def put(self, patch: Image.Image, xy: tuple[int, int]) -> None:
        """An opaque patch."""
        self.img.paste(patch, xy)


class _Board(Pic):
    """The picture itself, drawn straight into the palette (see :class:`renderers.common.Picture`)."""

    def __init__(self, picture: Picture) -> None:
        self.picture = picture
        self.img = picture.img
        self.draw = picture.draw

    def paste(self, sprite: Image.Image, x: float, y: float) -> None:
        self.picture.paste(sprite, (round(x), round(y)), sprite)

    def put(self, patch: Image.Image, xy: tuple[int, int]) -> None:
        self.picture.paste(patch, xy)


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
    """A rounded tile in the type colour, type letter top-left, value (the movement) large in a white circle at the
    bottom right. The top-right corner stays clear for a pirate standing on it. Drawn once per size and pasted."""
    s = _sprite(size + 1, size + 1)
    fill = TYPE_FILL[kind]
    s.draw.rounded_rectangle((0, 0, size, size), radius=size // 7, fill=fill, outline=INK, width=2)
    text(
        s.draw, (size * 0.07, size * 0.02), TYPE_LETTER[kind], max(16, int(size * 0.38)), bold=True, fill=text_on(fill)
    )
    r = size * 0.23
    cx = cy = size - r - size * 0.06
    s.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill="#FFFFFF", outline=INK, width=2)
    text(s.draw, (cx, cy), str(value), max(16, int(size * 0.4)), bold=True, anchor="mm")
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
        text(s.draw, (size * 0.4, size * 0.6), "?", max(16, int(size * 0.6)), bold=True, fill=MAP_INK, anchor="mm")
        if size >= 40:
            text(s.draw, (size * 0.1, size * 0.04), "1", max(16, int(size * 0.28)), fill=MAP_INK)
    else:
        text(s.draw, (size / 2, size / 2), face, max(16, int(size * 0.6)), bold=True, anchor="mm")
    return s.img


def _tile_text(c: Pic, x: int, y: int, size: int, tile: str) -> None:
    kind, value = tile.split(":")
    _artifact(c, x, y, size, kind, int(value))


def _pirate(c: Pic, cx: float, cy: float, r: int, colour: str, label: str | None = None) -> None:
    sprite = _pirate_sprite(r, colour, label or PIRATE_LETTER[colour])
    c.paste(sprite, cx - r - 2, cy - r - 2)


@lru_cache(maxsize=64)
def _pirate_sprite(r: int, colour: str, label: str) -> Image.Image:
    """A disc in the seat colour with a thick white rim and its letter (and pub seat at Sunset)."""
    s = _sprite(2 * r + 5, 2 * r + 5)
    c = r + 2
    s.draw.ellipse((0, 0, 2 * c, 2 * c), fill=INK)
    s.draw.ellipse((c - r, c - r, c + r, c + r), fill="#FFFFFF")
    inner = r - 3
    s.draw.ellipse((c - inner, c - inner, c + inner, c + inner), fill=PIRATE_FILL[colour])
    size = max(16, int(inner * (1.3 if len(label) == 1 else 0.95)))
    text(s.draw, (c, c), label, size, bold=True, fill="#FFFFFF", anchor="mm")
    return s.img


def _scroll_mark(c: Pic, x: int, y: int) -> None:
    """A small scroll outline in the top-left corner of a scroll square, kept after its tile is gone (the bottom-left
    corner holds a seat's deduction mark)."""
    bx, by = x + 7, y + 9
    c.draw.rectangle((bx + 4, by, bx + 22, by + 12), outline=MAP_INK, width=2)
    c.draw.ellipse((bx, by - 2, bx + 8, by + 14), outline=MAP_INK, width=2)
    c.draw.ellipse((bx + 18, by - 2, bx + 26, by + 14), outline=MAP_INK, width=2)


def _ring(c: Pic, sq: str, r: float, width: int = 5, colour: str = HIGHLIGHT) -> None:
    cx, cy = _cell_centre(sq)
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=width)


def _arrow(c: Pic, path: list[str]) -> None:
    """Along the path, a little up and left of the squares' centres: clear of the tiles' values."""
    points = [(x - 9, y - 9) for x, y in (_cell_centre(sq) for sq in path)]
    c.draw.line(points, fill="#FFFFFF", width=10, joint="curve")
    c.draw.line(points, fill=HIGHLIGHT, width=5, joint="curve")
    (x0, y0), (x1, y1) = points[-2], points[-1]
    dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL
    tip = (x1 - dx * 12, y1 - dy * 12)
    back = (tip[0] - dx * 20, tip[1] - dy * 20)
    side = (-dy * 12, dx * 12)
    c.draw.polygon(
        [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])],
        fill=HIGHLIGHT,
        outline="#FFFFFF",
    )
    c.draw.ellipse((points[0][0] - 8, points[0][1] - 8, points[0][0] + 8, points[0][1] + 8), fill=HIGHLIGHT)


# -- the island -----------------------------------------------------------------------------------------------


def _island_base(c: Pic, layout: tuple[tuple[str, bool, bool, bool], ...]) -> None:
    """Sea, sand, beach band, scroll marks, coordinates and the tavern block: the same in every picture."""
    c.draw.rectangle((GRID_X - 36, GRID_Y - 32, ISLAND_R, GRID_Y + 8 * CELL + 32), fill=SEA)
    for sq, beach, scroll, hook in layout:
        x, y = _cell_origin(sq)
        if hook:
            continue
        c.draw.rectangle((x, y, x + CELL, y + CELL), fill=BEACH_SAND if beach else SAND, outline=GRID_LINE)
        if scroll:
            _scroll_mark(c, x, y)
    hx, hy = _cell_origin("D5")
    c.draw.rectangle((hx, hy, hx + 2 * CELL, hy + 2 * CELL), fill=HOOK_FILL, outline=INK, width=3)
    text(c.draw, (hx + CELL, hy + 30), "HOOK", 28, bold=True, fill="#FFFFFF", anchor="mm")
    for label, cx, cy in _coordinates():
        text(c.draw, (cx, cy), label, 24, bold=True, anchor="mm")


def _coordinates() -> list[tuple[str, int, int]]:
    out = []
    for k in range(8):
        out += [
            (LETTERS[k], GRID_X + k * CELL + CELL // 2, GRID_Y - 16),
            (LETTERS[k], GRID_X + k * CELL + CELL // 2, GRID_Y + 8 * CELL + 16),
            (NUMBERS[7 - k], GRID_X - 18, GRID_Y + k * CELL + CELL // 2),
            (NUMBERS[7 - k], GRID_X + 8 * CELL + 18, GRID_Y + k * CELL + CELL // 2),
        ]
    return out


@lru_cache(maxsize=4)
def _base(layout: tuple[tuple[str, bool, bool, bool], ...]) -> Image.Image:
    """The island and the panel's fixed marks, mapped onto the palette once."""
    return _PALETTE.map(_base_rgb(layout))


@lru_cache(maxsize=4)
def _base_rgb(layout: tuple[tuple[str, bool, bool, bool], ...]) -> Image.Image:
    img, _ = canvas(WIDTH, HEIGHT, PAPER)
    c = Pic(img)
    _island_base(c, layout)
    text(c.draw, (PANEL_X, 52), "Pub · digs first →", 20, bold=True)
    for k in range(8):
        cx, cy = _pub_spot(k + 1)
        c.draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), outline=INK, width=2, fill="#FFFFFF")
        text(c.draw, (cx, cy), str(k + 1), 20, fill=MUTED, anchor="mm")
    for k in range(3):
        text(c.draw, (PANEL_X, CHESTS_Y + k * 54 + 24), f"chest {k + 2}", 20, bold=True, anchor="lm")
    return img


def _pub_spot(pub_seat: int) -> tuple[int, int]:
    return PANEL_X + 21 + (pub_seat - 1) * 45, PUB_Y + 22


PUB_Y, CHESTS_Y = 76, 126


@lru_cache(maxsize=512)
def _tile_row(
    layout: tuple[tuple[str, bool, bool, bool], ...],
    number: str,
    tiles: tuple[tuple[str, str | None, int | None] | None, ...],
) -> Image.Image:
    """One row of the island with its face-up tiles laid on the square art: one opaque paste per row, and a row
    changes only when one of its tiles is taken. Nothing is drawn on a square before its tile."""
    x, y = _cell_origin(f"A{number}")
    patch = _base_rgb(layout).crop((x, y, x + 8 * CELL, y + CELL))
    c = Pic(patch)
    for k, tile in enumerate(tiles):
        if tile is None:
            continue
        kind, typ, value = tile
        if kind == "map":
            _map_tile(c, k * CELL + 4, 4, TILE)
        else:
            _artifact(c, k * CELL + 4, 4, TILE, str(typ), int(value or 0))
    return patch


TILE = CELL - 8


@lru_cache(maxsize=16)
def _seat_frame(
    layout: tuple[tuple[str, bool, bool, bool], ...], y: int, acting: bool, colour: str, name: str
) -> Image.Image:
    """A seat panel's frame on the board art with what never changes in it (its pirate, name and the "maps"
    label), drawn once per place and state."""
    box = (PANEL_X - 6, y, PANEL_R + 1, y + PANEL_H + 1)
    patch = _base_rgb(layout).crop(box)
    c = Pic(patch)
    c.draw.rounded_rectangle(
        (0, 0, box[2] - box[0] - 1, PANEL_H),
        radius=12,
        fill=PANEL_FILL,
        outline=HIGHLIGHT if acting else INK,
        width=5 if acting else 2,
    )
    _pirate(c, 23, 24, 16, colour)
    text(c.draw, (46, 24), name, 24, bold=True, anchor="lm")
    text(c.draw, (MAPS_LABEL_X - (PANEL_X - 6), 99), "maps:", 20, bold=True, anchor="lm")
    return patch


def _island(c: Pic, view: dict[str, Any], private: dict[str, Any] | None) -> None:
    layout = _layout(view)
    squares = view["squares"]
    if private is not None:
        excluded = set(private["excluded_letters"]) | set(private["excluded_numbers"])
        for label, cx, cy in _coordinates():
            if label in excluded:
                c.draw.rectangle((cx - 15, cy - 15, cx + 15, cy + 15), fill=SEA)
                text(c.draw, (cx, cy), label, 24, bold=True, fill=MUTED, anchor="mm")
                c.draw.line((cx - 13, cy + 11, cx + 13, cy - 11), fill=HIGHLIGHT, width=4)
    rows: dict[str, list[tuple[str, str | None, int | None] | None]] = {n: [None] * 8 for n in NUMBERS}
    for sq, info in squares.items():
        tile = info["tile"]
        if tile is not None:
            rows[sq[1]][LETTERS.index(sq[0])] = (tile["kind"], tile.get("type"), tile.get("value"))
    for number, tiles in rows.items():
        if any(tiles):
            x, y = _cell_origin(f"A{number}")
            c.put(_tile_row(layout, number, tuple(tiles)), (x, y))
    hx, hy = _cell_origin("D5")  # over the rows: the Hook's counts sit on rows 5 and 4
    hook = view["hook"]
    if view.get("phase") == "sunrise":
        text(c.draw, (hx + CELL, hy + 72), f"maps {hook['maps']}", 22, fill="#FFFFFF", anchor="mm")
        text(c.draw, (hx + CELL, hy + 104), f"jokers {hook['jokers']}", 22, fill="#FFFFFF", anchor="mm")
    elif any(squares[sq]["pirate"] for sq in HOOK_SQUARES):
        # a digging pirate stands on a Hook square (docs/games/martinique.md#sunset-digs) and would hide the name:
        # the name goes small to the block's centre, between the four squares' pirates (the emptied Hook has
        # no counts left to show)
        c.draw.rectangle((hx + 4, hy + 4, hx + 2 * CELL - 4, hy + 56), fill=HOOK_FILL)
        text(c.draw, (hx + CELL, hy + CELL), "HOOK", 16, bold=True, fill="#FFFFFF", anchor="mm")
    if private is not None:
        # bottom-left: the one corner of a square that no letter, value or pirate uses
        possible = set(private["candidates"])
        for sq in squares:
            x, y = _cell_origin(sq)
            _deduction_mark(c, x + 14, y + CELL - 14, sq in possible)
    treasure = view.get("lost_treasure")
    if treasure:
        # the X goes under any pirate so its letter and pub seat stay readable; the frame marks the square
        x, y = _cell_origin(treasure["square"])
        c.draw.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), outline=TREASURE_RED, width=6)
        c.draw.line((x + 9, y + 9, x + CELL - 9, y + CELL - 9), fill=TREASURE_RED, width=6)
        c.draw.line((x + 9, y + CELL - 9, x + CELL - 9, y + 9), fill=TREASURE_RED, width=6)
    last = view.get("last_move")
    if last and last["kind"] == "move" and len(last["path"]) > 1:
        _arrow(c, last["path"])
    for sq, info in squares.items():
        if info["pirate"] is None:
            continue
        cx, cy = _cell_centre(sq)
        if info["tile"] is not None:
            # top-right corner: clear of the type letter (top-left) and the value (bottom-right)
            _pirate(c, cx + CELL / 2 - 18, cy - CELL / 2 + 17, 15, info["pirate"])
        else:
            number = info.get("pub_seat")
            label = f"{PIRATE_LETTER[info['pirate']]}{number}" if number else None
            _pirate(c, cx, cy, 26, info["pirate"], label)
    if last:
        for sq in last["passed"]:
            _ring(c, sq, 33)
        if last["kind"] in ("place", "dig", "retire") and last["path"]:
            _ring(c, last["path"][0], 35)


# -- the side panel -------------------------------------------------------------------------------------------


def _pub(c: Pic, view: dict[str, Any]) -> None:
    """The pirates in the pub, over the empty seats of the base."""
    for spot in view["pub"]:
        if spot["colour"] is not None:
            cx, cy = _pub_spot(spot["pub_seat"])
            _pirate(c, cx, cy, 20, spot["colour"], f"{PIRATE_LETTER[spot['colour']]}{spot['pub_seat']}")


def _chests(c: Pic, view: dict[str, Any], y: int) -> None:
    """The three chests and, beside them, the bag and the Lost Treasure's two tiles: one cached patch, since they
    change only when a chest is claimed, a tile is drawn or the treasure is revealed."""
    treasure = view.get("lost_treasure")
    faces = (treasure["letter"], treasure["number"]) if treasure else (None, None)
    chests = tuple(tuple(view["chests"][k]) for k in ("chest2", "chest3", "chest4"))
    c.put(_chests_patch(_layout(view), y, chests, view["bag"]["count"], faces), (PANEL_X, y))


@lru_cache(maxsize=64)
def _chests_patch(
    layout: tuple[tuple[str, bool, bool, bool], ...],
    y: int,
    chests: tuple[tuple[str, ...], ...],
    bag: int,
    faces: tuple[str | None, str | None],
) -> Image.Image:
    patch = _base_rgb(layout).crop((PANEL_X, y, PANEL_R, y + 3 * 54))
    c = Pic(patch)
    for k, tiles in enumerate(chests):
        if not tiles:
            text(c.draw, (92, k * 54 + 24), "empty", 20, fill=MUTED, anchor="lm")
        for j, tile in enumerate(tiles):
            _tile_text(c, 92 + j * 52, k * 54, 48, tile)
    bx = patch.width - 112
    c.draw.rounded_rectangle((bx, 0, bx + 112, 66), radius=14, fill=BAG_FILL, outline=INK, width=2)
    text(c.draw, (bx + 56, 18), "bag", 20, bold=True, anchor="mm")
    text(c.draw, (bx + 56, 46), str(bag), 28, bold=True, anchor="mm")
    text(c.draw, (bx + 56, 90), "treasure", 18, bold=True, anchor="mm")
    for k, face in enumerate(faces):
        _map_tile(c, bx + 10 + k * 50, 106, 42, face)
    return patch


def _chip(c: Pic, x: float, y: float, fill: str, label: str) -> float:
    """A coloured label; returns the x after it."""
    sprite = _chip_sprite(fill, label)
    c.paste(sprite, x, y)
    return x + sprite.width + 4


@lru_cache(maxsize=128)
def _chip_sprite(fill: str, label: str) -> Image.Image:
    width = round(text_width(label, 20, True) + 12)
    s = _sprite(width + 1, 29)
    s.draw.rounded_rectangle((0, 0, width, 28), radius=7, fill=fill, outline=INK, width=2)
    text(s.draw, (width / 2, 14), label, 20, bold=True, fill=text_on(fill), anchor="mm")
    return s.img


def _seat_panel(c: Pic, view: dict[str, Any], seat: int, y: int, private: dict[str, Any] | None) -> None:
    p = view["players"][seat]
    right = PANEL_R - 12
    acting = seat in view["to_act"]
    c.put(_seat_frame(_layout(view), y, acting, p["colour"], p["name"]), (PANEL_X - 6, y))
    result = view.get("result")
    score = result["scores"][str(seat)]["total"] if result else p["score_preview"]["total"]
    text(c.draw, (right, y + 24), f"{'score' if result else 'now'} {score}", 24, bold=True, anchor="rm")
    name_end = PANEL_X + 42 + text_width(p["name"], 24, True)
    text(c.draw, (name_end, y + 25), f"  supply {p['supply']} · pub {p['in_pub']}", 20, anchor="lm")
    # collection grouped by type, jokers last
    x = PANEL_X + 4
    counts = dict.fromkeys(TYPES, 0)
    for tile in p["collection"]:
        counts[tile.split(":")[0]] += 1
    row = y + 46
    if not p["collection"] and not p["jokers"]:
        text(c.draw, (x, row + 14), "no artifacts", 20, fill=MUTED, anchor="lm")
    for t in TYPES:
        if counts[t]:
            x = _chip(c, x, row, TYPE_FILL[t], f"{TYPE_LETTER[t]}×{counts[t]}")
    if p["jokers"]:
        x = _chip(c, x, row, "#FFFFFF", f"J×{p['jokers']}")
    _maps_row(c, view, p, seat, y + 82, right, private)
    stacks = [sum(int(t.split(":")[1]) for t in stack) for stack in p["ship"]]
    ship = f"ship: {len(stacks)} stack{'s' * (len(stacks) != 1)}, {sum(stacks)} points" if stacks else "ship: empty"
    text(c.draw, (PANEL_X + 4, y + 136), ship, 20, anchor="lm")
    if acting:
        text(c.draw, (right, y + 170), f"▶ {_owes(view, seat)}", 22, bold=True, fill=HIGHLIGHT, anchor="rm")


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
    x = MAPS_X
    own = private["maps"] if private is not None and private["seat"] == seat else None
    hidden_faces = [m for m in p["maps_at_end"] if m not in p["maps_revealed"]] if view.get("lost_treasure") else own
    faces: list[tuple[str | None, bool]] = [(m, False) for m in hidden_faces or []]
    if hidden_faces is None and p["maps_hidden"]:
        _map_tile(c, x, row, 34)
        text(c.draw, (x + 40, row + 17), f"×{p['maps_hidden']}", 22, bold=True, anchor="lm")
        x += 88
    faces += [(m, True) for m in p["maps_revealed"]]
    if not faces and not p["maps_hidden"]:
        text(c.draw, (x, row + 17), "none", 20, fill=MUTED, anchor="lm")
    step = min(40, (right - 34 - x) / max(1, len(faces)))
    for face, revealed in faces:
        if revealed:
            c.draw.rounded_rectangle((x, row, x + 34, row + 34), radius=5, fill="#FFFFFF", outline=MAP_EDGE, width=3)
            text(c.draw, (x + 17, row + 17), str(face), 22, bold=True, anchor="mm")
        else:
            _map_tile(c, x, row, 34, face)
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
    return f"Martinique · {phase} · ▶ {names[seat]} {_owes(view, seat)}"


def _deduction_mark(c: Pic, cx: float, cy: float, possible: bool) -> None:
    """A white dot where the Lost Treasure may still lie; the same dot crossed out where it is ruled out."""
    c.draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill="#FFFFFF", outline=INK if possible else MUTED, width=3)
    if not possible:
        c.draw.line((cx - 5, cy - 5, cx + 5, cy + 5), fill=HIGHLIGHT, width=3)
        c.draw.line((cx - 5, cy + 5, cx + 5, cy - 5), fill=HIGHLIGHT, width=3)


def _layout(view: dict[str, Any]) -> tuple[tuple[str, bool, bool, bool], ...]:
    """The static island: every square with its beach, scroll and hook flags."""
    return tuple((sq, info["beach"], info["scroll"], info["hook"]) for sq, info in view["squares"].items())


def _picture(view: dict[str, Any], private: dict[str, Any] | None = None) -> Picture:
    pic = Picture(_base(_layout(view)), _PALETTE)
    c = _Board(pic)
    title = _title(view)
    text(c.draw, (8, 8), title, fit_size(title, 26, WIDTH - 16, bold=True, smallest=18), bold=True)
    _island(c, view, private)
    _pub(c, view)
    _chests(c, view, CHESTS_Y)
    for s in range(2):
        _seat_panel(c, view, s, SEAT_Y + s * (PANEL_H + 8), private)
    return pic


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """The board as a PNG. With ``seat`` (and that seat's view), its secret map tiles face up and its deductions."""
    private = view.get("private") if seat is not None else None
    return _picture(view, private).png()


def picture(view: dict[str, Any]) -> Image.Image:
    """The public board as a palette image (a replay's frame)."""
    return _picture(view).img


def focus(view: dict[str, Any], seat: int | None = None) -> Box | None:
    """Where a close-up looks: the squares of the last move, else ``seat``'s pirates on the island."""
    last = view.get("last_move")
    squares = list(last["path"]) + list(last["passed"]) if last else []
    if not squares and seat is not None:
        colour = view["players"][seat]["colour"]
        squares = [sq for sq, info in view["squares"].items() if info["pirate"] == colour]
    boxes = []
    for sq in squares:
        x, y = _cell_origin(sq)
        boxes.append((x, y, x + CELL, y + CELL))
    return union(boxes)


def zoom(view: dict[str, Any], seat: int | None = None) -> bytes:
    """A full-resolution close-up of the island around :func:`focus` (public view only)."""
    return encode(close_up(_picture(view, None).img, focus(view, seat), (0, 40, ISLAND_R + 8, HEIGHT)))


def caption(view: dict[str, Any], seat: int | None = None) -> str:
    """The fine print: each seat's score in parts and its ship's stacks, and what the tile letters mean. A seat's
    own picture leaves nothing out (its map tiles and deductions are in its summary)."""
    if seat is not None:
        return ""
    lines = []
    result = view.get("result")
    for s, p in enumerate(view["players"]):
        stacks = " ".join("[" + " ".join(_short(t) for t in stack) + "]" for stack in p["ship"]) or "empty"
        if result:
            sc = result["scores"][str(s)]
            score = (
                f"pairs {sc['pairs']} + ship {sc['ship']} + stacks {sc['stacks_bonus']} + treasure {sc['treasure']}"
                f" = **{sc['total']}**"
            )
        else:
            sp = p["score_preview"]
            score = f"pairs {sp['pairs']} + ship {sp['ship']} + most stacks {sp['total'] - sp['pairs'] - sp['ship']}"
            score += f" = **{sp['total']}**"
        lines.append(f"{p['name']}: {score} · ship {stacks}")
    lines.append(KEY + "Tiles: " + ", ".join(f"{TYPE_LETTER[t]} {t}" for t in TYPES) + "; ? map tile (moves 1)")
    return "\n".join(lines)


def _short(tile: str) -> str:
    kind, value = tile.split(":")
    return f"{TYPE_LETTER[kind]}{value}"


def _palette() -> Image.Image:
    """Every colour this renderer paints, plus the anti-aliasing blends of ink and white over each."""
    base = [INK, PAPER, SEA, HIGHLIGHT, MUTED, SAND, BEACH_SAND, HOOK_FILL, MAP_FILL, MAP_EDGE, MAP_INK, GRID_LINE]
    base += [PANEL_FILL, BAG_FILL, TREASURE_RED, "#FFFFFF", "#000000", *PIRATE_FILL.values()]
    base += list(TYPE_FILL.values())
    base = list(dict.fromkeys(base))
    pairs = [(fg, bg) for fg in (INK, "#FFFFFF") for bg in base]
    pairs += [
        (fg, bg) for fg in (HIGHLIGHT, TREASURE_RED, MAP_INK) for bg in (PAPER, SAND, BEACH_SAND, MAP_FILL, PANEL_FILL)
    ]
    return fixed_palette(base, pairs)


_PALETTE = Palette(_palette())
