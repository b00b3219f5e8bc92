"""AI decision time from the seat's own view, and whole AI-only games, over seeded games.

python -m benchmarks.ai --game cartagena [--level normal] [--players 2] [--games 20]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from benchmarks.stats import describe, parse_options, summary_ms
from rules import registry


def measure_ai(
    game_id: str,
    *,
    level: str = "normal",
    players: int | None = None,
    games: int = 20,
    options: dict[str, str] | None = None,
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """Seeded games with every seat at ``level``. ``decision``: seconds per choice (the seat's view + its
    ``ai_choose``); ``game``: seconds per whole game (new, every decision and every apply). Both are
    ``describe`` dicts; ``samples`` holds the decision seconds."""
    game = registry.get(game_id)
    players = players or game.info.min_players
    decisions: list[float] = []
    whole: list[float] = []
    begun = time.perf_counter()
    for g in range(games):
        if max_seconds is not None and g and time.perf_counter() - begun > max_seconds:
            break  # enough samples for a quick run; ``games`` reports how many were played
        rnd = random.Random(g)
        started = time.perf_counter()
        state = game.new(players, options or {}, f"ai-{g}")
        while game.to_act(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            t0 = time.perf_counter()
            action = game.ai_choose(game.view(state, seat), seat, legal, level, rnd)
            decisions.append(time.perf_counter() - t0)
            state, _ = game.apply(state, seat, action)
        whole.append(time.perf_counter() - started)
    return {
        "game": game.info.id,
        "level": level,
        "players": players,
        "games": len(whole),
        "decision": describe(decisions),
        "game_seconds": describe(whole),
        "samples": decisions,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--level", default="normal")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args(argv)
    r = measure_ai(
        args.game, level=args.level, players=args.players, games=args.games, options=parse_options(args.option)
    )
    print(f"{args.game} AI '{args.level}' decision (view + choose), {r['players']} players, {args.games} games")
    print(f"  {summary_ms(r['samples'])}")
    print(f"  whole game: median {r['game_seconds']['median']:.3f} s, max {r['game_seconds']['max']:.3f} s")


if __name__ == "__main__":
    main()
