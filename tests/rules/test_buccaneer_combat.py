"""Fights at sea: edge cases 8, 9 and 11 of docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them, and the
combat reveal (docs/games/buccaneer.md#fights, docs/games/buccaneer.md#hidden-information)."""

from __future__ import annotations

import json

from rules.buccaneer import GAME
from tests.rules.test_buccaneer_fixtures import (
    THREE,
    check_invariants,
    give_hold,
    make,
    play,
    public_text,
    put,
    set_hand,
    top_cards,
)


def _fight(winner_hand: str, loser_hand: str):
    """Amsterdam (seat 0) sails from M20 onto Cadiz at M18 and attacks."""
    s = make(THREE)
    set_hand(s, 0, winner_hand)
    set_hand(s, 1, loser_hand)
    put(s, 0, "m20", "s")
    put(s, 1, "m18", "e")
    return s


def test_edge_08_spoils_options_only_when_they_yield_something() -> None:
    s = _fight("b3 b3 b3", "r1")
    give_hold(s, 1, "pearl")
    s, _ = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm")
    assert GAME.legal_actions(s, 0) == ["spoils treasure", "spoils crew 1"]  # one card: crew 1 only
    # no treasure and no crew aboard the loser: no spoils step at all
    s = _fight("b3 b3 b3", "")
    s, events = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm")
    assert s["stack"][-1]["kind"] == "FREE_MOVE" and GAME.to_act(s) == [1]


def test_edge_08_a_full_hold_returns_the_surplus_of_the_winners_choice() -> None:
    s = _fight("b3 b3 b3", "r1 r2")
    give_hold(s, 0, "rum", "pearl")
    give_hold(s, 1, "diamond", "gold")
    ti = dict(s["treasure_island"])
    s, _ = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm", "spoils treasure")
    assert s["players"][0]["ship"]["hold"] == ["diamond", "gold", "pearl", "rum"]
    assert GAME.legal_actions(s, 0) == ["return diamond", "return gold", "return pearl", "return rum"]
    check_invariants(s)  # four aboard is allowed only while RETURN is owed
    s, _ = play(s, 0, "return rum")
    assert GAME.legal_actions(s, 0) == ["return diamond", "return gold", "return pearl"]
    s, _ = play(s, 0, "return gold")
    assert s["players"][0]["ship"]["hold"] == ["diamond", "pearl"]
    assert s["treasure_island"]["rum"] == ti["rum"] + 1 and s["treasure_island"]["gold"] == ti["gold"] + 1
    assert GAME.to_act(s) == [1]  # the loser's free move follows
    check_invariants(s)


def test_edge_09_the_losers_crew_come_from_the_hand_only() -> None:
    s = _fight("b3 b3 b3", "r1 r2 r3")
    s["harbours"]["cadiz"]["docks"]["crew"]["b3"] = 2
    s["pirate_pile"].remove("b3")
    s["pirate_pile"].remove("b3")
    s, _ = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm", "spoils crew 2")
    assert GAME.to_act(s) == [1]
    assert GAME.legal_actions(s, 1) == ["give r1", "give r2", "give r3"]
    s, events = play(s, 1, "give r3", "give r2")
    assert s["players"][0]["hand"]["r3"] == 1 and s["players"][0]["hand"]["r2"] == 1
    assert s["harbours"]["cadiz"]["docks"]["crew"]["b3"] == 2
    text = public_text(events)
    assert "gives 2 crew" in text and "R3" not in text  # the cards are named only to the two players
    assert any("R3" in e.private.get(0, "") for e in events)
    check_invariants(s)


def test_edge_09_a_loser_with_two_cards_gives_both_at_once() -> None:
    s = _fight("b3 b3 b3", "r1 r2")
    s, _ = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm", "spoils crew 2")
    assert s["players"][1]["hand"]["r1"] == 0 and s["players"][1]["hand"]["r2"] == 0
    assert s["stack"][-1]["kind"] == "FREE_MOVE"


def test_edge_11_attack_on_the_coast_settles_first_then_the_mover_draws() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 b3 b3")
    set_hand(s, 1, "r1 r1 b1")  # FS 1
    put(s, 0, "m18", "s")
    put(s, 1, "m15", "w")
    top_cards(s, 15, 28)
    s, events = play(s, 0, "sail s", "go 3 attack cadiz", "face w", "confirm")
    assert "draws" not in public_text(events)  # nothing drawn before the fight is settled
    s, _ = play(s, 0, "spoils crew 1")
    s, _ = play(s, 1, "give b1")
    assert GAME.to_act(s) == [1]
    s, events = play(s, 1, "sail w", "go 1", "face w", "confirm")  # the loser's free move ends on L15
    text = public_text(events)
    assert text.index("Cadiz draws chance card 15") < text.index("Amsterdam draws chance card 28")
    assert s["chance_pile"][-2:] == [15, 28]


def test_edge_11_an_interceptor_never_draws_for_the_fight() -> None:
    s = make(THREE)
    set_hand(s, 0, "r1 r1 b1")  # FS 1, the mover
    set_hand(s, 1, "b3 b3 b3")  # the interceptor, on the coast at L15
    put(s, 0, "j15", "e")
    put(s, 1, "l15", "w")
    pile = list(s["chance_pile"])
    s, _ = play(s, 0, "sail e", "go 4", "face e", "confirm")
    assert GAME.to_act(s) == [1]
    s, _ = play(s, 1, "attack", "spoils crew 1")
    s, _ = play(s, 0, "give b1")
    s, _ = play(s, 0, "sail n", "go 2", "face n", "confirm")  # the loser's free move off the coast
    assert s["chance_pile"] == pile and s["last"]["chance"] is None
    assert s["players"][1]["ship"]["at"] == "l15" and s["turn"]["seat"] == 1


def test_combat_reveal_goes_only_to_the_two_combatants() -> None:
    s = _fight("b3 b3 b3", "r1 r2")
    s, events = play(s, 0, "sail s", "go 2 attack cadiz", "face e", "confirm")
    public = json.dumps(GAME.view(s, None))
    assert "opponent_hand" not in public
    assert GAME.view(s, 0)["you"]["combat"]["opponent_hand"]["r2"] == 1
    assert GAME.view(s, 1)["you"]["combat"]["their_fs"] == 9
    assert GAME.view(s, 2)["you"]["combat"] is None
    fight = next(e for e in events if "attacked" in (e.public or ""))
    assert fight.public == "Amsterdam attacked Cadiz at M18: Amsterdam wins"
    assert set(fight.private) == {0, 1} and "9" not in fight.public
