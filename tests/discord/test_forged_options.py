"""Typed options a modified client sends outside what a command declared, through the real discord.py client
against the loopback fake Discord (which, unlike simcord and Discord's own client, sends any value): each is
refused ephemerally, naming what is allowed, and nothing is stored or run. Values inside the declaration still
work. The host's own checks are tested in tests/host/test_config_ranges.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.transports.discord.views import UNKNOWN_COMPONENT
from tests.discord.conftest import GUILD_ID
from tests.discord.fakediscord import EPHEMERAL, FakeDiscord, Person
from tests.discord.test_faults import CHANNEL, running_bot, until

ADMIN = Person(5001, "ana", moderator=True, admin=True)
STRING, INTEGER, BOOLEAN, ROLE, NUMBER = 3, 4, 5, 8, 10


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL)
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


async def said(fake: FakeDiscord, token: str) -> str:
    """The ephemeral answer to an interaction: a refusal before the command runs (an immediate reply) or the
    command's own answer (deferred, then a follow-up)."""

    def first() -> dict[str, Any] | None:
        for a in fake.answers(token):
            if a["kind"] == "followup" or (a["kind"] == "callback" and a["type"] == 4):
                return a if a["kind"] == "followup" else a["data"]
        return None

    await until(lambda: first() is not None, what=f"an answer to {token}")
    answer = first()
    assert answer is not None and answer.get("flags", 0) & EPHEMERAL, answer
    return str(answer["content"])


