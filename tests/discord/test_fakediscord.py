"""The real discord.py HTTP client against a loopback fake Discord: rate limits, login failures, command sync."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.host.tables import Outputs, Post, TableHost
from bot.infra.settings import Settings
from bot.infra.store import Store
from bot.transports.discord.client import ParleyBot, run, sync
from bot.transports.discord.delivery import Delivery
from tests.discord.conftest import TINY_PNG
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord, channel_payload

CHANNEL = 777


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord()
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


def board(text: str, key: str) -> Post:
    return Post(text=text, image=TINY_PNG, buttons=True, state_no=3, board_key=key, table_id=1, mentions=[55])


async def test_a_board_post_answered_with_429_waits_retry_after_and_arrives(fake: FakeDiscord, tmp_path: Path) -> None:
    bot = ParleyBot(TableHost(Store(str(tmp_path / "db.sqlite3"))), mode="sync")
    await bot.host.start()  # delivery remembers each table's board post in the host's store
    async with bot:
        await bot.login(GOOD_TOKEN)
        delivery = Delivery(bot, bot.host)
        fake.rate_limit_next(1, retry_after=0.4)
        await delivery.deliver(Outputs(public=[board("move 3", "1:3")], channel_id=CHANNEL))
        posts = [r for r in fake.requests if r.method == "POST" and r.path.endswith(f"/channels/{CHANNEL}/messages")]
        assert [r.status for r in posts] == [429, 200]
        assert posts[1].at - posts[0].at >= 0.4
        [(message_id, payload)] = fake.messages.items()
        assert payload["content"].startswith("<@55>") and "move 3" in payload["content"]
        assert fake.files[message_id] == [TINY_PNG]
        custom_ids = [c["custom_id"] for row in payload["components"] for c in row["components"]]
        assert custom_ids == ["parley:turn:1:3", "parley:hand:1:3", "parley:zoom:1:3"]
        # the same turn edits that post instead of posting again
        await delivery.deliver(Outputs(public=[board("move 3, then 4", "1:3")], channel_id=CHANNEL))
        assert len(fake.messages) == 1 and "then 4" in fake.messages[message_id]["content"]
        assert [r.method for r in fake.requests if "/messages" in r.path][-1] == "PATCH"
    await bot.host.close()


def test_a_missing_token_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(Settings(token="")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN" in err and "Traceback" not in err


def test_a_rejected_token_is_one_line_and_exit_2(
    fake: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "not.the.right-token"
    assert run(Settings(token=secret, db_path=str(tmp_path / "db.sqlite3"))) == 2
    err = capsys.readouterr().err
    assert "rejected" in err and "Traceback" not in err and secret not in err
    assert [line for line in err.splitlines() if line.startswith("parley:")] == [err.strip().splitlines()[-1]]
    assert fake.requests and fake.requests[0].status == 401


def test_sync_pushes_every_command_with_each_games_typed_options(fake: FakeDiscord, tmp_path: Path) -> None:
    assert sync(Settings(token=GOOD_TOKEN, db_path=str(tmp_path / "db.sqlite3"))) == 0
    names = sorted(c["name"] for c in fake.commands)
    assert names == ["config", "hand", "leaderboard", "play", "rules", "stats", "table", "undo"]
    table = next(c for c in fake.commands if c["name"] == "table")
    open_group = next(o for o in table["options"] if o["name"] == "open")
    cartagena = next(o for o in open_group["options"] if o["name"] == "cartagena")
    mode = next(o for o in cartagena["options"] if o["name"] == "mode")
    assert [c["value"] for c in mode["choices"]] == ["jamaica", "tortuga"]
    config = next(c for c in fake.commands if c["name"] == "config")
    assert int(config["default_member_permissions"]) == discord.Permissions(manage_guild=True).value


def slash_payload(interaction_id: int, guild_id: int, channel_id: int, user_id: int) -> dict[str, object]:
    """``/table open cartagena mode:tortuga`` as Discord sends it over the gateway."""
    member = {
        "user": {"id": str(user_id), "username": "ana", "discriminator": "0", "global_name": "Ana", "avatar": None},
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(discord.Permissions(manage_channels=True).value),
    }
    options = [{"name": "open", "type": 2, "options": [{"name": "cartagena", "type": 1, "options": []}]}]
    options[0]["options"][0]["options"] = [{"name": "mode", "type": 3, "value": "tortuga"}]  # type: ignore[index]
    return {
        "id": str(interaction_id),
        "application_id": str(4243),
        "type": 2,
        "token": "interaction-token",
        "version": 1,
        "guild_id": str(guild_id),
        "channel_id": str(channel_id),
        "channel": channel_payload(channel_id, guild_id),
        "member": member,
        "app_permissions": str(discord.Permissions.all().value),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": 0,
        "attachment_size_limit": 26214400,
        "data": {"id": "1", "name": "table", "type": 1, "guild_id": str(guild_id), "options": options},
    }


async def _until(check: object, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():  # type: ignore[operator]
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_the_bot_connects_and_answers_a_slash_command_over_a_real_gateway(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    guild_id, channel_id, user_id = 9001, 9002, 9003
    bot = ParleyBot(TableHost(Store(str(tmp_path / "db.sqlite3"))), dev_guild=guild_id)
    runner = asyncio.create_task(bot.start(GOOD_TOKEN))
    try:
        await _until(lambda: fake.identified and bot.is_ready())
        assert fake.identified[0]["shard"] == [0, 1]
        synced = [r for r in fake.requests if r.method == "PUT"]
        assert [r.path for r in synced] == [f"/api/v10/applications/4243/guilds/{guild_id}/commands"]
        fake.dispatch("INTERACTION_CREATE", slash_payload(5001, guild_id, channel_id, user_id))
        await _until(lambda: fake.followups)
        assert fake.callbacks[0]["type"] == 5  # deferred at once
        assert fake.followups[0]["flags"] & 64 and "Opened a Cartagena table" in fake.followups[0]["content"]
        await _until(lambda: fake.messages)
        [lobby] = fake.messages.values()
        assert "lobby" in lobby["content"] and "tortuga" in lobby["content"]
    finally:
        await bot.close()
        await asyncio.wait_for(runner, 10)
