"""Pictures of a Buccaneer view (spec §6): the 24×24 board with harbours, islands, ships and the last move,
a panel of players, ports and piles, a legend and a zoom inset; and the private picture of a hand."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import INK, MUTED, PAPER, canvas, fixed_palette, font, plain_font, text_on, to_png, wrap
from rules.buccaneer import board

CELL = 40
STRIP = 24
BAND = 72
X0 = BAND + STRIP
BOARD_PX = 2 * (BAND + STRIP) + 24 * CELL  # 1152
WIDTH = BOARD_PX
SEA = "#DCEBF2"
GRID = "#9FB9C8"
SAND = "#E3C16F"
COAST = "#FFF1B0"
FLAT = "#A9D18E"
FLAT_COAST = "#E2F2D8"
PIRATE = "#6E6E6E"
GOLD = "#E0B000"
RED = "#D00000"
KIND_SHORT = {"diamond": "D", "ruby": "R", "gold": "G", "pearl": "P", "rum": "Rm"}
DIR_VEC = {d: (v[0], -v[1]) for d, v in board.DELTA.items()}  # screen y grows downwards


@lru_cache(maxsize=8192)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A text's coverage mask and its offset from the anchor point. Boards repeat most labels from one
    picture to the next, so caching the glyph work is the main saving of a redraw."""
    fnt = font(size, bold)
    x0, y0, x1, y1 = fnt.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=fnt, fill=255, anchor=anchor)
    return mask, x0, y0


def _text(img: Image.Image, xy: tuple[float, float], text: str, fnt: Any, fill: str, anchor: str = "la") -> None:
    size, bold = (fnt, False) if isinstance(fnt, int) else fnt
    mask, ox, oy = _mask(text, size, bold, anchor)
    x, y = int(round(xy[0])) + ox, int(round(xy[1])) + oy
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


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
        return x + 2, y + 2, x + 3 * CELL - 2, y + BAND - 2
    y = X0 + (24 - r - 1) * CELL
    x = 0 if side == "W" else BOARD_PX - BAND
    return x + 2, y + 2, x + BAND - 2, y + 3 * CELL - 2


def harbour_centre(hid: str) -> tuple[float, float]:
    x0, y0, x1, y1 = harbour_box(hid)
    return (x0 + x1) / 2, (y0 + y1) / 2


def at_centre(at: str) -> tuple[float, float]:
    if board.is_harbour(at):
        return harbour_centre(at)
    return cell_centre(*board.POS[at])


