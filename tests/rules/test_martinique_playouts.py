"""Martinique seeded playouts with invariants after every action, determinism across processes, perft counts,
and the AI's promises (legal choices, digs consistent with what it knows, normal ahead of easy)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rules.core import canonical_json
from rules.martinique import GAME
from rules.martinique.board import HOOK_SET
from rules.martinique.tiles import all_artifacts
from tests.tiers import quick_first

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = [{"move_after": m, "lost_shadow": shadow} for m in ("1", "2", "3", "4") for shadow in ("off", "on")]


def check_invariants(s: dict) -> None:
    # 96 artifacts, 16 map tiles and 3 jokers, each exactly once somewhere
    places: list[str] = [t for t in s["island"] if t is not None]
    places += s["hook"]["maps"] + ["joker"] * s["hook"]["jokers"] + s["lost"] + s["bag"]
    places += s["discarded"] + s["removed"]
    for chest in s["chests"].values():
        places += chest
    for p in s["players"]:
        places += p["collection"] + [m["id"] for m in p["maps"]] + ["joker"] * p["jokers"]
        for stack in p["ship"]:
            places += stack
    counts = Counter(places)
    assert counts["joker"] == 3
    maps = {t: n for t, n in counts.items() if t.startswith("map:")}
    assert len(maps) == 16 and set(maps.values()) == {1}
    artifacts = Counter({t: n for t, n in counts.items() if t != "joker" and not t.startswith("map:")})
    assert artifacts == Counter(all_artifacts())
    # 8 pirates: 4 a seat, in supply, on the island or in the pub
    pirates = s["pirates"]
    if s["phase"] == "sunrise":
        for seat in (0, 1):
            assert s["players"][seat]["supply"] + pirates.count(seat) + s["pub"].count(seat) == 4
        for i, owner in enumerate(pirates):
            if owner is not None:
                assert s["island"][i] is not None and i not in HOOK_SET, "a pirate off the tiles during Sunrise"
    else:
        assert None not in s["pub"]
        for seat in (0, 1):
            assert s["players"][seat]["supply"] == 0
            assert pirates.count(seat) == s["pub"][: s["next_pub"]].count(seat)
        assert all(t is None for t in s["island"])
    if s["result"] is not None:
        assert s["phase"] == "over" and GAME.outcome(s) is not None


def run_game(seed: str, options: dict, levels: tuple[str, str], checks: bool = True) -> dict:
    s = GAME.new(2, options, seed)
    rnd = random.Random(seed)
    steps = 0
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        assert legal, "no legal action while the game runs"
        view = GAME.view(s, seat)
        action = GAME.ai_choose(view, seat, legal, levels[seat], rnd)
        assert action in legal
        if checks:
            before = canonical_json(s)
            after, events = GAME.apply(s, seat, action)
            assert canonical_json(s) == before, "apply mutated its input"
            check_invariants(after)
            data = json.loads(json.dumps(GAME.dump(after)))
            assert GAME.load(data) == after
            public = json.dumps(GAME.view(after, None), ensure_ascii=False)
            lines = " ".join(e.public or "" for e in events)
            for secret in GAME.secrets(s) + GAME.secrets(after):
                assert secret not in public and secret not in lines
            s = after
        else:
            s, _ = GAME.apply(s, seat, action)
        steps += 1
        assert steps < 400
    assert GAME.outcome(s) is not None and GAME.to_act(s) == []
    return s


@pytest.mark.parametrize(
    "options", quick_first(OPTIONS), ids=lambda o: f"move_after{o['move_after']}-shadow{o['lost_shadow']}"
)
def test_random_playouts_keep_every_invariant(options: dict) -> None:
    for k in range(12):
        run_game(f"fuzz-{options['move_after']}-{options['lost_shadow']}-{k}", options, ("random", "random"))


@pytest.mark.parametrize("shadow", quick_first(["off", "on"]))
def test_ai_playouts_keep_every_invariant(shadow: str) -> None:
    for k in range(6):
        levels = ("normal", "easy") if k % 2 else ("easy", "normal")
        run_game(f"ai-{shadow}-{k}", {"lost_shadow": shadow}, levels)


def test_public_view_is_the_same_whatever_the_secrets() -> None:
    """Swap every hidden map identity, reshuffle the bag and change the seed: the public view must not move."""
    s = GAME.new(2, {"move_after": "1"}, "secret-swap")
    rnd = random.Random(3)
    for _ in range(30):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
        other = json.loads(json.dumps(s))
        other["seed"] = "something else"
        hidden = [t for t in GAME.secrets(s) if t.startswith("map:")]
        swap = dict(zip(hidden, list(reversed(hidden)), strict=True))
        other["island"] = [swap.get(t, t) if t else t for t in other["island"]]
        other["hook"]["maps"] = [swap[t] for t in other["hook"]["maps"]]
        other["lost"] = [swap[t] for t in other["lost"]]
        for p in other["players"]:
            for m in p["maps"]:
                if not m["revealed"]:
                    m["id"] = swap[m["id"]]
        random.Random(1).shuffle(other["bag"])
        assert GAME.view(other, None) == GAME.view(s, None)


def test_ai_digs_on_a_square_consistent_with_what_it_knows() -> None:
    for k in range(6):
        s = GAME.new(2, {}, f"digs-{k}")
        rnd = random.Random(k)
        level = ("normal", "easy")
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            view = GAME.view(s, seat)
            action = GAME.ai_choose(view, seat, legal, level[(seat + k) % 2], rnd)
            if s["step"] == "dig":
                cands = view["private"]["candidates"]
                free = [sq for sq in cands if f"dig {sq}" in legal]
                if free:
                    assert action.split()[1] in free
            s, _ = GAME.apply(s, seat, action)


def test_ai_reads_only_its_view() -> None:
    """The same view gives the same choice, whatever the hidden state behind it."""
    s = GAME.new(2, {"move_after": "1"}, "ai-view")
    rnd = random.Random(9)
    for _ in range(25):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
    seat = GAME.to_act(s)[0]
    view = GAME.view(s, seat)
    legal = GAME.legal_actions(s, seat)
    choices = {GAME.ai_choose(json.loads(json.dumps(view)), seat, legal, "normal", random.Random(i)) for i in range(5)}
    assert len(choices) == 1 and choices <= set(legal)


def test_normal_beats_easy_in_a_small_seeded_sample() -> None:
    wins = 0
    games = 40
    for k in range(games):
        normal = k % 2
        levels = ("normal", "easy") if normal == 0 else ("easy", "normal")
        s = run_game(f"duel-{k}", {}, levels, checks=False)
        wins += GAME.outcome(s).winners == (normal,)
    assert wins >= 0.7 * games


def _perft(s: dict, depth: int) -> int:
    if depth == 0 or not GAME.to_act(s):
        return 1
    seat = GAME.to_act(s)[0]
    return sum(_perft(GAME.apply(s, seat, a)[0], depth - 1) for a in GAME.legal_actions(s, seat))


def test_perft_from_the_opening() -> None:
    s = GAME.new(2, {"move_after": "1"}, "perft")
    assert [_perft(s, d) for d in (1, 2, 3)] == [28, 756, 23137]
    assert _perft(GAME.new(2, {}, "perft"), 3) == 19656


def test_perft_from_a_midgame_position() -> None:
    s = GAME.new(2, {}, "perft-mid")
    rnd = random.Random(4)
    for _ in range(20):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, GAME.ai_choose(GAME.view(s, seat), seat, legal, "normal", rnd))
    assert [_perft(s, d) for d in (1, 2, 3)] == PERFT_MID


PERFT_MID = [24, 523, 10726]  # pinned: a change means a rule changed

SCRIPT = """
import hashlib, random, sys
sys.path.insert(0, {root!r})
from rules.core import canonical_json
from rules.martinique import GAME
s = GAME.new(2, {{"lost_shadow": "on"}}, "hash-seed")
rnd = random.Random(7)
log = []
while GAME.to_act(s):
    seat = GAME.to_act(s)[0]
    legal = GAME.legal_actions(s, seat)
    action = GAME.ai_choose(GAME.view(s, seat), seat, legal, "normal" if seat else "easy", rnd)
    s, events = GAME.apply(s, seat, action)
    log.append(action)
    log += [e.public or "" for e in events]
print(hashlib.sha256((canonical_json(GAME.dump(s)) + "|".join(log)).encode()).hexdigest())
"""


def test_determinism_across_hash_seeds() -> None:
    outputs = []
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(root=str(ROOT))], env=env, capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout.strip())
    assert outputs[0] == outputs[1] and len(outputs[0]) == len(hashlib.sha256().hexdigest())
