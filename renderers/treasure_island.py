"""Treasure Island pictures (docs/games/treasure_island.md#picture): the island, every search and hint, the calendar, and each seat's private
overlays. Drawn from a view dict only; the static island art is cached per map.

Drawn for Discord's inline preview (550×350, half this landscape canvas): the map with everything a search or a hint
has ruled out, the miniatures, Long John Silver's tower, the calendar and who is acting stay in the picture; the
characters' owners and specials, the counts (chests, bluffs, hands) and the key to the map's marks go to
:func:`caption`.
"""

from __future__ import annotations

import base64
import json
import math
import pickle
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from renderers import common
from renderers.common import INK, PAPER, SEA, text

WIDTH, HEIGHT = 1100, 700  # twice the 550×350 preview: every label is at least 16 px
PX = 24  # pixels per mile
FRAME_X, FRAME_Y = 28, 24  # the labelled frame, left and top (the right and bottom edges need no labels)
MAP_W, MAP_H = 36, 28
W_NODES, H_NODES = 73, 57
MAP_R = FRAME_X + MAP_W * PX  # 892
PANEL_X = MAP_R + 8
PANEL_R = WIDTH - 3

COLOURS = {"anne": "#E69F00", "olivier": "#56B4E9", "jim": "#009E73", "charlotte": "#CC79A7", "ben": "#D55E00"}
TERRAIN = {
    "grass": "#B9D98C",
    "hills": "#D9C08C",
    "beach": "#EEDC9A",
    "forest": "#4E8A4E",
    "marsh": "#7FB7A4",
    "town": "#B0B0B0",
}
RED = "#D62728"
EVENT_TAG = {"starting": "SH", "black": "BH", "blackspot": "☠", "prison": "P", "bluff": "BL", "escape": "ESC"}


def X(x: float) -> float:
    return FRAME_X + x * PX


def Y(y: float) -> float:
    return FRAME_Y + (MAP_H - y) * PX


def XY(p: list[float] | tuple[float, float]) -> tuple[float, float]:
    return X(p[0]), Y(p[1])


def mask_bits(b64: str) -> int:
    return int.from_bytes(base64.b64decode(b64), "little")


_BIT_TO_BYTE = bytes.maketrans(b"01", b"\x00\xff")


def mask_image(mask: int) -> Image.Image:
    """A node-resolution 'L' image (255 where set), north up."""
    # bit k is node (k % W, k // W): the reversed binary digits are the nodes in row order, south row first
    raw = format(mask, "b")[::-1].encode().translate(_BIT_TO_BYTE)[: W_NODES * H_NODES]
    raw = raw.ljust(W_NODES * H_NODES, b"\x00")
    return Image.frombytes("L", (W_NODES, H_NODES), raw).transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def cells(mask: int) -> tuple[Image.Image, tuple[int, int]] | None:
    """The mask blown up to half-mile cells centred on their nodes: an 'L' patch and where it goes on the canvas."""
    small = mask_image(mask)
    box = small.getbbox()
    if box is None:
        return None
    left, top, right, bottom = box
    half = PX / 2
    patch = small.crop(box).resize((round((right - left) * half), round((bottom - top) * half)), Image.NEAREST)
    return patch, (round(FRAME_X - PX / 4 + left * half), round(FRAME_Y - PX / 4 + top * half))


