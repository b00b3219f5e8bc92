"""Trust at the table (issue 23), through the real discord.py client over simcord, as a hostile member, a careless
moderator and a tampered client would try it: /table status is no megaphone, a kick holds, no seat-hopping, a
forged button or pick learns nothing and raises nothing, names are shown as written, a moderator hosts without
playing."""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult

from bot.host.messages import say
from bot.transports.discord.views import NOT_OFFERED
from rules.cartagena.board import SYMBOLS
from tests.discord.conftest import TURN, World, answer, reply, selects
from tests.discord.helpers import play_turn_by_slash


def stored(w: World, message: Any) -> Any:
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    return w.env.backend.get_message(channel_id, message.id)


def pinged(w: World, message: Any) -> bool:
    """Whether the message notified anyone (users, roles, @everyone)."""
    m = stored(w, message)
    return bool(m.ping_user_ids or getattr(m, "ping_role_ids", []) or m.mention_everyone)


async def forge(
    w: World, member: simcord.MemberActor, message: Any, data: dict[str, Any], replace: str | None = None
) -> InteractionResult:
    """A component interaction as a tampered client sends it: ``data`` (custom id, values) on ``message``, whose
    payload carries the forged custom id in place of the component whose custom id is ``replace``."""
    backend = w.env.backend
    source = stored(w, message)
    shown = copy.deepcopy(dict(serializers.message_payload(backend, source)))
    if replace is not None:
        for row in shown["components"]:
            for component in row.get("components", []):
                if component.get("custom_id") == replace:
                    component["custom_id"] = data["custom_id"]
                    if data["component_type"] == ComponentType.BUTTON and component["type"] != ComponentType.BUTTON:
                        component.clear()  # the forged component is a button where the message had a menu
                        component.update(type=ComponentType.BUTTON, style=2, label="Next", custom_id=data["custom_id"])
    record, payload = sim_interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=w.channel.id,
        guild_id=w.guild.id,
        user_id=member.id,
        data=data,
    )
    payload["message"] = shown
    record.source_message_id = source.id
    w.env._notify_dispatch_observers(record)  # noqa: SLF001 - so that settle() waits for the bot's answer
    backend.emit("INTERACTION_CREATE", payload)
    await w.env.settle()
    return InteractionResult(w.env, record)


def custom_id(message: Any, label: str) -> str:
    for row in message.components:
        children = row.children if hasattr(row, "children") else row.get("components", [])
        for item in children:
            if (item.label if hasattr(item, "label") else item.get("label")) == label:
                return item.custom_id if hasattr(item, "custom_id") else item["custom_id"]
    raise AssertionError(f"no {label!r} on the message")


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or (r.exc_info is not None and r.levelno >= logging.WARNING)
    ]


# -- 1. /table status is no megaphone ----------------------------------------------------------------------
async def test_status_answers_the_caller_and_a_repost_is_rare_and_pings_nobody(world: World) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    posts = len(w.messages())
    for member in [w.cy] * 20 + [w.ana, w.mod]:  # a spectator's twenty calls, a player's, a moderator's
        result = await member.slash(w.channel, "table status")
        message = answer(result)
        assert message.ephemeral and message.attachments and "Cartagena" in message.content
    assert len(w.messages()) == posts  # nothing reached the channel
    labels = [c["label"] for c in message.components[0]["components"]]
    assert labels[:3] == ["Take your turn", "My hand", "Zoom"]  # the board's buttons come with it
    actor = w.to_act()[0]
    picker = answer(await actor.click(answer(await actor.slash(w.channel, "table status")), label="Take your turn"))
    assert picker.ephemeral and selects(picker) and len(w.messages()) == posts  # played from there, like the board
    result = await w.cy.slash(w.channel, "table status", repost=True)  # no seat: the board for him only
    assert "players and moderators" in reply(result) and len(w.messages()) == posts
    result = await w.ana.slash(w.channel, "table status", repost=True)
    assert answer(result).ephemeral and len(w.messages()) == posts + 1
    repost = w.messages()[-1]
    assert repost.attachments and "▶" in repost.content and not pinged(w, repost)
    assert TURN.fullmatch(custom_id(repost, "Take your turn"))  # it can be played from
    result = await w.mod.slash(w.channel, "table status", repost=True)  # within the minute: not again
    assert "can be posted again in" in reply(result) and len(w.messages()) == posts + 1
    await w.env.advance_time(61)
    await w.mod.slash(w.channel, "table status", repost=True)
    assert len(w.messages()) == posts + 2 and not pinged(w, w.messages()[-1])


