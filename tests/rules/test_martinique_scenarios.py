"""Martinique scenario tests from hand-built positions: one test (or more) per numbered edge case of
docs/games/martinique.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

import json
import random

import pytest

from rules.core import IllegalAction, canonical_json
from rules.martinique import GAME
from rules.martinique.board import BEACH, HOOK, INDEX, SCROLL, SQUARES

BLACK, RED = 0, 1


def fresh(seed: str = "scenario", **options: str) -> dict:
    return GAME.new(2, options, seed)


def bare(seed: str = "scenario", **options: str) -> dict:
    """A Sunrise position with an empty island (no tiles, no pirates), both supplies full, Black to act."""
    s = fresh(seed, **options)
    s["island"] = [None] * 64
    return s


def put(s: dict, sq: str, tile: str | None = None, pirate: int | None = None) -> None:
    s["island"][INDEX[sq]] = tile
    s["pirates"][INDEX[sq]] = pirate


def land(s: dict, seat: int, pub: int = 0) -> None:
    """Take pirates out of ``seat``'s supply: the ones on the island plus ``pub`` seated in the pub."""
    on_island = s["pirates"].count(seat)
    s["players"][seat]["supply"] = 4 - on_island - pub
    for _ in range(pub):
        s["pub"][s["pub"].index(None)] = seat


def give_maps(s: dict, seat: int, *ids: str, revealed: bool = False) -> None:
    for x in ids:
        s["players"][seat]["maps"].append({"id": f"map:{x}", "revealed": revealed})


def play(s: dict, seat: int, action: str) -> tuple[dict, list]:
    before = canonical_json(s)
    after, events = GAME.apply(s, seat, action)
    assert canonical_json(s) == before, "apply mutated its input"
    return after, events


def publics(events: list) -> list[str]:
    return [e.public for e in events if e.public]


def moves(s: dict, seat: int = BLACK) -> list[str]:
    return [a for a in GAME.legal_actions(s, seat) if a.startswith("move")]


# -- 1 -----------------------------------------------------------------------------------------------------------


def test_edge_01_setup_counts_map_split_scroll_order_and_first_player() -> None:
    seed = "setup-seed"
    s = fresh(seed)
    island = s["island"]
    artifacts = [t for t in island if t and not t.startswith("map:")]
    maps = [t for t in island if t and t.startswith("map:")]
    assert len(artifacts) == 48 and len(maps) == 12
    assert sum(len(v) for v in s["chests"].values()) == 9 and len(s["bag"]) == 39
    assert [len(s["chests"][c]) for c in ("chest2", "chest3", "chest4")] == [2, 3, 4]
    assert s["hook"]["jokers"] == 3 and len(s["hook"]["maps"]) == 2
    four = [t[4:] for t in s["lost"] + s["hook"]["maps"]]
    assert sorted(x.isalpha() for x in four) == [False, False, True, True]
    assert s["lost"][0][4:].isalpha() and s["lost"][1][4:].isdigit()
    every = sorted(maps + s["hook"]["maps"] + s["lost"])
    assert len(set(every)) == 16
    assert all(island[i] is None for i in HOOK)
    assert all(island[i].startswith("map:") for i in SCROLL)
    # replay the documented shuffles: the scroll squares get the shuffled list in index order
    letters, numbers = list("ABCDEFGH"), list("12345678")
    random.Random(f"{seed}:0").shuffle(letters)
    random.Random(f"{seed}:1").shuffle(numbers)
    rest = [f"map:{x}" for x in letters[2:] + numbers[2:]]
    random.Random(f"{seed}:3").shuffle(rest)
    assert [island[i] for i in SCROLL] == rest
    assert s["lost"] == [f"map:{letters[0]}", f"map:{numbers[0]}"]
    assert s["rng_n"] == 5
    assert GAME.to_act(s) == [BLACK] and s["step"] == "turn"


# -- 2 -----------------------------------------------------------------------------------------------------------


def test_edge_02_placement_only_on_free_beach_squares_holding_a_tile() -> None:
    s = fresh()
    s["island"][INDEX["B1"]] = None  # a beach square whose tile is gone
    s["pirates"][INDEX["C1"]] = RED
    places = [a for a in GAME.legal_actions(s, BLACK) if a.startswith("place")]
    expected = [f"place {SQUARES[i]}" for i in BEACH if SQUARES[i] not in ("B1", "C1")]
    assert places == expected
    for bad, reason in (("C3", "not a beach"), ("D4", "not a beach"), ("B1", "no tile"), ("C1", "holds a pirate")):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, BLACK, f"place {bad}")
        assert err.value.code == "illegal" and reason in err.value.message
    after, events = play(s, BLACK, "place A6")
    assert after["pirates"][INDEX["A6"]] == BLACK and after["players"][BLACK]["supply"] == 3
    assert after["island"][INDEX["A6"]] == s["island"][INDEX["A6"]]  # nothing collected
    assert publics(events) == ["Black places a pirate on A6."]
    assert GAME.to_act(after) == [RED]


