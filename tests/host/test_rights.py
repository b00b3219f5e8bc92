"""Trust at the table (issue 23), on the table host: /table status answers the caller and reposts at most once a
minute without pinging; a kick holds (across restarts) until a moderator lifts it; nobody who has held a seat
of a running game is ever given another seat; a moderator hosts without playing; display names are escaped."""

from __future__ import annotations

from bot.host.reading import REPOST_SECONDS
from bot.host.tables import Caller, Outputs, TableHost
from tests.host.conftest import ADMIN, ANA, BEN, CHANNEL, CID, GUILD, Clock, HostFactory, lobby, running

DAN = Caller(GUILD, CHANNEL, 103, "Dan")
NON_MOD_HOST = Caller(GUILD, CHANNEL, 104, "Eve")


def seat_of(host: TableHost, caller: Caller) -> int | None:
    summary = host.table_for(CHANNEL)
    assert summary is not None
    return next((s.seat for s in summary.seats if s.user_id == caller.user_id and s.ai_level is None), None)


def dm_users(*outs: Outputs) -> set[int]:
    return {user for out in outs for user, _ in out.private}


# -- /table status -------------------------------------------------------------------------------------------
async def test_status_shows_the_board_to_the_caller_only(host: TableHost) -> None:
    await running(host, BEN)
    for _ in range(20):  # a spectator's twenty calls post nothing to the channel
        out = await host.status(CID)
        assert out.ok and not out.public and not out.private
    assert "Toy Gems" in out.reply and "▶" in out.reply and out.reply_image is not None
    assert out.reply_board is not None and out.reply_board.buttons and not out.reply_board.mentions


async def test_a_repost_is_for_players_and_moderators_at_most_once_a_minute_and_pings_nobody(
    host: TableHost, clock: Clock
) -> None:
    await running(host, BEN)
    refused = await host.status(CID, repost=True)  # a spectator
    assert refused.ok and not refused.public and "players and moderators" in refused.reply
    assert refused.reply_image is not None  # the board, for them
    out = await host.status(BEN, repost=True)
    [post] = out.public
    assert post.image is not None and post.board_key and post.mentions == [] and post.buttons
    assert "▶" in post.text  # it says whose turn it is, without calling them
    clock.advance(REPOST_SECONDS - 20)
    again = await host.status(ANA, repost=True)
    assert not again.public and "can be posted again in 20 s" in again.reply
    clock.advance(20)
    assert len((await host.status(ANA, repost=True)).public) == 1
    # the next move edits the reposted board: one board per turn stays true
    latest = (await host.status(ANA)).reply_board
    move = await host.play(ANA, "mark")
    assert latest is not None and move.ok
    boards = [p for p in move.public if p.board_key and not p.edit_only]
    assert boards[-1].board_key == host.index.tables[host.table_for(CHANNEL).table_id].turn_key  # noqa: SLF001


# -- kicks ------------------------------------------------------------------------------------------------------
async def test_a_kick_holds_until_a_moderator_lifts_it_and_survives_a_restart(make_host: HostFactory) -> None:
    host = await make_host()
    await running(host, BEN, CID)
    out = await host.kick(ANA, BEN.user_id, "Ben")
    assert out.ok and "Ben was removed by Ana" in "\n".join(p.text for p in out.public)
    refused = await host.join(BEN)
    assert not refused.ok and "removed from this table" in refused.reply and seat_of(host, BEN) is None
    assert not (await host.join(BEN, seat=1)).ok
    assert not (await host.kick(ANA, BEN.user_id, "Ben")).ok  # already kicked
    await host.close()
    host = await make_host()  # a restart: the kick is stored
    assert not (await host.join(BEN)).ok and seat_of(host, BEN) is None
    assert not (await host.unkick(BEN, BEN.user_id, "Ben")).ok  # a player cannot lift it
    lifted = await host.unkick(ANA, BEN.user_id, "Ben")
    assert lifted.ok and "Ana let Ben sit at this table again" in lifted.public[0].text
    assert (await host.join(BEN)).ok and seat_of(host, BEN) == 1  # his own seat back
    assert not (await host.unkick(ANA, BEN.user_id, "Ben")).ok  # nothing left to lift


