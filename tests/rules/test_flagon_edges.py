"""Flagon: one scenario test per numbered edge case of
docs/games/flagon.md#edge-cases-and-the-tests-that-cover-them, named after its number."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, clone
from rules.flagon import GAME, engine, forces, moves
from rules.flagon.forces import Ctx
from tests.rules.test_flagon_positions import give, legal, obj, place, position, run


def test_edge_01_voluntary_moves_never_end_on_water() -> None:
    st = position([("monk", "west", "G6", "e"), ("rogue", "east", "N12", "w")])
    for card in ("step", "move", "dash", "leap"):
        after, _ = run(st, 0, card)
        opts = legal(after)
        assert "to H6" not in opts and "to H8" not in opts and "to A6" not in opts, card
        assert opts[0] == "to G6"
    assert "to H7" in legal(run(st, 0, "step")[0])
    assert "to H5" in legal(run(st, 0, "step")[0])
    rogue = position([("rogue", "west", "G7", "e"), ("monk", "east", "N12", "w")])
    for card in ("shadow-step", "shadow-dash"):
        opts = legal(run(rogue, 0, card)[0])
        assert "to H6" not in opts and "to H8" not in opts and "to I7" in opts
    # Dragon Kick: G6 facing e, H6 is water and is skipped; I6 and J6 are offered
    dk = position([("monk", "west", "G6", "e"), ("rogue", "east", "N12", "w")])
    dk["chars"][0]["dragon"] = "unlocked"
    opts = legal(run(dk, 0, "dragon-kick")[0])
    assert opts == ["to G6", "to I6", "to J6"]
    # Arr! passes over water but never lands on it: from B7 facing west there is no landing at all
    jack = position([("jack", "west", "G6", "e"), ("rogue", "east", "N12", "w")], keep=())
    assert "aim e" in legal(run(jack, 0, "arr")[0])
    assert run(jack, 0, "arr", "aim e")[0]["chars"][0]["pos"] == "J6"
    stuck = position([("jack", "west", "B7", "w"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(stuck, 0, "arr")
    assert after["phase"] != "act" and after["chars"][0]["pos"] == "B7" and after["chars"][0]["time"] == 2


def test_edge_01_reentry_never_offers_water() -> None:
    st = position([("monk", "west", None, "e"), ("rogue", "east", "N12", "w")])
    opts = moves.entry_squares(st, 0)
    assert opts and all(forces.is_floor(st, p) for p in opts)


def test_edge_02_table_square_over_water_is_enterable_and_knockback_from_it_is_overboard() -> None:
    st = position([("monk", "west", "B5", "n"), ("rogue", "east", "C6", "w")], keep=("table1",))
    place(st, "table1", ["A4", "B4"])
    after, _ = run(st, 0, "step")
    assert "to A4" in legal(after)
    after, _ = run(after, 0, "step", "to A4", "face e")
    assert after["chars"][0]["pos"] == "A4"
    # the rogue kicks the monk off the overhang westward: off the table onto open water
    after["chars"][1]["pos"] = "B4"
    after["chars"][1]["facing"] = "w"
    after, lines = run(after, 1, "kick", "at A4")
    assert after["chars"][0]["pos"] is None
    assert any("OVERBOARD" in line for line in lines)


def test_edge_03_barrel_stops_on_the_last_solid_square_even_a_plank() -> None:
    st = position([("monk", "west", "E5", "e"), ("rogue", "east", "N12", "w")], keep=("barrel1", "barrel3", "flagon"))
    place(st, "barrel3", "I5")
    place(st, "flagon", "G5")
    after, _ = run(st, 0, "kick", "at F5")
    assert obj(after, "barrel1")["sq"] == "H5"  # rolled over the Flagon, stopped on the plank
    assert obj(after, "flagon")["sq"] == "G5"
    # the plank is now blocked
    blocked = position([("monk", "west", "G5", "e"), ("rogue", "east", "N12", "w")], keep=("barrel1",))
    place(blocked, "barrel1", "H5")
    assert "to H5" not in legal(run(blocked, 0, "step")[0])
    # a barrel kicked toward the sea does not move
    edge = position([("monk", "west", "E3", "ne"), ("rogue", "east", "N12", "w")], keep=("barrel1",))
    place(edge, "barrel1", "F2")
    assert obj(run(edge, 0, "kick", "at F2")[0], "barrel1")["sq"] == "F2"


def test_edge_04_barrel_crosses_a_plank_only_when_lined_up() -> None:
    st = position([("monk", "west", "F7", "e"), ("rogue", "east", "N12", "w")], keep=("barrel1",))
    place(st, "barrel1", "G7")
    assert obj(run(st, 0, "kick", "at G7")[0], "barrel1")["sq"] == "N7"
    st = position([("monk", "west", "F6", "e"), ("rogue", "east", "N12", "w")], keep=("barrel1",))
    place(st, "barrel1", "G6")
    assert obj(run(st, 0, "kick", "at G6")[0], "barrel1")["sq"] == "G6"
    st = position([("monk", "west", "F5", "se"), ("rogue", "east", "N12", "w")], keep=("barrel1", "barrel4"))
    place(st, "barrel1", "G6")
    assert obj(run(st, 0, "kick", "at G6")[0], "barrel1")["sq"] == "I8"  # through H7, stopped by J9's barrel
    st = position([("monk", "east", "J9", "w"), ("rogue", "west", "B12", "e")], keep=("barrel4",))
    place(st, "barrel4", "I9")
    assert obj(run(st, 0, "kick", "at I9")[0], "barrel4")["sq"] == "B9"


@pytest.mark.parametrize("teammate", [False, True])
def test_edge_05_barrel_hits_a_character_who_falls(teammate: bool) -> None:
    crew = "west" if teammate else "east"
    st = position([("monk", "west", "E5", "e"), ("rogue", crew, "I5", "w")], keep=("barrel1",))
    st["chars"][1]["time"] = 5
    after, _ = run(st, 0, "kick", "at F5")
    assert obj(after, "barrel1")["sq"] == "H5"
    assert after["chars"][1]["rep"] == 18
    assert after["chars"][1]["time"] == 6
    assert after["chars"][0]["rep"] == (20 if teammate else 22)


def test_edge_06_table_shoves_a_barrel_into_the_sea_or_fails_when_blocked() -> None:
    st = position([("barbarian", "west", "E4", "w"), ("rogue", "east", "N12", "w")], keep=("table1", "barrel1"))
    place(st, "barrel1", "B4")
    after, _ = run(st, 0, "push-table", "at D4")
    assert obj(after, "barrel1")["gone"]
    assert obj(after, "table1")["sqs"] == ["B4", "C4", "B5", "C5"]
    st = position([("barbarian", "west", "B4", "e"), ("rogue", "east", "N12", "w")], keep=("table1", "barrel1"))
    place(st, "barrel1", "F5")
    st["objects"].append({"id": "barrel2", "kind": "barrel", "sq": "E5", "gone": False})
    after, lines = run(st, 0, "push-table", "at C4")
    assert obj(after, "table1")["sqs"] == ["C4", "D4", "C5", "D5"]
    assert obj(after, "barrel2")["sq"] == "E5"
    assert any("won't budge" in line for line in lines)
    assert after["chars"][0]["time"] == 2  # the time is still spent


def test_edge_07_table_push_displacement_fails_or_throws_into_the_sea() -> None:
    st = position(
        [("barbarian", "west", "B4", "e"), ("rogue", "east", "E4", "w"), ("monk", "east", "F4", "w")], keep=("table1",)
    )
    after, lines = run(st, 0, "push-table", "at C4")
    assert obj(after, "table1")["sqs"] == ["C4", "D4", "C5", "D5"] and after["chars"][1]["pos"] == "E4"
    assert after["chars"][1]["rep"] == 20
    st = position([("barbarian", "west", "E4", "w"), ("rogue", "east", "B4", "e")], keep=("table1",))
    after, _ = run(st, 0, "push-table", "at D4")
    rogue = after["chars"][1]
    assert rogue["pos"] is None
    assert rogue["rep"] == 20 - 1 - 2
    assert after["chars"][0]["rep"] == 23


def test_edge_08_table_sinking_with_riders_mugs_and_flagon() -> None:
    st = position(
        [("barbarian", "west", "C10", "w"), ("rogue", "east", "B10", "e"), ("monk", "east", "B11", "e")],
        keep=("table2", "mug3", "flagon"),
    )
    place(st, "table2", ["B10", "B11"])
    place(st, "mug3", "B11")
    place(st, "flagon", "B10")
    after, lines = run(st, 0, "push-table", "at B10")
    assert obj(after, "table2")["gone"]
    assert after["chars"][1]["pos"] is None and after["chars"][2]["pos"] is None
    assert after["chars"][0]["rep"] == 24
    assert obj(after, "mug3")["gone"]
    assert obj(after, "flagon")["sq"] == "H7"
    overboard = [line for line in lines if "OVERBOARD" in line]
    assert overboard[0].startswith("🌊 Rogue") and overboard[1].startswith("🌊 Monk")
    assert GAME.to_act(after) == [1] and after["phase"] == "replan"


def test_edge_09_knockback_slams_on_a_table_edge_or_crosses_the_table_and_falls() -> None:
    st = position([("monk", "west", "F4", "w"), ("rogue", "east", "E4", "e")], keep=("table1",))
    after, lines = run(st, 0, "kick", "at E4")
    assert after["chars"][1]["pos"] == "E4" and after["chars"][1]["rep"] == 18
    assert any("table's edge" in line for line in lines)
    st = position([("monk", "west", "E4", "w"), ("rogue", "east", "D4", "e")], keep=("table1",))
    st["chars"][1]["time"] = 7
    after, _ = run(st, 0, "kick", "at D4")
    assert after["chars"][1]["pos"] == "B4"
    assert after["chars"][1]["time"] == 8


def test_edge_10_kick_on_a_chest_carrier_drops_the_chest_before_the_knockback() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=("chest2",))
    give(st, 1, "chest2")
    after, _ = run(st, 0, "kick", "at B7")
    assert after["chars"][1]["pos"] is None
    assert obj(after, "chest2")["sq"] == "B7" and obj(after, "chest2")["held"] is None


def test_edge_11_lure_of_the_sea_sinks_the_chest_and_pays_two() -> None:
    st = position([("buccaneer", "west", "E7", "w"), ("rogue", "east", "B7", "e")], keep=("chest2",))
    give(st, 1, "chest2")
    after, _ = run(st, 0, "lure-of-the-sea", "at B7")
    assert "shove w" in legal(after)
    after, _ = GAME.apply(after, 0, "shove w")
    assert after["chars"][1]["pos"] is None
    assert obj(after, "chest2")["gone"]
    assert after["chars"][0]["rep"] == 22 and after["chars"][1]["rep"] == 18
    poor = clone(st)
    poor["chars"][1]["rep"] = 1
    after, _ = run(poor, 0, "lure-of-the-sea", "at B7", "shove w")
    assert after["chars"][0]["rep"] == 21 and after["chars"][1]["rep"] == 0


def test_edge_12_god_smack_over_the_gap() -> None:
    st = position([("paladin", "west", "F6", "e"), ("rogue", "east", "G6", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    st["chars"][1]["time"] = 4
    after, _ = run(st, 0, "god-smack", "at G6")
    assert after["chars"][1]["pos"] == "K6"  # H6 is water but only the landing counts
    assert after["chars"][1]["time"] == 5  # it Falls
    assert after["chars"][1]["rep"] == 17
    # slam in mid-air above H6: still Overboard
    st["chars"].append(dict(engine._blank_char(2, "east", 1), id="monk", pos="I6", hand=[], time=20))
    after, lines = run(st, 0, "god-smack", "at G6")
    assert after["chars"][1]["pos"] is None
    assert after["chars"][1]["rep"] == 20 - 3 - 1 - 2
    assert any("slams" in line for line in lines)
    # flying off the edge of the grid
    st = position([("paladin", "east", "J6", "e"), ("rogue", "west", "K6", "w")], keep=())
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "god-smack", "at K6")
    assert after["chars"][1]["pos"] is None


def test_edge_13_stand_firm() -> None:
    base = position([("monk", "west", "F6", "e"), ("paladin", "east", "G6", "w")], keep=("table1",))
    base["chars"][1]["duration"] = ["stand-firm"]
    base["chars"][1]["hand"].remove("stand-firm")
    after, _ = run(base, 0, "kick", "at G6")
    assert after["chars"][1]["pos"] == "G6" and after["chars"][1]["rep"] == 19
    base["chars"][0]["id"] = "paladin"
    base["chars"][0]["hand"] = list(base["chars"][1]["hand"]) + ["stand-firm"]
    base["chars"][0]["dragon"] = "unlocked"
    base["chars"][1]["id"] = "monk"
    after, _ = run(base, 0, "god-smack", "at G6")
    assert after["chars"][1]["pos"] == "G6" and after["chars"][1]["rep"] == 17
    charge = position([("monk", "west", "C6", "e"), ("paladin", "east", "G6", "w")], keep=())
    charge["chars"][1]["duration"] = ["stand-firm"]
    charge["chars"][1]["hand"].remove("stand-firm")
    after, _ = run(charge, 0, "charge")
    assert after["chars"][0]["pos"] == "F6" and after["chars"][1]["pos"] == "G6" and after["chars"][1]["rep"] == 18
    push = position([("barbarian", "west", "E4", "w"), ("paladin", "east", "B4", "e")], keep=("table1",))
    push["chars"][1]["duration"] = ["stand-firm"]
    push["chars"][1]["hand"].remove("stand-firm")
    after, lines = run(push, 0, "push-table", "at D4")
    assert obj(after, "table1")["sqs"] == ["C4", "D4", "C5", "D5"] and after["chars"][1]["rep"] == 20
    lure = position([("buccaneer", "west", "E7", "w"), ("paladin", "east", "C7", "e")], keep=())
    lure["chars"][1]["duration"] = ["stand-firm"]
    lure["chars"][1]["hand"].remove("stand-firm")
    after, _ = run(lure, 0, "lure-of-the-sea")
    assert after["chars"][0]["time"] == 2  # only `skip` was possible: the card fizzled by itself


def test_edge_14_parry_cancels_the_whole_card_once_but_not_objects() -> None:
    st = position([("monk", "west", "C7", "w"), ("swashbuckler", "east", "B7", "e")], keep=())
    st["chars"][1]["duration"] = ["parry"]
    st["chars"][1]["hand"].remove("parry")
    after, lines = run(st, 0, "kick", "at B7")
    sw = after["chars"][1]
    assert sw["pos"] == "B7" and sw["rep"] == 20 and "parry" in sw["hand"] and sw["duration"] == []
    after2, _ = run(after, 0, "kick", "at B7")
    assert after2["chars"][1]["pos"] is None
    barrel = position([("monk", "west", "E5", "e"), ("swashbuckler", "east", "I5", "w")], keep=("barrel1",))
    barrel["chars"][1]["duration"] = ["parry"]
    barrel["chars"][1]["hand"].remove("parry")
    after, _ = run(barrel, 0, "kick", "at F5")
    assert after["chars"][1]["rep"] == 18 and after["chars"][1]["duration"] == ["parry"]
    lure = position([("buccaneer", "west", "E7", "w"), ("swashbuckler", "east", "B7", "e")], keep=())
    lure["chars"][1]["duration"] = ["parry"]
    lure["chars"][1]["hand"].remove("parry")
    after, _ = run(lure, 0, "lure-of-the-sea", "at B7")
    assert after["phase"] != "act" and after["chars"][1]["pos"] == "B7"  # no shove step was asked


def test_edge_15_overboard_reputation_payments() -> None:
    for rep, paid in ((1, 1), (0, 0)):
        st = position([("buccaneer", "west", "D7", "w"), ("rogue", "east", "B7", "e")], keep=())
        st["chars"][1]["rep"] = rep
        after, _ = run(st, 0, "lure-of-the-sea", "at B7", "shove w")
        assert after["chars"][1]["pos"] is None
        assert after["chars"][1]["rep"] == 0 and after["chars"][0]["rep"] == 20 + paid
    mate = position([("monk", "west", "C7", "w"), ("rogue", "west", "B7", "e")], keep=())
    after, _ = run(mate, 0, "kick", "at B7")
    assert after["chars"][1]["rep"] == 17 and after["chars"][0]["rep"] == 20


def test_edge_16_overboard_resets_the_queue_keeps_duration_clears_dazed() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=())
    r = st["chars"][1]
    for card in ("step", "punch"):
        r["hand"].remove(card)
        r["queue"].append(card)
    r["hand"].remove("boast")
    r["duration"] = ["boast"]
    r["dazed"] = True
    after, _ = run(st, 0, "kick", "at B7")
    r = after["chars"][1]
    assert r["queue"] == [] and "step" in r["hand"] and "punch" in r["hand"]
    assert r["duration"] == ["boast"] and not r["dazed"] and r["spoiled"]
    assert after["phase"] == "replan" and GAME.to_act(after) == [1]
    after, _ = GAME.apply(after, 1, "plan rogue move")
    assert after["phase"] == "replan"
    after, _ = GAME.apply(after, 1, "plan rogue dash")
    assert after["chars"][1]["queue"] == ["move", "dash"]
    assert after["phase"] != "replan"


def _both_active(first_card: str) -> dict:
    """Monk (west) and Rogue (east) both at time 0, both planned; the Monk's card is revealed first."""
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=())
    for c, cards in ((st["chars"][0], [first_card, "step"]), (st["chars"][1], ["punch", "step"])):
        c["time"] = 0
        c["waiting"] = True
        for card in cards:
            c["hand"].remove(card)
            c["queue"].append(card)
    return st


