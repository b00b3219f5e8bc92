"""Discord faults, with the real discord.py client (real aiohttp HTTP and a real gateway websocket) against the
loopback fake Discord: a board post and its edit answered with 429, the gateway closed (RESUME) or cut with
the session refused (a fresh IDENTIFY) mid-game, and the real ``parley run`` process stopped with SIGTERM, or
killed with SIGKILL while a board edit waits out a 429, and started again on the same database.

The first two run the bot in this process with the tiny stand-in pictures of conftest.py; the third runs
``python -m tests.discord.fakediscord PORT run``, the real command line with real pictures, in a child process.

Every interaction is sent as Discord sends it, over the gateway; every check reads what reached the fake
(posts, edits, files, buttons) and the table's log in the database, so a move lost, duplicated or committed
without its board shows up.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.host.tables import TableHost
from bot.infra.settings import Settings, default_render_processes
from bot.infra.store import LogRow, Store
from bot.transports.discord.client import ParleyBot
from tests.discord.conftest import GUILD_ID, TINY_PNG, make_bot
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord, Person

CHANNEL = 31_337
ANA = Person(5001, "ana", moderator=True)
RETRY = 0.5  # retry_after of the injected 429s, in seconds
QUIET = 0.25  # no request for this long after an answer: the bot has finished delivering
TURN = re.compile(r"parley:turn:(\d+):(\d+)")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL)
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


# -- waiting on the fake --------------------------------------------------------------------------------------
async def until(check: Callable[[], Any], timeout: float = 20.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what or check}"
        await asyncio.sleep(0.02)


def _unanswered_429(fake: FakeDiscord) -> bool:
    """A 429 not yet followed by a retry of the same request: the client is still waiting out retry_after."""
    for i, request in enumerate(fake.requests):
        if request.status == 429 and not any(
            later.method == request.method and later.path == request.path for later in fake.requests[i + 1 :]
        ):
            return True
    return False


StateFn = Callable[[], int | None]  # the committed state number of the channel's running table


def _no_state() -> int | None:
    return None


@dataclass
class Ana:
    """Ana at the table through the fake. ``state`` tells the table's committed state number (None before the
    game runs): after each answer we wait until the newest board carries it, not just for a quiet moment, so a
    slow machine cannot make a check read the channel before the bot has finished delivering."""

    fake: FakeDiscord
    state: StateFn = _no_state

    async def settle(self, timeout: float = 20.0) -> None:
        """Until the bot has gone quiet (no request for QUIET seconds, no 429 waiting for its retry) and the
        newest board post carries the committed state."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = -1
        while seen != len(self.fake.requests) or _unanswered_429(self.fake) or not self._board_is_current():
            assert loop.time() < deadline, "the bot never went quiet (or a 429 was never retried)"
            seen = len(self.fake.requests)
            await asyncio.sleep(QUIET)

    def _board_is_current(self) -> bool:
        state = self.state()
        return state is None or (bool(boards(self.fake)) and current_board(self.fake)[2] == state)

    async def answer(self, token: str, kind: str, *, quiet: bool = True) -> dict[str, Any]:
        """The interaction's first answer of ``kind`` (callback, followup, edit), once the bot has delivered."""
        fake = self.fake
        await until(lambda: any(a["kind"] == kind for a in fake.answers(token)), what=f"a {kind} to {token}")
        if quiet:
            await self.settle()
        return next(a for a in fake.answers(token) if a["kind"] == kind)

    async def command(self, path: str, **values: str | int) -> str:
        """A slash command; returns the bot's ephemeral answer."""
        reply = await self.answer(self.fake.slash(ANA, path, **values), "followup")
        assert reply["flags"] & 64, reply
        return str(reply["content"])

    async def offered(self) -> list[str]:
        """What autocomplete offers in ``/play action``."""
        answer = await self.answer(self.fake.autocomplete(ANA, "play", "action", ""), "callback", quiet=False)
        return [str(choice["value"]) for choice in answer["data"]["choices"]]

    async def play(self) -> str:
        """The first action autocomplete offers, played with ``/play``; returns it."""
        offered = await self.offered()
        assert offered, "autocomplete offered no action"
        reply = await self.command("play", action=offered[0])
        assert reply.startswith("Played") and f"`{offered[0]}`" in reply, reply
        return offered[0]

    async def open_table(self) -> None:
        """Ana opens Cartagena, adds an easy AI and starts: from then on she is the only human to act."""
        assert "Opened a Cartagena table" in await self.command("table open cartagena")
        await self.command("table ai add", level="easy")
        assert await self.command("table start") == "The game has started."

    async def click_turn(self, board_id: int) -> dict[str, Any]:
        """Click "Take your turn" on a board post; returns the ephemeral answer (the picker, or why not)."""
        button = turn_button(self.fake, board_id)
        assert button is not None, "that post has no turn button"
        reply = await self.answer(self.fake.click(ANA, board_id, f"parley:turn:{button[0]}:{button[1]}"), "followup")
        assert reply["flags"] & 64, reply
        return reply

    async def pick_on_board(self, board_id: int) -> tuple[str, str]:
        """Ana clicks "Take your turn" on a board post and picks the picker's first action; returns the custom
        id of the menu she used and the action the bot says it played."""
        reply = await self.click_turn(board_id)
        menus = [c for row in reply.get("components", []) for c in row["components"] if c["type"] == 3]
        assert menus, f"no picker: {reply['content']}"
        menu = menus[0]
        value = next(o["value"] for o in menu["options"] if o["value"].startswith("a"))
        edit = await self.answer(self.fake.select(ANA, reply["id"], menu["custom_id"], [value]), "edit")
        played = re.match(r"Played(?::[^\n]*\n-#)? `([^`]+)`", edit["content"])
        assert played, edit["content"]
        return menu["custom_id"], played[1]


