"""A bounded cache that computes each missing value once, however many requests ask for it at the same moment
(200 spectators asking for the picture of the move that just happened make one drawing)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Cache(Generic[V]):
    """At most ``entries`` values, and at most ``size_limit`` by ``size`` (bytes of a picture, say); least
    recently used first out. A computation that fails is not kept: the next request tries again."""

    def __init__(self, entries: int, size_limit: int | None = None, size: Callable[[V], int] | None = None) -> None:
        self.entries = entries
        self.size_limit = size_limit
        self.size = size or (lambda _: 0)
        self.total = 0
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[V]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def peek(self, key: Hashable) -> V | None:
        return self._kept.get(key)

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[V]]) -> V:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        pending = self._pending.get(key)
        if pending is None:
            # a task of its own: a request that goes away (its reader closed the tab) stops waiting for the value,
            # never the others waiting for the same one
            pending = self._pending[key] = asyncio.ensure_future(self._compute(key, compute))
            pending.add_done_callback(_retrieved)
        return await asyncio.shield(pending)

    async def _compute(self, key: Hashable, compute: Callable[[], Awaitable[V]]) -> V:
        try:
            value = await compute()
        finally:
            del self._pending[key]
        self._keep(key, value)
        return value

    def _keep(self, key: Hashable, value: V) -> None:
        self._kept[key] = value
        self.total += self.size(value)
        while len(self._kept) > self.entries or (self.size_limit is not None and self.total > self.size_limit):
            _, old = self._kept.popitem(last=False)
            self.total -= self.size(old)


def _retrieved(task: asyncio.Future[object]) -> None:
    """A failure nobody waited for any more is still seen (no "exception was never retrieved" warning): each
    waiter got it, or there was none left."""
    if not task.cancelled():
        task.exception()