def test_edge_17_overboard_before_acting_replans_reenters_and_reveals_the_new_card() -> None:
    st = _both_active("kick")
    st["chars"][1]["hand"].remove("boast")
    st["chars"][1]["duration"] = ["boast"]
    ctx = Ctx(st)
    st["chars"][0]["waiting"] = False
    engine.reveal(st, ctx, 0)
    engine.settle(st, ctx)
    after, _ = GAME.apply(st, 0, "at B7")
    assert after["phase"] == "replan" and after["chars"][1]["pos"] is None
    after, _ = GAME.apply(after, 1, "plan rogue dash")
    after, events = GAME.apply(after, 1, "plan rogue step")
    # drawn at once (the only one still waiting): re-enter, then face
    assert after["phase"] == "act" and after["pending"]["step"] == "enter"
    assert legal(after)[0] == "enter N9"
    after, _ = GAME.apply(after, 1, "enter N9")
    assert legal(after)[0] == "face w"
    after, events = GAME.apply(after, 1, "face w")
    texts = [e.public for e in events]
    assert any("Boast is spoiled" in (t or "") for t in texts)
    assert any("reveals **Dash**" in (t or "") for t in texts)
    assert after["pending"]["card"] == "dash" and after["chars"][1]["duration"] == []


def test_edge_18_overboard_while_not_active_reenters_before_planning_and_plans_nothing() -> None:
    st = _both_active("kick")
    st["chars"][1]["waiting"] = False
    st["chars"][1]["time"] = 3
    ctx = Ctx(st)
    st["chars"][0]["waiting"] = False
    engine.reveal(st, ctx, 0)
    engine.settle(st, ctx)
    after, _ = GAME.apply(st, 0, "at B7")
    after, _ = GAME.apply(after, 1, "plan rogue dash")
    after, _ = GAME.apply(after, 1, "plan rogue step")
    # T runs to 2 (the monk); the monk plans 1; then at T 3 the rogue re-enters before any planning
    while after["T"] < 3 or after["phase"] in ("plan",) and after["T"] == 2:
        seat = GAME.to_act(after)[0]
        after, _ = GAME.apply(after, seat, legal(after)[0])
    assert after["T"] == 3 and after["phase"] == "reenter" and after["pending"]["step"] == "enter"
    after, _ = GAME.apply(after, 1, legal(after)[0])
    after, _ = GAME.apply(after, 1, legal(after)[0])
    assert "1" not in after["owed"]  # no planning owed for the rogue: its queue already held 2
    assert after["chars"][1]["queue"] == ["dash", "step"] and after["chars"][1]["pos"] == "N9"