async def test_a_member_who_left_before_the_kick_is_kept_out_too(host: TableHost) -> None:
    await running(host, BEN)
    assert (await host.leave(BEN)).ok
    out = await host.kick(ANA, BEN.user_id, "Ben")
    assert out.ok and "holds no seat" in out.reply and not out.public
    assert not (await host.join(BEN)).ok


async def test_a_lobby_kick_holds_and_finds_the_seat_by_its_number(host: TableHost) -> None:
    await host.open(ANA, "toy", {})
    assert (await host.join(BEN, seat=3)).ok  # seats 1 and 4: the lobby's seat list has a gap
    out = await host.kick(ANA, BEN.user_id, "Ben")
    assert out.ok and seat_of(host, BEN) is None
    refused = await host.join(BEN)
    assert not refused.ok and "removed" in refused.reply


async def test_a_hosts_own_kick_is_theirs_to_lift_a_moderators_is_not(host: TableHost) -> None:
    assert (await host.config(ADMIN, anyone_can_open=True)).ok
    assert (await host.open(NON_MOD_HOST, "toy", {})).ok
    for c in (BEN, CID):
        assert (await host.join(c)).ok
    assert not (await host.kick(BEN, CID.user_id, "Cid")).ok  # a player may not kick
    assert (await host.kick(NON_MOD_HOST, BEN.user_id, "Ben")).ok
    assert (await host.unkick(NON_MOD_HOST, BEN.user_id, "Ben")).ok
    assert (await host.kick(ANA, CID.user_id, "Cid")).ok  # a moderator's kick
    refused = await host.unkick(NON_MOD_HOST, CID.user_id, "Cid")
    assert not refused.ok and "only a moderator" in refused.reply
    assert not (await host.join(CID)).ok


async def test_kick_refuses_ids_that_name_nobody_and_the_caller_themselves(host: TableHost) -> None:
    await running(host, BEN)
    for uid in (-1, 0, 2**63, 10**30):
        out = await host.kick(ANA, uid)
        assert not out.ok and "not a member" in out.reply
    assert not (await host.kick(ANA, ANA.user_id)).ok and seat_of(host, ANA) == 0
    assert host.internal_errors == 0


# -- no seat-hopping ----------------------------------------------------------------------------------------
async def test_a_player_who_held_a_seat_never_gets_another_seats_view(make_host: HostFactory) -> None:
    """The issue's scenario: Ben (seat 2) leaves, Cid (seat 3) leaves and asks for Ben's seat; then for his own."""
    host = await make_host()
    await running(host, BEN, CID)
    assert (await host.leave(BEN)).ok and (await host.leave(CID)).ok
    refused = await host.join(CID, seat=1)
    assert not refused.ok and "only seat you may take" in refused.reply and not refused.private
    assert await host.seats_open_to(CID) == [2]  # /table join suggests only his own
    back = await host.join(CID)  # no seat named: his own
    assert back.ok and seat_of(host, CID) == 2 and dm_users(back) <= {CID.user_id}
    # someone who never sat here may take Ben's; Ben, replaced, may then take no seat at all, even after a restart
    assert await host.seats_open_to(DAN) == [1]
    assert (await host.join(DAN, seat=1)).ok and seat_of(host, DAN) == 1
    assert (await host.leave(CID)).ok  # a seat Ben could ask for
    refused = await host.join(BEN)
    assert not refused.ok and "someone else plays it now" in refused.reply
    await host.close()
    host = await make_host()
    assert await host.seats_open_to(BEN) == [] and not (await host.join(BEN, seat=2)).ok
    assert seat_of(host, BEN) is None and (await host.join(CID)).ok  # Cid's own seat, as ever


async def test_in_the_lobby_seats_may_still_change(host: TableHost) -> None:
    await lobby(host, BEN)
    assert (await host.leave(BEN)).ok
    assert (await host.join(BEN, seat=3)).ok  # nothing is dealt before the start