# -- reading the channel --------------------------------------------------------------------------------------
def turn_button(fake: FakeDiscord, message_id: int) -> tuple[int, int] | None:
    """(table id, state number) of a message's "Take your turn" button, if it has one."""
    for row in fake.messages[message_id].get("components", []):
        for item in row.get("components", []):
            found = TURN.fullmatch(item.get("custom_id", ""))
            if found:
                return int(found[1]), int(found[2])
    return None


def boards(fake: FakeDiscord) -> list[tuple[int, int, int]]:
    """(message id, table id, state number) of every channel post that still has its turn button, oldest first."""
    out = []
    for message_id in sorted(fake.messages):
        button = turn_button(fake, message_id) if fake.channel_of[message_id] == CHANNEL else None
        if button is not None:
            out.append((message_id, *button))
    return out


def current_board(fake: FakeDiscord) -> tuple[int, int, int]:
    """The newest board post: the one whose buttons the players use."""
    assert boards(fake), "no board post with buttons in the channel"
    return boards(fake)[-1]


def humans(log: list[LogRow]) -> list[str]:
    return [row.action or "" for row in log if row.kind == "action" and not row.by_ai]


# -- the bot in this process ----------------------------------------------------------------------------------
def host_state(bot: ParleyBot) -> StateFn:
    def state() -> int | None:
        summary = bot.host.table_for(CHANNEL)
        return summary.state_no if summary is not None and summary.status == "running" else None

    return state


@asynccontextmanager
async def running_bot(db_path: Path) -> AsyncIterator[ParleyBot]:
    """The real ParleyBot (tiny stand-in pictures) connected to the fake, closed at the end."""
    hosts: list[TableHost] = []
    bot = make_bot(None, str(db_path), hosts)
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await until(bot.is_ready, what="the bot to be ready")
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)


async def test_a_board_post_and_its_edit_answered_429_wait_retry_after_then_arrive_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running_bot(tmp_path / "parley.sqlite3") as bot:
        ana = Ana(fake, host_state(bot))
        await ana.open_table()
        # The next board edit (an action within the turn) and the next post (the board of the next turn)
        # are each answered 429 once. Ana plays until both have been met.
        fake.rate_limit_next(1, RETRY, method="PATCH", channel=CHANNEL)
        fake.rate_limit_next(1, RETRY, method="POST", channel=CHANNEL)
        played: list[str] = []
        while fake.rate_limits_pending:
            assert len(played) < 10, "no board post or edit met the 429s"
            played.append(await ana.play())
        limited = [i for i, r in enumerate(fake.requests) if r.status == 429]
        assert sorted(fake.requests[i].method for i in limited) == ["PATCH", "POST"]
        for i in limited:
            refused = fake.requests[i]
            retry = next(r for r in fake.requests[i + 1 :] if (r.method, r.path) == (refused.method, refused.path))
            assert retry.status == 200, retry
            assert retry.at - refused.at >= RETRY, "retried before retry_after"
            # what the retry carried arrived whole: the board text, its picture
            assert retry.message is not None and fake.files[retry.message] == [TINY_PNG]
            assert fake.messages[retry.message]["content"].strip()
        # the board the players use carries the current state, its picture and Ana's mention
        summary = bot.host.table_for(CHANNEL)
        assert summary is not None
        board_id, table_id, state_no = current_board(fake)
        assert (table_id, state_no) == (summary.table_id, summary.state_no)
        assert fake.files[board_id] == [TINY_PNG] and f"<@{ANA.id}>" in fake.messages[board_id]["content"]
        # and each move was committed exactly once
        log = await bot.host.store.tables.log(summary.table_id)
        assert humans(log) == played
        assert [row.n for row in log] == list(range(1, summary.state_no + 1))


