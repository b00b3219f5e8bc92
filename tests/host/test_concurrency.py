"""Concurrency at the table host: many calls at once (asyncio.gather) apply each decision exactly once, never
corrupt a table, let simultaneous decisions of several seats all land, and do not make one table wait for another."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.host.tables import Caller, Outputs, TableHost
from bot.infra.replay import replay_steps, same_state
from rules import registry
from rules.core import Game, canonical_json
from tests.host.conftest import ANA, BEN, CHANNEL, CID, GUILD, HostFactory, RecordingRenderer, running, state_of
from tests.rules.test_buccaneer_chance import draw
from tests.rules.test_buccaneer_fixtures import THREE, make, rebalance, set_hand

GAMES = registry.game_ids()
CROWD = 50
SPECTATOR = Caller(GUILD, CHANNEL, 999, "Watcher")


def _callers(n: int, channel: int = CHANNEL) -> list[Caller]:
    return [Caller(GUILD, channel, 100 + i, f"Pirate{i}", moderator=(i == 0)) for i in range(n)]


async def _table(
    host: TableHost, game_id: str, seats: int, *, channel: int = CHANNEL, seed: str = "conc"
) -> list[Caller]:
    """A running table of ``seats`` humans in ``channel``; returns them in seat order."""
    callers = _callers(seats, channel)
    assert (await host.open(callers[0], game_id, {}, seed=seed)).ok
    for c in callers[1:]:
        assert (await host.join(c)).ok
    assert (await host.start_table(callers[0])).ok
    return callers


async def _advance(host: TableHost, callers: list[Caller], rnd: random.Random, moves: int) -> None:
    channel = callers[0].channel_id
    for _ in range(moves):
        summary = host.table_for(channel)
        assert summary is not None and summary.status == "running"
        caller = callers[summary.to_act[0]]
        out = await host.play(caller, rnd.choice(await host.choices(caller)).action)
        assert out.ok, out.reply


def _seat_to_act(host: TableHost, channel: int = CHANNEL) -> int:
    summary = host.table_for(channel)
    assert summary is not None
    return summary.to_act[0]


def _mover(host: TableHost, callers: list[Caller]) -> Caller:
    summary = host.table_for(callers[0].channel_id)
    assert summary is not None
    return callers[summary.to_act[0]]


async def _log_len(host: TableHost, channel: int = CHANNEL) -> int:
    summary = host.table_for(channel)
    assert summary is not None
    return len(await host.store.tables.log(summary.table_id))


async def _consistent(host: TableHost, channel: int = CHANNEL) -> None:
    """Memory, the stored seats and the stored log agree, and the log replays to the snapshot."""
    summary = host.table_for(channel)
    assert summary is not None
    game = registry.get(summary.game_id)
    seats = [(s.seat, s.user_id, s.ai_level) for s in await host.store.seats.of(summary.table_id)]
    assert sorted(seats) == sorted((s.seat, s.user_id, s.ai_level) for s in summary.seats)
    numbers = [s[0] for s in seats]
    humans = [s[1] for s in seats if s[2] is None]
    assert len(set(numbers)) == len(numbers) and all(0 <= n < game.info.max_players for n in numbers)
    assert len(set(humans)) == len(humans), "a user holds two seats"
    assert len(seats) <= game.info.max_players
    row = await host.store.tables.get(summary.table_id)
    assert row is not None
    log = await host.store.tables.log(summary.table_id)
    assert [e.n for e in log] == list(range(1, len(log) + 1))
    assert row.state_no == summary.state_no == len(log)
    if row.status == "running" and row.snapshot is not None:
        steps = replay_steps(game, row.players, row.options, row.seed, log)
        assert same_state(game, steps[-1][1], game.load(row.snapshot))
        assert same_state(game, steps[-1][1], state_of(host, channel))


def _refusals_are_polite(outs: list[Outputs]) -> None:
    for out in outs:
        if not out.ok:
            assert out.reply.strip() and len(out.reply) <= 2000
            assert "Something went wrong" not in out.reply


def _one_shot_action(game: Game, state: dict[str, Any], seat: int) -> str | None:
    """A legal action of ``seat`` that cannot be played twice in a row (it ends the seat's decision or is
    no longer legal after it), so fifty copies of it can only ever apply once; None if every one can."""
    for action in game.legal_actions(state, seat):
        after, _ = game.apply(state, seat, action)
        if seat not in game.to_act(after) or action not in game.legal_actions(after, seat):
            return action
    return None


@pytest.mark.parametrize("game_id", GAMES)
async def test_fifty_clicks_with_one_state_number_apply_exactly_one_action(
    make_host: HostFactory, game_id: str
) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get(game_id)
    callers = await _table(host, game_id, max(game.info.min_players, min(3, game.info.max_players)))
    await _advance(host, callers, random.Random(game_id), 5)
    summary = host.table_for(CHANNEL)
    assert summary is not None
    acting = summary.to_act[0]
    legal = game.legal_actions(state_of(host), acting)
    log_before = await _log_len(host)
    # the player taps one picker option forty times (and others too), the rest of the table taps along
    calls = [host.play(callers[acting], legal[i % min(3, len(legal))], summary.state_no) for i in range(40)]
    others = [c for i, c in enumerate(callers) if i != acting] + [SPECTATOR]
    calls += [host.play(others[i % len(others)], legal[0], summary.state_no) for i in range(CROWD - 40)]
    outs = await asyncio.gather(*calls)
    assert sum(out.ok for out in outs) == 1, [o.reply for o in outs if o.ok]
    assert host.table_for(CHANNEL).state_no == summary.state_no + 1  # type: ignore[union-attr]
    assert await _log_len(host) == log_before + 1
    winner = outs.index(next(o for o in outs if o.ok))
    assert winner < 40, "a seat that did not owe the move had it applied"
    stale = [o for o in outs[:40] if not o.ok]
    assert all("out of date" in o.reply for o in stale)
    _refusals_are_polite(outs)
    assert host.internal_errors == 0
    await _consistent(host)


@pytest.mark.parametrize("game_id", GAMES)
async def test_fifty_play_commands_at_once_apply_exactly_one_action(make_host: HostFactory, game_id: str) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get(game_id)
    callers = await _table(host, game_id, max(game.info.min_players, min(3, game.info.max_players)))
    rnd = random.Random(f"{game_id}/play")
    await _advance(host, callers, rnd, 4)
    while (action := _one_shot_action(game, state_of(host), _seat_to_act(host))) is None:
        await _advance(host, callers, rnd, 1)
    summary = host.table_for(CHANNEL)
    assert summary is not None
    acting = summary.to_act[0]
    log_before = await _log_len(host)
    idle = [c for i, c in enumerate(callers) if i not in summary.to_act] + [SPECTATOR]
    calls = [host.play(callers[acting], action) for _ in range(CROWD - 10)]
    calls += [host.play(idle[i % len(idle)], action) for i in range(10)]
    outs = await asyncio.gather(*calls)
    assert sum(out.ok for out in outs) == 1
    assert outs[0].ok, "the first /play to arrive is the one applied"
    assert host.table_for(CHANNEL).state_no == summary.state_no + 1  # type: ignore[union-attr]
    assert await _log_len(host) == log_before + 1
    _refusals_are_polite(outs)
    assert host.internal_errors == 0
    await _consistent(host)


async def test_flagon_planning_from_every_seat_at_once_all_lands(make_host: HostFactory) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get("flagon")
    callers = await _table(host, "flagon", 4, seed="plan-together")
    rnd = random.Random("flagon-planning")
    # the draft is one seat at a time; planning is every seat at once
    while len(host.table_for(CHANNEL).to_act) < 2:  # type: ignore[union-attr]
        await _advance(host, callers, rnd, 1)
    planners = list(host.table_for(CHANNEL).to_act)  # type: ignore[union-attr]
    assert len(planners) == 4
    plans = {s: 0 for s in planners}
    rounds = 0
    while True:
        summary = host.table_for(CHANNEL)
        assert summary is not None
        state = state_of(host)
        planning = [s for s in summary.to_act if game.legal_actions(state, s)[0].startswith("plan ")]
        if len(planning) < 2:
            break
        before = summary.state_no
        # every planner's secret pick arrives at once, each twice (a double tap): on even rounds as picker taps
        # carrying the board's state number (the second tap of each is stale), on odd rounds as /play
        picks = {s: rnd.choice(game.legal_actions(state, s)) for s in planning}
        board = before if rounds % 2 == 0 else None
        outs = await asyncio.gather(*[host.play(callers[s], picks[s], board) for s in planning for _ in range(2)])
        landed = [s for (s, _), out in zip([(s, k) for s in planning for k in range(2)], outs, strict=True) if out.ok]
        assert set(planning) <= set(landed), f"a plan was lost: {[o.reply for o in outs if not o.ok]}"
        if board is not None:
            assert sorted(landed) == sorted(planning), "a double tap planned twice"
        for s in landed:
            plans[s] += 1
        assert host.table_for(CHANNEL).state_no == before + len(landed)  # type: ignore[union-attr]
        rounds += 1
        assert rounds < 50
    assert all(n >= 1 for n in plans.values())
    log = await host.store.tables.log(host.table_for(CHANNEL).table_id)  # type: ignore[union-attr]
    logged = [e for e in log if e.action and e.action.startswith("plan ")]
    assert len(logged) == sum(plans.values()), "a plan is missing from the log"
    # the reveal followed: nobody plans any more and the round carries on
    state = state_of(host)
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "running"
    assert not any(game.legal_actions(state, s)[0].startswith("plan ") for s in summary.to_act)
    assert host.internal_errors == 0
    await _consistent(host)


def _yellow_fever() -> dict[str, Any]:
    """The buccaneer rules test's position: card 22 drawn, three seats must bury crew at once."""
    s = make(THREE, seed="conc-fever")
    for seat in range(3):
        set_hand(s, seat, "")
    set_hand(s, 1, "b1 b1 b1 b1 b1 b1 r1")
    s["harbours"]["cadiz"]["docks"]["crew"]["r2"] = 2
    set_hand(s, 2, "b2 b2 b2 b2 b2 b2 b2 r3")
    rebalance(s)
    s, _ = draw(s, 22, crew="b3 b3 b3 b3 b3 r1 r1 r1 r1")
    return s


