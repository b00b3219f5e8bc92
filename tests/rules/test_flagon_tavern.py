"""Flagon's optional tavern board (docs/games/flagon.md#the-tavern): free-for-all setup, walls instead of water,
scoring."""

from __future__ import annotations

import random

import pytest

from rules.flagon import GAME, engine
from tests.rules.test_flagon_playouts import check_invariants, check_step
from tests.rules.test_flagon_positions import give, legal, obj, place, run


def tavern(chars: list[tuple[str, int, str, str]], keep: tuple[str, ...] = ()) -> dict:
    """A running tavern game with characters ``(id, seat, square, facing)``; only the ``keep`` objects."""
    st = GAME.new(4, {"map": "tavern", "setup": "random"}, "tavern-scenario")
    st["chars"] = []
    for k, (cid, seat, square, facing) in enumerate(chars):
        c = engine._blank_char(k, f"p{seat}", seat)
        engine._take_character(c, cid)
        c.update(pos=square, facing=facing, time=20)
        st["chars"].append(c)
    st["objects"] = [o for o in st["objects"] if o["id"] in keep]
    st.update({"T": 0, "phase": "plan", "pending": None, "owed": {}, "victims": []})
    return st


def test_tavern_setup_snake_draft_and_layout() -> None:
    st = GAME.new(3, {"map": "tavern"}, "tavern-setup")
    assert st["crews"] == {"p0": [0], "p1": [1], "p2": [2]}
    seats = [c["seat"] for c in st["chars"]]
    assert len(seats) == 6 and seats[3:] == seats[:3][::-1]  # round 2 reversed
    assert st["end_spaces"] == [21, 22, 23, 24]  # six characters: standard
    seat = GAME.to_act(st)[0]
    assert seat == seats[0]
    st, _ = GAME.apply(st, seat, "pick wizard")
    assert GAME.legal_actions(st, seat) == [f"start {s}" for s in ("B1", "F1", "J1", "A6", "K6", "B11", "F11", "J11")]
    st, _ = GAME.apply(st, seat, "start K6")
    assert st["chars"][0]["facing"] == "w"
    kinds = [o["kind"] for o in st["objects"]]
    assert kinds.count("mug") == 12 and "chest" not in kinds and obj(st, "flagon")["sq"] == "F6"
    assert obj(st, "table2")["sqs"] == ["H8", "I8", "H9", "I9"] and obj(st, "barrel4")["sq"] == "G10"
    five = GAME.new(5, {"map": "tavern", "setup": "random"}, "tavern-five")
    assert len(five["chars"]) == 5 and five["end_spaces"] == [27, 28, 29, 30]
    assert [c["facing"] for c in five["chars"]] == ["s", "s", "s", "e", "w"]


def test_tavern_knockback_into_the_wall_slams() -> None:
    st = tavern([("monk", 0, "C1", "w"), ("rogue", 1, "B1", "e")])
    after, lines = run(st, 0, "kick", "at B1")
    r = after["chars"][1]
    assert r["pos"] == "A1" and r["rep"] == 18 and any("wall" in line for line in lines)


def test_tavern_flight_stops_at_the_wall_and_lands() -> None:
    st = tavern([("paladin", 0, "H6", "e"), ("rogue", 1, "I6", "w")])
    st["chars"][0]["dragon"] = "unlocked"
    after, _ = run(st, 0, "god-smack", "at I6")
    r = after["chars"][1]
    assert r["pos"] == "K6" and r["rep"] == 20 - 3 - 1 and r["time"] == 21


def test_tavern_table_never_crosses_the_wall_and_lure_is_a_plain_shove() -> None:
    st2 = tavern([("barbarian", 0, "C3", "w"), ("rogue", 1, "J9", "w")], keep=("table1",))
    place(st2, "table1", ["A3", "B3", "A4", "B4"])
    after, lines = run(st2, 0, "push-table", "at B3")
    assert obj(after, "table1")["sqs"] == ["A3", "B3", "A4", "B4"] and any("won't budge" in line for line in lines)
    lure = tavern([("buccaneer", 0, "C6", "w"), ("rogue", 1, "A6", "e")])
    after, _ = run(lure, 0, "lure-of-the-sea", "at A6")
    assert "shove w" not in legal(after) and "shove nw" not in legal(after) and "shove n" in legal(after)


def test_tavern_barrel_stops_at_the_wall() -> None:
    st = tavern([("monk", 0, "C2", "e"), ("rogue", 1, "A9", "e")], keep=("barrel1",))
    place(st, "barrel1", "D2")
    after, _ = run(st, 0, "kick", "at D2")
    assert obj(after, "barrel1")["sq"] == "K2"


def test_tavern_scoring_flagon_breaks_ties() -> None:
    st = tavern([("monk", 0, "C2", "e"), ("rogue", 1, "A9", "e"), ("wizard", 2, "F6", "n")], keep=("flagon",))
    st["chars"][2]["rep"] = 10
    assert engine.result(st)["winners"] == [0, 1]  # a shared win
    give(st, 1, "flagon")
    res = engine.result(st)
    assert res["winners"] == [1] and res["winner"] == "p1"
    give(st, 2, "flagon")
    st["chars"][1]["held"] = None
    assert engine.result(st)["winners"] == [0, 1]  # the holder is not among the tied


@pytest.mark.parametrize("players", [2, 5, 8])
def test_tavern_playouts_keep_every_invariant(players: int) -> None:
    rnd = random.Random(players)
    st = GAME.new(players, {"map": "tavern", "length": "short"}, f"tavern-play-{players}")
    check_invariants(st)
    for _ in range(5000):
        seats = GAME.to_act(st)
        if not seats:
            break
        seat = seats[rnd.randrange(len(seats))]
        options = GAME.legal_actions(st, seat)
        st, _ = check_step(st, seat, options[rnd.randrange(len(options))])
    out = GAME.outcome(st)
    assert out is not None and len(out.scores) == players
    assert all(c["pos"] is not None for c in st["chars"])  # nobody ever leaves the tavern
