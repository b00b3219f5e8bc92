"""The web pages' routes, and :class:`WebApp`, which assembles the parts and serves them.

- ``/t/<slug>``: a table, live (board, whose turn and what is owed, seats, moves); ``/state.json`` the same as JSON,
  ``/events`` as server-sent events (resumed after ``Last-Event-ID``);
- ``/t/<slug>/board/<n>.png``: the public board after move n (``?seat=k`` once the game is over);
- ``/t/<slug>/replay`` and ``/replay.json``: every move, stepped (``?n=``; ``?seat=k`` once the game is over);
- ``/s/<token>``: a seat link from ``/hand``, traded for a cookie, then the browser sent on to ``/t/<slug>/seat``;
- ``/t/<slug>/seat`` (``/state.json``, ``/events``, ``/board/<n>.png``): that player's private page.

A table is found by its slug only, and a table whose server turned the pages off answers exactly as an unknown
address (404). Public pages carry a link preview of the public board; private ones none, and ``no-store``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from bot.infra.pictures import Pictures
from bot.infra.store import LogRow, Store
from bot.transports.web import pages
from bot.transports.web.boards import Boards
from bot.transports.web.cache import Cache
from bot.transports.web.feed import POLL_SECONDS
from bot.transports.web.guard import BURST, PRIVATE, RATE, RateLimit, add_headers, client_address
from bot.transports.web.links import COOKIE, COOKIE_SECONDS, LINK, SeatPass, WebLinks
from bot.transports.web.live import Full, Hub
from bot.transports.web.positions import Positions, seat_summaries
from bot.transports.web.snapshot import Snapshot, move_event
from bot.transports.web.source import Source

log = logging.getLogger("parley.web")

#: moves listed on a table or seat page when it is loaded (the replay has them all)
PAGE_MOVES = 60
#: live connections one table may have, and one address
PER_TABLE = 500
PER_ADDRESS = 20
#: the seat cookie's name (its path is the seat page's, so no other page ever receives it)
SEAT_COOKIE = "parley_seat"
#: a board picture never changes once its move is logged
IMMUTABLE = "public, max-age=31536000, immutable"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class AccessLog(AbstractAccessLogger):
    """One line per request at DEBUG, seat links cut out (a link is a bearer credential until it expires)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        path = re.sub(r"^/s/[^/?]+", "/s/[link]", request.path)
        self.logger.debug("%s %s %s %.1f ms", request.method, path, response.status, time * 1000)

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.DEBUG)


def _int(text: str | None, default: int | None = None) -> int | None:
    if text is None or not text.strip().isdigit() or len(text.strip()) > 9:
        return default
    return int(text.strip())


def _plain(line: str) -> str:
    """A line of the host's text without its Markdown marks (a link preview shows plain text)."""
    return re.sub(r"\*\*|`", "", line.removeprefix("-# ")).strip()