async def test_yellow_fever_burials_from_several_seats_at_once_all_land(make_host: HostFactory) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get("buccaneer")
    callers = await _table(host, "buccaneer", 3, seed="conc-fever")
    summary = host.table_for(CHANNEL)
    assert summary is not None
    # put the hand-built position in place, in memory and in the store, as a running table's state
    fever = _yellow_fever()
    table = host.index.tables[summary.table_id]  # noqa: SLF001 - the test builds a position the dice rarely deal
    table.state = fever
    async with host.store.transaction() as tx:
        await tx.execute(
            "UPDATE tables SET snapshot = ? WHERE id = ?", (canonical_json(game.dump(fever)), summary.table_id)
        )
    assert game.to_act(fever) == [0, 1, 2]
    before = summary.state_no
    # London owes one burial, Cadiz and Amsterdam two each: all five arrive at once (/play)
    wanted = [(0, "bury r1"), (0, "bury r1"), (1, "bury docks r2"), (1, "bury docks r2"), (2, "bury r3")]
    outs = await asyncio.gather(*[host.play(callers[s], a) for s, a in wanted])
    assert all(o.ok for o in outs), [o.reply for o in outs]
    after = host.table_for(CHANNEL)
    assert after is not None and after.state_no == before + 5
    state = state_of(host)
    assert game.to_act(state) == [1]  # back to Cadiz's turn
    assert state["harbours"]["cadiz"]["docks"]["crew"]["r2"] == 0
    log = await host.store.tables.log(summary.table_id)
    assert sorted((e.seat, e.action) for e in log[-5:]) == sorted(wanted)
    # the same five again find nothing left to bury: refused, nothing changes
    outs = await asyncio.gather(*[host.play(callers[s], a) for s, a in wanted])
    assert not any(o.ok for o in outs)
    _refusals_are_polite(outs)
    assert host.table_for(CHANNEL).state_no == before + 5  # type: ignore[union-attr]
    # the same moment again, played with buttons: everyone taps on the board of one state number, three times
    # each. The other seats' burials do not make a pick stale; a seat's own second tap is.
    table.state = fever
    board = host.table_for(CHANNEL).state_no  # type: ignore[union-attr]
    taps = [(s, a) for s, a in wanted[::2] for _ in range(3)]  # one of each seat's burials, tapped thrice
    outs = await asyncio.gather(*[host.play(callers[s], a, board) for s, a in taps])
    assert sorted(s for (s, _), o in zip(taps, outs, strict=True) if o.ok) == [0, 1, 2], [o.reply for o in outs]
    assert all("out of date" in o.reply for o in outs if not o.ok)
    assert host.table_for(CHANNEL).state_no == board + 3  # type: ignore[union-attr]
    assert game.to_act(state_of(host)) == [0, 1]  # London is done; the other two owe one more each
    assert host.internal_errors == 0


