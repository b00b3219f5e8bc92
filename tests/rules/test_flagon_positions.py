"""Flagon: hand-built positions (helpers shared by the other Flagon tests) and the board data
(docs/games/flagon.md#the-board)."""

from __future__ import annotations

from typing import Any

from rules.core import clone
from rules.flagon import GAME, engine
from rules.flagon.board import CENTRE, PLANKS, name, solid, terrain, xy
from rules.flagon.forces import Ctx

State = dict[str, Any]


def position(chars: list[tuple[str, str, str | None, str]], keep: tuple[str, ...] | None = None) -> State:
    """A running game at T 0 with the given characters ``(id, crew, square, facing)``, nobody waiting.

    West characters belong to seat 0 and east ones to seat 1. ``keep`` lists the object ids to leave on the board
    (None: the whole start layout). Every character's time is 20, so nothing happens until a card is run."""
    st = GAME.new(2, {"setup": "random", "crews": "seats", "length": "long"}, "scenario")
    st["chars"] = []
    for k, (cid, crew, square, facing) in enumerate(chars):
        c = engine._blank_char(k, crew, 0 if crew == "west" else 1)
        engine._take_character(c, cid)
        c["pos"] = square
        c["facing"] = facing
        c["time"] = 20
        st["chars"].append(c)
    if keep is not None:
        st["objects"] = [o for o in st["objects"] if o["id"] in keep]
    st.update({"T": 0, "phase": "plan", "pending": None, "owed": {}, "victims": []})
    return st


def place(st: State, oid: str, square: str | list[str]) -> State:
    for o in st["objects"]:
        if o["id"] == oid:
            if isinstance(square, list):
                o["sqs"] = square
            else:
                o["sq"] = square
                if "held" in o:
                    o["held"] = None
    return st


def give(st: State, i: int, oid: str) -> State:
    """Character i holds object oid."""
    for o in st["objects"]:
        if o["id"] == oid:
            o["held"] = i
            o["sq"] = None
    st["chars"][i]["held"] = oid
    return st


def run(st: State, i: int, card: str, *choices: str) -> tuple[State, list[str]]:
    """Reveal ``card`` for character i now (as if drawn), then apply ``choices`` through the public API."""
    st = clone(st)
    for other in st["chars"]:
        other["waiting"] = False
    st.update({"phase": "plan", "pending": None, "owed": {}})
    c = st["chars"][i]
    if card in c["hand"]:
        c["hand"].remove(card)
    c["queue"].insert(0, card)
    c["time"] = st["T"]
    ctx = Ctx(st)
    engine.reveal(st, ctx, i)
    engine.settle(st, ctx)
    lines = [e.public or "" for e in ctx.events]
    for choice in choices:
        st, events = GAME.apply(st, c["seat"], choice)
        lines += [e.public or "" for e in events]
    return st, lines


def legal(st: State) -> list[str]:
    seats = GAME.to_act(st)
    return GAME.legal_actions(st, seats[0]) if seats else []


def obj(st: State, oid: str) -> dict:
    return next(o for o in st["objects"] if o["id"] == oid)


# -- board data (docs/games/flagon.md#the-board) -----------------------------------------------------------------------


def test_terrain_matches_the_spec_map() -> None:
    rows = [
        "~~~~~~~~~~~~~~~",
        "~~~ww~~~~~ee~~~",
        "~~wwww~~~eeee~~",
        "~wwwwww~eeeeee~",
        "~wwwwww=eeeeee~",
        "~wwwwww~eeeeee~",
        "~wwwwww=eeeeee~",
        "~wwwwww~eeeeee~",
        "~wwwwww=eeeeee~",
        "~wwwwww~eeeeee~",
        "~wwwwww~eeeeee~",
        "~wwwwww~eeeeee~",
        "~~~~~~~~~~~~~~~",
    ]
    for y, row in enumerate(rows):
        assert "".join(terrain((x, y)) for x in range(15)) == row
    assert not solid(xy("H6")) and not solid(xy("H8"))
    assert not solid((-1, 5)) and not solid((15, 5))
    assert {name(p) for p in PLANKS} == {"H5", "H7", "H9"}
    assert name(CENTRE) == "H7"


def test_start_layout_objects() -> None:
    st = GAME.new(2, {"setup": "random"}, "layout")
    where = {o["id"]: o.get("sq") or o.get("sqs") for o in st["objects"]}
    assert where["table1"] == ["C4", "D4", "C5", "D5"]
    assert where["table3"] == ["L4", "M4", "L5", "M5"]
    assert where["table4"] == ["J10", "J11"]
    assert [where[f"barrel{i}"] for i in range(1, 5)] == ["F5", "F9", "J5", "J9"]
    assert [where[f"chest{i}"] for i in range(1, 7)] == ["D3", "C7", "D11", "L3", "M7", "L11"]
    assert [where[f"mug{i}"] for i in range(6, 11)] == ["M4", "L5", "J11", "I7", "N12"]
    assert [where[f"chair{i}"] for i in range(5, 9)] == ["K4", "N6", "K8", "J12"]
    assert where["flagon"] == "H7"
    assert sorted(where["rug2"]) == sorted(["L8", "M8", "L9", "M9", "L10", "M10"])


def test_design_checks_barrel_swing_leap() -> None:
    st = position([("monk", "west", "E5", "e"), ("rogue", "east", "N12", "w")])
    after, _ = run(st, 0, "kick", "at F5")
    assert obj(after, "barrel1")["sq"] == "I5"
    st = position([("swashbuckler", "west", "F6", "e"), ("rogue", "east", "N12", "w")])
    after, _ = run(st, 0, "swing", "aim e")
    assert after["chars"][0]["pos"] == "J6"
    st = position([("monk", "west", "G6", "e"), ("rogue", "east", "N12", "w")])
    after, _ = run(st, 0, "leap", "to I6", "face e")
    assert after["chars"][0]["pos"] == "I6"
