"""Turns: prompts, AI seats, refusals, concurrency, undo, end of game, statistics."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.host.tables import Caller, Outputs, TableHost
from tests.host.conftest import ANA, BEN, CHANNEL, CID, GUILD, Published, lobby, running, state_of


async def play_to_end(host: TableHost, *callers: Caller, limit: int = 500) -> list[Outputs]:
    """Every human plays their first legal choice, with the state number, until the game ends."""
    outs: list[Outputs] = []
    for _ in range(limit):
        summary = host.table_for(CHANNEL)
        assert summary is not None
        if summary.status != "running":
            return outs
        for c in callers:
            choices = await host.choices(c)
            if choices:
                out = await host.play(c, choices[0].action, summary.state_no)
                assert out.ok, out.reply
                outs.append(out)
                break
        else:
            raise AssertionError("nobody can move")
    raise AssertionError("game did not end")


async def test_start_deals_privately_and_prompts_every_seat_that_owes_a_decision(host: TableHost) -> None:
    await lobby(host, BEN)
    out = await host.start_table(ANA)
    hands = state_of(host)["hands"]
    dms = dict(out.private)
    assert set(dms) == {ANA.user_id, BEN.user_id}
    assert all(g in dms[ANA.user_id].text for g in hands[0]) and dms[ANA.user_id].image
    assert not any(g in dms[ANA.user_id].text for g in hands[1])
    board = out.public[-1]
    assert board.image and board.buttons and board.state_no == 0 and board.board_key
    assert sorted(board.mentions) == [ANA.user_id, BEN.user_id]  # the simultaneous phase prompts both
    assert "waiting for: Ana (Red), Ben (Blue)." in board.text


async def test_a_turn_edits_one_board_post_and_a_new_turn_starts_a_new_one(host: TableHost) -> None:
    await running(host, BEN)
    first = await host.play(ANA, "mark")
    second = await host.play(ANA, "mark")
    assert first.public[-1].board_key == second.public[-1].board_key
    assert "made a mark. (×2)" in second.public[-1].text  # the turn's post tells both marks, as one line
    third = await host.play(ANA, "end")
    closed, new = third.public
    assert closed.board_key == second.public[-1].board_key and "ended the turn" in closed.text
    assert not closed.mentions and not closed.buttons and "▶" not in closed.text
    assert closed.image == new.image  # the same board, drawn once
    assert third.public[-1].board_key != second.public[-1].board_key
    assert third.public[-1].mentions == [BEN.user_id] and "▶ Ben (Blue): take your turn." in third.public[-1].text
    assert third.public[-1].state_no == host.table_for(CHANNEL).state_no


async def test_ai_seats_move_at_once_and_are_narrated(host: TableHost) -> None:
    await running(host, ais=1)
    out = await host.play(ANA, "end")
    assert out.ok
    text = "\n".join(p.text for p in out.public)
    assert "AI 1 (normal) (Blue)" in text
    summary = host.table_for(CHANNEL)
    assert summary is not None and (summary.status != "running" or summary.to_act == (0,))


async def test_wrong_turn_refused_with_whose_turn_it_is(host: TableHost) -> None:
    await running(host, BEN)
    before = (host.table_for(CHANNEL).state_no, dict(state_of(host)))
    out = await host.play(BEN, "mark")
    assert not out.ok and "It is not your turn: waiting for Ana (Red)." in out.reply and not out.public
    spectator = await host.play(CID, "mark")
    assert not spectator.ok and "no seat" in spectator.reply
    assert (host.table_for(CHANNEL).state_no, state_of(host)) == before


async def test_illegal_and_unparseable_actions_change_nothing_and_name_alternatives(host: TableHost) -> None:
    await running(host, BEN)
    before = (host.table_for(CHANNEL).state_no, dict(state_of(host)))
    out = await host.play(ANA, "play gem99")
    assert not out.ok and "You can play:" in out.reply and "`mark`" in out.reply
    blank = await host.play(ANA, "   ")
    assert not blank.ok and "`end`" in blank.reply
    assert (host.table_for(CHANNEL).state_no, state_of(host)) == before


async def test_stale_state_number_is_refused_with_the_current_board(host: TableHost) -> None:
    await running(host, BEN)
    no = host.table_for(CHANNEL).state_no
    assert (await host.play(ANA, "mark", no)).ok
    stale = await host.play(ANA, "mark", no)
    assert not stale.ok and "out of date" in stale.reply and stale.reply_image
    assert host.table_for(CHANNEL).state_no == no + 1


async def test_fifty_simultaneous_plays_apply_exactly_one(host: TableHost) -> None:
    await running(host, BEN)
    no = host.table_for(CHANNEL).state_no
    outs = await asyncio.gather(*(host.play(ANA, "mark", no) for _ in range(50)))
    assert sum(o.ok for o in outs) == 1
    assert host.table_for(CHANNEL).state_no == no + 1
    assert state_of(host)["marks"][0] == 1


async def test_concurrent_different_commands_keep_the_log_consistent(host: TableHost) -> None:
    await running(host, BEN)
    await asyncio.gather(
        host.play(ANA, "mark"), host.play(ANA, "mark"), host.status(BEN), host.undo(ANA), host.hand(BEN)
    )
    summary = host.table_for(CHANNEL)
    log = await host.store.tables.log(summary.table_id)
    assert [e.n for e in log] == list(range(1, summary.state_no + 1))


async def test_choices_are_labelled_grouped_and_only_for_who_owes_a_move(host: TableHost) -> None:
    await running(host, BEN)
    choices = await host.choices(ANA)
    hand = sorted(state_of(host)["hands"][0])
    assert [c.action for c in choices] == [f"play {g}" for g in hand] + ["mark", "draw", "end"]
    assert choices[0].label.startswith(f"play {hand[0]} (+") and choices[0].group == "play"
    assert await host.choices(BEN) == [] and await host.choices(CID) == []


async def test_choices_asked_again_are_the_same_until_the_state_changes(host: TableHost) -> None:
    await running(host, BEN)
    first = await host.choices(ANA)
    first.clear()  # a caller changing its copy changes nothing for the next one
    again = await host.choices(ANA)
    assert again == await host.choices(ANA) and again
    assert (await host.play(ANA, again[0].action)).ok  # a card leaves the hand
    after = await host.choices(ANA)
    assert [c.action for c in after] == [
        f"play {g}" for g in sorted(state_of(host)["hands"][0])
    ] + ["mark", "draw", "end"] or after == []
    assert [c.action for c in after] != [c.action for c in again]


async def test_undo_takes_back_an_undoable_action_within_the_turn(host: TableHost) -> None:
    await running(host, BEN)
    before = dict(state_of(host))
    no = host.table_for(CHANNEL).state_no
    assert (await host.play(ANA, "mark")).ok
    assert not (await host.undo(BEN)).ok
    out = await host.undo(ANA)
    assert out.ok and "took back" in out.public[-1].text
    assert state_of(host) == before and host.table_for(CHANNEL).state_no == no + 2
    assert not (await host.undo(ANA)).ok  # nothing left of this turn


async def test_undo_refused_after_a_draw_or_once_the_turn_passed(host: TableHost) -> None:
    await running(host, BEN)
    await host.play(ANA, "draw")
    out = await host.undo(ANA)
    assert not out.ok and "can't be taken back" in out.reply and "drew a card" in out.reply
    await host.play(ANA, "mark")
    await host.play(ANA, "mark")  # third action: the turn passes to Ben
    assert not (await host.undo(ANA)).ok


async def test_a_whole_game_with_an_ai_ends_with_summary_replay_and_results(host: TableHost) -> None:
    published = Published(host)
    await running(host, BEN, ais=1)
    outs = await play_to_end(host, ANA, BEN)
    last = outs[-1]
    names = [p.filename for p in last.public]
    assert "final.png" in names and "replay.gif" not in names  # the result is posted at once ...
    summary_post = next(p for p in last.public if p.filename == "final.png")
    assert "Game over" in summary_post.text and "🏆" in summary_post.text
    replay = await published.replay_after(last)  # ... and the replay follows in its own message
    assert replay.text == f"Replay of table {summary_post.table_id}." and replay.table_id == summary_post.table_id
    gif = Image.open(io.BytesIO(replay.image))
    assert gif.format == "GIF" and gif.n_frames > 2
    table = host.table_for(CHANNEL)
    assert table is not None and table.status == "finished" and table.to_act == ()
    played = (await host.stats(ANA)).reply + (await host.stats(BEN)).reply
    assert played.count("Toy Gems: 1 played") == 2
    assert "Ratings: Ana 25.0 → " in summary_post.text and "Parley AI · normal 25.0 → " in summary_post.text
    board = (await host.leaderboard(ANA, "toy")).reply  # a player is listed after 3 rated games
    assert board == "Nobody has 3 rated Toy Gems games on this server yet."
    assert (await host.open(ANA, "toy", {})).ok  # the channel is free again


async def test_stats_of_another_member_and_forget_me(host: TableHost) -> None:
    await running(host, BEN)
    await play_to_end(host, ANA, BEN)
    other = (await host.stats(ANA, BEN.user_id)).reply
    assert other.startswith("Ben has") and "1 played" in other
    assert "(1 game results)" in (await host.forget_me(BEN)).reply
    assert "1 played" in (await host.stats(ANA)).reply
    assert "no finished games" in (await host.stats(BEN)).reply


async def test_leave_and_kick_hand_the_seat_to_an_ai_and_join_takes_it_back(host: TableHost) -> None:
    await running(host, BEN, CID, options={"length": "long"})
    assert not (await host.kick(BEN, CID.user_id)).ok
    out = await host.kick(ANA, CID.user_id)
    assert out.ok and "an AI plays seat 3" in out.public[0].text
    summary = host.table_for(CHANNEL)
    assert summary.seats[2].ai_level == "normal"
    assert (await host.leave(BEN)).ok
    # both seats now play themselves when their turn comes
    await host.play(ANA, "end")
    summary = host.table_for(CHANNEL)
    assert summary.status == "running" and summary.to_act == (0,)
    assert len(await host.store.tables.log(summary.table_id)) > 4  # the AIs played seats 2 and 3
    assert not (await host.join(BEN, seat=0)).ok
    back = await host.join(BEN, seat=1)
    assert back.ok
    summary = host.table_for(CHANNEL)
    assert summary.seats[1].user_id == BEN.user_id and summary.seats[1].ai_level is None
    assert dict(back.private).get(BEN.user_id) is not None  # the hand comes back by DM


async def test_spectator_hand_is_the_public_board(host: TableHost) -> None:
    await running(host, BEN)
    mine = await host.hand(BEN)
    assert mine.ok and all(g in mine.reply for g in state_of(host)["hands"][1]) and mine.reply_image
    spectator = await host.hand(Caller(GUILD, CHANNEL, 4242, "Eve"))
    assert spectator.ok and "public" in spectator.reply
    assert not any(g in spectator.reply for h in state_of(host)["hands"] for g in h)


async def test_when_the_last_human_leaves_the_ais_play_it_out_in_a_few_posts(host: TableHost) -> None:
    published = Published(host)
    await running(host, ais=3, options={"length": "long"})
    out = await host.leave(ANA)
    assert out.ok
    boards = [p for p in out.public if p.board_key and not p.edit_only]
    assert 1 <= len(boards) <= 6 and all(p.image for p in boards)
    assert host.table_for(CHANNEL).status == "finished"
    assert (await published.replay_after(out)).image
    # a player who left is not credited with a result, but is rated for the seat (leaving does not dodge a loss)
    stats = (await host.stats(ANA)).reply
    assert "• Toy Gems: rating " in stats and " played, " not in stats


async def test_an_ai_only_table_that_cannot_finish_is_abandoned_not_replayed_every_tick(
    host: TableHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.host.turns

    await running(host, BEN, options={"length": "long"})
    monkeypatch.setattr(bot.host.turns, "MAX_AI_STEPS", 3)  # the toy's long game takes more AI moves than this
    assert (await host.leave(BEN)).ok
    out = await host.leave(ANA)
    assert out.ok and "recorded as abandoned" in "\n".join(p.text for p in out.public)
    summary = host.table_for(CHANNEL)
    assert summary.status == "abandoned" and host.internal_errors == 0
    assert await host.tick() == []


async def test_ai_seats_still_stop_at_the_limit_while_a_person_holds_a_seat(
    host: TableHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.host.turns

    await running(host, BEN, options={"length": "long"})
    monkeypatch.setattr(bot.host.turns, "MAX_AI_STEPS", 0)
    assert (await host.leave(BEN)).ok
    assert host.table_for(CHANNEL).status == "running" and host.internal_errors == 1
