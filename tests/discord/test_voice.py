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


async def test_rules_fit_discord_as_embeds_and_nothing_is_cut(world: World) -> None:
    from rules import registry

    w = world
    for game_id in ("flagon", "cartagena"):
        result = await w.ana.slash(w.channel, "rules", game=game_id)
        message = answer(result)
        assert message.ephemeral
        info = registry.get(game_id).info
        shown = message.content + "\n".join(e.description or "" for e in message.embeds)
        # every line of the summary arrives whole (Flagon's is 2,352 characters: more than a message holds)
        assert all(line.strip() in shown for line in info.rules.splitlines() if line.strip()), game_id
        assert len(message.content) <= 2000
        assert all(len(e.description or "") <= 4096 for e in message.embeds)
    assert answer(await w.ana.slash(w.channel, "rules", game="flagon")).embeds[0].title == "Flagon"


async def test_rules_cards_lists_each_card_and_its_effect(world: World, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import dataclasses
    import types

    from rules import registry

    w = world
    game = registry.get("flagon")
    cards = (("Swashbuckler", "duel a rogue"), ("Monk", "heal one wound"))
    info = types.SimpleNamespace(**{f.name: getattr(game.info, f.name) for f in dataclasses.fields(game.info)})
    info.cards = cards
    monkeypatch.setattr(game, "info", info)
    result = await w.ana.slash(w.channel, "rules", game="flagon", section="cards")
    text = reply(result) + "\n".join(e.description or "" for e in answer(result).embeds)
    assert "**Swashbuckler**: duel a rogue" in text and "**Monk**: heal one wound" in text
    result = await w.ana.slash(w.channel, "rules", game="martinique", section="cards")
    assert "without cards" in reply(result)


async def test_the_picker_shows_what_a_card_does_under_its_label(world: World, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rules import registry

    w = world
    game = registry.get("cartagena")
    effect = "Play a card: move to the next free space with this symbol, a long way to describe it " * 2
    monkeypatch.setattr(game, "describe", lambda view, action: effect if action.startswith("forward") else "",
                        raising=False)
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    options = [o for m in selects(picker) for o in m["options"]]
    forward = [o for o in options if o["label"].startswith("forward")]
    assert forward and all(o["description"] == effect[:99] + "…" for o in forward)  # Discord's 100 characters
    others = [o for o in options if not o["label"].startswith("forward")]
    assert all(o.get("description") != effect[:99] + "…" for o in others)


def _lobby(w: World):  # type: ignore[no-untyped-def]
    return next(m for m in w.messages() if "· lobby ·" in m.content or "· started" in m.content
                or "· finished" in m.content or "· ended early" in m.content or "closed before" in m.content)


async def test_the_lobby_post_is_edited_as_the_table_starts_and_ends(world: World) -> None:
    from tests.discord.helpers import play_game_by_slash

    w = world
    await w.open_table(w.ana, ai=1)
    lobby = _lobby(w)
    assert "· started" in lobby.content and "Join with" not in lobby.content, lobby.content
    assert w.ana.name in lobby.content
    assert len([m for m in w.messages() if m.id == lobby.id]) == 1
    assert f"Host: {w.mod.name}" in lobby.content
    await w.mod.slash(w.channel, "table leave")  # the host leaves the running game: an AI plays on for them
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    # a moderator hosts on without a seat until they hand the table on (issue 23)
    assert f"Host: {w.mod.name} (not playing)" in lobby.content and w.summary().host_id == w.mod.id, lobby.content
    await w.mod.slash(w.channel, "table host", member=w.ana)
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    assert f"Host: {w.ana.name}" in lobby.content and w.summary().host_id == w.ana.id, lobby.content
    await play_game_by_slash(w)
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    assert "· finished" in lobby.content and ("🏆" in lobby.content or "without a winner" in lobby.content)
    assert "Join with" not in lobby.content


async def test_the_lobby_post_says_when_the_table_is_ended_and_who_hosts_after_the_host_leaves(world: World) -> None:
    w = world
    await w.mod.slash(w.channel, "table open flagon")
    await w.ana.slash(w.channel, "table join")
    lobby = _lobby(w)
    # Flagon deals no colours by seat order: the lobby promises none
    assert "colour" not in lobby.content.lower()
    await w.mod.slash(w.channel, "table leave")  # a moderator who leaves still hosts (issue 23)
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    assert f"Host: {w.mod.name} (not playing)" in lobby.content and w.summary().host_id == w.mod.id, lobby.content
    assert "ended" not in reply(await w.ana.slash(w.channel, "table end"))  # the player has no host rights yet
    await w.mod.slash(w.channel, "table host", member=w.ana)
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    assert f"Host: {w.ana.name}" in lobby.content, lobby.content
    assert w.summary().host_id == w.ana.id
    result = await w.ana.slash(w.channel, "table end")
    assert "ended" in reply(result)
    lobby = next(m for m in w.messages() if m.id == lobby.id)
    assert "closed before the start" in lobby.content and "Join with" not in lobby.content


async def test_table_history_offers_the_whole_record_as_a_file_and_only_narration_while_running(world: World) -> None:
    from tests.discord.helpers import play_turn_by_slash

    w = world
    await w.open_table(w.ana, ai=1)
    attached = None
    while w.summary().status == "running" and attached is None:
        await play_turn_by_slash(w)
        result = await w.cy.slash(w.channel, "table history")
        message = answer(result)
        assert message.ephemeral and len(message.content) <= 2000
        if message.attachments:
            attached = (await message.attachments[0].read()).decode()
    assert attached is not None, "the game ended before its history outgrew a message"
    row = await w.host.store.tables.get(w.summary().table_id)
    assert row is not None and row.seed not in attached and "seed" not in attached
    assert attached.splitlines()[1].startswith("1. ")  # from the very first move: nothing cut
    assert "moves so far" in attached and "`" not in attached.partition("\n")[2]  # narration only, no action texts
    await w.mod.slash(w.channel, "table end")
    result = await w.cy.slash(w.channel, "table history")
    full = (await answer(result).attachments[0].read()).decode()
    entries = await w.host.store.tables.log(row.id)
    assert "full record" in full and all(f"\n{e.n}. " in full for e in entries)
    assert row.seed not in full and "seed" not in full


async def _until_dm(w: World, member, before: int, turns: int = 200) -> bool:  # type: ignore[no-untyped-def]
    from tests.discord.helpers import play_turn_by_slash

    for _ in range(turns):
        if len(w.dm_texts(member)) > before or w.summary().status != "running":
            break
        await play_turn_by_slash(w)
    return len(w.dm_texts(member)) > before


def _close_dms(w: World, member) -> None:  # type: ignore[no-untyped-def]
    w.env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages", status=403, code=50007,
                       message="Cannot send messages to this user", times=None)


async def test_an_unreachable_player_is_tried_again_after_hand(world: World) -> None:
    w = world
    _close_dms(w, w.bo)
    await w.open_table(w.ana, w.bo, ai=1, mode="jamaica")
    assert not next(s for s in w.summary().seats if s.user_id == w.bo.id).reachable
    w.env.backend.faults.clear()  # bo opens his DMs ...
    await w.bo.slash(w.channel, "hand")  # ... and looks at his hand
    assert next(s for s in w.summary().seats if s.user_id == w.bo.id).reachable
    assert await _until_dm(w, w.bo, 0)  # his next private news reaches him by DM


def reachable(w: World, member) -> bool:  # type: ignore[no-untyped-def]
    return next(s for s in w.summary().seats if s.user_id == member.id).reachable


async def test_an_unreachable_player_is_tried_again_on_news_at_most_every_ten_minutes(world: World) -> None:
    from tests.discord.conftest import TICK_SECONDS
    from tests.discord.helpers import play_turn_by_slash

    w = world
    _close_dms(w, w.bo)
    await w.open_table(w.ana, w.bo, ai=1, mode="jamaica")
    notices = [m for m in w.messages() if "couldn't send you a direct message" in m.content]
    assert len(notices) == 1
    await w.env.advance_time(5 * 60)
    assert not reachable(w, w.bo)  # not yet
    await w.env.advance_time(5 * 60 + 2 * TICK_SECONDS)
    assert reachable(w, w.bo)  # tried on the next news ...
    while reachable(w, w.bo) and w.summary().status == "running":
        await play_turn_by_slash(w)
    # ... which failed again, quietly: the table was told once
    assert len([m for m in w.messages() if "couldn't send you a direct message" in m.content]) == 1
    w.env.backend.faults.clear()
    await w.env.advance_time(5 * 60)
    assert not reachable(w, w.bo)
    await w.env.advance_time(5 * 60 + 2 * TICK_SECONDS)
    assert await _until_dm(w, w.bo, 0)


async def test_a_sigterm_lets_the_command_in_flight_commit_and_answer_before_the_database_closes(
    world: World, caplog
) -> None:  # type: ignore[no-untyped-def]
    import asyncio
    import logging

    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    action = (await actor.autocomplete(w.channel, "play", "action", ""))[0]["value"]
    store = w.host.store
    real_append = store.append
    inside, gate = asyncio.Event(), asyncio.Event()

    async def slow_append(*args, **kwargs):  # type: ignore[no-untyped-def]
        inside.set()
        await gate.wait()  # the commit is under way when the signal arrives
        return await real_append(*args, **kwargs)

    store.append = slow_append  # type: ignore[method-assign]
    before = w.summary().state_no
    command = asyncio.create_task(actor.slash(w.channel, "play", action=action))
    await asyncio.wait_for(inside.wait(), 10)
    caplog.set_level(logging.ERROR)
    closing = asyncio.create_task(w.bot.close())  # what the SIGTERM handler does
    await asyncio.sleep(0.05)
    assert not closing.done()  # it waits for the command ...
    gate.set()
    result = await asyncio.wait_for(command, 10)
    await asyncio.wait_for(closing, 10)
    assert reply(result).startswith("Played"), reply(result)  # ... which committed and answered
    assert "closed database" not in caplog.text and "internal error" not in caplog.text
    assert w.host.internal_errors == 0
    assert w.host.table_for(w.channel.id).state_no > before


async def test_dms_a_crash_kept_from_going_out_are_sent_after_the_restart_each_once(world: World) -> None:
    w = world
    await w.open_table(w.ana, w.bo, ai=1, mode="jamaica")
    sent = len(w.dm_texts(w.ana))
    assert sent >= 1
    lost: list[str] = []

    async def dies_before_sending(channel_id, user_id, post):  # type: ignore[no-untyped-def]
        lost.append(post.text)  # the process "dies" here: the DM never leaves, nobody reports it sent

    w.bot.delivery._dm = dies_before_sending  # type: ignore[method-assign]
    from tests.discord.helpers import play_turn_by_slash

    while not lost and w.summary().status == "running":
        await play_turn_by_slash(w)
    assert lost
    assert len(w.dm_texts(w.ana)) == sent  # nothing went out
    before = {m.id for m in (*w.ana.user.dm_channel.history(), *w.bo.user.dm_channel.history())}
    await w.restart()
    await w.env.advance_time(1)
    late = [m for m in (*w.ana.user.dm_channel.history(), *w.bo.user.dm_channel.history()) if m.id not in before]
    assert len(late) == len(lost), [m.content[:60] for m in late]
    assert all("Sent late" in m.content for m in late)
    # what was owed with each move: its news as the DM began (the hand that followed is /hand's to show now)
    bodies = sorted(m.content.partition("\n")[2] for m in late)
    assert all(any(text.startswith(body) and "You draw" in body for text in lost) for body in bodies), bodies
    await w.restart()  # each once: a second restart sends nothing again
    await w.env.advance_time(1)
    again = [m for m in (*w.ana.user.dm_channel.history(), *w.bo.user.dm_channel.history()) if m.id not in before]
    assert len(again) == len(late)


async def test_the_result_is_posted_without_waiting_for_the_replay_which_follows_in_its_own_message(
    world: World,
) -> None:
    import asyncio

    from tests.discord.helpers import play_turn_by_slash

    w = world
    real_replay = w.host.pictures.replay
    seen: list[bool] = []

    async def slow_replay(*args, **kwargs):  # type: ignore[no-untyped-def]
        # a GIF that takes its time: the result must reach the channel while it is still being drawn
        for _ in range(200):
            if any("Game over" in m.content for m in w.messages()):
                break
            await asyncio.sleep(0.01)
        seen.append(any("Game over" in m.content for m in w.messages()))
        return await real_replay(*args, **kwargs)

    w.host.pictures.replay = slow_replay  # type: ignore[method-assign]
    await w.open_table(w.ana, ai=1)
    while w.summary().status == "running":
        await play_turn_by_slash(w)
    for _ in range(200):
        if any(a.filename.endswith(".gif") for m in w.messages() for a in m.attachments):
            break
        await asyncio.sleep(0.01)
    assert seen == [True]  # the result was out before the replay was drawn
    messages = w.messages()
    result = next(i for i, m in enumerate(messages) if "Game over" in m.content)
    replay = next(i for i, m in enumerate(messages) if any(a.filename.endswith(".gif") for a in m.attachments))
    assert replay > result and "Game over" not in messages[replay].content  # its own message, after the result
    assert any(a.filename == "final.png" for a in messages[result].attachments)  # with the final board
