"""Time limits with an injected clock: half-time reminders, AI takeover or the game's default, re-arming."""

from __future__ import annotations

import asyncio

from bot.host.tables import Outputs, TableHost
from tests.host.conftest import ADMIN, ANA, BEN, CHANNEL, Clock, HostFactory, running, state_of

HOUR = 3600.0


async def test_deadlines_default_to_a_day_and_are_stored(host: TableHost, clock: Clock) -> None:
    await running(host, BEN)
    summary = host.table_for(CHANNEL)
    stored = await host.store.tables.deadlines(summary.table_id)
    assert [(d.seat, d.due - d.started) for d in stored] == [(0, 24 * HOUR)]


async def test_half_time_reminder_by_dm_once_then_ai_takes_the_whole_turn(host: TableHost, clock: Clock) -> None:
    await host.config(ADMIN, turn_limit_seconds=2 * HOUR)
    await running(host, BEN)
    await host.play(ANA, "mark")  # acting inside the turn does not reset the turn's deadline
    clock.advance(HOUR - 1)
    assert await host.tick() == []
    clock.advance(2)
    outs = await host.tick()
    assert len(outs) == 1
    [(user, post)] = outs[0].private
    assert user == ANA.user_id and "your turn" in post.text and not outs[0].public
    clock.advance(60)
    assert await host.tick() == []  # reminded once only
    clock.advance(HOUR)
    outs = await host.tick()
    text = "\n".join(p.text for p in outs[0].public)
    assert "Ana ran out of time; the AI moves for them" in text
    summary = host.table_for(CHANNEL)
    assert summary.to_act == (1,)  # Ana's turn was finished for her
    log = await host.store.tables.log(summary.table_id)
    assert log[-1].by_ai and log[-1].seat == 0
    stored = await host.store.tables.deadlines(summary.table_id)
    assert [(d.seat, d.due) for d in stored] == [(1, clock.now + 2 * HOUR)]


async def test_reminder_pings_in_the_channel_when_dms_are_closed(host: TableHost, clock: Clock) -> None:
    await host.config(ADMIN, turn_limit_seconds=HOUR)
    await running(host, BEN)
    await host.dm_failed(CHANNEL, ANA.user_id)
    clock.advance(HOUR / 2 + 1)
    [out] = await host.tick()
    assert not out.private and out.public[0].mentions == [ANA.user_id] and "your turn" in out.public[0].text


async def test_without_ai_takeover_the_games_default_action_is_applied(host: TableHost, clock: Clock) -> None:
    await host.config(ADMIN, turn_limit_seconds=HOUR, ai_takeover=False)
    await running(host, BEN)
    marks = list(state_of(host)["marks"])
    clock.advance(HOUR + 1)
    [out] = await host.tick()
    assert "the default move is applied" in "\n".join(p.text for p in out.public)
    summary = host.table_for(CHANNEL)
    log = await host.store.tables.log(summary.table_id)
    assert log[-1].action == "end"  # the toy game's timeout_action: the last legal action
    assert state_of(host)["marks"] == marks and summary.to_act == (1,)


async def test_deadlines_survive_a_restart(make_host: HostFactory, clock: Clock) -> None:
    first = await make_host()
    await first.config(ADMIN, turn_limit_seconds=2 * HOUR)
    await running(first, BEN)
    clock.advance(1.5 * HOUR)  # past half time while the bot is down: the reminder comes at restart
    await first.close()
    second = await make_host()
    [out] = await second.tick()
    assert out.private and out.private[0][0] == ANA.user_id
    clock.advance(HOUR)
    [out] = await second.tick()
    assert "ran out of time" in out.public[0].text
    assert second.table_for(CHANNEL).to_act == (1,)


async def test_config_validates_and_reports(host: TableHost) -> None:
    assert not (await host.config(ADMIN, turn_limit_seconds=5)).ok
    assert not (await host.config(ADMIN, colour="red")).ok
    out = await host.config(ADMIN, turn_limit_seconds=600, host_role_id=77)
    assert out.ok and "10 min" in out.reply and "<@&77>" in out.reply
    assert (await host.guild_settings(ADMIN.guild_id))["turn_limit_seconds"] == 600


async def test_a_woken_table_runs_its_timers_at_once_and_publishes_them(host: TableHost, clock: Clock) -> None:
    await host.config(ADMIN, turn_limit_seconds=HOUR)
    await running(host, BEN)
    published: list = []

    async def publish(out) -> None:  # type: ignore[no-untyped-def]
        published.append(out)

    table = host.index.tables[host.table_for(CHANNEL).table_id]  # noqa: SLF001 - the test wakes one table
    host.wake(table, clock.now + 10)  # without a transport: nothing to publish to, so nothing is scheduled
    assert host.background.wakes == {}  # noqa: SLF001
    host.publish = publish
    clock.advance(HOUR + 1)
    host.wake(table, clock.now)
    for _ in range(50):
        if published:
            break
        await asyncio.sleep(0.01)
    [out] = published
    assert "Ana ran out of time" in "\n".join(p.text for p in out.public)
    assert host.table_for(CHANNEL).to_act == (1,)


async def test_background_work_is_published_and_cancelled_at_close(host: TableHost) -> None:
    published: list = []

    async def publish(out) -> None:  # type: ignore[no-untyped-def]
        published.append(out)

    host.publish = publish
    started = asyncio.Event()

    async def quick() -> Outputs:
        return Outputs(reply="done")

    async def slow() -> Outputs:
        started.set()
        await asyncio.sleep(60)
        return Outputs(reply="never")

    host.later(quick())
    host.later(slow())
    await started.wait()
    assert [o.reply for o in published] == ["done"]
    await host.close()
    assert [o.reply for o in published] == ["done"] and not host.background.tasks  # noqa: SLF001
