"""Seeded playouts of Treasure Island with invariants after every action, secrecy of the public view,
determinism across processes, pinned move counts ("perft") and complete AI games (edge cases 32–34 of
docs/games/treasure_island.md#edge-cases-and-the-tests-that-cover-them)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.core import canonical_json
from rules.treasure_island import GAME
from rules.treasure_island import geometry as G
from rules.treasure_island import hints as H
from rules.treasure_island.ai import run_toward
from tests.tiers import quick_first

PERFT_HINTS = 50
ROOT = Path(__file__).resolve().parents[2]
State = dict[str, Any]


def scrambled(s: State) -> State:
    """The same public situation with every secret changed: another treasure, tokens, hands and chest contents."""
    t = json.loads(json.dumps(s))
    if t["treasure"] is not None:
        elig = G.eligible_mask(
            t["options"]["map"], tuple(c for c in ("anne", "olivier", "jim", "charlotte", "ben") if c in t["minis"])
        )
        nodes = [k for k in G.bits(elig) if list(G.ij(k)) != t["treasure"]]
        t["treasure"] = list(G.ij(nodes[len(nodes) // 3]))
    t["hint_tokens"] = (
        [t["hint_tokens"][0], *["bluff" if x != "bluff" else "truth" for x in t["hint_tokens"][1:]]]
        if t["hint_tokens"]
        else []
    )
    t["hand"] = [("B" if c.startswith("S") else "S") + c[1:] for c in t["hand"]]
    t["compass_hand"] = [f"C{9 - int(c[1:])}" for c in t["compass_hand"]]
    t["starting_deck"] = list(reversed(t["starting_deck"]))
    t["black_deck"] = list(reversed(t["black_deck"]))
    t["tokens"] = {"truth": 1, "bluff": 2, "lie": 0}
    t["chest_tokens"] = ["dig"] * len(t["chest_tokens"])
    t["districts"] = {m: ["D1"] * len(d) for m, d in t["districts"].items()}
    t["set_aside"] = "D11"
    t["items"] = [["extra"] * len(x) for x in t["items"]]
    t["info_tokens"] = [[{**i, "token": "west"} for i in x] for x in t["info_tokens"]]
    t["verified"] = [[{**v, "token": "lie"} for v in x] for x in t["verified"]]
    t["memory"] = [[{**m, "within_5": not m["within_5"]} for m in x] for x in t["memory"]]
    t["compass_given"] = [{**c, "card": "C1", "skulls": ["N", "S"]} for c in t["compass_given"]]
    t["given"] = [{**g, "token": "dig", "traitor": False} for g in t["given"]]
    t["traitor"] = None if t["traitor"] is not None else 1
    t["real"] = "C" if t["real"] in ("A", "B") else t["real"]
    t["tricks"]["hand"] = []
    t["tricks"]["points"] = 3
    t["discards"] = []
    t["scrolls"] = ["D2", "D3"] if t["scrolls"] else []
    return t


def check_invariants(before: State, action: str, after: State, snapshot: str) -> None:
    assert canonical_json(before) == snapshot, "apply mutated its input"
    dumped = json.loads(json.dumps(GAME.dump(after)))
    assert canonical_json(GAME.load(dumped)) == canonical_json(GAME.dump(after))
    if after["state"] != "over":
        seat = GAME.to_act(after)[0]
        assert len(GAME.to_act(after)) == 1 and GAME.legal_actions(after, seat)
        for other in range(after["n"]):
            if other != seat:
                assert GAME.legal_actions(after, other) == []
        pub = GAME.view(after, None)
        assert canonical_json(pub) == canonical_json(GAME.view(scrambled(after), None)), action
        text = json.dumps(pub)
        assert '"private"' not in text and '"reveal"' not in text and after["seed"] not in text
        assert not any(secret in json.dumps(pub, sort_keys=True) for secret in GAME.secrets(after))
        assert all(h["token"] == "hidden" for h in pub["hints"][1:])
    # conservation: chest tokens, and every deck's cards
    assert len(after["chest_tokens"]) + len(after["given"]) == 6
    played = [h["card"] for h in after["hints"]]
    exp = after["options"]["expansion"] == "on"
    for prefix, total, deck in (("S", 7, "starting_deck"), ("B", 12 if exp else 11, "black_deck")):
        cards = [c for c in after["hand"] + after["discards"] + played + after[deck] if c.startswith(prefix)]
        assert len(cards) == total == len(set(cards)), prefix
    compass = after["compass_hand"] + after["compass_deck"] + [c["card"] for c in after["compass_given"]]
    assert sorted(compass) == sorted(f"C{k}" for k in range(1, 9))
    assert after["tokens"]["truth"] + sum(1 for t in after["hint_tokens"] if t == "truth") == 6


def random_game(players: int, opts: dict[str, str], seed: str, check: bool) -> State:
    s = GAME.new(players, opts, seed)
    rnd = random.Random(seed)
    steps = 0
    while s["state"] != "over":
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        action = rnd.choice(legal)
        if s["state"] == "turn" and "end" in legal and rnd.random() < 0.35:
            action = "end"
        if s["state"] == "escape" and rnd.random() < 0.6:
            # a driver, not an AI: head for the treasure so the escape race ends
            here = s["figures"][s["escape"]["fig"]]["pos"]
            action = run_toward(s["options"]["map"], (here[0], here[1]), tuple(s["treasure"]), legal) or action
        snap = canonical_json(s) if check else ""
        nxt, events = GAME.apply(s, seat, action)
        assert events or s["state"] in ("hint_card", "hint_token", "hint_param", "phantom")
        if check:
            check_invariants(s, action, nxt, snap)
        s = nxt
        steps += 1
        assert steps < 6000
    return s


CONFIGS = [
    (2, "treasure", "off"),
    (3, "revenge", "off"),
    (4, "treasure", "on"),
    (5, "revenge", "on"),
    (6, "treasure", "on"),
    (2, "revenge", "on"),
    (5, "treasure", "off"),
]


@pytest.mark.parametrize(("players", "map_id", "expansion"), quick_first(CONFIGS, unpack=True))
def test_edge_34_random_playouts_with_invariants(players: int, map_id: str, expansion: str) -> None:
    opts = {"map": map_id, "expansion": expansion, "tricks": str(players % 4), "silver": "random"}
    s = random_game(players, opts, f"fuzz-{players}-{map_id}-{expansion}", check=True)
    assert s["state"] == "over" and GAME.outcome(s) is not None
    final = GAME.view(s, None)
    assert final["reveal"]["treasure"] is not None


@pytest.mark.parametrize("seed", quick_first(range(8)))
def test_quick_random_playouts_end(seed: int) -> None:
    players = 2 + seed % 5
    opts = {"map": ["treasure", "revenge"][seed % 2], "expansion": "on" if players == 6 or seed % 3 == 0 else "off"}
    s = random_game(players, opts, f"quick{seed}", check=False)
    assert s["state"] == "over"


def test_edge_33_dump_load_mid_hint_and_mid_ride() -> None:
    s = GAME.new(3, {"silver": "first"}, "rt")
    s, _ = GAME.apply(s, 0, "bury 20,8")
    s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert s["pending"]["card"]
    assert GAME.load(json.loads(json.dumps(GAME.dump(s)))) == GAME.dump(s)
    t = json.loads(json.dumps(s))
    t["state"], t["pending"], t["turn"] = "turn", None, {"mini": "olivier", "left": 2}
    t["minis"]["olivier"]["pos"] = [40, 16]
    t, _ = GAME.apply(t, GAME.to_act(t)[0], "ride 20,14")
    assert t["state"] == "ride2"
    assert GAME.load(json.loads(json.dumps(GAME.dump(t)))) == GAME.dump(t)


_DETERMINISM = """
import hashlib, random, sys
sys.path.insert(0, {root!r})
from rules.core import canonical_json
from rules.treasure_island import GAME
s = GAME.new(4, {{"expansion": "on"}}, "det")
rnd = random.Random(5)
for _ in range(250):
    if s["state"] == "over":
        break
    seat = GAME.to_act(s)[0]
    s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
