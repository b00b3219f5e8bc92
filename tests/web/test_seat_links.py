"""Seat links: a signed, expiring link traded for a cookie and a clean address; refused when expired, tampered
with, for another table, or once its player left or was kicked (even if they come back: a new link is needed)."""

from __future__ import annotations

import json
from http.cookies import SimpleCookie

import aiohttp
from yarl import URL

from bot.transports.web.links import COOKIE, COOKIE_SECONDS, LINK, LINK_SECONDS, SeatPass, Signer, _b64, _unb64
from rules import registry
from tests.host.conftest import Clock, state_of
from tests.secrets.checks import private_lines
from tests.web.conftest import ANA, BASE, BEN, CHANNEL, Events, Site, play_one, start_cartagena


async def link_for(site: Site, seat: int, user_id: int) -> str:
    url = await site.app.links.seat_link(site.host.table_for(CHANNEL).table_id, seat, user_id)
    assert url is not None and url.startswith(f"{BASE}/s/")
    return url.removeprefix(BASE)


async def open_link(site: Site, path: str) -> tuple[int, dict[str, str], str]:
    """Open a seat link as a browser on the public (https) address would: its cookie is kept for the seat page."""
    status, headers, body = await site.get(path)
    if status == 303:
        value = SimpleCookie(headers["Set-Cookie"])["parley_seat"].value
        site.http.cookie_jar.update_cookies({"parley_seat": value}, response_url=URL(site.url + headers["Location"]))
    return status, headers, body.decode()


