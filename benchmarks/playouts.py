"""Playouts per second per core of the ``hard`` search, per game, at each game's default horizon, in CPU time.

    python -m benchmarks.playouts [--games treasure_island,flagon] [--seconds 4]

One playout is what a search iteration costs beyond choosing the candidate: a state sampled from the mover's
view (``Game.sample``) and the game's rollout (``Game.rollout``) played from it with the rollout policy for up to
``search_horizon`` actions (rules/rollout.py), from positions of seeded ``normal`` games, two players.

The floor, measured in the same run: the very same playouts replayed from the same sampled states with the
actions they took, so only the rules' own steps run (no sampling, no policy). The ratio to it says what sampling
and the policy add; the target (issue 26) is ≥ 200 playouts a second per core. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import random
import time

from rules import registry
from rules.core import Game, State
from rules.playout import ai_chooser, steps
from rules.refusals import IllegalAction

#: the issue's target: playouts per second per core at the default horizon
TARGET = 200


def positions(game: Game, players: int, every: int = 15, limit: int = 8) -> list[tuple[State, int]]:
    """Decisions with a choice, every ``every`` actions of a seeded ``normal`` game."""
    out: list[tuple[State, int]] = []
    chooser = ai_chooser(["normal"] * players, f"playouts-{game.info.id}")
    for i, step in enumerate(steps(game, players, {}, f"playouts-{game.info.id}", chooser)):
        if i % every == 0 and len(out) < limit and len(game.legal_actions(step.before, step.seat)) > 1:
            out.append((step.before, step.seat))
    return out


def measure(game_id: str, seconds: float = 4.0) -> dict[str, float]:
    """Playouts a CPU second (sample + rollout) and the floor (the same actions replayed without policy or
    sampling), with the mean number of actions a playout played."""
    game = registry.get(game_id)
    pos = positions(game, game.info.min_players)
    rng = random.Random(26)
    horizon = game.search_horizon
    played: list[tuple[State, int, list[str]]] = []
    n = actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state, seat = pos[n % len(pos)]
        legal = game.legal_actions(state, seat)
        sampled = game.sample(game.view(state, seat), seat, rng)
        kept = game.load(game.dump(sampled))  # untimed in the floor below; a copy costs far less than a playout
        ro = game.rollout(sampled)
        taken = [legal[n % len(legal)]]
        try:
            ro.play(seat, taken[0])
            for _ in range(horizon):
                acting = ro.to_act()
                if not acting:
                    break
                action = ro.choose(acting[0], rng)
                ro.play(acting[0], action)
                taken.append(action)
        except IllegalAction:
            pass
        played.append((kept, seat, taken))
        n += 1
        actions += len(taken)
    spent = time.process_time() - started
    floor_started = time.process_time()
    for state, seat, taken in played:
        ro = game.rollout(state)
        try:
            for action in taken:
                ro.play(ro.to_act()[0] if ro.to_act() else seat, action)
        except IllegalAction:
            pass
    floor = time.process_time() - floor_started
    return {"playouts": n, "per_second": n / spent, "floor_per_second": n / max(floor, 1e-9),
            "actions": actions / max(1, n), "horizon": horizon}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", help="comma-separated game ids (default: every game with a sampler)")
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of playouts per game")
    args = parser.parse_args(argv)
    ids = args.games.split(",") if args.games else registry.game_ids()
    print(f"playouts per second per core (CPU time), default horizon, target ≥ {TARGET}")
    for gid in ids:
        r = measure(gid, args.seconds)
        verdict = "meets" if r["per_second"] >= TARGET else "misses"
        print(
            f"  {gid:>16}: {r['per_second']:7.1f} playouts/s ({r['playouts']} playouts, horizon {r['horizon']}, "
            f"{r['actions']:.1f} actions each); floor (same actions replayed, no sample, no policy) "
            f"{r['floor_per_second']:7.1f}/s, ratio {r['floor_per_second'] / r['per_second']:.1f}×; {verdict} "
            f"the target",
            flush=True,
        )


if __name__ == "__main__":
    main()
