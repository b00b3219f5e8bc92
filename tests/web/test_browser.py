"""The pages in a real browser: Debian's ``chromium`` driven through its ``chromedriver`` by Selenium (never a
browser download), headless, on 127.0.0.1 only. A spectator watches a move arrive, steps a replay with the buttons,
the scrubber and the keys, and a player opens their seat page through its link; every page is photographed at a
phone's and a desktop's size (into ``PARLEY_SCREENSHOTS`` if set, else the test's temporary folder).

Without the browser these tests skip with one reason; under ``CI=true`` (``.ci/run`` installs it with apt-get) they
fail instead, so a CI machine without it never passes silently.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.host.conftest import Clock
from tests.web.conftest import ANA, BEN, CHANNEL, Site, SiteFactory, play_one, start_cartagena

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: the flags a closed network needs (no background connections the sandbox would refuse) and a fresh profile
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)
PHONE = (390, 844)
DESKTOP = (1400, 900)


def missing_browser() -> str | None:
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"the browser tests need Debian's {package} ({path}): apt-get install chromium chromium-driver"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the browser tests need selenium (pip install -e '.[test]')"
    return None


@pytest.fixture(autouse=True)
def browser_installed() -> None:
    why = missing_browser()
    if why is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(why + "; CI=true, so this is a failure", pytrace=False)
    pytest.skip(why)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PARLEY_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Browser:
    """One headless chromium with a fresh profile, at a phone's or a desktop's size; every call runs in a thread
    (Selenium blocks) while the pages are served on the test's event loop."""

    def __init__(self, size: tuple[int, int], folder: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.size, self.folder = size, folder
        self.profile = tempfile.mkdtemp(prefix="parley-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={size[0]},{size[1]}")
        if size == PHONE:
            options.add_experimental_option(
                "mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 2}}
            )
        # an explicit driver path: Selenium's own driver manager (which would download one) is never asked
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def get(self, url: str) -> None:
        await self.run(self.driver.get, url)

    async def wait(self, what: Callable[[Any], Any], timeout: float = 15.0) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return await self.run(lambda: WebDriverWait(self.driver, timeout, 0.05).until(what))

    async def js(self, script: str, *args: Any) -> Any:
        return await self.run(self.driver.execute_script, script, *args)

    async def shot(self, name: str) -> Path:
        """A picture of the whole page (a phone's page is as long as it needs to be)."""
        path = self.folder / f"{name}-{'phone' if self.size == PHONE else 'desktop'}.png"

        def take() -> None:
            if self.size == PHONE:
                height = self.driver.execute_script("return document.documentElement.scrollHeight")
                self.driver.set_window_size(self.size[0], min(int(height), 4000))
            self.driver.save_screenshot(str(path))
            self.driver.set_window_size(*self.size)

        await self.run(take)
        assert path.stat().st_size > 10_000
        return path

    def quit(self) -> None:
        self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture
def browsers(shots: Path) -> Iterator[Callable[[tuple[int, int]], Browser]]:
    made: list[Browser] = []

    def make(size: tuple[int, int]) -> Browser:
        made.append(Browser(size, shots))
        return made[-1]

    yield make
    for b in made:
        b.quit()


def _text(driver: Any, element_id: str) -> str:
    return driver.find_element("id", element_id).text


async def _live(site: Site) -> Site:
    site.app.links.base_url = site.url  # links and previews point at this test server
    return site


async def test_a_spectator_watches_moves_arrive(make_site: SiteFactory, browsers: Any) -> None:
    site = await _live(await make_site(real_pictures=True))
    await start_cartagena(site.host)
    for _ in range(3):
        await play_one(site.host)
    slug = await site.slug()
    for size in (PHONE, DESKTOP):
        await _spectate(site, browsers(size), slug)


async def _spectate(site: Site, b: Browser, slug: str) -> None:
    await b.get(f"{site.url}/t/{slug}")
    await b.wait(lambda d: d.find_element("id", "live").is_displayed())  # the event stream is open
    n = site.host.table_for(CHANNEL).state_no + 1
    await play_one(site.host)
    await b.wait(lambda d: d.find_elements("css selector", f'#moves li[data-n="{n}"]'))
    await b.wait(lambda d: d.find_element("id", "board").get_attribute("src").endswith(f"/board/{n}.png"))
    # the board was drawn, the prompt follows the table, the newest move is on top
    await b.wait(lambda d: d.execute_script("return document.getElementById('board').naturalWidth") == 1100)
    first = await b.run(lambda: b.driver.find_element("css selector", "#moves li").get_attribute("data-n"))
    assert int(first) == n
    assert "▶" in await b.run(_text, b.driver, "prompt")
    assert await b.js("return document.getElementById('replay').hidden") is False
    await b.shot("table")


async def test_a_replay_steps_with_buttons_scrubber_and_keys(make_site: SiteFactory, browsers: Any) -> None:
    site = await _live(await make_site(real_pictures=True))
    await start_cartagena(site.host)
    for _ in range(6):
        await play_one(site.host)
    slug = await site.slug()
    for size in (PHONE, DESKTOP):
        await _step(site, browsers(size), slug)


def _at(driver: Any) -> int:
    return int(driver.find_element("id", "at").text)


async def _step(site: Site, b: Browser, slug: str) -> None:
    from selenium.webdriver.common.keys import Keys

    total = site.host.table_for(CHANNEL).state_no

    def key(name: str) -> None:
        b.driver.find_element("tag name", "body").send_keys(name)

    def click(element_id: str) -> None:
        b.driver.find_element("id", element_id).click()

    async def scrub(n: int) -> None:  # as a finger drags it
        await b.js(f"const s = document.getElementById('scrub'); s.value = {n}; s.dispatchEvent(new Event('input'));")

    await b.get(f"{site.url}/t/{slug}/replay")
    await b.wait(lambda d: _at(d) == total and d.find_element("id", "scrub").is_displayed())
    await b.run(key, Keys.ARROW_LEFT)
    await b.wait(lambda d: _at(d) == total - 1 and d.current_url.endswith(f"?n={total - 1}"))
    await b.run(click, "step-first")
    await b.wait(lambda d: _at(d) == 0 and "The deal." in d.find_element("id", "lines").text)
    assert await b.js("return document.getElementById('step-prev').getAttribute('aria-disabled')") == "true"
    await b.run(click, "step-next")
    await b.wait(lambda d: _at(d) == 1 and d.find_element("id", "board").get_attribute("src").endswith("/board/1.png"))
    await scrub(4)
    await b.wait(lambda d: _at(d) == 4)
    log = await site.host.store.tables.log(site.host.table_for(CHANNEL).table_id)
    assert log[3].public[0] in await b.run(_text, b.driver, "lines")
    await b.run(key, Keys.END)
    await b.wait(lambda d: _at(d) == total)
    await b.wait(lambda d: d.execute_script("return document.getElementById('board').naturalWidth") == 1100)
    await scrub(2)
    await b.wait(lambda d: _at(d) == 2 and d.execute_script("return document.getElementById('board').complete"))
    await b.shot("replay")


async def test_a_player_follows_their_seat_through_its_link(
    make_site: SiteFactory, browsers: Any, clock: Clock
) -> None:
    site = await _live(await make_site(real_pictures=True))
    await start_cartagena(site.host)
    await play_one(site.host)
    slug = await site.slug()
    opened = [await _follow_seat(site, browsers(size), slug) for size in (PHONE, DESKTOP)]
    # leaving the table closes the page in every browser that has it open (the table's row changes with the
    # time: the test's clock moves as a real one would)
    clock.advance(1)
    assert (await site.host.leave(ANA)).ok
    for b in opened:
        await b.wait(lambda d: "no longer hold this seat" in d.find_element("id", "note").text)
        await b.wait(lambda d: d.find_element("id", "live").text.startswith("○"))
    await opened[0].get(f"{site.url}/t/{slug}/seat")
    assert "Open your seat from Discord" in await opened[0].run(_text_of, opened[0].driver, "h1")


def _text_of(driver: Any, tag: str) -> str:
    return driver.find_element("tag name", tag).text


async def _follow_seat(site: Site, b: Browser, slug: str) -> Browser:
    table_id = site.host.table_for(CHANNEL).table_id
    link = await site.app.links.seat_link(table_id, 0, ANA.user_id)
    await b.get(link)
    # the link is traded for a cookie the page's script cannot read, and leaves the address bar
    await b.wait(lambda d: d.current_url == f"{site.url}/t/{slug}/seat")
    assert await b.js("return document.cookie") == ""
    assert "Ana (Red)" in await b.run(_text, b.driver, "you")
    await b.wait(lambda d: d.find_element("id", "live").is_displayed())
    await b.wait(lambda d: d.execute_script("return document.getElementById('mine').naturalWidth") == 1100)
    n = site.host.table_for(CHANNEL).state_no + 1
    await play_one(site.host)
    await b.wait(lambda d: d.find_element("id", "mine").get_attribute("src").endswith(f"/seat/board/{n}.png"))
    await b.wait(lambda d: "hand" in d.find_element("id", "summary").text.lower())
    await b.shot("seat")
    return b


async def test_a_finished_game_seen_from_a_seat(make_site: SiteFactory, browsers: Any) -> None:
    site = await _live(await make_site(real_pictures=True))
    assert (await site.host.open(ANA, "martinique", {}, seed="browser")).ok
    assert (await site.host.join(BEN)).ok and (await site.host.start_table(ANA)).ok
    while await play_one(site.host):
        pass
    slug = await site.slug(site.host.index.last[CHANNEL])  # noqa: SLF001 - the channel's finished table
    for size in (PHONE, DESKTOP):
        await _finished(site, browsers(size), slug)


async def _finished(site: Site, b: Browser, slug: str) -> None:
    await b.get(f"{site.url}/t/{slug}")
    await b.wait(lambda d: d.find_element("id", "result").is_displayed())
    result = await b.run(_text, b.driver, "result")
    assert "🏆" in result or "without a winner" in result
    assert not await b.js("return document.getElementById('live').hidden === false")  # nothing live any more
    await b.shot("finished")
    await b.get(f"{site.url}/t/{slug}/replay?n=10&seat=2")
    await b.wait(lambda d: "Ben" in d.find_element("css selector", ".views a[aria-current]").text)
    await b.wait(lambda d: d.execute_script("return document.getElementById('board').naturalWidth") == 1100)
    assert await b.run(_text, b.driver, "summary")
    assert ": " in await b.run(_text, b.driver, "action")  # who played what, once the game is over
    await b.shot("replay-seat")


async def test_a_lobby_page_turns_into_the_game_when_it_starts(
    make_site: SiteFactory, browsers: Any, clock: Clock
) -> None:
    site = await _live(await make_site(real_pictures=True))
    assert (await site.host.open(ANA, "cartagena", {})).ok
    slug = await site.slug()
    b = browsers(PHONE)
    await b.get(f"{site.url}/t/{slug}")
    await b.wait(lambda d: d.find_element("id", "live").is_displayed())
    assert "Waiting for players" in await b.run(_text, b.driver, "board-box")
    clock.advance(1)  # a table's row changes with the time (the test's clock moves as a real one would)
    assert (await site.host.join(BEN)).ok
    await b.wait(lambda d: "Ben" in d.find_element("id", "seats").text)
    clock.advance(1)
    assert (await site.host.start_table(ANA)).ok
    await b.wait(lambda d: d.find_elements("id", "board"))
    await b.wait(lambda d: d.execute_script("return document.getElementById('board').naturalWidth") == 1100)
    assert "▶" in await b.run(_text, b.driver, "prompt")
    assert (await b.run(_text, b.driver, "status")).lower() == "live"
