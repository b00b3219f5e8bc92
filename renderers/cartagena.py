"""Cartagena pictures (spec §6): the passage as a six-row snake, crews, cards and legend; a hand for DMs.

Reads only the view dict: the public picture (``seat=None``) is drawn from ``view(state, None)``, the private
one from ``view(state, seat)`` and adds that seat's hand on top of the same board.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    SEAT_COLOURS,
    fixed_palette,
    font,
    plain_font,
    text_on,
    to_png,
)
from renderers.icons import ICON, icon
from rules.cartagena.board import LETTERS, SLOOP, START, SYMBOLS

WIDTH, HEIGHT = 1280, 1000
HAND_HEIGHT = 200  # the private picture's hand strip, above the board
HEADER = 60
SPACE_W, SPACE_H = 120, 114
GAP_X, GAP_Y = 6, 16
BOX_X, BOX_W = 10, 140  # START and SLOOP boxes, left of the snake
BOARD_X = BOX_X + BOX_W + 20
BOARD_BOTTOM = HEADER + 6 * SPACE_H + 5 * GAP_Y
PANEL_X = BOARD_X + 6 * SPACE_W + 5 * GAP_X + 24
BOTTOM_Y = BOARD_BOTTOM + 14
LEGEND_Y = HEIGHT - 196  # the symbol legend sits at the foot of the side panel

STONE = "#D8CDB8"
STONE_EDGE = "#8C7B62"
TUNNEL = "#5B4636"
CARD = "#FFFDF6"
CARD_EDGE = "#7A6A55"
TURN_BG = "#FFF1B8"
WHITE = "#FFFFFF"
BLACK = "#000000"
SHADOW = "#CBBFA6"
SAIL = "#FAF6EA"
HULL = "#7B4A2A"
SEA_LINE = "#3D7EA6"


# -- geometry -----------------------------------------------------------------------------------------
def space_box(space: int) -> tuple[int, int, int, int]:
    """Pixel box of passage space 1..36: odd rows run left → right, even rows right → left."""
    row, col = divmod(space - 1, 6)
    if row % 2:
        col = 5 - col
    x = BOARD_X + col * (SPACE_W + GAP_X)
    y = HEADER + row * (SPACE_H + GAP_Y)
    return x, y, x + SPACE_W, y + SPACE_H


def start_box() -> tuple[int, int, int, int]:
    """Beside rows 1–2: the column left of the snake is free except for START (top) and SLOOP (bottom)."""
    return BOX_X, HEADER, BOX_X + BOX_W, HEADER + 2 * SPACE_H + GAP_Y


def sloop_box() -> tuple[int, int, int, int]:
    return BOX_X, BOARD_BOTTOM - 3 * SPACE_H - 2 * GAP_Y + 10, BOX_X + BOX_W, BOARD_BOTTOM


def position_box(pos: int) -> tuple[int, int, int, int]:
    return start_box() if pos == START else sloop_box() if pos == SLOOP else space_box(pos)


def anchor(pos: int) -> tuple[float, float]:
    """Where the last-move arrow starts or ends: a space's centre, or the inner edge of START and SLOOP
    (level with space 1 and 36) so the arrow never covers their crew counts."""
    x0, y0, x1, y1 = position_box(pos)
    if pos in (START, SLOOP):
        return x1 + 2, y0 + SPACE_H / 2 if pos == START else y1 - SPACE_H / 2
    return (x0 + x1) / 2, (y0 + y1) / 2


# -- pieces -------------------------------------------------------------------------------------------
def pawn(d: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, seat: int) -> None:
    """A disc in the seat colour with a thick dark outline and the seat digit (spec §6), never under 22 px."""
    x, y = centre
    d.ellipse((x - radius, y - radius, x + radius, y + radius), fill=SEAT_COLOURS[seat], outline=INK, width=3)
    d.text(
        (x, y),
        str(seat + 1),
        font=font(max(22, int(radius * 1.25)), bold=True),
        fill=text_on(SEAT_COLOURS[seat]),
        anchor="mm",
    )


@lru_cache(maxsize=64)
def _pawn_sprite(seat: int, radius: int) -> Image.Image:
    """A pawn drawn once on a transparent square; pasting it is far cheaper than drawing its digit again."""
    size = 2 * radius + 2
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    pawn(ImageDraw.Draw(sprite), (radius, radius), radius, seat)
    return sprite


def _put_pawn(img: Image.Image, centre: tuple[float, float], radius: int, seat: int) -> None:
    sprite = _pawn_sprite(seat, radius)
    img.paste(sprite, (round(centre[0] - radius), round(centre[1] - radius)), sprite)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, **kw: Any) -> None:
    bold = kw.pop("bold", False)
    face = plain_font if kw.pop("private", False) else font  # a hand's strings are never remembered
    kw.setdefault("fill", INK)
    d.text(xy, text, font=face(size, bold), **kw)


def _counts(cards: dict[str, int]) -> str:
    return "  ".join(f"{LETTERS[s]}×{cards[s]}" for s in SYMBOLS if cards.get(s))


def _name(view: dict[str, Any], seat: int) -> str:
    return view["seat_names"][seat]


# -- the board ----------------------------------------------------------------------------------------
def _tunnel(d: ImageDraw.ImageDraw) -> None:
    """The dark tunnel under the spaces: one band per row, joined at alternate ends, out to START and SLOOP."""
    pad = 6
    for row in range(6):
        first, last = space_box(row * 6 + 1), space_box(row * 6 + 6)
        x0, x1 = min(first[0], last[0]), max(first[2], last[2])
        d.rounded_rectangle((x0 - pad, first[1] - pad, x1 + pad, first[3] + pad), 14, fill=TUNNEL)
        if row < 5:
            end = space_box(row * 6 + 6)
            d.rectangle((end[0] + 30, end[3], end[2] - 30, end[3] + GAP_Y), fill=TUNNEL)
    one, last = space_box(1), space_box(36)
    d.rectangle((start_box()[2] - 4, one[1] + 30, one[0], one[3] - 30), fill=TUNNEL)
    d.rectangle((sloop_box()[2] - 4, last[1] + 30, last[0], last[3] - 30), fill=TUNNEL)


def _space(d: ImageDraw.ImageDraw, symbol: str, space: int) -> None:
    x0, y0, x1, y1 = space_box(space)
    d.rounded_rectangle((x0, y0, x1, y1), 10, fill=STONE, outline=STONE_EDGE, width=2)
    _text(d, (x0 + 8, y0 + 4), LETTERS[symbol], 28, bold=True)
    _text(d, (x1 - 8, y0 + 6), str(space), 22, fill=MUTED, anchor="ra")
    icon(d, symbol, ((x0 + x1) / 2 + 4, y0 + 46), 58)


def _pawns(img: Image.Image, space: int, occupants: list[int]) -> None:
    """Up to three pawns along the bottom edge of a space, in seat order."""
    x0, _, x1, y1 = space_box(space)
    for i, seat in enumerate(occupants):
        slot = (i - (len(occupants) - 1) / 2) * 37
        _put_pawn(img, ((x0 + x1) / 2 + slot, y1 - 21), 18, seat)


def _crew_column(img: Image.Image, view: dict[str, Any], x: float, top: float, key: str) -> None:
    """One pawn per seat with its count, seats in order (START and SLOOP)."""
    d = ImageDraw.Draw(img)
    for seat in range(view["players"]):
        y = top + seat * 34
        count = view["pirates"][str(seat)][key]
        _put_pawn(img, (x, y), 15, seat)
        _text(d, (x + 22, y), f"×{count}", 24, bold=count > 0, fill=INK if count else MUTED, anchor="lm")


def _crews_aboard(img: Image.Image, view: dict[str, Any]) -> None:
    """The counts in the START and SLOOP boxes (their frames are part of the cached base)."""
    _crew_column(img, view, START_CREW[0], START_CREW[1], "start")
    _crew_column(img, view, SLOOP_CREW[0], SLOOP_CREW[1], "sloop")


def _start(d: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = start_box()
    d.rectangle((x0, y0 + 18, x1, y1), fill="#9E9A92", outline=INK, width=3)
    for k in range(5):  # battlements: the fortress the pirates break out of
        bx = x0 + k * (x1 - x0 - 16) / 4
        d.rectangle((bx, y0, bx + 16, y0 + 20), fill="#9E9A92", outline=INK, width=3)
    d.rectangle((x0 + 3, y0 + 18, x1 - 3, y0 + 21), fill="#9E9A92")
    _text(d, ((x0 + x1) / 2, y0 + 42), "START", 26, bold=True, anchor="mm")
    d.rounded_rectangle((x0 + 14, y0 + 60, x1 - 14, y1 - 10), 8, fill="#E9DCC2", outline=INK, width=2)


def _sloop(d: ImageDraw.ImageDraw) -> None:
    """A ship: mast and sails on top, a hull holding the crews aboard."""
    x0, y0, x1, y1 = sloop_box()
    mast = (x0 + x1) / 2
    hull_top = y1 - SLOOP_HULL
    d.line((mast, y0 + 4, mast, hull_top), fill=HULL, width=5)
    d.polygon([(mast + 4, y0 + 14), (mast + 4, hull_top - 8), (x1 - 6, hull_top - 8)], fill=SAIL, outline=INK)
    d.polygon([(mast - 4, y0 + 26), (mast - 4, hull_top - 8), (x0 + 12, hull_top - 8)], fill=SAIL, outline=INK)
    d.polygon([(mast, y0 + 4), (mast + 26, y0 + 12), (mast, y0 + 20)], fill=INK)
    d.polygon([(x0, hull_top), (x1, hull_top), (x1 - 14, y1), (x0 + 14, y1)], fill=HULL, outline=INK)
    d.line((x0 + 4, y1 + 5, x1 - 4, y1 + 5), fill=SEA_LINE, width=4)
    _text(d, (mast, hull_top + 18), "SLOOP", 24, bold=True, fill=WHITE, anchor="mm")
    d.rounded_rectangle((x0 + 24, hull_top + 36, x1 - 24, y1 - 8), 8, fill="#E9DCC2", outline=INK, width=2)


SLOOP_HULL = 214
START_CREW = (BOX_X + 42, HEADER + 80)
SLOOP_CREW = (BOX_X + 48, BOARD_BOTTOM - SLOOP_HULL + 56)


def _occupants(view: dict[str, Any]) -> dict[int, list[int]]:
    where: dict[int, list[int]] = {}
    for seat in range(view["players"]):
        for space, count in sorted(view["pirates"][str(seat)]["spaces"].items(), key=lambda item: int(item[0])):
            where.setdefault(int(space), []).extend([seat] * count)
    return where


def _arrow(d: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], short: float) -> None:
    """A white-edged magenta arrow that stops ``short`` of ``end`` (so it does not hide a space's pawns)."""
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    if math.hypot(x1 - x0, y1 - y0) < 1:
        return
    tip = (x1 - short * math.cos(angle), y1 - short * math.sin(angle))
    d.line((x0, y0, *tip), fill=WHITE, width=11)
    d.line((x0, y0, *tip), fill=HIGHLIGHT, width=6)
    head = [
        (tip[0] + 8 * math.cos(angle), tip[1] + 8 * math.sin(angle)),
        (tip[0] - 22 * math.cos(angle - 0.5), tip[1] - 22 * math.sin(angle - 0.5)),
        (tip[0] - 22 * math.cos(angle + 0.5), tip[1] - 22 * math.sin(angle + 0.5)),
    ]
    d.polygon(head, fill=HIGHLIGHT, outline=WHITE)


def _last_move(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Rings on the old and new positions; a backward move's target shows the cards drawn (``+2``)."""
    last = view["last"]
    src, dst = position_box(last["from"]), position_box(last["to"])
    d.rounded_rectangle(_grow(src, 3), 12, outline=HIGHLIGHT, width=3)
    d.rounded_rectangle(_grow(dst, 4), 12, outline=HIGHLIGHT, width=6)
    if "drew" in last:
        bx, by = (dst[0] + dst[2]) / 2, dst[1] - 2
        d.rounded_rectangle((bx - 28, by - 18, bx + 28, by + 18), 14, fill=HIGHLIGHT, outline=WHITE, width=2)
        _text(d, (bx, by), f"+{last['drew']}", 24, bold=True, fill=WHITE, anchor="mm")


def _grow(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    _text(d, (BOX_X, 12), f"CARTAGENA · {view['mode'].capitalize()}", 30, bold=True)
    if view["phase"] == "over":
        result = view["result"]
        names = " & ".join(_name(view, s) for s in result["winners"])
        if result["reason"] == "escaped":
            status = f"{names} escapes and wins!"
        else:
            status = f"Game stalled: {names} {'share the win' if len(result['winners']) > 1 else 'wins'}"
        colour = HIGHLIGHT
    else:
        turn = view["turn_seat"]
        status = f"Turn {view['turn_number']} · {_name(view, turn)} to play · actions left: {view['actions_left']}"
        colour = INK
    _text(d, (WIDTH - 14, 14), status, 26, bold=True, fill=colour, anchor="ra")


def _panel(img: Image.Image, view: dict[str, Any], y: int) -> None:
    """One block per seat: pawn, name, aboard, hand size; the cards where the view shows them; the current
    seat boxed with its actions left."""
    d = ImageDraw.Draw(img)
    x0, x1 = PANEL_X, WIDTH - 10
    _text(d, (x0, y), "Crews", 26, bold=True)
    y += 36
    over = view["phase"] == "over"
    winners = view["winners"] or []
    for seat in range(view["players"]):
        pirates, hand = view["pirates"][str(seat)], view["hands"][str(seat)]
        current = not over and seat == view["turn_seat"]
        lines = 2 + ("cards" in hand) + current
        height = 14 + 28 * lines
        if current or seat in winners:
            d.rounded_rectangle(
                (x0 - 8, y - 4, x1, y + height - 4), 10, fill=TURN_BG, outline=INK if current else HIGHLIGHT, width=3
            )
        _put_pawn(img, (x0 + 20, y + 24), 20, seat)
        label = ("▶ " if current else "") + _name(view, seat) + (" (you)" if seat == view.get("viewer") else "")
        _text(d, (x0 + 50, y + 2), label, 24, bold=True)
        if seat in winners:
            _text(d, (x1 - 10, y + 4), "WINNER", 22, bold=True, fill=HIGHLIGHT, anchor="ra")
        _text(d, (x0 + 50, y + 30), f"aboard {pirates['sloop']}/6 · hand {hand['count']}", 22)
        line_y = y + 58
        if "cards" in hand:
            _text(d, (x0 + 4, line_y), _counts(hand["cards"]) or "no cards", 22, fill=MUTED)
            line_y += 28
        if current:
            _text(d, (x0 + 4, line_y), f"actions left: {view['actions_left']}", 22, bold=True, fill="#8A1C00")
        y += height + 6


def _legend(d: ImageDraw.ImageDraw, y: int) -> None:
    x0 = PANEL_X
    _text(d, (x0, y), "Symbols", 26, bold=True)
    y += 36
    for i, symbol in enumerate(SYMBOLS):
        col, row = i % 2, i // 2
        cx, cy = x0 + 20 + col * 158, y + 22 + row * 48
        icon(d, symbol, (cx, cy), 40)
        _text(d, (cx + 28, cy), f"{LETTERS[symbol]} {symbol}", 22, anchor="lm")


@lru_cache(maxsize=256)
def _card_sprite(symbol: str, text: str, width: int, height: int) -> Image.Image:
    """A small face-up card (icon and a caption), drawn once and pasted wherever it appears."""
    sprite = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, width - 1, height - 1), 8, fill=CARD, outline=CARD_EDGE, width=2)
    icon(d, symbol, (width / 2, 30), 40)
    _text(d, (width / 2, height - 6), text, 22, bold=True, anchor="md")
    return sprite


def _small_card(img: Image.Image, x: int, y: int, symbol: str, text: str, width: int) -> None:
    img.paste(_card_sprite(symbol, text, width, 84), (x, y))


def _cards_area(img: Image.Image, view: dict[str, Any], y: int) -> None:
    """Draw pile and discards; below them the Tortuga row (next card first) or, in Jamaica, the discards
    as cards with counts."""
    d = ImageDraw.Draw(img)
    x = BOX_X
    discard = view["discard"]
    pile = f"Draw pile: {view['stock_count']}"
    if view["reshuffles"]:
        pile += f" (reshuffled ×{view['reshuffles']})"
    _text(d, (x, y), pile, 22, bold=True)
    row = view["row"]
    top = y + 34
    if row is None:
        _text(d, (x, top + 6), "Discards", 22, bold=True)
        _text(
            d, (x, top + 34), f"{view['discard_count']} card{'' if view['discard_count'] == 1 else 's'}", 22, fill=MUTED
        )
        for i, symbol in enumerate(SYMBOLS):
            cx = x + 130 + i * 80
            _small_card(img, cx, top, symbol, f"{LETTERS[symbol]}×{discard.get(symbol, 0)}", 72)
        return
    shown = "  ".join(f"{LETTERS[s]}×{discard[s]}" for s in SYMBOLS if discard.get(s)) or "none"
    after_pile = x + font(22, True).getlength(pile) + 40
    _text(d, (after_pile, y), f"Discards {view['discard_count']}: {shown}", 22)
    _text(d, (x, top + 6), "Row", 24, bold=True)
    _text(d, (x, top + 38), "next ▶", 22, bold=True, fill=HIGHLIGHT)
    if not row:
        _text(d, (x + 110, top + 24), "empty: a new row is laid at the next draw", 22, fill=MUTED)
    for i, symbol in enumerate(row):
        cx = x + 96 + i * 64
        _small_card(img, cx, top, symbol, LETTERS[symbol], 58)
        if i == 0:
            d.rounded_rectangle((cx - 4, top - 4, cx + 62, top + 88), 10, outline=HIGHLIGHT, width=4)


@lru_cache(maxsize=8)  # about 4 MB each; a miss costs one extra drawing of the passage
def _base(path: tuple[str, ...]) -> Image.Image:
    """What never changes during a game: the passage, the START and SLOOP frames and the legend."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(img)
    _tunnel(d)
    for space in range(1, 37):
        _space(d, path[space - 1], space)
    _start(d)
    _sloop(d)
    _legend(d, LEGEND_Y)
    return img


def _board(view: dict[str, Any]) -> Image.Image:
    """The public picture. Pawns go on after the last-move arrow so it never hides who stands where."""
    img = _base(tuple(view["path"])).copy()
    d = ImageDraw.Draw(img)
    _header(d, view)
    if view["last"]:
        target = view["last"]["to"]
        _arrow(d, anchor(view["last"]["from"]), anchor(target), 10 if target == SLOOP else 30)
    _crews_aboard(img, view)
    for space, occupants in _occupants(view).items():
        _pawns(img, space, occupants)
    if view["last"]:
        _last_move(d, view)
    _panel(img, view, HEADER)
    _cards_area(img, view, BOTTOM_Y)
    return img


def _hand(img: Image.Image, view: dict[str, Any], seat: int) -> None:
    """The private strip: six card columns (icon, letter, count) for the seat's own hand."""
    d = ImageDraw.Draw(img)
    hand = view["hands"][str(seat)]
    cards = hand.get("cards", {})
    d.rectangle((0, 0, WIDTH, HAND_HEIGHT - 8), fill="#EFE3C6")
    _put_pawn(img, (34, 32), 20, seat)
    _text(
        d,
        (64, 14),
        f"Your hand — {_name(view, seat)} (seat {seat + 1}): {hand['count']} card{'' if hand['count'] == 1 else 's'}",
        28,
        bold=True,
        private=True,
    )
    width = (WIDTH - 24 - 5 * 12) / 6
    for i, symbol in enumerate(SYMBOLS):
        x0 = 12 + i * (width + 12)
        n = cards.get(symbol, 0)
        box = (x0, 58, x0 + width, HAND_HEIGHT - 18)
        d.rounded_rectangle(
            box, 12, fill=CARD if n else "#E0D8C8", outline=INK if n else CARD_EDGE, width=3 if n else 2
        )
        icon(d, symbol, (x0 + 56, 58 + 62), 84)
        _text(d, (x0 + width - 14, 70), f"{LETTERS[symbol]}", 30, bold=True, anchor="ra")
        # "×n" on its own is a small number, not a hand: safe to remember, unlike the sentence above
        _text(d, (x0 + width - 14, HAND_HEIGHT - 30), f"×{n}", 40, bold=True, fill=INK if n else MUTED, anchor="rd")


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """PNG bytes: the public board when ``seat`` is None, else ``seat``'s hand above the same board."""
    board = _board(view)
    if seat is None:
        return _png(board)
    img = Image.new("RGB", (WIDTH, HEIGHT + HAND_HEIGHT), PAPER)
    _hand(img, view, seat)
    img.paste(board, (0, HAND_HEIGHT))
    return _png(img)


# -- encoding -----------------------------------------------------------------------------------------
def _palette_image() -> Image.Image:
    """Every colour drawn, plus blends of text ink into each background for smooth edges."""
    solid = [
        PAPER, INK, MUTED, HIGHLIGHT, STONE, STONE_EDGE, TUNNEL, CARD, CARD_EDGE, TURN_BG, WHITE, BLACK, SHADOW,
        SAIL, HULL, SEA_LINE, "#9E9A92", "#E9DCC2", "#EFE3C6", "#E0D8C8", "#A1887F", "#C9A227", "#ECEFF1",
        "#8A1C00", *SEAT_COLOURS[:5],
    ]  # fmt: skip
    for pair in (ICON[name] for name in SYMBOLS):
        solid.extend(pair)
    pairs = [(INK, bg) for bg in (PAPER, STONE, CARD, TURN_BG, "#E9DCC2", "#EFE3C6", "#E0D8C8", "#9E9A92")]
    pairs += [(MUTED, bg) for bg in (PAPER, STONE, CARD, TURN_BG, "#E0D8C8")]
    pairs += [(WHITE, bg) for bg in (*SEAT_COLOURS[:2], SEAT_COLOURS[3], HIGHLIGHT, HULL)]
    pairs += [(BLACK, bg) for bg in (SEAT_COLOURS[2], SEAT_COLOURS[4])]
    pairs += [(HIGHLIGHT, PAPER), ("#8A1C00", TURN_BG), (HIGHLIGHT, TURN_BG)]
    return fixed_palette(solid, pairs, steps=[k / 6 for k in range(1, 6)])


_PALETTE = _palette_image()


def _png(img: Image.Image) -> bytes:
    # level 1: twice as fast as the default for about 30% more bytes, still far under the size budget
    return to_png(img, _PALETTE, compress_level=1)