# -- 3 -----------------------------------------------------------------------------------------------------------


def test_edge_03_move_after_threshold_pub_counts_and_values_1_and_4() -> None:
    s = fresh()
    put(s, "A1", "rum:1", BLACK)
    put(s, "H1", "rum:1", BLACK)
    land(s, BLACK)
    assert moves(s) == []
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move A1 A2")
    assert "only 2 pirates landed; Move unlocks at 3" in err.value.message
    land(s, BLACK, pub=1)  # a pirate in the pub still counts as landed
    assert "move A1 A2" in moves(s)
    one = fresh(move_after="1")
    put(one, "A1", "rum:1", BLACK)
    land(one, BLACK)
    assert moves(one) == ["move A1 B1", "move A1 A2"]
    four = fresh(move_after="4")
    for sq in ("A1", "C1", "E1"):
        put(four, sq, "rum:1", BLACK)
    land(four, BLACK)
    assert moves(four) == []
    put(four, "G1", "rum:1", BLACK)
    land(four, BLACK)
    assert moves(four)


# -- 4 -----------------------------------------------------------------------------------------------------------


def test_edge_04_movement_value_map_tile_is_1_artifact_is_its_value() -> None:
    s = bare(move_after="1")
    put(s, "A1", "map:C", BLACK)
    land(s, BLACK)
    assert moves(s) == ["move A1 B1", "move A1 A2"]
    s = bare(move_after="1")
    put(s, "A1", "skull:3", BLACK)
    land(s, BLACK)
    assert {a.split()[2] for a in moves(s)} == {"D1", "C2", "B3", "A4", "B1", "A2"}


# -- 5 -----------------------------------------------------------------------------------------------------------


