"""The pages inside ``parley run`` (``PARLEY_WEB_PORT``): the real command line against the loopback fake Discord
(tests/discord/fakediscord.py), real pictures drawn by the bot's own render workers. The board post's Watch button
links to the table's page, the page follows the moves played in Discord, ``/hand`` links to the player's seat page,
and SIGTERM stops the pages with the bot, cleanly."""

from __future__ import annotations

import json
import re
import signal
import socket
from pathlib import Path

import aiohttp
import pytest

from tests.discord.fakediscord import FakeDiscord
from tests.discord.test_faults import Ana, ParleyProcess, current_board, db_state, fake  # noqa: F401

BASE = "https://parley.example"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_parley_run_serves_the_pages_its_boards_link_to(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    port = free_port()
    monkeypatch.setenv("PARLEY_WEB_PORT", str(port))
    monkeypatch.setenv("PARLEY_WEB_URL", BASE)
    monkeypatch.setenv("PARLEY_RENDER_PROCESSES", "1")
    parley = ParleyProcess(fake, tmp_path)
    ana = Ana(fake, db_state(parley.db))
    try:
        await parley.start()
        await ana.open_table()
        await ana.play()
        board_id, _, state_no = current_board(fake)
        links = [
            item for row in fake.messages[board_id]["components"] for item in row["components"] if item.get("url")
        ]
        assert [(item["label"], item["style"]) for item in links] == [("Watch", 5)]  # a link button
        watch = links[0]["url"]
        assert watch.startswith(f"{BASE}/t/")
        local = watch.replace(BASE, f"http://127.0.0.1:{port}")
        async with aiohttp.ClientSession() as http:
            async with http.get(local) as page:
                html = await page.text()
                assert page.status == 200 and "Cartagena" in html and f'data-n="{state_no}"' in html
            state = json.loads(await (await http.get(f"{local}/state.json")).text())
            async with http.get(local + state["table"]["board"].removeprefix(watch.removeprefix(BASE))) as png:
                assert png.status == 200 and (await png.read()).startswith(b"\x89PNG")  # drawn by the bot's worker
            # a move in Discord reaches the page's event stream
            async with http.get(f"{local}/events?since={state_no}") as stream:
                await ana.play()
                seen = ""
                while "event: move" not in seen:
                    seen += (await stream.content.readline()).decode()
            # /hand starts with the player's private link, which opens her seat page
            hand = await ana.command("hand")
            found = re.search(rf"\(<{re.escape(BASE)}(/s/[^>]+)>\)", hand)
            assert found, hand
            async with http.get(f"http://127.0.0.1:{port}{found[1]}", allow_redirects=False) as link:
                assert link.status == 303 and link.headers["Location"].endswith("/seat")
        assert await parley.stop(signal.SIGTERM) == 0, parley.log()
    finally:
        parley.kill()
    assert "Traceback" not in parley.log() and " ERROR " not in parley.log(), parley.log()
    assert f"web pages on 127.0.0.1:{port}" in parley.log()