# -- the static sea -------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _base() -> Image.Image:
    img, d = canvas(BOARD_PX, BOARD_PX, PAPER)
    d.rectangle((X0, X0, X0 + 24 * CELL, X0 + 24 * CELL), fill=SEA)
    coast = set(board.TREASURE_COAST)
    flat_coast = set(board.FLAT_COAST)
    for c, r in board.ALL_SQUARES:
        box = cell_box(c, r)
        sq = board.name((c, r))
        island = board.ISLAND_OF.get((c, r))
        if island == "treasure":
            d.rectangle(box, fill=SAND)
        elif island == "flat":
            d.rectangle(box, fill=FLAT)
        elif island == "pirate":
            d.rectangle(box, fill=PIRATE)
        elif sq in coast:
            d.rectangle(box, fill=COAST)
            d.text((box[0] + 33, box[1] + 8), "?", font=font(12, True), fill="#B08900", anchor="mm")
        elif sq in flat_coast:
            d.rectangle(box, fill=FLAT_COAST)
            for k in range(-CELL, CELL, 10):
                d.line((box[0] + k, box[3], box[0] + k + CELL, box[1]), fill="#B9D9A6", width=1)
    for i in range(25):
        d.line((X0 + i * CELL, X0, X0 + i * CELL, X0 + 24 * CELL), fill=GRID, width=1)
        d.line((X0, X0 + i * CELL, X0 + 24 * CELL, X0 + i * CELL), fill=GRID, width=1)
    for c0, c1, r0, r1 in board.ISLAND_RECTS.values():
        x0, _, _, y1 = cell_box(c0, r0)
        _, y0, x1, _ = cell_box(c1, r1)
        d.rectangle((x0, y0, x1, y1), outline=INK, width=3)
    f = font(18, True)
    for i in range(24):
        letter = chr(ord("A") + i)
        x = X0 + i * CELL + CELL / 2
        d.text((x, BAND + STRIP / 2), letter, font=f, fill=INK, anchor="mm")
        d.text((x, BOARD_PX - BAND - STRIP / 2), letter, font=f, fill=INK, anchor="mm")
        y = X0 + (23 - i) * CELL + CELL / 2
        d.text((BAND + STRIP / 2, y), str(i + 1), font=font(14, True), fill=INK, anchor="mm")
        d.text((BOARD_PX - BAND - STRIP / 2, y), str(i + 1), font=font(14, True), fill=INK, anchor="mm")
    for label, sq in (("MUD", board.MUD_BAY), ("CLIFF", board.CLIFF_CREEK), ("ANC", board.ANCHOR_BAY)):
        x, y, _, _ = cell_box(*board.POS[sq])
        d.text((x + 20, y + 33), label, font=font(11, True), fill="#1F4E79", anchor="mm")
    if board.ANCHOR_BAY:  # the anchor glyph at Anchor Bay
        cx, cy = cell_centre(*board.POS[board.ANCHOR_BAY])
        d.line((cx, cy - 14, cx, cy + 6), fill="#1F4E79", width=3)
        d.arc((cx - 10, cy - 6, cx + 10, cy + 10), 0, 180, fill="#1F4E79", width=3)
        d.line((cx - 6, cy - 10, cx + 6, cy - 10), fill="#1F4E79", width=3)
    for hid in board.HARBOUR_IDS:
        hc, hr = board.HARBOUR_CELL[hid]
        for e in board.EXITS[hid]:
            dc, dr = board.DELTA[e]
            tx, ty = cell_centre(hc + dc, hr + dr)
            sx, sy = DIR_VEC[e]
            bx, by = tx - sx * 22, ty - sy * 22
            d.line((bx, by, tx - sx * 10, ty - sy * 10), fill=MUTED, width=3)
    return img


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
    notch = (x - ux * 9 * scale, y - uy * 9 * scale)
    d.polygon([tip, left, notch, right], fill=colour, outline=INK, width=2)


def _ship(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    p: dict[str, Any],
    scale: float,
    active: bool,
) -> None:
    ship = p["ship"]
    colour = p["colour"] or "#888888"
    x, y = centre
    if active:
        d.ellipse((x - 25 * scale, y - 25 * scale, x + 25 * scale, y + 25 * scale), outline="#FFFFFF", width=5)
    if ship["derelict"]:
        _arrow(d, centre, ship["facing"], "#FFFFFF", scale)
    else:
        _arrow(d, centre, ship["facing"], colour, scale)
    r = 9 * scale + 1
    d.ellipse((x - r, y - r, x + r, y + r), fill="#FFFFFF", outline=INK, width=1)
    _text(img, (x, y), p["code"] or "?", (max(8, int(11 * scale)), True), INK, "mm")
    if ship["derelict"]:
        _text(img, (x + 12 * scale, y - 12 * scale), "×", (max(10, int(16 * scale)), True), RED, "mm")
    vx, vy = DIR_VEC.get(ship["facing"] or "n", (0, -1))
    norm = (vx * vx + vy * vy) ** 0.5
    for i, _ in enumerate(ship["hold"]):
        bx = x - vx / norm * 16 * scale + (i * 2 - 1) * 6 * scale
        by = y - vy / norm * 16 * scale
        s = 4 * scale + 1
        d.rectangle((bx - s, by - s, bx + s, by + s), fill=GOLD, outline=INK)


