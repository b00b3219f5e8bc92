"""Playing whole games through the Discord surface, as players on their phones (buttons) or keyboards (/play)."""

from __future__ import annotations

import random

from simcord.results import ResponseMessage

from rules import registry
from tests.discord.conftest import World, answer, reply, selects

MAX_STEPS = 3000


async def ai_pick(w: World, rnd: random.Random) -> str:
    """The action the game's easy AI would take for the human who must act, from that seat's own view of the
    stored snapshot: a human strategy that is sure to end every game (always taking the first legal action
    may shuffle a piece back and forth forever in some games). Checks on the way that no secret of the
    current state appears in any channel post."""
    summary = w.summary()
    row = await w.host.store.tables.get(summary.table_id)
    assert row is not None and row.snapshot is not None
    game = registry.get(summary.game_id)
    state = game.load(row.snapshot)
    actor = w.to_act()[0]
    seat = next(s.seat for s in summary.seats if s.user_id == actor.id and s.seat in summary.to_act)
    # while the game runs, nothing secret may have reached the channel (text of any post so far)
    secrets = [x for x in game.secrets(state) if x]
    for message in w.env.backend.messages.get(w.channel.id, {}).values():  # raw store: cheap to scan
        if not message.visible_to(None):
            continue  # an ephemeral answer to its player
        leaked = [x for x in secrets if x in message.content]
        assert not leaked, f"secret {leaked[0]!r} in a channel post"
    legal = game.legal_actions(state, seat)
    return game.ai_choose(game.view(state, seat), seat, legal, "easy", rnd)


async def play_turn_by_slash(w: World, rnd: random.Random | None = None) -> None:
    """The first human who owes a decision plays, with /play, the first action autocomplete offers (or, with
    ``rnd``, the easy AI's choice, which autocomplete must offer when it is typed)."""
    before = w.summary()
    actor = w.to_act()[0]
    typed = "" if rnd is None else await ai_pick(w, rnd)
    offered = await actor.autocomplete(w.channel, "play", "action", typed)
    assert offered, f"autocomplete offered no legal action for {typed!r}"
    action = offered[0]["value"] if rnd is None else typed
    assert action in [o["value"] for o in offered]
    result = await actor.slash(w.channel, "play", action=action)
    after = w.summary()
    assert after.state_no > before.state_no or after.status != "running", reply(result)


async def play_game_by_slash(w: World, rnd: random.Random | None = None) -> int:
    """Play until the game is over; returns the number of human moves."""
    moves = 0
    while w.summary().status == "running":
        assert moves < MAX_STEPS, "the game did not end"
        await play_turn_by_slash(w, rnd)
        moves += 1
    return moves


async def play_game_by_buttons(w: World) -> int:
    """Play until the game is over using only the board's "Take your turn" button and the picker's menus;
    returns the number of menu picks."""
    picker: ResponseMessage | None = None
    owner = None
    picks = 0
    while w.summary().status == "running":
        assert picks < MAX_STEPS, "the game did not end"
        actor = w.to_act()[0]
        if picker is not None:
            picker = w.refresh(picker)
        if picker is None or owner is not actor or not selects(picker):
            result = await actor.click(w.current_board(), label="Take your turn")
            picker, owner = answer(result), actor
            assert answer(result).ephemeral
        menus = selects(picker)
        assert menus, f"the picker offers nothing: {picker.content}"
        menu = menus[0]
        before = w.summary().state_no
        await actor.select(picker, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
        if not menu["options"][0]["value"].startswith("r"):  # a range only opens the second level
            assert w.summary().state_no > before or w.summary().status != "running"
        picks += 1
    return picks
