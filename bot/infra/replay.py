"""Rebuilding a table from its seed and action log, and the animated replay of its public board."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from bot.infra.store import LogRow
from rules.core import Game, State, canonical_json

#: frames in a replay GIF at most; longer games are sampled evenly (the last frame is always kept)
MAX_FRAMES = 60
#: the widest replay frame in pixels; boards are scaled down to keep the GIF small enough to upload
FRAME_WIDTH = 640


def replay_steps(
    game: Game, players: int, options: dict[str, str], seed: str, log: Sequence[LogRow]
) -> list[tuple[LogRow | None, State]]:
    """The standing moves from the start to now, each with the state after it (the first has no move).

    An ``undo`` entry always takes back the newest move still standing, so it pops the chain.
    """
    chain: list[tuple[LogRow | None, State]] = [(None, game.new(players, options, seed))]
    for entry in log:
        if entry.kind == "undo":
            if len(chain) > 1:
                chain.pop()
        else:
            state, _ = game.apply(chain[-1][1], int(entry.seat or 0), str(entry.action))
            chain.append((entry, state))
    return chain


def replay(game: Game, players: int, options: dict[str, str], seed: str, log: Sequence[LogRow]) -> list[State]:
    """The chain of states from the start to now: ``[initial, after move 1, ...]`` with undone moves removed."""
    return [state for _, state in replay_steps(game, players, options, seed, log)]


def current_turn(
    game: Game, steps: Sequence[tuple[LogRow | None, State]]
) -> tuple[list[tuple[State, int, bool]], list[str]]:
    """The undo stack and the narration of the turn in progress, as the host had them before a restart.

    Mirrors the host: a move that makes someone owe a decision they did not owe just before ends a turn (its
    lines close that turn's post) and starts a new one; the moves after it stack up.
    """
    stack: list[tuple[State, int, bool]] = []
    lines: list[str] = []
    for k in range(len(steps) - 1, 0, -1):
        entry, after = steps[k]
        before = steps[k - 1][1]
        assert entry is not None
        before_to_act = game.to_act(before)
        if any(s not in before_to_act for s in game.to_act(after)):
            break  # this move closed the previous turn; the turn in progress began after it
        lines[:0] = entry.public
        seat, action = int(entry.seat or 0), str(entry.action)
        stack.insert(0, (before, seat, bool(game.undoable(before, seat, action))))
    return stack, lines


def same_state(game: Game, a: State, b: State) -> bool:
    return canonical_json(game.dump(a)) == canonical_json(game.dump(b))


def sample(items: Sequence[Any], limit: int = MAX_FRAMES) -> list[Any]:
    """At most ``limit`` items spread evenly, always including the first and the last."""
    if len(items) <= limit:
        return list(items)
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


#: a logged move as a replay needs it: (kind, seat, action); kind "undo" takes back the newest standing move
Move = tuple[str, "int | None", "str | None"]


def standing(moves: Sequence[Move]) -> list[tuple[int, str]]:
    """The moves still standing at the end, as (seat, action), in order (each undo removed with its move)."""
    kept: list[tuple[int, str]] = []
    for kind, seat, action in moves:
        if kind == "undo":
            if kept:
                kept.pop()
        else:
            kept.append((int(seat or 0), str(action)))
    return kept


def sampled_views(
    game: Game, players: int, options: dict[str, str], seed: str, moves: Sequence[Move], limit: int = MAX_FRAMES
) -> list[dict[str, Any]]:
    """The public views of a replay's frames: the chain of states from the start to the end, sampled as
    :func:`sample` does, replayed one state at a time so that only the sampled views are kept."""
    kept = standing(moves)
    wanted = set(sample(range(len(kept) + 1), limit))
    state = game.new(players, options, seed)
    views = [game.view(state, None)] if 0 in wanted else []
    for n, (seat, action) in enumerate(kept, start=1):
        state, _ = game.apply(state, seat, action)
        if n in wanted:
            views.append(game.view(state, None))
    return views


#: the palette index no frame uses (the palette has at most 255 colours): "unchanged, show the frame below"
TRANSPARENT = 255

#: a frame as a renderer hands it over: the picture itself (a palette or RGB image), or PNG bytes from a renderer
#: that only gives those (a custom one in tests)
Frame = Image.Image | bytes


def _rgb(frame: Frame) -> Image.Image:
    if isinstance(frame, bytes):
        with Image.open(io.BytesIO(frame)) as decoded:
            return decoded.convert("RGB")
    return frame if frame.mode == "RGB" else frame.convert("RGB")


def shrink(img: Image.Image, factor: int) -> Image.Image:
    """``img`` made ``factor`` times smaller by averaging each ``factor``×``factor`` block (a box filter): the
    cheapest resize that still blends, about 3× cheaper than LANCZOS, and a board's lines and labels stay crisp."""
    return img.reduce(factor) if factor > 1 else img


def gif(frame: Callable[[int], Frame], count: int, *, frame_ms: int = 700, last_ms: int = 3000) -> bytes:
    """An animated GIF of ``count`` frames drawn on demand by ``frame(i)``, all shrunk by the same whole factor to
    at most FRAME_WIDTH wide (a 1100-pixel board becomes 550, Discord's preview width), written as it goes.

    A frame is the renderer's own picture (a palette image), never a PNG encoded and decoded again; PNG bytes are
    taken too (a custom renderer's). Memory stays bounded whatever the game's length or the board's size: each
    frame is shrunk, mapped to the one global palette and written before the next is drawn; only the previous
    frame (8-bit, at the GIF's size) is kept, to store just the rectangle that changed, its unchanged pixels
    transparent. Every frame uses the one palette, taken from the first and last boards."""
    if count < 1:
        raise ValueError("no frames")
    first = _rgb(frame(0))
    factor = max(1, -(-first.width // FRAME_WIDTH))
    first = shrink(first, factor)
    last = shrink(_rgb(frame(count - 1)), factor) if count > 1 else first
    # One palette for every frame, taken from the first and last boards side by side: mapping onto a known
    # palette is fast, and equal pixels get equal indices, so comparing indices finds what changed.
    w, h = first.size
    sheet = Image.new("RGB", (w * 2, h))
    sheet.paste(first, (0, 0))
    sheet.paste(last.resize((w, h)) if last.size != (w, h) else last, (w, 0))
    palette = sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    del sheet

    def mapped(img: Image.Image) -> Image.Image:
        if img.size != (w, h):  # a board that changed size (none does): fitted to the first frame's
            img = img.resize((w, h), Image.Resampling.BOX)
        return img.quantize(palette=palette, dither=Image.Dither.NONE)

    tail = mapped(last)
    head = mapped(first)
    del first, last

    out = io.BytesIO()
    header, _ = GifImagePlugin.getheader(head, None, {"loop": 0})
    out.write(b"".join(header))
    # a frame is written once the next one is known: an identical next frame only lengthens its duration
    pending: tuple[Image.Image, tuple[int, int], int, int | None] = (head, (0, 0), frame_ms, None)
    previous = head
    for i in range(1, count):
        current = tail if i == count - 1 else mapped(shrink(_rgb(frame(i)), factor))
        duration = last_ms if i == count - 1 else frame_ms
        box = ImageChops.subtract_modulo(current, previous).getbbox()
        if box is None:
            pending = (pending[0], pending[1], pending[2] + duration, pending[3])
            continue
        part = current.crop(box)
        unchanged = ImageChops.subtract_modulo(part, previous.crop(box)).point([255] + [0] * 255, "1")
        part.paste(TRANSPARENT, mask=unchanged)
        _write_frame(out, *pending)
        pending = (part, box[:2], duration, TRANSPARENT)
        previous = current
    if count == 1:
        pending = (pending[0], pending[1], last_ms, None)
    _write_frame(out, *pending)
    out.write(b";")
    return out.getvalue()


def _write_frame(
    out: io.BytesIO, image: Image.Image, offset: tuple[int, int], duration: int, transparency: int | None
) -> None:
    params: dict[str, Any] = {"duration": duration}
    if transparency is not None:
        params["transparency"] = transparency
    out.write(b"".join(GifImagePlugin.getdata(image, offset, **params)))