# -- 2. a kick holds ---------------------------------------------------------------------------------------
async def test_a_kicked_player_cannot_sit_again_until_a_moderator_lets_them(world: World) -> None:
    w = world
    await w.open_table(w.ana, w.bo, ai=0)
    result = await w.mod.slash(w.channel, "table kick", member=w.bo)
    assert "bo was removed" in reply(result)
    assert "bo was removed by mod" in "\n".join(m.content for m in w.messages())
    seat = next(s for s in w.summary().seats if s.user_id == w.bo.id)
    assert seat.ai_level is not None
    assert await w.bo.autocomplete(w.channel, "table join", "seat", "") == []
    result = await w.bo.slash(w.channel, "table join")
    assert "removed from this table" in reply(result) and answer(result).ephemeral
    await w.restart()  # the kick is stored
    result = await w.bo.slash(w.channel, "table join", seat=seat.seat + 1)
    assert "removed from this table" in reply(result)
    assert next(s for s in w.summary().seats if s.seat == seat.seat).ai_level is not None
    result = await w.ana.slash(w.channel, "table unkick", member=w.bo)  # a player cannot lift it
    assert "table's host or a moderator" in reply(result)
    result = await w.mod.slash(w.channel, "table unkick", member=w.bo)
    assert "bo may sit at this table again" in reply(result)
    await w.bo.slash(w.channel, "table join")
    assert next(s for s in w.summary().seats if s.seat == seat.seat).user_id == w.bo.id  # his own seat back
    assert next(s for s in w.summary().seats if s.seat == seat.seat).ai_level is None


# -- 3. no seat-hopping ------------------------------------------------------------------------------------
async def test_a_player_cannot_hop_to_another_seat_and_read_its_hand(world: World) -> None:
    """The issue's scenario: in a three-player Cartagena game Bo leaves, Ana leaves and asks for Bo's seat."""
    w = world
    await w.open_table(w.ana, w.bo, ai=0)
    seats = {s.user_id: s.seat for s in w.summary().seats}
    await w.bo.slash(w.channel, "table leave")
    await w.ana.slash(w.channel, "table leave")
    dms = len(w.dm_texts(w.ana))
    offered = [o["value"] for o in await w.ana.autocomplete(w.channel, "table join", "seat", "")]
    assert offered == [seats[w.ana.id] + 1]  # only her own seat is suggested
    result = await w.ana.slash(w.channel, "table join", seat=seats[w.bo.id] + 1)
    assert "only seat you may take" in reply(result) and len(w.dm_texts(w.ana)) == dms
    result = await w.ana.slash(w.channel, "hand")
    assert "no seat" in reply(result)  # the public board, never Bo's hand
    await w.ana.slash(w.channel, "table join")
    assert next(s for s in w.summary().seats if s.user_id == w.ana.id and s.ai_level is None).seat == seats[w.ana.id]
    # Cy never sat here: he may take Bo's seat; Bo, replaced, then may take no other one
    await w.cy.slash(w.channel, "table join", seat=seats[w.bo.id] + 1)
    await w.ana.slash(w.channel, "table leave")
    result = await w.bo.slash(w.channel, "table join", seat=seats[w.ana.id] + 1)
    assert "never takes another seat" in reply(result)
    assert all(s.user_id != w.bo.id or s.ai_level is not None for s in w.summary().seats)


# -- 5. a tampered client learns nothing -------------------------------------------------------------------
async def test_a_forged_challenge_button_is_no_oracle(world: World, caplog: pytest.LogCaptureFixture) -> None:
    """The issue's oracle: a forged button naming an action the mover's hidden hand allows was refused in other
    words than one it does not allow. Now every forgery gets the same answer, from anyone."""
    w = world
    await w.open_table(w.ana, w.bo, ai=0)
    board = w.current_board()
    summary = w.summary()
    t = w.host.index.tables[summary.table_id]  # noqa: SLF001 - the truth, to pick forgeries a hand decides
    mover = summary.to_act[0]
    legal = [a for a in t.game.legal_actions(t.state, mover) if a.startswith("forward start")]
    held = {a.split()[-1] for a in legal}
    not_held = [f"forward start {s}" for s in SYMBOLS if s not in held]
    assert legal and not_held
    zoom = custom_id(board, "Zoom")
    forgeries = [f"parley:react:{summary.table_id}:{summary.state_no}:{a}" for a in (legal[0], not_held[0], "end")]
    forgeries += [f"parley:offer:{summary.table_id}:{summary.state_no}:{i}" for i in ("0:deadbeef", "7:", "99999:zz")]
    answers = set()
    for member in (w.cy, w.ana, w.bo):  # a spectator and both other players... and the mover among them
        for forged in forgeries:
            data = {"custom_id": forged, "component_type": ComponentType.BUTTON}
            result = await forge(w, member, board, data, replace=zoom)
            assert answer(result).ephemeral
            answers.add(reply(result))
    assert answers == {say("not_offered")}
    assert w.summary().state_no == summary.state_no and not errors(caplog)


