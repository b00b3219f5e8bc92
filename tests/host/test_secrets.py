"""Secrets never reach public output: posts, pictures, history of a running game, logs; closed DMs."""

from __future__ import annotations

import json
import logging
import random

import pytest

import renderers
from bot.host.tables import Caller, Outputs, TableHost
from rules import registry
from tests.host.conftest import ANA, BEN, CHANNEL, CID, HostFactory, RecordingRenderer, running, state_of


def leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s and s in text]


async def _play_checked(host: TableHost, game_id: str, humans: list[Caller], rnd: random.Random, limit: int) -> int:
    """Random legal moves by the humans until the end; after each, public output and history hold no secret."""
    game = registry.get(game_id)
    moves = 0
    for _ in range(limit):
        summary = host.table_for(CHANNEL)
        if summary.status != "running":
            return moves
        secrets_before = game.secrets(state_of(host))
        for c in humans:
            choices = await host.choices(c)
            if choices:
                out = await host.play(c, rnd.choice(choices).action, summary.state_no)
                assert out.ok, out.reply
                moves += 1
                break
        else:
            raise AssertionError("nobody can move")
        now = host.table_for(CHANNEL)
        # a secret stays secret if it was hidden before and after this move (a played card becomes public)
        hidden = game.secrets(state_of(host)) if now.status == "running" else []
        hidden = [s for s in hidden if s in secrets_before]
        public = "\n".join(p.text for p in out.public)
        assert not leaks(public, hidden), public
        if now.status == "running":
            told = await host.history(humans[0])
            history = told.reply + (told.reply_file[1] if told.reply_file else "")  # the attached record too
            assert not leaks(history, hidden)
        # each DM goes to its owner and holds only that seat's secrets
        for user, post in out.private:
            seat = next(s.seat for s in now.seats if s.user_id == user)
            assert not leaks(post.text, [s for s in hidden if s not in json.dumps(game.view(state_of(host), seat))])
    raise AssertionError("game did not end")


async def test_no_secret_in_any_public_output_of_a_toy_game(
    make_host: HostFactory, caplog: pytest.LogCaptureFixture
) -> None:
    renderer = RecordingRenderer()
    host = await make_host(renderer=renderer)
    with caplog.at_level(logging.DEBUG):
        await running(host, BEN, ais=1, options={"length": "long"})
        state = state_of(host)
        seed = state["seed"]
        await _play_checked(host, "toy", [ANA, BEN], random.Random(1), 400)
    logs = "\n".join(r.getMessage() for r in caplog.records)
    assert seed not in logs and "gem" not in logs
    for _, view, seat in renderer.calls:
        if seat is None:
            assert "hand" not in view and seed not in json.dumps(view)


async def test_history_of_a_running_game_is_narration_and_the_full_record_after(host: TableHost) -> None:
    await running(host, BEN)
    await host.play(ANA, "draw")
    hist = (await host.history(BEN)).reply
    assert "drew a gem" in hist and "`draw`" not in hist and "seed" not in hist
    seed = state_of(host)["seed"]
    await host.end(ANA)
    full = (await host.history(BEN)).reply
    assert "`draw`" in full and "abandoned" in full
    assert "seed" not in full and seed not in full  # the record, never the seed


async def test_closed_dms_are_announced_without_secrets_and_hand_still_works(host: TableHost) -> None:
    await running(host, BEN)
    out = await host.dm_failed(CHANNEL, BEN.user_id)
    assert out.ok and out.channel_id == CHANNEL
    [notice] = out.public
    assert notice.mentions == [BEN.user_id] and "/hand" in notice.text
    assert not leaks(notice.text, registry.get("toy").secrets(state_of(host)))
    assert (await host.dm_failed(CHANNEL, BEN.user_id)).public == []  # said once
    assert host.table_for(CHANNEL).seats[1].reachable is False
    await host.play(ANA, "end")
    drew = await host.play(BEN, "draw")
    assert drew.ok and BEN.user_id not in dict(drew.private)  # no more DMs that would fail again
    hand = await host.hand(BEN)
    assert hand.ok and all(g in hand.reply for g in state_of(host)["hands"][1])


async def test_a_cartagena_game_through_the_host_keeps_its_secrets(make_host: HostFactory) -> None:
    renderer = RecordingRenderer(cheap=True)
    host = await make_host(renderer=renderer)
    out = await host.open(ANA, "cartagena", {"mode": "jamaica"})
    assert out.ok, out.reply
    await host.join(BEN)
    await host.ai_add(ANA, "easy")
    start = await host.start_table(ANA)
    assert start.ok and start.public[-1].image
    moves = await _play_checked(host, "cartagena", [ANA, BEN], random.Random(3), 2000)
    assert moves > 10
    summary = host.table_for(CHANNEL)
    assert summary.status == "finished"
    assert "Cartagena: 1 played" in (await host.stats(ANA)).reply
    for _, view, seat in renderer.calls:
        if seat is None:
            assert "cards" not in json.dumps(view["hands"])  # Jamaica hands are secret


async def test_cartagena_pictures_are_drawn_by_its_renderer(make_host: HostFactory) -> None:
    host = await make_host(renderer=None, render_processes=1)  # the real renderers.render, in a worker process
    await host.open(ANA, "cartagena", {})
    await host.join(BEN)
    start = await host.start_table(ANA)
    assert start.public[-1].image[:8] == b"\x89PNG\r\n\x1a\n"
    assert all(post.image[:8] == b"\x89PNG\r\n\x1a\n" for _, post in start.private)
    choice = (await host.choices(ANA))[0]
    out = await host.play(ANA, choice.action)
    assert out.ok and out.public[-1].image[:8] == b"\x89PNG\r\n\x1a\n"


async def test_outputs_of_a_refusal_hold_nothing_public(host: TableHost) -> None:
    await running(host, BEN)
    out: Outputs = await host.play(BEN, "play gem01")
    assert not out.ok and out.public == [] and out.private == []


async def test_zoom_is_drawn_from_the_public_view_for_players_and_spectators(make_host: HostFactory) -> None:
    renderer = RecordingRenderer(cheap=True)
    host = await make_host(renderer=renderer)
    await host.open(ANA, "cartagena", {"mode": "jamaica"})
    await host.join(BEN)
    await host.start_table(ANA)
    game = registry.get("cartagena")
    public = game.view(state_of(host), None)
    for caller in (ANA, BEN, CID):
        renderer.calls.clear()
        out = await host.zoom(caller)
        assert out.ok and out.reply_image and not out.public and not out.private
        assert renderer.calls == [("cartagena", public, None)]  # never a seat's private view


async def test_board_posts_carry_the_caption_and_zoom_shows_the_public_board(make_host: HostFactory) -> None:
    host = await make_host(renderer=None)  # the real renderers
    await host.open(ANA, "cartagena", {"mode": "jamaica"})
    await host.join(BEN)
    start = await host.start_table(ANA)
    board = start.public[-1]
    game = registry.get("cartagena")
    caption = renderers.caption("cartagena", game.view(state_of(host), None))
    assert caption and board.text.endswith("\n\n" + caption)  # one block, after the narration and prompt
    assert not leaks(board.text, game.secrets(state_of(host)))
    player, spectator = await host.zoom(ANA), await host.zoom(CID)
    assert player.reply_image == spectator.reply_image  # the same close-up whoever asks: public only
    assert player.reply_image != board.image