def test_edge_19_reentry_with_every_start_taken() -> None:
    st = position(
        [
            ("monk", "west", None, "e"),
            ("rogue", "west", "B9", "e"),
            ("paladin", "west", "B11", "e"),
            ("wizard", "west", "C12", "e"),
            ("jack", "west", "E12", "e"),
            ("buccaneer", "west", "C11", "e"),
        ],
        keep=("barrel2", "rug1", "table2"),
    )
    place(st, "barrel2", "D12")
    place(st, "table2", ["B10", "A10"])
    got = [f"{chr(65 + x)}{y + 1}" for x, y in moves.entry_squares(st, 0)]
    # adjacent to B9, B11, C12, E12; not the table (B10), the barrel (D12), characters (C11) or water (A-column)
    assert got == ["B8", "C8", "C9", "C10", "D11", "E11", "F11", "B12", "F12"]
    st["pending"] = {"step": "enter", "char": 0, "card": None}
    st["phase"] = "reenter"
    assert legal(st) == [f"enter {s}" for s in got]


def test_edge_20_dazed_plans_three_and_the_marker_goes_after_planning() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B8", "e")], keep=())
    st["chars"][1]["dazed"] = True
    st["chars"][1]["time"] = 0
    st["chars"][1]["hand"].remove("step")
    st["chars"][1]["queue"] = ["step"]
    ctx = Ctx(st)
    engine.begin_step(st, ctx)
    assert st["owed"] == {"1": 2}
    st, _ = GAME.apply(st, 1, "plan rogue move")
    assert st["chars"][1]["dazed"]
    st, _ = GAME.apply(st, 1, "plan rogue dash")
    assert not st["chars"][1]["dazed"]
    # already three queued: 0 owed, the marker still goes
    st2 = position([("monk", "west", "C7", "w"), ("rogue", "east", "B8", "e")], keep=())
    r = st2["chars"][1]
    r.update(dazed=True, time=0)
    for card in ("step", "move", "dash"):
        r["hand"].remove(card)
        r["queue"].append(card)
    ctx = Ctx(st2)
    engine.begin_step(st2, ctx)
    engine.settle(st2, ctx)
    assert not st2["chars"][1]["dazed"]


