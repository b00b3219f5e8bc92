"""Tables' addresses on the web and the signed, expiring links that open a player's seat page.

A table's address is a random slug made on first use (``/t/<slug>``), never its sequential id, so nobody finds a
table without being given its link. A seat link (``/s/<token>``) is a :class:`SeatPass` signed with HMAC-SHA256
under a key every process of a cluster shares (stored once in the database, never logged). The link is good for
:data:`LINK_SECONDS`; opening it trades it for a cookie carrying a longer-lived pass of the same seat. Every pass
also dies when its player no longer holds the seat, and once their links were revoked (they left or were kicked): a pass
carries the generation of the player's links it was made in, and a revocation moves the generation on. A counter
rather than a time, so the clocks of a cluster's machines never matter.

Plain data and the store only (no aiohttp, no discord.py): the Discord transport makes links with it too.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.infra.store import SeatRow, Store

#: seconds a link handed out by /hand stays good: enough to open it, short enough that an old message is harmless
LINK_SECONDS = 15 * 60
#: seconds the browser that opened a link keeps the seat (a game with day-long turns lasts days)
COOKIE_SECONDS = 7 * 24 * 3600
#: the name of the signing key among the stored web keys
KEY_NAME = "seat-links"
#: a pass's kinds: the link in a message, the cookie it was traded for
LINK, COOKIE = "L", "C"
#: seconds a server's setting (pages on or off) is trusted before it is read again
SETTING_SECONDS = 10.0
#: tables whose slug and guild a process remembers
REMEMBERED = 4096


def new_slug() -> str:
    """A fresh table address: 128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class SeatPass:
    """What a seat link or cookie says: which seat of which table, for which player, in which generation of their
    links, and good until when (seconds since the epoch)."""

    kind: str
    slug: str
    seat: int
    user_id: int
    generation: int
    expires: int

    def payload(self) -> bytes:
        return f"{self.kind}:{self.slug}:{self.seat}:{self.user_id}:{self.generation}:{self.expires}".encode("ascii")


class Signer:
    """Signs and reads seat passes with one key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def __repr__(self) -> str:
        return "Signer(<key>)"  # the key never reaches a log line or a traceback

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, b"parley-seat:" + payload, hashlib.sha256).digest()[:18]

    def sign(self, p: SeatPass) -> str:
        payload = p.payload()
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def read(self, token: str, kind: str, now: float) -> SeatPass | None:
        """The pass ``token`` carries if it is well formed, of ``kind``, signed with this key and not expired."""
        if not token or len(token) > 400 or token.count(".") != 1:
            return None
        head, _, mac = token.partition(".")
        try:
            payload, given = _unb64(head), _unb64(mac)
        except (binascii.Error, ValueError):
            return None
        if not hmac.compare_digest(given, self._mac(payload)):
            return None
        try:
            k, slug, seat, user, generation, expires = payload.decode("ascii").split(":")
            p = SeatPass(k, slug, int(seat), int(user), int(generation), int(expires))
        except (UnicodeDecodeError, ValueError):
            return None
        if p.kind != kind or p.expires < now:
            return None
        return p


def holds(seats: list[SeatRow], p: SeatPass) -> bool:
    """Whether the pass's player still holds its seat themselves (not left, not kicked, not handed to an AI)."""
    return any(s.seat == p.seat and s.user_id == p.user_id and s.ai_level is None for s in seats)


class WebLinks:
    """Links to tables and seats under ``base_url`` (``PARLEY_WEB_URL``), for any transport: the table's address
    (made on first use), a player's seat link, and whether a server lets its tables be shown at all."""

    def __init__(self, store: Store, base_url: str, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.base_url = base_url.rstrip("/")
        self.clock = clock
        self._signer: Signer | None = None
        self._slugs: OrderedDict[int, str] = OrderedDict()
        self._guilds: OrderedDict[int, int] = OrderedDict()
        self._settings: dict[int, tuple[float, bool]] = {}

    async def signer(self) -> Signer:
        """The signer with the cluster's key (made and stored by the first process that needs it)."""
        if self._signer is None:
            key = await self.store.web.key(KEY_NAME, secrets.token_hex(32))
            self._signer = Signer(bytes.fromhex(key))
        return self._signer

    async def slug(self, table_id: int) -> str:
        slug = self._slugs.get(table_id)
        if slug is None:
            slug = await self.store.web.slug(table_id, new_slug(), self.clock())
            _remember(self._slugs, table_id, slug)
        return slug

    async def enabled(self, guild_id: int) -> bool:
        """Whether the server lets its tables be shown on the web (``/config web_pages``), read again every few
        seconds so a change reaches every process soon."""
        now = time.monotonic()
        cached = self._settings.get(guild_id)
        if cached is not None and now - cached[0] < SETTING_SECONDS:
            return cached[1]
        on = bool((await self.store.guilds.settings(guild_id)).get("web_pages", True))
        if len(self._settings) > REMEMBERED:
            self._settings.clear()
        self._settings[guild_id] = (now, on)
        return on

    async def _guild(self, table_id: int) -> int | None:
        guild = self._guilds.get(table_id)
        if guild is None:
            row = await self.store.tables.get(table_id)
            if row is None:
                return None
            guild = row.guild_id
            _remember(self._guilds, table_id, guild)
        return guild

    async def table_link(self, table_id: int) -> str | None:
        """The table's page, or None if its server turned the pages off."""
        guild = await self._guild(table_id)
        if guild is None or not await self.enabled(guild):
            return None
        return f"{self.base_url}/t/{await self.slug(table_id)}"

    async def seat_link(self, table_id: int, seat: int, user_id: int) -> str | None:
        """A link that opens ``seat``'s private page for ``user_id``, good for :data:`LINK_SECONDS`; None if the
        server turned the pages off."""
        guild = await self._guild(table_id)
        if guild is None or not await self.enabled(guild):
            return None
        generation = await self.store.web.generation(table_id, user_id)
        p = SeatPass(LINK, await self.slug(table_id), seat, user_id, generation, int(self.clock()) + LINK_SECONDS)
        return f"{self.base_url}/s/{(await self.signer()).sign(p)}"


def _remember(cache: OrderedDict[int, object], key: int, value: object) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > REMEMBERED:
        cache.popitem(last=False)
