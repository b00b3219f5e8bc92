"""Cartagena pictures (docs/games/cartagena.md#picture): the passage as a six-row snake, crews, cards and legend; a hand
for DMs.

Drawn for Discord's inline preview (550×350, half this canvas): the pawns, the crews aboard, whose turn, the
last move and the Tortuga row stay in the picture; the discards and Tortuga hands go to :func:`caption`.

Reads only the view dict: the public picture (``seat=None``) is drawn from ``view(state, None)``, the private
one from ``view(state, seat)`` and adds that seat's hand at the foot of the same board's panel.
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
    Box,
    Palette,
    Picture,
    close_up,
    encode,
    fit_size,
    fixed_palette,
    text,
    text_on,
    union,
)
from renderers.icons import ICON, icon
from rules.cartagena.board import LETTERS, SLOOP, START, SYMBOLS

WIDTH, HEIGHT = 1100, 700  # twice the 550×350 preview: every label is at least 16 px
HEADER = 46
SPACE_W, SPACE_H = 96, 98
GAP_X, GAP_Y = 6, 11
BOX_X, BOX_W = 8, 112  # START and SLOOP boxes, left of the snake
BOARD_X = BOX_X + BOX_W + 16
BOARD_BOTTOM = HEADER + 6 * SPACE_H + 5 * GAP_Y
PANEL_X = BOARD_X + 6 * SPACE_W + 5 * GAP_X + 18
PANEL_R = WIDTH - 8
SEAT_H = 64  # one seat's block in the side panel

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
    """A disc in the seat colour with a thick dark outline and the seat digit (docs/games/cartagena.md#picture)."""
    x, y = centre
    d.ellipse((x - radius, y - radius, x + radius, y + radius), fill=SEAT_COLOURS[seat], outline=INK, width=3)
    text(
        d, (x, y), str(seat + 1), max(16, int(radius * 1.25)), bold=True, fill=text_on(SEAT_COLOURS[seat]), anchor="mm"
    )


def _name(view: dict[str, Any], seat: int) -> str:
    return view["seat_names"][seat]


def _counts(cards: dict[str, int]) -> str:
    return " ".join(f"{LETTERS[s]}×{cards[s]}" for s in SYMBOLS if cards.get(s))


# -- the board ----------------------------------------------------------------------------------------
def _tunnel(d: ImageDraw.ImageDraw) -> None:
    """The dark tunnel under the spaces: one band per row, joined at alternate ends, out to START and SLOOP."""
    pad = 5
    for row in range(6):
        first, last = space_box(row * 6 + 1), space_box(row * 6 + 6)
        x0, x1 = min(first[0], last[0]), max(first[2], last[2])
        d.rounded_rectangle((x0 - pad, first[1] - pad, x1 + pad, first[3] + pad), 12, fill=TUNNEL)
        if row < 5:
            end = space_box(row * 6 + 6)
            d.rectangle((end[0] + 26, end[3], end[2] - 26, end[3] + GAP_Y), fill=TUNNEL)
    one, last = space_box(1), space_box(36)
    d.rectangle((start_box()[2] - 4, one[1] + 28, one[0], one[3] - 28), fill=TUNNEL)
    d.rectangle((sloop_box()[2] - 4, last[1] + 28, last[0], last[3] - 28), fill=TUNNEL)


def _space(d: ImageDraw.ImageDraw, symbol: str, space: int) -> None:
    x0, y0, x1, y1 = space_box(space)
    d.rounded_rectangle((x0, y0, x1, y1), 9, fill=STONE, outline=STONE_EDGE, width=2)
    text(d, (x0 + 7, y0 + 3), LETTERS[symbol], 24, bold=True)
    text(d, (x1 - 7, y0 + 5), str(space), 18, fill=MUTED, anchor="ra")
    icon(d, symbol, ((x0 + x1) / 2 + 4, y0 + 42), 48)


def _pawns(pic: Picture, space: int, occupants: tuple[int, ...]) -> None:
    """Up to three pawns along the bottom edge of a space, in seat order."""
    x0, _, _, y1 = space_box(space)
    sprite = _pawn_row(occupants)
    pic.paste(sprite, (x0, y1 - 35), sprite)


@lru_cache(maxsize=256)
def _pawn_row(occupants: tuple[int, ...]) -> Image.Image:
    """A space's pawns side by side on transparency, drawn once per line-up: one paste per space."""
    sprite = Image.new("RGBA", (SPACE_W, 34), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    for i, seat in enumerate(occupants):
        pawn(d, (SPACE_W / 2 + (i - (len(occupants) - 1) / 2) * 31, 17), 15, seat)
    return sprite


@lru_cache(maxsize=512)
def _crew_column(counts: tuple[int, ...]) -> Image.Image:
    """One pawn per seat with its count, seats in order (START and SLOOP), on the boxes' inner colour."""
    img = Image.new("RGB", (72, 28 * len(counts)), CREW_BG)
    d = ImageDraw.Draw(img)
    for seat, count in enumerate(counts):
        y = 14 + seat * 28
        pawn(d, (14, y), 12, seat)
        text(d, (31, y), f"×{count}", 20, bold=count > 0, fill=INK if count else MUTED, anchor="lm")
    return img


def _start(d: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = start_box()
    d.rectangle((x0, y0 + 16, x1, y1), fill="#9E9A92", outline=INK, width=3)
    for k in range(5):  # battlements: the fortress the pirates break out of
        bx = x0 + k * (x1 - x0 - 14) / 4
        d.rectangle((bx, y0, bx + 14, y0 + 18), fill="#9E9A92", outline=INK, width=3)
    d.rectangle((x0 + 3, y0 + 16, x1 - 3, y0 + 19), fill="#9E9A92")
    text(d, ((x0 + x1) / 2, y0 + 36), "START", 20, bold=True, anchor="mm")
    d.rounded_rectangle((x0 + 10, y0 + 50, x1 - 10, y1 - 8), 8, fill=CREW_BG, outline=INK, width=2)


def _sloop(d: ImageDraw.ImageDraw) -> None:
    """A ship: mast and sails on top, a hull holding the crews aboard."""
    x0, y0, x1, y1 = sloop_box()
    mast = (x0 + x1) / 2
    hull_top = y1 - SLOOP_HULL
    d.line((mast, y0 + 4, mast, hull_top), fill=HULL, width=5)
    d.polygon([(mast + 4, y0 + 14), (mast + 4, hull_top - 8), (x1 - 6, hull_top - 8)], fill=SAIL, outline=INK)
    d.polygon([(mast - 4, y0 + 24), (mast - 4, hull_top - 8), (x0 + 10, hull_top - 8)], fill=SAIL, outline=INK)
    d.polygon([(mast, y0 + 4), (mast + 24, y0 + 11), (mast, y0 + 18)], fill=INK)
    d.polygon([(x0, hull_top), (x1, hull_top), (x1 - 12, y1), (x0 + 12, y1)], fill=HULL, outline=INK)
    d.line((x0 + 4, y1 + 4, x1 - 4, y1 + 4), fill=SEA_LINE, width=4)
    text(d, (mast, hull_top + 16), "SLOOP", 20, bold=True, fill=WHITE, anchor="mm")
    d.rounded_rectangle((x0 + 16, hull_top + 30, x1 - 16, y1 - 8), 8, fill=CREW_BG, outline=INK, width=2)


SLOOP_HULL = 184
CREW_BG = "#E9DCC2"
START_CREW = (BOX_X + 18, HEADER + 56)
SLOOP_CREW = (BOX_X + 24, BOARD_BOTTOM - SLOOP_HULL + 36)


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
    d.rounded_rectangle(_grow(src, 3), 11, outline=HIGHLIGHT, width=3)
    d.rounded_rectangle(_grow(dst, 4), 11, outline=HIGHLIGHT, width=6)
    if "drew" in last:
        bx, by = (dst[0] + dst[2]) / 2, dst[1] - 1
        d.rounded_rectangle((bx - 26, by - 16, bx + 26, by + 16), 14, fill=HIGHLIGHT, outline=WHITE, width=2)
        text(d, (bx, by), f"+{last['drew']}", 22, bold=True, fill=WHITE, anchor="mm")


def _grow(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def _status(view: dict[str, Any]) -> tuple[str, str]:
    if view["phase"] == "over":
        result = view["result"]
        names = " & ".join(_name(view, s) for s in result["winners"])
        if result["reason"] == "escaped":
            return f"{names} escapes and wins!", HIGHLIGHT
        return f"Game stalled: {names} {'share the win' if len(result['winners']) > 1 else 'wins'}", HIGHLIGHT
    left = view["actions_left"]
    return (
        f"Turn {view['turn_number']} · ▶ {_name(view, view['turn_seat'])} · {left} action{'s' * (left != 1)} left",
        INK,
    )


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    status, colour = _status(view)
    size = fit_size(status, 24, PANEL_R - 320, bold=True, smallest=18)
    text(d, (PANEL_R, 10), status, size, bold=True, fill=colour, anchor="ra")


def _panel(pic: Picture, view: dict[str, Any]) -> int:
    """One block per seat: pawn, name, aboard and hand size; the current seat boxed. Returns the y below."""
    d = pic.draw
    x0, x1 = PANEL_X, PANEL_R
    y = HEADER
    over = view["phase"] == "over"
    winners = view["winners"] or []
    for seat in range(view["players"]):
        current = not over and seat == view["turn_seat"]
        if current or seat in winners:
            box = (x0 - 6, y - 2, x1, y + SEAT_H - 6)
            d.rounded_rectangle(box, 10, fill=TURN_BG, outline=INK if current else HIGHLIGHT, width=3)
        sprite = _pawn_sprite(seat, 18)
        pic.paste(sprite, (x0 + 1, y + 11), sprite)
        label = ("▶ " if current else "") + _name(view, seat) + (" (you)" if seat == view.get("viewer") else "")
        text(d, (x0 + 44, y + 2), label, 24, bold=True)
        if seat in winners:
            text(d, (x1 - 8, y + 5), "WINNER", 22, bold=True, fill=HIGHLIGHT, anchor="ra")
        elif current:
            text(d, (x1 - 8, y + 5), f"{view['actions_left']} left", 22, bold=True, fill="#8A1C00", anchor="ra")
        cards = view["hands"][str(seat)]["count"]
        text(
            d,
            (x0 + 44, y + 32),
            f"aboard {view['pirates'][str(seat)]['sloop']}/6 · {cards} card{'s' * (cards != 1)}",
            22,
        )
        y += SEAT_H
    return y


@lru_cache(maxsize=16)
def _pawn_sprite(seat: int, radius: int) -> Image.Image:
    """A pawn drawn once on a transparent square; pasting it is far cheaper than drawing its digit again."""
    sprite = Image.new("RGBA", (2 * radius + 2, 2 * radius + 2), (0, 0, 0, 0))
    pawn(ImageDraw.Draw(sprite), (radius, radius), radius, seat)
    return sprite


@lru_cache(maxsize=256)
def _card_sprite(symbol: str, label: str, width: int, height: int) -> Image.Image:
    """A small face-up card (icon and a caption), drawn once and pasted wherever it appears."""
    sprite = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(sprite)
    d.rounded_rectangle((0, 0, width - 1, height - 1), 7, fill=CARD, outline=CARD_EDGE, width=2)
    icon(d, symbol, (width / 2, height * 0.36), min(width - 10, height * 0.5))
    text(d, (width / 2, height - 4), label, 20, bold=True, anchor="md")
    return sprite


def _cards_area(pic: Picture, view: dict[str, Any], y: int) -> None:
    """The draw pile and discard count; in Tortuga the row (next card first, boxed)."""
    d = pic.draw
    x = PANEL_X
    text(d, (x, y), f"Draw pile {view['stock_count']} · discards {view['discard_count']}", 20, bold=True)
    row = view["row"]
    if row is None:
        return
    text(d, (x, y + 32), "Row · next ▶", 20, bold=True, fill=HIGHLIGHT)
    if not row:
        text(d, (x, y + 64), "empty: refilled at the next draw", 18, fill=MUTED)
    for i, symbol in enumerate(row):
        cx, cy = x + 4 + (i % 6) * 54, y + 64 + (i // 6) * 66
        pic.paste(_card_sprite(symbol, LETTERS[symbol], 48, 60), (cx, cy))
        if i == 0:
            d.rounded_rectangle((cx - 4, cy - 4, cx + 51, cy + 63), 9, outline=HIGHLIGHT, width=4)


def _legend(d: ImageDraw.ImageDraw, y: int) -> None:
    for i, symbol in enumerate(SYMBOLS):
        col, row = i % 2, i // 2
        cx, cy = PANEL_X + 20 + col * 166, y + 20 + row * 44
        icon(d, symbol, (cx, cy), 36)
        text(d, (cx + 26, cy), f"{LETTERS[symbol]} {symbol}", 20, anchor="lm")


LEGEND_Y = HEIGHT - 3 * 44 - 4  # the symbols sit at the foot of the side panel in Jamaica


@lru_cache(maxsize=8)  # 770 KB each; a miss costs one extra drawing of the passage
def _base(path: tuple[str, ...], mode: str) -> Image.Image:
    """What never changes during a game, drawn once and mapped onto the palette: the title, the passage, the START
    and SLOOP frames and (Jamaica) the symbols."""
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(img)
    text(d, (BOX_X, 10), f"Cartagena · {mode.capitalize()}", 24, bold=True)
    _tunnel(d)
    for space in range(1, 37):
        _space(d, path[space - 1], space)
    _start(d)
    _sloop(d)
    if mode != "tortuga":
        _legend(d, LEGEND_Y)
    return _PALETTE.map(img)


def _board(view: dict[str, Any]) -> Picture:
    """The public picture. Pawns go on after the last-move arrow so it never hides who stands where."""
    pic = Picture(_base(tuple(view["path"]), view["mode"]), _PALETTE)
    d = pic.draw
    _header(d, view)
    if view["last"]:
        target = view["last"]["to"]
        _arrow(d, anchor(view["last"]["from"]), anchor(target), 10 if target == SLOOP else 28)
    for key, (x, y) in (("start", START_CREW), ("sloop", SLOOP_CREW)):
        pic.paste(_crew_column(tuple(view["pirates"][str(s)][key] for s in range(view["players"]))), (x, y))
    for space, occupants in _occupants(view).items():
        _pawns(pic, space, tuple(occupants))
    if view["last"]:
        _last_move(d, view)
    y = _panel(pic, view)
    _cards_area(pic, view, y + 6)
    return pic


def _hand(pic: Picture, view: dict[str, Any], seat: int) -> None:
    """The private strip at the foot of the panel: six cards (icon, letter, count) of the seat's own hand."""
    d = pic.draw
    hand = view["hands"][str(seat)]
    cards = hand.get("cards", {})
    top = HEIGHT - 126
    d.rounded_rectangle((PANEL_X - 6, top, PANEL_R, HEIGHT - 6), 10, fill="#EFE3C6", outline=INK, width=2)
    n = hand["count"]
    text(d, (PANEL_X + 4, top + 6), f"Your hand: {n} card{'s' * (n != 1)}", 20, bold=True, private=True)
    for i, symbol in enumerate(SYMBOLS):
        x = PANEL_X + 2 + i * 55
        count = cards.get(symbol, 0)
        box = (x, top + 34, x + 50, top + 112)
        d.rounded_rectangle(box, 7, fill=CARD if count else "#E0D8C8", outline=INK if count else CARD_EDGE, width=2)
        icon(d, symbol, (x + 25, top + 58), 36)
        # "×n" on its own is a small number, not a hand: safe to remember, unlike the sentence above
        text(
            d,
            (x + 25, top + 108),
            f"{LETTERS[symbol]}×{count}",
            20,
            bold=True,
            fill=INK if count else MUTED,
            anchor="md",
        )


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """PNG bytes: the public board when ``seat`` is None, else the same board with ``seat``'s hand in the panel."""
    board = _board(view)
    if seat is not None and "cards" in view["hands"][str(seat)]:
        _hand(board, view, seat)
    return board.png()


def picture(view: dict[str, Any]) -> Image.Image:
    """The public board as a palette image (a replay's frame)."""
    return _board(view).img


def focus(view: dict[str, Any], seat: int | None = None) -> Box | None:
    """Where a close-up looks: the last move, else ``seat``'s pirates on the passage."""
    last = view["last"]
    if last:
        return union([position_box(last["from"]), position_box(last["to"])])
    if seat is None:
        return None
    return union(space_box(int(space)) for space in view["pirates"][str(seat)]["spaces"])


def zoom(view: dict[str, Any], seat: int | None = None) -> bytes:
    """A full-resolution close-up of the passage around :func:`focus` (public view only)."""
    return encode(close_up(_board(view).img, focus(view, seat), (0, HEADER - 6, PANEL_X - 8, HEIGHT)))


def caption(view: dict[str, Any], seat: int | None = None) -> str:
    """The fine print: discards by symbol, reshuffles and, in Tortuga, every seat's (public) hand. A private
    picture (``seat``) leaves nothing out: its hand is in the seat's summary."""
    if seat is not None:
        return ""
    discard = view["discard"]
    lines = [
        f"Discards: {_counts(discard) or 'none'}"
        + (f" · reshuffled ×{view['reshuffles']}" if view["reshuffles"] else "")
    ]
    if view["mode"] == "tortuga":
        hands = [
            f"{_name(view, s)} {_counts(view['hands'][str(s)].get('cards', {})) or '—'}" for s in range(view["players"])
        ]
        lines.append("Hands: " + " · ".join(hands))
    return "\n".join(lines)


# -- encoding -----------------------------------------------------------------------------------------
def _palette_image() -> Image.Image:
    """Every colour drawn, plus blends of text ink into each background for smooth edges."""
    solid = [
        PAPER, INK, MUTED, HIGHLIGHT, STONE, STONE_EDGE, TUNNEL, CARD, CARD_EDGE, TURN_BG, WHITE, BLACK, SHADOW,
        SAIL, HULL, SEA_LINE, "#9E9A92", CREW_BG, "#EFE3C6", "#E0D8C8", "#A1887F", "#C9A227", "#ECEFF1",
        "#8A1C00", *SEAT_COLOURS[:5],
    ]  # fmt: skip
    for pair in (ICON[name] for name in SYMBOLS):
        solid.extend(pair)
    pairs = [(INK, bg) for bg in (PAPER, STONE, CARD, TURN_BG, CREW_BG, "#EFE3C6", "#E0D8C8", "#9E9A92")]
    pairs += [(MUTED, bg) for bg in (PAPER, STONE, CARD, TURN_BG, "#E0D8C8")]
    pairs += [(WHITE, bg) for bg in (*SEAT_COLOURS[:2], SEAT_COLOURS[3], HIGHLIGHT, HULL)]
    pairs += [(BLACK, bg) for bg in (SEAT_COLOURS[2], SEAT_COLOURS[4])]
    pairs += [(HIGHLIGHT, PAPER), ("#8A1C00", TURN_BG), (HIGHLIGHT, TURN_BG)]
    return fixed_palette(solid, pairs, steps=[k / 6 for k in range(1, 6)])


_PALETTE = Palette(_palette_image())