def test_edge_20_dazed_twice_is_once() -> None:
    st = position([("wizard", "west", "C7", "w"), ("rogue", "east", "A7", "e")], keep=())
    st["chars"][1]["pos"] = "B7"
    after, _ = run(st, 0, "lightning", "aim w")
    after, _ = run(after, 0, "lightning", "aim w")
    assert after["chars"][1]["dazed"] is True


def test_edge_21_falls_before_being_drawn_skips_the_step() -> None:
    st = _both_active("pull-rug")
    st["chars"][0]["pos"] = "B7"
    st["chars"][1]["pos"] = "C8"
    st["objects"] = [o for o in GAME.new(2, {}, "x")["objects"] if o["id"] == "rug1"]
    ctx = Ctx(st)
    st["chars"][0]["waiting"] = False
    engine.reveal(st, ctx, 0)
    engine.settle(st, ctx)
    after, events = GAME.apply(st, 0, "at C8")
    rogue = after["chars"][1]
    texts = [e.public or "" for e in events]
    fell = next(k for k, t in enumerate(texts) if t.startswith("Rogue falls: time 0 → 1"))
    time1 = next(k for k, t in enumerate(texts) if t.startswith("⏳ Time 1."))
    punch = next(k for k, t in enumerate(texts) if "Rogue reveals **Punch**" in t)
    assert fell < time1 < punch  # it did not act at time 0
    assert rogue["rep"] == 19 and rogue["queue"] == ["step"]  # at time 1 it planned nothing (queue held 2)


