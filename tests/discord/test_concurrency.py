"""Concurrency through the real discord.py client over simcord: fifty taps of one picker option and fifty
``/play`` commands landing at once apply exactly one action, every other one gets a polite ephemeral refusal,
and the simultaneous decisions of several seats (Flagon's secret planning) all land."""

from __future__ import annotations

import logging
import random
import re
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from bot.host.tables import Caller
from rules import registry
from tests.discord.conftest import World, answer, reply, selects
from tests.discord.helpers import play_turn_by_slash
from tests.host.test_concurrency import _one_shot_action

CROWD = 50
LIVE_MENTION = re.compile(r"@everyone|@here|<@[!&]?\d+>")


def _bot_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or (r.exc_info is not None and r.levelno >= logging.WARNING)
    ]


def _emit(
    w: World, member: simcord.MemberActor, kind: int, data: dict[str, Any], source: Any = None
) -> InteractionResult:
    """An interaction sent straight to the gateway without waiting for the bot, so that many land before it
    answers any (simcord's actors run one operation at a time); ``await w.env.settle()`` afterwards."""
    backend = w.env.backend
    record, payload = sim_interactions.base_payload(
        backend, type=kind, channel_id=w.channel.id, guild_id=w.guild.id, user_id=member.id, data=data
    )
    if source is not None:
        channel_id = getattr(source, "channel_id", None) or source.channel.id  # a ResponseMessage or a discord.Message
        stored = backend.get_message(channel_id, source.id)
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
    w.env._notify_dispatch_observers(record)  # noqa: SLF001 - so that settle() waits for the bot's answer
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(w.env, record)


def _emit_pick(w: World, member: simcord.MemberActor, picker: Any, custom_id: str, value: str) -> InteractionResult:
    data = {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT, "values": [value]}
    return _emit(w, member, InteractionType.MESSAGE_COMPONENT, data, picker)


def _emit_click(w: World, member: simcord.MemberActor, message: Any, label: str) -> InteractionResult:
    custom_id = next(
        item.custom_id for row in message.components for item in row.children if getattr(item, "label", "") == label
    )
    data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    return _emit(w, member, InteractionType.MESSAGE_COMPONENT, data, message)


def _emit_play(w: World, member: simcord.MemberActor, action: str) -> InteractionResult:
    root = w.env.backend.find_command("play", w.guild.id, type=1)
    data = {
        "id": root["id"],
        "name": "play",
        "type": 1,
        "options": [{"name": "action", "type": 3, "value": action}],
        "guild_id": root.get("guild_id") or str(w.guild.id),
    }
    return _emit(w, member, InteractionType.APPLICATION_COMMAND, data)


async def _open(w: World, game_id: str, *humans: simcord.MemberActor) -> None:
    await w.mod.slash(w.channel, f"table open {game_id}")
    for member in humans:
        await member.slash(w.channel, "table join")
    result = await w.mod.slash(w.channel, "table start")
    assert w.summary().status == "running", reply(result)