print(hashlib.sha256(canonical_json(s).encode()).hexdigest())
"""


def test_edge_33_determinism_across_processes() -> None:
    code = _DETERMINISM.format(root=str(ROOT))
    out = []
    for hashseed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        res = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True
        )
        out.append(res.stdout.strip())
    assert out[0] == out[1] and len(out[0]) == 64


def _count_hint_paths(s: State) -> int:
    if s["state"] not in ("hint_card", "hint_token", "hint_param"):
        return 1
    total = 0
    for a in GAME.legal_actions(s, 0):
        if a == "redraw":
            continue
        nxt, _ = GAME.apply(s, 0, a)
        total += _count_hint_paths(nxt)
    return total


def test_perft_first_hint_and_first_turn() -> None:
    s = GAME.new(3, {"silver": "first"}, "perft")
    assert len(GAME.legal_actions(s, 0)) == 2051  # eligible nodes with four spots in use
    s, _ = GAME.apply(s, 0, "bury 20,8")
    assert s["hand"] == ["S1", "S4", "S6"]
    assert _count_hint_paths(s) == 1  # only Altitude is playable, and only its true level
    s["hand"] = ["S2", "S3", "S5"]
    assert _count_hint_paths(s) == PERFT_HINTS
    t = json.loads(json.dumps(s))
    t["state"], t["pending"] = "turn", None
    t["turn"] = {"mini": "jim", "left": 1}
    t["minis"]["jim"]["pos"] = [40, 28]
    legal = GAME.legal_actions(t, t["owner"]["jim"])
    counts = {v: sum(1 for a in legal if a.split()[0] == v) for v in ("ride", "walk", "search", "gallop", "dig", "end")}
    assert counts == {"ride": 341, "walk": 98, "search": 81, "gallop": 2223, "dig": 1, "end": 1}


def _tricks_free_play(s: State, rnd: random.Random, limit: int) -> list[list[int]]:
    seq = []
    for _ in range(limit):
        if s["state"] == "over":
            break
        seat = GAME.to_act(s)[0]
        seq.append(GAME.to_act(s))
        legal = [
            a
            for a in GAME.legal_actions(s, seat)
            if not a.startswith("trick") and a != "token lie" and not a.endswith(" traitor")
        ]
        s, _ = GAME.apply(s, seat, legal[rnd.randrange(len(legal))] if rnd.random() < 0.7 else legal[-1])
    return seq


def test_edge_32_to_act_does_not_reveal_held_tricks() -> None:
    s = GAME.new(4, {"expansion": "on", "tricks": "3", "silver": "first"}, "quiet")
    bare = json.loads(json.dumps(s))
    bare["tricks"]["hand"] = []
    bare["tricks"]["points"] = 0
    a = _tricks_free_play(s, random.Random(9), 500)
    b = _tricks_free_play(bare, random.Random(9), 500)
    assert a == b and len(a) > 100


def _ai_game(players: int, map_id: str, seed: str, silver: str, pirates: str) -> State:
    s = GAME.new(players, {"map": map_id}, seed)
    rnd = random.Random(seed + "ai")
    while s["state"] != "over":
        seat = GAME.to_act(s)[0]
        level = silver if seat == s["silver"] else pirates
        legal = GAME.legal_actions(s, seat)
        action = GAME.ai_choose(GAME.view(s, seat), seat, legal, level, rnd)
        assert action in legal
        s, _ = GAME.apply(s, seat, action)
    return s


@pytest.mark.parametrize(
    ("players", "map_id", "level"),
    quick_first([(2, "treasure", "normal"), (4, "treasure", "normal"), (3, "revenge", "easy")], unpack=True),
)
def test_ai_plays_complete_games(players: int, map_id: str, level: str) -> None:
    s = _ai_game(players, map_id, f"ai-{players}-{map_id}", level, level)
    assert s["state"] == "over" and s["outcome"]["reason"] in ("found", "escaped", "provisions")


def test_ai_never_reads_hidden_state() -> None:
    """The AI gets the view; a pirate AI's choice is the same whatever the (unseen) treasure is."""
    s = GAME.new(4, {"silver": "first"}, "blind")
    s, _ = GAME.apply(s, 0, "bury 20,8")
    while s["state"] != "turn":
        s, _ = GAME.apply(
            s, 0, GAME.ai_choose(GAME.view(s, 0), 0, GAME.legal_actions(s, 0), "normal", random.Random(1))
        )
    seat = GAME.to_act(s)[0]
    other = scrambled(s)
    other["districts"] = s["districts"]
    a = GAME.ai_choose(GAME.view(s, seat), seat, GAME.legal_actions(s, seat), "normal", random.Random(3))
    b = GAME.ai_choose(GAME.view(other, seat), seat, GAME.legal_actions(other, seat), "normal", random.Random(3))
    assert a == b
    assert hashlib.sha256(canonical_json(GAME.view(s, None)).encode()).digest()
    assert H.CARDS
