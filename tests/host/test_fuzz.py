"""Hostile input, for every registered game: the table host's ``play`` (and ``choices``, ``hand``, ``undo``) fed
junk, mutated actions, out-of-turn actions, stale state numbers and odd Unicode never crashes, never changes the
table unless the text really is a legal action of the caller, and always answers with a clear, bounded, polite
message that quotes nothing harmful back. The engines' ``parse``/``apply`` raise nothing but ``IllegalAction``."""

from __future__ import annotations

import random
import re
import string
from typing import Any

import pytest

from bot.host.outputs import MAX_TEXT
from bot.host.tables import Caller, Outputs, TableHost
from rules import registry
from rules.core import Game, IllegalAction, canonical_json
from tests.host.conftest import CHANNEL, GUILD, HostFactory, RecordingRenderer, state_of
from tests.tiers import quick_subset

GAMES = registry.game_ids()
SPECTATOR = Caller(GUILD, CHANNEL, 999, "Watcher")
#: random moves played before each round of fuzzing (cumulative positions of one table)
POSITIONS = (0, 9, 30)
INPUTS_PER_POSITION = 260
DISCORD_LIMIT = 2000
LIVE_MENTION = re.compile(r"@everyone|@here|<@[!&]?\d+>|<#\d+>")

ODD = [
    "",
    " ",
    "\t\n  \r\n",
    "\x00",
    "end\x00",
    "\u202eend",  # right-to-left override
    "e\u200dn\u200dd",  # zero-width joiners
    "\u200b",
    "e\u0301nd",  # a combining accent
    "🏴‍☠️⚓🦜",
    "\udcff\udc80",  # surrogate-escaped bytes
    "\ud800",  # an unpaired surrogate
    "line one\nline two",
    "**bold** _it_ `code` ```block``` ||spoiler|| > quote",
    "@everyone",
    "@here look",
    "<@123456789012345678>",
    "<@!42> <@&77> <#99>",
    "@everyone @everyone @everyone " * 40,
    "x" * 100_000,
    "🎲" * 30_000,
    "\u0301" * 5000,
    "-1",
    "0",
    "99999999999999999999999999999999",
    "1e309",
    "nan",
    "1.5",
    "-0",
    "None",
    "null",
    "{}",
    "[]",
    '{"action": "end"}',
    "'; DROP TABLE tables; --",
    "%s %d {0} {}",
    "\\",
    "../../etc/passwd",
]


def _callers(n: int) -> list[Caller]:
    return [Caller(GUILD, CHANNEL, 100 + i, f"Pirate{i}", moderator=(i == 0)) for i in range(n)]


def _seats(game: Game) -> int:
    return max(game.info.min_players, min(3, game.info.max_players))


def _other_games_actions() -> list[str]:
    found: list[str] = []
    for gid in GAMES:
        g = registry.get(gid)
        st = g.new(g.info.min_players, None, "fuzz-other")
        found += g.legal_actions(st, g.to_act(st)[0])[:6]
    return found


OTHER_ACTIONS = _other_games_actions()


def _junk(rnd: random.Random) -> str:
    kind = rnd.randrange(4)
    size = rnd.choice((1, 3, 8, 40, 300))
    if kind == 0:
        return "".join(rnd.choice(string.printable) for _ in range(size))
    if kind == 1:  # binary bytes, as a transport that decoded them leniently would hand them over
        return bytes(rnd.getrandbits(8) for _ in range(size)).decode("utf-8", "surrogateescape")
    if kind == 2:
        return "".join(chr(rnd.randrange(0x20, 0x3000)) for _ in range(size))
    return " ".join(rnd.choice(("forward", "back", "end", "pass", "1", "-", "x", "🙂")) for _ in range(size % 9 + 1))


def _mutate(action: str, rnd: random.Random) -> str:
    kind = rnd.randrange(12)
    if kind == 0:
        return action[: rnd.randrange(len(action) + 1)]
    if kind == 1:
        return action + rnd.choice((" x", "1", " 0", " " + action, "!", " @everyone", " <@1>"))
    if kind == 2:
        return action.swapcase()
    if kind == 3:
        return "   " + action.replace(" ", "  \t ") + " \n"
    if kind in (4, 5):
        number = rnd.choice(("-1", "0", "-7", "999", str(2**63), "10" * 40, "1.5", "-0.0", "1e9", "Ⅻ", "٣"))
        if re.search(r"\d+", action):
            return re.sub(r"\d+", number, action, count=1)
        return f"{action} {number}"
    if kind == 6:
        return rnd.choice(OTHER_ACTIONS)
    if kind == 7:
        words = action.split()
        rnd.shuffle(words)
        return " ".join(words)
    if kind == 8:
        return action.replace(" ", "")
    if kind == 9:
        i = rnd.randrange(len(action) + 1)
        return action[:i] + rnd.choice(("\u200b", "\u202e", "\x00", "\u0301", "🦜", "\n")) + action[i:]
    if kind == 10:
        return action + " " + "y" * rnd.choice((100, 5000, 100_000))
    return action.upper()


