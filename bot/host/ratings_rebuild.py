"""Ratings computed again from every finished game: each final snapshot loaded by its game's engine for the
outcome, the seats turned into rating entries (bot/host/ratings.py), the games rated in the order they ended.

The store only reads the finished tables and writes rating rows (bot/infra/store/ratings.py); replaying games
through their engines is the host's. Used by ``parley ratings rebuild`` and, once, at start-up for the games
finished before ratings existed (:func:`rate_earlier_games`).
"""

from __future__ import annotations

import logging

from bot.host import ratings as R
from bot.infra.store import FinishedTable, RatedGame, Store
from rules import registry
from rules.core import IllegalAction

log = logging.getLogger("parley.ratings")


def rated(table: FinishedTable) -> RatedGame | None:
    """A finished table's rating input, from its game's current rules; None when nothing is rated, or its
    snapshot can no longer be loaded (an old state version, a game no longer offered: logged)."""
    try:
        game = registry.get(table.game_id)
        outcome = game.outcome(game.load(table.snapshot))
    except (KeyError, IllegalAction) as exc:
        log.warning("table %s not rated: %s", table.table_id, exc)
        return None
    return R.rated_game(
        table_id=table.table_id,
        guild_id=table.guild_id,
        game_id=table.game_id,
        finished=table.finished,
        seats=[(s.seat, s.user_id, s.name, s.ai_level, s.vacated) for s in table.seats],
        outcome=outcome,
    )


async def rated_games(store: Store) -> list[RatedGame]:
    """The rating input of every finished table, in the order the games ended (their final move's time, then
    table id)."""
    return [g async for t in store.ratings.finished() if (g := rated(t)) is not None]


async def rebuild(store: Store) -> int:
    """Recompute every rating from the finished tables, in order, in one transaction; returns the games rated.

    Incremental updates do exactly this one game at a time, so a rebuild changes nothing unless the rules
    of rating changed (or the tables were edited by hand)."""
    return await store.ratings.rebuild(rated, R.RATER) or 0


async def rate_earlier_games(store: Store) -> None:
    """Migration 5's data step, run at start-up after the schema migration: rate the games finished before
    ratings existed, once. The marker is deleted in the same transaction as the ratings are written, so a
    crash half-way rates them all again at the next start, and a second process starting at the same time
    finds nothing left to do."""
    if not await store.ratings.pending():
        return
    rated_count = await store.ratings.rebuild(rated, R.RATER, if_pending=True)
    if rated_count is not None:
        log.info("rated %d earlier games", rated_count)
