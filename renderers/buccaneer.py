"""Pictures of a Buccaneer view (docs/games/buccaneer.md#picture): the 24×24 board with harbours, islands, ships and the last move beside a
panel of players; and the private picture of a hand.

Drawn for Discord's inline preview (550×350, half this landscape canvas): ships, their facing and treasure aboard,
every home port's value out of 20, each player's crew count and hold, whose turn it is and the last move stay in the
picture; the Docks, Safety Zones, keepers, trade ports' contents, Flat Island's contents and the last chance card go
to :func:`caption`."""

from __future__ import annotations

import pickle
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    Box,
    Palette,
    Picture,
    Recent,
    canvas,
    close_up,
    encode,
    fit_size,
    fixed_palette,
    font,
    text,
    text_on,
    text_width,
    union,
    wrap,
)
from rules.buccaneer import board

WIDTH, HEIGHT = 1100, 700  # twice the 550×350 preview: every label is at least 16 px
CELL = 23
STRIP = 20
BAND = 54
X0 = BAND + STRIP
BOARD_PX = 2 * (BAND + STRIP) + 24 * CELL  # 700
PANEL_X = BOARD_PX + 14
PANEL_R = WIDTH - 8
SEA = "#DCEBF2"
GRID = "#9FB9C8"
SAND = "#E3C16F"
COAST = "#FFF1B0"
FLAT = "#A9D18E"
FLAT_COAST = "#E2F2D8"
PIRATE = "#6E6E6E"
GOLD = "#E0B000"
RED = "#D00000"
BAY = "#1F4E79"
TURN_BG = "#FFF1B8"
KIND_SHORT = {"diamond": "D", "ruby": "R", "gold": "G", "pearl": "P", "rum": "Rm"}
DIR_VEC = {d: (v[0], -v[1]) for d, v in board.DELTA.items()}  # screen y grows downwards
STAGE_WORDS = {"plan": "to plan a move", "face": "to choose a facing", "confirm": "to confirm"}


def cell_box(c: int, r: int) -> tuple[int, int, int, int]:
    x = X0 + (c - 1) * CELL
    y = X0 + (24 - r) * CELL
    return x, y, x + CELL, y + CELL


def cell_centre(c: int, r: int) -> tuple[float, float]:
    x, y, _, _ = cell_box(c, r)
    return x + CELL / 2, y + CELL / 2


def harbour_box(hid: str) -> tuple[int, int, int, int]:
    """The box in the harbour band spanning the harbour's three exit columns or rows."""
    c, r = board.HARBOUR_CELL[hid]
    side = board.HARBOUR[hid]["side"]
    if side in ("N", "S"):
        x = X0 + (c - 2) * CELL
        y = 0 if side == "N" else BOARD_PX - BAND
        return x + 1, y + 2, x + 3 * CELL - 1, y + BAND - 2
    y = X0 + (24 - r - 1) * CELL
    x = 0 if side == "W" else BOARD_PX - BAND
    return x + 2, y + 1, x + BAND - 2, y + 3 * CELL - 1


def harbour_centre(hid: str) -> tuple[float, float]:
    x0, y0, x1, y1 = harbour_box(hid)
    return (x0 + x1) / 2, (y0 + y1) / 2


def at_centre(at: str) -> tuple[float, float]:
    if board.is_harbour(at):
        return harbour_centre(at)
    return cell_centre(*board.POS[at])


def _island_box(island: str) -> tuple[int, int, int, int]:
    c0, c1, r0, r1 = board.ISLAND_RECTS[island]
    x0, _, _, y1 = cell_box(c0, r0)
    _, y0, x1, _ = cell_box(c1, r1)
    return x0, y0, x1, y1


