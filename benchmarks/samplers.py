"""How long a sampler takes to rebuild a state from one seat's view (issue 17), per game and table size.

    python -m benchmarks.samplers [--every 3] [--seed bench]

For each game and player count, one seeded game of ``normal`` AIs; at every ``every``-th position, for every seat,
``game.sample(view, seat, rng)`` is timed. Prints p50, p95 and max in milliseconds. Figures are printed, never
asserted; a searching AI draws one sample per determinization, so these bound how many it can afford.
"""

from __future__ import annotations

import argparse
import random
import time

from rules import registry
from rules.playout import ai_chooser, steps

TABLES = (
    ("buccaneer", 2),
    ("buccaneer", 4),
    ("treasure_island", 2),
    ("treasure_island", 4),
    ("flagon", 2),
    ("flagon", 6),
)


def run(every: int, seed: str) -> list[str]:
    rows = []
    for game_id, players in TABLES:
        game = registry.get(game_id)
        times: list[float] = []
        chooser = ai_chooser(["normal"] * players, seed)
        for i, step in enumerate(steps(game, players, None, seed, chooser)):
            if i % every:
                continue
            for seat in range(players):
                view = game.view(step.before, seat)
                t0 = time.perf_counter()
                game.sample(view, seat, random.Random(i))
                times.append(time.perf_counter() - t0)
        times.sort()
        p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
        rows.append(
            f"{game_id} {players}p: {len(times)} samples, p50 {p50 * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms, "
            f"max {times[-1] * 1e3:.2f} ms"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    for row in run(args.every, args.seed):
        print(row)


if __name__ == "__main__":
    main()
