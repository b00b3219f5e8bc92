"""Buccaneer's challenge window through Discord (issue 18): a "Challenge" button on the board post for the
opponents who may challenge, with both verdicts; an AI next to act waiting while a person may still challenge,
then moving; the wait and the button surviving a restart; the picker and /play offering the challenge."""

from __future__ import annotations

import discord
from simcord.results import ResponseMessage

from rules import registry
from rules.buccaneer import board
from tests.discord.conftest import World, answer, reply, selects

WAIT = 20
GAME = registry.get("buccaneer")


def short_settle(w: World) -> None:
    """simcord waits out, in real time, any timer due within its settle timeout (60 s for these tests), and parks
    later ones on its virtual clock for ``advance_time``: the host's 20-s wake must be parked, as a real bot's is."""
    w.env.settle_timeout = 10.0


async def table(w: World) -> None:
    """The moderator (Amsterdam), Ana (London) and an AI, which picks Bombay and so moves right after the
    moderator: Ana is the opponent who may challenge while the AI waits."""
    short_settle(w)
    await w.mod.slash(w.channel, "table open buccaneer", ports="choose")
    await w.ana.slash(w.channel, "table join")
    await w.mod.slash(w.channel, "table ai add", level="normal")
    await w.mod.slash(w.channel, "table start")
    await w.mod.slash(w.channel, "play", action="home amsterdam")
    await w.ana.slash(w.channel, "play", action="home london")
    assert state(w)["order"] == [0, 2, 1] and state(w)["players"][2]["harbour"] == "bombay"


def state(w: World) -> dict:
    t = w.host.index.tables[w.summary().table_id]  # noqa: SLF001 - the test reads the truth to pick its moves
    assert t.state is not None
    return t.state


def strength(w: World, seat: int = 0) -> tuple[int, int]:
    hand = state(w)["players"][seat]["hand"]
    return sum(int(k[1]) * n for k, n in hand.items()), sum(hand.values())


async def sail(w: World, k: int) -> None:
    """The moderator sails ``k`` squares south out of Amsterdam, by /play."""
    for action in ("sail s", f"go {k}", "face s", "confirm"):
        result = await w.mod.slash(w.channel, "play", action=action)
        assert "Played" in reply(result), reply(result)


def labels(message: discord.Message) -> list[str]:
    return [item.label for row in message.components for item in row.children]


def challenge_post(w: World) -> discord.Message:
    """The newest channel post that offers a challenge."""
    for message in reversed(w.messages()):
        if any(label.startswith("Challenge") for label in labels(message)):
            return message
    raise AssertionError("no post offers a challenge")


def challenge_label(w: World) -> str:
    return next(label for label in labels(challenge_post(w)) if label.startswith("Challenge"))


async def test_a_human_challenges_a_humans_bluff_by_the_button(world: World) -> None:
    w = world
    await table(w)
    s, _ = strength(w)
    await sail(w, s + 1)  # past the moderator's sailing strength
    post = challenge_post(w)
    assert labels(post) == ["My hand", "Zoom", f"Challenge Amsterdam's move of {s + 1}", "Let it stand"]
    assert f"waits {WAIT} s" in post.content and w.summary().to_act == (2,)  # the AI waits
    before = w.summary().state_no
    result = await w.cy.click(post, label=challenge_label(w))  # cy has no seat
    assert answer(result).ephemeral and "Only ana" in reply(result)
    result = await w.mod.click(post, label=challenge_label(w))  # nor may the mover challenge their own move
    assert answer(result).ephemeral and "Only ana" in reply(result) and w.summary().state_no == before
    result = await w.ana.click(post, label=challenge_label(w))
    assert answer(result).ephemeral and "Played" in reply(result) and "`challenge`" in reply(result)
    channel = "\n".join(m.content for m in w.messages())
    assert "challenges Amsterdam's move: exceeded" in channel
    assert strength(w) == (0, 0)  # the mover lost every crew card
    assert "(Bombay) sailed" in channel or "(Bombay) turned" in channel  # and the AI moved on at once
    assert any("sailing strength was" in m.content for m in w.ana.user.dm_channel.history())  # S0 to Ana only
    assert all("sailing strength was" not in m.content for m in w.messages())


