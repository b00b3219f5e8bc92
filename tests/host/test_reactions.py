"""Optional actions of seats that owe nothing (a Buccaneer challenge) and the AI seat held for them (issue 18)."""

from __future__ import annotations

import asyncio

from bot.host.messages import say
from bot.host.reactions import offer_digest
from bot.host.tables import Outputs, TableHost
from bot.infra.store import Store
from tests.host.conftest import ANA, BEN, CHANNEL, CID, Clock, HostFactory, RecordingRenderer, state_of

WAIT = 20


async def buccaneer(make_host: HostFactory, **options: str) -> TableHost:
    """Ana (Amsterdam), Ben (London) and an AI that picks Bombay, so the AI moves right after Ana."""
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    assert (await host.open(ANA, "buccaneer", {"ports": "choose", **options}, seed="react")).ok
    assert (await host.join(BEN)).ok
    assert (await host.ai_add(ANA)).ok
    assert (await host.start_table(ANA)).ok
    assert (await host.play(ANA, "home amsterdam")).ok
    assert (await host.play(BEN, "home london")).ok
    state = state_of(host)
    assert state["players"][2]["harbour"] == "bombay" and state["order"] == [0, 2, 1]
    return host


def strength(host: TableHost, seat: int = 0) -> tuple[int, int]:
    hand = state_of(host)["players"][seat]["hand"]
    return sum(int(k[1]) * n for k, n in hand.items()), sum(hand.values())


async def sail(host: TableHost, k: int) -> Outputs:
    """Ana sails ``k`` squares south out of Amsterdam down the open H column."""
    for action in ("sail s", f"go {k}", "face s"):
        assert (await host.play(ANA, action)).ok
    out = await host.play(ANA, "confirm")
    assert out.ok, out.reply
    return out


def board(out: Outputs):  # noqa: ANN201 - the last board post of a call
    return [p for p in out.public if p.board_key and not p.edit_only][-1]


async def test_an_ai_next_seat_waits_while_a_person_may_challenge_then_moves(
    make_host: HostFactory, clock: Clock
) -> None:
    host = await buccaneer(make_host)
    s, n = strength(host)
    out = await sail(host, s)  # an honest move beyond the hand size: a challenge window opens
    table = host.table_for(CHANNEL)
    assert table.to_act == (2,) and state_of(host)["challenge"] is not None
    post = board(out)
    assert post.optional == [("challenge", f"Challenge Amsterdam's move of {s}")] and post.decline
    assert f"waits {WAIT} s" in post.text and "Ben (London) may challenge Amsterdam's move" in post.text
    stored = await host.store.tables.deadlines(table.table_id)
    assert [(d.seat, d.due - clock.now) for d in stored] == [(2, WAIT)]  # the hold is stored: it survives restarts
    # the waiting opponent finds the challenge in the picker and in /play's list; the mover does not
    assert [c.action for c in await host.choices(BEN)] == ["challenge"]
    assert await host.choices(ANA) == []
    clock.advance(WAIT / 2)
    assert await host.tick() == [] and host.table_for(CHANNEL).state_no == table.state_no  # no reminder either
    clock.advance(WAIT / 2)
    [out] = await host.tick()
    after = host.table_for(CHANNEL)
    assert after.state_no > table.state_no and after.to_act == (1,)  # the AI moved; Ben's turn
    log = await host.store.tables.log(table.table_id)
    assert [e.seat for e in log[table.state_no :]] == [2] * (after.state_no - table.state_no)
    assert [d.seat for d in await host.store.tables.deadlines(table.table_id)] == [1]  # Ben's turn limit, no hold
    if state_of(host)["challenge"] is not None:  # the AI's own long move may be challenged by Ana now
        assert [c.action for c in await host.choices(ANA)] == ["challenge"]


async def test_the_wait_ends_when_every_person_who_may_challenge_lets_it_stand(make_host: HostFactory) -> None:
    host = await buccaneer(make_host)
    s, _ = strength(host)
    await sail(host, s)
    before = host.table_for(CHANNEL).state_no
    refused = await host.let_stand(ANA)  # the mover has nothing to let stand
    assert not refused.ok and host.table_for(CHANNEL).state_no == before
    out = await host.let_stand(BEN)
    assert out.ok and host.table_for(CHANNEL).state_no > before  # the AI moved at once