async def test_the_gateway_closes_and_reconnects_and_the_table_carries_on(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running_bot(tmp_path / "parley.sqlite3") as bot:
        ana = Ana(fake, host_state(bot))
        await ana.open_table()
        played = [await ana.play()]

        # Discord closes the connection (4000, "unknown error"): the client comes back with RESUME, and what was
        # sent while it was away (Ana typing in /play) is replayed to it once.
        fake.close_gateway(4000)
        assert fake.connected == 0
        token = fake.autocomplete(ANA, "play", "action", "")
        offered = (await ana.answer(token, "callback", quiet=False))["data"]["choices"]
        assert len(fake.resumed) == 1 and len(fake.identified) == 1
        action = offered[0]["value"]
        assert f"`{action}`" in await ana.command("play", action=action)
        played.append(action)
        played.append(await ana.play())
        fake.close_gateway(1001)  # "going away", as Discord does when it restarts a gateway node
        await until(lambda: len(fake.resumed) == 2 and fake.connected, what="a second RESUME")
        played.append(await ana.play())

        # The TCP connection is cut, and Discord refuses the RESUME (INVALID_SESSION): the client IDENTIFYs
        # afresh (READY, GUILD_CREATE) and the table is where it was.
        fake.invalidate_resume = True
        fake.drop_gateway()
        await until(lambda: len(fake.identified) == 2 and fake.connected, what="a new IDENTIFY")
        assert fake.invalidated == 1 and len(fake.resumed) == 2
        await until(bot.is_ready, what="READY after the new IDENTIFY")
        assert bot.get_channel(CHANNEL) is not None  # GUILD_CREATE was read, with its channel
        played.append(await ana.play())
        played.append(await ana.play())

        # no move lost or applied twice, each interaction answered once, and the board follows the table
        summary = bot.host.table_for(CHANNEL)
        assert summary is not None and summary.status == "running"
        log = await bot.host.store.tables.log(summary.table_id)
        assert humans(log) == played
        assert [a["kind"] for a in fake.answers(token)] == ["callback"]  # the replayed event was handled once
        assert len([c for c in fake.callbacks if c["type"] == 5]) == 3 + len(played)  # one per command
        assert not [r for r in fake.requests if r.status == 400]  # no second answer to one interaction
        _, table_id, state_no = current_board(fake)
        assert (table_id, state_no) == (summary.table_id, summary.state_no)


# -- the ``parley run`` process ------------------------------------------------------------------------------
class ParleyProcess:
    """``parley run`` in a child process (the real command line, settings from the environment, real pictures),
    pointed at the fake by ``python -m tests.discord.fakediscord PORT``."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, log_level: str = "INFO") -> None:
        self.fake = fake
        self.log_level = log_level
        self.db = tmp_path / "parley.sqlite3"
        self.output = tmp_path / "parley.log"
        self.env_file = tmp_path / "no.env"  # never a developer's .env
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        env = dict(
            os.environ,
            DISCORD_TOKEN=GOOD_TOKEN,
            PARLEY_DB=str(self.db),
            PARLEY_DEV_GUILD=str(GUILD_ID),
            PARLEY_LOG_LEVEL=self.log_level,
        )
        args = [sys.executable, "-m", "tests.discord.fakediscord", str(self.fake.port)]
        with self.output.open("ab") as out:
            self.proc = subprocess.Popen(
                [*args, "--env-file", str(self.env_file), "run"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
        connections = len(self.fake.identified)
        await until(
            lambda: len(self.fake.identified) > connections and self.fake.connected,
            what=f"parley run to connect; its output:\n{self.log()}",
        )

    async def stop(self, sig: signal.Signals) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        code = await asyncio.to_thread(self.proc.wait, 15)
        self.proc = None
        await until(lambda: not self.fake.connected, what="the gateway connection to go")
        return code

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(15)
            self.proc = None

    def log(self) -> str:
        return self.output.read_text(errors="replace") if self.output.exists() else ""

    def workers(self) -> list[int]:
        """The bot's child processes started by multiprocessing's spawn (its render and AI workers)."""
        assert self.proc is not None
        pids = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            for pid in (task / "children").read_text().split():
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
                if b"spawn_main" in cmdline:
                    pids.append(int(pid))
        return pids


def db_state(db: Path) -> StateFn:
    """The channel's committed state number read from the database file (the bot is another process)."""

    def state() -> int | None:
        if not db.exists():
            return None
        with closing(sqlite3.connect(db, timeout=5)) as con:
            row = con.execute(
                "SELECT status, state_no FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (CHANNEL,)
            ).fetchone()
        return int(row[1]) if row is not None and row[0] == "running" else None

    return state


async def test_parley_run_is_stopped_and_restarted_on_the_same_database_and_the_table_carries_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    parley = ParleyProcess(fake, tmp_path)
    ana = Ana(fake, db_state(parley.db))
    try:
        await parley.start()
        await ana.open_table()
        played = [await ana.play(), await ana.play()]
        # the pictures were drawn by render worker processes of the bot, one per core by default, beside the
        # hard AI's workers (one per core less one)
        assert any(f[:8] == b"\x89PNG\r\n\x1a\n" for files in fake.files.values() for f in files), "no board picture"
        expected = default_render_processes() + Settings().ai_processes
        assert len(parley.workers()) == expected, parley.log()

        # SIGTERM (what docker stop and systemd send): a clean shutdown, exit code 0
        board_id, table_id, state_no = current_board(fake)
        assert await parley.stop(signal.SIGTERM) == 0, parley.log()
        await parley.start()
        # the board posted by the first process: its button (a DynamicItem) works in the second one, the picker
        # carries the same state number, the move is accepted, and the turn's post is edited in place
        restarted = len(fake.requests)
        custom_id, action = await ana.pick_on_board(board_id)
        assert custom_id.startswith(f"parley:pick:{table_id}:{state_no}:")
        played.append(action)
        edits = [r for r in fake.requests[restarted:] if r.method == "PATCH" and r.message == board_id]
        assert edits and edits[0].status == 200, "the turn's board post was not edited after the restart"
        played.append(await ana.play())

        # SIGKILL in the middle of a delivery: the move is acknowledged ("Played …") but its board edit is
        # waiting out a long 429 when the process dies. After the restart the move is there; the board post
        # that missed it refuses its stale button politely, and the restarted bot reposts the lost board itself.
        fake.rate_limit_next(1, 60.0, method="PATCH", channel=CHANNEL)
        fake.rate_limit_next(1, 60.0, method="POST", channel=CHANNEL)
        action = (await ana.offered())[0]
        token = fake.slash(ANA, "play", action=action)
        await until(lambda: any(a["kind"] == "followup" for a in fake.answers(token)), what="the acknowledgement")
        await until(lambda: any(r.status == 429 for r in fake.requests), what="the board delivery to meet the 429")
        assert f"`{action}`" in next(a for a in fake.answers(token) if a["kind"] == "followup")["content"]
        played.append(action)
        parley.kill()
        fake.clear_rate_limits()
        fake.requests.clear()  # the killed process's 429 will never be retried: forget it
        await until(lambda: not fake.connected, what="the gateway connection to go")
        old_board, _, _ = current_board(fake)
        await parley.start()
        committed = db_state(parley.db)()
        await until(lambda: current_board(fake)[2] == committed, what="the restarted bot to repost the lost board")
        stale = await Ana(fake).click_turn(old_board)
        assert "out of date" in stale["content"] and not stale.get("components"), stale
        board_id, table_id, state_no = current_board(fake)
        assert board_id != old_board
        custom_id, action = await ana.pick_on_board(board_id)
        assert custom_id.startswith(f"parley:pick:{table_id}:{state_no}:")
        played.append(action)
        assert await parley.stop(signal.SIGTERM) == 0, parley.log()
    finally:
        parley.kill()

    # three processes, one table: every move once, in order, at consecutive state numbers
    store = Store(str(parley.db))
    await store.open()
    try:
        log = await store.tables.log(table_id)
        row = await store.tables.get(table_id)
    finally:
        await store.close()
    assert humans(log) == played
    assert [r.n for r in log] == list(range(1, len(log) + 1))
    assert row is not None and row.status == "running" and row.state_no == len(log)
    _, _, state_no = current_board(fake)
    assert state_no == row.state_no
    assert "Traceback" not in parley.log() and " ERROR " not in parley.log(), parley.log()
