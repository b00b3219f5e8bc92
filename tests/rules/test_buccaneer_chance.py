"""One scenario per chance card (1–28) and edge cases 13–21 and 27 of
docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them."""

from __future__ import annotations

import pytest

from rules.buccaneer import GAME, board
from tests.rules.test_buccaneer_fixtures import (
    THREE,
    check_invariants,
    give_hold,
    hand,
    make,
    play,
    public_text,
    put,
    rebalance,
    set_hand,
    top_cards,
)


def draw(s, card, at="m15", facing="n", crew="b3 b3 r1"):
    """Seat 0 turns on the coast square ``at`` and draws ``card``."""
    if crew is not None:
        set_hand(s, 0, crew)
    put(s, 0, at, facing)
    top_cards(s, card)
    new = "e" if facing != "e" else "w"
    return play(s, 0, "turn", f"face {new}", "confirm")


def fresh(card, **kw):
    return draw(make(THREE), card, **kw)


# -- card 1 ------------------------------------------------------------------------------------------------------------
CARD1_TABLE = {
    "j15": "f19", "k15": "k19", "l15": "l19", "m15": "m19", "n15": "n19", "o15": "s19",
    "j11": "f11", "j12": "f12", "j13": "f13", "j14": "f14",
    "o11": "s11", "o12": "s12", "o13": "s13", "o14": "s14",
    "j10": "f6", "k10": "k6", "l10": "l6", "m10": "m6", "n10": "n6", "o10": "s6",
}  # fmt: skip


def test_edge_13_card_1_table_from_every_side_and_corner() -> None:
    assert sorted(CARD1_TABLE) == sorted(board.TREASURE_COAST)
    for square, target in CARD1_TABLE.items():
        assert board.name(board.blown_off_target(square)) == target


def test_card_01_blown_off_the_coast_then_repoint() -> None:
    s, events = fresh(1, at="o10", facing="n")
    assert s["players"][0]["ship"]["at"] == "s6"
    assert GAME.to_act(s) == [0] and len(GAME.legal_actions(s, 0)) == 8  # REPOINT: any facing, current included
    s, _ = play(s, 0, "face w")
    assert s["players"][0]["ship"]["facing"] == "w" and s["turn"]["seat"] == 1


def test_edge_13_card_1_occupied_target_nearest_free_then_place_and_storm_after() -> None:
    s = make(THREE)
    put(s, 1, "k19", "n")
    set_hand(s, 0, "b1 r1")
    pile = len(s["pirate_pile"])
    s, events = draw(s, 1, at="k15", facing="n", crew=None)  # S 2: the storm bonus applies
    assert s["players"][0]["ship"]["at"] == "k15"
    assert GAME.legal_actions(s, 0) == ["place k20", "place j19", "place l19", "place k18"]
    assert len(s["pirate_pile"]) == pile  # the storm bonus waits for the move
    s, events = play(s, 0, "place l19")
    assert s["players"][0]["ship"]["at"] == "l19"
    assert "takes 4 crew" in public_text(events) and len(s["pirate_pile"]) == pile - 4
    assert s["stack"][-1]["kind"] == "REPOINT"
    # one nearest square by distance then euclid²: no choice
    s = make(THREE)
    put(s, 1, "k19", "n")
    for sq, seat in (("k20", 2),):
        put(s, seat, sq, "n")
    s, _ = draw(s, 1, at="k15", facing="n")
    assert GAME.legal_actions(s, 0) == ["place j19", "place l19", "place k18"]


def test_card_02_demand_three_crew_target_in_turn_order() -> None:
    s, _ = fresh(2)
    assert GAME.legal_actions(s, 0) == ["target cadiz", "target london"]


def test_edge_16_card_2_may_take_from_the_victims_home_docks() -> None:
    s = make(THREE)
    set_hand(s, 1, "b1 r2")
    s["harbours"]["cadiz"]["docks"]["crew"]["b3"] = 2
    rebalance(s)
    s, _ = draw(s, 2)
    s, events = play(s, 0, "target cadiz")
    assert GAME.to_act(s) == [1]
    assert GAME.legal_actions(s, 1) == ["give b1", "give r2", "give docks b3"]
    s, events = play(s, 1, "give docks b3", "give docks b3", "give b1")
    assert s["players"][0]["hand"]["b3"] == 4 and s["players"][0]["hand"]["b1"] == 1
    assert "gives 3 crew" in public_text(events) and "B3" not in public_text(events)
    check_invariants(s)
    # a victim with three cards or fewer in all gives everything at once
    s = make(THREE)
    set_hand(s, 2, "r1 r3")
    s, _ = draw(s, 2)
    s, _ = play(s, 0, "target london")
    assert s["players"][2]["hand"] == hand("")
    assert s["turn"]["seat"] == 1


