"""Picture speed and size, public and private, sampled along seeded AI games, against the floor of
encoding a blank PNG of the same canvas.

    python -m benchmarks.render --game cartagena [--players 4] [--games 3] [--option mode=tortuga]
"""

from __future__ import annotations

import argparse
import io
import statistics
import time

from PIL import Image

from benchmarks.stats import parse_options, summary_ms
from renderers import render
from renderers.common import INK, PAPER, fixed_palette, to_png
from rules import registry
from rules.playout import ai_chooser, steps


def blank_floor(png: bytes, repeats: int = 20) -> float:
    """Seconds to encode a blank image of the same size as the renderers do (mapped onto a fixed palette,
    then PNG): what any picture of that canvas costs at least."""
    size = Image.open(io.BytesIO(png)).size
    blank = Image.new("RGB", size, PAPER)
    palette = fixed_palette([PAPER, INK], [(INK, PAPER)])
    t0 = time.perf_counter()
    for _ in range(repeats):
        to_png(blank, palette)
    return (time.perf_counter() - t0) / repeats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=5, help="render every Nth state")
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    players = args.players or game.info.min_players
    options = parse_options(args.option)

    public_t: list[float] = []
    private_t: list[float] = []
    sizes: list[int] = []
    last_png = b""
    for g in range(args.games):
        chooser = ai_chooser(["easy"] * players, f"render-{g}")
        for i, step in enumerate(steps(game, players, options, f"render-{g}", chooser)):
            if i % args.every:
                continue
            t0 = time.perf_counter()
            last_png = render(game.info.id, game.view(step.after, None))
            public_t.append(time.perf_counter() - t0)
            sizes.append(len(last_png))
            t0 = time.perf_counter()
            png = render(game.info.id, game.view(step.after, step.seat), seat=step.seat)
            private_t.append(time.perf_counter() - t0)
            sizes.append(len(png))
    floor = blank_floor(last_png)
    median = statistics.median(public_t)
    print(f"{args.game} pictures, {players} players")
    print(f"  public:  {summary_ms(public_t)}")
    print(f"  private: {summary_ms(private_t)}")
    print(f"  bytes: median={statistics.median(sizes):.0f} max={max(sizes)}")
    print(
        f"  floor (blank PNG of the same canvas): {floor * 1000:.3f} ms; public median / floor = {median / floor:.1f}x"
    )


if __name__ == "__main__":
    main()
