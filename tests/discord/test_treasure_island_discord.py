"""Treasure Island through Discord with a human Long John Silver and AI pirates: his secret choices go through
/play (ephemeral), and where he buried the treasure never reaches the channel before the game is over."""

from __future__ import annotations

import random

from rules import registry
from tests.discord.conftest import World, reply
from tests.discord.helpers import MAX_STEPS, play_turn_by_slash


async def test_a_whole_game_with_a_human_long_john_silver(world: World) -> None:
    w = world
    game = registry.get("treasure_island")
    result = await w.mod.slash(w.channel, "table open treasure_island", silver="first")
    assert w.summary().game_id == "treasure_island", reply(result)
    for _ in range(2):
        await w.mod.slash(w.channel, "table ai add", level="easy")
    result = await w.mod.slash(w.channel, "table start")
    assert w.summary().status == "running", reply(result)
    row = await w.host.store.tables.get(w.summary().table_id)
    assert row is not None and row.snapshot is not None
    assert game.view(game.load(row.snapshot), None)["silver_seat"] == 0  # the human at seat 1 is Silver

    rnd = random.Random("silver")
    burial: str | None = None
    moves = 0
    while w.summary().status == "running":
        assert moves < MAX_STEPS, "the game did not end"
        await play_turn_by_slash(w, rnd)
        moves += 1
        if burial is None:
            log = await w.host.store.tables.log(w.summary().table_id)
            burial = next((e.action for e in log if e.action.startswith("bury ")), None)
        if burial is not None and w.summary().status == "running":
            channel = [m.content for m in w.messages()]
            assert not any(burial in text for text in channel), "the burial reached the channel"
    assert burial is not None, "Silver never buried the treasure"
    assert moves > 20 and w.host.internal_errors == 0
