"""The AI's challenge decision (docs/games/buccaneer.md#honour-and-the-challenge-window; issue 18): evidence from its
own view, weighed against its forfeit. It replaces an earlier seeded random rule, which challenged honest long moves."""

from __future__ import annotations

import random

from rules.buccaneer import GAME, doubt
from rules.core import State
from tests.rules.test_buccaneer_fixtures import THREE, make, play, put, rebalance, set_hand


def window(mover_hand: str, k: int, challenger_hand: str = "b2 b2 r1 r1 b1 r2") -> State:
    """Amsterdam (seat 0) holding ``mover_hand`` sails ``k`` east from F24; Cadiz (seat 1) is next to act."""
    s = make(THREE)
    set_hand(s, 1, challenger_hand)
    set_hand(s, 0, mover_hand)
    put(s, 0, "f24", "e")
    s, _ = play(s, 0, "sail e", f"go {k}", "face s", "confirm")
    assert s["challenge"] is not None and GAME.to_act(s) == [1]
    return s


def decisions(s: State, seat: int = 1) -> set[str]:
    legal = GAME.legal_actions(s, seat)
    assert "challenge" in legal
    return {GAME.ai_choose(GAME.view(s, seat), seat, legal, "normal", random.Random(i)) for i in range(20)}


def test_the_chance_of_a_short_hand_is_counted_exactly() -> None:
    # one card each of 1, 2 and 3: the pairs sum to 3, 4 and 5
    assert doubt.short_chance(1, 1, 1, 2, 4) == 1 / 3
    assert doubt.short_chance(1, 1, 1, 2, 6) == 1.0
    assert doubt.short_chance(1, 1, 1, 2, 3) == 0.0
    assert doubt.short_chance(24, 24, 24, 6, 6) == 0.0  # six cards are worth at least 6


def test_an_honest_long_move_on_a_strong_hand_is_not_challenged() -> None:
    """Six cards sailing 9 (any six cards are worth 6 to 18): the old rule challenged it 45% of the time."""
    s = window("b3 b2 b2 r1 r1 b1", 9)  # S0 = 10, honest
    assert "challenge" not in decisions(s)
    s = window("b3 b3 b3 r1", 9)  # four cards, exactly at their strength of 10 > 9: honest
    assert "challenge" not in decisions(s)


def test_a_move_far_beyond_any_likely_hand_is_challenged_and_caught() -> None:
    s = window("b1 r1 b1 r1 b2", 15)  # five cards sailing 15 need five 3s
    assert decisions(s) == {"challenge"}
    caught, events = play(s, 1, "challenge")
    assert caught["last"]["challenge"]["verdict"] == "exceeded"


def test_the_decision_reads_only_the_view_never_the_movers_hand() -> None:
    """Two tables that differ only in the mover's cards (same count) get the same decision."""
    for k in (5, 6, 7, 8, 9):
        weak = window("b1 r1 b1", k)
        strong = window("b3 r3 b3", k)
        assert GAME.view(weak, 1) == GAME.view(strong, 1)
        assert decisions(weak) == decisions(strong)


def test_cards_seen_face_up_are_not_in_the_movers_hand() -> None:
    """With most 3s lying face up in the Docks, a three-card move of 7 is likelier a bluff than without."""
    plain = window("b1 r1 b1", 7)
    assert doubt.bluff_chance(GAME.view(plain, 1)) < 0.5
    s = window("b1 r1 b1", 7)
    for h in s["harbours"].values():
        h["docks"]["crew"] = dict.fromkeys(h["docks"]["crew"], 0)
    s["harbours"]["bristol"]["docks"]["crew"].update(b3=9, r3=9)
    rebalance(s)
    assert doubt.bluff_chance(GAME.view(s, 1)) > doubt.bluff_chance(GAME.view(plain, 1))


def test_the_forfeit_at_risk_counts_and_a_challenger_with_nothing_still_needs_evidence() -> None:
    s = window("b1 r1 b1", 7, challenger_hand="b1 r1")
    assert doubt.forfeit_cost(GAME.view(s, 1), 1) == 1
    s = window("b1 r1 b1", 7, challenger_hand="b3 r1")
    assert doubt.forfeit_cost(GAME.view(s, 1), 1) == 3
    s = window("b1 r1 b1", 4, challenger_hand="")
    assert doubt.forfeit_cost(GAME.view(s, 1), 1) == 0
    assert not doubt.worth_challenging(GAME.view(s, 1), 1)  # three cards sailing 4: honest nearly always
