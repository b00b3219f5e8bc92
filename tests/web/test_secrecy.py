"""The web pages keep every secret: seeded games of all five games, played through the table host by two people
beside AI seats, every page, JSON answer and event checked at every move, as tests/secrets/test_host.py checks
the channel's outputs.

At every move: the table page, ``state.json``, the replay page and ``replay.json``, the spectator's live events,
and the views the public pictures were drawn from say nothing that was secret before and after the move; Ana's seat
page, its JSON, its events and its picture say nothing Ana may not know (the other seat's hand included). Once the
game is over the whole record may be shown, but never the table's seed or its AI seed.
"""

from __future__ import annotations

import json
import os
import random
from http.cookies import SimpleCookie
from typing import Any

import aiohttp
import pytest

from rules import registry
from tests.host.conftest import state_of
from tests.secrets.checks import Leak, assert_clean
from tests.secrets.test_host import Watch, _options
from tests.tiers import quick_subset
from tests.web.conftest import ANA, BASE, BEN, CHANNEL, Events, Site, SiteFactory

#: whole games per game in CI (PARLEY_SECRET_WEB_GAMES overrides)
WEB_GAMES = {"cartagena": 1, "buccaneer": 1, "flagon": 2, "martinique": 3, "treasure_island": 1}
#: every so many moves an earlier position's picture is asked for too (each replays the game so far)
PAST_EVERY = 7


def _games(game_id: str) -> int:
    env = os.environ.get("PARLEY_SECRET_WEB_GAMES")
    return int(env) if env else WEB_GAMES[game_id]


def seeds_of(row: Any) -> list[str]:
    """A table's seed and AI seed, in every spelling a leak could take (the host's seeds are hex)."""
    out = [row.seed, row.ai_seed]
    for seed in (row.seed, row.ai_seed):
        try:
            out.append(str(int(seed, 16)))
        except ValueError:
            pass
    return [s for s in out if len(s) >= 6]


class Reader:
    """Everything one kind of visitor sees of the table, fetched again after every move."""

    def __init__(self, site: Site, slug: str, http: aiohttp.ClientSession, stream: Events, seat: int | None) -> None:
        self.site, self.slug, self.http, self.stream, self.seat = site, slug, http, stream, seat

    async def text(self, path: str) -> str:
        async with self.http.get(f"{self.site.url}/t/{self.slug}{path}") as r:
            assert r.status == 200, (path, r.status)
            return (await r.read()).decode("utf-8", "replace")

    async def everything(self, n: int, over: bool, events: bool = True) -> dict[str, str]:
        """The pages at move ``n``, and (``events``) the events up to the table at ``n``."""
        if self.seat is None:
            said = {
                "table page": await self.text(""),
                "state.json": await self.text("/state.json"),
                "replay page": await self.text(f"/replay?n={n}"),
                "replay.json": await self.text("/replay.json"),
            }
        else:
            said = {"seat page": await self.text("/seat"), "seat state.json": await self.text("/seat/state.json")}
        if events:
            got = await self.stream.until(lambda e: e.event == "table" and (e.data["n"] >= n or e.data["over"]))
            if self.seat is not None and not over:
                got.append(await self.stream.next())  # the seat's own event follows the table's
                assert got[-1].event == "seat"
            said["events"] = "\n".join(json.dumps(e.data, ensure_ascii=False) for e in got)
        return said


