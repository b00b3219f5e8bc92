"""Pictures for the pages: drawn by the render pool (:class:`bot.infra.pictures.Pictures`, never on the event loop) from
the public view of a position, or from one seat's view, and kept per (table, move, seat): a position never
changes once logged, so each is drawn once however many spectators ask."""

from __future__ import annotations

from bot.infra.pictures import Pictures
from bot.transports.web.cache import Cache
from bot.transports.web.positions import Positions
from bot.transports.web.snapshot import Snapshot

#: bytes of pictures kept (a board is 25–150 KB)
KEPT_BYTES = 64 * 2**20


class NotDrawn(Exception):
    """The render pool could not draw the picture (logged by the pool); not kept, so the next request tries again."""


class Boards:
    def __init__(self, pictures: Pictures, positions: Positions, kept_bytes: int = KEPT_BYTES) -> None:
        self.pictures = pictures
        self.positions = positions
        self._png: Cache[bytes] = Cache(4096, kept_bytes, len)

    async def picture(self, snap: Snapshot, n: int, seat: int | None = None) -> bytes | None:
        """PNG of the position after move ``n`` (0 ≤ n ≤ ``snap.n``): the public board, or ``seat``'s private
        picture. The caller decides who may see which (a seat's earlier positions only once the game is over)."""

        async def draw() -> bytes:
            if n == snap.n and snap.state is not None:
                view = snap.public_view() if seat is None else snap.game.view(snap.state, seat)
            else:
                view = (await self.positions.views(snap, seat))[n]
            png = await self.pictures.render(snap.row.game_id, view, seat)
            if png is None:
                raise NotDrawn
            return png

        try:
            return await self._png.get((snap.table_id, n, seat), draw)
        except NotDrawn:
            return None
