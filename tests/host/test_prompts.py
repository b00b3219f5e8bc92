"""Decisions owed by any seat reach exactly that seat's player: a Buccaneer ship asked to let a passer by, a
Martinique opponent choosing a map tile to reveal, every Flagon crew planning at once, Yellow Fever's several
seats. Checked generically: in every game played by humans only, after every move the board post pings exactly
the players who owe a decision, with the buttons to act."""

from __future__ import annotations

import random

import pytest

from bot.host.tables import Caller, TableHost
from rules import registry
from tests.host.conftest import GUILD, HostFactory, RecordingRenderer, state_of

GAMES = registry.game_ids()


@pytest.mark.parametrize("game_id", GAMES)
async def test_every_decision_prompts_exactly_the_players_who_owe_it(make_host: HostFactory, game_id: str) -> None:
    host: TableHost = await make_host(renderer=RecordingRenderer(cheap=True))
    game = registry.get(game_id)
    n = min(game.info.max_players, 4)
    people = [Caller(GUILD, 10, 500 + i, f"P{i}", moderator=i == 0) for i in range(n)]
    assert (await host.open(people[0], game_id, {})).ok
    for person in people[1:]:
        assert (await host.join(person)).ok
    assert (await host.start_table(people[0])).ok
    user_of = {s.seat: s.user_id for s in host.table_for(10).seats}
    rnd = random.Random(game_id)
    simultaneous = 0
    for _ in range(400):
        state = state_of(host)
        to_act = game.to_act(state)
        if not to_act:
            break
        simultaneous += len(to_act) > 1
        seat = to_act[0]
        view = game.view(state, seat)
        action = game.ai_choose(view, seat, game.legal_actions(state, seat), "easy", rnd)
        summary = host.table_for(10)
        caller = next(p for p in people if p.user_id == user_of[seat])
        out = await host.play(caller, action, summary.state_no)
        assert out.ok, out.reply
        after = state_of(host)
        boards = [p for p in out.public if p.board_key is not None and not p.edit_only]
        assert boards, "every move redraws the board"
        owing = sorted(user_of[s] for s in game.to_act(after))
        if owing:
            assert sorted(boards[-1].mentions) == owing and boards[-1].buttons
            assert boards[-1].state_no == host.table_for(10).state_no
    if game_id == "flagon":
        assert simultaneous, "planning is owed by several seats at once"


async def test_the_pickers_heading_names_the_next_step_of_a_plan_only_its_owner_knows(make_host: HostFactory) -> None:
    """Issue 28: the board post's prompt is read from the public view, so a Buccaneer move being planned is named by
    all its steps; the mover's picker heading (``owed_for``) reads the mover's own view and names the step owed."""
    host: TableHost = await make_host(renderer=RecordingRenderer(cheap=True))
    ana, bo = Caller(GUILD, 10, 700, "Ana", moderator=True), Caller(GUILD, 10, 701, "Bo")
    assert (await host.open(ana, "buccaneer", {"ports": "random"})).ok
    assert (await host.join(bo)).ok
    assert (await host.start_table(ana)).ok
    mover = ana if await host.choices(ana) else bo
    sail = next(c.action for c in await host.choices(mover) if c.action.startswith("sail "))
    out = await host.play(mover, sail)
    assert out.ok, out.reply
    heading = host.owed_for(mover)
    way = sail.split()[1].upper()
    assert heading == f"finish planning your move: choose how far to sail {way}, then a facing and confirm"
    board = "\n".join(p.text for p in out.public)
    assert "finish planning your move: direction, distance, facing, then confirm" in board
    assert "how far" not in board
