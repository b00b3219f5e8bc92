"""Flagon: seeded playouts with invariants after every action (edge cases 33-35 of
docs/games/flagon.md#edge-cases-and-the-tests-that-cover-them), secrecy of plans and the
Navy, determinism across processes, pinned perft counts, and the AI's contract."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rules.core import canonical_json
from rules.flagon import GAME
from rules.flagon.board import xy
from rules.flagon.cards import deck
from rules.flagon.forces import barrel_at, standable
from rules.playout import ai_chooser
from tests.tiers import quick_first

ROOT = Path(__file__).resolve().parents[2]
SEED = "flagon-Kx81-playout"


def check_invariants(st: dict) -> None:
    # 35. every card in exactly one place
    for c in st["chars"]:
        if c["id"] is None:
            continue
        places = c["hand"] + c["queue"] + c["duration"] + c["used"]
        pend = st["pending"] or {}
        if pend.get("card") and pend["char"] == c["idx"]:
            places.append(pend["card"])  # revealed and resolving
        assert Counter(places) == Counter(deck(c["id"])), c["id"]
        assert c["rep"] >= 0
        assert c["dragon"] in ("locked", "unlocked", "used")
        assert (c["dragon"] == "used") == bool(c["used"])
    # 35. every object on a square, held, or removed; holders agree
    holders = {c["held"]: c["idx"] for c in st["chars"] if c["held"] is not None}
    assert len(holders) == len([c for c in st["chars"] if c["held"] is not None])
    kinds = Counter()
    for o in st["objects"]:
        kinds[o["kind"]] += 1
        if o["kind"] in ("table", "rug"):
            assert o["gone"] or any(standable(st, xy(s)) for s in o["sqs"])
            continue
        where = [o.get("sq") is not None, o.get("held") is not None, o["gone"]]
        assert sum(where) == 1, o
        if o.get("held") is not None:
            assert holders.get(o["id"]) == o["held"]
            assert o["kind"] in ("mug", "chair", "chest", "flagon")
        if o["kind"] == "flagon":
            assert not o["gone"]
        if o["kind"] == "barrel" and o["sq"]:
            assert st["chars"] and all(c["pos"] != o["sq"] for c in st["chars"])
    if st.get("map") == "tavern":
        assert kinds == Counter({"table": 4, "barrel": 4, "rug": 2, "chair": 8, "mug": 12, "flagon": 1})
        assert all(c["pos"] is not None for c in st["chars"] if c["id"] and st["phase"] not in ("pick", "start"))
        assert all(not o["gone"] for o in st["objects"] if o["kind"] in ("table", "barrel"))
    else:
        assert kinds == Counter({"table": 4, "barrel": 4, "rug": 2, "chair": 8, "mug": 10, "chest": 6, "flagon": 1})
    # one character per square, nobody on water, no barrel under a character
    squares = [c["pos"] for c in st["chars"] if c["pos"] is not None]
    assert len(squares) == len(set(squares))
    for s in squares:
        assert standable(st, xy(s)), s
        assert barrel_at(st, xy(s)) is None
    barrels = [o["sq"] for o in st["objects"] if o["kind"] == "barrel" and not o["gone"]]
    assert len(barrels) == len(set(barrels))
    # planning bookkeeping
    if st["phase"] in ("plan", "replan"):
        assert all(n >= 0 for n in st["owed"].values())


def check_step(state: dict, seat: int, action: str) -> tuple[dict, list]:
    before = canonical_json(state)
    after, events = GAME.apply(state, seat, action)
    assert canonical_json(state) == before, "apply mutated its input"
    dumped = json.loads(json.dumps(GAME.dump(after)))
    assert canonical_json(GAME.load(dumped)) == canonical_json(GAME.dump(after))
    public = json.dumps(GAME.view(after, None), ensure_ascii=False)
    secrets = GAME.secrets(after) + GAME.secrets(state)
    for secret in secrets:
        assert secret not in public, secret
        for e in events:
            assert secret not in (e.public or ""), (secret, e.public)
    assert '"queue"' not in public and '"hand"' not in public and SEED not in public
    check_invariants(after)
    if GAME.to_act(after):
        assert GAME.outcome(after) is None
        assert all(GAME.legal_actions(after, s) for s in GAME.to_act(after))
    return after, events


@pytest.mark.parametrize("players", quick_first([2, 4, 6, 8]))
def test_seeded_random_playouts_keep_every_invariant(players: int) -> None:
    for g in range(2):
        rnd = random.Random(f"{players}-{g}")
        options = {"setup": "draft" if g == 0 else "random", "length": "short"}
        st = GAME.new(players, options, f"{SEED}-{players}-{g}")
        check_invariants(st)
        for _ in range(5000):
            seats = GAME.to_act(st)
            if not seats:
                break
            seat = seats[rnd.randrange(len(seats))]  # simultaneous plans arrive in any order
            legal = GAME.legal_actions(st, seat)
            st, _ = check_step(st, seat, legal[rnd.randrange(len(legal))])
        assert st["phase"] == "over" and GAME.outcome(st) is not None


@pytest.mark.parametrize("players", quick_first([2, 4, 6, 8]))
def test_ai_playouts_end_with_a_result(players: int) -> None:
    levels = ["normal" if s % 2 == 0 else "easy" for s in range(players)]
    choose = ai_chooser(levels, f"{SEED}-ai")
    st = GAME.new(players, {}, f"{SEED}-ai-{players}")
    for _ in range(5000):
        seats = GAME.to_act(st)
        if not seats:
            break
        legal = GAME.legal_actions(st, seats[0])
        action = choose(GAME, st, seats[0], legal)
        assert action in legal
        st, _ = check_step(st, seats[0], action)
    out = GAME.outcome(st)
    assert out is not None and out.reason == "navy" and set(out.winners) <= set(range(players))
    assert len(out.scores) == players


def test_edge_33_views_hold_only_their_own_secrets() -> None:
    st = GAME.new(4, {"setup": "random", "crews": "seats"}, SEED)
    for seat in range(4):
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[3])
    public = GAME.view(st, None)
    assert all("hand" not in c and "queue" not in c for c in public["chars"])
    assert "navy" not in public and "seed" not in public and "rng_n" not in public
    assert sum(c["queued"] for c in public["chars"]) == 4  # how many are planned is public, not what
    mine = GAME.view(st, 0)
    my_crew = next(x["crew"] for x in mine["chars"] if x["seat"] == 0)
    for c in mine["chars"]:
        assert ("hand" in c) == (c["seat"] == 0)  # hands: only the seat's own characters
        assert ("queue" in c) == (c["crew"] == my_crew)  # queues: the whole crew plans together


def test_edge_33_plan_events_name_no_card_publicly() -> None:
    st = GAME.new(2, {"setup": "random"}, SEED)
    seat = GAME.to_act(st)[0]
    action = GAME.legal_actions(st, seat)[6]
    _, events = GAME.apply(st, seat, action)
    card = action.split()[2]
    assert all(card not in (e.public or "").lower() for e in events)
    assert any(card in text.lower() for e in events for text in e.private.values())


_DET = """
import hashlib, sys
from rules.core import canonical_json
from rules.flagon import GAME
from rules.playout import ai_chooser, play
for options in ({"length": "short"}, {"length": "short", "map": "tavern"}):
    state, n = play(GAME, 8, options, "det", ai_chooser(["normal", "easy"] * 4, "det-ai"))
    print(n, hashlib.sha256(canonical_json(GAME.dump(state)).encode()).hexdigest())
