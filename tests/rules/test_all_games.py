"""The contract, checked the same way for every registered game (OpenSpiel's generic simulation test).

Each game's own tests cover its rules; these make sure every game keeps the shape the host, the pickers,
the AIs and the leak checks rely on. They are the gate for a new game (docs/adding-a-game.md), and they also
run over the tests' toy game, the guide's worked example, so the guide's steps stay enough to pass them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from renderers import render
from rules import refusals, registry
from rules.core import Game, IllegalAction, canonical_json
from rules.playout import ai_chooser
from tests.host import toygame
from tests.tiers import quick_subset

ROOT = Path(__file__).resolve().parents[2]
SEED = "Zq9-secret-seed-7741"  # distinctive, so a leak of the seed into a view is easy to spot
#: every registered game, and the toy game that docs/adding-a-game.md follows
GAMES = [*registry.game_ids(), "toy"]


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy game as a real game is registered (its line in ``registry._MODULES``) for these tests only,
    so it never appears in /table open. Its renderer lives in its own module rather than in renderers/, so that
    module stands in for ``renderers.toy``."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.host.toygame")
    monkeypatch.setitem(sys.modules, "renderers.toy", toygame.renderer)


def _configs(game: Game) -> list[tuple[int, dict[str, str]]]:
    """Smallest and largest table with default options, then each non-default option value once."""
    lo, hi = game.info.min_players, game.info.max_players
    configs: list[tuple[int, dict[str, str]]] = [(lo, {}), (hi, {})]
    for opt in game.info.options:
        for value in opt.choices:
            if value != opt.default:
                configs.append((lo, {opt.name: value}))
    return configs


def _check_step(game: Game, state: dict, seat: int, action: str) -> tuple[dict, list]:
    before = canonical_json(state)
    after, events = game.apply(state, seat, action)
    assert canonical_json(state) == before, f"apply mutated its input ({action})"
    dumped = json.loads(json.dumps(game.dump(after)))
    assert canonical_json(game.dump(game.load(dumped))) == canonical_json(game.dump(after)), "JSON round trip"
    public = json.dumps(game.view(after, None), sort_keys=True)
    assert SEED not in public, "the seed is in the public view"
    for secret in game.secrets(after):
        assert secret not in public, f"secret {secret!r} in the public view"
    for event in events:
        for secret in game.secrets(after):
            assert secret not in (event.public or ""), f"secret {secret!r} in a public event"
    return after, events


@pytest.mark.parametrize("game_id", GAMES)
def test_info_and_option_validation(game_id: str) -> None:
    game = registry.get(game_id)
    info = game.info
    assert info.id == game_id and info.title and info.blurb and info.rules
    assert len(info.rules) < 3900
    assert 1 <= info.min_players <= info.max_players
    for opt in info.options:
        assert opt.default in opt.choices
    with pytest.raises(IllegalAction):
        game.new(info.max_players + 1, {}, SEED)
    with pytest.raises(IllegalAction):
        game.new(info.min_players, {"no_such_option": "x"}, SEED)
    if info.options:
        with pytest.raises(IllegalAction):
            game.new(info.min_players, {info.options[0].name: "no-such-value"}, SEED)


# Buccaneer's AI games are the slow tier's; its playouts file keeps one in the default run
@pytest.mark.parametrize("game_id", quick_subset(GAMES, set(GAMES) - {"buccaneer"}))
def test_ai_games_end_and_keep_the_contract(game_id: str) -> None:
    game = registry.get(game_id)
    for players, options in _configs(game):
        levels = ["normal" if s % 2 == 0 else "easy" for s in range(players)]
        choose = ai_chooser(levels, f"{SEED}-ai")
        state = game.new(players, options, SEED)
        for _ in range(20_000):
            seats = game.to_act(state)
            if not seats:
                break
            assert game.outcome(state) is None
            seat = seats[0]
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} owes a decision but has no legal action"
            assert len(set(legal)) == len(legal), "duplicate legal actions"
            action = choose(game, state, seat, legal)
            assert action in legal, f"the AI chose {action!r}, which is not legal"
            assert game.parse(action) == action, "parse(str(action)) must give the action back"
            state, _ = _check_step(game, state, seat, action)
        else:
            pytest.fail(f"{game_id} {players}p {options}: no end in 20000 actions")
        assert game.to_act(state) == []
        outcome = game.outcome(state)
        assert outcome is not None
        assert all(0 <= w < players for w in outcome.winners)
        for seat in range(players):
            assert game.legal_actions(state, seat) == [], "a seat has a legal action in a finished game"
            with pytest.raises(IllegalAction) as over:
                game.apply(state, seat, "end")
            assert (over.value.code, over.value.message) == (refusals.GAME_OVER, refusals.game_over().message)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_keeps_the_contract_and_refuses_out_of_turn(game_id: str) -> None:
    game = registry.get(game_id)
    rnd = random.Random(7)
    for players, options in _configs(game)[:2]:
        state = game.new(players, options, SEED)
        for _ in range(300):
            seats = game.to_act(state)
            if not seats:
                break
            idle = [s for s in range(players) if s not in seats]
            if idle:
                # the acting seat's action, offered by a seat that owes nothing (unless it happens to be an
                # optional reaction that seat may legally take)
                wrong = game.legal_actions(state, seats[0])[0]
                if wrong not in game.legal_actions(state, idle[0]):
                    with pytest.raises(IllegalAction):
                        game.apply(state, idle[0], wrong)
            with pytest.raises(IllegalAction):
                game.apply(state, seats[0], "definitely not a move \u2603")
            legal = game.legal_actions(state, seats[0])
            state, _ = _check_step(game, state, seats[0], legal[rnd.randrange(len(legal))])


# Treasure Island's checks of every legal action take minutes of CPU: the slow tier's (CONTRIBUTING.md#the-test-tiers)
@pytest.mark.parametrize("game_id", quick_subset(GAMES, set(GAMES) - {"treasure_island"}))
def test_the_framework_refuses_before_any_game_code_runs(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24 (boardgame.io's reducer): ``Game.apply`` is the framework's; it refuses a finished game, a seat
    whose turn it is not and an action outside the legal list in one wording each, before the game's ``_apply``
    runs; ``is_legal`` answers as the legal list does; and the AI levels are dispatched once, in rules/core.py."""
    game = registry.get(game_id)
    cls = type(game)
    assert cls.apply is Game.apply and cls.ai_choose is Game.ai_choose, "a game overrides the framework's dispatch"
    assert set(game.policies) == {"easy", "normal"}, "a game supplies exactly its easy and normal policies"
    players = game.info.min_players
    choose = ai_chooser(["easy"] * players, "refusals")
    state = game.new(players, {}, SEED)
    real_apply = cls._apply

    def refused(state: dict, seat: int, action: str) -> IllegalAction:
        def must_not_run(self: Game, *args: object) -> object:
            raise AssertionError(f"_apply ran for a refused action {action!r}")

        monkeypatch.setattr(cls, "_apply", must_not_run)
        try:
            with pytest.raises(IllegalAction) as caught:
                game.apply(state, seat, action)
        finally:
            monkeypatch.setattr(cls, "_apply", real_apply)
        return caught.value

    for step in range(150):
        seats = game.to_act(state)
        if not seats:
            break
        legal = game.legal_actions(state, seats[0])
        if step % 4 == 0:
            assert all(game.is_legal(state, seats[0], a) for a in legal)
            for wrong in (f"{legal[0]} 7", legal[-1].rsplit(" ", 1)[0] + " zz9", "pass pass"):
                assert not game.is_legal(state, seats[0], wrong) or wrong in legal
            idle = [s for s in range(players) if s not in seats and legal[0] not in game.legal_actions(state, s)]
            if idle:
                refusal = refused(state, idle[0], legal[0])
                assert refusal.code == refusals.NOT_YOUR_TURN
                assert refusal.message.startswith("It is not your turn: waiting for ")
            refusal = refused(state, seats[0], f"{legal[0]} 7")
            assert refusal.code not in (refusals.GAME_OVER, refusals.NOT_YOUR_TURN) and refusal.message
        state, _ = game.apply(state, seats[0], choose(game, state, seats[0], legal))