def test_edge_22_simultaneous_planning_and_commuting_plans() -> None:
    st = GAME.new(4, {"setup": "random", "crews": "seats"}, "edge22")
    assert st["phase"] == "plan"
    assert GAME.to_act(st) == [0, 1, 2, 3]
    for seat in range(4):
        mine = [c for c in st["chars"] if c["seat"] == seat]
        low = min(c["idx"] for c in mine)
        assert all(a.startswith(f"plan {st['chars'][low]['id']} ") for a in GAME.legal_actions(st, seat))
    a, _ = GAME.apply(st, 0, GAME.legal_actions(st, 0)[2])
    a, _ = GAME.apply(a, 1, GAME.legal_actions(a, 1)[1])
    b, _ = GAME.apply(st, 1, GAME.legal_actions(st, 1)[1])
    b, _ = GAME.apply(b, 0, GAME.legal_actions(b, 0)[2])
    assert a == b


def test_edge_23_one_seat_with_two_drawn_characters_owes_all_their_steps() -> None:
    st = GAME.new(2, {"setup": "random", "crews": "seats"}, "edge23")
    while st["phase"] in ("plan",):
        seat = GAME.to_act(st)[0]
        st, _ = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
    assert st["phase"] == "act"
    assert GAME.to_act(st) == [st["chars"][st["pending"]["char"]]["seat"]]
    assert len(GAME.to_act(st)) == 1


