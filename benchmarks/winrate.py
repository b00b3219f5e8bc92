"""AI strength: seeded AI-only games with given levels per seat; reports each level's win share.

    python -m benchmarks.winrate --game cartagena --levels normal,easy --games 500
    python -m benchmarks.winrate --game buccaneer --levels normal,easy,easy,easy --games 300
    python -m benchmarks.winrate --game treasure_island --levels normal,normal,normal --fixed-seats \
        --option silver=first --games 300     # "seat 1" is then Long John Silver's win rate

Seating rotates every game (unless --fixed-seats) so no level keeps the first seat. A tie counts as a
shared win (1/k each). Games that hit the action cap are counted as stalls.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from benchmarks.stats import parse_options
from rules import registry
from rules.playout import ai_chooser, play


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--levels", required=True, help="comma-separated level per seat, e.g. normal,easy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="winrate")
    parser.add_argument("--fixed-seats", action="store_true", help="do not rotate levels between seats")
    parser.add_argument("--max-actions", type=int, default=20_000)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    base = [lvl.strip() for lvl in args.levels.split(",")]
    options = parse_options(args.option)

    wins: Counter[str] = Counter()
    seat_wins: Counter[int] = Counter()
    seats_of: Counter[str] = Counter(base)
    lengths: list[int] = []
    stalls = errors = 0
    started = time.perf_counter()
    for g in range(args.games):
        shift = 0 if args.fixed_seats else g % len(base)
        levels = base[shift:] + base[:shift]
        try:
            state, n = play(
                game,
                len(levels),
                options,
                f"{args.seed}-{g}",
                ai_chooser(levels, f"{args.seed}-ai-{g}"),
                args.max_actions,
            )
        except AssertionError as exc:
            stalls += 1
            print(f"  game {g}: {exc}", file=sys.stderr)
            continue
        except Exception as exc:  # noqa: BLE001 - a benchmark reports every failure and goes on
            errors += 1
            print(f"  game {g}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        lengths.append(n)
        outcome = game.outcome(state)
        if outcome and outcome.winners:
            for seat in outcome.winners:
                wins[levels[seat]] += 1 / len(outcome.winners)
                seat_wins[seat] += 1 / len(outcome.winners)
        if (g + 1) % max(1, args.games // 10) == 0:
            print(f"  {g + 1}/{args.games} games", file=sys.stderr)
    played = len(lengths)
    print(
        f"{args.game} win rates over {played} games, levels per seat {base} "
        f"({'fixed' if args.fixed_seats else 'rotating'} seats), {time.perf_counter() - started:.1f} s"
    )
    for level in sorted(seats_of):
        share = wins[level] / played if played else 0.0
        print(
            f"  {level:>7}: {wins[level]:.1f} wins = {share:.1%} of games "
            f"({seats_of[level]} seat(s); fair share {seats_of[level] / len(base):.1%})"
        )
    # by seat: what a fixed role (e.g. Long John Silver at seat 1 with --fixed-seats) wins
    print("  by seat: " + ", ".join(f"seat {s + 1} {seat_wins[s] / max(1, played):.1%}" for s in range(len(base))))
    if lengths:
        print(f"  mean length {sum(lengths) / len(lengths):.1f} actions; stalls {stalls}; errors {errors}")


if __name__ == "__main__":
    main()