def test_card_03_blown_to_mud_bay_with_a_place_tie() -> None:
    s, _ = fresh(3)
    assert s["players"][0]["ship"]["at"] == "a1" and s["stack"][-1]["kind"] == "REPOINT"
    s = make(THREE)
    put(s, 1, "a1", "n")
    s, _ = draw(s, 3)
    assert GAME.legal_actions(s, 0) == ["place a2", "place b1"]


def test_card_04_blown_to_cliff_creek() -> None:
    s, _ = fresh(4)
    assert s["players"][0]["ship"]["at"] == "x24"


def test_card_05_blown_home_with_the_storm_bonus() -> None:
    s, events = fresh(5, crew="b1 r2")
    assert s["players"][0]["ship"]["at"] == "amsterdam" and s["players"][0]["ship"]["facing"] is None
    assert "takes 4 crew" in public_text(events)
    assert s["turn"]["stage"] == "after"  # the home window is open on its own turn


def test_edge_25_card_5_wins_at_once() -> None:
    s = make(THREE)
    s["harbours"]["amsterdam"]["safety"]["gold"] = 3
    s["harbours"]["amsterdam"]["docks"]["treasure"]["diamond"] = 2
    s["treasure_island"]["gold"] -= 3
    s["treasure_island"]["diamond"] -= 2
    s, events = draw(s, 5)
    assert s["phase"] == "over" and GAME.outcome(s).winners == (0,)
    assert "Amsterdam wins with 22 landed" in public_text(events)
    assert GAME.to_act(s) == []


def test_card_06_blown_to_port_by_heading() -> None:
    s, _ = fresh(6, at="o12", facing="n", crew="b3 b3 r1")
    # turning to face E: the ray runs east to X12: Cadiz (X9 side) is nearest
    assert s["players"][0]["ship"]["at"] == "cadiz"


def test_edge_14_card_6_crosses_the_island_and_ties_offer_a_choice() -> None:
    assert board.blown_to_port("m15", "s") == ["bristol", "london"]  # ray through the island to M1
    assert board.blown_to_port("j15", "nw") == ["amsterdam"]  # corner A24: north and west sides
    ties = {}
    for sq in [board.name(c) for c in board.ALL_SQUARES if c in board.SEA]:
        for d in board.DIRS:
            ports = board.blown_to_port(sq, d)
            if len(ports) > 1:
                cell = board.POS[sq]
                dc, dr = board.DELTA[d]
                while board.on_grid(cell[0] + dc, cell[1] + dr):
                    cell = (cell[0] + dc, cell[1] + dr)
                ties.setdefault(board.name(cell), set()).add(d)
    assert {k: len(v) for k, v in ties.items()} == {"l24": 3, "x13": 3, "m1": 3, "a12": 3}
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r1")
    put(s, 0, "m15", "n")
    top_cards(s, 6)
    s, _ = play(s, 0, "turn", "face s", "confirm")
    assert GAME.legal_actions(s, 0) == ["harbour bristol", "harbour london"]
    s, _ = play(s, 0, "harbour london")
    assert s["players"][0]["ship"]["at"] == "london"


def test_card_07_washed_to_the_nearest_ship() -> None:
    s = make(THREE)
    put(s, 1, "m17", "n")
    put(s, 2, "london")
    give_hold(s, 0, "pearl")
    s, _ = draw(s, 7, crew="b3 b3 r1")
    assert GAME.legal_actions(s, 0) == ["choose treasure", "choose crew"]
    s, _ = play(s, 0, "choose treasure")
    assert s["players"][1]["ship"]["hold"] == ["pearl"] and s["players"][0]["ship"]["hold"] == []