@pytest.mark.parametrize("game_id", GAMES)
def test_pictures_of_every_view(game_id: str) -> None:
    game = registry.get(game_id)
    players = game.info.min_players
    choose = ai_chooser(["easy"] * players, "pictures")
    state = game.new(players, {}, SEED)
    drawn = 0
    step = 0
    while True:
        if step % 7 == 0 or not game.to_act(state):
            for seat in [None, *range(players)]:
                png = render(game_id, game.view(state, seat), seat=seat)
                assert png[:8] == b"\x89PNG\r\n\x1a\n"
                drawn += 1
        seats = game.to_act(state)
        if not seats or step > 2000:
            break
        legal = game.legal_actions(state, seats[0])
        state, _ = game.apply(state, seats[0], choose(game, state, seats[0], legal))
        step += 1
    assert drawn > players


_DETERMINISM = """
import hashlib, sys
from rules import registry
from rules.core import canonical_json
from rules.playout import ai_chooser, play
registry._MODULES.setdefault(sys.argv[1], sys.argv[2])  # the toy game is registered only inside the tests
game = registry.get(sys.argv[1])
state, n = play(game, game.info.max_players, {}, "det-seed", ai_chooser(["easy"] * game.info.max_players, "det-ai"))
print(n, hashlib.sha256(canonical_json(game.dump(state)).encode()).hexdigest())
"""


