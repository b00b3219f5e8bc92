"""Whole games of every game through the table host, every output checked for secrets.

Two people (Ana, Ben) play random legal moves beside AI seats while Cid watches. At every step: the channel
posts, the DMs (only their owner's secrets), the history of the running game, Cid's ``/hand``, ``/status`` and
``/play``, refusals of out-of-turn, illegal and garbage actions, the views the public pictures are drawn from
and every log line (DEBUG, all loggers) say nothing that was secret before and after the step.
"""

from __future__ import annotations

import json
import logging
import os
import random
from typing import Any

import pytest

from bot.host.tables import Outputs, TableHost
from rules import registry
from rules.core import Game, State
from tests.host.conftest import ANA, BEN, CHANNEL, CID, HostFactory, RecordingRenderer, state_of
from tests.secrets.checks import Leak, assert_clean, private_lines, secrets_of, unseen_by

#: whole host games per game in CI (PARLEY_SECRET_HOST_GAMES overrides); the slow AIs get fewer. The default run
#: plays the first of each, the slow tier the others (CONTRIBUTING.md#the-test-tiers)
HOST_GAMES = {"cartagena": 5, "buccaneer": 2, "flagon": 6, "martinique": 10, "treasure_island": 2}
PARTS = [pytest.param("first"), pytest.param("rest", marks=pytest.mark.slow)]


def _host_games(game_id: str, part: str) -> range:
    env = os.environ.get("PARLEY_SECRET_HOST_GAMES")
    total = int(env) if env else HOST_GAMES[game_id]
    return range(min(1, total)) if part == "first" else range(1, total)


def _options(game: Game, rnd: random.Random, players: int) -> dict[str, str]:
    options = {opt.name: rnd.choice(opt.choices) for opt in game.info.options}
    if game.info.id == "buccaneer":
        options["round_limit"] = "50"
    if game.info.id == "treasure_island" and players == 6:
        options["expansion"] = "on"
    return options


class Watch:
    """What may not be said now, worked out from the table's state before and after each step."""

    def __init__(self, game: Game, host: TableHost, players: int) -> None:
        self.game, self.host, self.players = game, host, players
        self.seat_of = {ANA.user_id: 0, BEN.user_id: 1}
        self.before = self.snapshot()

    def snapshot(self) -> dict[str, Any]:
        state = state_of(self.host)
        return {
            "state": state,
            "secrets": secrets_of(self.game, state),
            "lines": private_lines(self.game, state, range(self.players)),
        }

    def hidden(self, now: dict[str, Any]) -> list[str]:
        """Secrets of both moments (one revealed by the step may be named), and private lines of both."""
        earlier = set(self.before["secrets"]) | set(self.before["lines"])
        return [s for s in now["secrets"] + now["lines"] if s in earlier]

    def unseen(self, state: State, seat: int, now: dict[str, Any]) -> list[str]:
        """What ``seat`` may not be told: secrets absent from its view and the other seats' private lines."""
        mine = set(private_lines(self.game, state, [seat]))
        return unseen_by(self.game, state, seat) + [line for line in now["lines"] if line not in mine]


async def _probe(host: TableHost, game: Game, watch: Watch, rnd: random.Random, pool: list[str]) -> int:
    """Spectator commands and refused actions; each answer checked against what its caller may not know."""
    now = watch.before
    state = now["state"]
    everything = now["secrets"] + now["lines"]
    checks = 0
    for out in (await host.hand(CID), await host.status(CID), await host.play(CID, rnd.choice(pool or ["pass"]))):
        assert_clean("spectator reply", out.reply, everything)
        assert_clean("spectator posts", "\n".join(p.text for p in out.public), everything)
        checks += 2
    for caller in (ANA, BEN):
        seat = watch.seat_of[caller.user_id]
        unseen = watch.unseen(state, seat, now)
        tries = [rnd.choice(pool)] if pool else []
        tries += ["definitely not a move \u2603", "seed", "x" * 500]
        for text in tries:
            legal = [c.action for c in await host.choices(caller)]
            if text in legal:
                continue
            out = await host.play(caller, text)
            assert not out.ok and not out.public and not out.private, f"{text!r} was not refused"
            said = out.reply.replace(text, "…")  # echoing the typed text is no leak
            assert_clean(f"refusal to seat {seat}", said, unseen)
            checks += 1
    return checks


