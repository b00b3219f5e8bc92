"""Engine speed: legal_actions + apply per action, and whole random games per second.

python -m benchmarks.engine --game cartagena [--players 2] [--games 200] [--option mode=tortuga]
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
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    game = registry.get(args.game)
    players = args.players or game.info.min_players
    options = parse_options(args.option)

    per_action: list[float] = []
    started = time.perf_counter()
    for g in range(args.games):
        rnd = random.Random(g)
        state = game.new(players, options, f"bench-{g}")
        while game.to_act(state):
            t0 = time.perf_counter()
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = legal[rnd.randrange(len(legal))]
            t2 = time.perf_counter()
            state, _ = game.apply(state, seat, action)
            per_action.append((t1 - t0) + (time.perf_counter() - t2))
    elapsed = time.perf_counter() - started
    print(f"{args.game} engine, {players} players, {args.games} random games")
    print(f"  legal_actions + apply per action: {summary_ms(per_action)}")
    print(f"  whole random games: {args.games / elapsed:.1f} games/s ({len(per_action) / args.games:.0f} actions/game)")


if __name__ == "__main__":
    main()
