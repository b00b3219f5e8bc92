"""Sailing, interceptions, free moves, derelicts and the honour rule: edge cases 1–7, 10, 12, 26, 28, 30 of
docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

import pytest

from rules.buccaneer import GAME
from rules.core import IllegalAction
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


def moves(state, seat=0):
    return [a for a in GAME.legal_actions(state, seat) if a.split()[0] in ("sail", "turn", "stay")]


def test_edge_01_harbour_exits_no_turn_and_no_stay_away_from_home() -> None:
    s = make()
    assert moves(s) == ["sail se", "sail s", "sail sw", "stay"]
    put(s, 0, "bombay")
    legal = GAME.legal_actions(s, 0)
    assert moves(s) == ["sail sw", "sail w", "sail nw"]
    assert "turn" not in legal and "stay" not in legal
    assert any(a.startswith("want") for a in legal)  # the trade window is open there


def test_edge_02_forward_only_at_sea_and_turn_when_facing_land_or_edge() -> None:
    s = make()
    set_hand(s, 0, "b3 b3 r2")
    put(s, 0, "m20", "n")
    assert moves(s) == ["sail n", "turn"]
    put(s, 0, "k15", "s")  # facing Treasure Island
    assert moves(s) == ["turn"]
    put(s, 0, "a24", "n")  # facing the board edge
    assert moves(s) == ["turn"]


def test_edge_03_lines_stop_at_islands_and_corners_may_be_passed() -> None:
    s = make(honour="off")
    set_hand(s, 0, "b3 b3 r3")
    put(s, 0, "h12", "e")
    s, _ = play(s, 0, "sail e")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == ["go 1", "go 2"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "go 3")
    assert err.value.code == "blocked" and "K12" in err.value.message
    s = make(honour="off")
    set_hand(s, 0, "b3 b3 r3")
    put(s, 0, "m17", "se")
    s, _ = play(s, 0, "sail se")
    assert "go 3" in GAME.legal_actions(s, 0)  # passes O15, diagonal to the island's corner N14
    s, _ = play(s, 0, "go 3", "face n", "confirm")
    assert s["players"][0]["ship"]["at"] == "p14"


def test_edge_04_harbour_entered_only_at_the_end_of_a_line_through_an_exit() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r3")
    put(s, 1, "amsterdam")
    put(s, 2, "amsterdam")
    put(s, 0, "h22", "n")
    s, _ = play(s, 0, "sail n")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == ["go 1", "go 2", "go 3"]
    s, events = play(s, 0, "go 3")
    assert "confirm" in GAME.legal_actions(s, 0)  # no facing in a harbour
    s, events = play(s, 0, "confirm")
    assert s["players"][0]["ship"]["at"] == "amsterdam" and s["players"][0]["ship"]["facing"] is None
    assert "sailed 3 N from H22 into Amsterdam" in public_text(events)
    assert [p["ship"]["at"] for p in s["players"]] == ["amsterdam"] * 3
    s = make()
    set_hand(s, 0, "b3 b3 r3")
    put(s, 0, "j22", "nw")  # i23, h24, then g25 is frame, not a harbour
    s, _ = play(s, 0, "sail nw")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == ["go 1", "go 2"]
    put(s, 0, "i24", "nw")  # the SE exit of Amsterdam, entered diagonally
    s = make()
    set_hand(s, 0, "b3 b3 r3")
    put(s, 0, "i24", "nw")
    s, _ = play(s, 0, "sail nw", "go 1", "confirm")
    assert s["players"][0]["ship"]["at"] == "amsterdam"


def test_edge_05_sharing_in_peace_attack_forms_and_full_squares() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m20", "s")
    put(s, 1, "m18", "e")
    s, _ = play(s, 0, "sail s")
    gos = [a for a in GAME.legal_actions(s, 0) if a.startswith("go 2")]
    assert gos == ["go 2", "go 2 attack cadiz"]
    peace, _ = play(s, 0, "go 2")
    assert [a for a in GAME.legal_actions(peace, 0) if a.startswith("face")] == [
        f"face {d}" for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    ]
    peace, events = play(peace, 0, "face n", "confirm")
    assert "beside Cadiz" in public_text(events)
    assert GAME.to_act(peace) == [1]  # Cadiz was asked nothing; the turn passed on
    war, _ = play(s, 0, "go 2 attack cadiz")
    assert [a for a in GAME.legal_actions(war, 0) if a.startswith("face")] == ["face e", "face w"]
    # two ships there: only attacks, one per ship; three: never an end
    put(s, 2, "m18", "w")
    gos = [a for a in GAME.legal_actions(s, 0) if a.startswith("go 2")]
    assert gos == ["go 2 attack cadiz", "go 2 attack london"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "go 2")
    assert err.value.code == "occupied"
    # a derelict may end beside a single ship but never attacks
    d = make(THREE)
    set_hand(d, 0, "")
    put(d, 0, "m19", "s")
    put(d, 1, "m18", "e")
    d, _ = play(d, 0, "sail s")
    assert [a for a in GAME.legal_actions(d, 0) if a.startswith("go")] == ["go 1"]


def _interception_position():
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r1")  # FS 5, S 7
    set_hand(s, 1, "b1 r1")  # FS 0
    set_hand(s, 2, "b3 b3 b3")  # FS 9
    put(s, 0, "m20", "s")
    put(s, 1, "m19", "e")
    put(s, 2, "m17", "w")
    return s


def test_edge_06_interceptions_in_path_order_and_the_first_attack_stops() -> None:
    s = _interception_position()
    s, events = play(s, 0, "sail s", "go 5", "face s", "confirm")
    assert GAME.to_act(s) == [1]  # the first ship on the path is asked first
    assert s["players"][0]["ship"]["at"] == "m20"
    assert "may attack" in public_text(events) and "M19" in public_text(events)
    s, _ = play(s, 1, "pass")
    assert GAME.to_act(s) == [2]
    s, events = play(s, 2, "attack")
    assert s["players"][0]["ship"]["at"] == "m17"  # stopped where it was attacked
    assert s["last"]["combat"]["attacker"] == 2 and s["last"]["combat"]["winner"] == 2
    # shared square: every non-derelict ship there is asked, in turn order after the mover
    s = _interception_position()
    put(s, 2, "m19", "w")
    s, _ = play(s, 0, "sail s", "go 5", "face s", "confirm")
    assert GAME.to_act(s) == [1]
    s, _ = play(s, 1, "pass")
    assert GAME.to_act(s) == [2]
    s, _ = play(s, 2, "attack")
    assert [p["ship"]["at"] for p in s["players"]] == ["m19", "m19", "m19"]  # three until the free move
    check_invariants(s)


def test_edge_06_free_moves_are_never_intercepted() -> None:
    s = _interception_position()
    set_hand(s, 1, "b3 b3 b3 b2")  # FS 11: Cadiz wins the fight it starts
    put(s, 2, "m16", "w")
    s, _ = play(s, 0, "sail s", "go 5", "face s", "confirm")
    s, _ = play(s, 1, "attack")
    s, _ = play(s, 1, "spoils crew 1")  # Amsterdam gives a card, then makes a free move
    s, _ = play(s, 0, "give b3")
    assert s["stack"][-1]["kind"] == "FREE_MOVE" and GAME.to_act(s) == [0]
    s, _ = play(s, 0, "sail s", "go 4", "face e", "confirm")  # passes London's square at M16
    assert s["players"][0]["ship"]["at"] == "m15"
    assert all(f["kind"] != "INTERCEPT" for f in s["stack"])


def test_edge_07_interceptor_attacks_and_a_draw_gives_the_mover_the_free_move() -> None:
    s = _interception_position()
    set_hand(s, 1, "b3 r3 b2 r2 b1 b3 r1")  # FS 3
    set_hand(s, 0, "b3 b3 r3")  # FS 3: a draw
    s, _ = play(s, 0, "sail s", "go 5", "face s", "confirm")
    s, events = play(s, 1, "attack")
    assert s["last"]["combat"] == {
        "attacker": 1,
        "attacked": 0,
        "square": "m19",
        "result": "draw",
        "winner": None,
        "spoils": None,
    }
    assert "Cadiz attacked Amsterdam at M19: a draw" in public_text(events)
    assert GAME.to_act(s) == [0] and s["stack"][-1]["kind"] == "FREE_MOVE"
    s, _ = play(s, 0, "sail w", "go 2", "face n", "confirm")
    assert s["turn"]["seat"] == 1  # the mover's turn ended with its free move
    assert s["players"][0]["ship"]["at"] == "k19"


def give_turn(s, seat):
    s["turn"] = {**s["turn"], "seat": seat, "stage": "start", "plan": None, "record": None, "freemoved": False}
    s["turn_index"] = s["order"].index(seat)


EIGHT = ("amsterdam", "cadiz", "london", "genoa", "venice", "bristol", "marseilles", "bombay")


def test_edge_10_free_move_with_no_legal_end_is_skipped_and_three_share_a_square() -> None:
    s = make(EIGHT)
    set_hand(s, 0, "b3 b3 b3 b3")  # FS 12
    for seat in (1, 3, 4, 5, 6):
        set_hand(s, seat, "")  # derelicts: never asked to intercept
    set_hand(s, 2, "r1")
    set_hand(s, 7, "b3 b3 b3")
    # A24's only sea neighbours are B24 and A23 (B23 is Flat Island); both hold two ships
    put(s, 1, "a24", "s")
    put(s, 2, "a24", "e")
    put(s, 3, "a23", "n")
    put(s, 4, "a23", "n")
    put(s, 5, "b24", "w")
    put(s, 6, "b24", "w")
    put(s, 0, "e24", "w")
    s, events = play(s, 0, "sail w", "go 4 attack cadiz", "face n", "confirm")
    assert s["last"]["combat"]["winner"] == 0
    assert "Cadiz cannot move and stays" in public_text(events)
    assert [p["ship"]["at"] for p in s["players"]][:3] == ["a24", "a24", "a24"]
    check_invariants(s)
    # a square left with three ships is never a legal end
    give_turn(s, 7)
    put(s, 7, "a20", "n")
    s, _ = play(s, 7, "sail n")
    gos = [a for a in GAME.legal_actions(s, 7) if a.startswith("go")]
    assert gos == ["go 1", "go 2", "go 3 attack genoa", "go 3 attack venice"]  # A24 (three ships): nothing


def test_edge_12_turning_changes_facing_draws_on_the_coast_and_stay_never_draws() -> None:
    s = make()
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m15", "n")
    top_cards(s, 15)
    s, _ = play(s, 0, "turn")
    assert "face n" not in GAME.legal_actions(s, 0)
    assert len([a for a in GAME.legal_actions(s, 0) if a.startswith("face")]) == 7
    pile = len(s["pirate_pile"])
    s, events = play(s, 0, "face e", "confirm")
    assert "draws chance card 15, Recruits" in public_text(events)
    assert len(s["pirate_pile"]) == pile - 2
    # a derelict on the coast may stay: no card
    s = make()
    set_hand(s, 0, "")
    put(s, 0, "m15", "n")
    before = list(s["chance_pile"])
    s, events = play(s, 0, "stay")
    assert s["chance_pile"] == before and "draws" not in public_text(events)
    # starting on the coast draws nothing before the move
    s = make()
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m15", "e")
    before = list(s["chance_pile"])
    s, _ = play(s, 0, "sail e")
    assert s["chance_pile"] == before


def test_edge_26_no_window_in_a_free_move_and_trade_next_turn() -> None:
    s = _interception_position()
    set_hand(s, 1, "b3 b3 b3 b2")
    s, _ = play(s, 0, "sail s", "go 5", "face s", "confirm")
    s, _ = play(s, 1, "attack", "spoils crew 1")
    s, _ = play(s, 0, "give r1")
    # Amsterdam free-moves into Marseilles (a trade port) from M19: NE to P22, Q23, then P24? use N line
    put(s, 0, "p20", "n")
    s, _ = play(s, 0, "sail n", "go 5", "confirm")
    assert s["players"][0]["ship"]["at"] == "marseilles"
    assert s["turn"]["seat"] == 1  # no window was offered: the turn ended
    # next turn, Amsterdam may trade before sailing out
    s["turn"] = {**s["turn"], "seat": 0, "stage": "start", "plan": None, "record": None}
    s["turn_index"] = 0
    legal = GAME.legal_actions(s, 0)
    assert any(a.startswith("want") for a in legal) and "sail s" in legal


def test_edge_28_derelicts_drift_turn_stay_never_attack_and_draw() -> None:
    s = make(THREE)
    set_hand(s, 0, "")
    put(s, 0, "m16", "n")
    assert moves(s) == [f"sail {d}" for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw")] + ["turn", "stay"]
    put(s, 1, "m15", "n")
    give_hold(s, 1, "gold")
    set_hand(s, 1, "b1")
    top_cards(s, 15)
    s, _ = play(s, 0, "sail s")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == ["go 1"]  # no attack form
    s, events = play(s, 0, "go 1", "face s", "confirm")
    assert "draws chance card 15" in public_text(events)  # M15 is a coast square
    assert GAME.to_act(s) == [1]
    # a derelict in a harbour drifts out through an exit; it is not intercepted-from and never intercepts
    d = make(THREE)
    set_hand(d, 0, "")
    assert moves(d) == ["sail se", "sail s", "sail sw", "stay"]
    d, _ = play(d, 0, "sail s")
    assert [a for a in GAME.legal_actions(d, 0) if a.startswith("go")] == ["go 1"]
    # a derelict passed by a mover is not asked
    p = make(THREE)
    set_hand(p, 0, "b3 b3 r1")
    set_hand(p, 1, "")
    put(p, 0, "m20", "s")
    put(p, 1, "m19", "e")
    p, _ = play(p, 0, "sail s", "go 3", "face s", "confirm")
    assert p["players"][0]["ship"]["at"] == "m17" and GAME.to_act(p) == [1]
    # and it can be attacked (fighting strength 0)
    a = make(THREE)
    set_hand(a, 0, "b3 b1")
    set_hand(a, 1, "")
    put(a, 0, "m20", "s")
    put(a, 1, "m19", "e")
    a, _ = play(a, 0, "sail s", "go 1 attack cadiz", "face e", "confirm")
    assert a["last"]["combat"]["winner"] == 0


def test_edge_30_honour_distances_challenges_and_verdicts() -> None:
    s = make(THREE)
    set_hand(s, 0, "b1 r1")  # S 2, two cards: up to 6 offered
    put(s, 0, "m24", "s")
    s, _ = play(s, 0, "sail s")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == [f"go {k}" for k in range(1, 7)]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "go 7")
    assert err.value.code == "too_far" and "never sail more than 6" in err.value.message
    assert "exceeds your sailing strength" in GAME.label(GAME.view(s, 0), "go 3")
    honest, _ = play(s, 0, "go 2", "face s", "confirm")
    assert honest["challenge"] is None  # k ≤ hand size: provably honest
    s, _ = play(s, 0, "go 4", "face s", "confirm")
    assert s["challenge"] == {"mover": 0, "k": 4, "n0": 2, "S0": 2}
    assert "challenge" in GAME.legal_actions(s, 1) and "challenge" in GAME.legal_actions(s, 2)
    assert "challenge" not in GAME.legal_actions(s, 0)
    caught, events = play(s, 2, "challenge")  # a seat not to act may challenge
    assert "exceeded" in public_text(events)
    assert caught["players"][0]["hand"] == dict.fromkeys(("b1", "b2", "b3", "r1", "r2", "r3"), 0)
    assert "challenge" not in GAME.legal_actions(caught, 1)  # only the first challenge counts
    assert any("sailing strength was 2" in e.private.get(2, "") for e in events)
    # the window closes when the next seat acts
    moved, _ = play(s, 1, "sail nw")
    assert "challenge" not in GAME.legal_actions(moved, 2)
    # a wrong challenge: the verdict uses S0 at confirm, and the challenger forfeits
    w = make(THREE)
    set_hand(w, 0, "b3 r3")  # S 6 with 2 cards
    set_hand(w, 1, "b3 b2 r1")
    give_hold(w, 1, "gold")
    put(w, 0, "m24", "s")
    w, _ = play(w, 0, "sail s", "go 5", "face s", "confirm")
    w, events = play(w, 1, "challenge")
    assert "within" in public_text(events)
    assert GAME.to_act(w) == [1] and GAME.legal_actions(w, 1) == ["forfeit b3", "forfeit gold"]
    w, _ = play(w, 1, "forfeit gold")
    assert w["flat"]["treasure"]["gold"] == 1 and GAME.to_act(w) == [1]
    # honour off: nothing above S is offered and no window opens
    off = make(THREE, honour="off")
    set_hand(off, 0, "b1 r1")
    put(off, 0, "m24", "s")
    off, _ = play(off, 0, "sail s")
    assert [a for a in GAME.legal_actions(off, 0) if a.startswith("go")] == ["go 1", "go 2"]
    off, _ = play(off, 0, "go 2", "face s", "confirm")
    assert off["challenge"] is None


def test_edge_30_free_moves_are_checked_against_strength() -> None:
    s = _interception_position()
    set_hand(s, 1, "b3 b3 b3 b2")
    set_hand(s, 0, "b1 r1 b1")  # S 3 after the fight: free move up to 3, never more
    s, _ = play(s, 0, "sail s", "go 5", "face s", "confirm")
    s, _ = play(s, 1, "attack", "spoils crew 1")
    s, _ = play(s, 0, "give r1")
    s, _ = play(s, 0, "sail w")
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("go")] == ["go 1", "go 2"]


def test_plan_undo_steps_back_one_step_at_a_time_and_reveals_nothing() -> None:
    s = make()
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m20", "s")
    s1, events = play(s, 0, "sail s", "go 3", "face e")
    assert public_text(events) == "Amsterdam is planning a move"  # the plan stays private
    assert GAME.view(s1, None)["players"][0]["ship"]["at"] == "m20"
    assert GAME.undoable(s1, 0, "undo") and not GAME.undoable(s1, 0, "confirm")
    s2, _ = play(s1, 0, "undo")
    assert s2["turn"]["plan"]["face"] is None and s2["turn"]["plan"]["k"] == 3
    s3, _ = play(s2, 0, "undo")
    assert s3["turn"]["plan"]["k"] is None
    s4, _ = play(s3, 0, "undo")
    assert s4["turn"]["stage"] == "start" and s4["turn"]["plan"] is None
    t, _ = play(s, 0, "turn", "face w", "undo")
    assert t["turn"]["plan"] == {**t["turn"]["plan"], "kind": "turn", "face": None}
    t, _ = play(t, 0, "undo")
    assert t["turn"]["stage"] == "start"


def test_timeout_defaults_are_legal_and_follow_the_spec_table() -> None:
    s = make(THREE)
    assert GAME.timeout_action(s, 0) == "stay"  # at home
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m20", "s")
    assert GAME.timeout_action(s, 0) == "turn"
    s, _ = play(s, 0, "turn")
    assert GAME.timeout_action(s, 0) == "face sw"  # the next facing clockwise
    i = _interception_position()
    i, _ = play(i, 0, "sail s", "go 5", "face s", "confirm")
    assert GAME.timeout_action(i, 1) == "pass"
    choose = GAME.new(3, {}, "t")
    assert GAME.timeout_action(choose, 0) == "home amsterdam"


def test_challenge_verdict_is_public_and_strength_private() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 r3")
    put(s, 0, "m24", "s")
    s, _ = play(
        s,
        0,
        "sail s",
        "go 5",
        "face s",
        "confirm",
    )
    s, _ = play(s, 2, "challenge")
    public = GAME.view(s, None)["last"]["challenge"]
    assert public == {"challenger": 2, "mover": 0, "k": 5, "verdict": "within"}
    assert GAME.view(s, 2)["you"]["challenge"]["S0"] == 6
    assert GAME.view(s, 1)["you"]["challenge"] is None
    assert GAME.view(s, 0)["you"]["text"] == "Hand: B3 R3 | sailing 6 | fighting 0 | keepers: none"


def test_the_movers_own_heading_names_the_next_step_of_its_private_plan() -> None:
    """Issue 28: the board post lists a plan's steps (the plan is private); the mover's own picker heading, read from
    its own view, names the one owed now."""
    s = make()
    put(s, 0, "h22", "n")
    public = "finish planning your move: direction, distance, facing, then confirm"
    s, _ = play(s, 0, "sail n")
    assert GAME.owed(GAME.view(s, None), 0) == public
    mine = GAME.owed(GAME.view(s, 0), 0)
    assert mine == "finish planning your move: choose how far to sail N, then a facing and confirm"
    s, _ = play(s, 0, "go 1")
    assert GAME.owed(GAME.view(s, 0), 0) == "finish planning your move: choose your facing at H23, then confirm"
    s, _ = play(s, 0, "face e")
    assert GAME.owed(GAME.view(s, 0), 0) == "finish planning your move: confirm (or undo)"
    assert GAME.owed(GAME.view(s, None), 0) == public