def test_edge_24_single_options_are_applied_automatically() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "N12", "w")], keep=())
    after, lines = run(st, 0, "punch")
    assert after["phase"] != "act" and any("skips" in line for line in lines)
    boxed = position(
        [("monk", "west", "B7", "w"), ("rogue", "west", "B6", "w"), ("paladin", "west", "C6", "w")]
        + [("wizard", "east", "C7", "w"), ("jack", "east", "C8", "w"), ("barbarian", "east", "B8", "w")],
        keep=(),
    )
    after, _ = run(boxed, 0, "step")
    assert after["phase"] == "act" and after["pending"]["step"] == "face"  # `to B7` went by itself
    after, _ = run(st, 0, "boast")
    assert after["chars"][0]["duration"] == ["boast"]
    one = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=())
    after, _ = run(one, 0, "punch")
    assert legal(after) == ["skip", "at B7"]


def test_edge_25_locked_dragon_fizzles_unlocked_is_used_even_if_skipped() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "N12", "w")], keep=())
    after, lines = run(st, 0, "dragon-kick")
    m = after["chars"][0]
    assert m["time"] == 1 and "dragon-kick" in m["hand"] and any("fizzles" in line for line in lines)
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "dragon-kick", "to B7")
    assert after["phase"] != "act"  # `at` offered only skip
    m = after["chars"][0]
    assert m["used"] == ["dragon-kick"] and m["dragon"] == "used" and "dragon-kick" not in m["hand"]


def test_edge_26_flagon_unlocks_for_good() -> None:
    st = position([("monk", "west", "G7", "e"), ("rogue", "east", "N12", "w")], keep=("flagon",))
    after, lines = run(st, 0, "pick-up", "take flagon H7")
    assert after["chars"][0]["dragon"] == "unlocked" and any("unlocked" in line for line in lines)
    after, _ = run(after, 0, "pick-up", "drop")
    assert after["chars"][0]["dragon"] == "unlocked" and obj(after, "flagon")["sq"] == "G7"


def test_edge_27_boast_payouts_and_spoiling() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "N12", "w")], keep=("table1",))
    after, _ = run(st, 0, "boast")
    after, lines = run(after, 0, "step", "to C7", "face w")
    assert after["chars"][0]["rep"] == 22
    table = position([("monk", "west", "C4", "w"), ("rogue", "east", "N12", "w")], keep=("table1",))
    after, _ = run(table, 0, "boast")
    after, _ = run(after, 0, "step", "to C4", "face w")
    assert after["chars"][0]["rep"] == 24
    hit = position([("monk", "west", "C7", "w"), ("rogue", "east", "D7", "w")], keep=())
    after, _ = run(hit, 0, "boast")
    after, _ = run(after, 1, "punch", "at C7")
    after, lines = run(after, 0, "step", "to C7", "face w")
    assert after["chars"][0]["rep"] == 19 and any("spoiled" in line for line in lines)
    # parried attacks and Stand Firm-ignored effects do not spoil it
    sw = position([("swashbuckler", "west", "C7", "w"), ("rogue", "east", "D7", "w")], keep=())
    sw["chars"][0]["hand"].remove("parry")
    after, _ = run(sw, 0, "boast")
    after["chars"][0]["duration"].append("parry")
    after, _ = run(after, 1, "punch", "at C7")
    after, _ = run(after, 0, "step", "to C7", "face w")
    assert after["chars"][0]["rep"] == 22
    # a Stand Firm-ignored knockback and Daze (Walk the Plank deals no damage) do not spoil it
    pa2 = position([("paladin", "west", "C7", "w"), ("jack", "east", "D7", "w")], keep=())
    pa2["chars"][0]["hand"].remove("stand-firm")
    after, _ = run(pa2, 0, "boast")
    after["chars"][0]["duration"].append("stand-firm")
    after["chars"][1]["dragon"] = "unlocked"
    after, _ = run(after, 1, "walk-the-plank", "at C7")
    assert after["chars"][0]["pos"] == "C7" and not after["chars"][0]["dazed"]
    after, _ = run(after, 0, "step", "to C7", "face w")
    assert after["chars"][0]["rep"] == 22