def test_edge_15_card_7_harbour_ships_ties_full_holds_and_single_cards() -> None:
    # ships in harbours count from their harbour cell; equal nearest: nothing happens
    s = make(THREE)
    put(s, 0, "h24", "n")
    put(s, 1, "amsterdam")
    put(s, 2, "h23", "n")
    set_hand(s, 0, "b3 b3 r1")
    top_cards(s, 7)
    s, events = play(s, 0, "turn", "face e", "confirm")  # H24 is not on the coast: draw by hand instead
    assert "draws" not in public_text(events)
    from rules.buccaneer import chance
    from rules.buccaneer.model import Narration

    n = Narration()
    chance.RESOLVE[7](s, 0, 7, n)
    assert "nothing happens" in public_text(n.events)
    # a target with a full hold removes the treasure branch
    s = make(THREE)
    put(s, 1, "m17", "n")
    give_hold(s, 1, "rum", "rum")
    give_hold(s, 0, "pearl")
    s, _ = draw(s, 7, crew="b3 b3 r1")
    assert GAME.legal_actions(s, 0) == ["lose b3", "lose r1"]
    # no treasure and one crew card: that card goes
    s = make(THREE)
    put(s, 1, "m17", "n")
    set_hand(s, 0, "r2")
    before = s["players"][1]["hand"]["r2"]
    s, _ = draw(s, 7, crew=None)
    assert s["players"][1]["hand"]["r2"] == before + 1
    assert s["players"][0]["hand"] == hand("")


def test_card_08_washed_to_flat_island() -> None:
    s = make(THREE)
    give_hold(s, 0, "gold")
    s, _ = draw(s, 8, crew="b3 b2 r1")
    s, _ = play(s, 0, "choose crew", "lose b2", "lose r1")
    assert s["flat"]["crew"]["b2"] == 1 and s["flat"]["crew"]["r1"] == 1 and s["players"][0]["ship"]["hold"] == ["gold"]


def test_card_09_best_goes_overboard() -> None:
    s = make(THREE)
    give_hold(s, 0, "diamond", "ruby")
    s, _ = draw(s, 9)
    assert GAME.legal_actions(s, 0) == ["lose diamond", "lose ruby"]  # a tie between kinds: drawer's choice
    s, _ = play(s, 0, "lose ruby")
    assert s["flat"]["treasure"]["ruby"] == 1
    s = make(THREE)
    s, _ = draw(s, 9, crew="b3 r3 r1")
    assert GAME.legal_actions(s, 0) == ["lose b3", "lose r3"]
    s = make(THREE)
    s, _ = draw(s, 9, crew="b3 r2")
    assert s["flat"]["crew"]["b3"] == 1


def test_card_10_deserter_to_the_bottom_of_pirate_island() -> None:
    s, events = fresh(10, crew="b2 r3 r1")
    assert s["pirate_pile"][-1] == "r3" and s["players"][0]["hand"]["r3"] == 0
    assert "R3" not in public_text(events)
    # a tie between the best cards: the drawer chooses, and is asked in the card's words (issue 28: the prompt said
    # "choose what goes overboard" while the card sends the crew to Pirate Island)
    s, _ = fresh(10, crew="b3 r3 r1")
    assert GAME.legal_actions(s, 0) == ["lose b3", "lose r3"]
    prompt = "choose which of your best crew cards deserts to Pirate Island"
    assert GAME.owed(GAME.view(s, None), 0) == prompt == GAME.owed(GAME.view(s, 0), 0)
    assert GAME.label(GAME.view(s, 0), "lose r3") == "lose R3"


def test_losses_and_choices_are_asked_in_the_words_of_their_card() -> None:
    """Issue 28: every prompt names the step owed and says what the card does with it."""
    s, _ = fresh(9, crew="b3 r3 r1")  # Best goes overboard, no treasure aboard: the best crew card
    assert GAME.owed(GAME.view(s, None), 0) == "choose which of your best crew cards goes overboard to Flat Island"
    s, _ = fresh(8, crew="b3 r3 r1")  # Washed to Flat Island, no treasure aboard: two crew cards
    assert GAME.owed(GAME.view(s, None), 0) == "choose 2 crew cards to go overboard to Flat Island"
    s, _ = fresh(14, crew="b3 b3 r1")
    assert GAME.owed(GAME.view(s, None), 0) == "choose: treasure worth up to 7, or 3 crew from Pirate Island"
    mine = GAME.view(s, 0)
    assert [GAME.label(mine, a) for a in GAME.legal_actions(s, 0)] == [
        "treasure worth up to 7",
        "3 crew from Pirate Island",
    ]
    t, _ = play(s, 0, "choose treasure", "pick rum")
    assert GAME.owed(GAME.view(t, None), 0) == "pick treasure from Treasure Island worth up to 5 in all, or done"