async def test_one_busy_table_does_not_hold_up_another(make_host: HostFactory) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    first = await _table(host, "cartagena", 2, channel=CHANNEL, seed="a")
    second = await _table(host, "cartagena", 2, channel=CHANNEL + 1, seed="b")
    busy = host.index.tables[host.table_for(CHANNEL).table_id]  # noqa: SLF001 # type: ignore[union-attr]
    async with busy.lock:  # the first table is in the middle of something long
        a, b = _mover(host, first), _mover(host, second)
        waiting = asyncio.create_task(host.play(a, (await host.choices(a))[0].action))
        out = await asyncio.wait_for(host.play(b, (await host.choices(b))[0].action), 30)
        assert out.ok, out.reply
        await asyncio.sleep(0.05)
        assert not waiting.done(), "a move went past the table's lock"
    assert (await asyncio.wait_for(waiting, 30)).ok
    # and twenty tables moving at once all move
    players = {}
    for n in range(2, 22):
        players[CHANNEL + n] = await _table(host, "cartagena", 2, channel=CHANNEL + n, seed=f"t{n}")
    before = {ch: host.table_for(ch).state_no for ch in players}  # type: ignore[union-attr]
    movers = {ch: _mover(host, cs) for ch, cs in players.items()}
    actions = {ch: (await host.choices(m))[0].action for ch, m in movers.items()}
    outs = await asyncio.gather(*[host.play(m, actions[ch]) for ch, m in movers.items()])
    assert all(o.ok for o in outs)
    for ch in players:
        assert host.table_for(ch).state_no == before[ch] + 1  # type: ignore[union-attr]
        await _consistent(host, ch)
    assert host.internal_errors == 0