def option(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


async def test_config_refuses_a_turn_limit_outside_its_range_whatever_the_client_sent(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running_bot(tmp_path / "parley.sqlite3") as bot:
        before = await bot.host.guild_settings(GUILD_ID)
        for value, kind in [
            (9_007_199_254_740_991, INTEGER),
            (0, INTEGER),
            (-5, INTEGER),
            (43_201, INTEGER),
            ("abc", INTEGER),
            (True, INTEGER),
            (12.5, INTEGER),
        ]:
            text = await said(fake, fake.slash_raw(ADMIN, "config", [option("turn_limit_minutes", kind, value)]))
            assert text.startswith("`turn_limit_minutes` must be") and "from 1 to 43,200" in text, (value, text)
        assert await bot.host.guild_settings(GUILD_ID) == before
        stored = await bot.host.store.guilds.settings(GUILD_ID)
        assert stored["turn_limit_seconds"] == 86_400
        # a forged role id too big for a Discord id (and for PostgreSQL's BIGINT), and a boolean that is not one
        text = await said(fake, fake.slash_raw(ADMIN, "config", [option("host_role", ROLE, str(2**64))]))
        assert text == "`host_role` must be picked from Discord's list.", text
        text = await said(fake, fake.slash_raw(ADMIN, "config", [option("anyone_can_open", BOOLEAN, "yes please")]))
        assert text == "`anyone_can_open` must be true or false.", text
        assert await bot.host.store.guilds.settings(GUILD_ID) == stored
        # the declared bounds themselves are fine
        text = await said(fake, fake.slash_raw(ADMIN, "config", [option("turn_limit_minutes", INTEGER, 43_200)]))
        assert "turn time limit: 720 h" in text, text
        assert (await bot.host.store.guilds.settings(GUILD_ID))["turn_limit_seconds"] == 43_200 * 60


async def test_table_commands_refuse_choices_ranges_and_types_they_never_offered(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running_bot(tmp_path / "parley.sqlite3") as bot:
        text = await said(fake, fake.slash_raw(ADMIN, "table open cartagena", [option("mode", STRING, "atlantis")]))
        assert text == "`mode` must be one of: jamaica, tortuga.", text
        text = await said(fake, fake.slash_raw(ADMIN, "table open cartagena", [option("seed", STRING, "42")]))
        assert text == "/table open cartagena has no option `seed`.", text
        assert bot.host.table_for(CHANNEL) is None
        assert "Opened" in await said(fake, fake.slash_raw(ADMIN, "table open cartagena", []))
        for options, want in [
            ([option("level", STRING, "grandmaster")], "`level` must be one of: easy, normal, hard."),
            ([option("level", STRING, "hard"), option("seconds", NUMBER, 1e9)], "`seconds` must be from 0.2 to 10."),
            ([option("level", STRING, "hard"), option("seconds", NUMBER, "abc")], "I couldn't read the options"),
            ([option("level", STRING, "hard"), option("seconds", STRING, "nan")], "`seconds` must be a number"),
        ]:
            text = await said(fake, fake.slash_raw(ADMIN, "table ai add", options))
            assert text.startswith(want), (options, text)
        summary = bot.host.table_for(CHANNEL)
        assert summary is not None and [s.user_id for s in summary.seats] == [ADMIN.id]  # no AI was seated
        for seat in (0, -1, 10**30):
            text = await said(fake, fake.slash_raw(ADMIN, "table join", [option("seat", INTEGER, seat)]))
            assert text == "`seat` must be from 1 to 99.", (seat, text)
        text = await said(fake, fake.slash_raw(ADMIN, "rules", [option("section", STRING, "secrets")]))
        assert text == "`section` must be one of: rules, cards.", text
        # inside the declaration, the same commands work
        assert "Added an AI (hard, 0.5 s)" in await said(
            fake,
            fake.slash_raw(ADMIN, "table ai add", [option("level", STRING, "hard"), option("seconds", NUMBER, 0.5)]),
        )


async def test_a_component_no_item_reads_gets_a_polite_line_not_a_failed_interaction(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A forged or mangled custom id that none of the bot's components reads (or that is not on the message
    clicked): discord.py drops it and the person would read Discord's "This interaction failed". Each gets one
    ephemeral line, the same whatever the id held, and nothing runs."""
    async with running_bot(tmp_path / "parley.sqlite3") as bot:
        assert "Opened" in await said(fake, fake.slash_raw(ADMIN, "table open cartagena", []))
        assert "Added an AI" in await said(fake, fake.slash_raw(ADMIN, "table ai add", []))
        await said(fake, fake.slash_raw(ADMIN, "table start", []))
        await until(lambda: board(fake) is not None, what="a board post")
        post, zoom = board(fake) or (0, "")
        before = bot.host.table_for(CHANNEL)
        assert before is not None and before.status == "running"
        forged = ["parley:nonsense", "parley:pick:x", "parley:pick:1:2:3", "parley:turn:1", "other:bot", "", "٣" * 90]
        forged.append(f"parley:turn:{before.table_id}:{before.state_no + 1}")  # fits a template, not on the post
        for custom_id in forged:
            assert await said(fake, fake.click(ADMIN, post, custom_id)) == UNKNOWN_COMPONENT, custom_id
            assert await said(fake, fake.select(ADMIN, post, custom_id, ["a0"])) == UNKNOWN_COMPONENT, custom_id
        assert await said(fake, fake.select(ADMIN, post, zoom, ["a0"])) == UNKNOWN_COMPONENT  # a button as a menu
        assert bot.host.table_for(CHANNEL) == before and bot.host.internal_errors == 0
        assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
        assert not any(custom_id in r.getMessage() for r in caplog.records for custom_id in forged[:2])
        # a component the post carries is still answered by its item, not by this line
        assert await said(fake, fake.click(ADMIN, post, zoom)) == f"Close-up of the board at move {before.state_no}."


def board(fake: FakeDiscord) -> tuple[int, str] | None:
    """The id of a channel post with a Zoom button, and that button's custom id."""
    for message_id, message in list(fake.messages.items()):
        for row in message.get("components", []):
            for item in row.get("components", []):
                if str(item.get("custom_id", "")).startswith("parley:zoom:"):
                    return message_id, item["custom_id"]
    return None