def test_edge_05_paths_exact_orthogonal_inside_no_square_twice() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:2", BLACK)
    land(s, BLACK)
    # A1-A2-A3, A1-A2-B2, A1-B1-B2 (same action as the last but one), A1-B1-C1; never back to A1
    assert moves(s) == ["move A1 C1", "move A1 B2", "move A1 A3"]
    for bad in ("move A1 A1", "move A1 B1", "move A1 D1", "move A1 C3"):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(s, BLACK, bad)
        assert err.value.code == "illegal"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move A1 B1")
    assert "must walk exactly 2 squares" in err.value.message
    three = bare(move_after="1")
    put(three, "B2", "rum:3", BLACK)
    land(three, BLACK)
    ends = {a.split()[2] for a in moves(three)}
    assert "B1" in ends and "A2" in ends and "B5" in ends and "E2" in ends  # B2-A2-A1-B1 turns back beside the start
    assert all((abs(INDEX[e] % 8 - 1) + abs(INDEX[e] // 8 - 1)) % 2 == 1 for e in ends)


# -- 6 -----------------------------------------------------------------------------------------------------------


def test_edge_06_end_never_on_a_pirate_middles_may_hold_anything() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:2", BLACK)
    put(s, "A2", "key:1", BLACK)
    put(s, "B1", "key:1", RED)
    put(s, "A3", "key:1", BLACK)
    put(s, "C1", "key:1", RED)
    land(s, BLACK)
    land(s, RED)
    assert [a for a in moves(s) if a.startswith("move A1")] == ["move A1 B2", "move A1 B2 via B1"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move A1 C1 via B1")
    assert "C1 holds a pirate: a move cannot end there" in err.value.message
    hook = bare(move_after="1")
    put(hook, "C4", "rum:2", BLACK)
    land(hook, BLACK)
    assert "move C4 E4" in moves(hook)  # over D4, a Hook square, onto E4
    assert "move C4 A4" in moves(hook)  # over B4, an empty square


# -- 7 -----------------------------------------------------------------------------------------------------------


def test_edge_07_distinct_via_lists_are_distinct_actions_same_via_is_one() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:2", BLACK)
    put(s, "B1", "key:1", RED)
    land(s, BLACK)
    land(s, RED)
    assert moves(s) == ["move A1 C1 via B1", "move A1 B2", "move A1 B2 via B1", "move A1 A3"]
    s2 = bare(move_after="1")
    put(s2, "A1", "rum:2", BLACK)
    land(s2, BLACK)
    assert moves(s2).count("move A1 B2") == 1  # two paths, one action
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move A1 C1")
    assert "`move A1 C1 via B1`" in err.value.message


# -- 8 / 9 / 10 --------------------------------------------------------------------------------------------------


def _passing_position(red_hidden: tuple[str, ...], red_revealed: tuple[str, ...] = (), two: bool = False) -> dict:
    s = bare(move_after="1")
    put(s, "A1", "rum:3" if two else "rum:2", BLACK)
    put(s, "B1", "key:1", RED)
    if two:
        put(s, "C1", "key:2", RED)
    put(s, "E8", "skull:1", RED)
    land(s, BLACK)
    land(s, RED)
    give_maps(s, RED, *red_hidden)
    give_maps(s, RED, *red_revealed, revealed=True)
    return s


def test_edge_08_reveal_lapses_with_no_hidden_map() -> None:
    s = _passing_position(())
    after, events = play(s, BLACK, "move A1 C1 via B1")
    assert "Red has no hidden map tile to reveal." in publics(events)
    assert after["step"] == "turn" and GAME.to_act(after) == [RED]
    assert after["pirates"][INDEX["C1"]] is None  # C1 had no tile: to the pub
    assert after["pub"][0] == BLACK


def test_edge_08_reveal_automatic_when_owed_covers_all_hidden() -> None:
    s = _passing_position(("4",))
    after, events = play(s, BLACK, "move A1 C1 via B1")
    # Red did not choose: the line is the game's, and Red hears privately that its tile went (issue 28)
    line = next(e for e in events if e.public == "Red's map tile 4 is turned face up (passed at B1).")
    assert line.actor == "game"
    assert line.private == {RED: "Black passed your pirate at B1: your map tile 4 is now face up."}
    assert after["players"][RED]["maps"] == [{"id": "map:4", "revealed": True}]
    assert after["step"] == "turn"


def test_edge_08_opponent_chooses_when_it_has_more_hidden_tiles() -> None:
    s = _passing_position(("4", "B"))
    after, events = play(s, BLACK, "move A1 C1 via B1")
    assert after["step"] == "reveal" and GAME.to_act(after) == [RED]
    assert GAME.legal_actions(after, RED) == ["reveal B", "reveal 4"]
    assert GAME.legal_actions(after, BLACK) == []
    assert after["pirates"][INDEX["A1"]] == BLACK and after["island"][INDEX["A1"]] == "rum:2"  # nothing else yet
    view = GAME.view(after, None)
    assert view["pending"] == {"mover": BLACK, "reveals_owed": 1, "from": "A1", "to": "C1", "via": ["B1"]}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(after, BLACK, "done")
    assert err.value.code == "not_your_turn" and err.value.message == "It is not your turn: waiting for Red (seat 2)."
    done, events = play(after, RED, "reveal 4")
    assert publics(events)[0] == "Red reveals map tile 4 (passed at B1)."
    assert done["players"][BLACK]["collection"] == ["rum:2"] and done["pub"][0] == BLACK
    assert done["step"] == "turn" and GAME.to_act(done) == [RED]


def test_edge_09_two_opponents_passed_owe_two_own_pirates_owe_nothing() -> None:
    s = _passing_position(("4", "B", "C"), two=True)
    after, _ = play(s, BLACK, "move A1 D1 via B1 C1")
    assert after["step"] == "reveal" and after["pending"]["owed"] == 2
    after, events = play(after, RED, "reveal C")
    assert publics(events) == ["Red reveals map tile C (passed at B1)."]
    assert after["step"] == "reveal"
    after, events = play(after, RED, "reveal 4")
    assert publics(events)[0] == "Red reveals map tile 4 (passed at C1)."
    assert after["step"] == "turn"
    own = bare(move_after="1")
    put(own, "A1", "rum:2", BLACK)
    put(own, "B1", "key:1", BLACK)
    give_maps(own, RED, "4", "B")
    land(own, BLACK)
    assert "move A1 C1" in moves(own)
    after, _ = play(own, BLACK, "move A1 C1")
    assert after["step"] == "turn" and not any(m["revealed"] for m in after["players"][RED]["maps"])


def test_edge_10_revealed_tiles_stay_revealed_and_never_count_again() -> None:
    s = _passing_position(("4",), red_revealed=("B",))
    assert GAME.view(s, None)["players"][RED]["maps_revealed"] == ["B"]
    after, events = play(s, BLACK, "move A1 C1 via B1")
    assert "Red's map tile 4 is turned face up (passed at B1)." in publics(events)  # automatic: only one hidden
    assert all(m["revealed"] for m in after["players"][RED]["maps"])
    assert GAME.view(after, None)["players"][RED]["maps_revealed"] == ["B", "4"]


# -- 11 / 12 -----------------------------------------------------------------------------------------------------


def test_edge_11_start_tile_collected_map_tile_private_to_collector() -> None:
    s = bare(move_after="1")
    put(s, "A1", "map:C", BLACK)
    put(s, "A2", "rum:2")
    land(s, BLACK)
    after, events = play(s, BLACK, "move A1 A2")
    assert after["island"][INDEX["A1"]] is None
    assert after["players"][BLACK]["maps"] == [{"id": "map:C", "revealed": False}]
    collect = [e for e in events if e.public == "Black takes a map tile from A1."]
    assert collect and collect[0].private == {BLACK: "Your map tile from A1 is C."}
    public = GAME.view(after, None)
    assert public["players"][BLACK]["maps_hidden"] == 1 and "private" not in public
    assert GAME.view(after, BLACK)["private"]["maps"] == ["C"]
    assert GAME.view(after, RED)["private"]["maps"] == []
    assert after["pirates"][INDEX["A2"]] == BLACK  # landed on a tile: stays on the island


def test_edge_12_landing_tile_stays_sand_and_hook_go_to_lowest_free_pub_seat() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:1", BLACK)
    land(s, BLACK)
    s["pub"][0] = RED
    after, events = play(s, BLACK, "move A1 B1")
    assert after["pub"][:2] == [RED, BLACK] and BLACK not in after["pirates"]
    assert "Black's pirate ends on B1 (bare sand) and takes pub seat 2." in publics(events)
    hook = bare(move_after="1")
    put(hook, "C4", "rum:1", BLACK)
    land(hook, BLACK)
    hook["hook"] = {"maps": [], "jokers": 0}
    after, events = play(hook, BLACK, "move C4 D4")
    assert after["pub"][0] == BLACK and after["pirates"][INDEX["D4"]] is None
    assert "Black's pirate ends on D4 (The Hook) and takes pub seat 1." in publics(events)


# -- 13 ----------------------------------------------------------------------------------------------------------


def _hook_move(maps: list[str], jokers: int) -> tuple[dict, list]:
    s = bare(move_after="1")
    put(s, "C4", "rum:1", BLACK)
    land(s, BLACK)
    s["hook"] = {"maps": maps, "jokers": jokers}
    s["chests"] = {"chest2": [], "chest3": [], "chest4": []}
    s["bag"] = []
    return play(s, BLACK, "move C4 D4")


def test_edge_13_hook_reward_choice_automatic_or_nothing() -> None:
    after, _ = _hook_move(["map:6", "map:B"], 3)
    assert after["step"] == "hook" and GAME.legal_actions(after, BLACK) == ["take joker", "take map"]
    taken, events = play(after, BLACK, "take map")
    assert taken["players"][BLACK]["maps"] == [{"id": "map:6", "revealed": False}]  # first of the hidden list
    assert taken["hook"] == {"maps": ["map:B"], "jokers": 3}
    assert events[0].public == "Black takes a map tile from The Hook." and events[0].private == {
        BLACK: "The Hook map tile is 6."
    }
    joker, _ = play(after, BLACK, "take joker")
    assert joker["players"][BLACK]["jokers"] == 1 and joker["hook"]["jokers"] == 2
    only_jokers, events = _hook_move([], 2)
    assert only_jokers["players"][BLACK]["jokers"] == 1 and "Black takes a joker from The Hook." in publics(events)
    only_map, _ = _hook_move(["map:6"], 0)
    assert only_map["players"][BLACK]["maps"][0]["id"] == "map:6" and only_map["step"] == "turn"
    empty, events = _hook_move([], 0)
    assert empty["players"][BLACK]["maps"] == [] and empty["players"][BLACK]["jokers"] == 0
    assert empty["step"] == "turn"


# -- 14 - 19: claims ---------------------------------------------------------------------------------------------


def _claim_position(collection: list[str], jokers: int, chests: dict[str, list[str]], bag: list[str] | None = None):
    s = bare(move_after="1")
    put(s, "A1", "telescope:1", BLACK)
    land(s, BLACK)
    s["players"][BLACK]["collection"] = list(collection)
    s["players"][BLACK]["jokers"] = jokers
    s["chests"] = {"chest2": [], "chest3": [], "chest4": []} | chests
    if bag is not None:
        s["bag"] = list(bag)
    return play(s, BLACK, "move A1 B1")  # collects telescope:1, goes to the pub


def test_edge_14_claims_match_types_as_multiset_jokers_cover_any_type() -> None:
    after, _ = _claim_position(["rum:3"], 1, {"chest2": ["rum:1", "rum:2"]})
    assert GAME.legal_actions(after, BLACK) == ["claim chest2 joker rum", "done"]
    after, _ = _claim_position(["rum:3", "rum:1"], 2, {"chest2": ["rum:1", "rum:2"]})
    assert GAME.legal_actions(after, BLACK) == [
        "claim chest2",
        "claim chest2 joker rum",
        "claim chest2 joker rum rum",
        "done",
    ]
    after, _ = _claim_position([], 3, {"chest3": ["key:1", "skull:2", "key:3"]})
    assert GAME.legal_actions(after, BLACK) == ["claim chest3 joker skull key key", "done"]
    claimed, events = play(after, BLACK, "claim chest3 joker key skull key")  # parse sorts the types
    assert claimed["players"][BLACK]["jokers"] == 0 and claimed["discarded"] == ["joker"] * 3
    assert claimed["players"][BLACK]["ship"] == [["skull:2", "key:1", "key:3"]]
    assert publics(events)[0] == (
        "Black claims chest3 with 3 jokers for skull, key, key → ship stack 1: skull:2 key:1 key:3 (6 points)."
    )
    # values never matter: a telescope:1 covers a telescope:3
    after, _ = _claim_position([], 0, {"chest2": ["telescope:3"]})
    assert GAME.legal_actions(after, BLACK) == ["claim chest2", "done"]


def test_edge_15_claims_optional_and_skipped_when_impossible() -> None:
    after, _ = _claim_position(["rum:3"], 0, {"chest2": ["rum:1", "key:2"]})
    assert after["step"] == "turn" and GAME.to_act(after) == [RED]
    after, _ = _claim_position(["rum:3", "key:1"], 0, {"chest2": ["rum:1", "key:2"]})
    assert after["step"] == "claim" and GAME.legal_actions(after, BLACK)[-1] == "done"
    passed, _ = play(after, BLACK, "done")
    assert passed["step"] == "turn" and passed["players"][BLACK]["ship"] == []
    assert GAME.timeout_action(after, BLACK) == "done"


def test_edge_16_two_chests_two_stacks_claimed_chest_empty_until_step_end() -> None:
    after, _ = _claim_position(
        ["rum:3", "key:1", "skull:2"], 0, {"chest2": ["rum:1"], "chest3": ["key:2", "skull:1"]}, bag=["parrot:1"] * 9
    )
    one, _ = play(after, BLACK, "claim chest2")
    assert one["step"] == "claim" and one["chests"]["chest2"] == []
    assert GAME.legal_actions(one, BLACK) == ["claim chest3", "done"]
    two, events = play(one, BLACK, "claim chest3")
    assert two["players"][BLACK]["ship"] == [["rum:1"], ["skull:1", "key:2"]]
    assert two["step"] == "turn"
    assert two["chests"] == {"chest2": ["parrot:1"] * 2, "chest3": ["parrot:1"] * 3, "chest4": ["parrot:1"] * 4}
    assert publics(events)[-3:] == [
        "chest2 refilled: parrot:1 parrot:1.",
        "chest3 refilled: parrot:1 parrot:1 parrot:1.",
        "chest4 refilled: parrot:1 parrot:1 parrot:1 parrot:1.",
    ]


def test_edge_17_refill_order_bag_exhaustion_partial_and_empty_chests() -> None:
    after, _ = _claim_position(["rum:3", "key:1"], 0, {"chest2": ["rum:1"], "chest3": ["key:2"]}, bag=["musket:2"] * 3)
    assert GAME.legal_actions(after, BLACK) == ["claim chest2", "claim chest3", "done"]  # partial chests claimable
    one, _ = play(after, BLACK, "claim chest2")
    two, events = play(one, BLACK, "claim chest3")
    assert two["chests"] == {"chest2": ["musket:2", "musket:2"], "chest3": ["musket:2"], "chest4": []}
    assert two["bag"] == []
    assert "The bag is empty: chest3 holds 1 of 3 tiles." in publics(events)
    assert "The bag is empty: chest4 holds 0 of 4 tiles." in publics(events)
    # an empty chest is never claimable, even with jokers
    after, _ = _claim_position([], 3, {}, bag=[])
    assert after["step"] == "turn"


def test_edge_18_claim_tiles_leave_the_game_earliest_collected_first() -> None:
    after, _ = _claim_position(["rum:3", "skull:1", "rum:1"], 0, {"chest2": ["rum:2"]}, bag=[])
    claimed, _ = play(after, BLACK, "claim chest2")
    assert claimed["players"][BLACK]["collection"] == ["skull:1", "rum:1", "telescope:1"]
    assert claimed["discarded"] == ["rum:3"] and claimed["bag"] == []


def test_edge_19_joker_from_the_hook_usable_in_the_same_claim_step() -> None:
    s = bare(move_after="1")
    put(s, "C4", "rum:1", BLACK)
    land(s, BLACK)
    s["hook"] = {"maps": [], "jokers": 3}
    s["chests"] = {"chest2": ["parrot:3"], "chest3": [], "chest4": []}
    after, _ = play(s, BLACK, "move C4 D4")
    assert after["players"][BLACK]["jokers"] == 1 and after["step"] == "claim"
    assert GAME.legal_actions(after, BLACK) == ["claim chest2 joker parrot", "done"]


# -- 20 / 21 / 22 ------------------------------------------------------------------------------------------------


def test_edge_20_retire_only_when_stuck_collects_and_may_claim() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:1", BLACK)
    put(s, "A2", "key:1", RED)
    put(s, "B1", "key:1", RED)
    put(s, "H8", "key:2")
    s["chests"] = {"chest2": ["rum:2"], "chest3": [], "chest4": []}
    land(s, RED)
    land(s, BLACK)
    assert GAME.legal_actions(s, BLACK)[0].startswith("place")  # supply left and beach squares free: no retire
    s["players"][BLACK]["supply"] = 0
    s["pub"][:3] = [BLACK] * 3
    assert GAME.legal_actions(s, BLACK) == ["retire A1"]
    with pytest.raises(IllegalAction):
        GAME.apply(s, BLACK, "retire supply")
    after, events = play(s, BLACK, "retire A1")
    assert after["players"][BLACK]["collection"] == ["rum:1"] and after["pub"][3] == BLACK
    assert publics(events) == [
        "Black has no legal place or move: the pirate on A1 takes rum:1 from A1 and goes to pub seat 4."
    ]
    assert after["step"] == "claim"
    stuck = bare()
    put(stuck, "A1", "rum:1", BLACK)
    put(stuck, "B1", "rum:1", BLACK)  # no Move yet (2 landed < 3) and no free beach tile
    land(stuck, BLACK)
    assert GAME.legal_actions(stuck, BLACK) == ["retire A1", "retire B1", "retire supply"]
    after, events = play(stuck, BLACK, "retire supply")
    assert after["players"][BLACK]["supply"] == 1 and after["pub"][0] == BLACK
    assert after["players"][BLACK]["collection"] == [] and after["step"] == "turn"


def test_edge_21_seat_with_everyone_in_the_pub_is_skipped() -> None:
    s = bare(move_after="1")
    put(s, "A1", "rum:1", RED)
    put(s, "C3", "rum:1", BLACK)
    land(s, BLACK, pub=3)
    land(s, RED, pub=3)
    after, events = play(s, BLACK, "move C3 C2")  # bare sand: Black's last pirate sits down
    assert GAME.to_act(after) == [RED]
    s2 = bare(move_after="1")
    put(s2, "A1", "rum:1", RED)
    put(s2, "A3", "rum:1", RED)
    land(s2, BLACK, pub=4)
    land(s2, RED, pub=2)
    s2["turn_seat"] = RED
    after, events = play(s2, RED, "move A1 B1")
    assert "Black has no pirates left to play; Red plays again." in publics(events)
    assert GAME.to_act(after) == [RED]


def test_edge_22_sunrise_ends_after_the_last_turn_finishes_then_tiles_vanish() -> None:
    s = bare(move_after="1")
    put(s, "C4", "rum:1", BLACK)
    put(s, "H8", "map:5")
    put(s, "G8", "key:2")
    land(s, BLACK, pub=3)
    land(s, RED, pub=4)
    s["hook"] = {"maps": ["map:B", "map:6"], "jokers": 3}
    s["chests"] = {"chest2": ["rum:3"], "chest3": ["key:1"], "chest4": []}
    s["players"][BLACK]["collection"] = ["key:3"]
    after, _ = play(s, BLACK, "move C4 D4")
    assert after["step"] == "hook" and after["phase"] == "sunrise"
    after, _ = play(after, BLACK, "take joker")
    assert after["step"] == "claim" and after["phase"] == "sunrise"
    after, _ = play(after, BLACK, "claim chest3")
    assert after["step"] == "claim"
    after, events = play(after, BLACK, "done")
    assert after["phase"] == "sunset" and after["step"] == "dig"
    assert all(t is None for t in after["island"])
    assert after["hook"] == {"maps": [], "jokers": 0}
    assert all(v == [] for v in after["chests"].values())
    assert "map:5" in after["removed"] and "map:B" in after["removed"]
    for seat in (None, BLACK, RED):
        view = GAME.view(after, seat)
        assert "map:" not in json.dumps(view) and "removed" not in view
    assert publics(events)[-1] == "Sunrise is over. Sunset: pub seat 1 (Black) places first."


# -- 23 - 28: Sunset and scoring ---------------------------------------------------------------------------------


def sunset(pub: list[int], lost: tuple[str, str] = ("C", "5"), **options: str) -> dict:
    s = bare(**options)
    s["players"][BLACK]["supply"] = s["players"][RED]["supply"] = 0
    s["pub"] = list(pub)
    s["phase"], s["step"], s["next_pub"] = "sunset", "dig", 0
    s["lost"] = [f"map:{lost[0]}", f"map:{lost[1]}"]
    s["hook"] = {"maps": [], "jokers": 0}
    s["chests"] = {"chest2": [], "chest3": [], "chest4": []}
    return s


def dig_all(s: dict, squares: list[str]) -> tuple[dict, list]:
    events: list = []
    for sq in squares:
        seat = GAME.to_act(s)[0]
        s, ev = play(s, seat, f"dig {sq}")
        events += ev
    return s, events


def test_edge_23_sunset_follows_pub_seats_occupied_squares_not_offered_hook_is() -> None:
    s = sunset([RED, RED, BLACK, RED, BLACK, BLACK, RED, BLACK])
    assert GAME.to_act(s) == [RED]
    legal = GAME.legal_actions(s, RED)
    assert len(legal) == 64 and "dig D4" in legal and legal[0] == "dig A1"
    s, events = play(s, RED, "dig D4")
    assert publics(events) == ["Pub seat 1: Red digs at D4."]
    assert GAME.to_act(s) == [RED]  # the same seat twice in a row
    assert "dig D4" not in GAME.legal_actions(s, RED)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, RED, "dig D4")
    assert "D4 already holds a pirate" in err.value.message
    s, _ = play(s, RED, "dig A1")
    assert GAME.to_act(s) == [BLACK]
    assert GAME.view(s, None)["squares"]["A1"]["pub_seat"] == 2


def _finish(pub: list[int], digs: list[str], lost=("C", "5"), setup=None, **options: str) -> dict:
    s = sunset(pub, lost, **options)
    if setup:
        setup(s)
    s, _ = dig_all(s, digs)
    assert s["phase"] == "over" and GAME.to_act(s) == []
    return s


ALT = [BLACK, RED] * 4
MISS = ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]


def _rich_red(s: dict) -> None:
    s["players"][RED]["ship"] = [["rum:3", "rum:3", "key:3"]]
    s["players"][RED]["collection"] = ["skull:1", "skull:1"]


def test_edge_24_treasure_wins_outright_unless_lost_shadow() -> None:
    s = _finish(ALT, ["C5"] + MISS[1:], setup=_rich_red)
    out = GAME.outcome(s)
    assert out.winners == (BLACK,) and out.reason == "treasure"
    assert s["result"]["scores"]["1"]["total"] > s["result"]["scores"]["0"]["total"]
    shadow = _finish(ALT, ["C5"] + MISS[1:], setup=_rich_red, lost_shadow="on")
    r = shadow["result"]
    assert r["scores"]["0"]["treasure"] == 20 and r["scores"]["0"]["total"] == 20
    assert r["scores"]["1"]["total"] == 9 + 2 + 2
    assert GAME.outcome(shadow).winners == (BLACK,) and r["reason"] == "points"
    view = GAME.view(shadow, None)
    assert view["lost_treasure"] == {"letter": "C", "number": "5", "square": "C5"}


def test_edge_25_no_pirate_on_the_treasure_points_decide() -> None:
    s = _finish(ALT, MISS, setup=_rich_red)
    out = GAME.outcome(s)
    assert out.winners == (RED,) and out.reason == "points" and out.scores == (0.0, 13.0)
    assert out.ranking == (RED, BLACK)


def test_edge_26_pairs_ignore_values_jokers_maps_and_ship() -> None:
    def setup(s: dict) -> None:
        s["players"][BLACK]["collection"] = ["rum:1", "rum:3", "rum:2", "key:1", "key:2", "key:3", "key:1", "skull:2"]
        s["players"][BLACK]["jokers"] = 2
        s["players"][BLACK]["maps"] = [{"id": "map:A", "revealed": False}, {"id": "map:B", "revealed": True}]
        s["players"][RED]["ship"] = [["rum:1", "rum:1"]]

    s = _finish(ALT, MISS, setup=setup)
    assert s["result"]["scores"]["0"]["pairs"] == 2 + 4
    assert s["result"]["scores"]["1"]["pairs"] == 0 and s["result"]["scores"]["1"]["ship"] == 2


def test_edge_27_most_stacks_is_a_strict_majority() -> None:
    def even(s: dict) -> None:
        s["players"][BLACK]["ship"] = [["rum:1"]]
        s["players"][RED]["ship"] = [["rum:2"]]

    s = _finish(ALT, MISS, setup=even)
    assert [s["result"]["scores"][k]["stacks_bonus"] for k in "01"] == [0, 0]
    s = _finish(ALT, MISS)
    assert [s["result"]["scores"][k]["stacks_bonus"] for k in "01"] == [0, 0]

    def more(s: dict) -> None:
        s["players"][BLACK]["ship"] = [["rum:1"], ["key:1"]]
        s["players"][RED]["ship"] = [["rum:2"]]

    s = _finish(ALT, MISS, setup=more)
    assert [s["result"]["scores"][k]["stacks_bonus"] for k in "01"] == [2, 0]


def test_edge_28_equal_totals_most_stacks_wins_else_no_winner() -> None:
    def tie_break(s: dict) -> None:
        s["players"][BLACK]["ship"] = [["rum:1"], ["key:1"]]  # ship 2 + most stacks 2 = 4
        s["players"][RED]["ship"] = [["rum:3", "rum:1"]]  # ship 4
        s["players"][RED]["collection"] = ["skull:1"]  # no pair

    s = _finish(ALT, MISS, setup=tie_break)
    out = GAME.outcome(s)
    assert out.scores == (4.0, 4.0) and out.winners == (BLACK,) and out.reason == "stacks_tiebreak"

    def dead_even(s: dict) -> None:
        s["players"][BLACK]["ship"] = [["rum:2"]]
        s["players"][RED]["ship"] = [["key:2"]]

    s = _finish(ALT, MISS, setup=dead_even)
    out = GAME.outcome(s)
    assert out.winners == () and out.reason == "tie" and s["result"]["winners"] == []


# -- 29 / 30 / 31 ------------------------------------------------------------------------------------------------


def test_edge_29_views_hold_only_their_own_secrets() -> None:
    s = fresh("leaks", move_after="1")
    rnd = random.Random(5)
    for _ in range(40):
        if not GAME.to_act(s):
            break
        seat = GAME.to_act(s)[0]
        s, events = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
        public = json.dumps(GAME.view(s, None))
        for secret in GAME.secrets(s):
            assert secret not in public
            assert all(secret not in (e.public or "") for e in events)
        for seat_no in (BLACK, RED):
            mine = json.dumps(GAME.view(s, seat_no))
            hidden_other = [m["id"][4:] for m in s["players"][1 - seat_no]["maps"] if not m["revealed"]]
            own = sorted(m["id"][4:] for m in s["players"][seat_no]["maps"] if not m["revealed"])
            view = GAME.view(s, seat_no)
            assert sorted(view["private"]["maps"]) == own
            assert not set(hidden_other) & set(view["private"]["maps"])
            assert "map:" not in mine and s["seed"] not in mine
    assert s["players"][BLACK]["maps"] or s["players"][RED]["maps"]


def test_edge_30_apply_never_mutates_and_illegal_leaves_state_unchanged() -> None:
    s = bare(move_after="1")
    put(s, "C3", "rum:2", BLACK)
    put(s, "C5", "key:1", RED)
    land(s, BLACK)
    land(s, RED)
    before = canonical_json(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move C3 C5")
    assert err.value.code == "illegal" and err.value.message.startswith("C5 holds a pirate: a move cannot end there")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, RED, "move C5 C4")
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "jump C3")
    assert err.value.code == "bad_syntax"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, BLACK, "move C3 Z9")
    assert err.value.code == "bad_syntax"
    assert canonical_json(s) == before
    after, _ = play(s, BLACK, "MOVE  c3   e3")  # parse is case- and space-insensitive
    assert after["pirates"][INDEX["E3"]] is None and after["pub"][0] == BLACK
    over = _finish(ALT, MISS)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(over, BLACK, "dig A2")
    assert err.value.code == "game_over"