@pytest.mark.parametrize("game_id", GAMES)
def test_determinism_across_hash_seeds(game_id: str) -> None:
    digests = set()
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", _DETERMINISM, game_id, registry._MODULES[game_id]],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests
    assert hashlib.sha256(b"").hexdigest() not in digests


@pytest.mark.parametrize("game_id", GAMES)
def test_private_summaries_are_text_and_only_from_the_seats_own_view(game_id: str) -> None:
    game = registry.get(game_id)
    players = game.info.min_players
    choose = ai_chooser(["easy"] * players, "summaries")
    state = game.new(players, {}, SEED)
    said = 0
    for step in range(200):
        seats = game.to_act(state)
        if not seats:
            break
        if step % 5 == 0:
            for seat in range(players):
                text = game.private_summary(game.view(state, seat), seat)
                assert isinstance(text, str) and len(text) < 1800
                said += bool(text)
                for secret in game.secrets(state):
                    assert secret not in text or secret in json.dumps(game.view(state, seat)), "another seat's secret"
        legal = game.legal_actions(state, seats[0])
        state, _ = game.apply(state, seats[0], choose(game, state, seats[0], legal))
    assert said, f"{game_id} never summarised a private view"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_table_voice_owed_names_actors_and_cards(game_id: str) -> None:
    """Issue 12: at every position of a seeded playout each seat that owes a decision is told what, in words from
    the public view that hold no secret; seat names hold no secret; every line says who acted (a seat in range,
    the game or nobody) and keeps it through JSON; a card action's description fits a picker option."""
    game = registry.get(game_id)
    players = game.info.min_players + (1 if game.info.max_players > game.info.min_players else 0)
    choose = ai_chooser(["easy"] * players, "voice")
    state = game.new(players, {}, SEED)
    described = 0
    for _ in range(400):
        seats = game.to_act(state)
        if not seats:
            break
        public = game.view(state, None)
        secrets = [x for x in game.secrets(state) if x]
        for seat in seats:
            owed = game.owed(public, seat)
            assert isinstance(owed, str) and owed.strip(), f"seat {seat} owes a decision but owed() is empty"
            assert not [x for x in secrets if x in owed], f"a secret in owed(): {owed!r}"
            # the picker's heading: the seat's own view, which may name its own plan's next step
            heading = game.owed(game.view(state, seat), seat)
            assert isinstance(heading, str) and heading.strip(), f"seat {seat}: owed() from its own view is empty"
            assert heading != "take your turn" or owed == heading, f"{owed!r} in public, vague in private"
        for seat in range(players):
            name = game.seat_name(public, seat)
            assert isinstance(name, str) and not [x for x in secrets if x in name]
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        mine = game.view(state, seat)
        for action in legal[:60]:
            text = game.describe(mine, action)
            assert isinstance(text, str) and len(text) <= 100, f"{action!r}: {text!r}"
            described += bool(text)
        state, events = game.apply(state, seat, choose(game, state, seat, legal))
        for e in events:
            assert e.actor is None or e.actor == "game" or (isinstance(e.actor, int) and 0 <= e.actor < players)
            assert type(e).from_json(json.loads(json.dumps(e.to_json()))) == e
    if game.info.cards:
        assert all(name and effect for name, effect in game.info.cards)
        # a Buccaneer ship meets a chance card it may choose with far later than 400 steps (test below instead)
        assert described or game_id == "buccaneer", f"{game_id} has cards but never described a card action"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_move_without_a_public_line_is_a_step_of_a_decision_still_owed(game_id: str) -> None:
    """Issue 28: the channel is told each whole decision. A move whose events have no public line (a secret choice,
    one step of a bigger decision) leaves its seat still owing the rest of that decision; the step that completes a
    decision always says something, since the host adds no "X acted." of its own."""
    game = registry.get(game_id)
    players = game.info.min_players
    for i in range(2):
        rnd = random.Random(f"silent:{game_id}:{i}")
        state = game.new(players, {}, f"{SEED}:{i}")
        for _ in range(1500):
            seats = game.to_act(state)
            if not seats:
                break
            seat = seats[0]
            legal = game.legal_actions(state, seat)
            action = legal[rnd.randrange(len(legal))]
            state, events = game.apply(state, seat, action)
            if not any(e.public for e in events) and game.outcome(state) is None:
                assert seat in game.to_act(state), f"{action!r} ended a decision without a public line"


