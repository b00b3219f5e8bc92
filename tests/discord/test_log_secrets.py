"""No token and no private text in the logs, at DEBUG: the real ``parley run`` process with
``PARLEY_LOG_LEVEL=DEBUG``, pointed at the loopback fake Discord, hosts a game of Cartagena in which Ana gets her
hand and the cards she draws by DM, reads her hand with /hand and picks from the picker (ephemeral answers built
from her hand). Its whole log, discord.py's ``discord.http``, ``discord.gateway`` and ``discord.client`` lines
included, is then searched for the bot token, every interaction token and every line of every DM and ephemeral
answer: none may be there. The log must still say something at DEBUG (requests, gateway events by name)."""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.discord.conftest import GUILD_ID
from tests.discord.fakediscord import GOOD_TOKEN, FakeDiscord
from tests.discord.test_faults import CHANNEL, Ana, ParleyProcess, current_board, db_state, until

#: a line of a DM or an ephemeral answer this long is private text that must not reach the log (shorter ones
#: are words like "Played" that a log line may say for its own reasons)
PRIVATE_LINE = 12


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    server = FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL)
    server.start()
    try:
        with server.patch():
            yield server
    finally:
        server.stop()


def dm_texts(fake: FakeDiscord) -> list[str]:
    return [m.get("content", "") for mid, m in fake.messages.items() if fake.channel_of[mid] in fake.dm_channels]


def ephemeral_texts(fake: FakeDiscord) -> list[str]:
    texts = []
    for message in fake.ephemeral.values():
        texts.append(message.get("content", ""))
        for row in message.get("components", []):
            for item in row.get("components", []):
                texts += [o.get("label", "") for o in item.get("options", [])]
                texts += [o.get("description", "") or "" for o in item.get("options", [])]
    return texts


def private_lines(texts: list[str]) -> set[str]:
    lines = {line.strip() for text in texts for line in text.splitlines()}
    return {line for line in lines if len(line) >= PRIVATE_LINE}


async def test_a_debug_log_of_a_game_with_dms_holds_no_token_and_no_private_text(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    parley = ParleyProcess(fake, tmp_path, log_level="DEBUG")
    ana = Ana(fake, db_state(parley.db))
    try:
        await parley.start()
        await ana.open_table()
        await until(lambda: dm_texts(fake), what="Ana's hand by DM")
        hand = await ana.command("hand")
        assert "Your hand" in hand, hand
        await ana.pick_on_board(current_board(fake)[0])  # the picker: her hand's choices, ephemeral
        # moves back draw cards, whose names reach her by DM only
        for _ in range(12):
            offered = await ana.offered()
            back = [a for a in offered if a.startswith("back")]
            await ana.command("play", action=(back or offered)[0])
            if len(dm_texts(fake)) >= 3:
                break
        assert len(dm_texts(fake)) >= 3, dm_texts(fake)
        assert await parley.stop(signal.SIGTERM) == 0, parley.log()
    finally:
        parley.kill()

    log = parley.log()
    assert " DEBUG " in log and "discord.http" in log and "discord.gateway" in log, log[-3000:]
    assert "INTERACTION_CREATE" in log  # events are still named
    # the fake names every interaction's token "interaction-token-<n>"
    leaked_tokens = sorted(set(re.findall(r"interaction-token-\d+", log))) + [GOOD_TOKEN] * (GOOD_TOKEN in log)
    assert leaked_tokens == [], leaked_tokens
    secrets = private_lines(dm_texts(fake) + ephemeral_texts(fake) + [hand])
    assert len(secrets) >= 5, secrets
    leaked = sorted(line for line in secrets if line in log)
    assert leaked == [], leaked
