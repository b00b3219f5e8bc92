"""Live updates: a spectator connected during a game gets every move exactly once, across reconnects and runs of
AI moves; a seat page follows its seat; and a ``parley web`` process of its own (a cluster's) sees the moves another
process makes, on PostgreSQL (notifications) and on SQLite (polling)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.host.tables import TableHost
from bot.infra.store import Store
from bot.transports.web.links import WebLinks
from tests import pg
from tests.web.conftest import ANA, BASE, CHANNEL, Event, Events, Site, play_one, start_cartagena

ROOT = Path(__file__).resolve().parents[2]


def moves(events: list[Event]) -> list[int]:
    return [e.id for e in events if e.event == "move" and e.id is not None]


async def test_a_spectator_gets_every_move_once_across_a_reconnect(site: Site) -> None:
    await start_cartagena(site.host, ais=1)
    slug = await site.slug()
    stream = await Events.open(site, f"/t/{slug}/events?since=0")
    seen = await stream.drain()
    for _ in range(12):
        await play_one(site.host)
        seen += await stream.until(lambda e: e.event == "table" and e.data["n"] == site.host.table_for(CHANNEL).state_no)
    last = stream.last_id
    stream.close()
    # moves made while the spectator's connection is down
    for _ in range(10):
        await play_one(site.host)
    again = await Events.open(site, f"/t/{slug}/events", last_id=last)  # what EventSource sends on reconnect
    n = site.host.table_for(CHANNEL).state_no
    seen += await again.until(lambda e: e.event == "table" and e.data["n"] == n)
    for _ in range(5):
        await play_one(site.host)
    n = site.host.table_for(CHANNEL).state_no
    seen += await again.until(lambda e: e.event == "table" and e.data["n"] == n)
    again.close()
    # every move once, in order, including the AI's runs of moves made in one go
    assert moves(seen) == list(range(1, n + 1))
    log = await site.host.store.tables.log(site.host.table_for(CHANNEL).table_id)
    by_n = {e.id: e.data["lines"] for e in seen if e.event == "move"}
    assert [by_n[e.n] for e in log] == [e.public for e in log]


async def test_a_new_spectator_starts_from_the_move_its_page_showed(site: Site) -> None:
    await start_cartagena(site.host)
    for _ in range(3):
        await play_one(site.host)
    slug = await site.slug()
    stream = await Events.open(site, f"/t/{slug}/events?since=3")
    first = await stream.next()
    assert first.event == "table" and first.data["n"] == 3
    await play_one(site.host)
    assert moves(await stream.until(lambda e: e.event == "table")) == [4]
    stream.close()
    # with neither a last id nor a page's move: from now on
    plain = await Events.open(site, f"/t/{slug}/events")
    assert (await plain.next()).data["n"] == 4
    plain.close()


async def test_the_stream_ends_with_the_game_and_a_seat_page_follows_its_seat(site: Site) -> None:
    await start_cartagena(site.host)
    slug = await site.slug()
    table_id = site.host.table_for(CHANNEL).table_id
    link = await site.app.links.seat_link(table_id, 0, ANA.user_id)
    status, headers, _ = await site.get(link.removeprefix(BASE))
    assert status == 303
    cookie = headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
    async with aiohttp.ClientSession(cookies={"parley_seat": cookie}) as http:
        response = await http.get(f"{site.url}/t/{slug}/seat/events")
        seat = Events(response)
        public = await Events.open(site, f"/t/{slug}/events")
        kinds = [(await seat.next()).event for _ in range(2)]
        assert kinds == ["table", "seat"]
        steps = 0
        while await play_one(site.host):
            steps += 1
            assert steps < 3000
        events = await public.until(lambda e: e.event == "table" and e.data["over"])
        assert events[-1].data["result"]
        with pytest.raises(EOFError):
            await public.next()  # a finished game's stream ends: nothing more will happen
        mine = await seat.until(lambda e: e.event == "table" and e.data["over"])
        assert any(e.event == "seat" and e.data["you"].startswith("Ana") for e in mine)
        public.close()
        response.close()


async def _started_web(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """``parley web`` in a process of its own; its address, from the line it prints."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--port", "0", "--bind", "127.0.0.1"],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stderr.readline), 60)
    found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    assert found, line
    return proc, f"http://127.0.0.1:{found[1]}"


@pytest.mark.parametrize("store", ["postgresql", "sqlite"])
async def test_a_web_process_of_its_own_sees_the_moves_another_process_makes(store: str, tmp_path: Path) -> None:
    if store == "postgresql":
        url, drop = pg.fresh_schema()
    else:
        url, drop = str(tmp_path / "parley.sqlite3"), (lambda: None)
    host = TableHost(Store(url), ai_seed="cluster", renderer=lambda g, v, s: b"\x89PNG fake")
    await host.start()  # the bot's process: creates the schema and plays
    env = {**os.environ, "PARLEY_DB": url, "PARLEY_WEB_URL": BASE, "PARLEY_RENDER_PROCESSES": "0", "PARLEY_LOG_LEVEL": "WARNING"}
    proc, web_url = await _started_web(env)
    try:
        await start_cartagena(host)
        links = WebLinks(host.store, BASE)
        slug = await links.slug(host.table_for(CHANNEL).table_id)
        async with aiohttp.ClientSession() as http:
            response = await http.get(f"{web_url}/t/{slug}/events?since=0")
            assert response.status == 200
            stream = Events(response)
            assert (await stream.next()).event == "table"
            for _ in range(8):
                await play_one(host)
            n = host.table_for(CHANNEL).state_no
            seen = await stream.until(lambda e: e.event == "table" and e.data["n"] == n, timeout=20)
            assert moves(seen) == list(range(1, n + 1))
            async with http.get(f"{web_url}/t/{slug}") as page:
                assert page.status == 200 and f"?since={n}" in await page.text()
            response.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.wait_for(asyncio.to_thread(proc.wait), 30)
        finally:
            if proc.poll() is None:
                proc.kill()
        await host.close()
        drop()
    assert code == 0, proc.stderr.read() if proc.stderr else ""