async def test_fifty_joins_at_once_seat_each_user_once_and_never_overfill(make_host: HostFactory) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    opener, *crowd = _callers(CROWD + 1)
    assert (await host.open(opener, "cartagena", {})).ok
    max_players = registry.get("cartagena").info.max_players
    # everyone at once, and each of the first ten twice more
    outs = await asyncio.gather(*[host.join(c) for c in crowd + crowd[:10] + crowd[:10]])
    assert sum(o.ok for o in outs) == max_players - 1
    _refusals_are_polite(outs)
    await _consistent(host)
    assert len(host.table_for(CHANNEL).seats) == max_players  # type: ignore[union-attr]
    # a full table: fifty leave-and-join pairs at once never lose or double a seat
    seated = [c for c in crowd if any(s.user_id == c.user_id for s in host.table_for(CHANNEL).seats)]  # type: ignore[union-attr]
    outs = await asyncio.gather(*[host.leave(c) for c in seated] + [host.join(c) for c in crowd])
    _refusals_are_polite(outs)
    await _consistent(host)
    assert len(host.table_for(CHANNEL).seats) == max_players  # type: ignore[union-attr]
    assert host.internal_errors == 0


async def test_a_storm_of_mixed_commands_never_corrupts_the_table(make_host: HostFactory) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    opener, *others = _callers(9)
    assert (await host.open(opener, "cartagena", {})).ok
    rnd = random.Random("storm")

    async def random_call(wave: int) -> Outputs:
        who = rnd.choice([opener, *others])
        summary = host.table_for(CHANNEL)
        if summary is not None and summary.status == "running" and rnd.random() < 0.6:
            # mostly the seat that owes the move: plays, double taps and take-backs race each other
            seat = summary.to_act[0]
            who = next((c for c in (opener, *others) if summary.seats[seat].user_id == c.user_id), who)
        lobby = ("join", "join", "leave", "ai_add", "ai_remove", "status")
        game = ("start", "undo", "play", "play", "play", "hand", "join", "leave", "status")
        kind = rnd.choice(lobby if wave < 3 else game)
        if kind == "join":
            return await host.join(who)
        if kind == "leave":
            return await host.leave(who) if who is not opener else await host.status(who)
        if kind == "ai_add":
            return await host.ai_add(opener, "easy")
        if kind == "ai_remove":
            return await host.ai_remove(opener)
        if kind == "start":
            return await host.start_table(opener)
        if kind == "undo":
            return await host.undo(who)
        if kind == "play":
            choices = await host.choices(who)
            await asyncio.sleep(0)  # let the table move on between reading the choices and playing one
            return await host.play(who, rnd.choice(choices).action if choices else "end")
        if kind == "hand":
            return await host.hand(who)
        return await host.status(who)

    for wave in range(12):
        outs = await asyncio.gather(*[random_call(wave) for _ in range(25)])
        _refusals_are_polite(outs)
        assert host.internal_errors == 0
        summary = host.table_for(CHANNEL)
        assert summary is not None
        if summary.status in ("lobby", "running"):
            await _consistent(host)
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.state_no > 20, "the storm played too few moves to mean anything"


async def test_a_pick_on_an_older_board_stands_only_while_just_others_moved(make_host: HostFactory) -> None:
    """The rule behind simultaneous picks, on the toy game's all-at-once ``ready``: another seat's move leaves a
    seat's board current for it; its own move, or a restart (who moved since is then unknown), does not."""
    first = await make_host(renderer=RecordingRenderer(cheap=True))
    await running(first, BEN, CID, ready=False)
    board = first.table_for(CHANNEL).state_no  # type: ignore[union-attr]
    assert (await first.play(ANA, "ready", board)).ok
    assert (await first.play(BEN, "ready", board)).ok  # only Ana moved since Ben's board
    out = await first.play(BEN, "ready", board)
    assert not out.ok and "out of date" in out.reply  # Ben's own move since: his board is stale
    await first.close()
    second = await make_host(renderer=RecordingRenderer(cheap=True))
    out = await second.play(CID, "ready", board)
    assert not out.ok and "out of date" in out.reply
    assert (await second.play(CID, "ready", second.table_for(CHANNEL).state_no)).ok  # type: ignore[union-attr]
    assert second.internal_errors == 0