class WebApp:
    """The pages of every table in ``store``, pictures drawn by ``pictures``; ``base_url`` is ``PARLEY_WEB_URL``
    (link previews need absolute addresses; without it, the address each request came to)."""

    def __init__(
        self,
        store: Store,
        pictures: Pictures,
        *,
        base_url: str = "",
        clock: Callable[[], float] = time.time,
        rate: float = RATE,
        burst: float = BURST,
        per_table: int = PER_TABLE,
        per_address: int = PER_ADDRESS,
        poll_seconds: float = POLL_SECONDS,
    ) -> None:
        self.store = store
        self.links = WebLinks(store, base_url, clock)
        self.source = Source(store, self.links)
        self.positions = Positions(store)
        self.boards = Boards(pictures, self.positions)
        self.hub = Hub(store, self.source, per_table=per_table, per_address=per_address, poll_seconds=poll_seconds)
        self.limit = RateLimit(rate, burst)
        self._replays: Cache[dict[str, Any]] = Cache(32)
        self._static = {
            name: ((pages.STATIC / name).read_bytes(), pages.STATIC_TYPES[(pages.STATIC / name).suffix])
            for name in pages.VERSIONS
        }
        self.app = web.Application(middlewares=[self._errors, self.limit.middleware], client_max_size=4096)
        self.app.on_response_prepare.append(add_headers)
        get = self.app.router.add_get
        get("/", self.index)
        get("/static/{name}", self.static)
        get("/s/{token}", self.open_link)
        get("/t/{slug}", self.table)
        get("/t/{slug}/state.json", self.table_json)
        get("/t/{slug}/events", self.events, allow_head=False)
        get(r"/t/{slug}/board/{n:\d{1,9}}.png", self.board)
        get("/t/{slug}/replay", self.replay)
        get("/t/{slug}/replay.json", self.replay_json)
        get("/t/{slug}/seat", self.seat)
        get("/t/{slug}/seat/state.json", self.seat_json)
        get("/t/{slug}/seat/events", self.seat_events, allow_head=False)
        get(r"/t/{slug}/seat/board/{n:\d{1,9}}.png", self.seat_board)
        self.runner: web.AppRunner | None = None
        self.port: int | None = None

    # -- serving -----------------------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host``:``port`` (0: any free port) and follow the tables shown live; returns the port."""
        await self.hub.start()
        self.runner = web.AppRunner(
            self.app,
            access_log_class=AccessLog,
            access_log=logging.getLogger("parley.web.access"),
            shutdown_timeout=3.0,
            # a reader that goes away ends its request at once: an idle event stream frees its place for the next
            handler_cancellation=True,
        )
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port, reuse_address=True)
        await site.start()
        self.port = int(self.runner.addresses[0][1])
        log.info("web pages on %s:%d", host, self.port)
        return self.port

    async def stop(self) -> None:
        await self.hub.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # -- shared ------------------------------------------------------------------------------------------------
    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Unknown addresses and failures answer with a page, never a traceback (the log gets the type only: a
        message might quote something secret)."""
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self._missing()
        except Full as exc:
            if str(exc) == "table":
                text, status = "This table has as many live watchers as it can take; try again in a while.", 503
            else:
                text, status = "Too many live pages are open from your address.", 429
            return web.Response(status=status, text=text + "\n", headers={"Retry-After": "30"})
        except (web.HTTPException, ConnectionError, asyncio.CancelledError):
            raise
        except Exception as exc:  # noqa: BLE001 - a page must always answer
            log.error(
                "web request failed: %s\n%s", type(exc).__name__, "".join(traceback.format_tb(exc.__traceback__))
            )
            html = pages.message_page("Something went wrong", "Parley could not show this page; try again shortly.")
            return web.Response(status=500, text=html, content_type="text/html")

    def _missing(self) -> web.Response:
        html = pages.message_page(
            "No table here",
            "This address shows no table: it may be mistyped, or the table's server does not show its tables on the"
            " web.",
        )
        return web.Response(status=404, text=html, content_type="text/html")

    def _base_url(self, request: web.Request) -> str:
        return self.links.base_url or str(request.url.origin())

    async def _snapshot(self, request: web.Request, at_least: int = 0) -> Snapshot:
        """The table the address names, as shown now (the live copy when this process follows it, unless that is
        older than move ``at_least``); 404 if there is none or its server does not show its tables."""
        slug = request.match_info["slug"]
        table_id = self.source.table_id(slug)
        watch = self.hub.watched(table_id) if table_id is not None else None
        if watch is not None and watch.snap.n >= at_least:
            snap: Snapshot | None = watch.snap
            if not await self.links.enabled(watch.snap.row.guild_id):
                snap = None
        else:
            snap = await self.source.by_slug(slug)
        if snap is None:
            raise web.HTTPNotFound
        return snap

    async def _recent_moves(self, snap: Snapshot) -> list[dict[str, Any]]:
        entries = await self.store.tables.log_since(snap.table_id, max(0, snap.n - PAGE_MOVES))
        return [move_event(e) for e in entries if e.n <= snap.n]

    @staticmethod
    def _json(data: Any, *, private: bool = False) -> web.Response:
        response = web.Response(
            text=json.dumps(data, ensure_ascii=False, separators=(",", ":")), content_type="application/json"
        )
        response.headers["Cache-Control"] = PRIVATE if private else "no-cache"
        return response

    @staticmethod
    def _html(text: str, *, private: bool = False, status: int = 200) -> web.Response:
        response = web.Response(text=text, content_type="text/html", status=status)
        response.headers["Cache-Control"] = PRIVATE if private else "no-cache"
        return response

    def _meta(self, request: web.Request, snap: Snapshot, path: str, n: int | None = None) -> pages.Meta:
        card = snap.card()
        base = self._base_url(request)
        about = card["prompt"] or (card["result"][0] if card["result"] else card["note"]) or card["status_text"]
        n = card["n"] if n is None else n
        return pages.Meta(
            title=f"{card['title']} · {card['status_text']}" + (f" · move {n}" if n else ""),
            description=_plain(about),
            url=f"{base}{path}",
            image=f"{base}{snap.base}/board/{n}.png" if card["board"] else None,
        )

    # -- public pages ------------------------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.Response:
        return self._html(
            pages.message_page(
                "Parley",
                "Parley hosts pirate board games in Discord. Each table has a page here, reached by its link: the"
                " Watch button under the table's board in Discord.",
            )
        )

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._static:
            raise web.HTTPNotFound
        body, kind = self._static[name]
        response = web.Response(body=body, content_type=kind)
        fresh = request.query.get("v") == pages.VERSIONS[name]
        response.headers["Cache-Control"] = IMMUTABLE if fresh else "public, max-age=300"
        return response

    async def table(self, request: web.Request) -> web.Response:
        snap = await self._snapshot(request)
        moves = await self._recent_moves(snap)
        html = pages.table_page(
            snap.card(), moves, snap.base, f"{snap.base}/events?since={snap.n}", self._meta(request, snap, snap.base)
        )
        return self._html(html)

    async def table_json(self, request: web.Request) -> web.Response:
        snap = await self._snapshot(request)
        return self._json({"table": snap.card(), "moves": await self._recent_moves(snap)})

    def _since(self, request: web.Request, snap: Snapshot) -> int:
        """Where a stream resumes: after the browser's last event (a reconnect), else the move its page showed."""
        last = _int(request.headers.get("Last-Event-ID"))
        if last is None:
            last = _int(request.query.get("since"), snap.n)
        return int(last or 0)

    async def events(self, request: web.Request) -> web.StreamResponse:
        snap = await self._snapshot(request)
        return await self.hub.stream(request, snap, self._since(request, snap), client_address(request))

    async def board(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        snap = await self._snapshot(request, at_least=n)
        seat = self._seat_query(request, snap)
        if snap.state is None or n > snap.n:
            raise web.HTTPNotFound
        png = await self.boards.picture(snap, n, seat)
        if png is None:
            return web.Response(status=503, text="The picture could not be drawn; try again.\n",
                                headers={"Retry-After": "2"})
        response = web.Response(body=png, content_type="image/png")
        response.headers["Cache-Control"] = IMMUTABLE
        # a public board may be shown anywhere (a link preview fetched by a chat app)
        response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
        return response

    @staticmethod
    def _seat_query(request: web.Request, snap: Snapshot) -> int | None:
        """``?seat=k`` (from 1): a seat's view, which only a game that is over shows to everyone."""
        text = request.query.get("seat")
        if text is None or text == "":
            return None
        seat = _int(text)
        if seat is None or not snap.over or snap.state is None or not 1 <= seat <= len(snap.seats):
            raise web.HTTPNotFound
        return seat - 1

    async def _replay_data(self, snap: Snapshot, seat: int | None) -> dict[str, Any]:
        """Every move of the game: its narration; once the game is over, who played what (the record the channel's
        ``/table history`` gives); for a seat, what it held after each move."""

        async def build() -> dict[str, Any]:
            entries: list[LogRow] = [e for e in await self.store.tables.log(snap.table_id) if e.n <= snap.n]
            t, view = snap.table(), snap.public_view()
            moves: list[dict[str, Any]] = [{"n": 0, "lines": ["The deal."] if snap.state else [], "action": ""}]
            for e in entries:
                move: dict[str, Any] = {"n": e.n, "lines": list(e.public), "action": ""}
                if snap.over and e.seat is not None and view is not None:
                    who = t.who(int(e.seat), view) if int(e.seat) < len(snap.seats) else f"seat {int(e.seat) + 1}"
                    move["action"] = f"{who}: ↩ undo" if e.kind == "undo" else f"{who}: {e.action}" + (
                        " (AI)" if e.by_ai else ""
                    )
                moves.append(move)
            data: dict[str, Any] = {"n": snap.n, "over": snap.over, "title": snap.card()["title"], "moves": moves}
            if seat is not None:
                public = await self.positions.views(snap, None)
                mine = await self.positions.views(snap, seat)
                data["seat"] = seat + 1
                data["summaries"] = [
                    s.splitlines() for s in await asyncio.to_thread(seat_summaries, snap.row.game_id, public, mine, seat)
                ]
            return data

        return await self._replays.get((snap.table_id, snap.n, seat), build)

    async def replay(self, request: web.Request) -> web.Response:
        snap = await self._snapshot(request)
        if snap.state is None:
            raise web.HTTPNotFound
        seat = self._seat_query(request, snap)
        n = _int(request.query.get("n"), snap.n)
        n = min(int(n or 0), snap.n)
        data = await self._replay_data(snap, seat)
        move = data["moves"][n]
        card = snap.card()
        names = [(s["n"], s["name"]) for s in card["seats"]]
        summary = data["summaries"][n] if seat is not None else []
        path = f"{snap.base}/replay?n={n}"
        html = pages.replay_page(
            card, snap.base, n, move["lines"], move["action"], None if seat is None else seat + 1, names, summary,
            self._meta(request, snap, path, n),
        )
        return self._html(html)

    async def replay_json(self, request: web.Request) -> web.Response:
        snap = await self._snapshot(request)
        if snap.state is None:
            raise web.HTTPNotFound
        return self._json(await self._replay_data(snap, self._seat_query(request, snap)))

    # -- a player's seat ------------------------------------------------------------------------------------
    async def open_link(self, request: web.Request) -> web.Response:
        """A seat link: checked, traded for a cookie on the seat page's path, and the browser sent to that page's
        clean address (the link leaves the address bar and its history)."""
        signer = await self.links.signer()
        p = signer.read(request.match_info["token"], LINK, self.links.clock())
        snap = await self.source.by_slug(p.slug) if p is not None else None
        if p is None or snap is None or not await self.source.still_holds(p, snap):
            return self._refused(
                "This seat link has expired or no longer works",
                "Links to your seat last 15 minutes and stop working when you leave the table. Use /hand in Discord"
                " for a fresh one.",
            )
        cookie = SeatPass(COOKIE, p.slug, p.seat, p.user_id, p.generation, int(self.links.clock()) + COOKIE_SECONDS)
        response = web.Response(status=303, headers={"Location": f"{snap.base}/seat", "Cache-Control": PRIVATE})
        response.set_cookie(
            SEAT_COOKIE,
            signer.sign(cookie),
            path=f"{snap.base}/seat",
            max_age=COOKIE_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=self._base_url(request).startswith("https://"),
        )
        return response

    def _refused(self, title: str, text: str) -> web.Response:
        response = self._html(pages.message_page(title, text), private=True, status=403)
        return response

    async def _seat(self, request: web.Request, at_least: int = 0) -> tuple[Snapshot, SeatPass]:
        snap = await self._snapshot(request, at_least)
        p = await self.source.seat_pass(request.cookies.get(SEAT_COOKIE, ""), COOKIE, snap)
        if p is None:
            response = self._refused(
                "Open your seat from Discord",
                "This page shows one player's secrets, so it opens only from that player's private link: use /hand"
                " (or the My hand button) in Discord. A link stops working when its player leaves the table.",
            )
            if SEAT_COOKIE in request.cookies:
                response.del_cookie(SEAT_COOKIE, path=f"{snap.base}/seat")
            raise _Answer(response)
        return snap, p

    async def seat(self, request: web.Request) -> web.Response:
        try:
            snap, p = await self._seat(request)
        except _Answer as answer:
            return answer.response
        html = pages.seat_page(
            snap.card(), snap.seat_card(p.seat), await self._recent_moves(snap), f"{snap.base}/seat/events?since={snap.n}"
        )
        return self._html(html, private=True)

    async def seat_json(self, request: web.Request) -> web.Response:
        try:
            snap, p = await self._seat(request)
        except _Answer as answer:
            return answer.response
        return self._json({"table": snap.card(), "seat": snap.seat_card(p.seat)}, private=True)

    async def seat_events(self, request: web.Request) -> web.StreamResponse:
        try:
            snap, p = await self._seat(request)
        except _Answer as answer:
            return answer.response

        async def allowed(now: Snapshot) -> bool:
            return await self.source.still_holds(p, now) and await self.links.enabled(now.row.guild_id)

        return await self.hub.stream(request, snap, self._since(request, snap), client_address(request), p, allowed)

    async def seat_board(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        try:
            snap, p = await self._seat(request, at_least=n)
        except _Answer as answer:
            return answer.response
        if snap.state is None or n > snap.n or (n != snap.n and not snap.over):
            raise web.HTTPNotFound  # a running game's seat page shows the seat as it is now
        png = await self.boards.picture(snap, n, p.seat)
        if png is None:
            return web.Response(status=503, text="The picture could not be drawn; try again.\n",
                                headers={"Retry-After": "2", "Cache-Control": PRIVATE})
        response = web.Response(body=png, content_type="image/png")
        response.headers["Cache-Control"] = PRIVATE
        return response


class _Answer(Exception):
    """A response to return at once (a refused seat page)."""

    def __init__(self, response: web.Response) -> None:
        super().__init__()
        self.response = response