def _harbours(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    players = view["players"]
    for h in view["harbours"]:
        hid = h["id"]
        box = harbour_box(hid)
        owner = h["owner"]
        fill = players[owner]["colour"] if owner is not None else "#FFFFFF"
        d.rectangle(box, fill=fill, outline=INK if owner is not None else "#8C8C8C", width=3)
        ink = text_on(fill)
        x0, y0, x1, y1 = box
        cx = (x0 + x1) / 2
        docks = h["docks"]
        summary = f"T{h['docks_value']}·C{sum(docks['crew'].values())}·K{len(docks['cards'])}"
        status = f"home {h['home_value']}/20" if owner is not None else "TRADE"
        if board.HARBOUR[hid]["side"] in ("N", "S"):
            _text(img, (cx, y0 + 11), h["name"], (15, True), ink, "mm")
            _text(img, (cx, y0 + 30), status, (15, True), ink, "mm")
            _text(img, (cx, y0 + 50), f"{h['code']} {summary}", (13), ink, "mm")
        else:
            _text(img, (cx, y0 + 14), h["code"], (20, True), ink, "mm")
            _text(img, (cx, y0 + 34), h["name"][:8], (12), ink, "mm")
            _text(img, (cx, y0 + 52), f"T{h['docks_value']}", (13), ink, "mm")
            crew = f"C{sum(docks['crew'].values())} K{len(docks['cards'])}"
            _text(img, (cx, y0 + 68), crew, (13), ink, "mm")
            _text(img, (cx, y0 + 88), status.replace("home ", "⌂"), (13, True), ink, "mm")


def _where(at: str | None) -> str:
    if at is None:
        return "not yet at sea"
    return f"in {board.HARBOUR[at]['name']}" if board.is_harbour(at) else f"at {at.upper()}"


def draw_board(view: dict[str, Any], img: Image.Image | None = None) -> Image.Image:
    """The board of ``view``, drawn on a copy of the static sea (or onto ``img``, whose top it covers)."""
    img = _base().copy() if img is None else img
    d = ImageDraw.Draw(img)
    _harbours(img, d, view)
    ti = view["treasure_island"]
    tx0, _, _, ty1 = cell_box(11, 11)
    _, ty0, tx1, _ = cell_box(14, 14)
    tcx, tcy = (tx0 + tx1) / 2, (ty0 + ty1) / 2
    _text(img, (tcx, tcy - 40), "TREASURE", (18, True), INK, "mm")
    _text(img, (tcx, tcy - 20), "ISLAND", (18, True), INK, "mm")
    stock = [f"{KIND_SHORT[k]}{n}" for k, n in ti.items()]
    _text(img, (tcx, tcy + 8), " ".join(stock[:3]), (15, True), INK, "mm")
    _text(img, (tcx, tcy + 26), " ".join(stock[3:]), (15, True), INK, "mm")
    _text(img, (tcx, tcy + 48), f"chance {view['chance_count']}", (14), INK, "mm")
    fx0, _, _, fy1 = cell_box(2, 20)
    _, fy0, fx1, _ = cell_box(4, 23)
    fcx = (fx0 + fx1) / 2
    _text(img, (fcx, fy0 + 18), "FLAT", (20, True), INK, "mm")
    flat = view["flat"]
    items = [KIND_SHORT[k] * 1 + (str(n) if n > 1 else "") for k, n in flat["treasure"].items() if n]
    items += [k.upper() + (f"×{n}" if n > 1 else "") for k, n in flat["crew"].items() if n]
    for i, line in enumerate(wrap(" ".join(items) or "empty", font(14, True), 110)[:5]):
        _text(img, (fcx, fy0 + 44 + 18 * i), line, (14, True), INK, "mm")
    px0, _, _, py1 = cell_box(21, 2)
    _, py0, px1, _ = cell_box(23, 5)
    pcx = (px0 + px1) / 2
    _text(img, (pcx, py0 + 40), "PIRATE", (18, True), "#FFFFFF", "mm")
    _text(img, (pcx, py0 + 66), f"crew {view['pirate_count']}", (16, True), "#FFFFFF", "mm")
    _last_move(d, view)
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
                if side in ("N", "S"):
                    cx, cy = x1 + 18 + i * 27, (y0 + y1) / 2
                else:
                    cx, cy = (x0 + x1) / 2, y1 + 18 + i * 27
                colour = p["colour"] or "#888888"
                halo = "#FFFFFF" if p["seat"] == active else INK
                d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=colour, outline=halo, width=3)
                _text(img, (cx, cy), p["code"] or "?", (12, True), text_on(colour), "mm")
            continue
        centre = cell_centre(*board.POS[at])
        if len(group) == 1:
            _ship(img, d, centre, group[0], 1.0, group[0]["seat"] == active)
            continue
        offsets = [(-9, -9), (9, 9), (10, -10)]
        for p, (ox, oy) in zip(group, offsets, strict=False):
            _ship(img, d, (centre[0] + ox, centre[1] + oy), p, 0.75, p["seat"] == active)
    return img


