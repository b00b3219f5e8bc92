"""AI decision time from the seat's own view, over seeded AI-only games.

python -m benchmarks.ai --game cartagena [--level normal] [--players 2] [--games 20]
"""

from __future__ import annotations

import argparse
import random
import time

from benchmarks.stats import parse_options, summary_ms
from rules import registry


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--level", default="normal")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    players = args.players or game.info.min_players
    options = parse_options(args.option)

    times: list[float] = []
    for g in range(args.games):
        rnd = random.Random(g)
        state = game.new(players, options, f"ai-{g}")
        while game.to_act(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            t0 = time.perf_counter()
            action = game.ai_choose(game.view(state, seat), seat, legal, args.level, rnd)
            times.append(time.perf_counter() - t0)
            state, _ = game.apply(state, seat, action)
    print(f"{args.game} AI '{args.level}' decision (view + choose), {players} players, {args.games} games")
    print(f"  {summary_ms(times)}")


if __name__ == "__main__":
    main()
