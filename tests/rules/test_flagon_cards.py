"""Flagon: a scenario test for every card of docs/games/flagon.md#characters-and-cards (those not already pinned by an
edge-case test get theirs here; the others are also exercised once more so each card has a test named after it)."""

from __future__ import annotations

from rules.flagon.cards import CARD, ROSTER, deck
from tests.rules.test_flagon_positions import give, legal, obj, place, position, run


def test_every_card_has_data_and_every_deck_has_sixteen() -> None:
    for row in ROSTER:
        cards = deck(row[0])
        assert len(cards) == 16 and len(set(cards)) == 16
        assert all(c in CARD for c in cards)


def test_card_step_and_move_with_climbing_cost() -> None:
    st = position([("monk", "west", "E6", "e"), ("rogue", "east", "N12", "w")], keep=("table1",))
    after, _ = run(st, 0, "step")
    assert legal(after)[0] == "to E6" and len(legal(after)) == 9
    st = position([("monk", "west", "F6", "w"), ("rogue", "east", "N12", "w")], keep=("table1",))
    opts = legal(run(st, 0, "move")[0])
    assert "to D5" in opts  # E5 (1) then climb onto D5 (2) = 3
    assert "to C5" not in opts  # would be 4
    assert "to C7" in opts
    after, _ = run(st, 0, "move", "to D5", "face s")
    assert after["chars"][0]["pos"] == "D5" and after["chars"][0]["facing"] == "s"


def test_card_dash_walks_five_and_is_blocked_by_characters_and_barrels() -> None:
    st = position([("monk", "west", "B6", "e"), ("rogue", "east", "C6", "w")], keep=("barrel1",))
    opts = legal(run(st, 0, "dash")[0])
    assert "to G6" in opts and "to G7" in opts and "to C6" not in opts and "to F5" not in opts


def test_card_punch_and_slash_with_a_chair() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "D8", "w")], keep=("chair3",))
    after, _ = run(st, 0, "punch", "at D8")
    assert after["chars"][1]["rep"] == 19 and after["chars"][0]["rep"] == 21
    after, _ = run(st, 0, "slash", "at D8")
    assert after["chars"][1]["rep"] == 18 and not after["chars"][1]["dazed"]
    give(st, 0, "chair3")
    after, _ = run(st, 0, "slash", "at D8")
    assert after["chars"][1]["rep"] == 17 and after["chars"][1]["dazed"] and obj(after, "chair3")["gone"]


def test_card_kick_knocks_back_two() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=())
    after, _ = run(st, 0, "kick", "at D7")
    assert after["chars"][1]["pos"] == "F7" and after["chars"][1]["rep"] == 19


def test_card_pick_up_takes_the_lowest_numbered_and_drops() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=("mug1", "mug2", "chest2"))
    place(st, "mug1", "D7")
    place(st, "mug2", "D7")
    after, _ = run(st, 0, "pick-up")
    assert legal(after) == ["skip", "take chest C7", "take mug D7"]
    after, _ = run(st, 0, "pick-up", "take mug D7")
    assert after["chars"][0]["held"] == "mug1"
    after, _ = run(after, 0, "pick-up")
    assert legal(after) == ["skip", "drop"]
    after, _ = run(after, 0, "pick-up", "drop")
    assert obj(after, "mug1")["sq"] == "C7" and after["chars"][0]["held"] is None


def test_card_throw_mug_and_chair() -> None:
    st = position([("monk", "west", "B7", "e"), ("rogue", "east", "F7", "w")], keep=("mug4", "chair3"))
    give(st, 0, "mug4")
    after, _ = run(st, 0, "throw", "aim e")
    assert after["chars"][1]["rep"] == 19 and after["chars"][1]["dazed"] and obj(after, "mug4")["gone"]
    give(st, 0, "chair3")
    after, _ = run(st, 0, "throw", "aim e")
    assert after["chars"][1]["rep"] == 20  # a chair flies only 3 squares
    st["chars"][1]["pos"] = "E7"
    after, _ = run(st, 0, "throw", "aim e")
    assert after["chars"][1]["rep"] == 18


