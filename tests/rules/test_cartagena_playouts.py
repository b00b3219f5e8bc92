"""Seeded Cartagena playouts with invariants after every action, determinism across processes, perft counts
from the fixed passage, and the AI levels."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules.cartagena import GAME
from rules.cartagena.board import SLOOP, START, SYMBOLS
from rules.core import canonical_json
from rules.playout import ai_chooser, random_chooser, steps
from tests.tiers import quick_first

ROOT = Path(__file__).resolve().parents[2]
SEED = "Kx7-cartagena-hidden-seed"
MODES = [("jamaica", "off"), ("jamaica", "on"), ("tortuga", "off")]


def check_invariants(before: dict[str, Any], seat: int, action: str, after: dict[str, Any], events: list) -> None:
    # cards: 17 of each symbol across hands, stock, discard pile and row
    cards = Counter(after["stock"] + after["discard"] + (after["row"] or []))
    for hand in after["hands"]:
        assert min(hand) >= 0
        cards.update(dict(zip(SYMBOLS, hand, strict=True)))
    assert cards == Counter({symbol: 17 for symbol in SYMBOLS}), action
    # pirates: 6 per seat, at most 3 on a passage space
    on_space: Counter[int] = Counter()
    for positions in after["pirates"]:
        assert len(positions) == 6 and all(START <= pos <= SLOOP for pos in positions)
        on_space.update(pos for pos in positions if START < pos < SLOOP)
    assert not on_space or max(on_space.values()) <= 3
    # the JSON round trip
    assert GAME.load(json.loads(json.dumps(GAME.dump(after)))) == after
    # who acts, and what is legal
    if after["result"]:
        assert GAME.to_act(after) == [] and GAME.outcome(after) is not None
    else:
        to_act = GAME.to_act(after)
        assert to_act == [after["turn_seat"]] and GAME.legal_actions(after, to_act[0])
        others = [s for s in range(after["players"]) if s != to_act[0]]
        assert all(GAME.legal_actions(after, s) == [] for s in others)
        assert GAME.outcome(after) is None
    # nothing secret in public
    public = GAME.view(after, None)
    text = json.dumps(public)
    assert SEED not in text and "stock" not in public and "seed" not in public
    for secret in GAME.secrets(after):
        assert secret not in text
        assert all(secret not in (event.public or "") for event in events)
    if after["row"] is None:
        assert all(set(entry) == {"count"} for entry in public["hands"].values())
        for event in events:
            assert set(event.private) <= {seat}
    assert sum(public["discard"].values()) == len(after["discard"])


@pytest.mark.parametrize("players", quick_first([2, 3, 4, 5]))
@pytest.mark.parametrize(("mode", "reshuffle"), quick_first(MODES, unpack=True))
def test_random_playouts_keep_every_invariant(players: int, mode: str, reshuffle: str) -> None:
    options = {"mode": mode, "reshuffle": reshuffle}
    for game in range(2):
        rnd = random.Random(f"{players}{mode}{reshuffle}{game}")
        for step in steps(GAME, players, options, f"{SEED}-{game}", random_chooser(rnd)):
            before = canonical_json(step.before)
            again, _ = GAME.apply(step.before, step.seat, step.action)
            assert canonical_json(step.before) == before, "apply mutated its input"
            assert again == step.after, "apply is not a function of its input"
            check_invariants(step.before, step.seat, step.action, step.after, step.events)


@pytest.mark.parametrize("players", quick_first([2, 5]))
@pytest.mark.parametrize("mode", quick_first(["jamaica", "tortuga"]))
def test_ai_playouts_keep_every_invariant_and_finish(players: int, mode: str) -> None:
    options = {"mode": mode, "board": "fixed", "back_from_sloop": "off" if players == 5 else "on"}
    last = None
    for step in steps(GAME, players, options, SEED, ai_chooser(["normal", "easy"] * 3, "ai")):
        check_invariants(step.before, step.seat, step.action, step.after, step.events)
        last = step.after
    assert last["result"]["reason"] in ("escaped", "stalled")


def test_edge_25_conservation_in_long_reshuffling_games() -> None:
    for step in steps(GAME, 5, {"reshuffle": "on"}, SEED, ai_chooser(["normal"] * 5, "ai")):
        check_invariants(step.before, step.seat, step.action, step.after, step.events)
    assert step.after["reshuffles"] >= 1


_DETERMINISM = """
import hashlib, random, sys
sys.path.insert(0, {root!r})
from rules.cartagena import GAME
from rules.core import canonical_json
from rules.playout import random_chooser, steps
digest = hashlib.sha256()
for players in (2, 3, 4, 5):
    for mode in ("jamaica", "tortuga"):
        for step in steps(GAME, players, {{"mode": mode, "reshuffle": "on"}}, f"det-{{players}}-{{mode}}",
                          random_chooser(random.Random(players))):
            digest.update(canonical_json(GAME.dump(step.after)).encode())
