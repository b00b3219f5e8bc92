"""Statistics and ratings are per server, in every command, through the real discord.py client and our cogs
against simcord: two servers share the bot and the players. A game on one server never shows in the other's
/stats show (yours or a member's), /leaderboard or result line, and ``parley ratings rebuild`` keeps them apart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.cli.main import main
from bot.host.tables import TableHost
from tests.discord.conftest import GUILD_ID, World, make_bot, reply
from tests.discord.helpers import play_game_by_slash
from tests.discord.test_ratings_discord import NOW

OTHER_GUILD = GUILD_ID + (1 << 22)


def _world(env: simcord.Env, db: str, hosts: list[TableHost], guild_id: int, users: dict[str, Any]) -> World:
    guild = env.create_guild(f"Server {guild_id}", id=guild_id)
    channel = guild.create_text_channel("tavern")
    perms = discord.Permissions(manage_guild=True, manage_channels=True)
    mods = guild.create_role("Mods", permissions=perms)
    members = {name: guild.add_member(user, roles=[mods] if name == "mod" else []) for name, user in users.items()}
    return World(env, db, guild, channel, members["mod"], members["ana"], members["bo"], members["cy"], hosts)


@pytest.fixture
async def servers(tmp_path: Path) -> AsyncIterator[tuple[World, World]]:
    """Two servers with the same four people, one bot, one database."""
    db = str(tmp_path / "parley.sqlite3")
    hosts: list[TableHost] = []
    holder: list[Any] = [None]
    # the bot syncs its commands to its development guild only: the second server uses them unsynced
    env = simcord.Env(make_bot(None, db, hosts, holder), settle_timeout=60.0, strict_sync=False)
    holder[0] = env
    users = {name: env.create_user(name) for name in ("mod", "ana", "bo", "cy")}
    here, there = _world(env, db, hosts, GUILD_ID, users), _world(env, db, hosts, OTHER_GUILD, users)
    await env.start()
    try:
        yield here, there
    finally:
        await env.shutdown()
        for host in hosts:
            await host.close()
        env.raise_errors()


def result_line(w: World) -> str:
    result = [m for m in w.messages() if "Game over" in m.content][-1]
    return result.content.splitlines()[-1]


async def test_a_game_on_another_server_is_not_in_this_servers_statistics_ratings_or_result_line(
    servers: tuple[World, World], tmp_path: Path
) -> None:
    here, there = servers
    await there.open_table(there.ana, ai=1)
    await play_game_by_slash(there)
    elsewhere = result_line(there)
    assert elsewhere.startswith("Ratings: ") and "ana 25.0 → " in elsewhere, elsewhere
    assert "Cartagena: 1 played" in reply(await there.ana.slash(there.channel, "stats show"))

    # here, nothing of it: not in Ana's own /stats, nor in a member's, nor on the leaderboard
    assert reply(await here.ana.slash(here.channel, "stats show")) == "You have no finished games yet."
    shown = reply(await here.bo.slash(here.channel, "stats show", member=here.ana))
    assert shown == "That member has no finished games yet.", shown  # not even the name she played under there
    board = reply(await here.bo.slash(here.channel, "leaderboard", game="cartagena"))
    assert board == "Nobody has 3 rated Cartagena games on this server yet."

    # a game here starts from this server's prior (25.0), not from where the other server left her
    await here.open_table(here.ana, ai=1)
    await play_game_by_slash(here)
    line = result_line(here)
    assert "ana 25.0 → " in line and "mod 25.0 → " in line and "Parley AI · easy 25.0 → " in line, line
    mine_here = next(c for c in await here.host.store.ratings.changes(here.summary().table_id) if c.name == "ana")
    mine_there = next(c for c in await there.host.store.ratings.changes(there.summary().table_id) if c.name == "ana")
    stats_here = reply(await here.ana.slash(here.channel, "stats show"))
    stats_there = reply(await there.ana.slash(there.channel, "stats show"))
    assert f"rating {mine_here.after.mu:.1f} ± {mine_here.after.sigma:.1f} here" in stats_here, stats_here
    assert f"rating {mine_there.after.mu:.1f} ± {mine_there.after.sigma:.1f} here" in stats_there, stats_there
    assert "1 played" in stats_here and "1 played" in stats_there

    # a member's statistics name them as they played here
    assert reply(await here.bo.slash(here.channel, "stats show", member=here.ana)).startswith("ana has played:")

    # `parley ratings rebuild` (an operator, while the bot runs) keeps every server's ratings its own
    db = here.db_path
    before = (
        await here.host.store.ratings.of_user(GUILD_ID, here.ana.id, min_games=3),
        await here.host.store.ratings.of_user(OTHER_GUILD, here.ana.id, min_games=3),
    )
    assert await asyncio.to_thread(main, ["--env-file", "/nonexistent", "ratings", "rebuild", "--db", db]) == 0
    after = (
        await here.host.store.ratings.of_user(GUILD_ID, here.ana.id, min_games=3),
        await here.host.store.ratings.of_user(OTHER_GUILD, here.ana.id, min_games=3),
    )
    assert after == before and [r.games for rows in after for _, r, _ in rows] == [1, 1]  # one game on each
    assert reply(await here.ana.slash(here.channel, "stats show")) == stats_here


async def test_leaderboard_and_a_members_statistics_list_only_this_servers_players(
    servers: tuple[World, World],
) -> None:
    here, there = servers
    async with here.host.store.transaction() as tx:
        await tx.executemany(
            "INSERT INTO ratings (guild_id, game_id, player, user_id, name, mu, sigma, games, updated)"
            " VALUES (?, 'cartagena', ?, ?, ?, ?, ?, ?, ?)",
            [
                (OTHER_GUILD, str(here.cy.id), here.cy.id, "Cy the Elsewhere", 40.0, 2.0, 9, NOW),
                (GUILD_ID, str(here.bo.id), here.bo.id, "bo", 26.0, 3.0, 9, NOW),
            ],
        )
    board = reply(await here.ana.slash(here.channel, "leaderboard", game="cartagena")).splitlines()
    assert board[1:] == ["1. bo: **17.0** (26.0 ± 3.0, 9 games)"], board
    assert "Cy the Elsewhere" in reply(await there.ana.slash(there.channel, "leaderboard", game="cartagena"))
    shown = reply(await here.ana.slash(here.channel, "stats show", member=here.cy))
    assert shown == "That member has no finished games yet.", shown
    shown = reply(await there.ana.slash(there.channel, "stats show", member=there.cy))
    assert shown.startswith("Cy the Elsewhere has played:") and "rating 40.0 ± 2.0 here, rank 1" in shown, shown