def test_cards_read_as_their_effect() -> None:
    """Issue 12, item 10: Silver's hint cards, Flagon's cards and Buccaneer's keepers say what they do."""
    # issue 28: the label names the card once, the description says what it does (never the name again)
    ti = registry.get("treasure_island")
    assert ti.label({}, "hint S5") == "S5 Pacing Off"
    assert "landmark" in ti.describe({}, "hint S5")
    assert ("S5 Pacing Off", ti.describe({}, "hint S5")) in ti.info.cards
    flagon = registry.get("flagon")
    assert flagon.label({}, "plan monk leap") == "Leap (time 2)"
    assert flagon.describe({}, "plan monk leap") == "jump 2-3 squares in a line"
    bucc = registry.get("buccaneer")
    assert bucc.label({}, "offer chart") == "offer Kidd's Chart" and "Anchor Bay" in bucc.describe({}, "offer chart")
    view = {"last": {"chance": {"card": 14}}}
    assert bucc.describe(view, "choose treasure").startswith("14 Treasure or crew: take treasure up to 7")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_pickers_helpers_agree_with_the_rules(game_id: str) -> None:
    """``groups`` gives exactly ``group`` of each action (a game may batch it); a step a picker joins to the next
    draws nothing and shows nothing hidden (no private line) and leaves the same seat to act; what a pick plays by
    itself (``follows``) is legal and the seat's only action but taking back, at positions of seeded playouts."""
    game = registry.get(game_id)
    players = game.info.min_players
    choose = ai_chooser(["random"] * players, "picker")
    state = game.new(players, {}, SEED)
    for _ in range(300):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        assert game.groups(view, legal) == [game.group(view, a) for a in legal]
        for a in legal:
            if game.joins(view, a):
                after, events = game.apply(state, seat, a)
                assert seat in game.to_act(after), a
                assert not any(e.private for e in events), a  # no news: nothing drawn, nothing hidden shown
        follow = game.follows(view, seat, legal)
        if follow is not None:
            assert follow in legal and [x for x in legal if x != game.take_back] == [follow]
        state, _ = game.apply(state, seat, choose(game, state, seat, legal))
