"""The board data and its derived lists (docs/games/buccaneer.md#the-board), and the setup order
(docs/games/buccaneer.md#setup; edge case 31 of docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them)."""

from __future__ import annotations

import pytest

from rules.buccaneer import GAME, board
from rules.buccaneer.model import CREW_VALUE, TREASURE_VALUE, count
from rules.buccaneer.setup import stock_pieces
from tests.rules.test_buccaneer_fixtures import check_invariants, make


def _squares(spec: str) -> set[str]:
    """``j10-o10`` style ranges (one row or one column) to square names."""
    out: set[str] = set()
    for part in spec.split():
        a, b = part.split("-")
        (c0, r0), (c1, r1) = board.POS[a], board.POS[b]
        for c in range(c0, c1 + 1):
            for r in range(r0, r1 + 1):
                out.add(board.name((c, r)))
    return out


def test_coasts_match_the_spec_lists() -> None:
    assert set(board.TREASURE_COAST) == _squares("j10-o10 j15-o15 j11-j14 o11-o14")
    assert len(board.TREASURE_COAST) == 20
    assert set(board.FLAT_COAST) == _squares("a19-e19 a24-e24 a20-a23 e20-e23")
    assert set(board.PIRATE_COAST) == _squares("t1-x1 t6-x6 t2-t5 x2-x5")
    assert len(board.SEA) == 24 * 24 - 16 - 12 - 12
    assert (board.MUD_BAY, board.CLIFF_CREEK, board.ANCHOR_BAY) == ("a1", "x24", "x1")


def test_harbour_exits_match_the_spec_table() -> None:
    table = {
        "amsterdam": {"sw": "g24", "s": "h24", "se": "i24"},
        "marseilles": {"sw": "o24", "s": "p24", "se": "q24"},
        "bombay": {"nw": "x18", "w": "x17", "sw": "x16"},
        "cadiz": {"nw": "x10", "w": "x9", "sw": "x8"},
        "bristol": {"nw": "p1", "n": "q1", "ne": "r1"},
        "london": {"nw": "h1", "n": "i1", "ne": "j1"},
        "genoa": {"ne": "a9", "e": "a8", "se": "a7"},
        "venice": {"ne": "a17", "e": "a16", "se": "a15"},
    }
    for hid, exits in table.items():
        assert set(board.EXITS[hid]) == set(exits)
        for d, sq in exits.items():
            assert board.RAYS[hid][d][0] == sq


def test_rays_end_at_islands_frame_and_harbours() -> None:
    assert board.RAYS["h12"]["e"] == ("i12", "j12")
    assert board.RAYS["h22"]["n"] == ("h23", "h24", "amsterdam")
    assert board.RAYS["x24"]["ne"] == ()


def test_edge_31_stock_pieces_exact_fill_and_the_diamond_ruby_rule() -> None:
    full = dict.fromkeys(TREASURE_VALUE, 6)
    assert {n: stock_pieces(full, n) for n in range(2, 7)} == {
        2: ["rum"],
        3: ["pearl"],
        4: ["gold"],
        5: ["diamond"],
        6: ["gold", "rum"],
    }
    assert stock_pieces({**full, "diamond": 5}, 5) == ["ruby"]
    assert stock_pieces({**full, "diamond": 5, "ruby": 5}, 5) == ["diamond"]


@pytest.mark.parametrize("ports", [("amsterdam", "cadiz"), ("cadiz", "amsterdam", "genoa"), tuple(board.HARBOUR_IDS)])
def test_edge_31_setup_docks_hands_and_turn_order(ports: tuple[str, ...]) -> None:
    s = make(ports, seed="setup-" + "-".join(ports))
    check_invariants(s)
    n = len(ports)
    for hid in board.HARBOUR_IDS:
        docks = s["harbours"][hid]["docks"]
        if hid in ports:
            assert count(docks["crew"]) == 0 and count(docks["treasure"]) == 0
            continue
        crew_value = sum(CREW_VALUE[k] * v for k, v in docks["crew"].items())
        treasure = sum(TREASURE_VALUE[t] * v for t, v in docks["treasure"].items())
        assert count(docks["crew"]) == 2 and crew_value + treasure == 8
    for p in s["players"]:
        assert count(p["hand"]) == 6 and p["ship"]["at"] == p["harbour"]
    assert len(s["pirate_pile"]) == 72 - 6 * n - 2 * (8 - n)
    clockwise = list(board.HARBOUR_IDS)
    i = clockwise.index(ports[0])
    expected = [ports.index(h) for h in clockwise[i:] + clockwise[:i] if h in ports]
    assert s["order"] == expected and s["turn"]["seat"] == 0


def test_setup_with_random_ports_gives_every_seat_its_own_harbour() -> None:
    s = GAME.new(5, {"ports": "random"}, "rand-ports")
    homes = [p["harbour"] for p in s["players"]]
    assert len(set(homes)) == 5 and s["phase"] == "play"
    check_invariants(s)


def test_port_choice_goes_in_seat_order_and_refuses_taken_ports() -> None:
    s = GAME.new(3, {}, "choose")
    assert GAME.to_act(s) == [0] and len(GAME.legal_actions(s, 0)) == 8
    s, _ = GAME.apply(s, 0, "home venice")
    assert GAME.to_act(s) == [1] and "home venice" not in GAME.legal_actions(s, 1)
    assert GAME.view(s, None)["awaiting"]["kind"] == "PORT_CHOICE"
