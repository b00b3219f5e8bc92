"""The README's pictures: one board per game as Discord previews it (scaled into 550×350), and the Cartagena board
at full size. ``python -m renderers.gallery [--out docs]`` draws them again from seeded AI games."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image

import renderers
from renderers.common import PREVIEW, preview_scale
from rules import registry
from rules.playout import ai_chooser, steps

#: (game, players, options, how far into the game): a busy middle of each game
BOARDS = [
    ("cartagena", 4, {"mode": "jamaica"}, 0.5),
    ("buccaneer", 4, {}, 0.4),
    ("martinique", 2, {}, 0.5),
    ("treasure_island", 4, {}, 0.5),
    ("flagon", 4, {}, 0.5),
]


def board(game_id: str, players: int, options: dict[str, str], when: float) -> bytes:
    """The public picture of the state ``when`` of the way through a seeded game of normal AIs."""
    game = registry.get(game_id)
    played = list(steps(game, players, options, f"gallery-{game_id}", ai_chooser(["normal"] * players, "gallery")))
    return renderers.render(game_id, game.view(played[int(len(played) * when)].after, None))


def preview(png: bytes) -> bytes:
    """The picture as Discord's inline preview shows it: scaled into the 550×350 box."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    scale = preview_scale(img.size)
    small = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(out, format="PNG", optimize=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs", help="the docs folder (default: docs)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    (out / "gallery").mkdir(parents=True, exist_ok=True)
    for game_id, players, options, when in BOARDS:
        png = board(game_id, players, options, when)
        if game_id == "cartagena":
            (out / "cartagena.png").write_bytes(png)
        (out / "gallery" / f"{game_id}.png").write_bytes(preview(png))
        print(f"{game_id}: previewed at {PREVIEW[0]}×{PREVIEW[1]} max")


if __name__ == "__main__":
    main()
