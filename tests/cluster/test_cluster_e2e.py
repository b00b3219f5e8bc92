"""Two clusters, one PostgreSQL, the loopback fake Discord: the real ``parley run`` command line in child
processes, each serving a range of shards, and one of them killed with SIGKILL and replaced.

Four guilds, one per shard of four; process A serves shards 0-1, process B shards 2-3. Ana plays Cartagena against
an AI in every guild. B is killed while a board of its table waits out a 429 (the move acknowledged, its board
never posted). A replacement started at once is refused in one line (B's lease still runs); started again once
the lease has lapsed, it takes shards 2-3 over, reposts the lost board, and the games go on. A kept serving its
guilds throughout. At the end every acknowledged move is in its table's log, exactly once and in order, and every
log replays from its seed to its snapshot.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.infra.replay import replay_steps, same_state
from bot.infra.store import LogRow, Store
from rules import registry
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord, Person, shard_of

COUNT = 4
LEASE = 8.0  # seconds: short, so the replacement's wait stays short, yet longer than starting a refused process
GUILDS = {(40 + shard) << 22 | 9: 7_000 + shard for shard in range(COUNT)}  # guild -> channel, one per shard
A_RANGE, B_RANGE = "0-1", "2-3"
ANA = Person(5001, "ana", moderator=True)
TURN = re.compile(r"parley:turn:(\d+):(\d+)")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guilds=dict(GUILDS), shard_count=COUNT)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def until(check: Callable[[], Any], what: str, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


class Cluster:
    """``parley run --shards RANGE --shard-count 4`` in a child process, on the shared PostgreSQL."""

    def __init__(self, fake: FakeDiscord, url: str, shards: str, tmp_path: Path, name: str) -> None:
        self.fake, self.url, self.shards, self.name = fake, url, shards, name
        self.output = tmp_path / f"{name}.log"
        self.env_file = tmp_path / "no.env"  # never a developer's .env
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def mine(self) -> list[tuple[int, int]]:
        low, high = (int(x) for x in self.shards.split("-"))
        return [(shard, COUNT) for shard in range(low, high + 1)]

    def spawn(self) -> subprocess.Popen[bytes]:
        env = dict(
            os.environ,
            DISCORD_TOKEN=GOOD_TOKEN,
            PARLEY_DB=self.url,
            PARLEY_LEASE_SECONDS=str(LEASE),
            PARLEY_RENDER_PROCESSES="0",  # real pictures, drawn in threads: two cores are shared by everything
            PARLEY_LOG_LEVEL="INFO",
        )
        env.pop("PARLEY_SHARDS", None)
        env.pop("PARLEY_SHARD_COUNT", None)
        args = [sys.executable, "-m", "tests.discord.fakediscord", str(self.fake.port), "--env-file", str(self.env_file)]
        with self.output.open("ab") as out:
            return subprocess.Popen(
                [*args, "run", "--shards", self.shards, "--shard-count", str(COUNT)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=out,
            )

    async def start(self) -> None:
        self.proc = self.spawn()
        await until(
            lambda: all(s in self.fake.connected_shards for s in self.mine) or self.proc.poll() is not None,
            f"{self.name} to connect its shards; its output:\n{self.log()}",
        )
        assert self.proc.poll() is None, self.log()

    async def refused(self) -> tuple[int, str]:
        """Start it expecting a refusal: its exit code and what it printed."""
        before = self.output.read_text(errors="replace") if self.output.exists() else ""
        proc = self.spawn()
        try:
            code = await asyncio.to_thread(proc.wait, 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)
            raise AssertionError(f"{self.name} was not refused; its output:\n{self.log()[len(before) :]}") from None
        return code, self.log()[len(before) :]

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(15)
            self.proc = None

    async def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(self.proc.wait, 30)
        self.proc = None
        return code

    def log(self) -> str:
        return self.output.read_text(errors="replace") if self.output.exists() else ""


@dataclass
class Table:
    """Ana's table in one guild, and every move the bot acknowledged to her there."""

    guild: int
    channel: int
    played: list[str] = field(default_factory=list)

    @property
    def where(self) -> tuple[int, int]:
        return self.guild, self.channel


