"""Buccaneer challenges (docs/games/buccaneer.md#honour-and-the-challenge-window): how often the AI challenges, and how
often it is right.

    python -m benchmarks.challenges [--games 300] [--players 4] [--seed challenges]

Two runs of seeded AI-only games, every seat at ``normal``:
- **honest**: Parley's AIs never sail beyond their strength, so every challenge is a mistake. Reports challenges
  per game (the target is at most 0.1).
- **bluffer**: one seat (rotating between games) plays ``normal`` but, on a third of the turns where a move past
  its sailing strength would serve it better, plans with its ``3 × hand size`` limit instead. Reports the
  share of AI challenges that succeed (target at least 60%), the share of its bluffs caught, and the
  bluffer's wins.

As in the table host, only the next seat can challenge (the others never see the window open before it
closes). Figures are printed, never asserted. ``normal``'s strength against ``easy`` is measured apart:
``python -m benchmarks.winrate --game buccaneer --levels normal,easy --games 300``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from rules import registry
from rules.buccaneer import ai
from rules.core import Game, State
from rules.playout import steps

BLUFF_SHARE = 1 / 3


class Bluffer(ai.Normal):
    """``normal``, except that on a bluffing turn it plans with the longest distance the engine offers."""

    def __init__(self, *args: Any, bluffing: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bluffing = bluffing

    def reach(self, free: bool = False) -> int:
        if free or not self.bluffing or self.me["hand_size"] == 0:
            return super().reach(free)
        return max(self.S, self.you.get("limit", self.S), 1)


def first_plan(view: dict[str, Any], seat: int, legal: list[str], bluffing: bool) -> dict[str, Any] | None:
    plans = Bluffer(view, seat, legal, random.Random(0), bluffing=bluffing).plans(False)
    return plans[0][1] if plans else None


@dataclass
class Tally:
    games: int = 0
    windows: int = 0
    challenges: int = 0
    succeeded: int = 0
    opportunities: int = 0  # turns where a bluff would have served the bluffer
    bluffs: int = 0  # moves beyond the mover's strength that opened a window
    caught: int = 0
    bluffer_wins: float = 0.0
    lengths: list[int] = field(default_factory=list)


def play_game(game: Game, players: int, seed: str, bluffer: int | None, tally: Tally) -> None:
    streams = [random.Random(f"{seed}:ai:{s}") for s in range(players)]
    decided: dict[tuple[int, int], bool] = {}  # (round, seat) -> bluffing this turn

    def choose(g: Game, state: State, seat: int, legal: list[str]) -> str:
        view = g.view(state, seat)
        if seat != bluffer or state["phase"] != "play":
            return g.ai_choose(view, seat, legal, "normal", streams[seat])
        key = (state["round"], seat)
        if key not in decided and view["awaiting"]["kind"] == "TURN" and view["stage"] == "start":
            honest = first_plan(view, seat, legal, False)
            bold = first_plan(view, seat, legal, True)
            helps = bold is not None and bold["kind"] == "sail" and bold["k"] > view["you"]["sailing"]
            helps = helps and bold != honest
            rnd = random.Random(f"{seed}:bluff:{state['round']}")
            decided[key] = helps and rnd.random() < BLUFF_SHARE
            tally.opportunities += helps
        bluffing = decided.get(key, False) and state["turn"]["seat"] == seat
        if len(legal) == 1:
            return legal[0]
        return Bluffer(view, seat, legal, streams[seat], bluffing=bluffing).choose()

    n = 0
    final: State | None = None
    for step in steps(game, players, {}, seed, choose):
        n += 1
        final = step.after
        window = step.after.get("challenge")
        if window is not None and step.before.get("challenge") != window:
            tally.windows += 1
            if window["k"] > window["S0"] and window["mover"] == bluffer:
                tally.bluffs += 1
        if step.action == "challenge":
            tally.challenges += 1
            verdict = step.after["last"]["challenge"]["verdict"]
            if verdict == "exceeded":
                tally.succeeded += 1
                if step.before["challenge"]["mover"] == bluffer:
                    tally.caught += 1
    tally.games += 1
    tally.lengths.append(n)
    outcome = game.outcome(final) if final is not None else None
    if outcome and bluffer is not None and bluffer in outcome.winners:
        tally.bluffer_wins += 1 / len(outcome.winners)


def run(games: int, players: int, seed: str, with_bluffer: bool) -> Tally:
    game = registry.get("buccaneer")
    tally = Tally()
    for g in range(games):
        play_game(game, players, f"{seed}-{g}", g % players if with_bluffer else None, tally)
        if (g + 1) % max(1, games // 10) == 0:
            print(f"  {'bluffer' if with_bluffer else 'honest'}: {g + 1}/{games} games", file=sys.stderr)
    return tally


def share(a: float, b: float) -> str:
    return f"{a / b:.0%}" if b else "n/a"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="challenges")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    honest = run(args.games, args.players, args.seed, False)
    bluff = run(args.games, args.players, args.seed, True)
    print(
        f"Buccaneer challenges, {args.games} games of {args.players} normal AIs each run, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(
        f"  honest movers: {honest.windows / honest.games:.1f} windows/game, "
        f"{honest.challenges / honest.games:.3f} challenges/game (target ≤ 0.1), "
        f"{honest.succeeded} succeeded"
    )
    print(
        f"  one bluffer (bluffs {BLUFF_SHARE:.0%} of the turns a bluff would help): "
        f"{bluff.opportunities / bluff.games:.1f} chances and {bluff.bluffs / bluff.games:.2f} bluffs a game; "
        f"{bluff.challenges / bluff.games:.3f} challenges/game, {share(bluff.succeeded, bluff.challenges)} of them "
        f"succeed (target ≥ 60%); {share(bluff.caught, bluff.bluffs)} of bluffs caught; "
        f"the bluffer wins {share(bluff.bluffer_wins, bluff.games)} (fair share {1 / args.players:.0%})"
    )


if __name__ == "__main__":
    main()