@pytest.mark.parametrize("card,budget,n", [(11, 5, 2), (12, 4, 2), (13, 5, 2), (14, 7, 3), (27, 5, 3)])
def test_cards_11_to_14_and_27_treasure_or_crew(card: int, budget: int, n: int) -> None:
    s, _ = fresh(card)
    assert GAME.legal_actions(s, 0) == ["choose treasure", "choose crew"]
    t, _ = play(s, 0, "choose treasure")
    picks = [a for a in GAME.legal_actions(t, 0) if a.startswith("pick")]
    values = {"diamond": 5, "ruby": 5, "gold": 4, "pearl": 3, "rum": 2}
    assert picks and all(values[a.split()[1]] <= budget for a in picks)
    c, _ = play(s, 0, "choose crew")
    assert sum(c["players"][0]["hand"].values()) == 3 + n


def test_card_11_picks_up_to_the_budget_and_may_stop() -> None:
    s, _ = fresh(11)
    s, _ = play(s, 0, "choose treasure", "pick rum")
    assert GAME.legal_actions(s, 0) == ["pick pearl", "pick rum", "done"]
    s, _ = play(s, 0, "pick pearl")
    assert s["players"][0]["ship"]["hold"] == ["pearl", "rum"] and s["turn"]["seat"] == 1


@pytest.mark.parametrize("card", [15, 28])
def test_cards_15_and_28_recruits(card: int) -> None:
    s, events = fresh(card)
    assert sum(s["players"][0]["hand"].values()) == 5 and "takes 2 crew" in public_text(events)


@pytest.mark.parametrize("card,budget,cap", [(16, 7, 10), (17, 6, 11)])
def test_edge_17_cards_16_and_17_treasure_first_then_burials_to_the_cap(card: int, budget: int, cap: int) -> None:
    s, _ = fresh(card, crew="b3 b3 b3 r3 r2 r1")  # S 15
    assert s["stack"][-1]["kind"] == "PICK" and s["stack"][-1]["budget"] == budget
    s, _ = play(s, 0, "pick gold", "done")
    assert s["stack"][-1]["kind"] == "BURY"
    s, _ = play(s, 0, "bury b3")  # 12
    assert s["turn"]["seat"] == 0  # 12 is still over either cap
    s, _ = play(s, 0, "bury r2" if cap == 10 else "bury r1")  # 10 or 11: stops at once
    assert s["turn"]["seat"] == 1
    assert sum(int(k[1]) * n for k, n in s["players"][0]["hand"].items()) <= cap


def test_card_18_treasure_and_recruits_if_weak() -> None:
    s, events = fresh(18, crew="b3 r1")
    s, events = play(s, 0, "pick gold")
    assert "takes 2 crew" in public_text(events) and s["players"][0]["ship"]["hold"] == ["gold"]
    s, _ = fresh(18, crew="b3 b3 r3")
    pile = len(s["pirate_pile"])
    s, _ = play(s, 0, "done")
    assert len(s["pirate_pile"]) == pile


def test_edge_18_card_19_short_pile_returns_own_cards_in_canonical_order() -> None:
    s = make(THREE)
    set_hand(s, 0, "r3 b2 b1 r1")
    # leave only two cards on Pirate Island by giving the rest to London's hand
    extra = s["pirate_pile"][2:]
    for k in extra:
        s["players"][2]["hand"][k] += 1
    top = s["pirate_pile"][:2]
    s["pirate_pile"] = list(top)
    s, _ = draw(s, 19, crew="r3 b2 b1 r1")
    got = s["players"][0]["hand"]
    expected = hand(" ".join([*top, "b1", "b2"]))
    assert got == expected and s["pirate_pile"] == ["r1", "r3"]


def test_card_19_new_crew_same_count() -> None:
    s, events = fresh(19, crew="b3 b3 r1")
    assert sum(s["players"][0]["hand"].values()) == 3 and "swaps 3 crew" in public_text(events)