def test_edge_31_same_seed_same_actions_same_dump_and_round_trip() -> None:
    def run() -> list[str]:
        s = fresh("determinism")
        rnd = random.Random(11)
        dumps = []
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
            data = GAME.dump(s)
            assert GAME.load(json.loads(json.dumps(data))) == s
            dumps.append(canonical_json(data))
        return dumps

    assert run() == run()


# -- options, syntax, host helpers --------------------------------------------------------------------------------


def test_new_rejects_bad_options_and_player_counts() -> None:
    for options in ({"move_after": "5"}, {"lost_shadow": "maybe"}, {"speed": "1"}):
        with pytest.raises(IllegalAction) as err:
            GAME.new(2, options, "x")
        assert err.value.code == "bad_option"
    for players in (1, 3):
        with pytest.raises(IllegalAction) as err:
            GAME.new(players, {}, "x")
        assert err.value.code == "bad_players"
    with pytest.raises(IllegalAction) as err:
        GAME.load(GAME.dump(fresh()) | {"version": 2})
    assert err.value.code == "bad_version"


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Place a6", "place A6"),
        ("move b5  b2 VIA b4 b3", "move B5 B2 via B4 B3"),
        ("reveal c", "reveal C"),
        ("claim 4 joker rum skull", "claim chest4 joker skull rum"),
        ("TAKE MAP", "take map"),
        ("retire supply", "retire supply"),
        ("dig f6", "dig F6"),
        ("done", "done"),
    ],
)
def test_parse_canonical_forms(typed: str, canonical: str) -> None:
    assert GAME.parse(typed) == canonical