async def _play_one(make_host: HostFactory, game_id: str, i: int, caplog: pytest.LogCaptureFixture) -> tuple[int, int]:
    game = registry.get(game_id)
    rnd = random.Random(f"host:{game_id}:{i}")
    lo, hi = game.info.min_players, min(game.info.max_players, 5)
    players = max(2, lo + i % (hi - lo + 1))
    renderer = RecordingRenderer(cheap=True)
    host = await make_host(renderer=renderer, ai_seed=f"host-ai-{game_id}-{i}")
    # half the tables get the host's own hex seed (secrets() also lists its decimal form), half a distinctive one
    seed = None if i % 2 else f"Zq9-host-{game_id}-{i}"
    out = await host.open(ANA, game_id, _options(game, rnd, players), seed=seed)
    assert out.ok, out.reply
    assert (await host.join(BEN)).ok
    for _ in range(players - 2):
        assert (await host.ai_add(ANA, "easy")).ok
    watch: Watch | None = None
    caplog.clear()
    start = await host.start_table(ANA)
    assert start.ok, start.reply
    watch = Watch(game, host, players)
    _check_outputs(watch, start, watch.before, renderer, caplog)
    pool: list[str] = []
    steps = checks = 0
    while host.table_for(CHANNEL).status == "running":
        steps += 1
        assert steps < 3000, "no end"
        if steps % 4 == 1:
            checks += await _probe(host, game, watch, rnd, pool)
        mover = None
        for caller in (ANA, BEN):
            choices = await host.choices(caller)
            if choices:
                mover = caller
                break
        assert mover is not None, "nobody can move"
        pool = (pool + [c.action for c in choices])[-200:]
        action = rnd.choice(choices).action
        out = await host.play(mover, action, host.table_for(CHANNEL).state_no)
        assert out.ok, out.reply
        running = host.table_for(CHANNEL).status == "running"
        now = watch.snapshot() if running else {"state": None, "secrets": [], "lines": []}
        checks += _check_outputs(watch, out, now, renderer, caplog)
        if running:
            history = (await host.history(CID)).reply
            assert_clean("history of a running game", history, watch.hidden(now))
            checks += 1
            watch.before = now
    await host.close()
    return steps, checks


def _check_outputs(
    watch: Watch, out: Outputs, now: dict[str, Any], renderer: RecordingRenderer, caplog: pytest.LogCaptureFixture
) -> int:
    game = watch.game
    hidden = watch.hidden(now) if now["state"] is not None else []
    public = "\n".join(p.text for p in out.public)
    assert_clean("channel post", public, hidden)
    # a DM line (private to one seat) is for nobody else; the same text in the public view is public anyway
    view_now = json.dumps(game.view(now["state"], None), ensure_ascii=False) if now["state"] is not None else ""
    dm_lines = [ln.strip() for _, p in out.private for ln in p.text.splitlines() if len(ln.strip()) >= 16]
    if now["state"] is not None:
        assert_clean("channel post (a DM's line)", public, [ln for ln in dm_lines if ln not in view_now])
        for user, post in out.private:
            seat = watch.seat_of.get(user)
            assert seat is not None, f"a DM to {user}, who has no human seat"
            assert_clean(f"DM to seat {seat}", post.text, watch.unseen(now["state"], seat, now))
    # the pictures of the channel are drawn from the public view, nothing else
    for _, view, seat in renderer.calls:
        if seat is None:
            assert_clean("view of a public picture", json.dumps(view, ensure_ascii=False), hidden)
    if now["state"] is not None and renderer.calls and out.public:
        last_public = [v for _, v, s in renderer.calls if s is None]
        if last_public and last_public[-1] != game.view(now["state"], None):
            raise Leak("the public picture was drawn from something else than the public view")
    renderer.calls.clear()
    logs = "\n".join(r.getMessage() for r in caplog.records)
    assert_clean("log line", logs, hidden)
    caplog.clear()
    return 4 + len(out.private)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("game_id", registry.game_ids())
async def test_whole_games_through_the_host_keep_every_secret(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture, game_id: str, part: str
) -> None:
    games = _host_games(game_id, part)
    if not games:
        pytest.skip(f"PARLEY_SECRET_HOST_GAMES leaves no {game_id} game past the first")
    caplog.set_level(logging.DEBUG)
    total_steps = total_checks = 0
    for i in games:
        steps, checks = await _play_one(make_host, game_id, i, caplog)
        total_steps += steps
        total_checks += checks
    assert total_steps > 0 and total_checks > total_steps


async def test_a_spectator_hand_is_the_public_board_only(make_host: HostFactory) -> None:
    renderer = RecordingRenderer(cheap=True)
    host = await make_host(renderer=renderer)
    assert (await host.open(ANA, "cartagena", {"mode": "jamaica"})).ok
    assert (await host.join(BEN)).ok
    assert (await host.start_table(ANA)).ok
    renderer.calls.clear()
    out = await host.hand(CID)
    assert out.ok and out.reply_image
    [(_, view, seat)] = renderer.calls
    game = registry.get("cartagena")
    assert seat is None and view == game.view(state_of(host), None)
    assert "cards" not in json.dumps(view["hands"])
