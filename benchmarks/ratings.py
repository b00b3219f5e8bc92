"""What skill ratings cost: the game-ending commit with and without its rating update, and a full rebuild.

``python -m benchmarks.ratings [--games 400] [--db URL]`` fills a fresh store (a temporary SQLite file unless
``--db`` names another, which must be empty) with finished games: final states of seeded random Cartagena,
Martinique and Flagon playouts, seated from a pool of 30 players and the AI levels, on 3 servers. Each game is
stored as its lobby, its start and one game-ending ``store.append``, alternately with and without the rating
update, and the two kinds of append are timed. Then ``bot.host.ratings_rebuild.rebuild`` re-rates them all. Figures are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.host import ratings as R
from bot.host.ratings_rebuild import rebuild
from bot.infra.store import Commit, SeatRow, Store
from rules import playout, registry

GAMES = (("cartagena", 4, {}), ("martinique", 2, {}), ("flagon", 4, {"length": "short"}))
FINALS_PER_GAME = 8
PLAYERS = 30


def finals() -> list[tuple[str, int, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(game id, players, options, first state, final state) of a few seeded random playouts per game."""
    out = []
    for game_id, players, options in GAMES:
        game = registry.get(game_id)
        for k in range(FINALS_PER_GAME):
            seed = f"bench:{k}"
            final, _ = playout.play(game, players, options, seed, playout.random_chooser(random.Random(seed)))
            out.append((game_id, players, options, game.dump(game.new(players, options, seed)), game.dump(final)))
    return out


async def fill(store: Store, games: int, rnd: random.Random) -> tuple[list[float], list[float]]:
    """Store ``games`` finished games; the seconds of each game-ending append, with and without rating."""
    done = finals()
    with_rating: list[float] = []
    without: list[float] = []
    now = 1_700_000_000.0
    for i in range(games):
        game_id, players, options, first, final = done[rnd.randrange(len(done))]
        guild = 1 + i % 3
        people = rnd.sample(range(PLAYERS), players)
        seats = [
            SeatRow(s, None, f"AI {s}", rnd.choice(["easy", "normal"]))
            if p < 4
            else SeatRow(s, 1000 + p, f"player{p}", None)
            for s, p in enumerate(people)
        ]
        table_id = await store.tables.create(
            guild_id=guild,
            channel_id=guild * 10,
            game_id=game_id,
            host_id=1,
            options=options,
            seed="s",
            ai_seed="a",
            now=now,
            seats=seats,
        )
        await store.tables.begin(table_id, seats, first, now)
        now += 60.0
        outcome = registry.get(game_id).outcome(registry.get(game_id).load(final))
        rate = i % 2 == 0
        rating = (
            R.rated_game(
                table_id=table_id,
                guild_id=guild,
                game_id=game_id,
                finished=now,
                seats=[(s.seat, s.user_id, s.name, s.ai_level, s.vacated) for s in seats],
                outcome=outcome,
            )
            if rate
            else None
        )
        started = time.perf_counter()
        await store.append(Commit(
            table_id,
            n=1,
            kind="action",
            seat=0,
            action="end",
            by_ai=False,
            user_id=None,
            public=["ends"],
            snapshot=final,
            now=now,
            finished=True,
            rating=rating,
            rater=R.RATER,
        ))
        (with_rating if rate else without).append(time.perf_counter() - started)
    return with_rating, without


def ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1e3:.2f} ms, p95 {sorted(values)[int(0.95 * len(values))] * 1e3:.2f} ms"
    )


async def run(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(url or str(Path(tmp) / "ratings.sqlite3"))
        await store.open()
        try:
            with_rating, without = await fill(store, games, random.Random(7))
            print(f"{store!r}: {games} finished games stored")
            print(f"game-ending append with its rating update:    {ms(with_rating)} ({len(with_rating)} games)")
            print(f"game-ending append without (the same games):  {ms(without)} ({len(without)} games)")
            started = time.perf_counter()
            rated = await rebuild(store)
            took = time.perf_counter() - started
            print(f"ratings rebuild: {rated} games in {took:.2f} s ({took / max(rated, 1) * 1e3:.2f} ms per game)")
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--db", default=None, help="an empty store's URL (default: a temporary SQLite file)")
    args = ap.parse_args(argv)
    asyncio.run(run(args.games, args.db))


if __name__ == "__main__":
    main()