def test_undoable_timeout_label_group() -> None:
    s = fresh()
    assert GAME.undoable(s, BLACK, "place A1")
    mapped = bare(move_after="1")
    put(mapped, "A1", "map:C", BLACK)
    put(mapped, "A2", "rum:1")
    land(mapped, BLACK)
    assert not GAME.undoable(mapped, BLACK, "move A1 A2")  # a map tile changed hands
    plain = bare(move_after="1")
    put(plain, "A1", "rum:1", BLACK)
    put(plain, "A2", "rum:1")
    land(plain, BLACK)
    assert GAME.undoable(plain, BLACK, "move A1 A2")
    assert GAME.timeout_action(s, BLACK) == GAME.legal_actions(s, BLACK)[0]
    dig = sunset(ALT)
    dig["players"][BLACK]["maps"] = [{"id": f"map:{x}", "revealed": False} for x in "AB1"]
    assert GAME.timeout_action(dig, BLACK) == "dig C2"
    view = GAME.view(plain, BLACK)
    assert GAME.label(view, "move A1 A2") == "A1 → A2: take rum:1, stays on rum:1"
    assert GAME.group({}, "move A1 A2") == "move A1" and GAME.group({}, "dig F6") == "dig F"
    assert GAME.group({}, "done") == "done"
    assert len(GAME.info.rules) < 3500 and GAME.info.seat_names == ("Black", "Red")
