"""Treasure Island pictures (spec §6): the island, every search and hint, the calendar strip, and each seat's
private overlays. Drawn from a view dict only; the static island art is cached per map.
"""

from __future__ import annotations

import base64
import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from renderers import common
from renderers.common import INK, PAPER, SEA, font, plain_font

PX = 25  # pixels per mile
FRAME = 50
MAP_W, MAP_H = 36, 28
W_NODES, H_NODES = 73, 57
CANVAS_W = 1000
MAP_PX_W = FRAME * 2 + MAP_W * PX  # 1000
MAP_PX_H = FRAME * 2 + MAP_H * PX  # 800

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
    return FRAME + x * PX


def Y(y: float) -> float:
    return FRAME + (MAP_H - y) * PX


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
    return patch, (round(FRAME - PX / 4 + left * half), round(FRAME - PX / 4 + top * half))


def _pattern(kind: str, colour: str) -> Image.Image:
    tile = Image.new("RGBA", (MAP_PX_W, MAP_PX_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    if kind == "stipple":
        for y in range(0, MAP_PX_H, 7):
            for x in range((y // 7) % 2 * 3, MAP_PX_W, 7):
                d.point((x, y), fill=colour)
    elif kind == "dots":
        for y in range(0, MAP_PX_H, 9):
            for x in range((y // 9) % 2 * 4, MAP_PX_W, 9):
                d.ellipse((x, y, x + 2, y + 2), fill=colour)
    elif kind == "trees":
        for y in range(4, MAP_PX_H, 14):
            for x in range((y // 14) % 2 * 7, MAP_PX_W, 14):
                d.polygon([(x, y + 8), (x + 4, y), (x + 8, y + 8)], fill=colour)
    elif kind == "dashes":
        for y in range(0, MAP_PX_H, 8):
            for x in range((y // 8) % 2 * 6, MAP_PX_W, 12):
                d.line((x, y, x + 6, y), fill=colour, width=2)
    elif kind == "houses":
        for y in range(3, MAP_PX_H, 14):
            for x in range(3, MAP_PX_W, 14):
                d.rectangle((x, y + 4, x + 7, y + 9), fill=colour)
                d.polygon([(x - 1, y + 4), (x + 3.5, y), (x + 8, y + 4)], fill=colour)
    elif kind == "hatch":
        for c in range(-MAP_PX_H, MAP_PX_W, 8):
            d.line((c, MAP_PX_H, c + MAP_PX_H, 0), fill=colour, width=2)
    elif kind == "light_hatch":
        for c in range(-MAP_PX_H, MAP_PX_W, 12):
            d.line((c, 0, c + MAP_PX_H, MAP_PX_H), fill=colour, width=1)
    elif kind == "cross":
        for c in range(-MAP_PX_H, MAP_PX_W, 10):
            d.line((c, MAP_PX_H, c + MAP_PX_H, 0), fill=colour, width=1)
            d.line((c, 0, c + MAP_PX_H, MAP_PX_H), fill=colour, width=1)
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
    m = Image.new("L", (MAP_PX_W, MAP_PX_H), 0)
    draw_fn(ImageDraw.Draw(m))
    return m


@lru_cache(maxsize=4)
def base_map(map_json: str) -> Image.Image:
    mp = json.loads(map_json)
    img = Image.new("RGB", (MAP_PX_W, MAP_PX_H), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((FRAME, FRAME, X(MAP_W), Y(0)), fill=SEA)
    coast = _poly(mp["coast"])
    land = _region(lambda m: m.polygon(coast, fill=255))
    _fill(img, land, TERRAIN["grass"], None, "")
    beach = _region(lambda m: m.line([*coast, coast[0]], fill=255, width=PX * 2, joint="curve"))
    beach = Image.composite(beach, Image.new("L", beach.size, 0), land)
    _fill(img, beach, TERRAIN["beach"], "dots", "#B89A50")
    hills = Image.new("L", land.size, 0)
    hd = ImageDraw.Draw(hills)
    for h in mp["hills"]:
        a, b = h["levels"][0]
        cx, cy = XY(h["centre"])
        hd.ellipse((cx - a * PX, cy - b * PX, cx + a * PX, cy + b * PX), fill=255)
    hills = Image.composite(hills, Image.new("L", land.size, 0), land)
    _fill(img, hills, TERRAIN["hills"], "stipple", "#8C6D3C")
    looks = {"forest": ("trees", "#1F4F1F"), "marsh": ("dashes", "#2F6F5F"), "town": ("houses", "#505050")}
    for area in mp["areas"]:
        poly = _poly(area["poly"])
        reg = _region(lambda m, poly=poly: m.polygon(poly, fill=255))
        pat, pc = looks[area["kind"]]
        _fill(img, reg, TERRAIN[area["kind"]], pat, pc)
    d = ImageDraw.Draw(img)
    # contour lines with their level numbers
    for h in mp["hills"]:
        cx, cy = XY(h["centre"])
        for lvl, (a, b) in enumerate(h["levels"], start=1):
            d.ellipse((cx - a * PX, cy - b * PX, cx + a * PX, cy + b * PX), outline="#8B5A2B", width=1)
            d.text((cx, cy - b * PX), str(lvl), font=font(11), fill="#6B3A1B", anchor="mm")
    # the river, over land only
    river_layer = _region(lambda m: m.line(_poly(mp["river"]), fill=255, width=3))
    river_layer = Image.composite(river_layer, Image.new("L", land.size, 0), land)
    img.paste(Image.new("RGB", img.size, "#2B7BB9"), (0, 0), river_layer)
    # district borders: nearest seed point, sampled per 2 px, drawn on land
    seeds = [(X(dd["seed"][0]), Y(dd["seed"][1])) for dd in mp["districts"]]
    step = 2
    cols, rows = MAP_W * PX // step, MAP_H * PX // step
    lab = Image.frombytes(
        "L", (cols, rows), b"".join(_nearest_seed_row(seeds, FRAME + r * step, cols, step) for r in range(rows))
    )
    # a sample is on a border when its east or south neighbour has another label; each is a 2x2 px dot
    here = lab.crop((0, 0, cols - 1, rows - 1))
    changes = ImageChops.lighter(
        ImageChops.difference(here, lab.crop((1, 0, cols, rows - 1))),
        ImageChops.difference(here, lab.crop((0, 1, cols - 1, rows))),
    )
    dots = changes.point([0] + [255] * 255).resize(((cols - 1) * step, (rows - 1) * step), Image.Resampling.NEAREST)
    border = Image.new("L", land.size, 0)
    border.paste(dots, (FRAME, FRAME))
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
    for x in range(MAP_W + 1):
        col = (0, 0, 0, 70) if x % 2 == 0 else (0, 0, 0, 30)
        d.line((X(x), Y(0), X(x), Y(MAP_H)), fill=col, width=1)
    for y in range(MAP_H + 1):
        col = (0, 0, 0, 70) if y % 2 == 0 else (0, 0, 0, 30)
        d.line((X(0), Y(y), X(MAP_W), Y(y)), fill=col, width=1)
    d.rectangle((FRAME, FRAME, X(MAP_W), Y(0)), outline=INK, width=2)
    for x in range(0, MAP_W + 1, 2):
        d.text((X(x), FRAME - 14), str(x), font=font(15, bold=True), fill=INK, anchor="mm")
        d.text((X(x), Y(0) + 14), str(x), font=font(15, bold=True), fill=INK, anchor="mm")
    for y in range(0, MAP_H + 1, 2):
        d.text((FRAME - 16, Y(y)), str(y), font=font(15, bold=True), fill=INK, anchor="mm")
        d.text((X(MAP_W) + 16, Y(y)), str(y), font=font(15, bold=True), fill=INK, anchor="mm")
    return img


@lru_cache(maxsize=4)
def palette(map_json: str) -> Image.Image:
    """The fixed palette for pictures of this map: the flat colours and text blends the renderer paints, plus an
    adaptive set fitted once to the island art under each overlay it can carry (the grey wash, the search tints,
    Silver's darkening). Mapping onto it costs a few milliseconds where an adaptive quantise of every picture
    costs several times that, and it depends on the map alone."""
    small = base_map(map_json).resize((MAP_PX_W // 2, MAP_PX_H // 2), Image.Resampling.NEAREST)
    washed = Image.blend(small, Image.new("RGB", small.size, "#9A9A9A"), 90 / 255)
    sheets = [small, washed]
    for colour, alpha in (("#3A3A3A", 120), ("#202020", 110), ("#0072B2", 70)):
        sheets.append(Image.blend(small, Image.new("RGB", small.size, colour), alpha / 255))
    for colour in COLOURS.values():
        for under in (small, washed):
            sheets.append(Image.blend(under, Image.new("RGB", small.size, colour), 70 / 255))
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
        return _nearest_seed(seeds, FRAME + c * step, py)

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
    text: str,
    size: int,
    fill: str = INK,
    bold: bool = True,
    private: bool = False,
) -> None:
    face = plain_font if private else font  # a seat's own deductions are never remembered
    d.text(xy, text, font=face(size, bold), fill=fill, anchor="mm", stroke_width=3, stroke_fill="#FFFFFF")


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


def _labels(img: Image.Image, d: ImageDraw.ImageDraw, v: dict[str, Any]) -> None:
    mp = v["map"]
    for dd in mp["districts"]:
        halo_text(d, XY(dd["label"]), dd["id"], 16)
    for rz in mp["restricted"]:
        xs = [p[0] for p in rz["poly"]]
        ys = [p[1] for p in rz["poly"]]
        halo_text(d, (X(sum(xs) / len(xs)), Y(min(ys)) + 9), rz["id"], 12, fill=RED)
    used = set(v["miniatures"])
    for c, p in mp["spots"].items():
        cx, cy = XY(p)
        r = 2 * PX
        if c in used:
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOURS[c], width=3)
        else:
            ring = _dashed_ring(cx - int(cx), cy - int(cy))
            half = (ring.width - 1) // 2
            img.paste(ring, (int(cx) - half, int(cy) - half), ring)
        d.line((cx - 5, cy - 5, cx + 5, cy + 5), fill=INK, width=2)
        d.line((cx - 5, cy + 5, cx + 5, cy - 5), fill=INK, width=2)
    tower = v["silver"]["tower"]
    for t in mp["towers"]:
        cx, cy = XY(t["pos"])
        here = t["id"] == tower
        s = 8 if here else 6
        d.rectangle(
            (cx - s, cy - s, cx + s, cy + s), fill=INK, outline="#FFFFFF" if here else INK, width=3 if here else 1
        )
        if here:
            d.text((cx, cy), "L", font=font(12, True), fill="#FFFFFF", anchor="mm")
        halo_text(d, (cx + 16, cy - 12), t["id"], 13)
    for lm in mp["landmarks"]:
        cx, cy = XY(lm["pos"])
        d.polygon([(cx, cy - 7), (cx + 7, cy), (cx, cy + 7), (cx - 7, cy)], fill="#F0E442", outline=INK)
        halo_text(d, (cx - 15, cy + 11), lm["id"], 12)


def _overlay_mask(img: Image.Image, mask: int, colour: str, alpha: int, pat: str | None = None) -> None:
    got = cells(mask)
    if got is None:
        return
    layer, (ox, oy) = got
    box = (ox, oy, ox + layer.size[0], oy + layer.size[1])
    if alpha:
        img.paste(colour, box, layer.point([0] + [alpha] * 255))
    if pat:
        # a pattern tile is one opaque colour on transparency, so its coverage inside the region is all we need
        ink = colour if pat != "light_hatch" else "#303030"
        img.paste(ink, box, ImageChops.multiply(pattern_coverage(pat, ink).crop(box), layer))


@lru_cache(maxsize=2)
def washed_map(map_json: str) -> Image.Image:
    """The whole island under the grey wash, made exactly as :func:`_overlay_mask` would tint it."""
    img = base_map(map_json).copy()
    img.paste(WASH, None, Image.new("L", img.size, WASH_ALPHA))
    return img


def _wash(img: Image.Image, map_json: str, mask: int) -> None:
    """The grey wash over the untouched island: copying the pre-washed art through the cells is the same
    pixels as tinting them, at a third of the cost on the large areas a late game rules out."""
    got = cells(mask)
    if got is None:
        return
    layer, (ox, oy) = got
    box = (ox, oy, ox + layer.size[0], oy + layer.size[1])
    img.paste(washed_map(map_json).crop(box), box, layer)


WASH, WASH_ALPHA = "#9A9A9A", 90
_NOT_LAST_COL = sum(1 << (j * W_NODES + W_NODES - 1) for j in range(H_NODES))


def _hint_border(d: ImageDraw.ImageDraw, mask: int, legal: int, day: int) -> None:
    """A dashed edge between 4-neighbour legal nodes on either side of the true region, with a boxed day tag."""
    half = PX / 4
    east = (mask ^ (mask >> 1)) & legal & (legal >> 1) & ~_NOT_LAST_COL
    north = (mask ^ (mask >> W_NODES)) & legal & (legal >> W_NODES)
    points: list[tuple[float, float]] = []
    for k in _bits(east):
        i, j = k % W_NODES, k // W_NODES
        x = X((i + 0.5) / 2)
        points.append((x, Y(j / 2)))
        if j % 2 == 0:
            d.line((x, Y(j / 2) - half, x, Y(j / 2) + half), fill=INK, width=2)
    for k in _bits(north):
        i, j = k % W_NODES, k // W_NODES
        y = Y((j + 0.5) / 2)
        points.append((X(i / 2), y))
        if i % 2 == 0:
            d.line((X(i / 2) - half, y, X(i / 2) + half, y), fill=INK, width=2)
    if points:
        px, py = sorted(points)[len(points) // 2]
        label = f"H{day}"
        w = font(12, True).getlength(label) + 6
        d.rectangle((px - w / 2, py - 9, px + w / 2, py + 9), fill="#FFFFFF", outline=INK, width=1)
        d.text((px, py), label, font=font(12, True), fill=INK, anchor="mm")


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _letter(v: dict[str, Any], m: str) -> str:
    return v["miniatures"][m]["letter"]


def draw_map(v: dict[str, Any], seat: int | None) -> Image.Image:
    map_json = json.dumps(v["map"], sort_keys=True)
    img = base_map(map_json).copy()
    legal = mask_bits(v["legal_mask"])
    priv = v.get("private") if seat is not None else None
    # public certainties: nodes nobody can still hold the treasure on are washed grey
    cands = mask_bits(v["public_candidates"])
    _wash(img, map_json, legal & ~cands)
    if priv and priv.get("certain_excluded") and seat != v["silver_seat"]:
        ex = mask_bits(priv["certain_excluded"]) & legal & cands
        _overlay_mask(img, ex, "#3A3A3A", 120)
    for sr in v["searches"]:
        _overlay_mask(img, mask_bits(sr["covered"]), COLOURS[sr["by"]], 70, "cross")
    # the false side of the latest hint (and, for a pirate, of every hint since the first) is hatched; every
    # hatch is the same opaque pattern, so one pass over the union draws what one pass per hint would
    hatched = legal & ~mask_bits(v["hints"][-1]["true_mask"]) if v["hints"] else 0
    if priv and seat != v["silver_seat"]:
        for h in v["hints"][1:]:
            hatched |= legal & ~mask_bits(h["true_mask"])
    if hatched:
        _overlay_mask(img, hatched, "#303030", 0, "light_hatch")
    if priv and seat == v["silver_seat"] and v["step"] == "bury" and priv.get("reach"):
        _overlay_mask(img, legal & ~mask_bits(priv["reach"]), "#202020", 110)
    if priv and seat == v["silver_seat"] and priv.get("choice_region"):
        # the vaguest statement still open to him, as the pirates would see it: its true side tinted blue
        _overlay_mask(img, mask_bits(priv["choice_region"]), "#0072B2", 70)
    d = ImageDraw.Draw(img, "RGBA")
    for h in v["hints"]:
        _hint_border(d, mask_bits(h["true_mask"]), legal, h["day"])
    for sr in v["searches"]:
        cx, cy = XY(sr["centre"])
        r = sr["radius"] * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=COLOURS[sr["by"]], width=2)
        halo_text(d, (cx, cy), f"{_letter(v, sr['by'])}{sr['day']}", 12, fill=INK)
    _labels(img, d, v)
    if priv and seat != v["silver_seat"]:
        _pirate_layers(img, d, v, priv)
    for f in v["fog"]:
        cx, cy = XY(f["centre"])
        r = 1.5 * PX
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 200, 200, 190), outline="#606060", width=2)
        halo_text(d, (cx, cy), f"FOG →{f['expires']}", 12)
    last = v.get("last") or {}
    for m, mi in v["miniatures"].items():
        for a, b, kind, _day in mi["trail"]:
            if kind == "gallop":
                halo_text(d, (XY(b)[0] + 12, XY(b)[1] + 12), "G", 12, fill=COLOURS[m])
                continue
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
        cx += 8 * n
        if last.get("mini") == m:
            d.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), outline=common.HIGHLIGHT, width=4)
        d.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=COLOURS[m], outline=INK, width=3)
        d.text(
            (cx, cy), mi["letter"], font=font(13, True), fill="#FFFFFF", anchor="mm", stroke_width=1, stroke_fill=INK
        )
    for fig in v["silver"]["figures"]:
        cx, cy = XY(fig["pos"])
        d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=INK, outline="#FFFFFF", width=2)
        d.text((cx, cy), fig["id"], font=font(13, True), fill="#FFFFFF", anchor="mm")
    treasure = None
    if priv and seat == v["silver_seat"]:
        treasure = priv.get("treasure")
    if v.get("reveal"):
        treasure = v["reveal"]["treasure"]
    if treasure:
        cx, cy = XY(treasure)
        for w, col in ((9, "#FFFFFF"), (5, INK)):
            d.line((cx - 12, cy - 12, cx + 12, cy + 12), fill=col, width=w)
            d.line((cx - 12, cy + 12, cx + 12, cy - 12), fill=col, width=w)
    return img


def _pirate_layers(img: Image.Image, d: ImageDraw.ImageDraw, v: dict[str, Any], priv: dict[str, Any]) -> None:
    mp = v["map"]
    labels = {dd["id"]: dd for dd in mp["districts"]}
    for _m, ds in priv["districts"].items():
        for did in ds:
            cx, cy = XY(labels[did]["label"])
            d.line((cx - 22, cy - 22, cx + 22, cy + 22), fill="#000000", width=5)
            d.line((cx - 22, cy + 22, cx + 22, cy - 22), fill="#000000", width=5)
            halo_text(d, (cx, cy + 28), f"not {did}", 14, private=True)
    # skull sectors go on their own layer, clipped to the map box
    sectors = Image.new("RGBA", img.size, (0, 0, 0, 0))
    sd = ImageDraw.Draw(sectors)
    angles = {"E": 0, "NE": 45, "N": 90, "NW": 135, "W": 180, "SW": 225, "S": 270, "SE": 315}
    for c in priv["compass"]:
        cx, cy = XY(c["pos"])
        for sk in c["skulls"]:
            a0 = math.radians(angles[sk] - 22.5)
            a1 = math.radians(angles[sk] + 22.5)
            far = 60 * PX
            poly = [
                (cx, cy),
                (cx + far * math.cos(a0), cy - far * math.sin(a0)),
                (cx + far * math.cos(a1), cy - far * math.sin(a1)),
            ]
            sd.polygon(poly, fill=(60, 60, 60, 60), outline=(30, 30, 30, 200))
        halo_text(d, (cx, cy - 24), f"{c['card']}@{_letter(v, c['mini'])}{c['day']}", 13, private=True)
    clip = Image.new("L", img.size, 0)
    ImageDraw.Draw(clip).rectangle((FRAME, FRAME, X(MAP_W), Y(0)), fill=255)
    alpha = Image.composite(sectors.getchannel("A"), Image.new("L", img.size, 0), clip)
    img.paste(sectors.convert("RGB"), (0, 0), alpha)
    for it in priv["info_tokens"]:
        cx, cy = XY(it["pos"])
        if it["token"] == "west":
            d.rectangle((cx + 1, FRAME, X(MAP_W), Y(0)), fill=(60, 60, 60, 55))
        elif it["token"] == "east":
            d.rectangle((FRAME, FRAME, cx - 1, Y(0)), fill=(60, 60, 60, 55))
        halo_text(d, (cx, cy + 24), f"chest:{it['token']}", 13, private=True)


def calendar_strip(d: ImageDraw.ImageDraw, v: dict[str, Any], top: int, seat: int | None = None) -> int:
    box_w, box_h, gap = 34, 64, 2
    known: dict[str, str] = {}
    priv = v.get("private") if seat is not None else None
    if priv:
        if seat == v["silver_seat"]:
            known = dict(priv.get("hint_tokens") or {})
        else:
            known = {str(x["target_day"]): x["token"] for x in priv.get("verified", [])}
    x = 10
    for _skull in range(5):
        d.rectangle((x, top, x + box_w, top + box_h), outline=MUTED_LINE, width=1)
        d.text((x + box_w / 2, top + box_h / 2), "☠", font=font(18), fill=common.MUTED, anchor="mm")
        x += box_w + gap
    today = v["day"]
    over = v["phase"] == "over"
    for c in v["calendar"]:
        thick = 4 if c["day"] == today and not over else 1
        fill = "#FFFFFF" if c["day"] > today else "#EFE6CF"
        d.rectangle((x, top, x + box_w, top + box_h), fill=fill, outline=INK, width=thick)
        d.text((x + box_w / 2, top + 9), str(c["day"]), font=font(14, True), fill=INK, anchor="mm")
        d.text((x + box_w / 2, top + 24), "★" * c["stars"] if c["stars"] else "–", font=font(11), fill=INK, anchor="mm")
        if c["event"]:
            d.text((x + box_w / 2, top + 38), EVENT_TAG[c["event"]], font=font(12, True), fill="#8B0000", anchor="mm")
        tok = c["token"]
        if tok == "hidden" and str(c["day"]) in known:
            # a token this seat has seen (its own hints for Silver, a Verification for a pirate)
            d.rectangle((x + 3, top + 44, x + 17, top + 60), fill="#FFFFFF", outline=INK)
            d.text(
                (x + 10, top + 52), known[str(c["day"])][0].upper(), font=font(13, True), fill="#0072B2", anchor="mm"
            )
        elif tok == "hidden":
            d.ellipse((x + 5, top + 46, x + 15, top + 56), fill=INK)
        elif tok:
            d.text((x + 10, top + 52), tok[0].upper(), font=font(14, True), fill="#8B0000", anchor="mm")
        if c["active"]:
            col = COLOURS[c["active"]]
            d.ellipse((x + 18, top + 45, x + 31, top + 58), fill=col, outline=INK)
            d.text(
                (x + 24.5, top + 51.5),
                v["miniatures"][c["active"]]["letter"],
                font=font(10, True),
                fill=INK,
                anchor="mm",
            )
        x += box_w + gap
    return top + box_h


MUTED_LINE = "#A89F8F"


def status_line(v: dict[str, Any]) -> str:
    parts = []
    if v["day"]:
        parts.append(f"June {v['day']}")
    if v["phase"] == "escape":
        parts.append("Long John Silver runs: two 4-mile moves per figure")
    elif v["active"] and v["phase"] in ("turn", "chest", "compass", "prison", "hint"):
        mi = v["miniatures"][v["active"]]
        parts.append(f"{mi['name']} ({mi['letter']}) · {v['left']} action{'s' if v['left'] != 1 else ''}")
    sv = v["silver"]
    parts.append(f"LJS in {sv['tower']}" if sv["tower"] else f"LJS escaped · round {sv['round']}")
    ch = v["chests"]
    parts.append(f"chests given {ch['given']}, credit {ch['credit']}")
    parts.append(f"bluffs taken {v['counts']['bluffs_taken']}/2")
    parts.append(f"hand {v['counts']['hint_hand']} · compass {v['counts']['compass_hand']}")
    return " · ".join(parts)


def _phase_line(v: dict[str, Any]) -> str:
    ph = v["phase"]
    if ph == "over":
        o = v["outcome"] or {}
        return f"Game over: {o.get('reason', '')}; winners: {', '.join(str(s + 1) for s in o.get('winners', [])) or 'nobody'}"
    return {
        "bury": "Long John Silver is burying the treasure",
        "hint": "Long John Silver is preparing a hint",
        "prison": "Prison: a tower is being chosen",
        "turn": "A pirate is acting",
        "chest": "Long John Silver answers the search",
        "compass": "Long John Silver shows a Compass Hint",
        "escape": "Long John Silver is on the run",
    }.get(ph, ph)


def legend_block(d: ImageDraw.ImageDraw, v: dict[str, Any], top: int) -> int:
    x = 10
    for name, col in TERRAIN.items():
        if name == "town" and v["map"]["id"] != "revenge":
            continue
        label = "jungle" if name == "forest" and v["map"]["id"] == "revenge" else name
        d.rectangle((x, top, x + 20, top + 20), fill=col, outline=INK)
        d.text((x + 26, top + 10), label, font=font(14), fill=INK, anchor="lm")
        x += 36 + int(font(14).getlength(label))
    d.rectangle((x, top, x + 20, top + 20), fill="#E88A8A", outline=RED, width=2)
    d.text((x + 26, top + 10), "red zone", font=font(14), fill=INK, anchor="lm")
    x += 110
    d.rectangle((x, top, x + 14, top + 14), fill=INK)
    d.text((x + 20, top + 8), "tower", font=font(14), fill=INK, anchor="lm")
    x += 70
    d.polygon([(x + 7, top), (x + 14, top + 7), (x + 7, top + 14), (x, top + 7)], fill="#F0E442", outline=INK)
    d.text((x + 20, top + 8), "landmark", font=font(14), fill=INK, anchor="lm")
    y = top + 30
    x = 10
    for m in v["order"]:
        mi = v["miniatures"][m]
        sp = ", ".join(k for k, n in mi["specials_left"].items() if n)
        label = f"{mi['name']} · seat {mi['owner'] + 1}" + (f" · {sp}" if sp else "")
        common.token(d, (x + 11, y + 11), 11, COLOURS[m], mi["letter"])
        d.text((x + 28, y + 11), label, font=font(14), fill=INK, anchor="lm")
        y += 26
    d.text(
        (10, y + 4),
        "Grey wash: ruled out by public facts · dashed black: border of hint H<day> · hatched: latest hint's false side",
        font=font(14),
        fill=INK,
    )
    return y + 26


def private_block(d: ImageDraw.ImageDraw, v: dict[str, Any], seat: int, top: int) -> int:
    priv = v["private"]
    lines: list[str] = []
    if seat == v["silver_seat"]:
        lines.append(f"Your hand: {', '.join(priv['hand']) or '—'} · Compass: {', '.join(priv['compass_hand']) or '—'}")
        tk = priv["tokens"]
        lines.append(
            f"Tokens: truth {tk.get('truth', 0)}, bluff {tk.get('bluff', 0)} · chests left: {', '.join(priv['chest_tokens']) or '—'}"
        )
        tr = priv["tricks"]
        if tr["hand"] or tr["played"]:
            lines.append(f"Tricks: {', '.join(tr['hand']) or '—'} · points left {tr['points_left']}")
        if priv.get("pending") and priv["pending"].get("card"):
            p = priv["pending"]
            lines.append(f"Preparing {p['card']} · token {p.get('token') or '?'} · {' '.join(p['params'])}")
        if priv.get("option_share"):
            share = ", ".join(f"{k} {int(x * 100)}%" for k, x in priv["option_share"].items())
            lines.append(f"Options keep: {share}")
    else:
        ds = [f"{m}: not {', '.join(x)}" for m, x in priv["districts"].items()]
        lines.append("District Hints — " + "; ".join(ds))
        if priv["items"]:
            lines.append(f"Items: {', '.join(priv['items'])}")
        for ver in priv["verified"]:
            lines.append(f"Verified June {ver['target_day']}: {ver['token'].upper()}")
        for mem in priv["memory"]:
            lines.append(f"Memory {mem['landmark']}: {'within' if mem['within_5'] else 'beyond'} 5 miles")
        if priv["traitor"]:
            lines.append("You are the TRAITOR: you win if Long John Silver wins.")
    y = top
    for line in lines:
        for part in common.wrap(line, plain_font(15), CANVAS_W - 20):
            d.text((10, y), part, font=plain_font(15), fill=INK)
            y += 21
    return y + 6


def zoom_panel(v: dict[str, Any], seat: int) -> Image.Image | None:
    priv = v["private"]
    rings: list[tuple[float, bool]]
    if seat == v["silver_seat"]:
        # Silver on the run: his current figure, the 4-mile ring and the nodes one run reaches
        figs = v["silver"]["figures"]
        idx = v["silver"].get("fig")
        if v["step"] != "escape" or idx is None or not priv.get("reach") or idx >= len(figs):
            return None
        reach = {"ride": priv["reach"]}
        pos = figs[idx]["pos"]
        col, letter = INK, figs[idx]["id"]
        rings = [(4, False)]
    else:
        reach = priv.get("reach") or {}
        if not reach or not v["active"]:
            return None
        pos = v["miniatures"][v["active"]]["pos"]
        col, letter = COLOURS[v["active"]], v["miniatures"][v["active"]]["letter"]
        rings = [(3, False), (6, False), (2.5 if v["active"] == "jim" else 2, True)]
        if v["active"] == "olivier":
            rings.append((12, True))
        if "stride" in reach:
            rings.append((7, True))
    span, zpx = 14, 40
    x0 = min(max(pos[0] - span / 2, 0), MAP_W - span)
    y0 = min(max(pos[1] - span / 2, 0), MAP_H - span)
    size = span * zpx
    img = Image.new("RGB", (size + 60, size + 60), PAPER)
    d = ImageDraw.Draw(img)
    legal = mask_bits(v["legal_mask"])

    def ZX(x: float) -> float:
        return 30 + (x - x0) * zpx

    def ZY(y: float) -> float:
        return 30 + (y0 + span - y) * zpx

    d.rectangle((30, 30, 30 + size, 30 + size), fill=SEA)
    ride = mask_bits(reach.get("ride") or reach.get("walk") or "") if (reach.get("ride") or reach.get("walk")) else 0
    for i in range(int(x0 * 2), int((x0 + span) * 2) + 1):
        for j in range(int(y0 * 2), int((y0 + span) * 2) + 1):
            k = j * W_NODES + i
            if not (0 <= i < W_NODES and 0 <= j < H_NODES):
                continue
            cx, cy = ZX(i / 2), ZY(j / 2)
            if legal >> k & 1:
                d.rectangle((cx - 10, cy - 10, cx + 10, cy + 10), fill=TERRAIN["grass"])
    for i in range(int(x0 * 2), int((x0 + span) * 2) + 1):
        for j in range(int(y0 * 2), int((y0 + span) * 2) + 1):
            k = j * W_NODES + i
            if not (0 <= i < W_NODES and 0 <= j < H_NODES):
                continue
            cx, cy = ZX(i / 2), ZY(j / 2)
            if ride >> k & 1:
                d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=col, outline=INK)
            else:
                d.ellipse((cx - 1, cy - 1, cx + 1, cy + 1), fill="#555555")
    for rz in v["map"]["restricted"]:
        d.polygon([(ZX(p[0]), ZY(p[1])) for p in rz["poly"]], fill="#E8A0A0", outline=RED, width=3)
    coast = [(ZX(p[0]), ZY(p[1])) for p in v["map"]["coast"]]
    d.line([*coast, coast[0]], fill="#2A5D7A", width=3)
    cx, cy = ZX(pos[0]), ZY(pos[1])
    for r_m, dash in rings:
        r = r_m * zpx
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=INK if not dash else "#7A3E00", width=2)
    common.token(d, (cx, cy), 12, col, letter)
    img.paste(PAPER, (0, 0, size + 60, 30))
    img.paste(PAPER, (0, size + 30, size + 60, size + 60))
    img.paste(PAPER, (0, 0, 30, size + 60))
    img.paste(PAPER, (size + 30, 0, size + 60, size + 60))
    for x in range(math.ceil(x0), int(x0 + span) + 1):
        d.line((ZX(x), 30, ZX(x), 30 + size), fill="#00000040", width=1)
        d.text((ZX(x), 15), str(x), font=font(14, True), fill=INK, anchor="mm")
        d.text((ZX(x), size + 45), str(x), font=font(14, True), fill=INK, anchor="mm")
    for y in range(math.ceil(y0), int(y0 + span) + 1):
        d.line((30, ZY(y), 30 + size, ZY(y)), fill="#00000040", width=1)
        d.text((15, ZY(y)), str(y), font=font(14, True), fill=INK, anchor="mm")
        d.text((size + 45, ZY(y)), str(y), font=font(14, True), fill=INK, anchor="mm")
    return img


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """The public island (seat None) or ``seat``'s private picture, as PNG bytes."""
    mp = draw_map(view, seat)
    d0 = ImageDraw.Draw(mp)
    d0.text((FRAME, 8), f"{view['map']['name']} — {_phase_line(view)}", font=font(18, True), fill=INK)
    # the panel under the map is drawn once on a tall sheet, then cropped to what it used
    sheet, d = common.canvas(CANVAS_W, 1000)
    y = calendar_strip(d, view, 8, seat) + 10
    y = _status(d, view, y)
    y = legend_block(d, view, y + 6)
    if seat is not None and view.get("private"):
        y = private_block(d, view, seat, y + 4)
    zoom = zoom_panel(view, seat) if seat is not None and view.get("private") else None
    y += 10
    height = MAP_PX_H + y + (zoom.size[1] + 10 if zoom else 0)
    img = Image.new("RGB", (CANVAS_W, height))  # black: every pixel is pasted over below
    img.paste(mp, (0, 0))
    img.paste(sheet.crop((0, 0, CANVAS_W, y)), (0, MAP_PX_H))
    if zoom:
        img.paste(PAPER, (0, MAP_PX_H + y, CANVAS_W, height))
        img.paste(zoom, ((CANVAS_W - zoom.size[0]) // 2, MAP_PX_H + y))
    # level 1: the island's textures make zlib slow; twice as fast as level 6 for ~40% more bytes, far under budget
    return common.to_png(img, palette(json.dumps(view["map"], sort_keys=True)), compress_level=1)


def _status(d: ImageDraw.ImageDraw, v: dict[str, Any], y: int) -> int:
    for part in common.wrap(status_line(v), font(16, True), CANVAS_W - 20):
        d.text((10, y), part, font=font(16, True), fill=INK)
        y += 22
    return y
