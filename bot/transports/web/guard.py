"""What every response carries and what every request is held to: security headers (a strict Content-Security-Policy
with no inline script, no framing, no referrer), rate limits per address, and the client's address itself.

Behind a reverse proxy on the same machine every request comes from 127.0.0.1, so the address of a request from a
loopback peer is the last one its proxy appended to ``X-Forwarded-For``; from anyone else that header is ignored
(a client could write anything in it).
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web

#: every page: scripts, styles, pictures and event streams from this origin only, and nothing inline
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    # unguessable addresses are shared in chats, where a crawler may follow them: keep them out of search engines
    "X-Robots-Tag": "noindex, nofollow",
}
#: what a private page (a seat's, its pictures and events, the link that opens it) says to every cache
PRIVATE = "no-store, private"

#: requests per second an address may make on average, and in a burst (a replay stepped quickly draws one picture
#: a step; a page is four or five requests)
RATE = 20.0
BURST = 80.0
#: addresses whose bucket is remembered (the least recently seen are forgotten first, as if refilled)
REMEMBERED = 20_000


def client_address(request: web.Request) -> str:
    """The address a request comes from (see the module's note on proxies)."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded:
        try:
            loopback = ipaddress.ip_address(peer).is_loopback
        except ValueError:
            loopback = peer.startswith("unix")
        if loopback:
            last = forwarded.split(",")[-1].strip()
            if last:
                return last[:64]
    return peer


#: the private addresses: a seat link, and a seat's page, JSON, events and pictures
PRIVATE_PATHS = re.compile(r"^/(?:s/|t/[^/]+/seat(?:/|$))")


async def add_headers(request: web.Request, response: web.StreamResponse) -> None:
    """The security headers, on every response (pages, pictures, events, errors) just before it is sent; whatever
    answers a private address is never stored by a browser, a proxy or a cache."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if PRIVATE_PATHS.match(request.path):
        response.headers["Cache-Control"] = PRIVATE
    else:
        response.headers.setdefault("Cache-Control", "no-cache")


class RateLimit:
    """A token bucket per address: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, address: str) -> float:
        """0 if the address may make a request now (and it is counted), else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[address] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[address] = (tokens - 1.0, now)
        self._buckets.move_to_end(address)
        while len(self._buckets) > REMEMBERED:
            self._buckets.popitem(last=False)
        return 0.0

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        wait = self.wait(client_address(request))
        if wait > 0:
            return web.Response(
                status=429,
                text="Too many requests from your address; wait a moment and try again.\n",
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )
        return await handler(request)