# -- the static sea -------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Sea, islands, coasts, bays, coordinates, harbour chevrons and the panel's legend: the same in every picture,
    drawn once and mapped onto the palette."""
    img, d = canvas(WIDTH, HEIGHT, PAPER)
    d.rectangle((X0, X0, X0 + 24 * CELL, X0 + 24 * CELL), fill=SEA)
    coast = set(board.TREASURE_COAST)
    flat_coast = set(board.FLAT_COAST)
    fills = {"treasure": SAND, "flat": FLAT, "pirate": PIRATE}
    for c, r in board.ALL_SQUARES:
        box = cell_box(c, r)
        sq = board.name((c, r))
        island = board.ISLAND_OF.get((c, r))
        if island is not None:
            d.rectangle(box, fill=fills[island])
        elif sq in coast:
            d.rectangle(box, fill=COAST)
            d.ellipse((box[0] + 8, box[1] + 8, box[2] - 8, box[3] - 8), fill="#B08900")
        elif sq in flat_coast:
            d.rectangle(box, fill=FLAT_COAST)
            for k in range(-CELL, CELL, 7):
                d.line((box[0] + k, box[3], box[0] + k + CELL, box[1]), fill="#B9D9A6", width=1)
    for i in range(25):
        d.line((X0 + i * CELL, X0, X0 + i * CELL, X0 + 24 * CELL), fill=GRID, width=1)
        d.line((X0, X0 + i * CELL, X0 + 24 * CELL, X0 + i * CELL), fill=GRID, width=1)
    for island in board.ISLAND_RECTS:
        d.rectangle(_island_box(island), outline=INK, width=3)
    for i in range(24):
        letter = chr(ord("A") + i)
        x = X0 + i * CELL + CELL / 2
        text(d, (x, BAND + STRIP / 2), letter, 16, bold=True, anchor="mm")
        text(d, (x, BOARD_PX - BAND - STRIP / 2), letter, 16, bold=True, anchor="mm")
        y = X0 + (23 - i) * CELL + CELL / 2
        text(d, (BAND + STRIP / 2, y), str(i + 1), 16, bold=True, anchor="mm")
        text(d, (BOARD_PX - BAND - STRIP / 2, y), str(i + 1), 16, bold=True, anchor="mm")
    if board.ANCHOR_BAY:  # the anchor glyph at Anchor Bay
        cx, cy = cell_centre(*board.POS[board.ANCHOR_BAY])
        d.line((cx, cy - 8, cx, cy + 6), fill=BAY, width=3)
        d.arc((cx - 7, cy - 3, cx + 7, cy + 8), 0, 180, fill=BAY, width=3)
        d.line((cx - 5, cy - 6, cx + 5, cy - 6), fill=BAY, width=3)
    for sq in (board.MUD_BAY, board.CLIFF_CREEK):  # the two other bays: a wavy mark
        cx, cy = cell_centre(*board.POS[sq])
        for k in (-4, 3):
            d.arc((cx - 8, cy + k - 4, cx, cy + k + 4), 180, 360, fill=BAY, width=2)
            d.arc((cx, cy + k - 4, cx + 8, cy + k + 4), 0, 180, fill=BAY, width=2)
    px0, py0, px1, _ = _island_box("pirate")
    text(d, ((px0 + px1) / 2, py0 + 16), "PIRATE", 16, bold=True, fill="#FFFFFF", anchor="mm")
    fx0, fy0, fx1, _ = _island_box("flat")
    text(d, ((fx0 + fx1) / 2, fy0 + 14), "FLAT", 18, bold=True, anchor="mm")
    _legend(d, PANEL_X, HEIGHT - 4 * 26 - 6)
    return _PALETTE.map(img)


@lru_cache(maxsize=1)
def _blank() -> Image.Image:
    """The private picture's empty parchment."""
    return _PALETTE.map(canvas(WIDTH, HEIGHT, PAPER)[0])


