"""The Discord end-to-end harness: the real discord.py client and our real cogs against simcord's simulated
Discord, over a real table host on a SQLite file. The host's clock follows simcord's virtual clock, so
``env.advance_time`` drives both the tick loop and the turn deadlines."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from PIL import Image
from simcord.results import ResponseMessage

from bot.host.tables import TableHost, TableSummary
from bot.infra.store import Store
from bot.transports.discord.client import ParleyBot

GUILD_ID = 0x10000000 << 22  # a fixed id so the bot syncs its commands to it as its development guild
EPOCH = 1_800_000_000.0
TICK_SECONDS = 5.0
TURN = re.compile(r"parley:turn:(\d+):(\d+)")


@dataclass
class World:
    """One simulated server with a table channel, three players and a moderator."""

    env: simcord.Env
    db_path: str
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    mod: simcord.MemberActor
    ana: simcord.MemberActor
    bo: simcord.MemberActor
    cy: simcord.MemberActor
    hosts: list[TableHost] = field(default_factory=list)
    real_pictures: bool = False

    # -- the bot ------------------------------------------------------------------------------------------
    @property
    def bot(self) -> ParleyBot:
        return self.env.bot  # type: ignore[return-value]

    @property
    def host(self) -> TableHost:
        return self.bot.host

    def summary(self) -> TableSummary:
        summary = self.host.table_for(self.channel.id)
        assert summary is not None
        return summary

    async def restart(self) -> None:
        """Restart the bot process: a new client and a new host on the same database file."""
        old = self.host
        await self.env.restart_bot(make_bot(self.env, self.db_path, self.hosts, real_pictures=self.real_pictures))
        await old.close()

    # -- who is who ---------------------------------------------------------------------------------------
    @property
    def players(self) -> list[simcord.MemberActor]:
        return [self.ana, self.bo, self.cy, self.mod]

    def actor(self, user_id: int) -> simcord.MemberActor:
        return next(p for p in self.players if p.id == user_id)

    def to_act(self) -> list[simcord.MemberActor]:
        """The human players the table waits for."""
        s = self.summary()
        seats = {seat.seat: seat for seat in s.seats}
        return [
            self.actor(int(seats[n].user_id))  # type: ignore[arg-type]
            for n in s.to_act
            if seats[n].ai_level is None and seats[n].user_id is not None
        ]

    # -- reading the channel --------------------------------------------------------------------------------
    def messages(self) -> list[discord.Message]:
        return self.channel.history()

    def board_posts(self) -> list[discord.Message]:
        return [m for m in self.messages() if turn_button(m) is not None]

    def current_board(self) -> discord.Message:
        """The newest board post whose "Take your turn" button carries the current state number."""
        s = self.summary()
        for message in reversed(self.board_posts()):
            ids = TURN.fullmatch(turn_button(message) or "")
            if ids and int(ids[1]) == s.table_id and int(ids[2]) == s.state_no:
                return message
        raise AssertionError(f"no board post for state {s.state_no}")

    def dm_texts(self, member: simcord.MemberActor) -> list[str]:
        return [m.content for m in member.user.dm_channel.history()]

    def refresh(self, message: ResponseMessage) -> ResponseMessage:
        """An ephemeral message as it is now (the picker edits itself in place)."""
        return ResponseMessage(self.env, self.env.backend.get_message(message.channel_id, message.id))

    # -- common steps -------------------------------------------------------------------------------------
    async def open_table(self, *humans: simcord.MemberActor, ai: int = 1, **options: str) -> None:
        """A moderator opens Cartagena, the humans join, AIs are added and the game starts."""
        result = await self.mod.slash(self.channel, "table open cartagena", **options)
        assert self.host.table_for(self.channel.id) is not None, reply(result)
        for member in humans:
            result = await member.slash(self.channel, "table join")
            assert "join" in reply(result).lower() or "seat" in reply(result).lower(), reply(result)
        for _ in range(ai):
            await self.mod.slash(self.channel, "table ai add", level="easy")
        result = await self.mod.slash(self.channel, "table start")
        assert self.summary().status == "running", reply(result)


def turn_button(message: discord.Message | ResponseMessage) -> str | None:
    for row in message.components:
        children = row.children if hasattr(row, "children") else row.get("components", [])  # type: ignore[union-attr]
        for item in children:
            custom_id = item.custom_id if hasattr(item, "custom_id") else item.get("custom_id")
            if custom_id and custom_id.startswith("parley:turn:"):
                return custom_id
    return None


def selects(message: ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 3]


def buttons(message: ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 2]


def reply(result: simcord.InteractionResult) -> str:
    """The ephemeral answer of a command or a button (deferred: the first follow-up replaces the wait)."""
    message = result.response
    if message is None and result.followups:
        message = result.followups[0]
    assert message is not None, "the interaction got no answer"
    return message.content


def answer(result: simcord.InteractionResult) -> ResponseMessage:
    message = result.response or (result.followups[0] if result.followups else None)
    assert message is not None, "the interaction got no answer"
    return message


def _tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (20, 60, 120)).save(out, format="PNG")
    return out.getvalue()


TINY_PNG = _tiny_png()


def fast_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """A stand-in picture: the renderers have their own tests, these tests are about the transport."""
    return TINY_PNG


def make_bot(
    env: simcord.Env | None,
    db_path: str,
    hosts: list[TableHost],
    holder: list[Any] | None = None,
    *,
    real_pictures: bool = False,
) -> ParleyBot:
    """A bot over a fresh host on ``db_path``, its clock tied to simcord's virtual clock."""
    ref = holder if holder is not None else [env]

    def clock() -> float:
        current = ref[0]
        return EPOCH + (current.backend.clock.elapsed if current is not None else 0.0)

    host = TableHost(
        Store(db_path),
        clock=clock,
        ai_seed="discord-tests",
        renderer=None if real_pictures else fast_renderer,
        replay_frames=6,
    )
    hosts.append(host)
    return ParleyBot(host, dev_guild=GUILD_ID, tick_seconds=TICK_SECONDS, shard_count=1)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_pictures: draw the real boards instead of a stand-in picture")


@pytest.fixture
async def world(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[World]:
    db_path = str(tmp_path / "parley.sqlite3")
    hosts: list[TableHost] = []
    holder: list[Any] = [None]
    real = request.node.get_closest_marker("real_pictures") is not None
    env = simcord.Env(make_bot(None, db_path, hosts, holder, real_pictures=real), settle_timeout=60.0)
    holder[0] = env
    guild = env.create_guild("Pirates", id=GUILD_ID)
    channel = guild.create_text_channel("tavern")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True, manage_channels=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods, admins])
    ana = guild.add_member(env.create_user("ana"))
    bo = guild.add_member(env.create_user("bo"))
    cy = guild.add_member(env.create_user("cy"))
    await env.start()
    try:
        yield World(env, db_path, guild, channel, mod, ana, bo, cy, hosts, real)
    finally:
        await env.shutdown()
        for host in hosts:
            with contextlib.suppress(Exception):  # closing twice (after a restart) is harmless
                await host.close()
        env.raise_errors()
