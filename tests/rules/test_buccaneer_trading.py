"""Ports, home, Flat Island and Anchor Bay: edge cases 21–25 and 29 of
docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

import json

import pytest

from rules.buccaneer import GAME
from rules.buccaneer.model import TREASURE
from rules.core import IllegalAction
from tests.rules.test_buccaneer_fixtures import (
    THREE,
    check_invariants,
    give_hold,
    make,
    play,
    public_text,
    put,
    rebalance,
    set_hand,
)


def at_port(port="bombay", crew=(), treasure=(), cards=(), hand_text="b3 b2 b1 r2"):
    """Seat 0's turn, its ship in ``port`` whose Docks hold exactly the given items."""
    s = make(THREE)
    for t in TREASURE:
        s["treasure_island"][t] += s["harbours"][port]["docks"]["treasure"][t]
        s["harbours"][port]["docks"]["treasure"][t] = 0
    for k in s["harbours"][port]["docks"]["crew"]:
        s["harbours"][port]["docks"]["crew"][k] = 0
    for k in crew:
        s["harbours"][port]["docks"]["crew"][k] += 1
    for t in treasure:
        s["harbours"][port]["docks"]["treasure"][t] += 1
        s["treasure_island"][t] -= 1
    for c in cards:
        s["chance_pile"].remove(c)
        s["harbours"][port]["docks"]["cards"].append(c)
    set_hand(s, 0, hand_text)
    put(s, 0, port)
    rebalance(s)
    return s


def test_edge_22_value_for_value_with_running_values() -> None:
    s = at_port(crew=("r1",), treasure=("gold", "rum"))
    legal = GAME.legal_actions(s, 0)
    assert [a for a in legal if a.startswith("want")] == ["want r1", "want gold", "want rum"]
    s, events = play(s, 0, "offer b3")
    assert public_text(events) == "Amsterdam is trading at Bombay"
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "give less: over by 3"
    assert "trade" not in GAME.legal_actions(s, 0) and "cancel" in GAME.legal_actions(s, 0)
    assert not any(a.startswith("sail") for a in GAME.legal_actions(s, 0))  # only trade steps while busy
    s, _ = play(s, 0, "want gold")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "give more: short by 1"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "trade")
    assert err.value.code == "unbalanced" and "short by 1" in err.value.message
    s, _ = play(s, 0, "offer b1")
    basket = GAME.view(s, 0)["you"]["basket"]
    assert basket["status"] == "balanced" and basket["plain"] == 4 and basket["wanted"] == 4
    public = json.dumps(GAME.view(s, None))
    assert "basket" not in public and "balanced" not in public  # invisible until traded
    s, events = play(s, 0, "trade")
    assert public_text(events) == "Amsterdam at Bombay gives B1 B3, gets gold"
    assert s["players"][0]["ship"]["hold"] == ["gold"]
    assert s["harbours"]["bombay"]["docks"]["crew"]["b3"] == 1
    check_invariants(s)


def test_edge_22_a_value_card_never_overpays_and_cancel_always_works() -> None:
    s = at_port(treasure=("gold",))
    s["players"][0]["keepers"] = [24]
    s["chance_pile"].remove(24)
    s, _ = play(s, 0, "offer pieces", "want gold")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "give less: over by 1"
    assert "trade" not in GAME.legal_actions(s, 0)
    s, _ = play(s, 0, "cancel")
    assert s["turn"]["basket"] == {"give": {}, "get": {}} and "sail sw" in GAME.legal_actions(s, 0)
    # with Doubloons (4) the same purchase balances exactly
    d = at_port(treasure=("gold",))
    d["players"][0]["keepers"] = [23]
    d["chance_pile"].remove(23)
    d, _ = play(d, 0, "offer doubloons", "want gold", "trade")
    assert d["players"][0]["ship"]["hold"] == ["gold"] and d["harbours"]["bombay"]["docks"]["cards"] == [23]


def test_edge_22_a_trade_leaving_three_treasures_aboard_is_refused() -> None:
    s = at_port(treasure=("gold",), hand_text="b2 b2 r3")
    give_hold(s, 0, "rum", "rum")
    s, _ = play(s, 0, "offer b2", "offer b2", "want gold")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "hold would exceed 2"
    assert "trade" not in GAME.legal_actions(s, 0)
    s, _ = play(s, 0, "unoffer b2", "offer rum", "unoffer b2")  # swap a rum for the gold: 2 + 2 = 4
    s, _ = play(s, 0, "offer b2")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "balanced"
    s, _ = play(s, 0, "trade")
    assert s["players"][0]["ship"]["hold"] == ["gold", "rum"]