def _dashed(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: str) -> None:
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length == 0:
        return
    steps = int(length // 12)
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
            width=5,
        )


def _last_move(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view["last"]
    move = last["move"]
    if move and move["from"] and move["to"] and move["from"] != move["to"]:
        colour = view["players"][move["seat"]]["colour"] or INK
        a, b = at_centre(move["from"]), at_centre(move["to"])
        _dashed(d, a, b, "#FFFFFF")
        _dashed(d, a, b, colour if colour != "#FFFFFF" else INK)
        d.ellipse((a[0] - 8, a[1] - 8, a[0] + 8, a[1] + 8), outline=colour, width=3)
    combat = last["combat"]
    if combat:
        x, y = cell_centre(*board.POS[combat["square"]])
        d.ellipse((x - 22, y - 22, x + 22, y + 22), outline=RED, width=4)


# -- panel ----------------------------------------------------------------------------------------------
def _treasure_text(pool: dict[str, int]) -> str:
    return " ".join(f"{k}×{n}" if n > 1 else k for k, n in pool.items() if n) or "-"


def _crew_text(pool: dict[str, int]) -> str:
    return " ".join(k.upper() + (f"×{n}" if n > 1 else "") for k, n in pool.items() if n) or "-"


def _panel_lines(view: dict[str, Any]) -> list[tuple[str, str | None, str, bool]]:
    """(text, swatch colour, code, bold) rows of the panel."""
    rows: list[tuple[str, str | None, str, bool]] = []
    players = view["players"]
    harbours = {h["id"]: h for h in view["harbours"]}
    turn = view["turn_seat"]
    order = view["order"] or list(range(len(players)))
    for seat in order:
        p = players[seat]
        ship = p["ship"]
        mark = "▶ " if seat == turn and view["phase"] == "play" else ""
        pos = _where(ship["at"])
        if ship["at"] and not board.is_harbour(ship["at"]) and ship["facing"]:
            pos += f" facing {ship['facing'].upper()}"
        head = f"{mark}{p['name']} · {pos}" + (" · derelict" if ship["derelict"] else "")
        rows.append((head, p["colour"], p["code"] or "?", True))
        hold = ", ".join(ship["hold"]) or "empty"
        keep = ", ".join(p["keepers"]) or "none"
        rows.append((f"   crew {p['hand_size']} · hold {hold} · keepers {keep}", None, "", False))
        if p["harbour"]:
            h = harbours[p["harbour"]]
            rows.append(
                (
                    f"   docks {_treasure_text(h['docks']['treasure'])} | crew {_crew_text(h['docks']['crew'])} | "
                    f"safe {_treasure_text(h['safety'])} · home {h['home_value']}/20",
                    None,
                    "",
                    False,
                )
            )
    trade = [h for h in view["harbours"] if h["owner"] is None]
    if trade and view["phase"] != "choose_ports":
        rows.append(("Trade ports", None, "", True))
        for h in trade:
            cards = " " + " ".join(h["docks"]["cards"]) if h["docks"]["cards"] else ""
            value = h["docks_value"] + sum(int(k[1]) * n for k, n in h["docks"]["crew"].items())
            rows.append(
                (
                    f"   {h['code']} {h['name']}: {_treasure_text(h['docks']['treasure'])} · "
                    f"{_crew_text(h['docks']['crew'])}{cards} (value {value})",
                    None,
                    "",
                    False,
                )
            )
    chance = view["last"]["chance"]
    last_card = f"{chance['card']} {chance['title']}" if chance else "none yet"
    rows.append((f"Pirate Island crew {view['pirate_count']} · chance pile {view['chance_count']}", None, "", False))
    rows.append((f"Last chance card: {last_card}", None, "", False))
    opts = view["options"]
    limit = opts["round_limit"] if opts["round_limit"] != "0" else "none"
    rows.append((f"Round {view['round']} · honour {opts['honour']} · round limit {limit}", None, "", False))
    if view["challenge_open"]:
        mover = players[view["challenge_open"]["mover"]]
        rows.append((f"Challenge window open: {mover['name']} sailed {view['challenge_open']['k']}", None, "", True))
    outcome = view["outcome"]
    if outcome:
        if outcome["winners"]:
            names = ", ".join(players[w]["name"] for w in outcome["winners"])
            rows.append((f"Game over: {names} wins", None, "", True))
        else:
            rows.append(("Game over: round limit, no winner", None, "", True))
    return rows


@lru_cache(maxsize=1)
def _legend_image() -> Image.Image:
    img, d = canvas(576, 330, PAPER)
    _legend(d, 0, 0)
    return img


def _legend(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    f = font(18)
    d.text((x, y), "Legend", font=font(20, True), fill=INK)
    y += 28
    _arrow(d, (x + 16, y + 14), "e", "#D55E00", 0.8)
    d.text((x + 40, y + 14), "ship, pointing where it faces", font=f, fill=INK, anchor="lm")
    y += 32
    _arrow(d, (x + 16, y + 14), "e", "#FFFFFF", 0.8)
    d.text((x + 16, y + 4), "×", font=font(14, True), fill=RED, anchor="mm")
    d.text((x + 40, y + 14), "derelict (no crew)", font=f, fill=INK, anchor="lm")
    y += 32
    d.rectangle((x + 8, y + 8, x + 18, y + 18), fill=GOLD, outline=INK)
    d.text((x + 40, y + 14), "treasure aboard (max 2)", font=f, fill=INK, anchor="lm")
    y += 32
    d.rectangle((x + 2, y, x + 30, y + 28), fill=COAST, outline=GRID)
    d.text((x + 16, y + 14), "?", font=font(14, True), fill="#B08900", anchor="mm")
    d.text((x + 40, y + 14), "chance square (Treasure Island coast)", font=f, fill=INK, anchor="lm")
    y += 32
    d.rectangle((x + 2, y, x + 30, y + 28), fill=FLAT_COAST, outline=GRID)
    d.text((x + 40, y + 14), "Flat Island coast: take what washed up", font=f, fill=INK, anchor="lm")
    y += 32
    d.text((x + 16, y + 14), "ANC", font=font(11, True), fill="#1F4E79", anchor="mm")
    d.text((x + 40, y + 14), "Anchor Bay: land Kidd's Chart", font=f, fill=INK, anchor="lm")
    y += 32
    d.rectangle((x + 2, y, x + 30, y + 28), fill="#FFFFFF", outline="#8C8C8C", width=3)
    d.text((x + 40, y + 14), "trade port (T treasure, C crew, K cards)", font=f, fill=INK, anchor="lm")
    y += 32
    d.rectangle((x + 2, y, x + 30, y + 28), fill="#009E73", outline=INK, width=3)
    d.text((x + 40, y + 14), "home port, filled with its ship's colour", font=f, fill=INK, anchor="lm")
    y += 32
    d.ellipse((x + 4, y + 2, x + 28, y + 26), outline=RED, width=3)
    d.text((x + 40, y + 14), "last fight · dashed line: last move", font=f, fill=INK, anchor="lm")
    return y + 36


def _inset_centre(view: dict[str, Any]) -> str | None:
    move = view["last"]["move"]
    if move and move["to"]:
        return move["to"]
    seat = view["turn_seat"]
    if seat is not None:
        return view["players"][seat]["ship"]["at"]
    return None


def inset(board_img: Image.Image, at: str, size: int = 9, px: int = 64) -> Image.Image:
    cx, cy = at_centre(at)
    half = size * CELL / 2
    x0 = int(min(max(cx - half, 0), BOARD_PX - size * CELL))
    y0 = int(min(max(cy - half, 0), BOARD_PX - size * CELL))
    crop = board_img.crop((x0, y0, x0 + size * CELL, y0 + size * CELL))
    return crop.resize((size * px, size * px), Image.Resampling.NEAREST)


def _fit(text: str, fnt, width: int) -> list[str]:
    """One line when it fits (one measurement), else a greedy wrap."""
    return [text] if fnt.getlength(text) <= width else wrap(text, fnt, width)


PANEL_H = 960
INSET_X = WIDTH - 576 - 16


@lru_cache(maxsize=1)
def _public_base() -> Image.Image:
    """The static part of the public picture: the sea, the legend and the inset frame."""
    img, d = canvas(WIDTH, BOARD_PX + PANEL_H, PAPER)
    img.paste(_base(), (0, 0))
    d.text((INSET_X, BOARD_PX + 12), "Zoom on the last move", font=font(20, True), fill=INK)
    img.paste(_legend_image(), (INSET_X, BOARD_PX + 44 + 576 + 20))
    return img


def render_public(view: dict[str, Any]) -> Image.Image:
    rows = _panel_lines(view)
    left_w = WIDTH - 576 - 48
    f, fb = font(19), font(19, True)
    lines: list[tuple[str, str | None, str, bool]] = []
    for text, colour, code, bold in rows:
        for i, line in enumerate(_fit(text, fb if bold else f, left_w - 50)):
            lines.append((line, colour if i == 0 else None, code if i == 0 else "", bold))
    img = _public_base().copy()
    extra = 20 + 26 * len(lines) - PANEL_H
    if extra > 0:  # more rows than the fixed panel holds (not seen in play): grow the picture
        grown, _ = canvas(WIDTH, BOARD_PX + PANEL_H + extra, PAPER)
        grown.paste(img, (0, 0))
        img = grown
    draw_board(view, img)
    d = ImageDraw.Draw(img)
    y = BOARD_PX + 14
    for line, colour, code, bold in lines:
        if colour:
            d.rectangle((12, y + 1, 50, y + 23), fill=colour, outline=INK)
            _text(img, (31, y + 12), code, (14, True), text_on(colour), "mm")
        _text(img, (58, y + 12), line, (19, bold), INK, "lm")
        y += 26
    centre = _inset_centre(view)
    if centre:
        img.paste(inset(img, centre), (INSET_X, BOARD_PX + 44))
    d.rectangle((INSET_X, BOARD_PX + 44, INSET_X + 576, BOARD_PX + 44 + 576), outline=INK, width=3)
    return img


# -- private picture ------------------------------------------------------------------------------------
def _card(d: ImageDraw.ImageDraw, x: int, y: int, kind: str, w: int = 90, h: int = 130) -> None:
    black = kind[0] == "b"
    fill = "#2B2B2B" if black else "#FFFFFF"
    ink = "#FFFFFF" if black else "#C00000"
    d.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=fill, outline="#C00000" if not black else INK, width=4)
    d.text((x + w / 2, y + h * 0.38), kind[1], font=font(int(h * 0.38), True), fill=ink, anchor="mm")
    d.text((x + 14, y + 16), kind[0].upper(), font=font(18, True), fill=ink, anchor="mm")
    cx, cy, s = x + w / 2, y + h * 0.76, h * 0.1
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


def render_private(view: dict[str, Any], seat: int) -> Image.Image:
    you = view["you"]
    me = view["players"][seat]
    cards = _hand_cards(you["hand"])
    per_row = 10
    rows = max(1, (len(cards) + per_row - 1) // per_row)
    lines: list[tuple[str, str]] = []
    lines.append(
        (
            f"Sailing strength {you['sailing']} · Fighting strength {you['fighting']} "
            f"(Black {you['black']} − Red {you['red']})",
            INK,
        )
    )
    if view["options"]["honour"] == "on":
        lines.append((f"A distance above {you['sailing']} would be challengeable.", MUTED))
    plan = you.get("free_plan") or you.get("plan")
    if plan:
        parts = [plan["kind"] + (f" {plan['dir'].upper()}" if plan.get("dir") else "")]
        if plan.get("k"):
            parts.append(str(plan["k"]))
        if plan.get("target"):
            parts.append(f"attack {plan['target']}")
        if plan.get("face"):
            parts.append(f"face {plan['face'].upper()}")
        lines.append(("Plan: " + " · ".join(parts) + " — confirm or undo", "#1F4E79"))
    basket = you.get("basket")
    if basket and (basket["give"] or basket["get"]):
        give = " ".join(f"{k}×{n}" for k, n in basket["give"].items()) or "-"
        get = " ".join(f"{k}×{n}" for k, n in basket["get"].items()) or "-"
        lines.append((f"You give: {give} (value {basket['plain'] + basket['cards']})", INK))
        lines.append((f"You get: {get} (value {basket['wanted']})", INK))
        lines.append((f"Trade: {basket['status']}", "#007A3D" if basket["ok"] else RED))
    fight = you.get("combat")
    fight_cards: list[str] = []
    if fight:
        other = view["players"][fight["opponent"]]
        lines.append((f"Fight with {other['name']}: your FS {fight['your_fs']} vs their FS {fight['their_fs']}", RED))
        fight_cards = _hand_cards(fight["opponent_hand"])
    keepers = me["keepers"]
    at = me["ship"]["at"]
    zoom = inset(draw_board(view), at, 9, 48) if at else None
    height = 90 + rows * 145 + 40 * len(lines) + (90 if keepers else 0) + (120 if fight_cards else 0) + 30
    height += 480 if zoom else 0
    img, d = canvas(1000, height, PAPER)
    colour = me["colour"] or "#888888"
    d.rectangle((0, 0, 1000, 60), fill=colour)
    d.text(
        (20, 30),
        f"{me['code'] or ''} {me['name']} — your hand ({len(cards)} cards)",
        font=plain_font(26, True),
        fill=text_on(colour),
        anchor="lm",
    )
    y = 76
    for i, kind in enumerate(cards):
        _card(d, 20 + (i % per_row) * 97, y + (i // per_row) * 145, kind)
    if not cards:
        d.text(
            (20, y + 60),
            "No crew: your ship is a derelict and drifts one square.",
            font=plain_font(24, True),
            fill=RED,
            anchor="lm",
        )
    y += rows * 145 + 4
    for text, ink in lines:
        d.text((20, y + 16), text, font=plain_font(24, True) if ink == INK else plain_font(22), fill=ink, anchor="lm")
        y += 40
    if keepers:
        d.text((20, y + 14), "Keepers:", font=plain_font(22, True), fill=INK, anchor="lm")
        for i, k in enumerate(keepers):
            label = {
                "longjohn": "Long John",
                "doubloons": "Doubloons 4",
                "pieces": "Pieces of 8 (5)",
                "chart": "Kidd's Chart 3",
            }[k]
            x = 130 + i * 210
            d.rounded_rectangle((x, y, x + 200, y + 60), radius=8, fill="#FFF6D5", outline=INK, width=2)
            d.text((x + 100, y + 30), label, font=plain_font(19, True), fill=INK, anchor="mm")
        y += 90
    if fight_cards:
        d.text((20, y + 10), "Their crew:", font=plain_font(22, True), fill=INK, anchor="lm")
        for i, kind in enumerate(fight_cards[:12]):
            _card(d, 170 + i * 66, y, kind, w=60, h=90)
        y += 120
    if zoom:
        d.text((20, y + 14), "Your ship", font=plain_font(22, True), fill=INK, anchor="lm")
        img.paste(zoom, (20, y + 34))
        d.rectangle((20, y + 34, 20 + zoom.width, y + 34 + zoom.height), outline=INK, width=3)
    return img


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour drawn here plus the anti-aliasing blends of text on its backgrounds."""
    ships = [h["colour"] for h in board.HARBOURS]
    backs = [PAPER, SEA, SAND, COAST, FLAT, FLAT_COAST, PIRATE, "#FFFFFF", "#FFF6D5", "#2B2B2B", *ships]
    bases = [*backs, GRID, GOLD, RED, INK, MUTED, "#1F4E79", "#B08900", "#8C8C8C", "#B9D9A6", "#C00000", "#007A3D"]
    pairs = [(INK, b) for b in backs] + [("#FFFFFF", b) for b in (PIRATE, "#2B2B2B", *ships)]
    pairs += [(c, b) for c in (RED, MUTED, "#1F4E79", "#C00000", "#007A3D") for b in (PAPER, "#FFFFFF", SEA)]
    pairs += [("#B08900", COAST), (GRID, SEA), ("#B9D9A6", FLAT_COAST), (GOLD, INK)]
    return fixed_palette(bases, pairs)


def encode(img: Image.Image) -> bytes:
    """PNG bytes through the fixed palette (an adaptive quantise takes ~200 ms on this board)."""
    return to_png(img, _palette(), compress_level=1)


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    if seat is None or "you" not in view:
        return encode(render_public(view))
    return encode(render_private(view, seat))