# -- hosting without playing -------------------------------------------------------------------------------
async def test_a_moderator_hosts_a_table_without_a_seat(make_host: HostFactory) -> None:
    host = await make_host()
    out = await host.open(ANA, "toy", {}, seat=False)
    assert out.ok and "without a seat" in out.reply
    assert "Host: Ana (not playing)" in out.public[0].text and "Seats (0 of 2–4)" in out.public[0].text
    assert (await host.join(BEN)).ok and seat_of(host, BEN) == 0
    assert (await host.leave(BEN)).ok  # the last player leaves: the lobby stays, Ana still hosts it
    summary = host.table_for(CHANNEL)
    assert summary is not None and summary.status == "lobby" and summary.host_id == ANA.user_id
    for c in (BEN, CID):
        assert (await host.join(c)).ok
    assert not (await host.start_table(BEN)).ok  # the host's rights stayed with the moderator
    await host.close()
    host = await make_host()
    assert "Host: Ana (not playing)" in (await host.status(BEN)).reply  # the host's name is stored
    assert (await host.start_table(ANA)).ok
    assert seat_of(host, ANA) is None and host.table_for(CHANNEL).host_id == ANA.user_id
    assert not (await host.hand_host(BEN, CID.user_id, "Cid")).ok  # a player cannot take or give it
    out = await host.hand_host(ANA, BEN.user_id, "Ben")
    assert out.ok and "Ana handed the table to Ben" in out.public[-1].text and out.public[-1].mentions == [BEN.user_id]
    assert "Host: Ben." in out.public[0].text and host.table_for(CHANNEL).host_id == BEN.user_id
    assert not (await host.hand_host(BEN, DAN.user_id, "Dan")).ok  # a player hands it only to a player seated


async def test_only_a_moderator_may_open_without_a_seat(host: TableHost) -> None:
    assert (await host.config(ADMIN, anyone_can_open=True)).ok
    out = await host.open(BEN, "toy", {}, seat=False)
    assert not out.ok and "Only moderators" in out.reply and host.table_for(CHANNEL) is None


async def test_a_seated_moderator_host_who_leaves_keeps_hosting(host: TableHost) -> None:
    await running(host, BEN, CID)
    out = await host.leave(ANA)
    assert out.ok and "You still host it" in out.reply
    assert host.table_for(CHANNEL).host_id == ANA.user_id
    assert "Host: Ana (not playing)" in "\n".join(p.text for p in out.public)  # the lobby post, edited
    assert not (await host.end(BEN)).ok  # no player got the host's rights


async def test_a_player_host_who_leaves_hands_on_and_a_kicked_host_goes_to_the_moderator(host: TableHost) -> None:
    assert (await host.config(ADMIN, anyone_can_open=True)).ok
    assert (await host.open(NON_MOD_HOST, "toy", {})).ok
    for c in (BEN, CID):
        assert (await host.join(c)).ok
    out = await host.leave(NON_MOD_HOST)
    assert "Ben is now the table's host" in "\n".join(p.text for p in out.public)
    out = await host.kick(ANA, BEN.user_id, "Ben")  # a moderator removes the host: the moderator hosts now
    assert "Ana now hosts the table" in "\n".join(p.text for p in out.public)
    assert host.table_for(CHANNEL).host_id == ANA.user_id


# -- names as written ---------------------------------------------------------------------------------------
async def test_display_names_are_shown_as_written_never_as_markdown_or_mentions(host: TableHost) -> None:
    odd = Caller(GUILD, CHANNEL, 105, "@everyone <@&77> **B** ||x||")
    shown = "@\u200beveryone \\<@\u200b&77> \\*\\*B\\*\\* \\|\\|x\\|\\|"
    await lobby(host)
    out = await host.join(odd)
    assert shown in out.public[0].text and "**B**" not in out.public[0].text
    texts = [p.text for p in (await host.start_table(ANA)).public]
    for caller in (odd, ANA):
        texts += [p.text for p in (await host.play(caller, "ready")).public]
    texts += [p.text for p in (await host.leave(odd)).public]
    joined = "\n".join(texts)
    assert shown in joined  # the lobby post, the boards and the narration
    for raw in ("**B**", "||x||", "<@&77>", "@everyone"):
        assert raw not in joined, raw