async def test_a_challenge_by_the_button_ends_the_wait_with_either_verdict(make_host: HostFactory) -> None:
    for bluff in (True, False):
        host = await buccaneer(make_host)
        s, _ = strength(host)
        await sail(host, s + 1 if bluff else s)
        wrong = await host.react(CID, "challenge")  # no seat: told who may
        assert not wrong.ok and "Only Ben (London) may challenge Amsterdam's move" in wrong.reply
        mover = await host.react(ANA, "challenge")
        assert not mover.ok and "Only Ben (London)" in mover.reply
        out = await host.react(BEN, "challenge")
        assert out.ok, out.reply
        text = "\n".join(p.text for p in out.public)
        verdict = state_of(host)["last"]["challenge"]["verdict"]
        if bluff:
            assert verdict == "exceeded" and "challenges Amsterdam's move: exceeded" in text
            assert strength(host) == (0, 0)  # Ana lost her whole hand
            assert "(Bombay) sailed" in text  # and the AI, no longer held, moved on at once
        else:
            assert verdict == "within" and "the challenger must pay" in text
            # Ben forfeits his best card first; the AI waits for that, then goes on
            assert host.table_for(CHANNEL).to_act == (1,)
            forfeit = [c.action for c in await host.choices(BEN)]
            assert forfeit and all(a.startswith("forfeit") for a in forfeit)
            out = await host.play(BEN, forfeit[0])
            assert "(Bombay) sailed" in "\n".join(p.text for p in out.public)
        assert host.table_for(CHANNEL).to_act == (1,)
        await host.end(ANA)


async def test_the_wait_survives_a_restart(make_host: HostFactory, clock: Clock, db_path: str) -> None:
    host = await buccaneer(make_host)
    s, _ = strength(host)
    await sail(host, s)
    before = host.table_for(CHANNEL)
    await host.close()
    clock.advance(WAIT / 2)
    again = await make_host(db_path, renderer=RecordingRenderer(cheap=True))
    assert await again.tick() == []  # still within the stored wait
    assert again.table_for(CHANNEL).state_no == before.state_no
    assert [c.action for c in await again.choices(BEN)] == ["challenge"]
    clock.advance(WAIT / 2)
    await again.tick()
    assert again.table_for(CHANNEL).state_no > before.state_no and again.replay_mismatches == []


async def test_a_restarted_host_wakes_the_waiting_ai_itself(make_host: HostFactory, clock: Clock, db_path: str) -> None:
    """The stored wait is woken at start-up (no periodic tick needed): here it fell due while the bot was down."""
    host = await buccaneer(make_host)
    s, _ = strength(host)
    await sail(host, s)
    before = host.table_for(CHANNEL).state_no
    await host.close()
    clock.advance(WAIT + 1)
    again = TableHost(Store(db_path), clock=clock, ai_seed="test", renderer=RecordingRenderer(cheap=True))
    published: list[Outputs] = []

    async def publish(out: Outputs) -> None:
        published.append(out)

    again.publish = publish
    await again.start()
    try:
        for _ in range(200):
            if published:
                break
            await asyncio.sleep(0.01)
        assert published and again.table_for(CHANNEL).state_no > before
        assert "Bombay" in "\n".join(p.text for p in published[0].public)
    finally:
        await again.close()


async def test_a_table_may_choose_no_wait(make_host: HostFactory) -> None:
    host = await buccaneer(make_host, challenge_wait="0")
    s, _ = strength(host)
    out = await sail(host, s)
    assert host.table_for(CHANNEL).to_act == (1,)  # the AI moved at once: Ben's turn
    assert all(not p.decline for p in out.public)


async def test_no_wait_when_no_person_could_challenge(make_host: HostFactory) -> None:
    """A move the engine opens no window for (within the hand size) holds nobody."""
    host = await buccaneer(make_host)
    _, n = strength(host)
    out = await sail(host, n)
    assert host.table_for(CHANNEL).to_act == (1,) and all(not p.optional for p in out.public[:-1])


async def test_a_board_button_means_only_what_the_board_offered(make_host: HostFactory) -> None:
    """A button is an index into the board's public offer with the offer's digest (issue 23): the host reads the
    action from its own offer, and anything else (another index, an old digest, an action's text the board does
    not offer, whether or not some hidden hand allows it) gets one refusal that depends on nothing hidden."""
    host = await buccaneer(make_host)
    s, _ = strength(host)
    post = board(await sail(host, s))
    digest = offer_digest(post.optional)
    before = host.table_for(CHANNEL).state_no
    t = host.index.tables[host.table_for(CHANNEL).table_id]  # noqa: SLF001 - the truth, to pick forgeries
    # the held AI's own moves, which its hidden hand decides, and not offered on the board
    hidden = [a for a in t.game.legal_actions(t.state, 2) if a not in dict(post.optional)]
    assert hidden
    forged = [(1, digest), (-1, digest), (0, "00000000"), (0, ""), (10**9, digest), *((a, "") for a in hidden)]
    forged += [("pass", ""), ("challenge now", ""), ("", "")]
    replies = {(await host.react(BEN, pick, before, digest=h)).reply for pick, h in forged}
    assert replies == {say("not_offered")} and host.table_for(CHANNEL).state_no == before
    stale = await host.react(BEN, 0, before - 1, digest=digest)
    assert not stale.ok and host.table_for(CHANNEL).state_no == before
    assert host.internal_errors == 0
    out = await host.react(BEN, 0, before, digest=digest)  # the real button
    assert out.ok and "`challenge`" in out.reply
