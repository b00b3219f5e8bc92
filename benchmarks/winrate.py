"""AI strength: seeded AI-only games with given levels per seat; each level's win share with a 95% interval.

    python -m benchmarks.winrate                       # the hard-AI report: every game, see SUITE below
    python -m benchmarks.winrate --only cartagena,martinique --games 100 --iterations 16
    python -m benchmarks.winrate --games 0 --timing 20    # decision times of every game at the default budget
    python -m benchmarks.winrate --game cartagena --levels normal,easy --games 500
    python -m benchmarks.winrate --game treasure_island --levels normal,normal,normal --fixed-seats \
        --option silver=first --games 300     # "seat 1" is then Long John Silver's win rate

Seating rotates every game (unless --fixed-seats) so no level keeps the first seat. A tie counts as a
shared win (1/k each). Games that hit the action cap are counted as stalls. ``hard`` searches a fixed number of
iterations a decision (``--iterations``; production searches for a time budget instead), so a run is
reproducible and its strength does not depend on how busy the machine is. ``--timing`` adds decision times at
the default time budget, measured through the host's AI worker processes (the process hop included).
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from benchmarks.stats import parse_options, percentile
from rules import registry, search
from rules.playout import ai_chooser, play


@dataclass
class Run:
    """One configuration: a game, a level per seat, its options, and whether seats rotate."""

    label: str
    game: str
    levels: list[str]
    options: dict[str, str] = field(default_factory=dict)
    fixed: bool = False


#: the issue's measurements: hard against normal two-player where allowed, at a bigger table for fair share,
#: and Treasure Island's roles (seat 1 is Long John Silver with ``silver=first``)
SUITE: list[Run] = [
    Run("cartagena 2p", "cartagena", ["hard", "normal"]),
    Run("cartagena 3p", "cartagena", ["hard", "normal", "normal"]),
    Run("martinique 2p", "martinique", ["hard", "normal"]),
    Run("buccaneer 2p", "buccaneer", ["hard", "normal"]),
    Run("buccaneer 3p", "buccaneer", ["hard", "normal", "normal"]),
    Run("flagon 2p", "flagon", ["hard", "normal"]),
    Run("flagon 4p", "flagon", ["hard", "normal", "normal", "normal"]),
    Run("treasure_island hard Silver v hard", "treasure_island", ["hard", "hard"], {"silver": "first"}, True),
    Run("treasure_island hard Silver v normal", "treasure_island", ["hard", "normal"], {"silver": "first"}, True),
    Run("treasure_island normal Silver v hard", "treasure_island", ["normal", "hard"], {"silver": "first"}, True),
    Run("treasure_island normal Silver v normal", "treasure_island", ["normal", "normal"], {"silver": "first"}, True),
]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win share (95% by default); shared wins count as fractions."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def run(r: Run, games: int, seed: str, max_actions: int = 20_000, quiet: bool = False) -> dict[str, object]:
    game = registry.get(r.game)
    base = r.levels
    wins: Counter[str] = Counter()
    seat_wins: Counter[int] = Counter()
    lengths: list[int] = []
    stalls = errors = 0
    started = time.perf_counter()
    for g in range(games):
        shift = 0 if r.fixed else g % len(base)
        levels = base[shift:] + base[:shift]
        try:
            state, n = play(game, len(levels), r.options, f"{seed}-{g}", ai_chooser(levels, f"{seed}-ai-{g}"),
                            max_actions)
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
        if not quiet and (g + 1) % max(1, games // 10) == 0:
            print(f"  {r.label}: {g + 1}/{games} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return {
        "run": r,
        "played": len(lengths),
        "wins": wins,
        "seat_wins": seat_wins,
        "lengths": lengths,
        "stalls": stalls,
        "errors": errors,
        "seconds": time.perf_counter() - started,
    }


def report(result: dict[str, object]) -> None:
    r: Run = result["run"]  # type: ignore[assignment]
    played: int = result["played"]  # type: ignore[assignment]
    wins: Counter[str] = result["wins"]  # type: ignore[assignment]
    seat_wins: Counter[int] = result["seat_wins"]  # type: ignore[assignment]
    seats_of = Counter(r.levels)
    print(
        f"{r.label}: {played} games, levels per seat {r.levels} ({'fixed' if r.fixed else 'rotating'} seats"
        f"{', options ' + str(r.options) if r.options else ''}), {result['seconds']:.0f} s"
    )
    if not r.fixed:
        for level in sorted(seats_of):
            lo, hi = wilson(wins[level], played)
            fair = seats_of[level] / len(r.levels)
            share = wins[level] / played if played else 0.0
            print(
                f"  {level:>7}: {share:6.1%} of games (95% CI {lo:.1%}–{hi:.1%}); fair share {fair:.1%}, "
                f"ratio {share / fair:.2f}× (CI {lo / fair:.2f}–{hi / fair:.2f}×)"
            )
    for s in range(len(r.levels)):
        lo, hi = wilson(seat_wins[s], played)
        print(f"  seat {s + 1} ({r.levels[s] if r.fixed else 'rotating'}): {seat_wins[s] / max(1, played):6.1%} "
              f"(95% CI {lo:.1%}–{hi:.1%})")
    lengths: list[int] = result["lengths"]  # type: ignore[assignment]
    if lengths:
        print(f"  mean length {sum(lengths) / len(lengths):.1f} actions; stalls {result['stalls']}; "
              f"errors {result['errors']}")


def _decide_counting(*args: object) -> str:
    """The worker's decision, with the iterations it searched appended after a tab (for the report only)."""
    from bot.infra.aipool import decide

    action = decide(*args)  # type: ignore[arg-type]
    return f"{action}\t{search.last_stats.iterations}"