async def test_tampered_picks_and_pages_get_a_clear_refusal_never_a_traceback(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    w = world
    await w.open_table(w.ana, ai=1)
    actor = w.to_act()[0]
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    menu = selects(picker)[0]
    before = w.summary().state_no
    for value in ("r-1-5", "rX", "r0-999", "a999", "a-1", "a", "", "b0", "a0" * 40, "٣"):
        data = {"custom_id": menu["custom_id"], "component_type": ComponentType.STRING_SELECT, "values": [value]}
        await forge(w, actor, picker, data)
        shown = w.refresh(picker)
        assert shown.content.startswith(NOT_OFFERED) and selects(shown), (value, shown.content)
    data = {"custom_id": menu["custom_id"], "component_type": ComponentType.STRING_SELECT, "values": []}
    await forge(w, actor, picker, data)
    assert w.refresh(picker).content.startswith(NOT_OFFERED)
    # a menu the picker never had, and a page it never had
    head, slot, digest = menu["custom_id"].rsplit(":", 2)
    for other in (f"{head}:9:{digest}", f"{head}:{slot}:{digest}:r0"):  # menu 9; a second level at action 0
        data = {"custom_id": other, "component_type": ComponentType.STRING_SELECT, "values": ["a0"]}
        await forge(w, actor, picker, data, replace=menu["custom_id"])
        assert w.refresh(picker).content.startswith(NOT_OFFERED), other
        picker = answer(await actor.click(w.current_board(), label="Take your turn"))  # a fresh one, as before
    summary = w.summary()
    page = f"parley:page:{summary.table_id}:{summary.state_no}:99"
    result = await forge(w, actor, picker, {"custom_id": page, "component_type": ComponentType.BUTTON}, menu["custom_id"])
    assert NOT_OFFERED in reply(result) or w.refresh(picker).content.startswith(NOT_OFFERED)
    assert w.summary().state_no == before and not errors(caplog) and w.host.internal_errors == 0
    # the real picker still plays
    picker = answer(await actor.click(w.current_board(), label="Take your turn"))
    menu = selects(picker)[0]
    value = next(o["value"] for o in menu["options"] if o["value"].startswith("a"))
    await actor.select(picker, [value], custom_id=menu["custom_id"])
    assert w.summary().state_no > before


# -- 7. names as written -----------------------------------------------------------------------------------
async def test_a_hostile_display_name_is_shown_as_written(world: World) -> None:
    w = world
    role = w.guild.create_role("Crew")
    name = f"@everyone <@&{role.id}> **B** ||x||"
    odd = w.guild.add_member(w.env.create_user("odd"), nick=name)
    await w.open_table(odd, ai=1)
    await play_turn_by_slash(w)
    if w.to_act() and w.to_act()[0] is odd:
        await odd.slash(w.channel, "table leave")
    else:
        await play_turn_by_slash(w)
        await odd.slash(w.channel, "table leave")
    texts = [m for m in w.messages() if odd.id not in stored(w, m).ping_user_ids]
    shown = "\n".join(m.content for m in w.messages())
    assert "\\*\\*B\\*\\*" in shown and "\\|\\|x\\|\\|" in shown  # the lobby post, the boards, the narration
    for raw in ("**B**", "||x||", f"<@&{role.id}>", "@everyone"):
        assert raw not in shown, raw
    for message in w.messages():
        m = stored(w, message)
        assert not m.mention_role_ids and not m.mention_everyone, message.content
    assert texts  # and nobody was pinged by the name


# -- 11. a moderator hosts without playing -----------------------------------------------------------------
async def test_a_moderator_hosts_a_table_without_playing(world: World) -> None:
    w = world
    result = await w.mod.slash(w.channel, "table open cartagena", seat=False)
    assert "without a seat" in reply(result)
    lobby = w.messages()[-1]
    assert f"Host: {w.mod.name} (not playing)" in lobby.content and "Seats (0 of" in lobby.content
    for member in (w.ana, w.bo):
        await member.slash(w.channel, "table join")
    await w.ana.slash(w.channel, "table leave")  # players come and go; the host's rights stay put
    await w.ana.slash(w.channel, "table join")
    assert "table's host or a moderator" in reply(await w.ana.slash(w.channel, "table start"))
    await w.mod.slash(w.channel, "table start")
    summary = w.summary()
    assert summary.status == "running" and w.mod.id not in [s.user_id for s in summary.seats]
    assert summary.host_id == w.mod.id and not w.dm_texts(w.mod)  # no hand for the host
    result = await w.ana.slash(w.channel, "table host", member=w.ana)
    assert "table's host or a moderator" in reply(result)
    result = await w.mod.slash(w.channel, "table host", member=w.ana)
    assert "ana hosts the table now" in reply(result) and w.summary().host_id == w.ana.id
    assert f"Host: {w.ana.name}." in next(m for m in w.messages() if m.id == lobby.id).content


async def test_only_a_moderator_may_open_a_table_without_a_seat(world: World) -> None:
    w = world
    await w.mod.slash(w.channel, "config", anyone_can_open=True)
    result = await w.ana.slash(w.channel, "table open cartagena", seat=False)
    assert "Only moderators" in reply(result) and w.host.table_for(w.channel.id) is None
