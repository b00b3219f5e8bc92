"""The table's voice through Discord (issue 12): whole games played by buttons only, as players on their phones.

Each human picks, through the "Take your turn" button and the picker's menus, the action the easy AI would take
for their seat. Counted per game: DMs per player (Flagon at most 30 each), DMs identical to the player's previous
one (none), and channel lines credited to the wrong player (none). Games are small and seeded so this stays fast:
two human seats, and an AI for a third seat where the game allows it; Cartagena and Buccaneer stop after their
first moves (their whole games are measured by ``python -m benchmarks.voice``).
"""

from __future__ import annotations

import random
import time

import pytest
from simcord.results import ResponseMessage

from benchmarks.voice import wrong_lines
from bot.host.tables import Caller
from rules import registry
from tests.discord.conftest import World, answer, buttons, reply, selects
from tests.discord.helpers import MAX_STEPS
from tests.tiers import quick_subset

#: a short table for each game, so a game by buttons stays a few seconds
OPTIONS: dict[str, dict[str, str]] = {"flagon": {"length": "short"}}
#: Cartagena and Buccaneer run to hundreds of moves: their first moves here (a stretch with the opening deal,
#: draws, trades and chance cards), their whole games in ``python -m benchmarks.voice`` (the same host calls)
MAX_MOVES = {"cartagena": 80, "buccaneer": 120}


async def easy_choice(w: World, rnd: random.Random) -> str:
    """What the easy AI would play for the first human who owes a decision, from that seat's own view (the
    channel's secrets are checked by the other whole-game tests; scanning every post at every move here would
    make a long game slow)."""
    summary = w.summary()
    row = await w.host.store.tables.get(summary.table_id)
    assert row is not None and row.snapshot is not None
    game = registry.get(summary.game_id)
    state = game.load(row.snapshot)
    actor = w.to_act()[0]
    seat = next(s.seat for s in summary.seats if s.user_id == actor.id and s.seat in summary.to_act)
    return game.ai_choose(game.view(state, seat), seat, game.legal_actions(state, seat), "easy", rnd)


async def pick_by_buttons(w: World, rnd: random.Random) -> None:
    """The first human who owes a decision takes the easy AI's choice by buttons only: "Take your turn", then
    the menus (a range opens its second level; "Next ▶" turns the page) until the action itself is picked."""
    actor = w.to_act()[0]
    target = await easy_choice(w, rnd)
    caller = Caller(w.guild.id, w.channel.id, actor.id, actor.name)
    actions = [c.action for c in await w.host.choices(caller)]
    index = actions.index(target)
    before = w.summary().state_no
    picker: ResponseMessage = answer(await actor.click(w.current_board(), label="Take your turn"))
    assert picker.ephemeral and "Your move" in picker.content, picker.content
    for _ in range(50):
        chosen = None
        for menu in selects(picker):
            for option in menu["options"]:
                value = option["value"]
                if value == f"a{index}":
                    chosen = (menu, value, True)
                elif value.startswith("r"):
                    start, end = (int(x) for x in value[1:].split("-"))
                    if start <= index <= end:
                        chosen = chosen or (menu, value, False)
        if chosen is not None:
            menu, value, final = chosen
            await actor.select(picker, [value], custom_id=menu["custom_id"])
            if final:
                break
        else:
            assert any(b.get("label") == "Next ▶" and not b.get("disabled") for b in buttons(picker)), picker.content
            await actor.click(picker, label="Next ▶")
        picker = w.refresh(picker)
    after = w.summary()
    assert after.state_no > before or after.status != "running", f"{target!r} was not played"


# Buccaneer's and Cartagena's long games by buttons are the slow tier's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(registry.game_ids(), ["flagon", "martinique", "treasure_island"]))
async def test_a_buttons_only_game_sends_news_not_state_and_credits_every_line(world: World, game_id: str) -> None:
    w = world
    game = registry.get(game_id)
    result = await w.mod.slash(w.channel, f"table open {game_id}", **OPTIONS.get(game_id, {}))
    assert w.host.table_for(w.channel.id) is not None, reply(result)
    humans = [w.mod, w.ana] if game.info.max_players >= 2 else [w.mod]
    if not any(seat.user_id == w.mod.id for seat in w.summary().seats):
        await w.mod.slash(w.channel, "table join")
    await w.ana.slash(w.channel, "table join")
    if game.info.max_players >= 3:
        await w.mod.slash(w.channel, "table ai add", level="easy")
    result = await w.mod.slash(w.channel, "table start")
    assert w.summary().status == "running", reply(result)
    rnd = random.Random(f"voice:{game_id}")
    started = time.perf_counter()
    moves = 0
    while w.summary().status == "running" and moves < MAX_MOVES.get(game_id, MAX_STEPS):
        await pick_by_buttons(w, rnd)
        moves += 1
    assert w.host.internal_errors == 0

    dms = {m.name: w.dm_texts(m) for m in humans}
    identical = {name: sum(a == b for a, b in zip(texts, texts[1:], strict=False)) for name, texts in dms.items()}
    # the seats' names as the channel wrote them: the seat list of the game's first line
    players = [s.name for s in sorted(w.summary().seats, key=lambda s: s.seat)]
    summary = w.summary()
    row = await w.host.store.tables.get(summary.table_id)
    assert row is not None and row.snapshot is not None
    final = game.view(game.load(row.snapshot), None)
    lines = [line for m in w.messages() for line in m.content.splitlines()]
    wrong = wrong_lines(game_id, final, players, lines)
    print(
        f"{game_id}: {moves} moves in {time.perf_counter() - started:.1f} s, DMs {[len(t) for t in dms.values()]}, identical {identical}, wrong {len(wrong)}"
    )
    assert all(n == 0 for n in identical.values()), identical
    assert wrong == [], wrong[:3]
    if game_id == "flagon":
        assert all(len(t) <= 30 for t in dms.values()), {k: len(v) for k, v in dms.items()}
    # every DM after the first one of the game carries news (a line before the private summary)
    for texts in dms.values():
        for text in texts[1:]:
            assert text.count("\n") >= 1
