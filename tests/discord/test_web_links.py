"""With web pages (``PARLEY_WEB_URL``), board posts carry a Watch link to the table's page, the final board a link to
its replay, and ``/hand`` and My hand a private link to the player's seat page; ``/config web_pages:False`` takes
them all away. Without web pages nothing changes (tests/discord/test_flows.py)."""

from __future__ import annotations

import re

from bot.transports.web.links import WebLinks
from tests.discord.conftest import World, answer, reply
from tests.discord.helpers import play_turn_by_slash

BASE = "https://parley.example"


def links(message) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(label, url) of a message's link buttons."""
    return [(item.label, item.url) for row in message.components for item in row.children if item.url]


async def test_boards_link_to_the_table_page_and_hand_to_the_seat_page(world: World) -> None:
    w = world
    w.bot.delivery.web_links = WebLinks(w.host.store, BASE)
    await w.open_table(w.ana, w.bo, ai=0, mode="jamaica")
    table_id = w.summary().table_id
    slug = await w.bot.delivery.web_links.slug(table_id)
    board = w.current_board()
    labels = [item.label for row in board.components for item in row.children]
    assert labels == ["Take your turn", "My hand", "Zoom", "Watch"]
    assert links(board) == [("Watch", f"{BASE}/t/{slug}")]
    assert slug != str(table_id) and len(slug) >= 20

    # /hand: the private view, and first a link to the seat page that only its player sees
    text = reply(await w.bo.slash(w.channel, "hand"))
    found = re.match(rf"🌐 \[Follow your seat live in a browser\]\(<({re.escape(BASE)}/s/[^>]+)>\)", text)
    assert found and "Your private view" in text
    result = await w.ana.click(board, label="My hand")
    assert answer(result).ephemeral and f"{BASE}/s/" in answer(result).content
    # a spectator has no seat: no link
    assert f"{BASE}/s/" not in reply(await w.cy.slash(w.channel, "hand"))

    # the server turns its pages off: no more links
    result = await w.mod.slash(w.channel, "config", web_pages=False)
    assert "tables shown on the web: no" in reply(result)
    w.bot.delivery.web_links._settings.clear()  # noqa: SLF001 - as if the setting's few seconds had passed
    before = w.current_board().id
    while w.current_board().id == before:
        await play_turn_by_slash(w)
    assert links(w.current_board()) == []
    assert f"{BASE}/s/" not in reply(await w.to_act()[0].slash(w.channel, "hand"))


async def test_the_final_board_links_to_the_replay(world: World) -> None:
    w = world
    w.bot.delivery.web_links = WebLinks(w.host.store, BASE)
    await w.open_table(w.ana, ai=1)
    slug = await w.bot.delivery.web_links.slug(w.summary().table_id)
    for _ in range(400):
        if w.summary().status != "running":
            break
        await play_turn_by_slash(w)
    final = next(m for m in w.messages() if m.attachments and m.attachments[0].filename == "final.png")
    assert links(final) == [("Replay", f"{BASE}/t/{slug}/replay")]


async def test_a_long_hand_gives_way_to_the_link(world: World) -> None:
    from bot.host.tables import Caller, Outputs
    from bot.transports.discord.seatlink import with_seat_link

    w = world
    links = WebLinks(w.host.store, BASE)
    await w.open_table(w.ana, ai=1)
    table_id = w.summary().table_id
    long = "\n".join(["Your private view (Ana (Red)):", *[f"fine print line {i} " + "x" * 60 for i in range(40)]])
    out = await with_seat_link(links, Caller(1, w.channel.id, w.ana.id, "ana"), Outputs(reply=long, seat=(table_id, 0)))
    assert len(out.reply) <= 2000 and out.reply.startswith("🌐 [Follow your seat") and f"{BASE}/s/" in out.reply
    assert "Your private view" in out.reply and "fine print line 39" not in out.reply