"""


def test_edge_34_determinism_across_processes() -> None:
    outs = set()
    for hash_seed in ("0", "977"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        res = subprocess.run(
            [sys.executable, "-c", _DET], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        outs.add(res.stdout.strip())
    assert len(outs) == 1


def _perft(st: dict, depth: int) -> int:
    if depth == 0 or not GAME.to_act(st):
        return 1
    seat = GAME.to_act(st)[0]
    return sum(_perft(GAME.apply(st, seat, a)[0], depth - 1) for a in GAME.legal_actions(st, seat))


def test_perft_pinned_counts() -> None:
    st = GAME.new(2, {"setup": "random", "crews": "seats"}, "perft")
    choose = ai_chooser(["normal", "normal"], "perft-ai")
    for _ in range(40):
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, choose(GAME, st, seat, GAME.legal_actions(st, seat)))
    counts = [_perft(st, d) for d in (1, 2, 3)]
    assert counts == PERFT


PERFT = [15, 225, 675]


def test_ai_only_picks_legal_actions_and_never_reads_hidden_plans() -> None:
    st = GAME.new(4, {"crews": "seats"}, SEED)
    rnd = random.Random(1)
    for _ in range(300):
        seats = GAME.to_act(st)
        if not seats:
            break
        seat = seats[0]
        legal = GAME.legal_actions(st, seat)
        view = GAME.view(st, seat)
        for c in view["chars"]:
            if c["crew"] != next(x["crew"] for x in view["chars"] if x["seat"] == seat):
                assert "queue" not in c
        action = GAME.ai_choose(view, seat, legal, "normal", rnd)
        assert action in legal
        st, _ = GAME.apply(st, seat, action)


def test_normal_crews_beat_easy_crews_in_a_small_sample() -> None:
    from rules.playout import play

    wins = 0
    for g in range(6):
        levels = ["normal", "easy"] * 2 if g % 2 == 0 else ["easy", "normal"] * 2
        st, _ = play(GAME, 4, {"crews": "seats", "length": "short"}, f"wr-{g}", ai_chooser(levels, f"wr-ai-{g}"))
        normal_crew = "west" if levels[0] == "normal" else "east"
        wins += st["result"]["winner"] == normal_crew
    assert wins >= 5


def test_timeout_default_is_the_first_option_and_harmless() -> None:
    st = GAME.new(2, {"setup": "random"}, SEED)
    seat = GAME.to_act(st)[0]
    assert GAME.timeout_action(st, seat) == GAME.legal_actions(st, seat)[0]
    assert GAME.timeout_action(st, seat).endswith(" step")


def test_draft_picks_then_starts_in_pick_sequence() -> None:
    st = GAME.new(4, {"crews": "seats"}, "draft")
    assert st["phase"] == "pick"
    first = st["first_crew"]
    order = [c["crew"] for c in st["chars"]]
    assert order[0] == first and order[1] != first and order[2] == first
    seat = GAME.to_act(st)[0]
    assert GAME.legal_actions(st, seat)[0] == "pick buccaneer"
    st, _ = GAME.apply(st, seat, "pick monk")
    starts = GAME.legal_actions(st, seat)
    assert starts == (
        ["start B9", "start B11", "start C12", "start E12"]
        if first == "west"
        else ["start N9", "start N11", "start M12", "start K12"]
    )
    st, _ = GAME.apply(st, seat, starts[1])
    assert "pick monk" not in GAME.legal_actions(st, GAME.to_act(st)[0])


def test_crew_split_for_every_player_count() -> None:
    expected = {2: (2, [2], [2]), 3: (2, [1, 1], [2]), 4: (4, [2, 2], [2, 2]), 5: (3, [1, 1, 1], [2, 1])}
    expected |= {6: (3, [1, 1, 1], [1, 1, 1]), 7: (4, [1, 1, 1, 1], [2, 1, 1]), 8: (4, [1] * 4, [1] * 4)}
    for players, (per_crew, west, east) in expected.items():
        st = GAME.new(players, {"crews": "seats", "setup": "random"}, "split")
        assert len(st["chars"]) == 2 * per_crew
        for crew, counts in (("west", west), ("east", east)):
            seats = st["crews"][crew]
            assert [sum(c["seat"] == s for c in st["chars"]) for s in seats] == counts


def test_perft_from_a_hand_built_reveal() -> None:
    from tests.rules.test_flagon_positions import position, run

    st = position([("monk", "west", "E6", "e"), ("rogue", "east", "G6", "w")], keep=("table1", "barrel1", "mug4"))
    st["chars"][1]["time"] = 3
    after, _ = run(st, 0, "move")
    # the Move's destinations, each followed by 8 facings; then the Monk owes its next plans (16 cards)
    assert [_perft(after, d) for d in (1, 2, 3)] == PERFT_MOVE


PERFT_MOVE = [39, 312, 4992]


def test_parse_label_group_undo_and_errors() -> None:
    from rules.core import IllegalAction
    from tests.rules.test_flagon_positions import position, run

    assert GAME.parse("  TO  h5 ") == "to H5"
    assert GAME.parse("Plan Monk Kick") == "plan monk kick"
    with pytest.raises(IllegalAction) as err:
        GAME.parse("   ")
    assert err.value.code == "bad_syntax"
    st = position([("monk", "west", "E6", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(st, 0, "move")
    view = GAME.view(after, 0)
    # issue 28: the label says the option once (the card is the heading: owed), the description what the card does
    assert GAME.label(view, "to E7") == "walk to E7" and GAME.label(view, "to E6") == "stay on E6"
    assert GAME.describe(view, "to E7") == "walk 3 points"
    owed = GAME.owed(GAME.view(after, None), 0)
    assert owed == "play out the Monk's Move: choose the square to walk to, then a facing"
    assert GAME.label(view, "plan monk kick") == "Kick (time 2)"
    assert GAME.describe(view, "plan monk kick") == "front arc: 1 damage + knockback 2, or roll a barrel"
    # a locked Dragon card is marked wherever cards are listed: the picker's label and description, /hand
    assert GAME.label(view, "plan monk dragon-kick") == "Dragon Kick (time 3) · Dragon, locked"
    assert GAME.describe(view, "plan monk dragon-kick").startswith("Fizzles until the Monk picks up the Flagon. ")
    locked = "• Dragon Kick (3): Dragon: jump 0-3 ahead, 3 dmg + knockback 3 — 🔒 locked: fizzles until it picks up"
    assert locked in GAME.private_summary(view, 0)
    unlocked = GAME.view(dict(after, chars=[dict(after["chars"][0], dragon="unlocked"), *after["chars"][1:]]), 0)
    assert GAME.label(unlocked, "plan monk dragon-kick") == "Dragon Kick (time 3)"
    assert "🔒" not in GAME.private_summary(unlocked, 0)
    assert GAME.group({}, "to E7") == "to row 7" and GAME.group({}, "plan monk kick") == "plan"
    assert GAME.undoable(after, 0, "to E7")  # the face step follows: nothing was revealed
    moved, _ = GAME.apply(after, 0, "to E7")
    assert not GAME.undoable(moved, 0, "face e")  # finishing the card draws the next character
    with pytest.raises(IllegalAction) as err:
        GAME.apply(after, 0, "fly to the moon")
    assert err.value.code == "bad_syntax"
    st = GAME.new(2, {"setup": "random"}, "undo")
    assert not GAME.undoable(st, GAME.to_act(st)[0], GAME.legal_actions(st, GAME.to_act(st)[0])[0])
    over = dict(st, phase="over")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(over, 0, "plan monk step")
    assert err.value.code == "game_over"