def _pattern(kind: str, colour: str) -> Image.Image:
    tile = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    if kind == "trees":
        for y in range(4, HEIGHT, 14):
            for x in range((y // 14) % 2 * 7, WIDTH, 14):
                d.polygon([(x, y + 8), (x + 4, y), (x + 8, y + 8)], fill=colour)
    elif kind == "dashes":
        for y in range(0, HEIGHT, 8):
            for x in range((y // 8) % 2 * 6, WIDTH, 12):
                d.line((x, y, x + 6, y), fill=colour, width=2)
    elif kind == "houses":
        for y in range(3, HEIGHT, 14):
            for x in range(3, WIDTH, 14):
                d.rectangle((x, y + 4, x + 7, y + 9), fill=colour)
                d.polygon([(x - 1, y + 4), (x + 3.5, y), (x + 8, y + 4)], fill=colour)
    elif kind == "hatch":
        for c in range(-HEIGHT, WIDTH, 8):
            d.line((c, HEIGHT, c + HEIGHT, 0), fill=colour, width=2)
    elif kind == "light_hatch":
        for c in range(-HEIGHT, WIDTH, 14):
            d.line((c, 0, c + HEIGHT, HEIGHT), fill=colour, width=1)
    elif kind == "cross":
        for c in range(-HEIGHT, WIDTH, 10):
            d.line((c, HEIGHT, c + HEIGHT, 0), fill=colour, width=1)
            d.line((c, 0, c + HEIGHT, HEIGHT), fill=colour, width=1)
    return tile


@lru_cache(maxsize=32)
def pattern(kind: str, colour: str) -> Image.Image:
    return _pattern(kind, colour)


@lru_cache(maxsize=32)
def pattern_coverage(kind: str, colour: str) -> Image.Image:
    """The alpha of :func:`pattern`: 255 on its strokes, 0 elsewhere."""
    return pattern(kind, colour).getchannel("A")


def _poly(points: list[list[float]]) -> list[tuple[float, float]]:
    return [XY(p) for p in points]


def _fill(base: Image.Image, region: Image.Image, colour: str, pat: str | None, pat_colour: str) -> None:
    base.paste(Image.new("RGB", base.size, colour), (0, 0), region)
    if pat:
        tile = pattern(pat, pat_colour)
        alpha = Image.new("L", base.size, 0)
        alpha.paste(tile.getchannel("A"), (0, 0), region)
        base.paste(tile.convert("RGB"), (0, 0), alpha)


def _region(draw_fn: Any) -> Image.Image:
    m = Image.new("L", (WIDTH, HEIGHT), 0)
    draw_fn(ImageDraw.Draw(m))
    return m


@lru_cache(maxsize=4)
def base_map(map_json: str) -> Image.Image:
    mp = json.loads(map_json)
    img = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((FRAME_X, FRAME_Y, X(MAP_W), Y(0)), fill=SEA)
    coast = _poly(mp["coast"])
    land = _region(lambda m: m.polygon(coast, fill=255))
    _fill(img, land, TERRAIN["grass"], None, "")
    beach = _region(lambda m: m.line([*coast, coast[0]], fill=255, width=PX * 2, joint="curve"))
    beach = Image.composite(beach, Image.new("L", beach.size, 0), land)
    # no texture on the beach and hills: the beach is the band along the coast and the hills carry their contour
    # lines, so neither needs colour to be told apart, and textures are what makes this picture slow to encode
    _fill(img, beach, TERRAIN["beach"], None, "")
    hills = Image.new("L", land.size, 0)
    hd = ImageDraw.Draw(hills)
    for h in mp["hills"]:
        a, b = h["levels"][0]
        cx, cy = XY(h["centre"])
        hd.ellipse((cx - a * PX, cy - b * PX, cx + a * PX, cy + b * PX), fill=255)
    hills = Image.composite(hills, Image.new("L", land.size, 0), land)
    _fill(img, hills, TERRAIN["hills"], None, "")
    looks = {"forest": ("trees", "#1F4F1F"), "marsh": ("dashes", "#2F6F5F"), "town": ("houses", "#505050")}
    for area in mp["areas"]:
        poly = _poly(area["poly"])
        reg = _region(lambda m, poly=poly: m.polygon(poly, fill=255))
        pat, pc = looks[area["kind"]]
        _fill(img, reg, TERRAIN[area["kind"]], pat, pc)
    d = ImageDraw.Draw(img)
    # contour lines (their level numbers would be too small to read in a preview; the levels rise inwards)
    for h in mp["hills"]:
        cx, cy = XY(h["centre"])
        for a, b in h["levels"]:
            d.ellipse((cx - a * PX, cy - b * PX, cx + a * PX, cy + b * PX), outline="#8B5A2B", width=1)
    # the river, over land only
    river_layer = _region(lambda m: m.line(_poly(mp["river"]), fill=255, width=3))
    river_layer = Image.composite(river_layer, Image.new("L", land.size, 0), land)
    img.paste(Image.new("RGB", img.size, "#2B7BB9"), (0, 0), river_layer)
    # district borders: nearest seed point, sampled per 2 px, drawn on land
    seeds = [(X(dd["seed"][0]), Y(dd["seed"][1])) for dd in mp["districts"]]
    step = 2
    cols, rows = MAP_W * PX // step, MAP_H * PX // step
    lab = Image.frombytes(
        "L", (cols, rows), b"".join(_nearest_seed_row(seeds, FRAME_Y + r * step, cols, step) for r in range(rows))
    )
    # a sample is on a border when its east or south neighbour has another label; each is a 2x2 px dot
    here = lab.crop((0, 0, cols - 1, rows - 1))
    changes = ImageChops.lighter(
        ImageChops.difference(here, lab.crop((1, 0, cols, rows - 1))),
        ImageChops.difference(here, lab.crop((0, 1, cols - 1, rows))),
    )
    dots = changes.point([0] + [255] * 255).resize(((cols - 1) * step, (rows - 1) * step), Image.Resampling.NEAREST)
    border = Image.new("L", land.size, 0)
    border.paste(dots, (FRAME_X, FRAME_Y))
    border = Image.composite(border, Image.new("L", land.size, 0), land)
    img.paste(Image.new("RGB", img.size, "#404040"), (0, 0), border)
    # red zones: translucent fill, dense hatch, solid outline
    d = ImageDraw.Draw(img, "RGBA")
    for rz in mp["restricted"]:
        poly = _poly(rz["poly"])
        d.polygon(poly, fill=(214, 39, 40, 102))
        reg = _region(lambda m, poly=poly: m.polygon(poly, fill=255))
        tile = pattern("hatch", RED)
        alpha = Image.new("L", img.size, 0)
        alpha.paste(tile.getchannel("A"), (0, 0), reg)
        img.paste(tile.convert("RGB"), (0, 0), alpha)
        d = ImageDraw.Draw(img, "RGBA")
        d.line([*poly, poly[0]], fill=RED, width=3)
    d.line([*coast, coast[0]], fill="#2A5D7A", width=2)
    # grid and frame labels
    # a line every 2 miles (the labelled ones) and a tick every mile on the frame: a full 1-mile grid over the
    # textured island was a third of the picture's bytes and encoding time
    for x in range(0, MAP_W + 1, 2):
        d.line((X(x), Y(0), X(x), Y(MAP_H)), fill=(0, 0, 0, 60), width=1)
    for y in range(0, MAP_H + 1, 2):
        d.line((X(0), Y(y), X(MAP_W), Y(y)), fill=(0, 0, 0, 60), width=1)
    for x in range(1, MAP_W, 2):
        d.line((X(x), Y(MAP_H), X(x), Y(MAP_H) + 6), fill=INK, width=1)
        d.line((X(x), Y(0) - 6, X(x), Y(0)), fill=INK, width=1)
    for y in range(1, MAP_H, 2):
        d.line((X(0), Y(y), X(0) + 6, Y(y)), fill=INK, width=1)
        d.line((X(MAP_W) - 6, Y(y), X(MAP_W), Y(y)), fill=INK, width=1)
    d.rectangle((FRAME_X, FRAME_Y, X(MAP_W), Y(0)), outline=INK, width=2)
    for x in range(0, MAP_W + 1, 2):
        text(d, (X(x), FRAME_Y / 2), str(x), 16, bold=True, anchor="mm")
    for y in range(0, MAP_H + 1, 2):
        text(d, (FRAME_X / 2, Y(y)), str(y), 16, bold=True, anchor="mm")
    _static_labels(ImageDraw.Draw(img), mp)
    return img


@lru_cache(maxsize=4)
def palette(map_json: str) -> Image.Image:
    """The fixed palette for pictures of this map: the flat colours and text blends the renderer paints, plus an
    adaptive set fitted once to the island art under each overlay it can carry (the grey wash, the pale veil, the
    search tints, Silver's darkening). Mapping onto it costs a few milliseconds where an adaptive quantise of every picture
    costs several times that, and it depends on the map alone."""
    small = base_map(map_json).resize((WIDTH // 2, HEIGHT // 2), Image.Resampling.NEAREST)
    washed = Image.blend(small, Image.new("RGB", small.size, WASH), WASH_ALPHA / 255)
    veiled = Image.blend(small, Image.new("RGB", small.size, VEIL), VEIL_ALPHA / 255)
    sheets = [small, washed, veiled]
    for colour, alpha in (("#202020", 110), ("#0072B2", 70), (OWN_WASH, WASH_ALPHA)):
        sheets.append(Image.blend(small, Image.new("RGB", small.size, colour), alpha / 255))
    for colour in COLOURS.values():
        for under in (small, washed, veiled):
            sheets.append(Image.blend(under, Image.new("RGB", small.size, colour), SEARCH_ALPHA / 255))
    sample = Image.new("RGB", (small.width, small.height * len(sheets)))
    for k, sheet in enumerate(sheets):
        sample.paste(sheet, (0, k * small.height))
    fitted = sample.quantize(colors=160, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    art = fitted.getpalette()[: 3 * 160]  # type: ignore[index]
    paper_like = (PAPER, "#FFFFFF", "#EFE6CF", SEA, *TERRAIN.values())
    solid = [
        INK, PAPER, "#FFFFFF", "#000000", RED, "#8B0000", common.HIGHLIGHT, common.MUTED, MUTED_LINE, "#F0E442",
        "#E88A8A", "#E8A0A0", "#555555", "#606060", "#C8C8C8", "#7A3E00", "#2A5D7A", SEA, *TERRAIN.values(),
        *COLOURS.values(),
    ]  # fmt: skip
    blends = [(INK, bg) for bg in paper_like] + [("#8B0000", bg) for bg in ("#FFFFFF", "#EFE6CF")]
    blends += [(common.MUTED, PAPER), (RED, "#FFFFFF"), ("#0072B2", "#FFFFFF"), ("#FFFFFF", INK)]
    blends += [(INK, c) for c in COLOURS.values()] + [(c, PAPER) for c in COLOURS.values()]
    fixed = common.fixed_palette(solid, blends).getpalette()[: 3 * 256]  # type: ignore[index]
    colours = [tuple(fixed[i : i + 3]) for i in range(0, len(fixed), 3)]
    colours = list(dict.fromkeys(colours))  # fixed_palette pads with repeats of the first entry
    colours += [tuple(art[i : i + 3]) for i in range(0, len(art), 3)]
    flat = [v for c in list(dict.fromkeys(colours))[:256] for v in c]
    flat += flat[:3] * (256 - len(flat) // 3)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


@lru_cache(maxsize=4)
def _palette(map_json: str) -> common.Palette:
    return common.Palette(palette(map_json))


def _nearest_seed(seeds: list[tuple[float, float]], px: float, py: float) -> int:
    """The index of the seed nearest ``(px, py)``; the first one wins a tie."""
    best, bd = 0, None
    for idx, (sx, sy) in enumerate(seeds):
        dd = (px - sx) ** 2 + (py - sy) ** 2
        if bd is None or dd < bd:
            best, bd = idx, dd
    return best


def _nearest_seed_row(seeds: list[tuple[float, float]], py: float, cols: int, step: int) -> bytes:
    """The nearest-seed label of every sample on one row. Each seed's cell is convex, so along a row it is one
    run: where both ends of a stretch agree the whole stretch does, and only the changes need searching."""
    row = bytearray(cols)

    def label(c: int) -> int:
        return _nearest_seed(seeds, FRAME_X + c * step, py)

    stack = [(0, cols - 1, label(0), label(cols - 1))]
    while stack:
        c0, c1, l0, l1 = stack.pop()
        if l0 == l1:
            row[c0 : c1 + 1] = bytes((l0,)) * (c1 - c0 + 1)
        elif c1 - c0 <= 1:
            row[c0], row[c1] = l0, l1
        else:
            m = (c0 + c1) // 2
            lm = label(m)
            stack += [(c0, m, l0, lm), (m, c1, lm, l1)]
    return bytes(row)


def halo_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    label: str,
    size: int = 16,
    fill: str = INK,
    bold: bool = True,
    private: bool = False,
) -> None:
    """A map label on a white halo, so it reads over any terrain. A seat's own deductions (``private``) are never
    remembered."""
    text(d, xy, label, size, fill=fill, bold=bold, anchor="mm", stroke=3, stroke_fill="#FFFFFF", private=private)


@lru_cache(maxsize=16)
def _dashed_ring(fx: float, fy: float) -> Image.Image:
    """The dashed circle round a free starting spot, centred ``(fx, fy)`` past the sprite's middle pixel and
    drawn once: arcs are not anti-aliased, so pasting it through its own alpha gives the same pixels."""
    r = 2 * PX
    half = r + 3
    ring = Image.new("RGBA", (2 * half + 1, 2 * half + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(ring)
    cx, cy = half + fx, half + fy
    for a in range(0, 360, 12):
        d.arc((cx - r, cy - r, cx + r, cy + r), a, a + 5, fill="#555555", width=2)
    return ring


def _static_labels(d: ImageDraw.ImageDraw, mp: dict[str, Any]) -> None:
    """The map's own names and marks, drawn once into the island art (under every overlay; their halos keep them
    readable through the wash): districts, red zones, towers, landmarks and the starting spots' crosses."""
    for dd in mp["districts"]:
        halo_text(d, XY(dd["label"]), dd["id"], 18)
    for rz in mp["restricted"]:
        xs = [p[0] for p in rz["poly"]]
        ys = [p[1] for p in rz["poly"]]
        halo_text(d, (X(sum(xs) / len(xs)), Y(min(ys)) + 10), rz["id"], 16, fill=RED)
    for p in mp["spots"].values():
        cx, cy = XY(p)
        d.line((cx - 5, cy - 5, cx + 5, cy + 5), fill=INK, width=2)
        d.line((cx - 5, cy + 5, cx + 5, cy - 5), fill=INK, width=2)
    for t in mp["towers"]:
        cx, cy = XY(t["pos"])
        d.rectangle((cx - 6, cy - 6, cx + 6, cy + 6), fill=INK)
        halo_text(d, (cx + 20, cy - 13), t["id"], 16)
    for lm in mp["landmarks"]:
        cx, cy = XY(lm["pos"])
        d.polygon([(cx, cy - 7), (cx + 7, cy), (cx, cy + 7), (cx - 7, cy)], fill="#F0E442", outline=INK)
        halo_text(d, (cx - 17, cy + 12), lm["id"], 16)


@lru_cache(maxsize=4)
def game_base(map_json: str, used: tuple[str, ...]) -> Image.Image:
    """The island art of one game: the starting circles of the characters in play drawn solid in their colours,
    the others dashed."""
    img = base_map(map_json).copy()
    d = ImageDraw.Draw(img)
    for c, p in json.loads(map_json)["spots"].items():
        cx, cy = XY(p)
        r = 2 * PX
        if c in used:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOURS[c], width=3)
        else:
            ring = _dashed_ring(cx - int(cx), cy - int(cy))
            half = (ring.width - 1) // 2
            img.paste(ring, (int(cx) - half, int(cy) - half), ring)
    return img


def _tower(d: ImageDraw.ImageDraw, v: dict[str, Any]) -> None:
    """Long John Silver's tower: a larger square with a white "L"."""
    for t in v["map"]["towers"]:
        if t["id"] == v["silver"]["tower"]:
            cx, cy = XY(t["pos"])
            d.rectangle((cx - 11, cy - 11, cx + 11, cy + 11), fill=INK, outline="#FFFFFF", width=3)
            text(d, (cx, cy), "L", 16, bold=True, fill="#FFFFFF", anchor="mm")


def _overlay_mask(pic: common.Picture, mask: int, colour: str, alpha: int, pat: str | None = None) -> None:
    got = cells(mask)
    if got is None:
        return
    layer, (ox, oy) = got
    box = (ox, oy, ox + layer.size[0], oy + layer.size[1])
    if alpha:
        pic.shade(colour, alpha, box, layer)
    if pat:
        # a pattern tile is one opaque colour on transparency, so its coverage inside the region is all we need
        ink = colour if pat != "light_hatch" else "#303030"
        pic.tint(ink, box, ImageChops.multiply(pattern_coverage(pat, ink).crop(box), layer))


@lru_cache(maxsize=2)
def washed_map(map_json: str, used: tuple[str, ...]) -> Image.Image:
    """The whole island under the grey wash, made exactly as :func:`_overlay_mask` would tint it."""
    img = game_base(map_json, used).copy()
    img.paste(WASH, None, Image.new("L", img.size, WASH_ALPHA))
    return img


@lru_cache(maxsize=2)
def _washed(map_json: str, used: tuple[str, ...]) -> Image.Image:
    """:func:`washed_map` mapped onto the palette."""
    return _palette(map_json).map(washed_map(map_json, used))


@lru_cache(maxsize=4)
def _island(map_json: str, used: tuple[str, ...]) -> Image.Image:
    """:func:`game_base` mapped onto the palette: where every picture of the game starts."""
    return _palette(map_json).map(game_base(map_json, used))


def _wash(pic: common.Picture, map_json: str, used: tuple[str, ...], mask: int) -> None:
    """The grey wash over the untouched island: copying the pre-washed art through the cells (all or nothing) is
    the same pixels as tinting them, at a fraction of the cost on the large areas a late game rules out."""
    got = cells(mask)
    if got is None:
        return
    layer, (ox, oy) = got
    box = (ox, oy, ox + layer.size[0], oy + layer.size[1])
    pic.paste(_washed(map_json, used).crop(box), box[:2], layer)


# dark enough to read as "ruled out" at half size, light enough to keep the terrain under it legible
WASH, WASH_ALPHA = "#4A4A4A", 130
VEIL, VEIL_ALPHA = "#FFFFFF", 120
OWN_WASH = "#1C2E6E"
SEARCH_ALPHA = 80
_NOT_LAST_COL = sum(1 << (j * W_NODES + W_NODES - 1) for j in range(H_NODES))


@lru_cache(maxsize=64)
def _hint_dashes(
    true_mask: str, legal_mask: str
) -> tuple[tuple[tuple[float, float, float, float], ...], tuple[float, float] | None]:
    """One hint's border: a dash between 4-neighbour legal nodes on either side of its true region (every other
    node, so the line is dashed), and where its day tag goes. A hint never changes, so this is worked out once."""
    mask, legal = mask_bits(true_mask), mask_bits(legal_mask)
    half = PX / 4
    east = (mask ^ (mask >> 1)) & legal & (legal >> 1) & ~_NOT_LAST_COL
    north = (mask ^ (mask >> W_NODES)) & legal & (legal >> W_NODES)
    dashes: list[tuple[float, float, float, float]] = []
    points: list[tuple[float, float]] = []
    for k in _bits(east):
        i, j = k % W_NODES, k // W_NODES
        x, y = X((i + 0.5) / 2), Y(j / 2)
        points.append((x, y))
        if j % 2 == 0:
            dashes.append((x, y - half, x, y + half))
    for k in _bits(north):
        i, j = k % W_NODES, k // W_NODES
        x, y = X(i / 2), Y((j + 0.5) / 2)
        points.append((x, y))
        if i % 2 == 0:
            dashes.append((x - half, y, x + half, y))
    return tuple(dashes), (sorted(points)[len(points) // 2] if points else None)


def _hint_borders(d: ImageDraw.ImageDraw, v: dict[str, Any]) -> None:
    """Every hint's border as a dashed black line (its boxed day tag is placed with the other tags: ``_tags``)."""
    for h in v["hints"]:
        dashes, _tag = _hint_dashes(h["true_mask"], v["legal_mask"])
        for dash in dashes:
            d.line(dash, fill=INK, width=2)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _letter(v: dict[str, Any], m: str) -> str:
    return v["miniatures"][m]["letter"]


def _layers(v: dict[str, Any], map_json: str, seat: int | None, priv: dict[str, Any] | None) -> common.Picture:
    """The island with what the game has found out on it: the wash, searches, hints, labels and fog, and ``seat``'s
    private layers when ``priv`` is given."""
    used = tuple(v["miniatures"])
    img = common.Picture(_island(map_json, used), _palette(map_json))
    legal = mask_bits(v["legal_mask"])
    # public certainties: nodes nobody can still hold the treasure on are washed grey
    cands = mask_bits(v["public_candidates"])
    _wash(img, map_json, used, legal & ~cands)
    if priv and priv.get("certain_excluded") and seat != v["silver_seat"]:
        # what only this pirate has ruled out: navy, unlike the public grey wash (a hatch made the picture too big)
        ex = mask_bits(priv["certain_excluded"]) & legal & cands
        _overlay_mask(img, ex, OWN_WASH, WASH_ALPHA)
    # one tint per searcher over all its searches: one paste each instead of one per search
    searched: dict[str, int] = {}
    for sr in v["searches"]:
        searched[sr["by"]] = searched.get(sr["by"], 0) | mask_bits(sr["covered"])
    for who, covered in searched.items():
        _overlay_mask(img, covered, COLOURS[who], SEARCH_ALPHA)
    # the false side of the latest hint (and, for a pirate, of every hint since the first) is veiled pale: a hint
    # may be a bluff, so unlike the dark wash this is "unlikely", not "ruled out". A veil, not a hatch: it reads at
    # half size and keeps the picture small. One pass over the union draws what one pass per hint would.
    veiled = legal & ~mask_bits(v["hints"][-1]["true_mask"]) if v["hints"] else 0
    if priv and seat != v["silver_seat"]:
        for h in v["hints"][1:]:
            veiled |= legal & ~mask_bits(h["true_mask"])
    if veiled:
        _overlay_mask(img, veiled, VEIL, VEIL_ALPHA)
    if priv and seat == v["silver_seat"] and v["step"] == "bury" and priv.get("reach"):
        _overlay_mask(img, legal & ~mask_bits(priv["reach"]), "#202020", 110)
    if priv and seat == v["silver_seat"] and priv.get("choice_region"):
        # the vaguest statement still open to him, as the pirates would see it: its true side tinted blue
        _overlay_mask(img, mask_bits(priv["choice_region"]), "#0072B2", 70)
    d = img.draw
    _hint_borders(d, v)
    for sr in v["searches"]:
        cx, cy = XY(sr["centre"])
        r = sr["radius"] * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOURS[sr["by"]], width=3)
    _tower(d, v)
    if priv and seat != v["silver_seat"]:
        _pirate_layers(img, d, v, priv)
    for f in v["fog"]:
        cx, cy = XY(f["centre"])
        r = 1.5 * PX
        img.over(
            (cx - r, cy - r, cx + r, cy + r),
            lambda fd, ox, oy, cx=cx, cy=cy, r=r: fd.ellipse(
                (cx - r - ox, cy - r - oy, cx + r - ox, cy + r - oy), fill=(200, 200, 200, 190), outline="#606060",
                width=2,
            ),
        )  # fmt: skip
    return img


#: the public layers of the last few pictures: they change only when a search, a hint or fog lands, while the
#: miniatures move every action
_PUBLIC_LAYERS = common.Recent(4)


def _public_layers(v: dict[str, Any], map_json: str) -> Image.Image:
    key = (
        map_json,
        v["legal_mask"],
        v["public_candidates"],
        tuple((s["day"], s["by"], s["covered"], tuple(s["centre"]), s["radius"]) for s in v["searches"]),
        tuple((h["day"], h["true_mask"]) for h in v["hints"]),
        tuple((tuple(f["centre"]), f["expires"]) for f in v["fog"]),
        v["silver"]["tower"],
        tuple((m, mi["letter"]) for m, mi in v["miniatures"].items()),
    )
    img = _PUBLIC_LAYERS.get(key)
    if img is None:
        img = _PUBLIC_LAYERS[key] = _layers(v, map_json, None, None).img
    return img


#: a seat's private layers of the last few pictures: they change when a search, a hint, fog or one of its own
#: deductions lands, not when a figure moves. Keyed by everything ``_layers`` reads, so a hit is the same pixels
_PRIVATE_LAYERS = common.Recent(6)


def _private_layers(v: dict[str, Any], map_json: str, seat: int | None, priv: dict[str, Any]) -> Image.Image:
    silver = seat == v["silver_seat"]
    key = pickle.dumps(
        (
            map_json,
            silver,
            tuple(v["miniatures"]),
            v["legal_mask"],
            v["public_candidates"],
            [(s["by"], s["covered"], s["centre"], s["radius"]) for s in v["searches"]],
            [h["true_mask"] for h in v["hints"]],
            [f["centre"] for f in v["fog"]],
            v["silver"]["tower"],
            v["step"],
            priv.get("certain_excluded"),
            priv.get("reach") if silver and v["step"] == "bury" else None,
            priv.get("choice_region"),
            None if silver else (priv["districts"], priv["compass"], priv["info_tokens"]),
        ),
        pickle.HIGHEST_PROTOCOL,
    )
    img = _PRIVATE_LAYERS.get(key)
    if img is None:
        img = _PRIVATE_LAYERS[key] = _layers(v, map_json, seat, priv).img
    return img


#: the maps met lately with their canonical JSON (what the cached art is keyed by): a view carries its whole map,
#: and writing it out again for every picture cost more than drawing its labels
_MAP_JSON: list[tuple[dict[str, Any], str]] = []


def map_json(mp: dict[str, Any]) -> str:
    """``mp`` as canonical JSON, remembered: comparing a view's map with one met before is ~25× cheaper than
    writing it out again."""
    for known, text_ in _MAP_JSON:
        if known == mp:
            return text_
    text_ = json.dumps(mp, sort_keys=True)
    _MAP_JSON.insert(0, (mp, text_))
    del _MAP_JSON[4:]
    return text_


def draw_map(v: dict[str, Any], seat: int | None) -> common.Picture:
    """The whole picture's map part (on a canvas-sized image): the layers, then the figures and their trails.
    Both a public and a private picture start from remembered layers (what changes only when a search, a hint, fog
    or a deduction lands); where the acting figure can go is drawn on them for each private picture."""
    mj = map_json(v["map"])
    priv = v.get("private") if seat is not None else None
    if priv:
        img = common.Picture(_private_layers(v, mj, seat, priv), _palette(mj))
        _reach(img.draw, v, seat, priv)
    else:
        img = common.Picture(_public_layers(v, mj), _palette(mj))
    d = img.draw
    last = v.get("last") or {}
    for m, mi in v["miniatures"].items():
        for a, b, kind, _day in mi["trail"]:
            if kind != "gallop":
                d.line((*XY(a), *XY(b)), fill=COLOURS[m], width=3)
    for fig in v["silver"]["figures"]:
        for a, b, _k, _r in fig["trail"]:
            d.line((*XY(a), *XY(b)), fill=INK, width=3)
    spots: dict[tuple[float, float], int] = {}
    for m, mi in v["miniatures"].items():
        key = tuple(mi["pos"])
        n = spots.get(key, 0)
        spots[key] = n + 1
        cx, cy = XY(mi["pos"])
        cx += 10 * n
        if last.get("mini") == m:
            d.ellipse((cx - 19, cy - 19, cx + 19, cy + 19), outline=common.HIGHLIGHT, width=5)
        d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=COLOURS[m], outline=INK, width=3)
        text(d, (cx, cy), mi["letter"], 17, bold=True, fill="#FFFFFF", anchor="mm", stroke=1, stroke_fill=INK)
    for fig in v["silver"]["figures"]:
        cx, cy = XY(fig["pos"])
        d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=INK, outline="#FFFFFF", width=2)
        text(d, (cx, cy), fig["id"], 17, bold=True, fill="#FFFFFF", anchor="mm")
    treasure = None
    if priv and seat == v["silver_seat"]:
        treasure = priv.get("treasure")
    if v.get("reveal"):
        treasure = v["reveal"]["treasure"]
    if treasure:
        cx, cy = XY(treasure)
        for w, col in ((9, "#FFFFFF"), (5, INK)):
            d.line((cx - 13, cy - 13, cx + 13, cy + 13), fill=col, width=w)
            d.line((cx - 13, cy + 13, cx + 13, cy - 13), fill=col, width=w)
    _draw_tags(d, v, priv if priv and seat != v["silver_seat"] else None, figure_boxes(v), mj)
    return img


# -- movable tags ---------------------------------------------------------------------------------------------
#: where a tag may go from its anchor, in order: on it, then just below, above, right, left, and further out
_OFFSETS = ((0, 0), (0, 21), (0, -21), (30, 0), (-30, 0), (30, 21), (-30, 21), (30, -21), (-30, -21), (0, 42),
            (0, -42), (60, 0), (-60, 0), (60, 21), (-60, 21), (60, -21), (-60, -21), (30, 42), (-30, 42), (30, -42),
            (-30, -42), (0, 63), (0, -63), (60, 42), (-60, 42), (60, -42), (-60, -42), (90, 0), (-90, 0))  # fmt: skip
Box = tuple[float, float, float, float]


def figure_boxes(v: dict[str, Any]) -> list[Box]:
    """The boxes of the miniatures (side by side where they share a spot) and Silver's figures as ``draw_map``
    draws them: what a tag must not cover."""
    spots: dict[tuple[float, float], int] = {}
    boxes: list[Box] = []
    for mi in v["miniatures"].values():
        key = tuple(mi["pos"])
        n = spots.get(key, 0)
        spots[key] = n + 1
        cx, cy = XY(mi["pos"])
        boxes.append(_box(cx + 10 * n, cy, 38, 38))
    boxes += [_box(*XY(fig["pos"]), 28, 28) for fig in v["silver"]["figures"]]
    return boxes


def _box(cx: float, cy: float, w: float, h: float) -> Box:
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _inside(b: Box) -> bool:
    """Whether a tag's box lies on the map, clear of the frame's labels and of the panel."""
    return b[0] >= FRAME_X and b[1] >= FRAME_Y and b[2] <= MAP_R and b[3] <= Y(0)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@lru_cache(maxsize=4)
def _static_boxes(map_json: str) -> tuple[Box, ...]:
    """The boxes of the map's own names and marks (``_static_labels``), which no tag may cover."""
    mp = json.loads(map_json)
    boxes: list[Box] = []
    for dd in mp["districts"]:
        boxes.append(_box(*XY(dd["label"]), common.text_width(dd["id"], 18, True) + 6, 22))
    for t in mp["towers"]:
        cx, cy = XY(t["pos"])
        boxes += [_box(cx, cy, 24, 24), _box(cx + 20, cy - 13, common.text_width(t["id"], 16, True) + 6, 20)]
    for lm in mp["landmarks"]:
        cx, cy = XY(lm["pos"])
        boxes += [_box(cx, cy, 16, 16), _box(cx - 17, cy + 12, common.text_width(lm["id"], 16, True) + 6, 20)]
    return tuple(boxes)


#: a movable tag: anchor x and y, text, boxed (a hint's day) or on a halo, its colour, and whether it is private
Tag = tuple[float, float, str, bool, str, bool]


def _tag_list(v: dict[str, Any], pirate: dict[str, Any] | None) -> list[Tag]:
    """Every movable tag of the picture, with ``pirate`` the private view of a pirate seat (its deductions). The
    public ones come from the public view alone, in a fixed order, so identical views place them identically."""
    tags: list[Tag] = []
    for h in v["hints"]:
        _dashes, tag = _hint_dashes(h["true_mask"], v["legal_mask"])
        if tag is not None:
            tags.append((*tag, f"H{h['day']}", True, INK, False))
    for sr in v["searches"]:
        tags.append((*XY(sr["centre"]), f"{_letter(v, sr['by'])}{sr['day']}", False, INK, False))
    for f in v["fog"]:
        tags.append((*XY(f["centre"]), f"FOG →{f['expires']}", False, INK, False))
    for m, mi in v["miniatures"].items():
        for _a, b, kind, _day in mi["trail"]:
            if kind == "gallop":
                tags.append((XY(b)[0] + 14, XY(b)[1] + 14, "G", False, COLOURS[m], False))
    if pirate:
        labels = {dd["id"]: dd for dd in v["map"]["districts"]}
        for ds in pirate["districts"].values():
            for did in ds:
                cx, cy = XY(labels[did]["label"])
                tags.append((cx, cy + 30, f"not {did}", False, INK, True))
        for c in pirate["compass"]:
            cx, cy = XY(c["pos"])
            tags.append((cx, cy - 26, f"{c['card']}@{_letter(v, c['mini'])}{c['day']}", False, INK, True))
        for it in pirate["info_tokens"]:
            cx, cy = XY(it["pos"])
            tags.append((cx, cy + 26, f"chest:{it['token']}", False, INK, True))
    return tags


#: how far from its anchor a tag's centre may go (``_OFFSETS``)
_REACH_X = max(abs(dx) for dx, _ in _OFFSETS)
_REACH_Y = max(abs(dy) for _, dy in _OFFSETS)


def _place_tags(
    v: dict[str, Any], pirate: dict[str, Any] | None, figures: list[Box], mj: str | None = None
) -> list[tuple[Box, Tag]]:
    """Where every movable tag goes: the first spot around its anchor, in a fixed order, that covers no map label,
    no figure and no tag placed before it (issue 28: two searches side by side, a compass tag on a district's name);
    a tag with no free spot near it stays on its anchor. Each tag is checked against the boxes within its reach
    only: every spot it may take lies inside that reach, so the others could never be in its way."""
    taken = [*_static_boxes(mj or map_json(v["map"])), *figures]
    if pirate:
        # the crosses over the districts a pirate ruled out (``_pirate_layers``)
        labels = {dd["id"]: dd["label"] for dd in v["map"]["districts"]}
        taken += [_box(*XY(labels[did]), 48, 48) for ds in pirate["districts"].values() for did in ds]
    placed: list[tuple[Box, Tag]] = []
    for tag in _tag_list(v, pirate):
        x, y, label = tag[0], tag[1], tag[2]
        w, h = common.text_width(label, 16, True) + 10, 22
        r0, r1, r2, r3 = _box(x, y, 2 * _REACH_X + w, 2 * _REACH_Y + h)
        near = [t for t in taken if r0 < t[2] and t[0] < r2 and r1 < t[3] and t[1] < r3]  # _overlaps, inlined
        spot = _box(x, y, w, h)
        for dx, dy in _OFFSETS:
            b = _box(x + dx, y + dy, w, h)
            if _inside(b) and not any(b[0] < t[2] and t[0] < b[2] and b[1] < t[3] and t[1] < b[3] for t in near):
                spot = b
                break
        taken.append(spot)
        placed.append((spot, tag))
    return placed


def _draw_tags(
    d: ImageDraw.ImageDraw, v: dict[str, Any], pirate: dict[str, Any] | None, figures: list[Box], mj: str
) -> None:
    for spot, (_x, _y, label, boxed, fill, private) in _place_tags(v, pirate, figures, mj):
        cx, cy = (spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2
        if boxed:
            w = spot[2] - spot[0]
            d.rectangle((cx - w / 2 + 1, cy - 11, cx + w / 2 - 1, cy + 11), fill="#FFFFFF", outline=INK, width=1)
            text(d, (cx, cy), label, 16, bold=True, anchor="mm")
        else:
            halo_text(d, (cx, cy), label, 16, fill=fill, private=private)


@lru_cache(maxsize=16)
def _sectors(
    compass: tuple[tuple[tuple[float, float], tuple[str, ...]], ...],
) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image] | None:
    """The skull sectors of a pirate's compass readings (position, skull directions), clipped to the map box: where
    they go and the masks of their fill and of their outlines (a later sector covers an earlier one). They change
    only with a new reading, and drawing them on a canvas-sized layer was a third of a pirate's picture."""
    sectors = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    sd = ImageDraw.Draw(sectors)
    angles = {"E": 0, "NE": 45, "N": 90, "NW": 135, "W": 180, "SW": 225, "S": 270, "SE": 315}
    for pos, skulls in compass:
        cx, cy = XY(pos)
        for sk in skulls:
            a0 = math.radians(angles[sk] - 22.5)
            a1 = math.radians(angles[sk] + 22.5)
            far = 60 * PX
            poly = [
                (cx, cy),
                (cx + far * math.cos(a0), cy - far * math.sin(a0)),
                (cx + far * math.cos(a1), cy - far * math.sin(a1)),
            ]
            sd.polygon(poly, fill=(60, 60, 60, 60), outline=(30, 30, 30, 200))
    clip = Image.new("L", (WIDTH, HEIGHT), 0)
    ImageDraw.Draw(clip).rectangle((FRAME_X, FRAME_Y, X(MAP_W), Y(0)), fill=255)
    alpha = Image.composite(sectors.getchannel("A"), Image.new("L", (WIDTH, HEIGHT), 0), clip)
    box = alpha.getbbox()
    if box is None:
        return None
    alpha = alpha.crop(box)
    fill = alpha.point([255 if a == 60 else 0 for a in range(256)])
    outline = alpha.point([255 if a == 200 else 0 for a in range(256)])
    return box, fill, outline


def _pirate_layers(img: common.Picture, d: ImageDraw.ImageDraw, v: dict[str, Any], priv: dict[str, Any]) -> None:
    mp = v["map"]
    labels = {dd["id"]: dd for dd in mp["districts"]}
    for _m, ds in priv["districts"].items():
        for did in ds:
            cx, cy = XY(labels[did]["label"])
            d.line((cx - 22, cy - 22, cx + 22, cy + 22), fill="#000000", width=5)
            d.line((cx - 22, cy + 22, cx + 22, cy - 22), fill="#000000", width=5)
    # skull sectors: a translucent fill and a darker outline, clipped to the map box
    got = _sectors(tuple((tuple(c["pos"]), tuple(c["skulls"])) for c in priv["compass"]))
    if got is not None:
        box, fill, outline = got
        img.shade((60, 60, 60), 60, box, fill)
        img.shade((30, 30, 30), 200, box, outline)
    for it in priv["info_tokens"]:
        cx, cy = XY(it["pos"])
        if it["token"] == "west":
            shade = (cx + 1, FRAME_Y, X(MAP_W), Y(0))
        elif it["token"] == "east":
            shade = (FRAME_X, FRAME_Y, cx - 1, Y(0))
        else:
            shade = None
        if shade is not None:
            img.over(
                shade, lambda sd, ox, oy, b=shade: sd.rectangle((b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy),
                                                                  fill=(60, 60, 60, 55))
            )  # fmt: skip


def _reach(d: ImageDraw.ImageDraw, v: dict[str, Any], seat: int | None, priv: dict[str, Any]) -> None:
    """Where the acting figure can go this action, on the map itself: a dot on every node one move reaches, and the
    rings of its moves (solid: walk and ride; dashed brown: the specials)."""
    rings: list[tuple[float, bool]]
    if seat == v["silver_seat"]:
        figs = v["silver"]["figures"]
        idx = v["silver"].get("fig")
        if v["step"] != "escape" or idx is None or not priv.get("reach") or idx >= len(figs):
            return
        reach, pos, col, rings = priv["reach"], figs[idx]["pos"], INK, [(4, False)]
    else:
        moves = priv.get("reach") or {}
        if not moves or not v["active"] or v["miniatures"][v["active"]]["owner"] != seat:
            return
        reach = moves.get("ride") or moves.get("walk") or ""
        pos, col = v["miniatures"][v["active"]]["pos"], COLOURS[v["active"]]
        rings = [(3, False), (6, False), (2.5 if v["active"] == "jim" else 2, True)]
        if v["active"] == "olivier":
            rings.append((12, True))
        if "stride" in moves:
            rings.append((7, True))
    cx, cy = XY(pos)
    for r_m, dash in rings:
        r = r_m * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline="#7A3E00" if dash else INK, width=2)
    if reach:
        for k in _bits(mask_bits(reach)):
            x, y = XY(((k % W_NODES) / 2, (k // W_NODES) / 2))
            d.rectangle((x - 2, y - 2, x + 2, y + 2), fill=INK if col != INK else "#FFFFFF")


# -- the panel: calendar and status ---------------------------------------------------------------------------
MUTED_LINE = "#A89F8F"
BOX_W, BOX_H, BOX_GAP = 47, 54, 3


#: calendars drawn lately (a calendar changes once a day or when a token or a miniature lands on it)
_CALENDARS = common.Recent(8)


def calendar(d: ImageDraw.ImageDraw, v: dict[str, Any], top: int, seat: int | None = None) -> int:
    """One box per day, four to a row: the day, its event, its token and the miniature that acted (the days'
    stars are in the caption). Today's box is drawn thick. Returns the y below. On a picture, a calendar drawn
    before is pasted again (see :meth:`common.Picture.keep`)."""
    known: dict[str, str] = {}
    priv = v.get("private") if seat is not None else None
    if priv:
        if seat == v["silver_seat"]:
            known = dict(priv.get("hint_tokens") or {})
        else:
            known = {str(x["target_day"]): x["token"] for x in priv.get("verified", [])}
    per_row = (PANEL_R - PANEL_X + BOX_GAP) // (BOX_W + BOX_GAP)
    rows = -(-len(v["calendar"]) // per_row)
    bottom = top + rows * (BOX_H + BOX_GAP)
    picture = d.picture if isinstance(d, common.PaletteDraw) else None
    if picture is None:
        _calendar(d, v, top, known, per_row)
    else:
        letters = {m: mi["letter"] for m, mi in v["miniatures"].items()}
        key = pickle.dumps((v["calendar"], v["day"], v["phase"] == "over", known, letters, top), pickle.HIGHEST_PROTOCOL)
        picture.keep(_CALENDARS, key, (PANEL_X, top, PANEL_R + 1, bottom), lambda: _calendar(d, v, top, known, per_row))
    return bottom


def _calendar(d: ImageDraw.ImageDraw, v: dict[str, Any], top: int, known: dict[str, str], per_row: int) -> None:
    today = v["day"]
    over = v["phase"] == "over"
    for k, c in enumerate(v["calendar"]):
        x = PANEL_X + (k % per_row) * (BOX_W + BOX_GAP)
        y = top + (k // per_row) * (BOX_H + BOX_GAP)
        now = c["day"] == today and not over
        fill = "#FFFFFF" if c["day"] > today else "#EFE6CF"
        d.rectangle((x, y, x + BOX_W, y + BOX_H), fill="#FFF1B8" if now else fill, outline=INK, width=4 if now else 1)
        # top: the day and the miniature that acted; bottom: the event and the hint's token
        text(d, (x + 3, y + 2), str(c["day"]), 17, bold=True)
        if c["active"]:
            d.ellipse((x + BOX_W - 23, y + 3, x + BOX_W - 3, y + 23), fill=COLOURS[c["active"]], outline=INK)
            text(d, (x + BOX_W - 13, y + 13), v["miniatures"][c["active"]]["letter"], 16, bold=True, anchor="mm")
        if c["event"]:
            text(d, (x + 3, y + BOX_H - 4), EVENT_TAG[c["event"]], 16, bold=True, fill="#8B0000", anchor="ld")
        tok = c["token"]
        tx, ty = x + BOX_W - 11, y + BOX_H - 13
        if tok == "hidden" and str(c["day"]) in known:
            # a token this seat has seen (its own hints for Silver, a Verification for a pirate)
            d.rectangle((tx - 8, ty - 9, tx + 8, ty + 9), fill="#FFFFFF", outline=INK)
            text(d, (tx, ty), known[str(c["day"])][0].upper(), 16, bold=True, fill="#0072B2", anchor="mm")
        elif tok == "hidden":
            d.ellipse((tx - 6, ty - 6, tx + 6, ty + 6), fill=INK)
        elif tok:
            text(d, (tx, ty), tok[0].upper(), 16, bold=True, fill="#8B0000", anchor="mm")


def _phase_line(v: dict[str, Any]) -> str:
    ph = v["phase"]
    if ph == "over":
        o = v["outcome"] or {}
        return f"Game over: {o.get('reason', '')}"
    if ph == "escape":
        return "Long John Silver runs: two 4-mile moves per figure"
    if v["active"] and ph in ("turn", "chest", "compass", "prison", "hint"):
        mi = v["miniatures"][v["active"]]
        # the count on a line of its own: wrapped inside the name's line it read "… (O) · 1 / action"
        left = f"\n{v['left']} action{'s' if v['left'] != 1 else ''} left" if ph == "turn" else ""
        head = {
            "turn": "▶",
            "chest": "▶ Silver answers",
            "compass": "▶ Silver's compass for",
            "prison": "▶ Prison:",
            "hint": "▶ Silver's hint for",
        }[ph]
        return f"{head} {mi['name']} ({mi['letter']}){left}"
    return {
        "bury": "▶ Long John Silver buries the treasure",
        "hint": "▶ Long John Silver prepares a hint",
        "prison": "▶ Prison: a tower is chosen",
    }.get(ph, ph)


def _panel(d: ImageDraw.ImageDraw, v: dict[str, Any], seat: int | None) -> None:
    x = PANEL_X
    text(d, (x, 4), f"June {v['day']}" if v["day"] else v["map"]["name"], 26, bold=True)
    y = 40
    for line in common.wrap_board(_phase_line(v), 20, PANEL_R - x, bold=True)[:3]:
        text(d, (x, y), line, 20, bold=True, fill=common.HIGHLIGHT)
        y += 25
    sv = v["silver"]
    tower = f"Silver in {sv['tower']}" if sv["tower"] else f"Silver escaped · run {sv['round']}"
    text(d, (x, y + 2), tower, common.fit_size(tower, 20, PANEL_R - x, bold=True, smallest=16), bold=True)
    y += 34
    y = calendar(d, v, y, seat) + 10
    for m in v["order"]:
        mi = v["miniatures"][m]
        if y > HEIGHT - 28:
            break
        common.token(d, (x + 13, y + 13), 13, COLOURS[m], mi["letter"], size=17)
        owner = mi["owner"]
        text(d, (x + 32, y + 13), f"seat {owner + 1}" + (" (you)" if owner == seat else ""), 20, anchor="lm")
        y += 31


def _stars(days: list[dict[str, Any]]) -> list[str]:
    """Runs of days with the same number of stars (actions): "★ June 1–6", "★★ June 7–18", "none June 19"."""
    runs: list[tuple[int, int, int]] = []
    for c in days:
        if runs and runs[-1][0] == c["stars"]:
            runs[-1] = (c["stars"], runs[-1][1], c["day"])
        else:
            runs.append((c["stars"], c["day"], c["day"]))
    return [f"{'★' * n or 'none'} June {a}" + (f"–{b}" if b != a else "") for n, a, b in runs]


# -- the public picture, the private one and the close-up ------------------------------------------------------
def _picture(view: dict[str, Any], seat: int | None = None) -> common.Picture:
    pic = draw_map(view, seat)
    _panel(pic.draw, view, seat if seat is not None and view.get("private") else None)
    return pic


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """The public island (seat None) or ``seat``'s private picture, as PNG bytes."""
    return _picture(view, seat).png()


def picture(view: dict[str, Any]) -> Image.Image:
    """The public island as a palette image (a replay's frame)."""
    return _picture(view).img


def focus(view: dict[str, Any], seat: int | None = None) -> common.Box | None:
    """Where a close-up looks: the miniature that moved last with its latest trail; after Long John Silver spoke,
    his newest hint's border; else the newest search, else ``seat``'s miniatures."""
    last = view.get("last") or {}
    points: list[tuple[float, float]] = []
    mini = last.get("mini")
    if mini in view["miniatures"]:
        mi = view["miniatures"][mini]
        points.append(XY(mi["pos"]))
        if mi["trail"]:
            points.append(XY(mi["trail"][-1][0]))
    if not points and last.get("kind") == "silver" and view["hints"]:
        # Long John Silver spoke last: his newest hint's border
        dashes, _ = _hint_dashes(view["hints"][-1]["true_mask"], view["legal_mask"])
        if dashes:
            return common.union((x0, y0, x1, y1) for x0, y0, x1, y1 in dashes)
    if not points and view["searches"]:
        sr = view["searches"][-1]
        cx, cy = XY(sr["centre"])
        r = sr["radius"] * PX
        points += [(cx - r, cy - r), (cx + r, cy + r)]
    if not points and seat is not None:
        points = [XY(mi["pos"]) for mi in view["miniatures"].values() if mi["owner"] == seat]
    return common.union((x - PX, y - PX, x + PX, y + PX) for x, y in points)


def zoom(view: dict[str, Any], seat: int | None = None) -> bytes:
    """A full-resolution close-up of the island around :func:`focus` (public view only)."""
    return common.encode(common.close_up(draw_map(view, None).img, focus(view, seat), (0, 0, MAP_R + 4, HEIGHT)))


def caption(view: dict[str, Any], seat: int | None = None) -> str:
    """The fine print. Public: who plays which character and its specials left, the counts that steer the hunt,
    and the key to the map. For Long John Silver's own picture: the hint he is preparing and what his options keep
    (the rest of his secrets are in his summary). A pirate's own picture leaves nothing out: it draws what its
    summary says. A DM carries news only, so no caption repeats a fixed key."""
    if seat is not None:
        priv = view.get("private") or {}
        if seat != view["silver_seat"]:
            return ""  # a pirate's marks (navy, ✗, wedges, dots) follow the lines of its summary
        lines = []
        pending = priv.get("pending") or {}
        if pending.get("card"):
            lines.append(
                f"Preparing {pending['card']} · token {pending.get('token') or '?'} · {' '.join(pending['params'])}"
            )
        if priv.get("option_share"):
            share = ", ".join(f"{k} {int(x * 100)}%" for k, x in priv["option_share"].items())
            lines.append(f"Your options keep: {share}")
        return "\n".join(lines)
    lines = []
    for m in view["order"]:
        mi = view["miniatures"][m]
        specials = ", ".join(k for k, n in mi["specials_left"].items() if n) or "none"
        lines.append(f"**{mi['letter']}** {mi['name']} · seat {mi['owner'] + 1} · specials left: {specials}")
    ch, counts = view["chests"], view["counts"]
    lines.append("Actions per day: " + " · ".join(_stars(view["calendar"])))
    lines.append(
        f"Chests given {ch['given']}, credit {ch['credit']} · bluffs taken {counts['bluffs_taken']}/2 · "
        f"Silver holds {counts['hint_hand']} hints, {counts['compass_hand']} compass cards"
    )
    lines.append(
        common.KEY
        + "Key: dark = ruled out for everyone · pale = outside the latest hint · dashed = a hint's border (H + day) · "
        "coloured circle = a search (letter + day) · ■ tower (L: Silver) · ◆ landmark"
    )
    return "\n".join(lines)