def test_edge_28_throw_fizzles_with_a_chest_and_a_missed_mug_is_gone() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=("chest2", "mug4"))
    give(st, 0, "chest2")
    after, _ = run(st, 0, "throw")
    assert after["chars"][0]["held"] == "chest2" and after["chars"][0]["time"] == 2
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=("mug4",))
    give(st, 0, "mug4")
    after, _ = run(st, 0, "throw", "aim e")
    assert obj(after, "mug4")["gone"] and after["chars"][0]["held"] is None


def test_edge_29_swing_landing_fallback_and_kicks() -> None:
    st = position(
        [
            ("swashbuckler", "west", "D6", "e"),
            ("rogue", "east", "E6", "w"),
            ("monk", "west", "F6", "w"),
            ("wizard", "east", "G6", "w"),
        ],
        keep=(),
    )
    after, _ = run(st, 0, "swing")
    assert "aim e" not in legal(after) and "aim ne" in legal(after)  # E6-G6 taken, H6 water: no landing east
    st2 = position(
        [("swashbuckler", "west", "D6", "e"), ("rogue", "east", "E6", "w"), ("monk", "west", "F6", "w")], keep=()
    )
    after, _ = run(st2, 0, "swing", "aim e")
    assert after["chars"][0]["pos"] == "G6"
    assert after["chars"][1]["rep"] == 19 and after["chars"][1]["time"] == 21  # kicked and Falls
    assert after["chars"][2]["rep"] == 20  # teammate passed over
    st3 = position(
        [("swashbuckler", "west", "D6", "e"), ("rogue", "east", "E6", "w"), ("monk", "east", "G6", "w")], keep=()
    )
    after, _ = run(st3, 0, "swing", "aim e")
    assert after["chars"][0]["pos"] == "F6"  # G6 taken, H6 water: F6
    assert after["chars"][2]["rep"] == 20  # beyond the landing: untouched
    assert after["chars"][0]["facing"] == "e"


def test_edge_30_charge_reach_teammates_tables_and_water() -> None:
    st = position([("monk", "west", "B6", "e"), ("rogue", "east", "G6", "w")], keep=())
    after, _ = run(st, 0, "charge")
    assert after["chars"][0]["pos"] == "F6" and after["chars"][1]["rep"] == 20 - 2 - 2
    assert after["chars"][1]["pos"] is None  # knocked back 1 into H6: water, and pays 2
    far = position([("monk", "west", "B7", "e"), ("rogue", "east", "H7", "w")], keep=())
    after, _ = run(far, 0, "charge")
    assert after["chars"][0]["pos"] == "F7" and after["chars"][1]["rep"] == 20
    mate = position([("monk", "west", "B6", "e"), ("rogue", "west", "E6", "w")], keep=())
    after, _ = run(mate, 0, "charge")
    assert after["chars"][0]["pos"] == "D6" and after["chars"][1]["rep"] == 20
    table = position([("monk", "west", "B5", "e"), ("rogue", "east", "G6", "w")], keep=("table1",))
    after, _ = run(table, 0, "charge")
    assert after["chars"][0]["pos"] == "B5"
    water = position([("monk", "west", "D6", "e"), ("rogue", "east", "N12", "w")], keep=())
    after, _ = run(water, 0, "charge")
    assert after["chars"][0]["pos"] == "G6"


def test_edge_31_end_tokens_turn_up_when_the_marker_leaves() -> None:
    st = GAME.new(2, {"setup": "random", "length": "short"}, "edge31")
    assert st["end_spaces"] == [15, 16, 17, 18]
    seen: list[tuple[int, str]] = []
    while st["phase"] != "over":
        seat = GAME.to_act(st)[0]
        before = dict(st["end_revealed"])
        t = st["T"]
        st, _ = GAME.apply(st, seat, legal(st)[0])
        for k, v in st["end_revealed"].items():
            if k not in before:
                seen.append((int(k), v))
                # every character that was at that time has acted
                assert all(c["time"] > int(k) for c in st["chars"])
                assert int(k) >= t
    assert [k for k, _ in seen] == list(range(15, 15 + len(seen)))
    assert seen[-1][1] == "navy" and st["navy"] == seen[-1][0]