def test_edge_21_long_john_is_traded_only_in_his_two_special_trades() -> None:
    s = at_port(crew=("b3", "b2", "r1"), treasure=("rum",))
    s["players"][0]["keepers"] = [21]
    s["chance_pile"].remove(21)
    s, _ = play(s, 0, "offer longjohn", "want rum")
    assert "trade" not in GAME.legal_actions(s, 0)  # not for treasure
    s, _ = play(s, 0, "unwant rum", "want b3", "want b2")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "balanced"  # up to 5 in crew
    s, _ = play(s, 0, "want r1")
    assert "trade" not in GAME.legal_actions(s, 0)  # 6 is too much
    s, _ = play(s, 0, "unwant r1", "trade")
    assert s["harbours"]["bombay"]["docks"]["cards"] == [21] and s["players"][0]["hand"]["b3"] == 2
    # buying him back: exactly one treasure piece
    b = at_port(cards=(21,), treasure=())
    give_hold(b, 0, "diamond", "rum")
    b, _ = play(b, 0, "want longjohn", "offer rum")
    assert GAME.view(b, 0)["you"]["basket"]["status"] == "balanced"
    b, _ = play(b, 0, "offer b1")
    assert "trade" not in GAME.legal_actions(b, 0)
    b, _ = play(b, 0, "unoffer b1", "trade")
    assert b["players"][0]["keepers"] == [21] and b["harbours"]["bombay"]["docks"]["treasure"]["rum"] == 1


def test_edge_21_a_landed_chart_is_removed_and_the_other_only_trades() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r1")
    s["players"][0]["keepers"] = [25, 26]
    s["chance_pile"].remove(25)
    s["chance_pile"].remove(26)
    put(s, 0, "x2", "s")
    s, _ = play(s, 0, "sail s", "go 1", "face n", "confirm")
    assert s["turn"]["stage"] == "after" and "land chart" in GAME.legal_actions(s, 0)
    s, events = play(s, 0, "land chart")
    assert s["removed"] == [25] and s["players"][0]["keepers"] == [26] and s["kidd_landed"]
    assert s["stack"][-1] == {"kind": "PICK", "seat": 0, "budget": 7}
    s, _ = play(s, 0, "pick gold", "done")
    assert "land chart" not in GAME.legal_actions(s, 0)  # only one chart is ever landed
    check_invariants(s)


def test_edge_23_trading_at_an_opponents_home_changes_their_home_value() -> None:
    s = make(THREE)
    s["harbours"]["cadiz"]["docks"]["crew"]["b2"] = 1
    set_hand(s, 0, "b3 r1")
    give_hold(s, 0, "rum")
    put(s, 0, "cadiz")
    rebalance(s)
    assert GAME.view(s, None)["harbours"][3]["home_value"] == 0
    s, events = play(s, 0, "offer rum", "want b2", "trade")
    assert GAME.view(s, None)["harbours"][3]["home_value"] == 2
    assert s["harbours"]["cadiz"]["docks"]["treasure"]["rum"] == 1 and s["phase"] == "play"
    check_invariants(s)


def test_edge_23_a_visitors_trade_wins_for_the_home_player_at_once() -> None:
    s = make(THREE)
    h = s["harbours"]["cadiz"]
    h["safety"]["diamond"] = 3
    s["treasure_island"]["diamond"] -= 3
    h["docks"]["crew"]["b3"] = 2
    set_hand(s, 0, "b1")
    give_hold(s, 0, "ruby")
    put(s, 0, "cadiz")
    put(s, 1, "cadiz")
    rebalance(s)
    s, events = play(s, 0, "offer ruby", "want b3", "offer b1")
    assert "trade" not in GAME.legal_actions(s, 0)
    s, _ = play(s, 0, "unoffer b1")
    s, _ = play(s, 0, "want b3")  # 6 for 5: no
    s, _ = play(s, 0, "unwant b3", "offer b1", "unoffer b1")
    # ruby (5) for B3 + B2 isn't possible (no B2 there): give ruby + b1 (6) for b3 b3 (6)
    s, _ = play(s, 0, "offer b1", "want b3")
    assert GAME.view(s, 0)["you"]["basket"]["status"] == "balanced"
    s, events = play(s, 0, "trade")
    assert s["phase"] == "over" and GAME.outcome(s).winners == (1,)
    assert "Cadiz wins with 20 landed" in public_text(events)


