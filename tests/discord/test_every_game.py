"""One whole game of every registered game through Discord: one human playing with /play (the action the easy
AI would choose for that seat, found in autocomplete), AI seats for the rest. Games registered later are
covered without touching this file."""

from __future__ import annotations

import random

import pytest

from bot.host.tables import Caller
from rules import registry
from tests.discord.conftest import World, answer, buttons, reply, selects
from tests.discord.helpers import play_game_by_slash, play_turn_by_slash
from tests.tiers import quick_subset


# one whole game in the default run, the other four in the slow tier (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(registry.game_ids(), ["cartagena"]))
async def test_a_whole_game_through_discord(world: World, game_id: str) -> None:
    w = world
    info = registry.get(game_id).info
    result = await w.mod.slash(w.channel, f"table open {game_id}")
    summary = w.host.table_for(w.channel.id)
    assert summary is not None and summary.game_id == game_id, reply(result)
    if not any(seat.user_id == w.mod.id for seat in summary.seats):
        await w.mod.slash(w.channel, "table join")
    for _ in range(max(1, info.min_players - 1)):
        await w.mod.slash(w.channel, "table ai add", level="easy")
    result = await w.mod.slash(w.channel, "table start")
    assert w.summary().status == "running", reply(result)
    moves = await play_game_by_slash(w, random.Random(f"discord:{game_id}"))
    assert moves > 0
    assert w.summary().status == "finished"
    assert w.host.internal_errors == 0


@pytest.mark.parametrize("game_id", registry.game_ids())
async def test_the_picker_offers_every_legal_action(world: World, game_id: str) -> None:
    """The first human decision of every game, walked through the picker's pages: every legal action is
    reachable (directly or through a range) and every menu respects Discord's limits."""
    w = world
    info = registry.get(game_id).info
    await w.mod.slash(w.channel, f"table open {game_id}")
    summary = w.summary()
    if not any(seat.user_id == w.mod.id for seat in summary.seats):
        await w.mod.slash(w.channel, "table join")
    for _ in range(max(1, info.min_players - 1)):
        await w.mod.slash(w.channel, "table ai add", level="easy")
    await w.mod.slash(w.channel, "table start")
    while w.summary().status == "running" and w.mod not in w.to_act():
        await play_turn_by_slash(w, random.Random(game_id))
    if w.summary().status != "running":
        pytest.skip("the game ended before the human had to decide")
    legal = await w.host.choices(Caller(w.guild.id, w.channel.id, w.mod.id, w.mod.name))
    picker = answer(await w.mod.click(w.current_board(), label="Take your turn"))
    reached: set[int] = set()
    while True:
        for menu in selects(picker):
            assert len(menu["options"]) <= 25
            for option in menu["options"]:
                value = option["value"]
                if value.startswith("a"):
                    reached.add(int(value[1:]))
                else:
                    start, end = (int(x) for x in value[1:].split("-"))
                    reached.update(range(start, end + 1))
        if not any(b.get("label") == "Next ▶" and not b.get("disabled") for b in buttons(picker)):
            break
        await w.mod.click(picker, label="Next ▶")
        picker = w.refresh(picker)
    assert reached == set(range(len(legal)))
