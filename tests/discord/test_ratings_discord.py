"""Ratings on Discord: the end-of-game line, /leaderboard (μ − 3σ, μ ± σ, games, after 3 rated games) and
/stats (each game's rating and rank), through the real discord.py client and our cogs against simcord."""

from __future__ import annotations

from tests.discord.conftest import GUILD_ID, World, answer, reply
from tests.discord.helpers import play_game_by_slash

NOW = 1_700_000_000.0


async def seed_ratings(w: World, rows: list[tuple[str, int | None, str, float, float, int]]) -> None:
    """Ratings as if those games had been played: (player, user id, name, μ, σ, games) for Cartagena here."""
    async with w.host.store.transaction() as tx:
        await tx.executemany(
            "INSERT INTO ratings (guild_id, game_id, player, user_id, name, mu, sigma, games, updated)"
            " VALUES (?, 'cartagena', ?, ?, ?, ?, ?, ?, ?)",
            [(GUILD_ID, p, uid, name, mu, sigma, games, NOW) for p, uid, name, mu, sigma, games in rows],
        )


async def test_the_result_post_shows_each_players_rating_change_and_stats_the_rating(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    await play_game_by_slash(w)
    result = next(m for m in w.messages() if "Game over" in m.content)
    line = result.content.splitlines()[-1]
    assert line.startswith("Ratings: ") and "Parley AI · easy 25.0 → " in line, line
    changes = await w.host.store.ratings.changes(w.summary().table_id)
    assert {c.name for c in changes} == {"mod", "ana", "Parley AI · easy"}  # the opener sits too
    for c in changes:
        assert f"{c.name} {c.before.mu:.1f} → {c.after.mu:.1f}" in line
    stats = await w.ana.slash(w.channel, "stats show")
    mine = next(c for c in changes if c.user_id == w.ana.id)
    assert answer(stats).ephemeral
    assert f"rating {mine.after.mu:.1f} ± {mine.after.sigma:.1f} here, unranked until 3 rated games" in reply(stats)


async def test_leaderboard_ranks_by_conservative_rating_after_three_games(world: World) -> None:
    w = world
    await seed_ratings(
        w,
        [
            (str(w.ana.id), w.ana.id, "ana", 30.0, 6.0, 5),  # 12.0
            (str(w.bo.id), w.bo.id, "bo", 26.0, 3.0, 9),  # 17.0
            ("ai:hard", None, "Parley AI · hard", 28.0, 4.0, 3),  # 16.0
            (str(w.cy.id), w.cy.id, "cy", 40.0, 2.0, 2),  # 34.0, but only 2 games
        ],
    )
    result = await w.ana.slash(w.channel, "leaderboard", game="cartagena")
    assert answer(result).ephemeral
    assert reply(result).splitlines() == [
        "**Cartagena** leaderboard · skill μ − 3σ · after 3 rated games",
        "1. bo: **17.0** (26.0 ± 3.0, 9 games)",
        "2. Parley AI · hard: **16.0** (28.0 ± 4.0, 3 games)",
        "3. ana: **12.0** (30.0 ± 6.0, 5 games)",
    ]
    # /stats names the rank on that list (results rows make the game count as played)
    await w.host.store.guilds.record_results(
        [
            {"table_id": 1, "guild_id": GUILD_ID, "game_id": "cartagena", "user_id": w.ana.id, "name": "ana"}
            | {"seat": 0, "won": 1, "score": None, "finished": NOW}
        ]
    )
    stats = reply(await w.ana.slash(w.channel, "stats show"))
    assert "Cartagena: 1 played, 1 won; rating 30.0 ± 6.0 here, rank 3" in stats
    # forgetting removes the rating from the leaderboard too
    assert "ratings" in reply(await w.ana.slash(w.channel, "stats forget"))
    assert "ana" not in reply(await w.bo.slash(w.channel, "leaderboard", game="cartagena"))


async def test_leaderboard_before_anyone_has_three_games(world: World) -> None:
    w = world
    result = await w.ana.slash(w.channel, "leaderboard", game="martinique")
    assert reply(result) == "Nobody has 3 rated Martinique games on this server yet."