def test_edge_24_safety_zone_triples_then_singles_and_nothing_comes_out() -> None:
    s = make(THREE)
    docks = s["harbours"]["amsterdam"]["docks"]["treasure"]
    docks["pearl"] = 2
    s["treasure_island"]["pearl"] -= 2
    give_hold(s, 0, "pearl", "pearl")
    assert not any(a.startswith("safe") for a in GAME.legal_actions(s, 0))
    s, _ = play(s, 0, "unload pearl")
    assert "safe pearl" in GAME.legal_actions(s, 0)
    s, events = play(s, 0, "safe pearl")
    assert s["harbours"]["amsterdam"]["safety"]["pearl"] == 3 and docks["pearl"] == 2
    assert s["harbours"]["amsterdam"]["docks"]["treasure"]["pearl"] == 0
    assert "3 pearl in the Safety Zone" in public_text(events)
    s, _ = play(s, 0, "unload pearl")
    s, _ = play(s, 0, "safe pearl")
    assert s["harbours"]["amsterdam"]["safety"]["pearl"] == 4
    legal = GAME.legal_actions(s, 0)
    assert not any("pearl" in a and a.split()[0] in ("load", "safe") for a in legal)  # nothing comes out
    check_invariants(s)


def test_home_window_unload_load_leave_and_pickup() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 r1")
    give_hold(s, 0, "gold")
    s["harbours"]["amsterdam"]["docks"]["cards"] = [23]
    s["chance_pile"].remove(23)
    assert GAME.legal_actions(s, 0)[:5] == ["unload gold", "leave b3", "leave r1", "pickup doubloons", "sail se"]
    s, _ = play(s, 0, "unload gold", "load gold", "leave r1", "pickup r1", "pickup doubloons")
    assert s["players"][0]["keepers"] == [23] and s["players"][0]["ship"]["hold"] == ["gold"]
    s, _ = play(s, 0, "leave b3", "leave r1")  # leaving every card makes a derelict; allowed
    assert s["players"][0]["hand"] == dict.fromkeys(("b1", "b2", "b3", "r1", "r2", "r3"), 0)
    assert GAME.view(s, None)["players"][0]["ship"]["derelict"]
    check_invariants(s)


def test_edge_25_win_check_after_a_free_move_into_home() -> None:
    s = make(THREE)
    h = s["harbours"]["cadiz"]
    h["safety"]["gold"] = 3
    h["safety"]["rum"] = 4
    s["treasure_island"]["gold"] -= 3
    s["treasure_island"]["rum"] -= 4
    set_hand(s, 0, "b3 b3 b3")
    set_hand(s, 1, "r1 b1")
    put(s, 0, "w11", "e")
    put(s, 1, "x9", "n")
    s, _ = play(s, 0, "turn", "face se", "confirm")
    assert s["turn"]["seat"] == 1
    s["turn"].update(seat=0)
    s["turn_index"] = 0
    put(s, 0, "w10", "se")
    s, _ = play(s, 0, "sail se", "go 1 attack cadiz", "face n", "confirm", "spoils crew 2")
    assert GAME.to_act(s) == [1] and s["stack"][-1]["kind"] == "FREE_MOVE"
    s, events = play(s, 1, "sail e", "go 1", "confirm")  # the free move enters Cadiz: 20 landed
    assert s["phase"] == "over" and GAME.outcome(s).winners == (1,)


def test_edge_29_flat_island_window_start_and_after() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 r1")
    s["flat"]["treasure"]["gold"] = 1
    s["flat"]["crew"]["b2"] = 1
    s["treasure_island"]["gold"] -= 1
    give_hold(s, 0, "rum", "rum")
    put(s, 0, "e21", "n")
    rebalance(s)
    legal = GAME.legal_actions(s, 0)
    assert [a for a in legal if a.startswith("flat")] == ["flat take b2", "flat leave b3", "flat leave r1"]
    s, _ = play(s, 0, "flat take b2", "flat leave r1")
    assert s["flat"]["crew"] == {"b1": 0, "b2": 0, "b3": 0, "r1": 1, "r2": 0, "r3": 0}
    assert not any(a.startswith("flat leave rum") for a in GAME.legal_actions(s, 0))  # never treasure
    # after arriving: the window opens again, and treasure fits once the hold has room
    t = make(THREE)
    set_hand(t, 0, "b3 r1")
    t["flat"]["treasure"]["gold"] = 1
    t["treasure_island"]["gold"] -= 1
    put(t, 0, "f22", "w")
    t, _ = play(t, 0, "sail w", "go 1", "face s", "confirm")
    assert t["turn"]["stage"] == "after" and "flat take gold" in GAME.legal_actions(t, 0)
    t, _ = play(t, 0, "flat take gold", "end")
    assert t["players"][0]["ship"]["hold"] == ["gold"] and t["turn"]["seat"] == 1