class Play:
    """Ana at the tables through the fake; reads the committed state from PostgreSQL."""

    def __init__(self, fake: FakeDiscord, db: asyncpg.Connection) -> None:
        self.fake, self.db = fake, db

    async def answer(self, token: str, kind: str = "followup") -> dict[str, Any]:
        await until(lambda: any(a["kind"] == kind for a in self.fake.answers(token)), f"a {kind} to {token}")
        return next(a for a in self.fake.answers(token) if a["kind"] == kind)

    async def command(self, table: Table, path: str, **values: str | int) -> str:
        reply = await self.answer(self.fake.slash(ANA, path, table.where, **values))
        assert reply["flags"] & 64, reply
        return str(reply["content"])

    async def open(self, table: Table) -> None:
        assert "Opened a Cartagena table" in await self.command(table, "table open cartagena")
        await self.command(table, "table ai add", level="easy")
        assert await self.command(table, "table start") == "The game has started."

    async def offered(self, table: Table) -> list[str]:
        token = self.fake.autocomplete(ANA, "play", "action", "", table.where)
        answer = await self.answer(token, "callback")
        return [str(c["value"]) for c in answer["data"]["choices"]]

    async def play(self, table: Table, *, settle: bool = True) -> str:
        """The first action offered, played with /play; recorded once acknowledged."""
        action = (await self.offered(table))[0]
        reply = await self.command(table, "play", action=action)
        assert reply.startswith("Played") and f"`{action}`" in reply, reply  # the acknowledgement
        table.played.append(action)
        if settle:
            await self.settle(table)
        return action

    async def committed(self, table: Table) -> int | None:
        row = await self.db.fetchrow(
            "SELECT status, state_no FROM tables WHERE channel_id = $1 ORDER BY id DESC LIMIT 1", table.channel
        )
        return int(row["state_no"]) if row is not None and row["status"] == "running" else None

    def newest_board(self, table: Table) -> tuple[int, int, int] | None:
        """(message, table id, state) of the channel's newest post with a turn button."""
        for message_id in sorted(self.fake.messages, reverse=True):
            if self.fake.channel_of[message_id] != table.channel:
                continue
            for row in self.fake.messages[message_id].get("components", []):
                for item in row.get("components", []):
                    found = TURN.fullmatch(item.get("custom_id", ""))
                    if found:
                        return message_id, int(found[1]), int(found[2])
        return None

    async def settle(self, table: Table, timeout: float = 60.0) -> None:
        """Until the channel's newest board shows the committed state."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            state = await self.committed(table)
            board = self.newest_board(table)
            if state is None or (board is not None and board[2] == state):
                return
            assert loop.time() < deadline, f"the board of channel {table.channel} never showed state {state}"
            await asyncio.sleep(0.1)


def humans(log: list[LogRow]) -> list[str]:
    return [row.action or "" for row in log if row.kind == "action" and not row.by_ai]


async def test_two_clusters_one_killed_and_replaced_lose_nothing(
    fake: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    tables = {shard_of(g, COUNT): Table(g, c) for g, c in GUILDS.items()}
    assert sorted(tables) == [0, 1, 2, 3]
    a = Cluster(fake, pg_url, A_RANGE, tmp_path, "a")
    b = Cluster(fake, pg_url, B_RANGE, tmp_path, "b")
    replacement = Cluster(fake, pg_url, B_RANGE, tmp_path, "c")
    db = await asyncpg.connect(pg_url)
    ana = Play(fake, db)
    try:
        await a.start()
        await b.start()
        assert fake.connected_shards == [(s, COUNT) for s in range(COUNT)]  # each shard served once

        # a game in every guild, on both clusters
        for table in tables.values():
            await ana.open(table)
            await ana.play(table)
            await ana.play(table)

        # B dies with SIGKILL while the board of its last acknowledged move waits out a long 429
        doomed = tables[2]
        fake.rate_limit_next(1, 60.0, method="PATCH", channel=doomed.channel)
        fake.rate_limit_next(1, 60.0, method="POST", channel=doomed.channel)
        await ana.play(doomed, settle=False)
        await until(lambda: any(r.status == 429 for r in fake.requests), "the board delivery to meet the 429")
        b.kill()
        fake.clear_rate_limits()
        await until(lambda: fake.connected_shards == a.mine, "B's shards to drop")
        committed = await ana.committed(doomed)
        assert committed is not None and ana.newest_board(doomed)[2] < committed  # the board was lost

        # a replacement started at once is refused in one line: B's lease has not lapsed
        assert await db.fetchval("SELECT bool_and(expires_at > now()) FROM parley_shard_leases WHERE shard >= 2")
        connections = len(fake.identified)
        code, said = await replacement.refused()
        lines = [line for line in said.splitlines() if line.startswith("parley:")]
        assert code == 3 and len(lines) == 1, said
        assert "shards 2-3 of 4 are already served by process" in lines[0] and "lease" in lines[0], lines
        assert "Traceback" not in said and len(fake.identified) == connections  # it never touched the gateway

        # A goes on serving its guilds meanwhile
        for shard in (0, 1):
            await ana.play(tables[shard])

        # once the lease has lapsed the replacement takes shards 2-3 over and reposts the board B lost
        lapsed = "SELECT bool_and(expires_at <= now()) FROM parley_shard_leases WHERE shard >= 2"
        for _ in range(int(LEASE * 20)):
            if await db.fetchval(lapsed):
                break
            await asyncio.sleep(0.1)
        await replacement.start()
        assert fake.connected_shards == [(s, COUNT) for s in range(COUNT)]
        await ana.settle(doomed)
        assert ana.newest_board(doomed)[2] == committed
        for table in tables.values():  # every game goes on, on both clusters
            await ana.play(table)
            await ana.play(table)

        assert await a.stop() == 0, a.log()
        assert await replacement.stop() == 0, replacement.log()
        # clean stops give their shards back at once; B's lapsed rows went when the replacement took over
        assert await db.fetchval("SELECT count(*) FROM parley_shard_leases") == 0
    finally:
        a.kill()
        b.kill()
        replacement.kill()
        await db.close()

    # nothing acknowledged was lost or applied twice, and every log replays from its seed to its snapshot
    store = Store(pg_url)
    await store.open()
    try:
        for table in tables.values():
            row = await store.tables.last_in(table.channel)
            assert row is not None and row.status == "running" and row.guild_id == table.guild
            log = await store.tables.log(row.id)
            assert humans(log) == table.played, (table.guild, humans(log), table.played)
            assert [entry.n for entry in log] == list(range(1, len(log) + 1)) and row.state_no == len(log)
            game = registry.get(row.game_id)
            steps = replay_steps(game, row.players, row.options, row.seed, log)
            assert row.snapshot is not None and same_state(game, steps[-1][1], game.load(row.snapshot))
    finally:
        await store.close()
    for cluster in (a, b, replacement):
        assert "Traceback" not in cluster.log() and "REPLAY MISMATCH" not in cluster.log(), cluster.log()
    assert "took over shards 2-3 of 4 after the lease of" in replacement.log()


async def test_a_cluster_that_loses_its_lease_stops_in_one_line(fake: FakeDiscord, pg_url: str, tmp_path: Path) -> None:
    """If another process takes the rows over (as after a lapse the holder slept through), the holder learns it at
    its next renewal and stops, so that a shard is never served twice."""
    cluster = Cluster(fake, pg_url, "0-1", tmp_path, "a")
    db = await asyncpg.connect(pg_url)
    try:
        await cluster.start()
        taken = await db.execute("UPDATE parley_shard_leases SET holder = 'elsewhere:1:x'")
        assert taken == "UPDATE 2"
        assert cluster.proc is not None
        code = await asyncio.to_thread(cluster.proc.wait, 30)
        cluster.proc = None
        said = [line for line in cluster.log().splitlines() if line.startswith("parley:")]
        assert code == 3 and len(said) == 1, cluster.log()
        assert said[0].startswith("parley: lost the lease of shards 0-1 of 4 (its rows were taken over"), said
        await until(lambda: not fake.connected, "its gateway connections to close")
        rows = await db.fetch("SELECT holder FROM parley_shard_leases")
        assert {r["holder"] for r in rows} == {"elsewhere:1:x"}  # it did not delete rows that are not its own
    finally:
        cluster.kill()
        await db.close()