def test_edge_19_card_20_blind_exchange_partner_ties_and_no_candidate() -> None:
    s = make(THREE)
    set_hand(s, 1, "r3 r3 r3")
    put(s, 1, "n15", "n")
    put(s, 2, "j15", "n")
    s, events = draw(s, 20, at="m15", crew="b1 b1 b1")
    assert s["players"][0]["hand"] == hand("b1 r3 r3") and s["players"][1]["hand"] == hand("r3 b1 b1")
    assert "swap crew blind: 2 for 2" in public_text(events)
    # equal nearest: the drawer chooses
    s = make(THREE)
    put(s, 1, "o15", "n")
    put(s, 2, "k15", "n")
    s, _ = draw(s, 20, at="m15")
    assert GAME.legal_actions(s, 0) == ["target cadiz", "target london"]
    s, _ = play(s, 0, "target london")
    assert s["turn"]["seat"] == 1
    # nobody else on the coast: bury two of the drawer's choice
    s, _ = fresh(20, crew="b3 b2 r1")
    assert GAME.legal_actions(s, 0) == ["bury b2", "bury b3", "bury r1"]
    s, _ = play(s, 0, "bury b3", "bury r1")
    assert s["players"][0]["hand"] == hand("b2") and s["pirate_pile"][-2:] == ["b3", "r1"]


def test_card_20_exchange_is_computed_from_the_hands_before_either_moves() -> None:
    s = make(THREE)
    put(s, 1, "n15", "n")
    set_hand(s, 1, "r3")
    s, _ = draw(s, 20, at="m15", crew="b1 b2")
    # the drawer gets the partner's one card; the partner gets both of the drawer's original cards
    assert s["players"][0]["hand"] == hand("r3") and s["players"][1]["hand"] == hand("b1 b2")


@pytest.mark.parametrize(
    "card,keeper", [(21, "longjohn"), (23, "doubloons"), (24, "pieces"), (25, "chart"), (26, "chart")]
)
def test_keeper_cards_are_kept_and_never_return(card: int, keeper: str) -> None:
    s, events = fresh(card)
    assert card in s["players"][0]["keepers"] and card not in s["chance_pile"]
    assert "keeps it" in public_text(events)
    assert keeper in GAME.view(s, None)["players"][0]["keepers"]
    check_invariants(s)


def test_edge_20_card_22_yellow_fever_counts_docks_and_asks_several_seats_at_once() -> None:
    s = make(THREE)
    for seat in range(3):
        set_hand(s, seat, "")
    set_hand(s, 1, "b1 b1 b1 b1 b1 b1 r1")
    s["harbours"]["cadiz"]["docks"]["crew"]["r2"] = 2  # 9 in all
    set_hand(s, 2, "b2 b2 b2 b2 b2 b2 b2 r3")  # 8
    rebalance(s)
    s, events = draw(s, 22, crew="b3 b3 b3 b3 b3 r1 r1 r1 r1")  # the drawer: 9
    assert GAME.to_act(s) == [0, 1, 2]
    assert "Yellow fever" in public_text(events)
    assert GAME.legal_actions(s, 1) == ["bury b1", "bury r1", "bury docks r2"]
    s, _ = play(s, 2, "bury r3")  # London is done after one: it drops out
    assert GAME.to_act(s) == [0, 1]
    s, _ = play(s, 1, "bury docks r2", "bury docks r2")
    s, _ = play(s, 0, "bury r1", "bury r1")
    assert GAME.to_act(s) == [1]  # back to Cadiz's turn
    assert s["harbours"]["cadiz"]["docks"]["crew"]["r2"] == 0
    check_invariants(s)


def test_edge_21_keepers_stay_out_of_the_pile_spent_ones_sit_in_docks() -> None:
    s, _ = fresh(23)
    put(s, 0, "bombay")
    s["turn"].update(seat=0, stage="start", plan=None, record=None, freemoved=False)
    s["turn_index"] = 0
    s["harbours"]["bombay"]["docks"]["treasure"]["gold"] += 1
    s["treasure_island"]["gold"] -= 1
    s, _ = play(s, 0, "offer doubloons", "want gold", "trade")
    assert 23 in s["harbours"]["bombay"]["docks"]["cards"] and 23 not in s["chance_pile"]
    assert "want doubloons" in GAME.legal_actions(s, 0)  # a spent keeper is a tradeable item in the Docks
    check_invariants(s)


