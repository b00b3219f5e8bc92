"""Engine speed: legal_actions + apply per action, and whole random games per second.

python -m benchmarks.engine --game cartagena [--players 2] [--games 200] [--option mode=tortuga]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from benchmarks.stats import describe, parse_options, summary_ms
from rules import registry


def measure_engine(
    game_id: str,
    *,
    players: int | None = None,
    games: int = 200,
    options: dict[str, str] | None = None,
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """Seeded random games: seconds per action (``legal_actions`` + ``apply``; the random pick is not timed)
    and whole games per second. Keys: game, players, games, per_action (``describe``), games_per_s,
    actions_per_game, samples (the per-action seconds)."""
    game = registry.get(game_id)
    players = players or game.info.min_players
    per_action: list[float] = []
    played = 0
    started = time.perf_counter()
    begun = time.perf_counter()
    for g in range(games):
        if max_seconds is not None and g and time.perf_counter() - begun > max_seconds:
            break  # enough samples for a quick run; ``games`` reports how many were played
        rnd = random.Random(g)
        state = game.new(players, options or {}, f"bench-{g}")
        while game.to_act(state):
            t0 = time.perf_counter()
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = legal[rnd.randrange(len(legal))]
            t2 = time.perf_counter()
            state, _ = game.apply(state, seat, action)
            per_action.append((t1 - t0) + (time.perf_counter() - t2))
        played += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game.info.id,
        "players": players,
        "games": played,
        "per_action": describe(per_action),
        "games_per_s": played / elapsed if elapsed else float("nan"),
        "actions_per_game": len(per_action) / max(1, played),
        "samples": per_action,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    r = measure_engine(args.game, players=args.players, games=args.games, options=parse_options(args.option))
    print(f"{args.game} engine, {r['players']} players, {r['games']} random games")
    print(f"  legal_actions + apply per action: {summary_ms(r['samples'])}")
    print(f"  whole random games: {r['games_per_s']:.1f} games/s ({r['actions_per_game']:.0f} actions/game)")


if __name__ == "__main__":
    main()