async def test_a_link_opens_its_seat_page_through_a_cookie_on_a_clean_address(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    path = await link_for(site, 0, ANA.user_id)
    status, headers, _ = await open_link(site, path)
    assert status == 303 and headers["Location"] == f"/t/{slug}/seat"
    assert headers["Cache-Control"] == "no-store, private" and headers["Referrer-Policy"] == "no-referrer"
    cookie = SimpleCookie(headers["Set-Cookie"])["parley_seat"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["secure"]  # PARLEY_WEB_URL is https
    assert cookie["path"] == f"/t/{slug}/seat" and int(cookie["max-age"]) == COOKIE_SECONDS
    assert cookie.value not in path  # the cookie is a new pass, not the link
    status, headers, body = await site.get(f"/t/{slug}/seat")
    html = body.decode()
    assert status == 200 and headers["Cache-Control"] == "no-store, private"
    assert "og:image" not in html and "Your seat" in html and "Ana (Red)" in html
    data = await site.json(f"/t/{slug}/seat/state.json")
    assert data["seat"]["seat"] == 1 and data["seat"]["summary"]
    status, headers, png = await site.get(f"/t/{slug}/seat/board/0.png")
    assert status == 200 and png.startswith(b"\x89PNG") and headers["Cache-Control"] == "no-store, private"
    # the picture was drawn from Ana's own view
    game = registry.get("cartagena")
    assert (site.renderer.calls[-1][2], site.renderer.calls[-1][1]) == (0, game.view(state_of(site.host), 0))


async def test_the_seat_page_shows_its_own_seat_only(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    await open_link(site, await link_for(site, 1, BEN.user_id))
    assert (await site.get(f"/t/{slug}/seat"))[0] == 200
    s = state_of(site.host)
    game = registry.get("cartagena")
    ana_secrets = [line for line in private_lines(game, s, [0]) if line not in private_lines(game, s, [1])]
    assert ana_secrets, "Ana holds something Ben does not know"
    for path in ("/seat", "/seat/state.json"):
        text = (await site.get(f"/t/{slug}{path}"))[2].decode()
        for line in ana_secrets:
            assert line not in text
    data = await site.json(f"/t/{slug}/seat/state.json")
    assert data["seat"]["you"] == "Ben (Blue)" and data["seat"]["seat"] == 2


async def test_an_expired_link_and_an_expired_cookie_are_refused(site: Site, clock: Clock) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    path = await link_for(site, 0, ANA.user_id)
    clock.advance(LINK_SECONDS + 1)
    status, headers, html = await open_link(site, path)
    assert status == 403 and "Set-Cookie" not in headers and "/hand" in html
    assert (await open_link(site, await link_for(site, 0, ANA.user_id)))[0] == 303
    assert (await site.get(f"/t/{slug}/seat"))[0] == 200
    clock.advance(COOKIE_SECONDS + 1)
    status, headers, _ = await site.get(f"/t/{slug}/seat")
    assert status == 403 and "parley_seat=" in headers.get("Set-Cookie", "")  # the dead cookie is cleared


async def test_a_tampered_link_is_refused(site: Site) -> None:
    await start_cartagena(site.host)
    path = await link_for(site, 0, ANA.user_id)
    token = path.removeprefix("/s/")
    head, mac = token.split(".")
    payload = _unb64(head).decode()
    kind, slug, seat, user, generation, expires = payload.split(":")
    forged = [
        ":".join([kind, slug, "1", user, generation, expires]),  # another seat
        ":".join([kind, slug, seat, str(BEN.user_id), generation, expires]),  # another player
        ":".join([kind, slug, seat, user, generation, str(int(expires) + 10**6)]),  # a later expiry
        ":".join([COOKIE, slug, seat, user, generation, expires]),  # a cookie's kind
    ]
    for text in forged:
        assert (await open_link(site, f"/s/{_b64(text.encode())}.{mac}"))[0] == 403, text
    flipped = mac[:-2] + ("A" if mac[-2] != "A" else "B") + mac[-1]
    for bad in (f"{head}.{flipped}", head, f"{head}.{mac}.x", f"{head}!.{mac}", "x" * 500):
        assert (await open_link(site, f"/s/{bad}"))[0] == 403, bad
    # signed with another key: as good as forged
    other = Signer(b"another cluster's key").sign(SeatPass(LINK, slug, 0, ANA.user_id, 0, int(expires)))
    assert (await open_link(site, f"/s/{other}"))[0] == 403
    # a cookie pass is no link, and a link pass is no cookie
    signer = await site.app.links.signer()
    cookie_pass = signer.sign(SeatPass(COOKIE, slug, 0, ANA.user_id, 0, int(expires)))
    assert (await open_link(site, f"/s/{cookie_pass}"))[0] == 403
    link_pass = signer.sign(SeatPass(LINK, slug, 0, ANA.user_id, 0, int(expires)))
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/t/{slug}/seat", cookies={"parley_seat": link_pass}) as r:
            assert r.status == 403
        async with http.get(f"{site.url}/t/{slug}/seat", cookies={"parley_seat": cookie_pass}) as r:
            assert r.status == 200


async def test_a_pass_of_another_table_is_refused(site: Site) -> None:
    await start_cartagena(site.host)
    c2 = ANA.__class__(1, CHANNEL + 1, ANA.user_id, "Ana", moderator=True)
    b2 = BEN.__class__(1, CHANNEL + 1, BEN.user_id, "Ben")
    assert (await site.host.open(c2, "cartagena", {})).ok and (await site.host.join(b2)).ok
    assert (await site.host.start_table(c2)).ok
    here, there = await site.slug(), await site.slug(site.host.table_for(CHANNEL + 1).table_id)
    signer = await site.app.links.signer()
    cookie = signer.sign(SeatPass(COOKIE, there, 0, ANA.user_id, 0, 2**40))
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{site.url}/t/{here}/seat", cookies={"parley_seat": cookie}) as r:
            assert r.status == 403
        async with http.get(f"{site.url}/t/{there}/seat", cookies={"parley_seat": cookie}) as r:
            assert r.status == 200
    # a pass names its seat and its player: Ben's pass of Ana's seat is not Ana's
    wrong = signer.sign(SeatPass(COOKIE, here, 0, BEN.user_id, 0, 2**40))
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{site.url}/t/{here}/seat", cookies={"parley_seat": wrong}) as r,
    ):
        assert r.status == 403


async def test_leaving_closes_the_seat_page_and_coming_back_needs_a_new_link(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    assert (await open_link(site, await link_for(site, 0, ANA.user_id)))[0] == 303
    old_link = await link_for(site, 0, ANA.user_id)
    stream = await Events.open(site, f"/t/{slug}/seat/events")
    kinds = [(await stream.next()).event, (await stream.next()).event]
    assert kinds == ["table", "seat"]
    assert (await site.host.leave(ANA)).ok
    events = await stream.until(lambda e: e.event == "revoked")
    assert "no longer hold" in events[-1].data["reason"]
    assert (await site.get(f"/t/{slug}/seat"))[0] == 403
    # Ana takes her seat back: the old link and the old cookie stay dead
    assert (await site.host.join(ANA)).ok
    assert site.host.table_for(CHANNEL).seats[0].user_id == ANA.user_id
    assert (await site.get(f"/t/{slug}/seat"))[0] == 403
    assert (await open_link(site, old_link))[0] == 403
    assert (await open_link(site, await link_for(site, 0, ANA.user_id)))[0] == 303
    assert (await site.get(f"/t/{slug}/seat"))[0] == 200


async def test_a_kicked_player_loses_the_page_and_the_next_holder_is_someone_else(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    assert (await open_link(site, await link_for(site, 1, BEN.user_id)))[0] == 303
    assert (await site.get(f"/t/{slug}/seat"))[0] == 200
    assert (await site.host.kick(ANA, BEN.user_id)).ok
    assert (await site.get(f"/t/{slug}/seat"))[0] == 403
    # an AI plays the seat now: nobody's link to it works, not even a fresh one for Ben
    assert (await open_link(site, await link_for(site, 1, BEN.user_id)))[0] == 403
    await play_one(site.host)
    state = json.loads((await site.get(f"/t/{slug}/state.json"))[2])
    assert any(s["ai"] for s in state["table"]["seats"])
