"""Every picture drawn for where players see it: Discord's inline preview (the picture scaled into 550×350).

Representative positions of every game (seeded AI playouts, several player counts and variants) are drawn public,
private and as a close-up, with every label's size recorded as the renderer drew it (``common.measuring``). The
rules checked:

- every label is at least 8 px tall once its picture is scaled into the preview box;
- every picture is landscape, between 4:3 and 16:9, and at most 100 KB;
- no renderer draws text except through ``common.text`` (the measured path), both in its source and while drawing.
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import renderers
from renderers import common
from rules import registry
from rules.playout import ai_chooser, steps

#: (game, players, options): each game's variants and the player counts that crowd its picture most
CASES = [
    ("cartagena", 2, {"mode": "jamaica"}),
    ("cartagena", 5, {"mode": "tortuga"}),
    ("buccaneer", 4, {}),
    ("buccaneer", 8, {"round_limit": "50"}),
    ("martinique", 2, {}),
    ("treasure_island", 4, {"map": "treasure"}),
    ("treasure_island", 6, {"map": "revenge", "expansion": "on"}),
    ("flagon", 2, {}),
    ("flagon", 5, {"map": "tavern"}),
]
POSITIONS = 6  # states per case, spread over a whole game, and its last one
MAX_BYTES = 100 * 1024
RENDERERS = Path(renderers.__file__).parent


def _positions(game_id: str, players: int, options: dict[str, str]) -> list[tuple[dict[str, Any], int]]:
    """(state, seat that just acted) at evenly spread points of one seeded AI game, and its end."""
    game = registry.get(game_id)
    played = list(steps(game, players, options, f"preview-{game_id}-{players}", ai_chooser(["easy"] * players, "p")))
    every = max(1, len(played) // POSITIONS)
    chosen = played[::every][:POSITIONS] + [played[-1]]
    return [(step.after, step.seat) for step in chosen]


@cache
def drawn(game_id: str, players: int, options_key: tuple[tuple[str, str], ...]) -> list[tuple[str, bytes, list]]:
    """Every picture of the case as (kind, PNG, [(font px, text)]) with nothing cached beforehand, so the labels of
    backgrounds and sprites are seen too. Drawn once per case for all the tests below."""
    game = registry.get(game_id)
    common.clear_caches()
    out: list[tuple[str, bytes, list]] = []
    with common.measuring() as log:
        for state, seat in _positions(game_id, players, dict(options_key)):
            public = game.view(state, None)
            pictures = [("public", renderers.render(game_id, public))]
            pictures.append(("private", renderers.render(game_id, game.view(state, seat), seat=seat)))
            pictures.append(("zoom", renderers.zoom(game_id, public, seat)))
            start = len(log.pictures) - len(pictures)
            for (kind, png), (size, texts) in zip(pictures, log.pictures[start:], strict=True):
                assert Image.open(io.BytesIO(png)).size == size
                out.append((kind, png, texts))
    return out


def _cases() -> Iterator[Any]:
    for game_id, players, options in CASES:
        yield pytest.param(game_id, players, tuple(sorted(options.items())), id=f"{game_id}-{players}")


@pytest.mark.parametrize(("game_id", "players", "options"), list(_cases()))
def test_every_label_is_at_least_8_px_in_the_preview(game_id: str, players: int, options: Any) -> None:
    pictures = drawn(game_id, players, options)
    assert sum(len(texts) for _, _, texts in pictures) > 50  # the measuring saw the labels
    # a label drawn once into a cached sprite may appear in later pictures too: held to the smallest scale of all
    smallest_scale = min(common.preview_scale(Image.open(io.BytesIO(png)).size) for _, png, _ in pictures)
    for kind, png, texts in pictures:
        scale = min(smallest_scale, common.preview_scale(Image.open(io.BytesIO(png)).size))
        small = [(size, label) for size, label in texts if size * scale < common.MIN_PREVIEW_TEXT]
        assert not small, f"{game_id} {kind}: labels under 8 px in the preview: {small[:5]}"


@pytest.mark.parametrize(("game_id", "players", "options"), list(_cases()))
def test_every_picture_is_landscape_and_small(game_id: str, players: int, options: Any) -> None:
    for kind, png, _ in drawn(game_id, players, options):
        width, height = Image.open(io.BytesIO(png)).size
        assert 4 / 3 <= width / height <= 16 / 9, f"{game_id} {kind}: {width}×{height}"
        assert len(png) <= MAX_BYTES, f"{game_id} {kind}: {len(png)} bytes"


def test_a_small_label_would_be_caught() -> None:
    """The measuring sees what a renderer draws: a 12 px label on a 1100×700 picture is 6 px in the preview."""
    with common.measuring() as log:
        img, draw = common.canvas(1100, 700)
        common.text(draw, (10, 10), "tiny", 12)
        common.to_png(img)
    ((size, texts),) = log.pictures
    assert texts == [(12, "tiny")] and 12 * common.preview_scale(size) < common.MIN_PREVIEW_TEXT


def _text_calls(path: Path) -> list[int]:
    """Lines where ``path`` calls a ``.text``/``.multiline_text`` method on something other than the common module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("text", "multiline_text") and not (
                isinstance(node.func.value, ast.Name) and node.func.value.id == "common"
            ):
                found.append(node.lineno)
    return found


def test_no_renderer_draws_text_around_the_measured_path() -> None:
    for path in sorted(RENDERERS.glob("*.py")):
        if path.name != "common.py":
            assert not _text_calls(path), f"{path.name} draws text directly at lines {_text_calls(path)}"


def test_while_drawing_only_common_calls_pillows_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow's own text drawing is reached only from renderers/common.py (its multi-line and RGB-canvas paths)."""
    real = ImageDraw.ImageDraw.text
    callers: set[str] = set()

    def spy(self: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> None:
        callers.add(inspect.stack()[1].filename)
        real(self, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    common.clear_caches()
    for game_id, players, options in CASES[::2]:
        game = registry.get(game_id)
        state, seat = _positions(game_id, players, options)[2]
        renderers.render(game_id, game.view(state, None))
        renderers.render(game_id, game.view(state, seat), seat=seat)
    assert callers <= {common.__file__}
    common.text(ImageDraw.Draw(Image.new("RGB", (40, 40))), (2, 2), "a\nb", 10)  # the spy does see common's calls
    assert callers == {common.__file__}


@pytest.mark.parametrize(("game_id", "players", "options"), list(_cases()))
def test_the_caption_is_short_text_and_the_zoom_a_close_up(game_id: str, players: int, options: Any) -> None:
    game = registry.get(game_id)
    for state, seat in _positions(game_id, players, dict(options))[::3]:
        public = game.view(state, None)
        for caption in (renderers.caption(game_id, public), renderers.caption(game_id, game.view(state, seat), seat)):
            assert isinstance(caption, str) and len(caption) <= 1000 and caption.count("\n") < 12
        board = Image.open(io.BytesIO(renderers.render(game_id, public)))
        close = Image.open(io.BytesIO(renderers.zoom(game_id, public, seat)))
        assert close.size[0] < board.size[0] and close.size[1] < board.size[1]
        assert close.size[0] >= common.PREVIEW[0] and close.size[1] >= common.PREVIEW[1]
