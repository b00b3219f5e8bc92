"""The host checks /config's values itself, against their declared ranges and types, whatever a transport let
through: on both databases, since PostgreSQL's 32-bit INTEGER is where an unchecked turn limit used to crash
(SQLite stored a limit of 150,119,987,579,016 hours)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.host.tables import TableHost
from tests.host.conftest import ADMIN


@pytest.fixture
def db_path(db_url: str) -> str:
    """The host fixture's database is ``db_url``: SQLite and PostgreSQL."""
    return db_url


@pytest.mark.parametrize(
    "settings",
    [
        {"turn_limit_seconds": 9_007_199_254_740_991 * 60},  # the SQLite value and the PostgreSQL crash of the issue
        {"turn_limit_seconds": 43_201 * 60},
        {"turn_limit_seconds": 59},
        {"turn_limit_seconds": "600"},
        {"turn_limit_seconds": True},
        {"turn_limit_seconds": 600.5},
        {"host_role_id": 2**64},
        {"host_role_id": -3},
        {"anyone_can_open": "perhaps"},
        {"ai_takeover": 7},
    ],
)
async def test_the_host_checks_every_setting_against_its_declared_range(
    host: TableHost, settings: dict[str, Any]
) -> None:
    before = await host.store.guilds.settings(ADMIN.guild_id)
    out = await host.config(ADMIN, **settings)
    assert not out.ok and host.internal_errors == 0, out.reply
    key = next(iter(settings))
    assert {
        "turn_limit_seconds": "The turn time limit must be from 1 minute to 43,200 minutes (30 days).",
        "host_role_id": "The host role must be one of this server's roles, or none.",
        "anyone_can_open": "Anyone can open is on or off.",
        "ai_takeover": "Ai takeover is on or off.",
    }[key] == out.reply
    assert await host.store.guilds.settings(ADMIN.guild_id) == before
    assert (await host.config(ADMIN, turn_limit_seconds=43_200 * 60)).ok  # the bound itself is fine