async def test_fifty_taps_of_one_picker_option_apply_exactly_one_action(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    await _open(w, "cartagena", w.ana, w.bo)  # humans only: every log entry is one of theirs
    actor = w.to_act()[0]
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    menu = selects(picker)[0]
    values = [o["value"] for o in menu["options"]][:3]
    before = w.summary()
    log_before = len(await w.host.store.tables.log(before.table_id))
    # record every answer the bot writes into the picker (each tap edits it once)
    edits: list[str] = []
    backend = w.env.backend
    original_edit = backend.edit_message

    def recording_edit(channel_id: int, message_id: int, changes: Any, *args: Any, **kwargs: Any) -> Any:
        if message_id == picker.id and isinstance(changes, dict) and "content" in changes:
            edits.append(str(changes["content"]))
        return original_edit(channel_id, message_id, changes, *args, **kwargs)

    backend.edit_message = recording_edit  # type: ignore[method-assign]
    idle = [p for p in (w.mod, w.ana, w.bo) if p is not actor]
    board = w.current_board()
    with caplog.at_level(logging.WARNING):
        for i in range(CROWD - 10):  # a frantic player: forty taps on the picker before the bot answers one
            _emit_pick(w, actor, picker, menu["custom_id"], values[i % len(values)])
        # meanwhile the others tap the board's "Take your turn"
        clicks = [_emit_click(w, idle[i % len(idle)], board, "Take your turn") for i in range(10)]
        await w.env.settle()
    backend.edit_message = original_edit  # type: ignore[method-assign]
    after = w.summary()
    assert after.state_no == before.state_no + 1
    assert len(await w.host.store.tables.log(before.table_id)) == log_before + 1
    assert len(edits) == CROWD - 10, f"{len(edits)} answers to {CROWD - 10} taps"
    played = [e for e in edits if e.startswith("Played")]
    assert len(played) == 1, played
    refused = [e for e in edits if not e.startswith("Played")]
    assert all("out of date" in e for e in refused), {e.splitlines()[0] for e in refused}
    for result in clicks:
        text = reply(result)
        assert answer(result).ephemeral and ("not your move" in text or "out of date" in text), text
    assert w.host.internal_errors == 0
    assert _bot_errors(caplog) == []


async def test_fifty_play_commands_at_once_apply_exactly_one_action(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    await _open(w, "cartagena", w.ana, w.bo)
    game = registry.get("cartagena")
    while True:  # until the player to act has an action that cannot be repeated (the last of their turn)
        actor = w.to_act()[0]
        before = w.summary()
        row = await w.host.store.tables.get(before.table_id)
        assert row is not None and row.snapshot is not None
        seat = next(s.seat for s in before.seats if s.user_id == actor.id)
        action = _one_shot_action(game, game.load(row.snapshot), seat)
        if action is not None:
            break
        await play_turn_by_slash(w)
    log_before = len(await w.host.store.tables.log(before.table_id))
    idle = [p for p in (w.mod, w.ana, w.bo, w.cy) if p is not actor]
    with caplog.at_level(logging.WARNING):
        results = [_emit_play(w, actor, action) for _ in range(CROWD - 8)]
        results += [_emit_play(w, idle[i % len(idle)], action) for i in range(8)]
        await w.env.settle()
    after = w.summary()
    assert after.state_no == before.state_no + 1
    assert len(await w.host.store.tables.log(before.table_id)) == log_before + 1
    texts = [reply(r) for r in results]
    assert all(answer(r).ephemeral for r in results)
    assert sum(t.startswith("Played") for t in texts) == 1, texts[:3]
    for text in texts:
        if not text.startswith("Played"):
            # not their turn, or (the player's turn goes on) that action is spent: either way what is allowed
            assert "turn" in text or "You can play" in text, text
            assert len(text) <= 2000 and not LIVE_MENTION.search(text), text
    assert w.host.internal_errors == 0
    assert _bot_errors(caplog) == []


async def test_flagon_planning_from_every_seat_at_once_all_lands(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    await _open(w, "flagon", w.ana, w.bo, w.cy)
    game = registry.get("flagon")
    rnd = random.Random("discord-planning")
    players = {s.seat: w.actor(int(s.user_id)) for s in w.summary().seats if s.user_id is not None}

    async def state() -> dict[str, Any]:
        row = await w.host.store.tables.get(w.summary().table_id)
        assert row is not None and row.snapshot is not None
        return game.load(row.snapshot)

    def caller(member: simcord.MemberActor) -> Caller:
        return Caller(w.guild.id, w.channel.id, member.id, member.name)

    # the draft: one seat at a time
    while len(w.summary().to_act) < 2:
        member = players[w.summary().to_act[0]]
        choices = await w.host.choices(caller(member))
        await member.slash(w.channel, "play", action=rnd.choice(choices).action)
    assert len(w.summary().to_act) == 4
    planned = 0
    with caplog.at_level(logging.WARNING):
        while True:
            current = await state()
            planners = [s for s in w.summary().to_act if game.legal_actions(current, s)[0].startswith("plan ")]
            if len(planners) < 2:
                break
            before = w.summary().state_no
            picks = {s: rnd.choice(game.legal_actions(current, s)) for s in planners}
            results = [_emit_play(w, players[s], picks[s]) for s in planners]
            await w.env.settle()
            texts = [reply(r) for r in results]
            assert all(t.startswith("Played") for t in texts), texts
            assert all(answer(r).ephemeral for r in results)
            assert w.summary().state_no == before + len(planners)
            planned += len(planners)
    log = await w.host.store.tables.log(w.summary().table_id)
    assert len([e for e in log if e.action and e.action.startswith("plan ")]) == planned
    # the reveal followed: the channel tells the plans that were secret until now, and the round goes on
    assert w.summary().status == "running"
    current = await state()
    assert not any(game.legal_actions(current, s)[0].startswith("plan ") for s in w.summary().to_act)
    # no plan leaked before its reveal: the planning moves' own narration is all that reached the channel
    assert w.host.internal_errors == 0
    assert _bot_errors(caplog) == []


async def test_flagon_plans_picked_in_every_players_picker_at_once_all_land(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Players on their phones: each opens the picker from the same board, then all pick at once. A plan
    picked from a picker drawn before another player's plan landed is still the player's own decision."""
    w = world
    await _open(w, "flagon", w.ana, w.bo, w.cy)
    rnd = random.Random("discord-picker-planning")
    while len(w.summary().to_act) < 2:
        await play_turn_by_slash(w)
    log_before = len(await w.host.store.tables.log(w.summary().table_id))
    planned = 0
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            planners = w.to_act()
            if len(planners) < 2:
                break
            board = w.current_board()
            pickers = [answer(await p.click(board, label="Take your turn")) for p in planners]
            before = w.summary().state_no
            taps = []
            for member, picker in zip(planners, pickers, strict=True):
                menu = next(m for m in selects(picker) if m["options"][0]["value"].startswith("a"))
                taps.append((member, picker, menu["custom_id"], rnd.choice(menu["options"])["value"]))
            for member, picker, custom_id, value in taps:
                _emit_pick(w, member, picker, custom_id, value)
            await w.env.settle()
            assert w.summary().state_no == before + len(planners), [w.refresh(p).content for _, p, _, _ in taps]
            for _, picker, _, _ in taps:
                assert w.refresh(picker).content.startswith("Played")
            planned += len(planners)
    assert planned >= 4
    log = (await w.host.store.tables.log(w.summary().table_id))[log_before:]
    assert len(log) == planned and all(e.action.startswith("plan ") and not e.by_ai for e in log)  # type: ignore[union-attr]
    assert w.host.internal_errors == 0
    assert _bot_errors(caplog) == []


HOSTILE = [
    "@everyone",
    "<@123456789012345678> <@&42> <#7>",
    "forward start hat @here",
    "\u202e\u200d\u0301🏴‍☠️",
    "**bold** ```x``` ||spoiler||",
    "x" * 5000,
    " ",
]


async def test_hostile_play_and_autocomplete_through_discord_are_refused_quietly(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The same junk as the host fuzz, through the real client: autocomplete answers (at most 25 legal
    actions), /play answers ephemerally within Discord's limit, pings nobody and changes nothing."""
    w = world
    await _open(w, "cartagena", w.ana)
    actor = w.to_act()[0]
    idle = next(p for p in (w.mod, w.ana) if p is not actor)
    before = w.summary()
    legal = {c.action for c in await w.host.choices(Caller(w.guild.id, w.channel.id, actor.id, actor.name))}
    with caplog.at_level(logging.WARNING):
        for text in HOSTILE:
            for member in (actor, idle, w.cy):
                offered = await member.autocomplete(w.channel, "play", "action", text[:100])
                assert len(offered) <= 25
                assert {o["value"] for o in offered} <= (legal if member is actor else set())
                result = await member.slash(w.channel, "play", action=text)
                message = answer(result)
                assert message.ephemeral and message.content.strip() and len(message.content) <= 2000
                assert not LIVE_MENTION.search(message.content), message.content
    after = w.summary()
    assert (after.state_no, after.to_act) == (before.state_no, before.to_act)
    assert w.host.internal_errors == 0
    assert _bot_errors(caplog) == []
