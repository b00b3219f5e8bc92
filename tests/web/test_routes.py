"""Every route of the web pages: status codes, headers, what each page holds, 404 for unknown and hidden tables,
rate limits and caps on live connections."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.transports.web import pages
from bot.transports.web.guard import CSP
from tests.web.conftest import ANA, BASE, BEN, CHANNEL, CID, Events, Site, SiteFactory, play_one, start_cartagena

SECURITY = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


def secure(headers: dict[str, str]) -> None:
    for name, value in SECURITY.items():
        assert headers.get(name) == value, (name, headers.get(name))
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in headers["Content-Security-Policy"]


def no_inline_code(html: str) -> None:
    """The pages keep to the policy: every script from a file, no inline handler, no inline style."""
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert not re.search(r"\son[a-z]+\s*=", html), "an inline event handler"
    assert not re.search(r"\sstyle\s*=", html) and "<style" not in html, "an inline style"


async def finish(site: Site) -> None:
    for _ in range(3000):
        if not await play_one(site.host):
            return
    raise AssertionError("the game did not end")


async def test_the_table_page_shows_the_table_and_previews_its_public_board(site: Site) -> None:
    await start_cartagena(site.host)
    await play_one(site.host)
    slug = await site.slug()
    status, headers, body = await site.get(f"/t/{slug}")
    html = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    secure(headers)
    no_inline_code(html)
    assert headers["Cache-Control"] == "no-cache"
    assert "Ana (Red)" in html and "Ben (Blue)" in html and "▶ Ana (Red)" in html
    assert f'data-events="/t/{slug}/events?since=1"' in html
    # the link preview: the public board of this move, at the public address
    assert f'<meta property="og:image" content="{BASE}/t/{slug}/board/1.png">' in html
    assert f'<meta property="og:url" content="{BASE}/t/{slug}">' in html
    assert "seat/board" not in html
    # the narration of the move the channel saw
    summary = site.host.table_for(CHANNEL)
    entry = (await site.host.store.tables.log(summary.table_id))[0]
    assert entry.public[0] in html


async def test_json_board_replay_and_static_routes(site: Site) -> None:
    await start_cartagena(site.host)
    await play_one(site.host)
    await play_one(site.host)
    slug = await site.slug()
    data = await site.json(f"/t/{slug}/state.json")
    assert data["table"]["n"] == 2 and data["table"]["status"] == "running"
    assert [m["n"] for m in data["moves"]] == [1, 2]

    status, headers, png = await site.get(f"/t/{slug}/board/2.png")
    assert status == 200 and headers["Content-Type"] == "image/png" and png.startswith(b"\x89PNG")
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    secure(headers)
    assert (await site.get(f"/t/{slug}/board/0.png"))[0] == 200  # an earlier position, replayed
    assert (await site.get(f"/t/{slug}/board/3.png"))[0] == 404  # not played yet
    assert (await site.get(f"/t/{slug}/board/2.png?seat=1"))[0] == 404  # a seat's view: not while it runs
    assert (await site.get(f"/t/{slug}/board/x.png"))[0] == 404

    status, headers, body = await site.get(f"/t/{slug}/replay?n=1")
    assert status == 200
    no_inline_code(body.decode())
    assert "Move <b id=\"at\">1</b> of 2" in body.decode()
    replay = await site.json(f"/t/{slug}/replay.json")
    assert [m["n"] for m in replay["moves"]] == [0, 1, 2] and not replay["over"]
    assert all(m["action"] == "" for m in replay["moves"])  # a running game's action texts may be secret
    assert (await site.get(f"/t/{slug}/replay.json?seat=1"))[0] == 404

    for name in pages.VERSIONS:
        status, headers, _ = await site.get(pages.static(name))
        assert status == 200 and headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert (await site.get("/static/app.py"))[0] == 404
    assert (await site.get("/static/../app.py"))[0] == 404
    status, headers, body = await site.get("/")
    assert status == 200 and b"Parley" in body
    secure(headers)


async def test_unknown_addresses_and_hidden_tables_are_404_everywhere(site: Site) -> None:
    await start_cartagena(site.host)
    await play_one(site.host)
    slug = await site.slug()
    table_id = site.host.table_for(CHANNEL).table_id
    routes = ["", "/state.json", "/events", "/board/0.png", "/replay", "/replay.json", "/seat", "/seat/state.json"]
    for route in routes:
        for path in (f"/t/nope{route}", f"/t/{table_id}{route}", f"/t/{slug[:-1]}{route}"):
            status, headers, body = await site.get(path)
            assert status == 404, path
            secure(headers)
    assert b"No table here" in (await site.get(f"/t/{table_id}"))[2]

    # the server turns its pages off: the table answers exactly like an unknown address, in every process soon
    out = await site.host.config(ANA.__class__(1, CHANNEL, 900, "Boss", moderator=True, admin=True), web_pages=False)
    assert out.ok and "tables shown on the web: no" in out.reply
    site.app.links._settings.clear()  # noqa: SLF001 - as if the setting's few seconds had passed
    for route in routes:
        status, _, body = await site.get(f"/t/{slug}{route}")
        assert status == 404 and b"No table here" in body, route


async def test_a_lobby_and_a_finished_game(site: Site) -> None:
    assert (await site.host.open(ANA, "cartagena", {"mode": "jamaica"})).ok
    assert (await site.host.join(BEN)).ok
    slug = await site.slug()
    status, _, body = await site.get(f"/t/{slug}")
    assert status == 200 and b"Waiting for players" in body and b"Ben" in body
    assert (await site.get(f"/t/{slug}/board/0.png"))[0] == 404
    assert (await site.get(f"/t/{slug}/replay"))[0] == 404

    assert (await site.host.start_table(ANA)).ok
    await finish(site)
    data = (await site.json(f"/t/{slug}/state.json"))["table"]
    assert data["over"] and data["status"] == "finished" and data["result"] and data["prompt"] == ""
    replay = await site.json(f"/t/{slug}/replay.json")
    # once it is over, the whole record: who played what (never the seed)
    assert replay["over"] and all(m["action"] for m in replay["moves"][1:])
    assert (await site.get(f"/t/{slug}/board/1.png?seat=2"))[0] == 200
    assert (await site.get(f"/t/{slug}/board/1.png?seat=3"))[0] == 404
    seat = await site.json(f"/t/{slug}/replay.json?seat=2")
    assert seat["seat"] == 2 and len(seat["summaries"]) == len(seat["moves"])
    status, _, body = await site.get(f"/t/{slug}/replay?n=3&seat=2")
    assert status == 200 and b"Ben (Blue): private view" in body and b"Whose view" in body
    row = await site.host.store.tables.get(site.host.index.last[CHANNEL])  # noqa: SLF001
    for path in ("", "/state.json", "/replay", "/replay.json", "/replay.json?seat=1"):
        text = (await site.get(f"/t/{slug}{path}"))[2].decode()
        assert row.seed not in text and row.ai_seed not in text, path


async def test_private_addresses_are_never_stored_and_refuse_without_a_link(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    for path in (f"/t/{slug}/seat", f"/t/{slug}/seat/state.json", f"/t/{slug}/seat/events", f"/t/{slug}/seat/board/0.png"):
        status, headers, body = await site.get(path)
        assert status == 403, path
        assert headers["Cache-Control"] == "no-store, private"
        secure(headers)
    assert b"/hand" in (await site.get(f"/t/{slug}/seat"))[2]
    status, headers, _ = await site.get("/s/garbage")
    assert status == 403 and headers["Cache-Control"] == "no-store, private"


async def test_events_are_a_stream_with_move_ids(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    events = await Events.open(site, f"/t/{slug}/events")
    assert events.response.headers["Content-Type"].startswith("text/event-stream")
    secure(dict(events.response.headers))
    first = await events.next()
    assert first.event == "table" and first.id is None and first.data["n"] == 0
    await play_one(site.host)
    move, table = await events.next(), await events.next()
    assert (move.event, move.id, move.data["n"]) == ("move", 1, 1) and table.data["n"] == 1
    events.close()


async def test_rate_limit_per_address(make_site: SiteFactory) -> None:
    site = await make_site(rate=0.5, burst=3)
    for _ in range(3):
        assert (await site.get("/"))[0] == 200
    status, headers, _ = await site.get("/")
    assert status == 429 and int(headers["Retry-After"]) >= 1
    secure(headers)
    # behind a proxy on the same machine, each client is counted by the address the proxy saw
    assert (await site.get("/", headers={"X-Forwarded-For": "203.0.113.9"}))[0] == 200


async def test_live_connections_are_capped_per_table_and_per_address(make_site: SiteFactory) -> None:
    site = await make_site(per_table=2, per_address=3)
    await start_cartagena(site.host)
    slug = await site.slug()
    streams = [await Events.open(site, f"/t/{slug}/events") for _ in range(2)]
    for s in streams:
        await s.next()
    status, headers, _ = await site.get(f"/t/{slug}/events")
    assert status == 503 and headers["Retry-After"]
    # another table still has room, until the address has its three
    c2 = ANA.__class__(1, CHANNEL + 1, ANA.user_id, "Ana", moderator=True)
    assert (await site.host.open(c2, "cartagena", {})).ok
    other = await site.slug(site.host.table_for(CHANNEL + 1).table_id)
    third = await Events.open(site, f"/t/{other}/events")
    await third.next()
    status, _, _ = await site.get(f"/t/{other}/events")
    assert status == 429
    for s in [*streams, third]:
        s.close()
    await asyncio.sleep(0.1)
    again = await Events.open(site, f"/t/{slug}/events")  # a closed stream frees its place
    await again.next()
    again.close()


async def test_html_escapes_what_players_write(site: Site) -> None:
    evil = ANA.__class__(1, CHANNEL, 555, '<script>alert(1)</script>"><img src=x onerror=alert(2)>')
    assert (await site.host.open(ANA, "cartagena", {})).ok
    assert (await site.host.join(evil)).ok
    slug = await site.slug()
    html = (await site.get(f"/t/{slug}"))[2].decode()
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    data = await site.json(f"/t/{slug}/state.json")
    assert any("<script>" in s["name"] for s in data["table"]["seats"])  # JSON carries the text as text


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
async def test_pages_are_read_only(site: Site, method: str) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    async with site.http.request(method, f"{site.url}/t/{slug}") as r:
        assert r.status == 405
        secure(dict(r.headers))


async def test_head_requests_and_a_spectator_has_no_seat(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    async with site.http.head(f"{site.url}/t/{slug}") as r:
        assert r.status == 200
    assert CID.user_id not in [s.user_id for s in site.host.table_for(CHANNEL).seats]
    body = json.dumps(await site.json(f"/t/{slug}/state.json"))
    assert "you" not in json.loads(body)["table"]
