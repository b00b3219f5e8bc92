"""``/hand`` and the My hand button with, when the tables have web pages, a private link to the player's seat page
(:mod:`bot.transports.web.links`): one line on top of the ephemeral answer, seen by that player alone."""

from __future__ import annotations

import logging

from bot.host.tables import Caller, Outputs
from bot.transports.discord.interact import MAX_CONTENT
from bot.transports.web.links import LINK_SECONDS, WebLinks

log = logging.getLogger("parley.discord")


async def with_seat_link(links: WebLinks | None, caller: Caller, out: Outputs) -> Outputs:
    """``out`` (a ``/hand`` answer) with a link to the caller's seat page first, if the web pages are on."""
    if links is None or not out.ok or out.seat is None:
        return out
    table_id, seat = out.seat
    try:
        url = await links.seat_link(table_id, seat, caller.user_id)
    except Exception:  # the hand itself still answers
        log.exception("could not make a seat link for table %s", table_id)
        return out
    if url is not None:
        # <…> keeps Discord from fetching the link for a preview: it is for this player's browser only
        minutes = LINK_SECONDS // 60
        head = (
            f"🌐 [Follow your seat live in a browser](<{url}>) · private to you: open it within {minutes} minutes,"
            " don't share it\n"
        )
        lines = out.reply.splitlines()
        # the link comes first and is never cut: the hand's last lines (its fine print) give way if need be
        while len(lines) > 1 and len(head) + len("\n".join(lines)) > MAX_CONTENT:
            lines.pop()
        out.reply = head + "\n".join(lines)
    return out
