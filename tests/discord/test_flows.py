"""Every flow a Discord test suite must cover (CONTRIBUTING.md#the-test-tiers), with Cartagena, through the real
discord.py client and our cogs against simcord."""

from __future__ import annotations

import io
import time

import pytest
import simcord
from PIL import Image

from bot.transports.discord.views import STALE
from tests.discord.conftest import World, answer, reply, selects
from tests.discord.helpers import play_game_by_buttons, play_game_by_slash, play_turn_by_slash


async def test_open_join_ai_start_and_a_whole_game_by_play(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    s = w.summary()
    assert [seat.ai_level for seat in s.seats] == [None, None, "easy"]
    moves = await play_game_by_slash(w)
    assert moves > 10
    assert w.summary().status == "finished"
    texts = [m.content for m in w.messages()]
    assert any("🏆" in t or "without a winner" in t for t in texts), texts[-3:]
    # the result is posted with the final board; the replay follows in its own message, after it
    messages = w.messages()
    result = next(i for i, m in enumerate(messages) if any(a.filename == "final.png" for a in m.attachments))
    replay = next(i for i, m in enumerate(messages) if any(a.filename.endswith(".gif") for a in m.attachments))
    assert "Game over" in messages[result].content and replay > result, [m.content[:40] for m in messages[-4:]]
    # results were recorded for /stats
    result = await w.ana.slash(w.channel, "stats show")
    assert "Cartagena" in reply(result) and answer(result).ephemeral


async def test_three_players_and_an_ai_play_to_the_end_with_buttons_only(world: World) -> None:
    w = world
    started = time.perf_counter()
    await w.open_table(w.ana, w.bo, ai=1)
    picks = await play_game_by_buttons(w)
    assert w.summary().status == "finished"
    print(f"{picks} picks in {time.perf_counter() - started:.1f}s")


@pytest.mark.real_pictures
async def test_board_post_carries_the_picture_the_ping_and_the_buttons(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    board = w.current_board()
    assert board.attachments[0].filename == "board.png"
    acting = w.to_act()[0]
    assert acting.mention in board.content
    labels = [item.label for row in board.components for item in row.children]
    assert labels == ["Take your turn", "My hand", "Zoom"]


@pytest.mark.real_pictures
async def test_zoom_answers_anyone_with_a_close_up_of_the_public_board(world: World) -> None:
    w = world
    await w.open_table(w.ana, w.bo, ai=1, mode="jamaica")
    first = w.current_board()
    while w.current_board().id == first.id:  # to the next turn: the closed turn's post keeps only the close-up
        await play_turn_by_slash(w)
    closed = next(m for m in w.messages() if m.id == first.id)
    assert [item.label for row in closed.components for item in row.children] == ["Zoom"]
    board = w.current_board()
    before = w.summary().state_no
    zoomed = []
    for member in (*w.to_act(), w.cy):  # the player to act, and a spectator
        result = await member.click(board, label="Zoom")
        message = answer(result)
        assert message.ephemeral and "close-up" in message.content.lower()
        [picture] = message.attachments
        image = Image.open(io.BytesIO(await picture.read()))
        zoomed.append(image.tobytes())
        # full resolution: smaller than the board, at least the preview's size, so Discord shows it pixel for pixel
        assert (550, 350) <= image.size < (1100, 700)
    assert zoomed[0] == zoomed[1]  # drawn from the public view only: the same for a player and a spectator
    assert w.summary().state_no == before  # looking changes nothing


async def test_wrong_turn_click_and_illegal_play_are_answered_ephemerally_and_change_nothing(world: World) -> None:
    w = world
    await w.open_table(w.ana, w.bo, ai=1)
    before = w.summary()
    acting = w.to_act()[0]
    idle = next(p for p in (w.mod, w.ana, w.bo) if p is not acting)
    result = await idle.click(w.current_board(), label="Take your turn")
    assert answer(result).ephemeral and "not your move" in reply(result)
    assert not selects(answer(result))
    result = await idle.slash(w.channel, "play", action="forward start hat")
    assert answer(result).ephemeral and "turn" in reply(result)
    result = await acting.slash(w.channel, "play", action="fly to the moon")
    assert answer(result).ephemeral
    assert "can play" in reply(result) or "action" in reply(result).lower()
    after = w.summary()
    assert (after.state_no, after.to_act) == (before.state_no, before.to_act)
    assert [m.content for m in w.messages()][-1] == w.current_board().content


async def test_a_stale_button_is_refused(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    first = w.current_board()
    await w.ana.slash(w.channel, "table status", repost=True)  # a repost: the first board keeps its buttons, further up
    assert w.current_board().id != first.id
    actor = w.to_act()[0]
    options = await actor.autocomplete(w.channel, "play", "action", "")
    await actor.slash(w.channel, "play", action=options[0]["value"])
    before = w.summary().state_no
    result = await w.to_act()[0].click(first, label="Take your turn")
    assert answer(result).ephemeral and reply(result) == STALE
    assert not selects(answer(result))
    assert w.summary().state_no == before


async def test_private_hand_by_dm_and_closed_dms_fall_back_to_hand(world: World) -> None:
    w = world
    dm = w.bo.user.dm_channel
    w.env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await w.open_table(w.ana, w.bo, ai=1, mode="jamaica")
    [dm_to_ana] = w.ana.user.dm_channel.history()
    assert "hand" in dm_to_ana.content.lower() and dm_to_ana.attachments[0].filename == "hand.png"
    assert w.dm_texts(w.bo) == []
    notices = [m.content for m in w.messages() if "couldn't send you a direct message" in m.content]
    assert len(notices) == 1 and w.bo.mention in notices[0]
    seat = next(s for s in w.summary().seats if s.user_id == w.bo.id)
    assert not seat.reachable
    result = await w.bo.slash(w.channel, "hand")
    hand = answer(result)
    assert hand.ephemeral and "private view" in hand.content.lower()
    assert hand.attachments and hand.attachments[0].filename.endswith(".png")
    secret_line = hand.content.splitlines()[-1]
    assert all(secret_line not in m.content for m in w.messages())
    # the "My hand" button answers the same, ephemerally
    result = await w.bo.click(w.current_board(), label="My hand")
    assert answer(result).ephemeral and answer(result).content == hand.content
    # and the game goes on: bo plays with /play like anyone else
    while w.to_act()[0] is not w.bo:
        await play_turn_by_slash(w)
    before = w.summary().state_no
    await play_turn_by_slash(w)
    assert w.summary().state_no > before


async def test_a_moderator_ends_a_table_and_a_player_cannot(world: World) -> None:
    w = world
    result = await w.ana.slash(w.channel, "table open cartagena")  # opening needs a moderator by default
    assert answer(result).ephemeral and w.host.table_for(w.channel.id) is None
    await w.open_table(w.ana, ai=1)
    result = await w.ana.slash(w.channel, "table end")
    assert answer(result).ephemeral
    assert w.summary().status == "running"
    result = await w.mod.slash(w.channel, "table end")
    assert w.summary().status == "abandoned", reply(result)
    # the channel is free again
    result = await w.mod.slash(w.channel, "table open cartagena", mode="tortuga")
    assert w.summary().status == "lobby" and w.summary().options["mode"] == "tortuga"


async def test_a_time_out_hands_the_move_to_the_ai(world: World) -> None:
    w = world
    result = await w.mod.slash(w.channel, "config", turn_limit_minutes=2, ai_takeover=True)
    assert "2 min" in reply(result)
    await w.open_table(w.ana, ai=1)
    waiting = w.to_act()[0]
    before = w.summary().state_no
    await w.env.advance_time(65)  # past half time: a reminder by DM
    assert any("⏳" in text for text in w.dm_texts(waiting))
    assert w.summary().state_no == before
    await w.env.advance_time(60)  # past the limit: the AI moves for them
    assert w.summary().state_no > before
    assert any("ran out of time" in m.content for m in w.messages())


async def test_a_restart_mid_game_keeps_the_table_its_buttons_and_its_timers(world: World) -> None:
    w = world
    await w.mod.slash(w.channel, "config", turn_limit_minutes=2)
    await w.open_table(w.ana, w.bo, ai=1)
    for _ in range(4):
        actor = w.to_act()[0]
        options = await actor.autocomplete(w.channel, "play", "action", "")
        await actor.slash(w.channel, "play", action=options[0]["value"])
    board = w.current_board()
    before = w.summary()
    await w.restart()
    assert w.host.replay_mismatches == []
    after = w.summary()
    assert (after.table_id, after.state_no, after.to_act) == (before.table_id, before.state_no, before.to_act)
    # the button posted before the restart still opens the picker, and picking plays
    actor = w.to_act()[0]
    result = await actor.click(board, label="Take your turn")
    picker = answer(result)
    menu = selects(picker)[0]
    posts = len(w.board_posts())
    await actor.select(picker, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
    assert w.summary().state_no == before.state_no + 1
    # the turn goes on, so the restarted bot edits the turn's board post instead of posting a new one
    assert w.summary().to_act == before.to_act
    assert len(w.board_posts()) == posts and w.current_board().id == board.id
    # the timer carries on: the waiting player is timed out and the AI moves for them
    state = w.summary().state_no
    await w.env.advance_time(130)
    assert w.summary().state_no > state
    assert any("ran out of time" in m.content for m in w.messages())


async def test_two_clicks_at_once_apply_one_action(world: World) -> None:
    from simcord import interactions as sim_interactions
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType

    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    result = await actor.click(w.current_board(), label="Take your turn")
    picker = answer(result)
    menu = selects(picker)[0]
    values = [o["value"] for o in menu["options"][:2]]
    assert len(values) == 2
    table = w.summary()
    log_before = await w.host.store.tables.log(table.table_id)
    backend = w.env.backend
    stored = backend.get_message(picker.channel_id, picker.id)
    for value in values:  # two taps land before the bot answers either
        record, payload = sim_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=w.channel.id,
            guild_id=w.guild.id,
            user_id=actor.id,
            data={"custom_id": menu["custom_id"], "component_type": ComponentType.STRING_SELECT, "values": [value]},
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        backend.emit("INTERACTION_CREATE", payload)
    await w.env.settle()
    log_after = await w.host.store.tables.log(table.table_id)
    human = [e for e in log_after[len(log_before) :] if not e.by_ai]
    assert len(human) == 1
    assert STALE in w.refresh(picker).content or w.summary().state_no == table.state_no + 1


async def test_undo_takes_back_an_action_that_revealed_nothing(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1, mode="jamaica")
    actor = w.to_act()[0]
    hand_before = answer(await actor.slash(w.channel, "hand")).content
    options = await actor.autocomplete(w.channel, "play", "action", "forward")
    await actor.slash(w.channel, "play", action=options[0]["value"])
    assert answer(await actor.slash(w.channel, "hand")).content != hand_before
    result = await actor.slash(w.channel, "undo")  # a forward move shows nothing new: Cartagena allows it
    assert answer(result).ephemeral and "taken back" in reply(result)
    assert answer(await actor.slash(w.channel, "hand")).content == hand_before
    assert w.to_act()[0] is actor
    result = await w.bo.slash(w.channel, "undo")  # bo has no seat
    assert answer(result).ephemeral and "no seat" in reply(result)


async def test_rules_stats_and_leaderboard_answer_ephemerally(world: World) -> None:
    w = world
    result = await w.ana.slash(w.channel, "rules", game="cartagena")
    assert answer(result).ephemeral and "Cartagena" in reply(result)
    result = await w.ana.slash(w.channel, "leaderboard", game="cartagena")
    assert answer(result).ephemeral and "Cartagena" in reply(result)
    result = await w.ana.slash(w.channel, "stats forget")
    assert answer(result).ephemeral and "Deleted" in reply(result)


async def test_config_is_hidden_from_players_and_checked_again_at_run_time(world: World) -> None:
    w = world
    with pytest.raises(simcord.SetupError):  # default_permissions: a player does not even see /config
        await w.ana.slash(w.channel, "config", ai_takeover=False)
    # a server admin may show the command to everyone; the runtime check still refuses
    config = w.env.backend.find_command("config", w.guild.id, type=1)
    w.guild.set_command_permissions(int(config["id"]), {w.ana: True})
    result = await w.ana.slash(w.channel, "config", ai_takeover=False)
    assert answer(result).ephemeral and "Manage Server" in reply(result)
    result = await w.mod.slash(w.channel, "config", ai_takeover=False)
    assert "AI takes over on time-out: no" in reply(result)


async def test_status_history_kick_and_leave(world: World) -> None:
    w = world
    await w.open_table(w.ana, w.bo, ai=1)
    posts = len(w.messages())
    result = await w.cy.slash(w.channel, "table status")  # anyone, even a spectator, sees the board: only them
    assert answer(result).ephemeral and answer(result).attachments and len(w.messages()) == posts
    result = await w.cy.slash(w.channel, "table history")
    assert answer(result).ephemeral and "moves so far" in reply(result)
    result = await w.cy.slash(w.channel, "table kick", member=w.ana)  # cy is neither host nor moderator
    assert answer(result).ephemeral
    assert next(s for s in w.summary().seats if s.user_id == w.ana.id).ai_level is None
    await w.mod.slash(w.channel, "table kick", member=w.ana)
    assert next(s for s in w.summary().seats if s.user_id == w.ana.id).ai_level is not None
    await w.bo.slash(w.channel, "table leave")
    assert next(s for s in w.summary().seats if s.user_id == w.bo.id).ai_level is not None
    assert w.summary().status == "running"
    result = await w.cy.slash(w.channel, "hand")  # a spectator gets the public board
    assert answer(result).ephemeral and answer(result).attachments


async def test_one_board_post_per_turn_edited_as_its_actions_arrive(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    board = w.current_board()
    count = len(w.messages())
    options = await actor.autocomplete(w.channel, "play", "action", "forward")
    await actor.slash(w.channel, "play", action=options[0]["value"])
    assert w.to_act()[0] is actor  # Cartagena: up to three actions a turn
    assert len(w.messages()) == count  # no new post: the board was edited
    edited = w.current_board()
    assert edited.id == board.id and edited.content != board.content
    while w.to_act() and w.to_act()[0] is actor:
        options = await actor.autocomplete(w.channel, "play", "action", "")
        await actor.slash(w.channel, "play", action=options[-1]["value"])
    assert len(w.messages()) > count  # the next turn starts a new post


async def test_join_offers_places_in_the_order_of_play_and_the_lobby_shows_each_colour(world: World) -> None:
    w = world
    await w.mod.slash(w.channel, "table open cartagena")
    offered = [o["name"] for o in await w.ana.autocomplete(w.channel, "table join", "seat", "")]
    assert offered[0].startswith("Seat 1 (taken by ") and offered[1:3] == ["Seat 2", "Seat 3"]
    result = await w.ana.slash(w.channel, "table join", seat=3)
    assert "seat 3" in reply(result)
    assert next(s for s in w.summary().seats if s.user_id == w.ana.id).seat == 2
    # two players: whoever sits at place 3 plays second, and so Blue; the lobby says so before the start
    lobby = w.messages()[-1].content
    assert "— Red" in lobby and f"3. {w.ana.name} — Blue" in lobby
    await w.mod.slash(w.channel, "table start")
    await w.ana.slash(w.channel, "table leave")
    offered = [o["name"] for o in await w.bo.autocomplete(w.channel, "table join", "seat", "")]
    assert offered == [f"2: Blue (played by an AI for {w.ana.name})"]
    result = await w.bo.slash(w.channel, "table join", seat=2)
    assert next(s for s in w.summary().seats if s.seat == 1).user_id == w.bo.id, reply(result)


async def test_the_servers_host_role_makes_a_moderator(world: World) -> None:
    w = world
    captains = w.guild.create_role("Captains")
    dee = w.guild.add_member(w.env.create_user("dee"), roles=[captains])
    result = await dee.slash(w.channel, "table open cartagena")
    assert w.host.table_for(w.channel.id) is None, reply(result)
    result = await w.mod.slash(w.channel, "config", host_role=captains)
    assert str(captains.id) in reply(result)
    result = await dee.slash(w.channel, "table open cartagena")
    assert w.summary().host_id == dee.id, reply(result)