def _oracle(game: Game, state: dict[str, Any], seat: int | None, text: str) -> str | None:
    """The canonical action the host must apply for this caller and text, or None if it must refuse."""
    if seat is None:
        return None
    try:
        action = game.parse(text)
    except IllegalAction:
        return None
    return action if action in _legal(game, state, seat) else None


def _legal(game: Game, state: dict[str, Any], seat: int) -> list[str]:
    try:
        return game.legal_actions(state, seat)
    except IllegalAction:
        return []


def _check_reply(out: Outputs, text: str, game: Game, state: dict[str, Any], seat: int | None) -> None:
    reply = out.reply
    assert isinstance(out, Outputs)
    assert reply.strip(), f"empty refusal for {text[:40]!r}"
    assert len(reply) <= DISCORD_LIMIT, f"a {len(reply)}-character refusal for {text[:40]!r}"
    reply.encode("utf-8")  # sendable: no unpaired surrogate
    assert "\x00" not in reply
    assert not LIVE_MENTION.search(reply), f"a live mention in {reply!r}"
    assert "Something went wrong" not in reply, f"an internal error for {text[:60]!r}"
    if len(text) > 400:
        assert len(reply) < 1200, "a long input was echoed back"
    # the refusal names what is allowed: the caller's own legal actions, whose turn it is, or the fresh board
    to_act = game.to_act(state)
    legal = _legal(game, state, seat) if seat is not None and seat in to_act else []
    helpful = "out of date" in reply or "turn" in reply or "no seat" in reply or any(f"`{a}`" in reply for a in legal)
    assert helpful, f"unhelpful refusal for {text[:40]!r}: {reply!r}"


async def _only_others_moved(host: TableHost, table_id: int, seat: int | None, state_no: int | None) -> bool:
    """An older board still counts for a seat that owes a decision and has not moved since (a simultaneous
    phase): read from the stored log, independently of the host's memory."""
    summary = host.table_for(CHANNEL)
    if seat is None or state_no is None or summary is None or not 0 <= state_no < summary.state_no:
        return False
    if seat not in summary.to_act:
        return False
    return not [e for e in await host.store.tables.log(table_id) if e.n > state_no and e.seat == seat]


async def _snapshot(host: TableHost, table_id: int) -> tuple[str, int, int]:
    row = await host.store.tables.get(table_id)
    assert row is not None and row.snapshot is not None
    return canonical_json(row.snapshot), row.state_no, len(await host.store.tables.log(table_id))


async def _advance(host: TableHost, callers: list[Caller], rnd: random.Random, moves: int) -> None:
    for _ in range(moves):
        summary = host.table_for(CHANNEL)
        assert summary is not None
        if summary.status != "running":
            return
        caller = callers[summary.to_act[0]]
        choices = await host.choices(caller)
        assert choices, "the seat to act has no choices"
        out = await host.play(caller, rnd.choice(choices).action)
        assert out.ok, out.reply


async def _fuzz_position(host: TableHost, game: Game, callers: list[Caller], rnd: random.Random) -> int:
    """One round of hostile calls; returns how many of them were (legitimately) applied."""
    summary = host.table_for(CHANNEL)
    assert summary is not None
    table_id = summary.table_id
    applied = 0
    for i in range(INPUTS_PER_POSITION):
        summary = host.table_for(CHANNEL)
        assert summary is not None
        if summary.status != "running":
            break
        state = state_of(host)
        to_act = list(summary.to_act)
        acting = to_act[0]
        idle = [s for s in range(len(callers)) if s not in to_act]
        # who calls: mostly the seat that owes a move, else an idle seat or a spectator
        roll = rnd.random()
        if roll < 0.6:
            seat: int | None = acting
        elif roll < 0.85 and idle:
            seat = rnd.choice(idle)
        elif roll < 0.85:
            seat = rnd.choice(to_act)
        else:
            seat = None
        caller = SPECTATOR if seat is None else callers[seat]
        legal_now = _legal(game, state, acting)
        # what they send
        if i < len(ODD):
            text = ODD[i]
        else:
            pick = rnd.random()
            if pick < 0.25:
                text = _junk(rnd)
            elif pick < 0.75 and legal_now:
                text = _mutate(rnd.choice(legal_now), rnd)
            elif legal_now:
                text = rnd.choice(legal_now)  # legal for the acting seat: out of turn when sent by someone else
            else:
                text = _junk(rnd)
        state_no: int | None = None
        if rnd.random() < 0.25:
            state_no = rnd.choice(
                (
                    summary.state_no,
                    summary.state_no - 1,
                    summary.state_no + 1,
                    -1,
                    -(2**70),
                    2**63,
                    10**5000,
                )
            )
        fresh = state_no in (None, summary.state_no) or await _only_others_moved(host, table_id, seat, state_no)
        expected = _oracle(game, state, seat, text) if fresh else None
        before = await _snapshot(host, table_id)
        memory = canonical_json(state)
        out = await host.play(caller, text, state_no)
        assert isinstance(out, Outputs)
        assert host.internal_errors == 0, f"internal error on {text[:60]!r} (state_no {state_no})"
        if expected is None:
            assert not out.ok, f"{caller.name} (seat {seat}) had {text[:60]!r} accepted"
            _check_reply(out, text, game, state, seat)
            assert await _snapshot(host, table_id) == before, f"{text[:60]!r} changed the stored table"
            assert canonical_json(state_of(host)) == memory, f"{text[:60]!r} changed the table in memory"
            assert host.table_for(CHANNEL).state_no == summary.state_no  # type: ignore[union-attr]
        else:
            # a mutation that happens to be a legal action (extra spaces, upper case) is played: fine
            assert out.ok, f"the legal {expected!r} (typed {text[:60]!r}) was refused: {out.reply}"
            after = await _snapshot(host, table_id)
            assert after[1] > before[1] and after[2] > before[2]
            assert not LIVE_MENTION.search(out.reply) and len(out.reply) <= DISCORD_LIMIT
            applied += 1
    return applied