def timing(game_ids: list[str], decisions: int, seed: str) -> None:
    """Decision time at the default budget through the host's AI worker pool (spawned processes)."""
    from bot.infra.aipool import AIPool  # the bot's own path: the benchmark measures what a table waits for

    pool = AIPool(processes=1)
    pool.job = _decide_counting
    try:
        for gid in game_ids:
            game = registry.get(gid)
            # one untimed decision first: a table's worker is booted and warm long before its first move
            state = game.new(game.info.min_players, {}, f"{seed}-warm")
            seat = game.to_act(state)[0]
            pool.choose_sync(gid, game.view(state, seat), seat, game.legal_actions(state, seat), "hard", "warm")
            times: list[float] = []
            iterations: list[int] = []
            g = 0
            while len(times) < decisions and g < 50:
                levels = ["hard"] + ["normal"] * (game.info.min_players - 1)
                chooser = ai_chooser(levels, f"{seed}-t-{g}")
                state = game.new(len(levels), {}, f"{seed}-t-{g}")
                while game.to_act(state) and len(times) < decisions:
                    seat = game.to_act(state)[0]
                    legal = game.legal_actions(state, seat)
                    if seat == 0 and len(legal) > 1:
                        t0 = time.perf_counter()
                        answer = pool.choose_sync(gid, game.view(state, seat), seat, legal, "hard",
                                                  f"{seed}:{g}:{len(times)}", search.DEFAULT_SECONDS)
                        times.append(time.perf_counter() - t0)
                        action, _, count = answer.partition("\t")
                        if count:
                            iterations.append(int(count))
                    else:
                        action = chooser(game, state, seat, legal)
                    state, _ = game.apply(state, seat, action)
                g += 1
            print(
                f"{gid}: hard decision at the default budget ({search.DEFAULT_SECONDS:g} s) through a worker "
                f"process, n={len(times)}: p50 {percentile(times, 50):.3f} s, p95 {percentile(times, 95):.3f} s, "
                f"max {max(times):.3f} s; iterations searched: median {percentile(iterations, 50):.0f}, "
                f"min {min(iterations, default=0)}; fallbacks to normal so far {pool.fallbacks}"
            )
    finally:
        pool.shutdown()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=registry.game_ids(), help="one configuration (with --levels)")
    parser.add_argument("--levels", help="comma-separated level per seat, e.g. hard,normal")
    parser.add_argument("--only", help="suite runs whose label starts with one of these (comma-separated)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=16, help="hard's search iterations per decision")
    parser.add_argument("--seed", default="winrate")
    parser.add_argument("--fixed-seats", action="store_true", help="do not rotate levels between seats")
    parser.add_argument("--max-actions", type=int, default=20_000)
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--timing", type=int, default=0, metavar="N",
                        help="also time N hard decisions per game at the default time budget")
    args = parser.parse_args(argv)
    if args.game:
        if not args.levels:
            parser.error("--game needs --levels")
        runs = [Run(args.game, args.game, [lv.strip() for lv in args.levels.split(",")],
                    parse_options(args.option), args.fixed_seats)]
    else:
        prefixes = [p.strip() for p in args.only.split(",")] if args.only else None
        runs = [r for r in SUITE if prefixes is None or any(r.label.startswith(p) for p in prefixes)]
    if args.games > 0:  # --games 0 --timing N: decision times only
        print(f"hard searches {args.iterations} iterations a decision; {args.games} games per configuration")
        with search.budget(iterations=args.iterations):
            for r in runs:
                report(run(r, args.games, args.seed, args.max_actions))
                sys.stdout.flush()
    if args.timing:
        ids = sorted({r.game for r in runs})
        timing(ids, args.timing, args.seed)


if __name__ == "__main__":
    main()
