"""Seeded playouts with invariants after every action (issue item 6), determinism, replay, the round limit,
pinned perft counts and the AI's contract (edge cases 32–34 of
docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules.buccaneer import GAME
from rules.core import canonical_json
from rules.playout import ai_chooser
from tests.rules.test_buccaneer_fixtures import check_step, make, play, public_text
from tests.tiers import quick_first

ROOT = Path(__file__).resolve().parents[2]
MOVES = ("sail", "turn", "stay", "go", "face", "confirm", "end", "attack", "pass")


def weighted(rnd: random.Random):
    """Random play that favours moves and `end`, so window shuffles (offers taken back and made again) stay rare."""

    def choose(state, seat, legal):
        if "challenge" in legal and rnd.random() < 0.2:
            return "challenge"
        legal = [a for a in legal if a != "challenge"] or legal
        core = [a for a in legal if a.split()[0] in MOVES and a != "undo"]
        if core and rnd.random() < 0.8:
            return rnd.choice(core)
        return rnd.choice(legal)

    return choose


def run_game(players: int, seed: str, chooser, options=None, limit: int = 20000):
    state = GAME.new(players, options or {}, seed)
    log = []
    kinds = set()
    for _ in range(limit):
        seats = GAME.to_act(state)
        if not seats:
            return state, log, kinds
        seat = seats[0]
        legal = GAME.legal_actions(state, seat)
        assert legal and len(set(legal)) == len(legal)
        action = chooser(state, seat, legal)
        state, _ = check_step(state, seat, action)
        log.append((seat, action))
        kinds.update(f["kind"] for f in state["stack"] if f["kind"] != "task")
    raise AssertionError(f"no end in {limit} actions")


@pytest.mark.parametrize("players,games", quick_first([(2, 3), (4, 2), (8, 1)], unpack=True))
def test_edge_32_random_playouts_conserve_crew_treasure_and_chance_cards(players: int, games: int) -> None:
    for g in range(games):
        rnd = random.Random(f"{players}-{g}")
        opts = {"round_limit": "50", "honour": "on" if g % 2 == 0 else "off"}
        state, log, _ = run_game(players, f"play-{players}-{g}", weighted(rnd), opts)
        assert state["phase"] == "over" and GAME.outcome(state) is not None


@pytest.mark.parametrize("players", quick_first([2, 4, 8]))
def test_ai_playouts_end_with_a_winner_and_keep_every_invariant(players: int) -> None:
    levels = ["normal", "easy"] * 4
    choose = ai_chooser(levels[:players], f"ai-{players}")

    def chooser(state, seat, legal):
        action = choose(GAME, state, seat, legal)
        assert action in legal
        return action

    state, log, kinds = run_game(players, f"ai-{players}", chooser)
    outcome = GAME.outcome(state)
    assert outcome.reason in ("landed_20", "round_limit")
    assert kinds >= {"PICK"}


def test_edge_34_replaying_the_log_reproduces_the_state_byte_for_byte() -> None:
    rnd = random.Random(11)
    state, log, kinds = run_game(4, "replay", weighted(rnd), {"round_limit": "50"})
    again = GAME.new(4, {"round_limit": "50"}, "replay")
    for seat, action in log:
        again, _ = GAME.apply(again, seat, action)
    assert canonical_json(GAME.dump(again)) == canonical_json(GAME.dump(state))
    assert len(kinds) >= 6, kinds  # many frame types went through the JSON round trip


_DET = """
import hashlib, random, sys
from rules.buccaneer import GAME
from rules.core import canonical_json
from rules.playout import ai_chooser, play
state, n = play(GAME, 4, {}, "det", ai_chooser(["normal", "easy", "easy", "normal"], "det-ai"))
print(n, hashlib.sha256(canonical_json(GAME.dump(state)).encode()).hexdigest())
"""


def test_determinism_under_two_hash_seeds() -> None:
    outs = set()
    for hs in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hs}
        out = subprocess.run(
            [sys.executable, "-c", _DET], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        outs.add(out.stdout.strip())
    assert len(outs) == 1 and hashlib.sha256(b"").hexdigest() not in outs.pop()


def perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    seats = GAME.to_act(state)
    if not seats:
        return 1
    total = 0
    for action in GAME.legal_actions(state, seats[0]):
        after, _ = GAME.apply(state, seats[0], action)
        total += perft(after, depth - 1)
    return total


def test_perft_counts_from_the_opening_position() -> None:
    s = make(("amsterdam", "cadiz", "london"), seed="perft")
    assert [perft(s, d) for d in (1, 2, 3)] == PERFT


PERFT = [9, 94, 902]


def test_edge_33_round_limit_ends_with_no_winner_and_a_ranking() -> None:
    s = make(("amsterdam", "cadiz"), round_limit="50")
    s["round"] = 50
    s["harbours"]["cadiz"]["safety"]["gold"] = 3
    s["treasure_island"]["gold"] -= 3
    s, _ = play(s, 0, "stay")
    assert s["phase"] == "play" and s["turn"]["seat"] == 1
    s, events = play(s, 1, "stay")
    outcome = GAME.outcome(s)
    assert s["phase"] == "over" and outcome.winners == () and outcome.reason == "round_limit"
    assert outcome.ranking == (1, 0) and outcome.scores == (0, 12)
    assert "Round limit reached: no winner" in public_text(events)


def test_public_view_and_events_hold_no_secret_in_a_whole_game() -> None:
    choose = ai_chooser(["normal", "easy", "easy"], "leak")
    state = GAME.new(3, {}, "leak-seed-XYZ")
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        state, events = GAME.apply(state, seat, choose(GAME, state, seat, GAME.legal_actions(state, seat)))
        public = json.dumps(GAME.view(state, None))
        assert "leak-seed-XYZ" not in public and '"hand": {' not in public and "pirate_pile" not in public
        assert "chance_pile" not in public and "rng_n" not in public
        for e in events:
            for secret in GAME.secrets(state):
                assert secret not in (e.public or "")
