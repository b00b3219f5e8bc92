"""The table's voice through Discord: refusals, confirmations, the seatless, the lobby post, /rules and
/table history, as players see them."""

from __future__ import annotations

import re

from tests.discord.conftest import World, answer, reply, selects


async def test_a_spectator_pressing_take_your_turn_is_told_they_have_no_seat(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    result = await w.cy.click(w.current_board(), label="Take your turn")
    text = reply(result)
    assert answer(result).ephemeral and "no seat" in text and "not your move" not in text.lower()
    assert not selects(answer(result))


async def test_a_typed_refusal_gives_one_reason_and_one_list_nearest_first(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    result = await actor.slash(w.channel, "play", action="forward 99 hat")
    text = reply(result)
    reason, listed = text.split("\n")
    assert "e.g." not in text and "choose one of" not in text.lower()
    named = re.findall(r"`([^`]+)`", listed)
    assert named[0].startswith("forward ")  # the typed verb's actions first
    plain = [n for n in named if not n.endswith("…")]
    assert len(plain) == len(set(plain))
    # the same order as autocomplete offers
    offered = [o["value"] for o in await actor.autocomplete(w.channel, "play", "action", "forward")]
    assert [n for n in named if n.startswith("forward")] == offered[: len([n for n in named if n.startswith("forward")])]


async def test_a_pick_is_confirmed_with_its_label_and_the_canonical_text_in_small_print(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    menu = selects(picker)[0]
    option = menu["options"][0]
    await actor.select(picker, [option["value"]], custom_id=menu["custom_id"])
    note = w.refresh(picker).content
    assert note.startswith(f"Played: {option['label']}\n-# `"), note
    result = await w.to_act()[0].slash(w.channel, "play", action="end")  # typed: the echo names what was typed
    assert reply(result).startswith("Played") and "You played" not in reply(result)