async def test_a_human_challenges_an_honest_move_and_pays_the_forfeit(world: World) -> None:
    w = world
    await table(w)
    s, n = strength(w)
    assert s > n
    await sail(w, s)  # exactly the sailing strength: honest, yet beyond the hand size, so it may be challenged
    result = await w.ana.click(challenge_post(w), label=challenge_label(w))
    assert "Played" in reply(result) and "`challenge`" in reply(result)
    assert "challenges Amsterdam's move: within" in "\n".join(m.content for m in w.messages())
    # Ana pays her forfeit (her best card or a treasure: chosen in the picker when there is a choice), and only
    # then does the AI go on
    if state(w)["stack"] and state(w)["stack"][-1]["kind"] == "FORFEIT":
        assert w.to_act() == [w.ana] and state(w)["turn"]["seat"] == 2
        picker = answer(await w.ana.click(w.current_board(), label="Take your turn"))
        menu = selects(picker)[0]
        assert all(o["label"].startswith("forfeit") for o in menu["options"])
        await w.ana.select(picker, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
    channel = "\n".join(m.content for m in w.messages())
    assert "forfeits" in channel and "to Flat Island" in channel
    assert "(Bombay) sailed" in channel or "(Bombay) turned" in channel  # the AI has taken its turn
    assert w.to_act() == [w.ana]  # London's own turn now


async def test_an_ai_next_seat_waits_then_moves(world: World) -> None:
    w = world
    await table(w)
    s, _ = strength(w)
    await sail(w, s)
    before = w.summary().state_no
    post = challenge_post(w)
    await w.env.advance_time(WAIT - 5)
    assert w.summary().state_no == before and w.summary().to_act == (2,)  # still waiting
    await w.env.advance_time(6)
    assert w.summary().state_no > before  # the wait is over: the AI moved
    log = await w.host.store.tables.log(w.summary().table_id)
    assert all(e.seat == 2 and e.by_ai for e in log[before:])
    # the post of the wait is closed: its buttons are gone
    edited = next(m for m in w.messages() if m.id == post.id)
    assert not any(label.startswith("Challenge") or label == "Let it stand" for label in labels(edited))


async def test_let_it_stand_ends_the_wait_at_once(world: World) -> None:
    w = world
    await table(w)
    s, _ = strength(w)
    await sail(w, s)
    before = w.summary().state_no
    result = await w.mod.click(challenge_post(w), label="Let it stand")  # the mover has nothing to let stand
    assert answer(result).ephemeral and "nothing for you" in reply(result) and w.summary().state_no == before
    result = await w.ana.click(challenge_post(w), label="Let it stand")
    assert answer(result).ephemeral and reply(result) == "You let it stand."
    assert w.summary().state_no > before  # Ana was the only one who could challenge: the AI moved at once


async def test_a_restart_during_the_window_keeps_the_wait_and_the_button(world: World) -> None:
    w = world
    await table(w)
    s, _ = strength(w)
    await sail(w, s + 1)
    post = challenge_post(w)
    before = w.summary()
    await w.restart()
    assert w.host.replay_mismatches == []
    await w.env.advance_time(WAIT / 2)
    assert w.summary().state_no == before.state_no  # the stored wait goes on after the restart
    result = await w.ana.click(post, label=challenge_label(w))  # the button posted before the restart
    assert "Played" in reply(result) and "`challenge`" in reply(result), reply(result)
    assert "exceeded" in "\n".join(m.content for m in w.messages())
    assert w.summary().state_no > before.state_no + 1  # the challenge, then the AI's move


async def test_a_restart_during_the_window_then_the_ai_moves_when_the_wait_is_over(world: World) -> None:
    w = world
    await table(w)
    s, _ = strength(w)
    await sail(w, s)
    before = w.summary()
    await w.restart()
    await w.env.advance_time(WAIT / 2)
    assert w.summary().state_no == before.state_no and w.summary().to_act == (2,)
    await w.env.advance_time(WAIT / 2 + 1)
    assert w.summary().state_no > before.state_no


async def test_a_waiting_opponent_finds_the_challenge_in_the_picker_and_in_autocomplete(world: World) -> None:
    """When a person is next to act, the window stays open until they act: the other opponents may challenge
    from the "Take your turn" picker or by /play, and the board post shows the Challenge button too."""
    w = world
    short_settle(w)
    await w.mod.slash(w.channel, "table open buccaneer", ports="choose")
    await w.ana.slash(w.channel, "table join")
    await w.bo.slash(w.channel, "table join")
    await w.mod.slash(w.channel, "table start")
    for member, port in ((w.mod, "amsterdam"), (w.ana, "marseilles"), (w.bo, "london")):
        await member.slash(w.channel, "play", action=f"home {port}")
    s, _ = strength(w)
    await sail(w, s)
    assert w.to_act() == [w.ana]  # Marseilles is next: nobody waits for a challenge, Ana simply moves
    assert "Let it stand" not in labels(w.current_board())
    assert f"Challenge Amsterdam's move of {s}" in labels(w.current_board())
    offered = await w.bo.autocomplete(w.channel, "play", "action", "chall")
    assert [o["value"] for o in offered] == ["challenge"]
    picker: ResponseMessage = answer(await w.bo.click(w.current_board(), label="Take your turn"))
    assert "Not your turn in Buccaneer, but this is open to you" in picker.content
    options = [o for menu in selects(picker) for o in menu["options"]]
    assert [o["label"] for o in options] == [f"Challenge Amsterdam's move of {s}"]
    assert await w.mod.autocomplete(w.channel, "play", "action", "chall") == []  # not the mover
    # Ana moves: the window closes, and Bo's picker has nothing left
    options = await w.ana.autocomplete(w.channel, "play", "action", "sail")
    await w.ana.slash(w.channel, "play", action=options[0]["value"])
    assert await w.bo.autocomplete(w.channel, "play", "action", "chall") == []


async def test_a_move_by_buttons_is_three_clicks_direction_and_distance_in_one_pick(world: World) -> None:
    """Issue 28: "Take your turn", then one pick for direction and distance together, then one for the facing; the
    plan's confirm, no choice at all, is played with it."""
    w = world
    await table(w)
    picker = answer(await w.mod.click(w.current_board(), label="Take your turn"))
    # a menu per exit of the harbour, each listing its distances: one pick for direction and distance
    sails = {m["placeholder"].split(" (")[0]: m for m in selects(picker) if m["placeholder"].startswith("sail")}
    assert set(sails) == {f"sail {d.upper()}" for d in board.EXITS["amsterdam"]}, list(sails)
    menu = sails["sail S"]
    ray = board.RAYS["amsterdam"]["s"]
    option = next(o for o in menu["options"] if o["label"] == f"S 1 → {ray[0].upper()}")
    assert option["description"] == "sail s, then go 1"
    await w.mod.select(picker, [option["value"]], custom_id=menu["custom_id"])
    picker = w.refresh(picker)
    assert picker.content.startswith(f"Played: S 1 → {ray[0].upper()}\n-# `sail s` · `go 1`"), picker.content
    faces = next(m for m in selects(picker) if m["placeholder"].startswith("face"))
    assert [o["label"] for o in faces["options"]] == [f"face {d.upper()}" for d in board.DIRS]
    face = next(o for o in faces["options"] if o["label"] == "face S")
    await w.mod.select(picker, [face["value"]], custom_id=faces["custom_id"])
    ship = state(w)["players"][0]["ship"]
    assert (ship["at"], ship["facing"]) == (ray[0], "s")
    picker = w.refresh(picker)
    assert picker.content.startswith("Played: face S\n-# `face s` · `confirm`"), picker.content
    assert w.to_act() == [w.ana]  # the turn ended with the move, and the AI (Bombay) has taken its own
