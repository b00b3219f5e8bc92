"""Lobby: opening, seats, AI seats, permissions, start, end, idle close."""

from __future__ import annotations

from bot.host.tables import Caller, TableHost
from tests.host.conftest import ADMIN, ANA, BEN, CHANNEL, CID, GUILD, Clock, lobby


async def test_open_seats_the_opener_and_posts_the_lobby(host: TableHost) -> None:
    out = await host.open(ANA, "toy", {"length": "long"})
    assert out.ok and out.channel_id == CHANNEL
    assert "Toy Gems" in out.public[0].text and "length: long" in out.public[0].text
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "lobby" and summary.host_id == ANA.user_id
    assert [(s.seat, s.user_id, s.ai_level) for s in summary.seats] == [(0, ANA.user_id, None)]


async def test_open_refuses_a_second_table_unknown_games_and_bad_options(host: TableHost) -> None:
    assert not (await host.open(ANA, "nosuchgame", {})).ok
    bad = await host.open(ANA, "toy", {"length": "huge"})
    assert not bad.ok and "short" in bad.reply
    assert (await host.open(ANA, "toy", {})).ok
    again = await host.open(ANA, "toy", {})
    assert not again.ok and "already has a table" in again.reply


async def test_only_moderators_open_unless_the_server_allows_anyone(host: TableHost) -> None:
    refused = await host.open(BEN, "toy", {})
    assert not refused.ok and "moderators" in refused.reply
    assert not (await host.config(BEN, anyone_can_open=True)).ok  # Manage Server only
    assert (await host.config(ADMIN, anyone_can_open=True)).ok
    assert (await host.open(BEN, "toy", {})).ok


async def test_join_choose_seat_full_table_and_leave(host: TableHost) -> None:
    await host.open(ANA, "toy", {})
    taken = await host.join(BEN, seat=0)
    assert not taken.ok and "taken" in taken.reply
    assert (await host.join(BEN, seat=3)).ok
    assert not (await host.join(BEN)).ok  # already seated
    for i in range(2):
        assert (await host.join(Caller(GUILD, CHANNEL, 200 + i, f"P{i}"))).ok
    full = await host.join(Caller(GUILD, CHANNEL, 300, "Late"))
    assert not full.ok and "full" in full.reply
    assert (await host.leave(BEN)).ok
    summary = host.table_for(CHANNEL)
    assert summary is not None and BEN.user_id not in [s.user_id for s in summary.seats]


async def test_ai_seats_are_added_and_removed_by_host_or_moderators_only(host: TableHost) -> None:
    await lobby(host, BEN)
    assert not (await host.ai_add(BEN)).ok
    assert not (await host.ai_add(ANA, "grandmaster")).ok
    assert (await host.ai_add(ANA, "easy")).ok
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.seats[-1].ai_level == "easy"
    assert not (await host.ai_remove(BEN)).ok
    assert (await host.ai_remove(ANA)).ok
    assert not (await host.ai_remove(ANA)).ok  # none left


async def test_start_needs_the_minimum_and_the_host(host: TableHost) -> None:
    await host.open(ANA, "toy", {})
    few = await host.start_table(ANA)
    assert not few.ok and "2 to 4" in few.reply
    assert (await host.join(BEN)).ok
    assert not (await host.start_table(BEN)).ok  # not the host, not a moderator
    out = await host.start(ANA)  # the API's start(caller) is /table start
    assert out.ok
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "running" and summary.to_act == (0, 1)
    assert not (await host.start_table(ANA)).ok


async def test_chosen_seats_are_compacted_in_order_at_start(host: TableHost) -> None:
    await host.open(ANA, "toy", {})
    await host.join(BEN, seat=3)
    await host.ai_add(ANA)
    await host.start_table(ANA)
    summary = host.table_for(CHANNEL)
    assert summary is not None
    assert [(s.seat, s.user_id) for s in summary.seats] == [(0, ANA.user_id), (1, None), (2, BEN.user_id)]


async def test_end_by_moderator_only_and_frees_the_channel(host: TableHost) -> None:
    await lobby(host, BEN)
    await host.start_table(ANA)
    assert not (await host.end(BEN)).ok
    mod = Caller(GUILD, CHANNEL, 555, "Mod", moderator=True)
    out = await host.end(mod)
    assert out.ok and "abandoned" in out.public[0].text
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "abandoned"
    assert (await host.open(ANA, "toy", {})).ok


async def test_an_idle_lobby_closes_itself_after_30_minutes(host: TableHost, clock: Clock) -> None:
    await lobby(host, BEN)
    clock.advance(29 * 60)
    assert await host.tick() == []
    await host.join(CID)  # activity resets the idle timer
    clock.advance(29 * 60)
    assert await host.tick() == []
    clock.advance(2 * 60)
    outs = await host.tick()
    assert len(outs) == 1 and "closed" in outs[0].public[0].text
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "abandoned"


async def test_status_in_lobby_and_without_table(host: TableHost) -> None:
    assert not (await host.status(ANA)).ok
    await lobby(host)
    out = await host.status(BEN)
    assert out.ok and "lobby" in out.reply and not out.public  # shown to the caller only
    out = await host.status(ANA, repost=True)
    assert out.ok and "no board before the game starts" in out.reply and not out.public


async def test_rules_lists_games_and_shows_one(host: TableHost) -> None:
    assert "toy" in (await host.rules()).reply
    assert "pile" in (await host.rules("toy")).reply
    assert not (await host.rules("nope")).ok


async def test_the_lobby_shows_the_games_advice_as_seats_fill(host: TableHost) -> None:
    """Cartagena's lobby note (docs/games/cartagena.md#the-stall-ending): `reshuffle on` is suggested once a Jamaica
    table seats 4 or 5."""
    out = await host.open(ANA, "cartagena", {"mode": "jamaica", "reshuffle": "off"})
    await host.join(BEN)
    out = await host.join(CID)
    assert "💡" not in out.public[0].text  # 3 players: nothing to say
    out = await host.ai_add(ANA)
    assert "💡" in out.public[0].text and "`reshuffle on`" in out.public[0].text
    await host.end(ANA)
    await host.open(ANA, "cartagena", {"mode": "tortuga"})
    for caller in (BEN, CID):
        await host.join(caller)
    out = await host.ai_add(ANA)
    assert "💡" not in out.public[0].text  # Tortuga always reshuffles
