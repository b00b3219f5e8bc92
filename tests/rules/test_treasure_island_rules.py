"""Treasure Island scenario tests from hand-built positions: setup, calendar, pirate actions, Long John
Silver's steps and the escape. Tests are named after the numbered edge cases of
docs/games/treasure_island.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core import IllegalAction
from rules.treasure_island import GAME, geometry, hints

State = dict[str, Any]


def hu(x: float, y: float) -> list[int]:
    return [int(x * 2), int(y * 2)]


def game(players: int = 3, treasure: tuple[float, float] = (20, 8), seed: str = "t", **opts: str) -> State:
    options = {"silver": "first", **opts}
    s = GAME.new(players, options, seed)
    s, _ = GAME.apply(s, 0, f"bury {geometry.fmt((int(treasure[0] * 2), int(treasure[1] * 2)))}")
    return s


def at_turn(s: State, mini: str, left: int = 2, pos: tuple[float, float] | None = None) -> State:
    s = json.loads(json.dumps(s))
    s["state"] = "turn"
    s["pending"] = None
    s["turn"] = {"mini": mini, "left": left}
    if pos is not None:
        s["minis"][mini]["pos"] = hu(*pos)
    return s


def act(s: State, action: str) -> State:
    seat = GAME.to_act(s)[0]
    s2, _ = GAME.apply(s, seat, action)
    return s2


def code(s: State, action: str, seat: int | None = None) -> str:
    seat = GAME.to_act(s)[0] if seat is None else seat
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, seat, action)
    return e.value.code


def owner(s: State, mini: str) -> int:
    return s["owner"][mini]


# -- setup ------------------------------------------------------------------------------------------------
def test_new_validates_players_and_options() -> None:
    with pytest.raises(IllegalAction) as e:
        GAME.new(6, {"expansion": "off"}, "x")
    assert e.value.code == "bad_players"
    assert GAME.new(6, {}, "x")["options"]["expansion"] == "on"  # six players bring Ben Gunn along
    with pytest.raises(IllegalAction) as e:
        GAME.new(3, {"map": "mars"}, "x")
    assert e.value.code == "bad_option"
    assert [o.name for o in GAME.info.options] == ["map", "expansion", "tricks", "silver"]
    assert len(GAME.info.rules) < 3500
    GAME.new(6, {"expansion": "on"}, "x")


@pytest.mark.parametrize(("players", "f", "side"), [(2, 3, "A"), (3, 4, "B"), (4, 3, "A"), (5, 4, "B")])
def test_setup_counts(players: int, f: int, side: str) -> None:
    s = GAME.new(players, {"silver": "first"}, "seed")
    assert s["F"] == f and s["side"] == side
    assert len(s["order"]) == f and len(s["hand"]) == 3 and len(s["compass_hand"]) == f + 3
    assert s["tokens"] == {"truth": 6, "bluff": 0, "lie": 0}
    assert GAME.to_act(s) == [0] and s["state"] == "bury"
    # calendar order: counter-clockwise from the seat to LJS's right, by passes
    seats = [s["owner"][m] for m in s["order"]]
    assert seats[0] == players - 1
    assert s["tower"] == "T1"


def test_silver_random_seat_comes_from_the_seed() -> None:
    seats = {GAME.new(4, {}, f"s{k}")["silver"] for k in range(12)}
    assert len(seats) > 1


def test_first_day_after_burial() -> None:
    s = game()
    assert s["day"] == 1 and s["state"] == "hint_card" and GAME.to_act(s) == [0]
    assert s["set_aside"] == f"D{geometry.geo('treasure').district[geometry.node(40, 16)]}"
    assert all(len(d) >= 1 for d in s["districts"].values())


def test_bury_rejects_forbidden_nodes() -> None:
    s = GAME.new(3, {"silver": "first"}, "t")
    assert code(s, "bury 4.5,9") == "not_eligible"  # a starting spot
    assert code(s, "bury 0,0") == "not_eligible"  # sea
    assert code(s, "bury 15.5,17") == "not_eligible"  # red zone
    assert code(s, "bury 12.3,4") == "bad_point"
    assert code(s, "ride 20,8") == "illegal"  # not a step of burying: the shared wording
    assert code(s, "bury 20,8", seat=1) == "not_your_turn"


def test_parse_canonical_forms() -> None:
    assert GAME.parse("Ride (12.5, 7)") == "ride 12.5,7"
    assert GAME.parse("hint s4") == "hint S4"
    assert GAME.parse("say ne") == "say NE"
    assert GAME.parse("say within-8") == "say within-8"
    assert GAME.parse("say l3") == "say L3"
    assert GAME.parse("use  stride 18 12") == "use stride 18,12"
    assert GAME.parse("give dig traitor") == "give dig traitor"
    assert GAME.parse("real b") == "real B"
    with pytest.raises(IllegalAction):
        GAME.parse("fly 1,2")


# -- the calendar ---------------------------------------------------------------------------------------------
def play_hint_truth(s: State) -> State:
    """Play the first legal hint with the first legal choices."""
    while s["state"] in ("hint_card", "hint_token", "hint_param"):
        s = act(s, GAME.legal_actions(s, 0)[0])
    return s


def test_calendar_side_a_days_and_events() -> None:
    s = game(players=4)
    s = play_hint_truth(s)
    assert s["hints"][0]["token"] == "truth" and s["calendar"][0]["token"] == "truth"
    seen = []
    while s["escape"] is None:
        if s["state"] in ("hint_card", "hint_token", "hint_param"):
            s = play_hint_truth(s)
        elif s["state"] == "prison":
            s = act(s, "tower T2")
        else:
            assert s["state"] == "turn"
            seen.append((s["day"], s["turn"]["left"]))
            s = act(s, "end")
    assert s["day"] == 19
    assert [left for _, left in seen] == [1] * 6 + [2] * 12
    assert s["bluffs_taken"] == 2 and s["black_spot"]
    assert len(s["hints"]) == 8


def test_black_spot_swaps_the_hand() -> None:
    s = game(players=4)
    s = json.loads(json.dumps(s))
    s["day"] = 7
    s["state"] = "turn"
    s["pending"] = None
    s["turn"]["left"] = 0
    from rules.treasure_island import days

    ev: list = []
    days.start_day(s, ev)
    assert s["day"] == 8 and s["black_spot"] and all(c.startswith("B") for c in s["hand"]) and len(s["hand"]) == 3
    assert "Black Spot" in ev[-1].public


# -- moves and searches ------------------------------------------------------------------------------------------
def test_ride_walk_and_errors() -> None:
    s = at_turn(game(), "jim", pos=(20, 8))
    assert code(s, "ride 20,14.5") == "too_far"
    assert code(s, "ride 20,8") == "bad_destination"
    s2 = act(s, "ride 20,14")
    assert s2["minis"]["jim"]["pos"] == hu(20, 14) and s2["turn"]["left"] == 1
    s3 = act(s2, "walk 20,11")
    assert s3["searches"][-1]["kind"] == "walk" and s3["searches"][-1]["anchor"] == hu(20, 11)


def test_edge_06_remote_searches_anchor_on_their_centre_and_can_win() -> None:
    s = at_turn(game(treasure=(20, 8)), "anne", pos=(4.5, 9))
    won = act(s, "monkey 20.5,8.5")
    assert won["state"] == "over" and won["outcome"] == {"winners": [owner(s, "anne")], "reason": "found"}
    miss = act(s, "monkey 30,10")
    assert miss["state"] == "chest"
    assert miss["chest_ctx"]["pos"] == hu(4.5, 9)  # information is judged from her own node
    gives = GAME.legal_actions(miss, 0)
    assert "give east" in gives and "give west" not in gives


def test_edge_07_large_search_centres() -> None:
    s = at_turn(game(treasure=(30, 20)), "jim", pos=(12, 14))
    centres = [a for a in GAME.legal_actions(s, owner(s, "jim")) if a.startswith("search ")]
    assert len(centres) == 81  # Jim: 2.5 miles
    s = at_turn(game(treasure=(30, 20)), "olivier", pos=(12, 14))
    centres = [a for a in GAME.legal_actions(s, owner(s, "olivier")) if a.startswith("search ")]
    assert len(centres) == 49
    s2 = at_turn(s, "olivier", pos=(4, 12))
    assert "search 2,12" in GAME.legal_actions(s2, owner(s, "olivier"))  # sea centre is fine
    after = act(s2, "search 2,12")
    assert after["searches"][-1]["anchor"] == hu(4, 12)
    assert code(s2, "spyglass 0,0") == "bad_destination"
    spy = act(s, "spyglass 20,20")
    assert spy["searches"][-1]["radius"] == 4  # Jim's Fortune is his alone
    assert code(s, "search 12,16.5") == "too_far"


def test_edge_08_olivier_rides_two_segments() -> None:
    s = at_turn(game(treasure=(30, 20)), "olivier", pos=(20, 8))
    assert code(s, "ride 27,8") == "too_far"  # 7 miles in one segment
    s2 = act(s, "ride 20,14")
    assert s2["state"] == "ride2" and s2["turn"]["left"] == 1
    assert "halt" in GAME.legal_actions(s2, owner(s, "olivier"))
    assert code(s2, "ride 20,20.5") == "too_far"
    s3 = act(s2, "ride 24,18")
    assert s3["state"] == "turn" and s3["minis"]["olivier"]["pos"] == hu(24, 18)
    s4 = act(s2, "halt")
    assert s4["minis"]["olivier"]["pos"] == hu(20, 14)


def test_edge_09_anne_compasses_twice() -> None:
    s = at_turn(game(treasure=(30, 20)), "anne", pos=(12, 14))
    s = act(s, "compass")
    assert s["state"] == "compass" and GAME.to_act(s) == [0]
    shows = GAME.legal_actions(s, 0)
    assert shows and all(a.startswith("show ") for a in shows)
    s = act(s, shows[0])
    s = act(s, "compass")
    s = act(s, GAME.legal_actions(s, 0)[0])
    s = at_turn(s, "anne", left=2)
    assert "compass" not in GAME.legal_actions(s, owner(s, "anne"))
    assert code(s, "compass") == "no_uses_left"
    j = at_turn(s, "jim", left=2)
    assert j["minis"]["jim"]["compass"] == 1


def test_compass_shows_only_true_cards() -> None:
    s = at_turn(game(treasure=(30, 20)), "jim", pos=(12, 14))
    s = act(s, "compass")
    t = (60, 40)
    for a in GAME.legal_actions(s, 0):
        assert hints.compass_true(a.split()[1], (24, 28), t)
    false_cards = [c for c in s["compass_hand"] if not hints.compass_true(c, (24, 28), t)]
    for c in false_cards:
        assert code(s, f"show {c}") == "must_be_true"
    v = GAME.view(act(s, GAME.legal_actions(s, 0)[0]), owner(s, "jim"))
    assert len(v["private"]["compass"]) == 1


# -- hints --------------------------------------------------------------------------------------------------------
def test_edge_12_first_hint_is_truth_and_later_token_steps_always_open() -> None:
    s = game()
    card = GAME.legal_actions(s, 0)[0]
    s = act(s, card)
    assert s["state"] == "hint_param"  # token step skipped
    s = play_hint_truth(s)
    assert s["hint_tokens"] == ["truth"]
    s = json.loads(json.dumps(s))
    s["state"] = "turn"
    s["turn"]["left"] = 0
    s["day"] = 4  # next: June 5, a Starting Hint on side B
    from rules.treasure_island import days

    days.start_day(s, [])
    assert s["state"] == "hint_card"
    s = act(s, GAME.legal_actions(s, 0)[0])
    assert s["state"] == "hint_token"
    assert GAME.legal_actions(s, 0) == ["token truth"]  # only one kind, the step still opens


def _hint_state(s: State, hand: list[str], bluff: int = 0, hints: int = 1) -> State:
    s = json.loads(json.dumps(s))
    s["state"] = "hint_card"
    s["pending"] = {"card": None, "token": None, "params": [], "fog_left": 0}
    s["hand"] = hand
    s["tokens"]["bluff"] = bluff
    if hints and not s["hints"]:
        s["hints"] = [{"day": 1, "true_mask": geometry.mask_b64(geometry.ALL), "card": "S2", "token": "truth"}]
        s["hint_tokens"] = ["truth"]
    return s


def test_edge_13_chest_credit() -> None:
    s = _hint_state(game(), ["S4", "S6", "S7"])
    assert GAME.legal_actions(s, 0) == ["redraw"]
    assert code(s, "hint S4") == "no_credit"
    s["given"] = [{"day": 1, "mini": "jim", "token": "dig", "traitor": False}]
    assert GAME.legal_actions(s, 0)[:3] == ["hint S4", "hint S6", "hint S7"]
    s = act(s, "hint S4")
    s = act(s, "token truth")
    s = act(s, GAME.legal_actions(s, 0)[0])
    assert s["chest_hints_played"] == 1 and GAME.view(s, None)["chests"]["credit"] == 0
    # no credit, only chest cards, empty deck: the event is skipped and no token is spent
    from rules.treasure_island import days

    t = json.loads(json.dumps(s))
    t["hand"], t["starting_deck"] = ["S4", "S6", "S7"], []
    t["state"], t["turn"]["left"], t["day"] = "turn", 0, 4
    truth = t["tokens"]["truth"]
    ev: list = []
    days.start_day(t, ev)
    assert t["day"] == 5 and t["state"] == "turn" and t["tokens"]["truth"] == truth
    assert any("no hint" in (e.public or "") for e in ev)


def test_edge_14_redraw_repeats_while_three_chest_cards_and_a_deck() -> None:
    s = _hint_state(game(), ["S4", "S6", "S7"])
    s["starting_deck"] = ["S4", "S6", "S7", "S2"][:0] + ["S1", "S2"]
    s["hand"] = ["S4", "S6", "S7"]
    s["discards"] = []
    s2 = act(s, "redraw")
    assert s2["hand"] == ["S1", "S2"] and s2["discards"] == ["S4", "S6", "S7"]
    s = _hint_state(game(), ["S4", "S6"])
    s["starting_deck"] = ["S7"]
    assert "redraw" not in GAME.legal_actions(s, 0)
    s = _hint_state(game(), ["S4", "S6", "S7"])
    s["starting_deck"] = ["B8", "B9", "B10", "S1"]  # hypothetical chest cards again
    s2 = act(s, "redraw")
    assert "redraw" in GAME.legal_actions(s2, 0)


def test_edge_15_bluff_may_lie_on_if_impossible_cards() -> None:
    s = game(players=4, treasure=(20, 8))
    s = _hint_state(s, ["B4", "B5", "B6"], bluff=1)
    s["black_spot"] = True
    minis = s["order"]
    s["minis"][minis[0]]["pos"] = hu(20, 10)  # within 4 miles of the treasure
    s = act(s, "hint B4")
    assert GAME.legal_actions(s, 0) == ["token truth", "token bluff"]
    t = act(s, "token truth")
    assert "say none" not in GAME.legal_actions(t, 0)
    b = act(s, "token bluff")
    assert "say none" in GAME.legal_actions(b, 0) and f"say {minis[1]}" in GAME.legal_actions(b, 0)
    assert code(t, "say none") == "must_be_true"
    done = act(b, "say none")
    assert done["hint_tokens"][-1] == "bluff" and done["hints"][-1]["token"] == "hidden"


def test_truth_token_only_true_statements() -> None:
    s = _hint_state(game(players=4, treasure=(20, 8)), ["S2", "S3", "S5"])
    s = act(s, "hint S5")
    s = act(s, "token truth")
    s = act(s, "say L9")  # Hanging Tree (18,9.5): 2.5 miles away
    assert GAME.legal_actions(s, 0) == [f"say {x}" for x in ("within-4", "within-8", "within-12")]
    s = act(s, "say within-4")
    h = s["hints"][-1]
    assert h["card"] == "S5" and geometry.mask_from_b64(h["true_mask"]) >> geometry.node(40, 16) & 1


def test_edge_16_lie_trick() -> None:
    s = game(players=4, treasure=(20, 8), expansion="on", tricks="1")
    s = _hint_state(s, ["S2", "S3", "S5"])
    assert "lie" in s["tricks"]["hand"]
    s = act(s, "hint S3")
    assert GAME.legal_actions(s, 0)[-1] == "token lie"
    s2 = act(s, "token lie")
    vals = GAME.legal_actions(s2, 0)
    s3 = act(s2, vals[0])
    for a in GAME.legal_actions(s3, 0):
        s4 = act(s3, a)
        h = s4["hints"][-1]
        assert not geometry.mask_from_b64(h["true_mask"]) >> geometry.node(40, 16) & 1
    assert s4["hint_tokens"][-1] == "lie" and s4["tricks"]["points"] == 0
    late = json.loads(json.dumps(s))
    late["day"] = 17
    assert "token lie" not in GAME.legal_actions(late, 0)
    first = game(players=4, treasure=(20, 8), expansion="on", tricks="1")
    first = act(first, GAME.legal_actions(first, 0)[0])
    assert first["state"] == "hint_param"
    # verification shows LIE
    v = at_turn(s4, s4["order"][0])
    v["hints"][-1]["day"] = 2
    v = act(v, "verify 2")
    assert v["verified"][owner(v, v["order"][0])][-1]["token"] == "lie"


def test_edge_17_district_hints_only_at_setup() -> None:
    s = game(players=3, treasure=(20, 8))
    dealt = sum(len(d) for d in s["districts"].values())
    assert dealt == 4 + 2  # one per miniature, Charlotte two more
    assert len(s["scrolls"]) == 2 and s["scrolls"] == s["districts"]["charlotte"][1:]
    assert s["set_aside"] not in [d for ds in s["districts"].values() for d in ds]
    assert len(s["district_pile"]) == 10 - 6
    view = GAME.view(s, 0)
    assert view["private"]["districts"]["scrolls"] == s["scrolls"]
    pirate = owner(s, "charlotte")
    assert GAME.view(s, pirate)["private"]["districts"]["charlotte"] == s["districts"]["charlotte"]
    assert GAME.view(s, None)["counts"]["district_pile"] == 4


def test_edge_18_hints_freeze_their_nodes() -> None:
    s = game(players=4, treasure=(20, 8))
    s = play_hint_truth(s)
    h = json.loads(json.dumps(s["hints"][0]))
    m = s["turn"]["mini"]
    s2 = act(at_turn(s, m, pos=(20, 14)), "ride 24,14")
    assert s2["hints"][0] == h


# -- chests and items --------------------------------------------------------------------------------------------
def test_edge_19_information_chests() -> None:
    s = at_turn(game(treasure=(20, 8)), "jim", pos=(20, 14))
    s = act(s, "dig")
    assert s["state"] == "chest"
    gives = GAME.legal_actions(s, 0)
    assert "give west" in gives and "give east" in gives  # x_T == x_P
    assert "give notdistrict" in gives
    s2 = at_turn(game(treasure=(20, 8)), "jim", pos=(21, 6))
    s2 = act(s2, "dig")
    assert "give notdistrict" not in GAME.legal_actions(s2, 0)  # T is in the searcher's district
    assert code(s2, "give notdistrict") == "must_be_true"
    s3 = act(s, "give east")
    pv = GAME.view(s3, owner(s, "jim"))
    assert pv["private"]["info_tokens"][0]["token"] == "east"
    assert "east" not in json.dumps(GAME.view(s3, None)["chests"])
    assert s3["state"] == "step"


def test_edge_20_items() -> None:
    s = at_turn(game(treasure=(20, 8)), "jim", left=1, pos=(20, 14))
    seat = owner(s, "jim")
    s = act(s, "dig")
    s = act(s, "give extra")
    s = act(s, "stay")
    assert s["state"] == "turn" and s["turn"]["left"] == 0  # has received a chest: no automatic end
    assert GAME.legal_actions(s, seat) == ["use extra", "end"]
    s = act(s, "use extra")
    assert s["turn"]["left"] == 1
    s = act(s, "dig")
    s = act(s, "give dig")
    s = act(s, "stay")
    s = at_turn(s, "jim", left=0, pos=(20, 9))
    won = act(s, "use dig")
    assert won["state"] == "over" and won["outcome"]["winners"] == [seat]
    miss = act(at_turn(s, "jim", left=0, pos=(26, 14)), "use dig")
    assert miss["state"] == "chest"


def test_stride_item() -> None:
    s = at_turn(game(treasure=(20, 8)), "jim", left=0, pos=(20, 14))
    s["items"][owner(s, "jim")] = ["stride"]
    s["received"][owner(s, "jim")] = True
    assert code(s, "use stride 12.5,14") == "too_far"
    s2 = act(s, "use stride 24,19")
    assert s2["minis"]["jim"]["pos"] == hu(24, 19) and s2["items"][owner(s, "jim")] == []


def test_edge_21_one_player_with_three_miniatures() -> None:
    s = game(players=2, treasure=(20, 8))
    assert len(s["order"]) == 3 and set(s["owner"].values()) == {1}
    v = GAME.view(s, 1)
    assert len(v["private"]["districts"]) == 3
    specials = [s["minis"][m]["gallop"] for m in s["order"]]
    assert specials == [1, 1, 1]
    p = json.loads(json.dumps(s))
    p["day"], p["state"], p["turn"]["left"] = 5, "turn", 0
    from rules.treasure_island import days

    days.start_day(p, [])
    assert p["state"] == "prison" and GAME.to_act(p) == [1]


def test_edge_22_prison() -> None:
    s = game(players=4, treasure=(20, 8))
    p = json.loads(json.dumps(s))
    p["day"], p["state"], p["turn"]["left"], p["pending"] = 5, "turn", 0, None
    from rules.treasure_island import days

    days.start_day(p, [])
    assert p["state"] == "prison"
    assert GAME.legal_actions(p, GAME.to_act(p)[0])[0] == "tower T1"
    kept = act(p, "tower T1")
    assert kept["tower"] == "T1" and kept["state"] == "turn"
    x = game(players=4, treasure=(20, 8), expansion="on", tricks="0")
    x = json.loads(json.dumps(x))
    x["day"], x["state"], x["turn"]["left"], x["pending"] = 5, "turn", 0, None
    days.start_day(x, [])
    assert x["state"] == "prison_trick" and GAME.legal_actions(x, 0) == ["proceed"]
    y = game(players=4, treasure=(20, 8), expansion="on", tricks="1")
    y = json.loads(json.dumps(y))
    y["day"], y["state"], y["turn"]["left"], y["pending"] = 5, "turn", 0, None
    days.start_day(y, [])
    assert GAME.legal_actions(y, 0) == ["trick mutiny", "proceed"]
    m = act(y, "trick mutiny")
    assert GAME.to_act(m) == [0] and m["state"] == "prison"
    assert act(m, "tower T7")["tower"] == "T7"


# -- the escape ----------------------------------------------------------------------------------------------------
def to_escape(players: int = 4, treasure: tuple[float, float] = (20, 8), **opts: str) -> State:
    s = game(players=players, treasure=treasure, **opts)
    s = json.loads(json.dumps(s))
    s["state"], s["turn"]["left"], s["pending"] = "turn", 0, None
    s["day"] = 18 if s["side"] == "A" else 20
    from rules.treasure_island import days

    days.start_day(s, [])
    return s


def test_edge_23_escape_day_and_round_order() -> None:
    s = to_escape(players=4)
    assert s["state"] == "escape" and GAME.to_act(s) == [0] and s["calendar"][-1]["stars"] == 0
    assert s["escape"]["queue"] == [m for seat in (1, 2, 3) for m in s["order"] if s["owner"][m] == seat]
    s = act(s, "stay")
    assert s["state"] == "turn" and s["turn"]["left"] == 2 and s["owner"][s["turn"]["mini"]] == 1
    three = to_escape(players=3)
    assert three["escape"]["queue"] == [
        m
        for seat in (1, 2)
        for m in sorted([x for x in three["order"] if three["owner"][x] == seat], key=lambda x: three["pass_idx"][x])
    ]


def test_edge_24_escape_runs() -> None:
    s = to_escape(players=4, treasure=(20, 8))
    s["figures"][0]["pos"] = hu(20, 14)
    assert code(s, "run 20,18.5") == "too_far"
    s2 = act(s, "run 20,10")
    assert s2["state"] == "escape" and s2["escape"]["moves"] == 1
    won = act(s2, "run 20,8")
    assert won["state"] == "over" and won["outcome"] == {"winners": [0], "reason": "escaped"}
    # a search after the escape still opens the chest decision
    p = act(act(s, "stay"), "dig")
    assert p["state"] == "chest"


def test_phantom_and_only_the_real_figure_wins() -> None:
    s = to_escape(players=4, treasure=(20, 10), expansion="on", tricks="2")
    s["figures"][0]["pos"] = hu(20, 14)
    assert "trick phantom" in GAME.legal_actions(s, 0)
    s = act(s, "trick phantom")
    assert s["state"] == "phantom" and [f["id"] for f in s["figures"]] == ["A", "B", "C"]
    s = act(s, "real B")
    assert GAME.view(s, None)["silver"]["figures"][1]["id"] == "B" and "real" not in json.dumps(
        GAME.view(s, None)["silver"]
    )
    s = act(s, "run 20,10")  # figure A, a phantom, stands on T
    assert s["state"] == "escape"
    s = act(s, "stay")
    won = act(s, "run 20,10")
    assert won["outcome"]["reason"] == "escaped"


def test_edge_35_round_cap() -> None:
    s = to_escape(players=4)
    s["escape"]["round"] = 30
    s = act(s, "stay")
    while s["state"] != "over":
        s = act(s, "end")
    assert s["outcome"] == {"winners": [], "reason": "provisions"}
    assert GAME.outcome(s).scores == (0.0, 0.0, 0.0, 0.0)


# -- the expansion -------------------------------------------------------------------------------------------------
def test_edge_25_fog() -> None:
    s = game(players=4, treasure=(30, 20), expansion="on", tricks="1")
    s = _hint_state(s, ["S2", "S3", "S5"])
    s["day"] = 12
    assert GAME.legal_actions(s, 0)[-1] == "trick fog"
    s = act(s, "trick fog")
    for m in s["order"]:
        near = geometry.fmt((s["minis"][m]["pos"][0] + 2, s["minis"][m]["pos"][1]))
        assert f"fog {near}" not in GAME.legal_actions(s, 0)
    s = act(s, "fog 20,12")
    s = act(s, "fog 12,12")
    s = act(s, "fog 12,12")
    assert s["state"] == "hint_card" and "trick fog" not in GAME.legal_actions(s, 0)
    t = at_turn(s, s["order"][0], pos=(20, 8))
    assert code(t, "ride 20,14") == "blocked"
    assert code(t, "gallop 20,12.5") == "bad_destination"
    assert code(t, "gallop 20,13.5") == "bad_destination"  # on the edge
    searched = act(t, "search 20,10")  # searches ignore fog
    assert geometry.mask_from_b64(searched["searches"][-1]["covered"]) >> geometry.node(40, 23) & 1
    from rules.treasure_island import days

    u = json.loads(json.dumps(t))
    u["turn"]["left"] = 0
    u["day"] = 14
    days.start_day(u, [])
    assert u["fog"] == []
    w = json.loads(json.dumps(t))
    w["state"], w["turn"]["left"], w["day"] = "turn", 0, 13
    w["calendar"] = w["calendar"][:1]
    days.start_day(w, [])
    assert len(w["fog"]) == 3


def test_edge_30_traitor() -> None:
    two = game(players=2, expansion="on", tricks="3")
    assert "traitor" not in two["tricks"]["hand"]
    s = game(players=4, treasure=(20, 8), expansion="on", tricks="2")
    s = at_turn(s, "jim" if "jim" in s["minis"] else s["order"][0], pos=(26, 14))
    m = s["turn"]["mini"]
    s["day"] = 10
    s = act(s, "dig")
    assert any(a.endswith(" traitor") for a in GAME.legal_actions(s, 0))
    s = act(s, "give extra traitor")
    traitor = owner(s, m)
    assert s["traitor"] == traitor
    assert "traitor" not in json.dumps(GAME.view(s, None)).replace('"traitor": null', "")
    assert GAME.view(s, traitor)["private"]["traitor"] is True
    s["figures"] = []
    e = json.loads(json.dumps(s))
    e["state"], e["turn"]["left"], e["pending"], e["day"] = "turn", 0, None, 18
    from rules.treasure_island import days

    days.start_day(e, [])
    e["figures"][0]["pos"] = hu(20, 10)
    won = act(e, "run 20,8")
    assert won["outcome"]["winners"] == sorted([0, traitor])
    alone = act(at_turn(s, m, pos=(20, 9)), "dig")
    assert alone["outcome"]["winners"] == [traitor]


def test_edge_31_verification() -> None:
    s = game(players=4, treasure=(20, 8))
    s = play_hint_truth(s)
    m = s["order"][0]
    t = at_turn(s, m)
    assert not any(a.startswith("verify") for a in GAME.legal_actions(t, owner(t, m)))
    assert code(t, "verify 1") == "bad_target"
    t["hints"].append({**t["hints"][0], "day": 5, "token": "hidden"})
    t["hint_tokens"].append("bluff")
    assert "verify 5" in GAME.legal_actions(t, owner(t, m))
    v = act(t, "verify 5")
    assert GAME.view(v, owner(v, m))["private"]["verified"] == [{"target_day": 5, "token": "bluff"}]
    pub = GAME.view(v, None)
    assert pub["verifications"][-1]["target_day"] == 5 and "bluff" not in json.dumps(pub["hints"])
    other = at_turn(v, s["order"][1])
    if owner(other, s["order"][1]) != owner(v, m):
        assert "verify 5" in GAME.legal_actions(other, owner(other, s["order"][1]))


def test_recall_ben() -> None:
    s = game(players=6, treasure=(20, 8), expansion="on")
    s = at_turn(s, "ben", pos=(16.5, 6.5))
    assert "recall L9" in GAME.legal_actions(s, owner(s, "ben"))
    s2 = act(s, "recall L9")
    assert s2["memory"][owner(s, "ben")][0] == {"landmark": "L9", "within_5": True, "day": s["day"]}
    assert "recall" not in " ".join(GAME.legal_actions(at_turn(s2, "ben"), owner(s, "ben")))


def test_gallop_once() -> None:
    s = at_turn(game(treasure=(30, 20)), "jim", pos=(20, 8))
    s2 = act(s, "gallop 5,20")
    assert s2["minis"]["jim"]["pos"] == hu(5, 20) and s2["minis"]["jim"]["trail"][-1][2] == "gallop"
    assert code(at_turn(s2, "jim"), "gallop 6,20") == "no_uses_left"


def test_automatic_end_of_turn() -> None:
    s = at_turn(game(treasure=(30, 20)), "jim", left=1, pos=(20, 8))
    day = s["day"]
    s2 = act(s, "ride 20,12")
    assert s2["day"] == day + 1


def test_undoable_and_timeouts() -> None:
    s = at_turn(game(treasure=(30, 20)), "jim", left=2, pos=(20, 8))
    seat = owner(s, "jim")
    assert GAME.undoable(s, seat, "ride 20,12")
    assert not GAME.undoable(s, seat, "search 20,9")
    assert GAME.timeout_action(s, seat) == "end"
    b = GAME.new(3, {"silver": "first"}, "q")
    assert GAME.timeout_action(b, 0).startswith("bury ")


def test_private_summaries() -> None:
    s = game(players=3, treasure=(20.5, 8))
    silver = GAME.private_summary(GAME.view(s, 0), 0)
    assert "(20.5,8)" in silver and "Hint hand" in silver
    for seat in (1, 2):
        text = GAME.private_summary(GAME.view(s, seat), seat)
        mine = [d for m in s["order"] if s["owner"][m] == seat for d in s["districts"][m]]
        theirs = [d for m in s["order"] if s["owner"][m] != seat for d in s["districts"][m]]
        assert all(f"{d} " in text for d in mine)
        assert "20.5,8" not in text and not any(f"{d} " in text for d in theirs if d not in mine)
    assert GAME.private_summary(GAME.view(s, None), 1) == ""


def test_silvers_own_heading_names_the_part_of_the_hint_he_is_at() -> None:
    """Issue 28: the board post says "give the day's hint"; Long John Silver's picker heading, from his own view,
    names the step: the card, its token, then each parameter in the card's words."""
    import random

    s = GAME.new(3, {}, "heading")
    rnd = random.Random(1)
    seen: dict[str, str] = {}
    while s["state"] != "over" and len(seen) < 3:
        seat = GAME.to_act(s)[0]
        if seat == s["silver"] and s["state"] in ("hint_card", "hint_token", "hint_param"):
            assert GAME.owed(GAME.view(s, None), seat) == "give the day's hint"
            seen.setdefault(s["state"], GAME.owed(GAME.view(s, seat), seat))
        action = GAME.ai_choose(GAME.view(s, seat), seat, GAME.legal_actions(s, seat), "easy", rnd)
        s, _ = GAME.apply(s, seat, action)
    assert seen["hint_card"] == "give the day's hint: choose the hint card"
    assert seen["hint_token"] == "give the day's hint: lay its token, Truth or Bluff"
    assert seen["hint_param"].startswith("give the day's hint, S") and ": name the " in seen["hint_param"]
