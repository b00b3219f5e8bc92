"""Earlier positions of a game for the replay viewer: the table's log replayed from its seed, the view (public, or
one seat's once the game is over) after every logged move.

Replaying is pure Python and cheap (a whole game of Buccaneer, the longest, takes about 0.1 s with its views), so
it runs in a thread, once per table and move count: the views are kept for the few tables being replayed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.host.posts import private_summary
from bot.infra.replay import Move
from bot.infra.store import Store
from bot.transports.web.cache import Cache
from bot.transports.web.snapshot import Snapshot
from rules import registry

#: replays (one table, one seat or the public, one move count) kept at once; a long game's views are about 1 MB
KEPT = 8


def replay_views(
    game_id: str, players: int, options: dict[str, str], seed: str, moves: Sequence[Move], seat: int | None
) -> list[dict[str, Any]]:
    """The view of ``seat`` (None: the public view) after every logged move: item n is the position after move n,
    item 0 the deal. An ``undo`` takes back the newest move still standing, as the host did."""
    game = registry.get(game_id)
    chain = [game.new(players, options, seed)]
    views = [game.view(chain[0], seat)]
    for kind, s, action in moves:
        if kind == "undo":
            if len(chain) > 1:
                chain.pop()
        else:
            chain.append(game.apply(chain[-1], int(s or 0), str(action))[0])
        views.append(game.view(chain[-1], seat))
    return views


def seat_summaries(game_id: str, public: list[dict[str, Any]], mine: list[dict[str, Any]], seat: int) -> list[str]:
    """What ``seat`` held after every move, in the words of its ``/hand`` (a replay from its view)."""
    game = registry.get(game_id)
    return [private_summary(game, p, m, seat) for p, m in zip(public, mine, strict=True)]


class Positions:
    """The views of every position of recently replayed tables."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._views: Cache[list[dict[str, Any]]] = Cache(KEPT)

    async def views(self, snap: Snapshot, seat: int | None) -> list[dict[str, Any]]:
        """The views of ``snap``'s table from the deal to move ``snap.n``, for ``seat`` or the public. A seat's
        views are only asked for once the game is over (the caller checks)."""

        async def replay() -> list[dict[str, Any]]:
            moves: list[Move] = [(e.kind, e.seat, e.action) for e in await self.store.tables.log(snap.table_id) if e.n <= snap.n]
            row = snap.row
            players = row.players or len(snap.seats)
            return await asyncio.to_thread(replay_views, row.game_id, players, row.options, row.seed, moves, seat)

        return await self._views.get((snap.table_id, seat, snap.n), replay)