def test_card_swing_needs_rigging() -> None:
    st = position([("swashbuckler", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(st, 0, "swing")
    assert after["phase"] != "act" and after["chars"][0]["time"] == 3


def test_card_push_table_carries_riders_and_objects() -> None:
    st = position([("barbarian", "west", "B4", "e"), ("rogue", "east", "D5", "w")], keep=("table1", "mug1", "chair1"))
    after, _ = run(st, 0, "push-table", "at C4")
    assert obj(after, "table1")["sqs"] == ["D4", "E4", "D5", "E5"]
    assert after["chars"][1]["pos"] == "E5" and obj(after, "mug1")["sq"] == "D4"
    assert obj(after, "chair1")["sq"] == "E4"  # slid under: now on the table top


def test_card_pull_rug_hits_everyone_on_the_floor_of_it() -> None:
    st = position(
        [("monk", "west", "E9", "w"), ("rogue", "east", "D9", "e"), ("paladin", "west", "C8", "e")], keep=("rug1",)
    )
    after, _ = run(st, 0, "pull-rug")
    assert legal(after) == ["skip", "at C8"]
    after, _ = run(st, 0, "pull-rug", "at C8")
    assert after["chars"][1]["rep"] == 19 and after["chars"][1]["time"] == 21
    assert after["chars"][2]["rep"] == 19 and after["chars"][0]["rep"] == 21  # teammate: discarded


def test_card_boast_goes_face_up() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(st, 0, "boast")
    assert after["chars"][0]["duration"] == ["boast"] and "boast" not in after["chars"][0]["hand"]


def test_card_pistol_shot_ray_stops_at_barrels() -> None:
    st = position([("buccaneer", "west", "B5", "e"), ("rogue", "east", "G5", "w")], keep=())
    after, _ = run(st, 0, "pistol-shot", "aim e")
    assert after["chars"][1]["rep"] == 18 and after["chars"][1]["dazed"]
    st = position([("buccaneer", "west", "B5", "e"), ("rogue", "east", "G5", "w")], keep=("barrel1",))
    after, _ = run(st, 0, "pistol-shot", "aim e")
    assert after["chars"][1]["rep"] == 20


def test_card_lure_of_the_sea_shoves_one() -> None:
    st = position([("buccaneer", "west", "E7", "w"), ("rogue", "east", "C7", "e")], keep=())
    after, _ = run(st, 0, "lure-of-the-sea", "at C7", "shove n")
    assert after["chars"][1]["pos"] == "C6" and after["chars"][1]["rep"] == 20


def test_card_broadside_farthest_first() -> None:
    st = position(
        [("buccaneer", "west", "B7", "e"), ("rogue", "east", "C7", "w"), ("monk", "east", "D7", "w")], keep=()
    )
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "broadside", "aim e")
    assert after["chars"][2]["pos"] == "E7" and after["chars"][1]["pos"] == "D7"
    assert after["chars"][0]["rep"] == 24


def test_card_arr_flies_three() -> None:
    st = position([("jack", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=())
    after, _ = run(st, 0, "arr", "aim e")
    assert after["chars"][0]["pos"] == "F7" and after["chars"][1]["rep"] == 19


def test_card_grog_drinks_a_mug() -> None:
    st = position([("jack", "west", "G7", "e"), ("rogue", "east", "N12", "w")], keep=("mug4", "chest2"))
    give(st, 0, "chest2")
    st["chars"][0]["dazed"] = True
    after, _ = run(st, 0, "grog")
    assert after["chars"][0]["rep"] == 22 and not after["chars"][0]["dazed"] and obj(after, "mug4")["gone"]
    assert after["chars"][0]["held"] == "chest2"
    dry = position([("jack", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=())
    assert run(dry, 0, "grog")[0]["chars"][0]["rep"] == 20


def test_card_walk_the_plank_knocks_three_then_dazes() -> None:
    st = position([("jack", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "walk-the-plank", "at D7")
    assert after["chars"][1]["pos"] == "G7" and after["chars"][1]["dazed"] and after["chars"][1]["rep"] == 20


def test_card_leap_two_or_three_in_a_line() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=())
    opts = legal(run(st, 0, "leap")[0])
    assert "to E7" in opts and "to F7" in opts and "to D7" not in opts and "to G7" not in opts and "to D8" not in opts


def test_card_flurry_hits_adjacent_opponents_only() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "D7", "w"), ("paladin", "west", "C6", "e")], keep=())
    after, _ = run(st, 0, "flurry")
    assert after["chars"][1]["rep"] == 19 and after["chars"][2]["rep"] == 20


def test_card_dragon_kick_jumps_then_kicks() -> None:
    st = position([("monk", "west", "B7", "e"), ("rogue", "east", "F7", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "dragon-kick", "to E7", "at F7")
    assert after["chars"][0]["pos"] == "E7" and after["chars"][1]["pos"] == "I7" and after["chars"][1]["rep"] == 17


def test_card_shield_bash() -> None:
    st = position([("paladin", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=())
    after, _ = run(st, 0, "shield-bash", "at D7")
    r = after["chars"][1]
    assert r["pos"] == "E7" and r["rep"] == 19 and r["dazed"]


def test_card_stand_firm_goes_face_up() -> None:
    st = position([("paladin", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(st, 0, "stand-firm")
    assert after["chars"][0]["duration"] == ["stand-firm"] and after["chars"][0]["time"] == 1


def test_card_god_smack_flies_four() -> None:
    st = position([("paladin", "west", "B7", "e"), ("rogue", "east", "C7", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "god-smack", "at C7")
    assert after["chars"][1]["pos"] == "G7" and after["chars"][1]["rep"] == 17


def test_card_shadow_step_and_dash_ranges() -> None:
    st = position([("rogue", "west", "C7", "e"), ("monk", "east", "N12", "w")], keep=())
    step_opts = legal(run(st, 0, "shadow-step")[0])
    dash_opts = legal(run(st, 0, "shadow-dash")[0])
    assert "to E9" in step_opts and "to F7" not in step_opts
    assert "to G7" in dash_opts and "to H7" not in dash_opts


def test_card_backstab_from_behind() -> None:
    st = position([("rogue", "west", "C7", "e"), ("monk", "east", "D7", "e")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "backstab", "at D7")
    assert after["chars"][1]["rep"] == 15 and after["chars"][1]["dazed"]
    st["chars"][1]["facing"] = "w"
    after, _ = run(st, 0, "backstab", "at D7")
    assert after["chars"][1]["rep"] == 17


def test_card_daring_swing_reaches_rigging_two_away_and_kicks_two() -> None:
    st = position([("swashbuckler", "west", "C8", "e"), ("rogue", "east", "D8", "w")], keep=())
    after, _ = run(st, 0, "daring-swing", "aim e")
    assert after["chars"][0]["pos"] == "G8" and after["chars"][1]["rep"] == 18 and after["chars"][1]["time"] == 21


def test_card_parry_goes_face_up() -> None:
    st = position([("swashbuckler", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(st, 0, "parry")
    assert after["chars"][0]["duration"] == ["parry"]


def test_card_flourish() -> None:
    st = position([("swashbuckler", "west", "C7", "e"), ("rogue", "east", "C6", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "flourish")
    assert after["chars"][1]["rep"] == 18 and after["chars"][1]["dazed"]


def test_card_cleave_front_arc_opponents() -> None:
    st = position(
        [("barbarian", "west", "C7", "e"), ("rogue", "east", "D6", "w"), ("monk", "east", "D8", "w")], keep=()
    )
    after, _ = run(st, 0, "cleave")
    assert after["chars"][1]["rep"] == 18 and after["chars"][2]["rep"] == 18 and after["chars"][0]["rep"] == 24


def test_card_heave_pushes_twice_and_stops_after_a_sinking() -> None:
    st = position([("barbarian", "west", "B4", "e"), ("rogue", "east", "N12", "w")], keep=("table1",))
    after, _ = run(st, 0, "heave", "at C4")
    assert obj(after, "table1")["sqs"] == ["E4", "F4", "E5", "F5"]
    st = position([("barbarian", "west", "C10", "w"), ("rogue", "east", "N12", "w")], keep=("table2",))
    place(st, "table2", ["B10", "B11"])
    after, _ = run(st, 0, "heave", "at B10")
    assert obj(after, "table2")["gone"]


def test_card_rampage() -> None:
    st = position([("barbarian", "west", "B7", "e"), ("rogue", "east", "H7", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "rampage")
    assert after["chars"][0]["pos"] == "G7" and after["chars"][1]["pos"] == "J7" and after["chars"][1]["rep"] == 17


def test_card_lightning_opponents_on_the_ray() -> None:
    st = position(
        [("wizard", "west", "B7", "e"), ("rogue", "east", "D7", "w"), ("monk", "west", "E7", "w")]
        + [("paladin", "east", "F7", "w")],
        keep=(),
    )
    after, _ = run(st, 0, "lightning", "aim e")
    assert after["chars"][1]["rep"] == 19 and after["chars"][3]["rep"] == 19 and after["chars"][2]["rep"] == 20
    assert after["chars"][1]["dazed"] and after["chars"][3]["dazed"] and not after["chars"][2]["dazed"]


def test_card_arcane_push() -> None:
    st = position([("wizard", "west", "B7", "e"), ("rogue", "east", "D7", "w")], keep=())
    after, _ = run(st, 0, "arcane-push", "aim e")
    assert after["chars"][1]["pos"] == "F7" and after["chars"][1]["rep"] == 19


def test_card_fireball_blast() -> None:
    st = position(
        [("wizard", "west", "B7", "e"), ("rogue", "east", "E7", "w"), ("monk", "east", "F8", "w")]
        + [("paladin", "west", "E6", "w")],
        keep=(),
    )
    st["chars"][0]["dragon"] = "unlocked"
    opts = legal(run(st, 0, "fireball")[0])
    assert "at E7" in opts and "at C7" not in opts and "at D5" in opts and "at F5" not in opts
    after, _ = run(st, 0, "fireball", "at E7")
    assert after["chars"][1]["rep"] == 18 and after["chars"][2]["rep"] == 18 and after["chars"][3]["rep"] == 20