def test_edge_32_final_scoring_and_tie_breaks() -> None:
    st = position(
        [("monk", "west", "I7", "e"), ("rogue", "east", "N12", "w")],
        keep=("chest1", "chest2", "chest3", "chest4", "chest5", "chest6", "table1"),
    )
    give(st, 0, "chest4")  # held on the enemy ship: counts for the holder's crew
    place(st, "chest5", "H5")  # loose on a plank: nobody
    place(st, "table1", ["A4", "B4"])
    place(st, "chest6", "A4")  # on a table over water: nobody
    sc = engine.scores(st)
    assert sc["west"]["chests"] == 4 and sc["east"]["chests"] == 0
    assert engine.result(st)["winner"] == "west"  # 20 + 4 chests vs 20
    st["chars"][0]["rep"] = 20
    st["chars"][1]["rep"] = 40
    res = engine.result(st)
    assert res["scores"]["west"]["total"] == 40 and res["scores"]["east"]["total"] == 40
    assert res["winner"] == "west"  # tie on totals: more chests
    for o in st["objects"]:
        if o["kind"] == "chest":
            o.update(gone=True, held=None, sq=None)
    st["chars"][0]["held"] = None
    st["chars"][0]["rep"] = 40
    res = engine.result(st)
    assert res["winner"] is None and res["winners"] == [0, 1]


def test_illegal_actions_name_the_options() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=())
    after, _ = run(st, 0, "kick")
    with pytest.raises(IllegalAction) as err:
        GAME.apply(after, 0, "at D7")
    assert err.value.code == "illegal" and "at B7" in err.value.message and "Kick" in err.value.message
    with pytest.raises(IllegalAction) as err:
        GAME.apply(after, 1, "at B7")
    assert err.value.code == "not_your_turn"


# -- the seed's water and overboard rules not already pinned above ------------------------------------------


def test_seed_bow_squares_are_normal_squares() -> None:
    st = position([("monk", "west", "D3", "n"), ("rogue", "east", "N12", "w")], keep=())
    opts = legal(run(st, 0, "step")[0])
    assert {"to C3", "to D2", "to E2", "to E3"} <= set(opts) and "to C2" not in opts and "to D1" not in opts


def test_seed_flagon_carried_overboard_returns_to_the_centre() -> None:
    st = position([("monk", "west", "C7", "w"), ("rogue", "east", "B7", "e")], keep=("flagon",))
    give(st, 1, "flagon")
    st["chars"][1]["dragon"] = "unlocked"
    after, _ = run(st, 0, "kick", "at B7")
    assert after["chars"][1]["pos"] is None
    # the kick's damage dropped the Flagon on B7 first; carried overboard it would float home instead
    assert obj(after, "flagon")["sq"] == "B7"
    lure = position([("buccaneer", "west", "D7", "w"), ("rogue", "east", "B7", "e")], keep=("flagon",))
    give(lure, 1, "flagon")
    after, lines = run(lure, 0, "lure-of-the-sea", "at B7", "shove w")
    assert obj(after, "flagon")["sq"] == "H7" and not obj(after, "flagon")["gone"]
    assert any("floats back to H7" in line for line in lines)


@pytest.mark.parametrize("how", ["damage", "dazed", "falls"])
def test_seed_chest_is_dropped_on_damage_daze_or_fall(how: str) -> None:
    if how == "damage":
        st = position([("monk", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=("chest2",))
        give(st, 1, "chest2")
        after, _ = run(st, 0, "punch", "at D7")
    elif how == "dazed":
        st = position([("jack", "west", "C7", "e"), ("rogue", "east", "D7", "w")], keep=("chest2",))
        st["chars"][0]["dragon"] = "unlocked"
        give(st, 1, "chest2")
        after, _ = run(st, 0, "walk-the-plank", "at D7")  # knockback 3 to G7, then Dazed: drops there
        assert after["chars"][1]["pos"] == "G7"
    else:
        st = position([("monk", "west", "E5", "e"), ("rogue", "east", "I5", "w")], keep=("barrel1", "chest2"))
        give(st, 1, "chest2")
        after, _ = run(st, 0, "kick", "at F5")
    r = after["chars"][1]
    assert r["held"] is None and obj(after, "chest2")["sq"] == r["pos"]


def test_seed_chests_score_for_the_ship_they_lie_on() -> None:
    st = position([("monk", "west", "C7", "e"), ("rogue", "east", "N12", "w")], keep=("chest1", "chest4"))
    place(st, "chest4", "E5")  # an east chest dragged onto the west ship
    place(st, "chest1", "H9")  # a west chest left on a gangplank
    sc = engine.scores(st)
    assert sc["west"]["chests"] == 1 and sc["east"]["chests"] == 0