print(digest.hexdigest())
"""


def test_edge_27_determinism_under_two_hash_seeds() -> None:
    script = _DETERMINISM.format(root=str(ROOT))
    digests = []
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        digests.append(out.stdout.strip())
    assert digests[0] == digests[1] and len(digests[0]) == 64


def _perft(state: dict[str, Any], depth: int) -> int:
    if depth == 0 or state["result"]:
        return 1
    seat = GAME.to_act(state)[0]
    return sum(_perft(GAME.apply(state, seat, action)[0], depth - 1) for action in GAME.legal_actions(state, seat))


def test_perft_from_the_fixed_passage() -> None:
    """Pinned counts of action sequences: any change to a movement, drawing or turn rule changes them."""
    start = GAME.new(2, {"board": "fixed"}, "perft")
    assert [_perft(start, depth) for depth in range(5)] == [1, 4, 32, 268, 1145]
    # mid-game: backward moves and draws (Jamaica draws from the stock)
    mid = GAME.new(2, {"board": "fixed"}, "perft")
    mid["pirates"] = [[0, 0, 3, 10, 10, 20], [1, 4, 10, 15, 15, 28]]
    assert [_perft(mid, depth) for depth in range(4)] == [1, 19, 401, 8741]
    # Tortuga with a one-card row: the second card of a 2-card draw comes from a fresh, reshuffled row
    tortuga = GAME.new(2, {"board": "fixed", "mode": "tortuga"}, "perft")
    tortuga["pirates"] = mid["pirates"]
    tortuga["discard"], tortuga["row"] = tortuga["row"][1:], tortuga["row"][:1]
    assert [_perft(tortuga, depth) for depth in range(4)] == [1, 19, 401, 8701]


def test_normal_beats_easy() -> None:
    """A small seeded sample of the benchmark (500 games there): normal wins clearly from either seat."""
    wins = 0
    games = 20
    for game in range(games):
        levels = ["normal", "easy"] if game % 2 == 0 else ["easy", "normal"]
        final = None
        for step in steps(
            GAME, 2, {"mode": ("jamaica", "tortuga")[game % 4 // 2]}, f"wr{game}", ai_chooser(levels, "w")
        ):
            final = step.after
        wins += levels.index("normal") in final["result"]["winners"]
    assert wins >= 0.8 * games


def test_ai_uses_only_its_view_and_is_deterministic() -> None:
    state = GAME.new(3, {}, SEED)
    for _ in range(40):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        choices = {GAME.ai_choose(view, seat, legal, level, random.Random(1)) for level in ("easy", "normal")}
        assert choices <= set(legal)
        normal = GAME.ai_choose(view, seat, legal, "normal", random.Random(99))
        assert normal == GAME.ai_choose(json.loads(json.dumps(view)), seat, legal, "normal", random.Random(5))
        state, _ = GAME.apply(state, seat, normal)
        if state["result"]:
            break


def _turn(state: dict[str, Any], level: str) -> dict[str, Any]:
    """Let seat 0 play at ``level`` until its turn (or the game) ends."""
    while state["turn_seat"] == 0 and not state["result"]:
        legal = GAME.legal_actions(state, 0)
        state, _ = GAME.apply(state, 0, GAME.ai_choose(GAME.view(state, 0), 0, legal, level, random.Random(0)))
    return state


def test_normal_boards_every_remaining_pirate_when_it_can() -> None:
    state = GAME.new(2, {"board": "fixed"}, "finish")
    state["turn_seat"] = 0
    state["pirates"][0] = [34, 36, SLOOP, SLOOP, SLOOP, SLOOP]
    state["hands"][0] = [0, 0, 0, 1, 1, 0]  # key, pistol: only pistol from 34 then key from 36 boards both
    assert _turn(state, "normal")["result"] == {"winners": [0], "reason": "escaped", "turns": 1}
    # in Tortuga the pistol is worth exactly the 6 spaces it gains, so only the finishing rule plays it
    tortuga = GAME.new(2, {"board": "fixed", "mode": "tortuga"}, "finish")
    tortuga.update(turn_seat=0, actions_taken=1)
    tortuga["pirates"][0] = [36, SLOOP, SLOOP, SLOOP, SLOOP, SLOOP]
    tortuga["hands"][0] = [0, 0, 0, 0, 1, 0]
    view = GAME.view(tortuga, 0)
    assert GAME.ai_choose(view, 0, GAME.legal_actions(tortuga, 0), "normal", random.Random(0)) == "forward 36 pistol"


def test_easy_takes_the_longest_jump_and_ends_its_turn() -> None:
    state = GAME.new(2, {"board": "fixed"}, "easy")
    state["turn_seat"] = 0
    state["hands"][0] = [1, 0, 0, 1, 0, 1]  # bottle → 3, key → 2, skull → 1
    after = _turn(state, "easy")
    assert after["pirates"][0] == [0, 0, 0, 0, 0, 3] and after["turn_seat"] == 1
    state["hands"][0] = [0] * 6
    state["pirates"][0] = [0, 0, 0, 0, 5, 9]
    assert GAME.ai_choose(GAME.view(state, 0), 0, GAME.legal_actions(state, 0), "easy", random.Random(0)) == "back 9"