async def _play_one(make_site: SiteFactory, game_id: str, i: int) -> int:
    game = registry.get(game_id)
    rnd = random.Random(f"web:{game_id}:{i}")
    lo, hi = game.info.min_players, min(game.info.max_players, 5)
    players = max(2, lo + i % (hi - lo + 1))
    site = await make_site(rate=1e6, burst=1e6, poll_seconds=0.01)  # one address asks for everything, at once
    host = site.host
    seed = None if i % 2 else f"Zq9-web-{game_id}-{i}"
    assert (await host.open(ANA, game_id, _options(game, rnd, players), seed=seed)).ok
    assert (await host.join(BEN)).ok
    for _ in range(players - 2):
        assert (await host.ai_add(ANA, "easy")).ok
    assert (await host.start_table(ANA)).ok
    table_id = host.table_for(CHANNEL).table_id
    row = await host.store.tables.get(table_id)
    seeds = seeds_of(row)
    slug = await site.slug(table_id)
    watch = Watch(game, host, players)

    # a spectator, and Ana on her seat page (its cookie from her link)
    public = Reader(site, slug, site.http, await Events.open(site, f"/t/{slug}/events?since=0"), None)
    link = await site.app.links.seat_link(table_id, 0, ANA.user_id)
    async with site.http.get(site.url + link.removeprefix(BASE), allow_redirects=False) as r:
        assert r.status == 303
        cookie = SimpleCookie(r.headers["Set-Cookie"])["parley_seat"].value
    ana_http = aiohttp.ClientSession(cookies={"parley_seat": cookie})
    ana_stream = Events(await ana_http.get(f"{site.url}/t/{slug}/seat/events?since=0"))
    ana = Reader(site, slug, ana_http, ana_stream, 0)
    checks = 0
    try:
        steps = 0
        while host.table_for(CHANNEL).status == "running":
            steps += 1
            assert steps < 3000, "no end"
            mover = None
            for caller in (ANA, BEN):
                choices = await host.choices(caller)
                if choices:
                    mover = caller
                    break
            assert mover is not None, "nobody can move"
            out = await host.play(mover, rnd.choice(choices).action, host.table_for(CHANNEL).state_no)
            assert out.ok, out.reply
            summary = host.table_for(CHANNEL)
            running = summary.status == "running"
            n = summary.state_no
            now = watch.snapshot() if running else {"state": None, "secrets": [], "lines": []}
            hidden = (watch.hidden(now) if running else []) + seeds
            site.renderer.calls.clear()
            # the pictures: this move's public board, now and then an earlier one, and Ana's own picture
            for path in [f"/board/{n}.png", *([f"/board/{n - 1}.png"] if steps % PAST_EVERY == 0 else [])]:
                assert (await public.text(path)).startswith("\ufffdPNG")
            async with ana_http.get(f"{site.url}/t/{slug}/seat/board/{n}.png") as r:
                assert r.status == 200
            for where, text in (await public.everything(n, not running)).items():
                assert_clean(f"{game_id} {where} at move {n}", text, hidden)
                checks += 1
            for _, view, seat in site.renderer.calls:
                if seat is None:
                    assert_clean(f"{game_id} a public picture's view at move {n}", json.dumps(view), hidden)
            if running:
                state = state_of(host)
                drawn = [v for _, v, s in site.renderer.calls if s is None]
                if drawn and drawn[0] != game.view(state, None):
                    raise Leak(f"{game_id}: the public picture was drawn from something else than the public view")
                mine = [v for _, v, s in site.renderer.calls if s == 0]
                assert mine == [game.view(state, 0)], "Ana's picture is drawn from her own view"
                assert all(s in (None, 0) for _, _, s in site.renderer.calls), "another seat's picture was drawn"
                unseen = watch.unseen(state, 0, now) + seeds
                for where, text in (await ana.everything(n, False)).items():
                    assert_clean(f"{game_id} Ana's {where} at move {n}", text, unseen)
                    checks += 1
                watch.before = now
        # over: the whole record is public, the seeds never are
        final = host.table_for(CHANNEL).state_no
        for where, text in (await public.everything(final, True, events=False)).items():
            assert_clean(f"{game_id} {where} after the end", text, seeds)
        for s in range(1, players + 1):
            assert_clean(f"{game_id} a seat's replay", await public.text(f"/replay.json?seat={s}"), seeds)
            checks += 1
    finally:
        public.stream.close()
        ana_stream.close()
        await ana_http.close()
    print(f"{game_id} game {i}: {steps} moves, {checks} pages and event batches checked")
    return checks


# the default run sweeps Martinique's pages, the slow tier every other game's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(registry.game_ids(), ["martinique"]))
async def test_every_page_json_and_event_of_seeded_games_keeps_every_secret(
    make_site: SiteFactory, game_id: str
) -> None:
    checks = 0
    for i in range(_games(game_id)):
        checks += await _play_one(make_site, game_id, i)
    assert checks > 50