async def _fuzz_others(host: TableHost, game: Game, callers: list[Caller]) -> None:
    """Choices, hand and undo from callers who owe nothing change nothing and leak nothing."""
    summary = host.table_for(CHANNEL)
    assert summary is not None
    if summary.status != "running":
        return
    before = await _snapshot(host, summary.table_id)
    idle = [callers[s] for s in range(len(callers)) if s not in summary.to_act]
    assert await host.choices(SPECTATOR) == []
    for c in idle:
        assert await host.choices(c) == []
    out = await host.undo(SPECTATOR)
    assert not out.ok and "no seat" in out.reply
    for c in idle:
        out = await host.undo(c)
        assert not out.ok and out.reply
    out = await host.hand(SPECTATOR)
    assert out.ok and out.reply_image is not None and "no seat" in out.reply
    for c in idle:
        out = await host.hand(c)
        assert out.ok and len(out.reply) <= MAX_TEXT
    # a forged board button (issue 23): an index with a digest no board offered, or text no board offers
    replies = set()
    for c in (SPECTATOR, *idle, callers[summary.to_act[0]]):
        for pick, digest in REACT_JUNK:
            out = await host.react(c, pick, summary.state_no, digest=digest)
            assert not out.ok and len(out.reply) <= MAX_TEXT and not LIVE_MENTION.search(out.reply)
            replies.add(out.reply)
        out = await host.status(c, repost=c is SPECTATOR)  # the board for the caller, nothing to the channel
        assert out.ok and not out.public and not out.private
    assert len(replies) == 1, replies  # one refusal, whatever the forgery names
    assert await _snapshot(host, summary.table_id) == before
    assert host.internal_errors == 0


# Treasure Island's and Buccaneer's hostile inputs are the slow tier's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(GAMES, ["cartagena", "flagon", "martinique"]))
async def test_the_host_refuses_hostile_input_politely_and_changes_nothing(
    make_host: HostFactory, game_id: str
) -> None:
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get(game_id)
    callers = _callers(_seats(game))
    assert (await host.open(callers[0], game_id, {}, seed=f"fuzz-{game_id}")).ok
    for c in callers[1:]:
        assert (await host.join(c)).ok
    assert (await host.start_table(callers[0])).ok
    rnd = random.Random(f"fuzz:{game_id}")
    played = 0
    applied = 0
    for moves in POSITIONS:
        await _advance(host, callers, rnd, moves - played)
        played = moves
        await _fuzz_others(host, game, callers)
        applied += await _fuzz_position(host, game, callers, rnd)
    assert host.internal_errors == 0
    print(f"{game_id}: {len(POSITIONS) * INPUTS_PER_POSITION} hostile calls, {applied} happened to be legal")


def _engine_texts(game: Game, state: dict[str, Any], seat: int, rnd: random.Random) -> list[str]:
    legal = _legal(game, state, seat)
    texts = list(ODD)
    texts += [_junk(rnd) for _ in range(60)]
    if legal:
        texts += [_mutate(rnd.choice(legal), rnd) for _ in range(150)]
    return texts + OTHER_ACTIONS


