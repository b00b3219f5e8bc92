"""Picture speed and size, public and private, sampled along seeded AI games, in CPU time, against the floor of
each picture: its own final palette pixels deflated again by the fastest lossless deflate (benchmarks.cpu).

    python -m benchmarks.render --game cartagena [--players 4] [--games 3] [--every 3] [--option mode=tortuga]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from benchmarks.cpu import floor_seconds
from benchmarks.stats import describe, median, parse_options, summary_ms
from renderers import render
from rules import registry
from rules.playout import ai_chooser, steps

Clock = Callable[[], float]


def measure_render(
    game_id: str,
    *,
    players: int | None = None,
    games: int = 3,
    every: int = 5,
    options: dict[str, str] | None = None,
    floor_repeats: int = 10,
    clock: Clock = time.thread_time,
    max_pictures: int | None = None,
) -> dict[str, Any]:
    """Render the public and one private picture of every ``every``-th state of seeded AI games (easy AIs).

    Keys: public / private (``describe`` of CPU seconds), public_bytes (median, max), floor (median CPU seconds of
    the public pictures' floors, each its own pixels deflated again), ratio (median public time / floor),
    pictures. ``floor_repeats``: each floor is the best of that many deflates."""
    game = registry.get(game_id)
    players = players or game.info.min_players
    public_t: list[float] = []
    private_t: list[float] = []
    public_bytes: list[int] = []
    private_bytes: list[int] = []
    floors: list[float] = []
    warm = game.new(players, options or {}, "render-warm")
    render(game.info.id, game.view(warm, None))  # imports, fonts and cached backgrounds are not the picture
    for g in range(games):
        chooser = ai_chooser(["easy"] * players, f"render-{g}")
        for i, step in enumerate(steps(game, players, options or {}, f"render-{g}", chooser)):
            if i % every:
                continue
            if max_pictures is not None and len(public_t) >= max_pictures:
                break
            view = game.view(step.after, None)
            t0 = clock()
            png = render(game.info.id, view)
            public_t.append(clock() - t0)
            public_bytes.append(len(png))
            floors.append(floor_seconds([png], floor_repeats))
            t0 = clock()
            png = render(game.info.id, game.view(step.after, step.seat), seat=step.seat)
            private_t.append(clock() - t0)
            private_bytes.append(len(png))
    floor = median(floors)
    return {
        "game": game.info.id,
        "players": players,
        "pictures": len(public_t),
        "public": describe(public_t),
        "private": describe(private_t),
        "public_bytes": {"median": median([float(b) for b in public_bytes]), "max": max(public_bytes, default=0)},
        "private_bytes": {"median": median([float(b) for b in private_bytes]), "max": max(private_bytes, default=0)},
        "floor": floor,
        "ratio": median(public_t) / floor if floors else float("nan"),
        "samples": public_t,
        "private_samples": private_t,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=5, help="render every Nth state")
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    r = measure_render(
        args.game,
        players=args.players,
        games=args.games,
        every=args.every,
        options=parse_options(args.option),
    )
    print(f"{args.game} pictures, {r['players']} players")
    print(f"  public:  {summary_ms(r['samples'])}")
    print(f"  private: {summary_ms(r['private_samples'])}")
    print(f"  public bytes: median={r['public_bytes']['median']:.0f} max={r['public_bytes']['max']}")
    print(f"  private bytes: median={r['private_bytes']['median']:.0f} max={r['private_bytes']['max']}")
    print(
        f"  floor (each picture's own pixels deflated again by ISA-L): {r['floor'] * 1000:.3f} ms;"
        f" public median / floor = {r['ratio']:.1f}x"
    )


if __name__ == "__main__":
    main()
