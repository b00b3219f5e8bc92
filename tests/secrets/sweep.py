"""Thousands of seeded games per game, every public output of every state checked for leaks.

``python -m tests.secrets.sweep --games 5000`` runs the full sweep (all games, 5000 each) and prints, per game,
the games, states, checks, scrambles and pictures compared, with the number of leaks (it stops at the first).
The CI test (tests/secrets/test_sweep.py) runs the same code with fewer games.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from rules import registry
from rules.core import Game
from rules.playout import Chooser, ai_chooser, random_chooser, steps
from tests.secrets.checks import Tally, check_refusals, check_scramble, check_step, private_lines

#: states checked per game at most: easy Cartagena AIs with reshuffle on can pass to each other for ever (a whole
#: game is 200-350 states), Buccaneer games run to 2000
MAX_STATES = {"cartagena": 1000}


def config(game: Game, i: int) -> tuple[int, dict[str, str], str]:
    """Game number ``i``'s table: player counts and option values cycle, the chooser alternates random / easy AI."""
    rnd = random.Random(f"config:{game.info.id}:{i}")
    lo, hi = game.info.min_players, game.info.max_players
    players = lo + i % (hi - lo + 1)
    options = {opt.name: rnd.choice(opt.choices) for opt in game.info.options}
    kind = "random" if i % 2 == 0 else "easy"
    if game.info.id == "buccaneer":
        # random sailing rarely ends a game: keep random games short; the AI plays the long limits
        options["round_limit"] = "50" if kind == "random" else rnd.choice(["50", "100"])
    if game.info.id == "treasure_island" and players == 6:
        options["expansion"] = "on"
    return players, options, kind


def chooser(kind: str, players: int, seed: str) -> Chooser:
    if kind == "random":
        return random_chooser(random.Random(f"{seed}:random"))
    return ai_chooser([kind] * players, f"{seed}:ai")


def sweep_game(
    game_id: str,
    games: int,
    start: int = 0,
    picture_every: int = 0,
    lines_every: int = 10,
    refusal_every: int = 10,
) -> Tally:
    """Play ``games`` games of ``game_id`` (numbers ``start`` ..) and check every state; raise on the first leak.

    Every state: public view and public event lines against the secrets, and the scramble (public view of a
    secret-scrambled copy). Every ``lines_every``-th state: events and view against every seat's private summary.
    Every ``refusal_every``-th state: refused actions explain nothing their seat may not know. Every
    ``picture_every``-th state (0: never): the public PNG of the scramble is byte-identical."""
    game = registry.get(game_id)
    tally = Tally()
    for i in range(start, start + games):
        players, options, kind = config(game, i)
        seed = f"Zq9-{game_id}-{i}-secretseed"
        rnd = random.Random(f"{seed}:checks")
        pool: list[str] = []
        secrets = None
        cap = MAX_STATES.get(game_id, 4000)
        for n, step in enumerate(steps(game, players, options, seed, chooser(kind, players, seed), cap + 1)):
            if n == cap:
                # some AI pairings can stall (easy Cartagena AIs with reshuffle on); the states so far are checked
                tally.truncated += 1
                break
            lines = private_lines(game, step.before, range(players)) if lines_every and n % lines_every == 0 else None
            seen = check_step(game, step.before, step.after, step.events, tally, lines, secrets)
            secrets = seen.secrets
            picture = bool(picture_every) and n % picture_every == 0
            check_scramble(game, step.after, rnd, tally, picture=picture, public=seen.view)
            if len(pool) < 400:
                pool.append(step.action)
            if refusal_every and n % refusal_every == 0:
                check_refusals(game, step.after, pool, rnd, tally)
            tally.states += 1
        tally.games += 1
    return tally


def _job(args: tuple[str, int, int, int]) -> Tally:
    game_id, games, start, picture_every = args
    return sweep_game(game_id, games, start, picture_every)


def parallel_sweep(
    pool: Executor, game_id: str, games: int, start: int = 0, picture_every: int = 0, parts: int = 16
) -> Tally:
    """``sweep_game`` cut into ``parts`` runs of consecutive game numbers, on the pool's processes."""
    chunk = max(1, -(-games // parts))
    jobs = [(game_id, min(chunk, games - s), start + s, picture_every) for s in range(0, games, chunk)]
    tally = Tally()
    for part in pool.map(_job, jobs):
        tally.add(part)
    return tally


def process_pool(workers: int) -> ProcessPoolExecutor:
    # spawn: a forked child of a process with threads (pytest's, aiosqlite's) could inherit a held lock
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.secrets.sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per game (default 1000)")
    parser.add_argument("--game", action="append", choices=registry.game_ids(), help="only this game (repeatable)")
    parser.add_argument("--pictures-every", type=int, default=25, help="compare the PNGs every Nth state (0: never)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    ids = args.game or registry.game_ids()
    rows: list[list[Any]] = []
    total = Tally()
    with process_pool(args.workers) as pool:
        for game_id in ids:
            t0 = time.perf_counter()
            parts = max(args.workers * 4, args.games // 50)
            tally = parallel_sweep(pool, game_id, args.games, 0, args.pictures_every, parts)
            total.add(tally)
            rows.append([game_id, tally, time.perf_counter() - t0])
            print(f"{game_id}: done in {rows[-1][2]:.0f} s", file=sys.stderr, flush=True)
    head = f"{'game':<16}{'games':>7}{'states':>10}{'checks':>11}{'scrambles':>11}{'w/ teeth':>10}"
    head += f"{'pictures':>10}{'refusals':>10}{'cut':>5}{'leaks':>7}{'secs':>7}"
    print(head)
    for game_id, t, secs in [*rows, ["total", total, sum(r[2] for r in rows)]]:
        print(
            f"{game_id:<16}{t.games:>7}{t.states:>10}{t.checks:>11}{t.scrambles:>11}{t.scrambles_with_teeth:>10}"
            f"{t.pictures:>10}{t.refusals:>10}{t.truncated:>5}{0:>7}{secs:>7.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