@pytest.mark.parametrize("game_id", GAMES)
def test_engines_raise_only_illegal_action_on_hostile_text(game_id: str) -> None:
    game = registry.get(game_id)
    rnd = random.Random(f"engine-fuzz:{game_id}")
    players = _seats(game)
    state = game.new(players, None, f"engine-fuzz-{game_id}")
    for step in range(40):
        to_act = game.to_act(state)
        if not to_act:
            break
        if step % 8 == 0:
            frozen = canonical_json(state)
            # the other seats also try the acting seat's moves: out of turn unless they are legal for them too
            theirs = _legal(game, state, to_act[0])[:20]
            for seat in range(players):
                legal = set(_legal(game, state, seat))
                texts = _engine_texts(game, state, seat, rnd) if seat == to_act[0] else ODD + OTHER_ACTIONS + theirs
                for text in texts:
                    try:
                        action = game.parse(text)
                    except IllegalAction as exc:
                        assert exc.message, f"an empty message for {text[:40]!r}"
                        action = None
                    # the raw text straight into apply, as a careless caller might
                    for candidate in (text, action):
                        if candidate is None:
                            continue
                        try:
                            game.apply(state, seat, candidate)
                        except IllegalAction:
                            continue
                        # an engine may parse inside apply; what it accepts must then be a legal action's text
                        assert candidate in legal or action in legal, f"apply accepted {candidate[:60]!r} of {seat}"
                    assert canonical_json(state) == frozen, "parse or apply mutated the state"
        seat = to_act[0]
        state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))


#: forged board buttons: indexes with digests no offer has, and action texts (a button posted before indexes)
REACT_JUNK: list[tuple[int | str, str]] = [
    (0, ""),
    (0, "zzzzzzzz"),
    (1, "00000000"),
    (-1, "deadbeef"),
    (10**30, "deadbeef"),
    *((text, "") for text in ODD[:20]),
    *((text, "") for text in OTHER_ACTIONS[:10]),
]
LOBBY_JUNK = ["@everyone", "<@1234567890>", "x" * 100_000, "\udcff\x00\u202e", "", " ", "🏴‍☠️", "-1", "../toy"]
SEAT_JUNK = [-1, -(2**63), 2**63, 10**30, 99, 5]


async def test_lobby_commands_refuse_hostile_arguments_politely(make_host: HostFactory) -> None:
    """Game ids, option values (autocomplete lets anything through), seat numbers, AI levels, user ids and
    settings as a crafted interaction could send them: refused, bounded, defanged, never an internal error."""
    host = await make_host(renderer=RecordingRenderer(cheap=True))
    opener, *others = _callers(3)
    admin = Caller(GUILD, CHANNEL, 900, "Boss", moderator=True, admin=True)
    outs: list[Outputs] = []
    for junk in LOBBY_JUNK:
        outs.append(await host.open(opener, junk, {}))
        outs.append(await host.leaderboard(opener, junk))
        outs.append(await host.rules(junk or "nope"))
        for gid in GAMES:
            info = registry.get(gid).info
            for option in info.options:
                outs.append(await host.open(opener, gid, {option.name: junk}))
            outs.append(await host.open(opener, gid, {junk: "x"}))
    assert host.table_for(CHANNEL) is None, "a hostile open opened a table"
    assert (await host.open(opener, "cartagena", {})).ok
    for seat in SEAT_JUNK:
        outs.append(await host.join(others[0], seat))
    for junk in LOBBY_JUNK:
        outs.append(await host.ai_add(opener, junk))
    # typed options (Discord checks the type; integers stay within ±2**53)
    settings: list[Outputs] = []  # these name the configured host role as a role mention on purpose
    for number in (-1, 0, 2**53):
        settings.append(await host.config(admin, turn_limit_seconds=number))
        settings.append(await host.config(admin, host_role_id=number))
        outs.append(await host.stats(opener, number))
    assert all(o.reply.strip() and len(o.reply) <= DISCORD_LIMIT for o in settings)
    for uid in (-1, 0, 2**63, 10**30):
        outs.append(await host.kick(opener, uid))
        outs.append(await host.unkick(opener, uid))
        outs.append(await host.hand_host(opener, uid))
    for junk in LOBBY_JUNK:
        outs.append(await host.kick(opener, others[1].user_id, junk))  # a member's name, as a crafted call sends it
        outs.append(await host.unkick(opener, others[1].user_id, junk))
    for out in outs:
        assert isinstance(out, Outputs)
        assert out.reply.strip() and len(out.reply) <= DISCORD_LIMIT, out.reply[:80]
        assert not LIVE_MENTION.search(out.reply), out.reply[:200]
        out.reply.encode("utf-8")
    assert host.internal_errors == 0
    seats = host.table_for(CHANNEL).seats  # type: ignore[union-attr]
    assert all(0 <= s.seat < registry.get("cartagena").info.max_players for s in seats)