def test_edge_27_short_or_empty_pile_and_no_empty_branches() -> None:
    s = make(THREE)
    set_hand(s, 0, "b3 b3 r1")
    for k in s["pirate_pile"][1:]:
        s["players"][2]["hand"][k] += 1
    s["pirate_pile"] = s["pirate_pile"][:1]
    s, events = draw(s, 15, crew=None)
    assert "takes 1 crew" in public_text(events) and s["pirate_pile"] == []
    s2 = make(THREE)
    set_hand(s2, 0, "b3 b3 r1")
    for k in s2["pirate_pile"]:
        s2["players"][2]["hand"][k] += 1
    s2["pirate_pile"] = []
    s2, _ = draw(s2, 11, crew=None)
    assert s2["stack"][-1]["kind"] == "PICK"  # the crew branch would give nothing: no choice offered
    s3 = make(THREE)
    give_hold(s3, 0, "rum", "rum")
    s3, events = draw(s3, 11)
    assert "takes 2 crew" in public_text(events)  # the hold is full: only the crew branch


# -- a card goes under the pile only once its resolution is complete
# (docs/games/buccaneer.md#when-a-chance-card-is-drawn) ---
def test_card_22_stays_out_of_the_pile_while_yellow_fever_burials_are_pending() -> None:
    s = make(THREE)
    set_hand(s, 1, "b2 b2 b2 b1 b1 b1 r2 r2 r1")  # 9: owes two burials
    s, _ = draw(s, 22, crew="b3 r1")
    assert GAME.to_act(s) == [1]
    assert 22 not in s["chance_pile"] and GAME.view(s, None)["chance_count"] == 27
    assert GAME.view(s, None)["last"]["chance"]["card"] == 22  # still shown face up as the last card drawn
    s, _ = play(s, 1, "bury b2")
    assert GAME.view(s, None)["chance_count"] == 27
    s, _ = play(s, 1, "bury r1")
    assert s["chance_pile"][-1] == 22 and GAME.view(s, None)["chance_count"] == 28
    assert GAME.to_act(s) == [1]  # Cadiz's own turn, after the fever


def test_a_card_whose_choices_are_pending_is_out_of_the_pile_and_returns_under_it() -> None:
    s, _ = fresh(14, crew="b3 b3 r1")  # CHOICE: treasure or crew
    assert 14 not in s["chance_pile"] and GAME.view(s, None)["chance_count"] == 27
    s, _ = play(s, 0, "choose treasure", "pick gold", "done")
    assert s["chance_pile"][-1] == 14 and len(s["chance_pile"]) == 28


def test_a_win_during_a_resolution_puts_the_card_back() -> None:
    s = make(THREE)
    s["harbours"]["amsterdam"]["docks"]["treasure"]["diamond"] = 4  # 20 landed: card 5 blows the ship home
    s["treasure_island"]["diamond"] -= 4
    s, events = draw(s, 5, crew="b1")  # the storm bonus would follow; the win ends it first
    assert s["phase"] == "over" and sorted(s["chance_pile"]) == list(range(1, 29))


# -- a burial names the number of crew, never the cards (docs/games/buccaneer.md#who-sees-crew-changing-hands) ---------
def test_a_burial_line_names_the_count_never_the_cards() -> None:
    s, _ = fresh(20, crew="b3 b2 r1")  # nobody else on the coast: bury two of the drawer's choice
    s, events = play(s, 0, "bury b3")
    assert public_text(events) == "Amsterdam buries 1 crew on Pirate Island"
    assert any(e.private == {0: "You buried B3"} for e in events)
    s, events = fresh(20, crew="b3 r1")  # two cards to bury from a hand of two: both go at once, one line
    lines = [e.public for e in events if e.public and "buries" in e.public]
    assert lines == ["Amsterdam buries 2 crew on Pirate Island"]
    assert "B3" not in public_text(events) and "R1" not in public_text(events)
    assert any(e.private.get(0) == "You buried B3 R1" for e in events)


def test_a_yellow_fever_burial_from_the_docks_says_so_with_the_count() -> None:
    s = make(THREE)
    set_hand(s, 1, "b2 b2 b2 b1 b1 b1 r1")
    s["harbours"]["cadiz"]["docks"]["crew"]["r2"] = 2
    rebalance(s)
    s, _ = draw(s, 22, crew="b3 r1")
    s, events = play(s, 1, "bury docks r2")
    assert public_text(events) == "Cadiz buries 1 crew from its Docks on Pirate Island"