def _legend(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """Four short lines at the foot of the panel: what the marks on the board mean."""
    _arrow(d, (x + 10, y + 12), "e", "#D55E00", 0.6)
    text(d, (x + 26, y + 12), "ship, pointing where it faces", 18, anchor="lm")
    y += 26
    d.rectangle((x + 5, y + 7, x + 15, y + 17), fill=GOLD, outline=INK)
    text(d, (x + 26, y + 12), "treasure aboard · × derelict", 18, anchor="lm")
    y += 26
    d.rectangle((x, y + 1, x + 21, y + 22), fill=COAST, outline=GRID)
    d.ellipse((x + 7, y + 8, x + 14, y + 15), fill="#B08900")
    text(d, (x + 26, y + 12), "chance square · ⚓ Anchor Bay", 18, anchor="lm")
    y += 26
    d.line((x, y + 12, x + 20, y + 12), fill=INK, width=3)
    text(d, (x + 26, y + 12), "last move · red ring: last fight", 18, anchor="lm")


# -- ships ----------------------------------------------------------------------------------------------
def _arrow(d: ImageDraw.ImageDraw, centre: tuple[float, float], facing: str | None, colour: str, scale: float) -> None:
    x, y = centre
    vx, vy = DIR_VEC.get(facing or "n", (0, -1))
    norm = (vx * vx + vy * vy) ** 0.5
    ux, uy = vx / norm, vy / norm
    px, py = -uy, ux
    tip = (x + ux * 24 * scale, y + uy * 24 * scale)
    left = (x - ux * 14 * scale + px * 17 * scale, y - uy * 14 * scale + py * 17 * scale)
    right = (x - ux * 14 * scale - px * 17 * scale, y - uy * 14 * scale - py * 17 * scale)
    notch = (x - ux * 8 * scale, y - uy * 8 * scale)
    d.polygon([tip, left, notch, right], fill=colour, outline=INK, width=2)


SHIP_HALF = 34


@lru_cache(maxsize=512)
def _ship_sprite(code: str, colour: str, facing: str | None, derelict: bool, hold: int, active: bool) -> Image.Image:
    """A ship: an arrow along its facing in its harbour's colour (hollow when derelict), its code on a white disc,
    gold squares at the stern for its hold and a white halo on the ship whose turn it is; drawn once per look."""
    size = 2 * SHIP_HALF + 1
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(sprite)
    x = y = SHIP_HALF
    if active:
        d.ellipse((x - 31, y - 31, x + 31, y + 31), outline="#FFFFFF", width=5)
    _arrow(d, (x, y), facing, "#FFFFFF" if derelict else colour, 1.25)
    d.ellipse((x - 13, y - 13, x + 13, y + 13), fill="#FFFFFF", outline=INK, width=1)
    text(d, (x, y), code, 16, bold=True, anchor="mm")
    if derelict:
        text(d, (x + 17, y - 17), "×", 22, bold=True, fill=RED, anchor="mm")
    vx, vy = DIR_VEC.get(facing or "n", (0, -1))
    norm = (vx * vx + vy * vy) ** 0.5
    for i in range(hold):
        bx = x - vx / norm * 21 + (i * 2 - 1) * 7
        by = y - vy / norm * 21
        d.rectangle((bx - 6, by - 6, bx + 6, by + 6), fill=GOLD, outline=INK)
    return sprite


def _put_ship(pic: Picture, centre: tuple[float, float], p: dict[str, Any], active: bool) -> None:
    ship = p["ship"]
    sprite = _ship_sprite(
        p["code"] or "?", p["colour"] or "#888888", ship["facing"], ship["derelict"], len(ship["hold"]), active
    )
    pic.paste(sprite, (round(centre[0]) - SHIP_HALF, round(centre[1]) - SHIP_HALF), sprite)


def _harbours(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Each harbour box: its code and, for a home port, its value out of 20 (filled with its owner's colour)."""
    players = view["players"]
    for h in view["harbours"]:
        box = harbour_box(h["id"])
        owner = h["owner"]
        fill = players[owner]["colour"] if owner is not None else "#FFFFFF"
        d.rectangle(box, fill=fill, outline=INK if owner is not None else "#8C8C8C", width=3)
        ink = text_on(fill)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        text(d, (cx, cy - 11), h["code"], 20, bold=True, fill=ink, anchor="mm")
        status = f"{h['home_value']}/20" if owner is not None else "trade"
        text(d, (cx, cy + 12), status, 18 if owner is not None else 16, bold=owner is not None, fill=ink, anchor="mm")


def _islands(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """What lies on the islands: Treasure Island's stock and the chance pile, Pirate Island's crew, Flat Island's
    count (its contents are in the caption)."""
    x0, y0, x1, _ = _island_box("treasure")
    cx = (x0 + x1) / 2
    stock = [f"{KIND_SHORT[k]}{n}" for k, n in view["treasure_island"].items()]
    text(d, (cx, y0 + 16), " ".join(stock[:3]), 16, bold=True, anchor="mm")
    text(d, (cx, y0 + 36), " ".join(stock[3:]), 16, bold=True, anchor="mm")
    text(d, (cx, y0 + 66), f"? {view['chance_count']}", 20, bold=True, fill="#7A5C00", anchor="mm")
    x0, y0, x1, _ = _island_box("pirate")
    text(d, ((x0 + x1) / 2, y0 + 38), "crew", 16, fill="#FFFFFF", anchor="mm")
    text(d, ((x0 + x1) / 2, y0 + 62), str(view["pirate_count"]), 22, bold=True, fill="#FFFFFF", anchor="mm")
    flat = view["flat"]
    items = sum(flat["treasure"].values()) + sum(flat["crew"].values())
    x0, y0, x1, _ = _island_box("flat")
    text(d, ((x0 + x1) / 2, y0 + 44), str(items) if items else "empty", 18 if items else 16, bold=True, anchor="mm")
    if items:
        text(d, ((x0 + x1) / 2, y0 + 64), "item" + "s" * (items != 1), 16, anchor="mm")


def _ships(pic: Picture, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    active = view["turn_seat"]
    by_place: dict[str, list[dict[str, Any]]] = {}
    for p in view["players"]:
        if p["ship"]["at"]:
            by_place.setdefault(p["ship"]["at"], []).append(p)
    for at, group in by_place.items():
        if board.is_harbour(at):
            x0, y0, x1, y1 = harbour_box(at)
            side = board.HARBOUR[at]["side"]
            for i, p in enumerate(group):
                # in port: a round token in the band beside the harbour's box
                if side in ("N", "S"):
                    cx, cy = x1 + 15 + i * 27, (y0 + y1) / 2
                else:
                    cx, cy = (x0 + x1) / 2, y1 + 15 + i * 27
                colour = p["colour"] or "#888888"
                halo = "#FFFFFF" if p["seat"] == active else INK
                d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=colour, outline=halo, width=3)
                text(d, (cx, cy), p["code"] or "?", 16, bold=True, fill=text_on(colour), anchor="mm")
            continue
        centre = cell_centre(*board.POS[at])
        offsets = [(0, 0)] if len(group) == 1 else [(-10, -10), (10, 10), (11, -11)]
        for p, (ox, oy) in zip(group, offsets, strict=False):
            _put_ship(pic, (centre[0] + ox, centre[1] + oy), p, p["seat"] == active)


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: str, width: int) -> None:
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length == 0:
        return
    steps = max(2, int(length // 10))
    for i in range(0, steps, 2):
        t0, t1 = i / steps, min((i + 1) / steps, 1)
        d.line(
            (
                a[0] + (b[0] - a[0]) * t0,
                a[1] + (b[1] - a[1]) * t0,
                a[0] + (b[0] - a[0]) * t1,
                a[1] + (b[1] - a[1]) * t1,
            ),
            fill=colour,
            width=width,
        )


def _last_move(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view["last"]
    move = last["move"]
    if move and move["from"] and move["to"] and move["from"] != move["to"]:
        colour = view["players"][move["seat"]]["colour"] or INK
        a, b = at_centre(move["from"]), at_centre(move["to"])
        _dashed(d, a, b, "#FFFFFF", 8)
        _dashed(d, a, b, colour if colour != "#FFFFFF" else INK, 4)
        d.ellipse((a[0] - 7, a[1] - 7, a[0] + 7, a[1] + 7), outline=colour, width=3)
    combat = last["combat"]
    if combat:
        x, y = cell_centre(*board.POS[combat["square"]])
        d.ellipse((x - 20, y - 20, x + 20, y + 20), outline=RED, width=4)


#: the boards drawn last, by the public part of their view: a seat's picture cuts its close-up from the board the
#: move's public picture drew (a job of the same batch, see bot/infra/pictures.py) instead of drawing it again
_BOARDS = Recent(2)


def board_of(view: dict[str, Any]) -> Picture:
    """:func:`draw_board` of ``view``'s public part, remembered (read it, never draw on it)."""
    key = pickle.dumps({k: v for k, v in view.items() if k != "you"}, pickle.HIGHEST_PROTOCOL)
    hit = _BOARDS.get(key)
    if hit is None:
        hit = _BOARDS[key] = draw_board(view)
    return hit


def draw_board(view: dict[str, Any]) -> Picture:
    """The public picture: the board (on a copy of the static sea) and the players' panel."""
    pic = Picture(_base(), _PALETTE)
    d = pic.draw
    _harbours(d, view)
    _islands(d, view)
    _last_move(d, view)
    _ships(pic, d, view)
    _panel(d, view)
    return pic


# -- panel ----------------------------------------------------------------------------------------------
def _where(at: str | None) -> str:
    if at is None:
        return "not at sea"
    return f"in {board.HARBOUR[at]['name']}" if board.is_harbour(at) else f"at {at.upper()}"


def _name(p: dict[str, Any]) -> str:
    """A seat as the narration and the host call it: its home port once chosen ("London"), never "Seat 1" after."""
    return board.HARBOUR[p["harbour"]]["name"] if p.get("harbour") else p["name"]


def _status(view: dict[str, Any]) -> str:
    players = view["players"]
    outcome = view["outcome"]
    if outcome:
        if outcome["winners"]:
            return "Game over: " + ", ".join(_name(players[w]) for w in outcome["winners"]) + " wins"
        return "Game over: round limit, no winner"
    if view["phase"] == "choose_ports":
        return "Choosing home ports"
    if view["challenge_open"]:
        mover = players[view["challenge_open"]["mover"]]
        return f"Challenge? {_name(mover)} sailed {view['challenge_open']['k']}"
    seats = view["to_act"] or ([view["turn_seat"]] if view["turn_seat"] is not None else [])
    names = ", ".join(f"{_name(players[s])} ({players[s]['code'] or '?'})" for s in seats)
    return f"▶ {names} {STAGE_WORDS.get(view.get('stage') or '', 'to act')}"


def _panel(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Players in turn order: code, name and home value; crew, hold and place. The seat to play is boxed."""
    x0 = PANEL_X
    text(d, (x0, 6), f"Buccaneer · round {view['round']}", 24, bold=True)
    status = _status(view)
    text(d, (x0, 40), status, fit_size(status, 20, PANEL_R - x0, bold=True, smallest=16), bold=True, fill=HIGHLIGHT)
    players = view["players"]
    order = view["order"] or list(range(len(players)))
    harbours = {h["id"]: h for h in view["harbours"]}
    rows = len(order)
    row_h = min(60, (HEIGHT - 4 * 26 - 12 - 72) // max(1, rows))
    y = 72
    for seat in order:
        p = players[seat]
        ship = p["ship"]
        if seat == view["turn_seat"] and view["phase"] == "play":
            d.rounded_rectangle((x0 - 6, y - 2, PANEL_R, y + row_h - 4), 8, fill=TURN_BG, outline=INK, width=2)
        colour = p["colour"] or "#888888"
        d.rectangle((x0, y + 2, x0 + 38, y + 26), fill=colour, outline=INK)
        text(d, (x0 + 19, y + 14), p["code"] or "?", 16, bold=True, fill=text_on(colour), anchor="mm")
        text(d, (x0 + 46, y + 14), _name(p), 20, bold=True, anchor="lm")
        if p["harbour"]:
            text(
                d, (PANEL_R - 6, y + 14), f"home {harbours[p['harbour']]['home_value']}/20", 20, bold=True, anchor="rm"
            )
        hold = "+".join(KIND_SHORT[k] for k in ship["hold"]) or "empty"
        line = f"crew {p['hand_size']} · hold {hold} · {_where(ship['at'])}" + (" ×" if ship["derelict"] else "")
        text(d, (x0 + 46, y + 38), line, fit_size(line, 18, PANEL_R - x0 - 52, smallest=16), anchor="lm")
        y += row_h


def _clip(s: str, size: int, width: float) -> str:
    """``s`` cut (with "…") to fit ``width`` pixels in bold at ``size``."""
    if text_width(s, size, True) <= width:
        return s
    while s and text_width(s + "…", size, True) > width:
        s = s[:-1]
    return s + "…"


# -- the caption ----------------------------------------------------------------------------------------
def _treasure_text(pool: dict[str, int]) -> str:
    return " ".join(f"{k}×{n}" if n > 1 else k for k, n in pool.items() if n)


def _crew_text(pool: dict[str, int]) -> str:
    return " ".join(k.upper() + (f"×{n}" if n > 1 else "") for k, n in pool.items() if n)


KEEPER_NAMES = {"longjohn": "Long John", "doubloons": "Doubloons", "pieces": "Pieces of Eight", "chart": "Kidd's Chart"}


def caption(view: dict[str, Any], seat: int | None = None) -> str:
    """The fine print: each home port's Docks and Safety Zone with its ship's keepers, the trade ports, the islands'
    contents, the last chance card and the options. A seat's own picture leaves nothing out."""
    if seat is not None:
        return ""
    players = view["players"]
    harbours = {h["id"]: h for h in view["harbours"]}
    lines = []
    for s in view["order"] or range(len(players)):
        p = players[s]
        if not p["harbour"]:
            continue
        h = harbours[p["harbour"]]
        docks = " ".join(x for x in (_treasure_text(h["docks"]["treasure"]), _crew_text(h["docks"]["crew"])) if x)
        cards = " ".join(h["docks"]["cards"])
        parts = [f"docks {docks or '—'}" + (f" {cards}" if cards else ""), f"safe {_treasure_text(h['safety']) or '—'}"]
        if p["keepers"]:
            parts.append("keeps " + ", ".join(KEEPER_NAMES.get(k, k) for k in p["keepers"]))
        hold = ", ".join(p["ship"]["hold"])
        if hold:
            parts.append(f"hold {hold}")
        lines.append(f"**{p['code']}** {h['name']}: " + " · ".join(parts))
    trade = [h for h in view["harbours"] if h["owner"] is None]
    if trade and view["phase"] != "choose_ports":
        entries = []
        for h in trade:
            value = h["docks_value"] + sum(int(k[1]) * n for k, n in h["docks"]["crew"].items())
            stock = " ".join(x for x in (_treasure_text(h["docks"]["treasure"]), _crew_text(h["docks"]["crew"])) if x)
            cards = " ".join(h["docks"]["cards"])
            entries.append(f"{h['code']} {stock or 'empty'}{' ' + cards if cards else ''} ({value})")
        lines.append("Trade ports: " + " · ".join(entries))
    flat = view["flat"]
    found = " ".join(x for x in (_treasure_text(flat["treasure"]), _crew_text(flat["crew"])) if x)
    chance = view["last"]["chance"]
    last_card = f"{chance['card']} {chance['title']}" if chance else "none yet"
    stock = " ".join(f"{KIND_SHORT[k]}{n}" for k, n in view["treasure_island"].items())
    lines.append(f"Treasure Island: {stock} · Flat Island: {found or 'empty'} · last chance card: {last_card}")
    opts = view["options"]
    limit = opts["round_limit"] if opts["round_limit"] != "0" else "none"
    lines.append(f"Honour {opts['honour']} · round limit {limit}")
    return "\n".join(lines)


# -- close-ups ------------------------------------------------------------------------------------------
def focus(view: dict[str, Any], seat: int | None = None) -> Box | None:
    """Where a close-up looks: the last move (and fight), else ``seat``'s ship."""
    last = view["last"]
    places = []
    move = last["move"]
    if move and move["from"] and move["to"]:
        places += [move["from"], move["to"]]
    if last["combat"]:
        places.append(last["combat"]["square"])
    if not places and seat is not None and view["players"][seat]["ship"]["at"]:
        places.append(view["players"][seat]["ship"]["at"])
    boxes = []
    for at in places:
        x, y = at_centre(at)
        boxes.append((x - CELL, y - CELL, x + CELL, y + CELL))
    return union(boxes)


def zoom(view: dict[str, Any], seat: int | None = None) -> bytes:
    """A full-resolution close-up of the board around :func:`focus` (public view only)."""
    return encode(close_up(draw_board(view).img, focus(view, seat), (0, 0, BOARD_PX, HEIGHT)))


# -- private picture ------------------------------------------------------------------------------------
def _card(d: ImageDraw.ImageDraw, x: int, y: int, kind: str, w: int = 60, h: int = 86) -> None:
    black = kind[0] == "b"
    fill = "#2B2B2B" if black else "#FFFFFF"
    ink = "#FFFFFF" if black else "#C00000"
    d.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=fill, outline="#C00000" if not black else INK, width=3)
    text(d, (x + w / 2, y + h * 0.42), kind[1], int(h * 0.42), bold=True, fill=ink, anchor="mm")
    text(d, (x + 11, y + 12), kind[0].upper(), 16, bold=True, fill=ink, anchor="mm")
    cx, cy, s = x + w / 2, y + h * 0.8, h * 0.09
    if black:  # a spade: a point on top, a stem below
        d.polygon([(cx, cy - s * 1.3), (cx + s, cy + s * 0.2), (cx - s, cy + s * 0.2)], fill=ink)
        d.ellipse((cx - s, cy - s * 0.3, cx, cy + s * 0.6), fill=ink)
        d.ellipse((cx, cy - s * 0.3, cx + s, cy + s * 0.6), fill=ink)
        d.polygon([(cx, cy + s * 0.2), (cx + s * 0.4, cy + s * 1.2), (cx - s * 0.4, cy + s * 1.2)], fill=ink)
    else:  # a heart
        d.ellipse((cx - s, cy - s, cx, cy), fill=ink)
        d.ellipse((cx, cy - s, cx + s, cy), fill=ink)
        d.polygon([(cx - s, cy - s * 0.4), (cx + s, cy - s * 0.4), (cx, cy + s * 1.1)], fill=ink)


def _hand_cards(hand: dict[str, int]) -> list[str]:
    return [k for k in ("b3", "b2", "b1", "r3", "r2", "r1") for _ in range(hand.get(k, 0))]


def _private_lines(view: dict[str, Any], you: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(text, colour, bold) lines under the cards: strengths, the honour limit, a plan, a trade, a fight."""
    lines = [
        (
            f"Sailing strength {you['sailing']} · Fighting strength {you['fighting']} "
            f"(Black {you['black']} − Red {you['red']})",
            INK,
            True,
        )
    ]
    if view["options"]["honour"] == "on":
        lines.append((f"A distance above {you['sailing']} would be challengeable.", MUTED, False))
    plan = you.get("free_plan") or you.get("plan")
    if plan:
        parts = [plan["kind"] + (f" {plan['dir'].upper()}" if plan.get("dir") else "")]
        if plan.get("k"):
            parts.append(str(plan["k"]))
        if plan.get("target"):
            parts.append(f"attack {plan['target']}")
        if plan.get("face"):
            parts.append(f"face {plan['face'].upper()}")
        lines.append(("Plan: " + " · ".join(parts) + " — confirm or undo", BAY, True))
    basket = you.get("basket")
    if basket and (basket["give"] or basket["get"]):
        give = " ".join(f"{k}×{n}" for k, n in basket["give"].items()) or "-"
        get = " ".join(f"{k}×{n}" for k, n in basket["get"].items()) or "-"
        lines.append((f"You give: {give} (value {basket['plain'] + basket['cards']})", INK, False))
        lines.append((f"You get: {get} (value {basket['wanted']})", INK, False))
        lines.append((f"Trade: {basket['status']}", "#007A3D" if basket["ok"] else RED, True))
    fight = you.get("combat")
    if fight:
        other = view["players"][fight["opponent"]]
        lines.append(
            (f"Fight with {_name(other)}: your FS {fight['your_fs']} vs their FS {fight['their_fs']}", RED, True)
        )
    return lines


def render_private(view: dict[str, Any], seat: int) -> Picture:
    """The seat's hand as cards, its strengths and keepers, any plan, trade or fight; beside them a full-resolution
    close-up of the board around its ship."""
    you = view["you"]
    me = view["players"][seat]
    cards = _hand_cards(you["hand"])
    pic = Picture(_blank(), _PALETTE)
    d = pic.draw
    colour = me["colour"] or "#888888"
    d.rectangle((0, 0, WIDTH, 48), fill=colour)
    head = f"{me['code'] or ''} {_name(me)} — your hand ({len(cards)} card{'s' * (len(cards) != 1)})"
    text(d, (16, 24), head, 24, bold=True, fill=text_on(colour), anchor="lm", private=True)
    left_w = 620
    # as large as the hand allows: one row of big cards, else up to three rows of small ones
    w, h, per_row = (90, 130, 6) if len(cards) <= 6 else (60, 86, 9) if len(cards) <= 27 else (44, 64, 13)
    y = 60
    shown = cards[: per_row * 3]
    for i, kind in enumerate(shown):
        _card(d, 16 + (i % per_row) * (w + 7), y + (i // per_row) * (h + 8), kind, w, h)
    if len(cards) > len(shown):
        text(d, (16, y + 3 * (h + 8)), f"+{len(cards) - len(shown)} more", 18, bold=True, private=True)
    if not cards:
        text(d, (16, y + 30), "No crew: your ship is a derelict and drifts.", 22, bold=True, fill=RED, private=True)
    y += max(1, -(-len(shown) // per_row)) * (h + 8) + (26 if len(cards) > len(shown) else 6)
    for line, ink, bold in _private_lines(view, you):
        for part in wrap(line, font(20, bold), left_w - 16):
            text(d, (16, y), part, 20, bold=bold, fill=ink, private=True)
            y += 27
    if me["keepers"]:
        y += 4
        text(d, (16, y + 18), "Keepers:", 20, bold=True, anchor="lm")
        x = 118
        for k in me["keepers"]:
            label = {"longjohn": "Long John", "doubloons": "Doubloons 4", "pieces": "Pieces of 8 (5)",
                     "chart": "Kidd's Chart 3"}[k]  # fmt: skip
            w = text_width(label, 18, True) + 20
            d.rounded_rectangle((x, y, x + w, y + 36), radius=8, fill="#FFF6D5", outline=INK, width=2)
            text(d, (x + w / 2, y + 18), label, 18, bold=True, anchor="mm")
            x += w + 8
        y += 46
    fight = you.get("combat")
    if fight:
        text(d, (16, y + 10), "Their crew:", 20, bold=True, anchor="lm", private=True)
        for i, kind in enumerate(_hand_cards(fight["opponent_hand"])[:12]):
            _card(d, 140 + i * 40, y, kind, w=36, h=52)
    at = me["ship"]["at"]
    if at:
        # the ship's surroundings at full resolution, cut from the public board
        x, y = at_centre(at)
        w, h = WIDTH - left_w - 24, HEIGHT - 100
        x0 = round(min(max(x - w / 2, 0), BOARD_PX - w))
        y0 = round(min(max(y - h / 2, 0), HEIGHT - h))
        text(d, (left_w + 8, 60), "Your ship", 20, bold=True)
        pic.paste(board_of(view).crop((x0, y0, x0 + w, y0 + h)), (left_w + 8, 88))
        d.rectangle((left_w + 8, 88, left_w + 8 + w, 88 + h), outline=INK, width=3)
    return pic


def _palette() -> Image.Image:
    """Every colour drawn here plus the anti-aliasing blends of text on its backgrounds."""
    ships = [h["colour"] for h in board.HARBOURS]
    backs = [PAPER, SEA, SAND, COAST, FLAT, FLAT_COAST, PIRATE, TURN_BG, "#FFFFFF", "#FFF6D5", "#2B2B2B", *ships]
    bases = [*backs, GRID, GOLD, RED, INK, MUTED, BAY, HIGHLIGHT, "#B08900", "#7A5C00", "#8C8C8C", "#B9D9A6"]
    bases += ["#C00000", "#007A3D"]
    pairs = [(INK, b) for b in backs] + [("#FFFFFF", b) for b in (PIRATE, "#2B2B2B", *ships)]
    pairs += [(c, b) for c in (RED, MUTED, BAY, "#C00000", "#007A3D", HIGHLIGHT) for b in (PAPER, "#FFFFFF", SEA)]
    pairs += [("#7A5C00", SAND), (GRID, SEA), ("#B9D9A6", FLAT_COAST), (GOLD, INK), (HIGHLIGHT, TURN_BG)]
    return fixed_palette(bases, pairs)


#: the fixed palette every picture is drawn in (an adaptive quantise takes ~200 ms on this board)
_PALETTE = Palette(_palette())


def picture(view: dict[str, Any]) -> Image.Image:
    """The public board as a palette image (a replay's frame)."""
    return draw_board(view).img


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    if seat is None or "you" not in view:
        return board_of(view).png()
    return render_private(view, seat).png()
