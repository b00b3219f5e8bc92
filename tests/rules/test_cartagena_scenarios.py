"""Cartagena rules from hand-built positions: every edge case of
docs/games/cartagena.md#edge-cases-and-the-tests-that-cover-them by number, then the rules of
docs/games/cartagena.md#decisions-taken-where-the-rule-text-is-silent-or-ambiguous.

Positions use the fixed passage (docs/games/cartagena.md#the-passage). By symbol: bottle 3 12 14 23 28 31,
dagger 5 7 16 24 27 32, hat 4 8 17 19 30 33, key 2 10 18 21 25 35, pistol 6 9 13 22 26 36, skull 1 11 15 20 29 34.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from rules.cartagena import GAME
from rules.cartagena.board import FIXED_PATH, SLOOP, START, SYMBOLS
from rules.cartagena.deck import card_total
from rules.core import IllegalAction, canonical_json

State = dict[str, Any]


# -- helpers -----------------------------------------------------------------------------------------------------------
def table(players: int = 2, mode: str = "jamaica", **options: str) -> State:
    """A fresh fixed-passage table where seat 0 (Red) is to play."""
    state = GAME.new(players, {"board": "fixed", "mode": mode, **options}, "scenario")
    state["turn_seat"] = 0
    return state


def place(state: State, seat: int, *positions: int) -> None:
    """Put ``seat``'s pirates on ``positions``; the rest stay on START."""
    assert len(positions) <= 6
    state["pirates"][seat] = sorted([*positions, *[START] * (6 - len(positions))])


def arrange(
    state: State,
    hands: dict[int, str] | None = None,
    stock: str | None = None,
    discard: str | None = None,
    row: str | None = None,
    rest: str | int = "discard",
) -> None:
    """Set the piles exactly (cards as symbol names separated by spaces; unnamed piles empty) and put every
    other card of the 102 on ``rest`` (a pile name or a seat), so card conservation holds in every scenario."""
    pool = Counter(dict.fromkeys(SYMBOLS, 17))

    def take(text: str | None) -> list[str]:
        cards = (text or "").split()
        for card in cards:
            assert pool[card] > 0, f"more than 17 {card} cards"
            pool[card] -= 1
        return cards

    state["hands"] = [[0] * 6 for _ in range(state["players"])]
    for seat, text in (hands or {}).items():
        for card in take(text):
            state["hands"][seat][SYMBOLS.index(card)] += 1
    state["stock"] = take(stock)
    state["discard"] = take(discard)
    if state["row"] is not None:
        state["row"] = take(row)
    leftover = [symbol for symbol in SYMBOLS for _ in range(pool[symbol])]
    if isinstance(rest, int):
        for card in leftover:
            state["hands"][rest][SYMBOLS.index(card)] += 1
    else:
        state[rest].extend(leftover)


def hand(state: State, seat: int = 0) -> dict[str, int]:
    return {symbol: n for symbol, n in zip(SYMBOLS, state["hands"][seat], strict=True) if n}


def play(state: State, *actions: str, seat: int | None = None) -> tuple[State, list[str]]:
    """Apply ``actions`` in order (by the seat to play); returns the state and every public line."""
    lines: list[str] = []
    for action in actions:
        who = state["turn_seat"] if seat is None else seat
        state, events = GAME.apply(state, who, action)
        lines += [event.public for event in events if event.public]
    return state, lines


def refused(state: State, action: str, seat: int = 0) -> IllegalAction:
    before = canonical_json(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert canonical_json(state) == before
    return caught.value


def where(state: State, seat: int = 0) -> list[int]:
    return state["pirates"][seat]


def conserved(state: State) -> bool:
    cards = Counter(state["stock"] + state["discard"] + (state["row"] or []))
    for h in state["hands"]:
        cards.update(dict(zip(SYMBOLS, h, strict=True)))
    return card_total(state) == 102 and all(cards[symbol] == 17 for symbol in SYMBOLS)


# -- the edge cases of docs/games/cartagena.md -------------------------------------------------------------------------
def test_edge_01_player_counts_and_options_are_validated() -> None:
    for players in (1, 6):
        with pytest.raises(IllegalAction) as caught:
            GAME.new(players, {}, "s")
        assert caught.value.code == "bad_players"
    for players in (2, 3, 4, 5):
        assert GAME.new(players, {}, "s")["players"] == players
    for options in ({"colour": "red"}, {"mode": "barbados"}, {"reshuffle": "sometimes"}, {"board": "square"}):
        with pytest.raises(IllegalAction) as caught:
            GAME.new(2, options, "s")
        assert caught.value.code == "bad_option"
    state = GAME.new(2, {"mode": "TORTUGA", "back_from_sloop": "off"}, "s")
    assert state["options"] == {"mode": "tortuga", "reshuffle": "off", "back_from_sloop": "off", "board": "random"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_edge_02_setup(players: int) -> None:
    for seed in ("a", "b", "c"):
        jamaica = GAME.new(players, {}, seed)
        assert all(sum(h) == 6 for h in jamaica["hands"])
        assert len(jamaica["stock"]) == 102 - 6 * players and jamaica["row"] is None
        assert jamaica["pirates"] == [[START] * 6] * players
        for section in range(6):
            assert sorted(jamaica["path"][6 * section : 6 * section + 6]) == list(SYMBOLS)
        tortuga = GAME.new(players, {"mode": "tortuga"}, seed)
        assert len(tortuga["row"]) == 12 and len(tortuga["stock"]) == 90 - 6 * players
        assert all(sum(h) == 6 for h in tortuga["hands"]) and conserved(tortuga) and conserved(jamaica)
        for state in (jamaica, tortuga):
            assert state["discard"] == [] and state["actions_taken"] == 0 and state["passes_in_a_row"] == 0
            assert 0 <= state["turn_seat"] < players
    fixed = GAME.new(players, {"board": "fixed"}, "a")
    assert "".join(symbol[0].upper() for symbol in fixed["path"]) == "SKBHDPDHPKSBPBSDHKHSKPBDKPDBSHBDHSKP"
    assert fixed["path"] == list(FIXED_PATH)
    assert len({tuple(GAME.new(players, {}, str(seed))["path"]) for seed in range(5)}) > 1
    assert {GAME.new(players, {}, str(seed))["turn_seat"] for seed in range(40)} == set(range(players))


def test_edge_03_forward_jumps_occupied_matching_spaces_of_any_colour_including_own() -> None:
    state = table()
    arrange(state, {0: "skull skull"}, rest="stock")
    place(state, 0, 1)  # own pirate on skull 1
    place(state, 1, 11)  # opponent on skull 11
    state, lines = play(state, "forward start skull")
    assert where(state) == [0, 0, 0, 0, 1, 15]
    assert lines[0] == "Red plays skull: pirate START → 15."


def test_edge_04_forward_to_the_sloop_when_no_vacant_matching_space_lies_ahead() -> None:
    state = table(3)
    arrange(state, {0: "skull skull"}, rest="stock")
    place(state, 0, 1, 15, 30)
    place(state, 1, 11, 29)
    place(state, 2, 20, 34)
    state, lines = play(state, "forward start skull")  # all six skull spaces are occupied
    assert SLOOP in where(state)
    assert lines[0] == "Red plays skull: pirate START → SLOOP (1/6 aboard)."
    state, _ = play(state, "forward 30 skull")  # 34 is the last skull and it is taken
    assert where(state).count(SLOOP) == 2


def test_edge_05_forward_needs_a_card_and_a_pirate_and_never_starts_from_the_sloop() -> None:
    state = table()
    arrange(state, {0: "key"}, rest="stock")
    place(state, 0, SLOOP, 4)
    assert "forward sloop key" not in GAME.legal_actions(state, 0)
    error = refused(state, "forward sloop key")
    assert error.code == "illegal" and "a pirate on the sloop cannot move forward" in error.message
    error = refused(state, "forward 4 hat")
    assert error.code == "illegal" and "you have no hat card" in error.message
    error = refused(state, "forward 12 key")
    assert error.code == "illegal" and "you have no pirate on 12" in error.message and "4" in error.message


def test_edge_06_forward_never_lands_on_an_occupied_space_and_spaces_hold_at_most_three() -> None:
    state = table(2)
    arrange(state, {0: "key key"}, rest="stock")
    place(state, 0, 2, 2)
    place(state, 1, 2)  # key 2 is full
    state, _ = play(state, "forward start key", "forward start key")
    assert where(state) == [0, 0, 2, 2, 10, 18]
    counts = Counter(pos for seat in state["pirates"] for pos in seat if START < pos < SLOOP)
    assert max(counts.values()) <= 3


def test_edge_07_backward_stops_at_the_first_space_with_one_or_two_pirates() -> None:
    state = table(3)
    arrange(state, rest="stock")
    place(state, 0, 20)
    place(state, 1, 15, 15, 8, 8)  # 15 full, 12 holds one, 8 holds two further back
    place(state, 2, 15, 12)
    state, lines = play(state, "back 20")
    assert where(state) == [0, 0, 0, 0, 0, 12]
    assert lines[0] == "Red moves a pirate back 20 → 12 and draws 1 card."
    assert sum(state["hands"][0]) == 1


def test_edge_08_backward_draws_one_card_per_pirate_already_there_counting_the_movers_own() -> None:
    state = table()
    arrange(state, stock="hat key pistol", rest="discard")
    place(state, 0, 20, 12)
    place(state, 1, 12)
    state, lines = play(state, "back 20")
    assert hand(state) == {"hat": 1, "key": 1} and state["stock"] == ["pistol"]
    assert lines[0] == "Red moves a pirate back 20 → 12 and draws 2 cards."
    assert where(state).count(12) == 2


def test_edge_09_start_is_never_a_backward_target() -> None:
    state = table()
    arrange(state, rest="stock")
    place(state, 0, 5)  # only START (full of pirates) lies behind 5
    place(state, 1)
    assert GAME.legal_actions(state, 0) == ["pass"]
    assert "no space with 1 or 2 pirates lies behind 5" in refused(state, "back 5").message
    assert "a pirate on START cannot move back" in refused(state, "back start").message
    place(state, 1, 9, 9, 9)  # a full space behind is not a target either
    place(state, 0, 12)
    assert GAME.legal_actions(state, 0) == ["pass"]


def test_edge_10_leaving_a_full_space_makes_it_a_target_in_the_same_turn() -> None:
    state = table()
    arrange(state, {0: "key"}, stock="bottle dagger", rest="discard")
    place(state, 0, 10, 10, 14)
    place(state, 1, 10)
    assert "back 14" not in GAME.legal_actions(state, 0)
    state, _ = play(state, "forward 10 key")  # to 18; 10 now holds 2
    assert "back 14" in GAME.legal_actions(state, 0)
    state, _ = play(state, "back 14")
    assert where(state).count(10) == 2 and hand(state) == {"bottle": 1, "dagger": 1}


def test_edge_11_back_from_the_sloop_follows_the_table_option() -> None:
    on = table()
    arrange(on, stock="hat", rest="discard")
    place(on, 0, SLOOP, SLOOP)
    place(on, 1, 36, 30)
    assert GAME.legal_actions(on, 0) == ["back sloop"]
    after, lines = play(on, "back sloop")  # the search starts at 36
    assert where(after).count(SLOOP) == 1 and 36 in where(after) and hand(after) == {"hat": 1}
    assert lines[0] == "Red moves a pirate back SLOOP → 36 and draws 1 card."
    off = table(back_from_sloop="off")
    arrange(off, stock="hat", rest="discard")
    place(off, 0, SLOOP, SLOOP)
    place(off, 1, 36)
    assert GAME.legal_actions(off, 0) == ["pass"]
    assert "moving back from the sloop is off at this table" in refused(off, "back sloop").message


def test_edge_12_same_pirate_twice_and_a_card_drawn_in_action_1_played_in_action_2() -> None:
    state = table()
    arrange(state, stock="key hat", rest="discard")
    place(state, 0, 20)
    place(state, 1, 15)
    state, _ = play(state, "back 20")
    assert hand(state) == {"key": 1}
    state, lines = play(state, "forward 15 key")
    assert where(state) == [0, 0, 0, 0, 0, 18] and lines == ["Red plays key: pirate 15 → 18."]
    assert state["actions_taken"] == 2 and state["turn_seat"] == 0


def test_edge_13_turn_length_end_and_automatic_end() -> None:
    state = table()
    arrange(state, {0: "key key key key", 1: "hat"}, rest="stock")
    assert "end" not in GAME.legal_actions(state, 0)
    error = refused(state, "end")
    assert "you must take at least one action before ending your turn" in error.message
    one, _ = play(state, "forward start key")
    assert GAME.legal_actions(one, 0)[-1] == "end"
    ended, lines = play(one, "end")
    assert ended["turn_seat"] == 1 and lines == ["Red ends the turn (1 action)."]
    two, _ = play(state, "forward start key", "forward start key")
    assert two["turn_seat"] == 0 and "end" in GAME.legal_actions(two, 0)
    three, lines = play(two, "forward start key")
    assert three["turn_seat"] == 1 and three["actions_taken"] == 0 and three["turn_number"] == 2
    assert lines[-1] == "Red's turn ends (3 actions)."


def test_edge_14_pass_only_when_nothing_is_possible_and_turns_wrap() -> None:
    state = table(3)
    arrange(state, {1: "hat"}, rest="stock")
    state["turn_seat"] = 2
    place(state, 2, 5)
    assert GAME.legal_actions(state, 2) == ["pass"]
    after, lines = play(state, "pass")
    assert after["turn_seat"] == 0 and after["passes_in_a_row"] == 1 and lines == ["Yellow cannot act and passes."]
    after, _ = play(after, "pass")  # Red has nothing either
    assert after["turn_seat"] == 1
    error = refused(after, "pass", seat=1)
    assert error.code == "illegal" and "forward start hat" in error.message
    after, _ = play(after, "forward start hat")
    assert after["passes_in_a_row"] == 0
    assert "you have already acted" in refused(after, "pass", seat=1).message


def test_edge_15_the_sixth_pirate_boarding_ends_the_game_at_once() -> None:
    state = table()
    arrange(state, {0: "pistol pistol"}, rest="stock")
    place(state, 0, SLOOP, SLOOP, SLOOP, SLOOP, SLOOP, 36)
    state, lines = play(state, "forward 36 pistol")
    assert lines == [
        "Red plays pistol: pirate 36 → SLOOP (6/6 aboard).",
        "Red's sixth pirate boards the sloop. Red escapes and wins!",
    ]
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == [] and GAME.legal_actions(state, 1) == []
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.reason == "escaped"
    assert state["result"] == {"winners": [0], "reason": "escaped", "turns": 1}
    for seat, action in ((0, "forward start pistol"), (1, "end"), (0, "nonsense")):
        assert refused(state, action, seat).code == "game_over"


def test_edge_16_jamaica_reshuffle_on_mid_draw() -> None:
    state = table(reshuffle="on")
    arrange(state, {0: "hat"}, stock="skull", discard="bottle bottle", rest=1)
    place(state, 0, 3, 20)
    place(state, 1, 14, 14)
    state, _ = play(state, "forward 3 hat")  # the hat goes on the discard pile
    assert state["discard"] == ["bottle", "bottle", "hat"]
    state, lines = play(state, "back 20")
    assert lines[1] == "The discard pile (3 cards) is shuffled into a new draw pile."
    assert state["reshuffles"] == 1 and state["discard"] == [] and len(state["stock"]) == 2
    assert sum(state["hands"][0]) == 2 and hand(state)["skull"] == 1
    assert conserved(state)


def test_edge_17_jamaica_short_draw_when_stock_and_discards_are_empty() -> None:
    for stock, drawn in (("key", 1), ("", 0)):
        state = table(reshuffle="on")
        arrange(state, {0: "hat"}, stock=stock, rest=1)
        place(state, 0, 20)
        place(state, 1, 15, 15)
        state, lines = play(state, "back 20")
        assert sum(state["hands"][0]) == 1 + drawn and state["stock"] == [] and state["reshuffles"] == 0
        assert lines[0].endswith("(2 earned, nothing more to draw).")
        assert conserved(state) and state["result"] is None and GAME.legal_actions(state, 0)


def test_edge_18_reshuffle_off_discards_never_return_but_tortuga_still_refills() -> None:
    state = table()  # jamaica, reshuffle off (the default)
    arrange(state, {0: "hat", 1: "key"}, discard="bottle bottle", rest=1)
    place(state, 0, 20)
    place(state, 1, 15)
    assert "back 20" in GAME.legal_actions(state, 0)  # legal although nothing can be drawn
    state, lines = play(state, "back 20")
    assert sum(state["hands"][0]) == 1 and state["discard"][:2] == ["bottle", "bottle"] and state["reshuffles"] == 0
    assert lines[0] == "Red moves a pirate back 20 → 15 and draws 0 cards (1 earned, nothing more to draw)."
    tortuga = table(mode="tortuga", reshuffle="off")
    arrange(tortuga, row="hat", discard="key key key", rest=1)
    place(tortuga, 0, 20)
    place(tortuga, 1, 15)
    tortuga, lines = play(tortuga, "back 20")
    assert hand(tortuga) == {"hat": 1} and tortuga["reshuffles"] == 1 and tortuga["row"] == ["key"] * 3
    assert lines[1:] == ["The discard pile (3 cards) is shuffled into a new draw pile.", "New row: key key key."]


def test_edge_19_jamaica_running_dry_ends_the_game_ranked_by_aboard_then_progress() -> None:
    state = table(3)
    arrange(state, {0: "pistol"}, discard="")
    place(state, 0, 36, 30)
    place(state, 1, SLOOP, SLOOP, 2)
    place(state, 2, SLOOP, SLOOP, 1)
    state, lines = play(state, "forward 36 pistol")  # Red's last card; nobody can ever play again
    assert state["result"] == {
        "winners": [1],
        "reason": "stalled",
        "turns": 1,
        "ranking": [[1, 2, 76], [2, 2, 75], [0, 1, 67]],
    }
    assert GAME.outcome(state).ranking == (1, 2, 0) and GAME.to_act(state) == []
    assert lines[-1].startswith("Nobody holds a card and the draw pile is empty")
    tie = table(2)
    arrange(tie, {0: "pistol"}, discard="")
    place(tie, 0, 36, 30)
    place(tie, 1, SLOOP, 30)
    tie, lines = play(tie, "forward 36 pistol")
    assert tie["result"]["winners"] == [0, 1] and "Red and Blue share the win" in lines[-1]


@pytest.mark.parametrize("reshuffle", ["off", "on"])
def test_edge_20_a_full_round_of_passes_is_a_stall(reshuffle: str) -> None:
    state = table(2, reshuffle=reshuffle)
    arrange(state, rest="stock")  # pirates all on START and no cards: nothing to do for anyone
    state, lines = play(state, "pass")
    assert state["result"] is None and state["turn_seat"] == 1
    state, lines = play(state, "pass")
    assert state["result"]["reason"] == "stalled" and state["result"]["winners"] == [0, 1]
    assert state["result"]["turns"] == 2 and lines[-1].startswith("Every seat passed in a row")


def test_edge_21_tortuga_row_draws_and_refills() -> None:
    # draws take row[0]; the row is never topped up while it holds cards
    state = table(mode="tortuga")
    arrange(state, row="hat key skull", stock="bottle " * 12, rest=1)
    place(state, 0, 20)
    place(state, 1, 15, 15)
    after, lines = play(state, "back 20")
    assert hand(after) == {"hat": 1, "key": 1} and after["row"] == ["skull"] and after["reshuffles"] == 0
    assert lines == ["Red moves a pirate back 20 → 15 and draws hat, key."]
    # an emptied row is refilled at once, between the two cards of one draw
    arrange(state, row="hat", stock="key " + "bottle " * 11 + "dagger", rest=1)
    after, lines = play(state, "back 20")
    assert hand(after) == {"hat": 1, "key": 1} and after["row"] == ["bottle"] * 11 and after["stock"] == ["dagger"]
    assert lines[1] == "New row: key " + "bottle " * 10 + "bottle."
    # a refill may reshuffle the discards and may leave fewer than 12 cards
    arrange(state, row="hat", stock="key key", discard="dagger dagger dagger", rest=1)
    after, lines = play(state, "back 20")
    assert after["reshuffles"] == 1 and after["stock"] == [] and after["discard"] == []
    assert after["row"][1:] == ["dagger"] * 3 and len(after["row"]) == 4
    assert lines[1] == "The discard pile (3 cards) is shuffled into a new draw pile."
    # with nothing left to lay out the row stays empty
    arrange(state, row="hat", rest=1)
    after, _ = play(state, "back 20")
    assert after["row"] == [] and hand(after) == {"hat": 1} and conserved(after)


def test_edge_22_tortuga_short_draw_with_nothing_anywhere_then_refill_later() -> None:
    state = table(mode="tortuga")
    arrange(state, {0: "hat"}, rest=1)  # every other card is in Blue's hand: row, stock and discards empty
    place(state, 0, 20, 3)
    place(state, 1, 15)
    state, lines = play(state, "back 20")
    assert hand(state) == {"hat": 1} and state["row"] == [] and lines[0].endswith("(1 earned, nothing more to draw).")
    state, _ = play(state, "forward 3 hat")  # one card reaches the discard pile
    place(state, 1, 15, 14)
    state, lines = play(state, "back 15")  # the next draw tries to refill again and takes that card
    assert hand(state) == {"hat": 1} and state["row"] == [] and state["reshuffles"] == 1
    assert conserved(state)


def test_edge_23_views_show_only_what_each_seat_may_know() -> None:
    jamaica = GAME.new(3, {}, "views-secret-seed")
    public = GAME.view(jamaica, None)
    assert all(set(entry) == {"count"} for entry in public["hands"].values())
    own = GAME.view(jamaica, 1)
    assert set(own["hands"]["1"]) == {"count", "cards"} and set(own["hands"]["0"]) == {"count"}
    assert sum(own["hands"]["1"]["cards"].values()) == 6
    tortuga = GAME.new(3, {"mode": "tortuga"}, "views-secret-seed")
    for seat in (None, 0, 2):
        view = GAME.view(tortuga, seat)
        assert all("cards" in entry for entry in view["hands"].values()) and view["row"] == tortuga["row"]
    for state in (jamaica, tortuga):
        for seat in (None, 0, 1, 2):
            view = GAME.view(state, seat)
            text = json.dumps(view)
            assert "stock" not in view and view["stock_count"] == len(state["stock"])
            assert "views-secret-seed" not in text and "rng_n" not in text and "seed" not in view
            assert json.dumps(state["stock"]) not in text


def test_edge_24_jamaica_drawn_card_names_are_private() -> None:
    state = table()
    arrange(state, stock="pistol hat", rest="discard")
    place(state, 0, 20)
    place(state, 1, 15, 15)
    _, events = GAME.apply(state, 0, "back 20")
    assert events[0].public == "Red moves a pirate back 20 → 15 and draws 2 cards."
    assert events[0].private == {0: "You draw pistol, hat."}
    assert all("pistol" not in (event.public or "") for event in events)


def test_edge_25_cards_and_pirates_are_conserved_through_a_busy_turn() -> None:
    state = table(reshuffle="on")
    arrange(state, {0: "hat skull"}, stock="key", discard="bottle", rest=1)
    place(state, 0, 20, 3)
    place(state, 1, 15, 15)
    for action in ("forward 3 hat", "back 20", "forward 15 skull"):
        state, _ = play(state, action)
        assert conserved(state) and all(len(p) == 6 for p in state["pirates"])


def test_edge_26_apply_never_mutates_and_refuses_with_the_spec_codes() -> None:
    state = table()
    arrange(state, {0: "key"}, rest="stock")
    before = canonical_json(state)
    GAME.apply(state, 0, "forward start key")
    assert canonical_json(state) == before
    assert refused(state, "forward start key", seat=1).code == "not_your_turn"
    for text in ("fly 3", "forward 40 key", "forward 3 parrot", "back", "back 0", ""):
        error = refused(state, text)
        assert error.code == "bad_syntax" and "forward 12 key" in error.message
    assert refused(state, "forward start hat").code == "illegal"


def test_edge_27_same_seed_and_actions_give_identical_dumps() -> None:
    def run() -> str:
        state = GAME.new(4, {"mode": "tortuga"}, "same")
        for _ in range(60):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-2 if _ % 3 else 0])
        return canonical_json(GAME.dump(state))

    assert run() == run()
    data = json.loads(run())
    assert GAME.load(data) == data and data["game"] == "cartagena" and data["version"] == 1


def test_edge_28_legal_actions_order() -> None:
    state = table(3)
    arrange(state, {0: "skull bottle key"}, rest="stock")
    place(state, 0, 14, 3, 14, SLOOP)
    place(state, 1, 2, 12)
    place(state, 2, 13)
    assert GAME.legal_actions(state, 0) == [
        "forward start bottle",
        "forward start key",
        "forward start skull",
        "forward 3 bottle",
        "forward 3 key",
        "forward 3 skull",
        "forward 14 bottle",
        "forward 14 key",
        "forward 14 skull",
        "back 3",
        "back 14",
        "back sloop",
    ]
    state, _ = play(state, "forward 3 key")
    assert GAME.legal_actions(state, 0)[-1] == "end"
    assert GAME.legal_actions(state, 1) == []


# -- rules beyond the edge cases ---------------------------------------------------------------------------------------
def test_parse_is_case_and_space_insensitive_and_gives_canonical_text() -> None:
    assert GAME.parse("  Forward   START  Skull ") == "forward start skull"
    assert GAME.parse("forward 12 k") == "forward 12 key"
    assert GAME.parse("BACK sloop") == "back sloop"
    assert GAME.parse("End") == "end" and GAME.parse("end turn") == "end" and GAME.parse("PASS") == "pass"
    with pytest.raises(IllegalAction) as caught:
        GAME.parse("forward 37 key")
    assert caught.value.code == "bad_syntax"


def test_apply_accepts_any_spelling_and_records_the_canonical_action() -> None:
    state = table()
    arrange(state, {0: "skull"}, rest="stock")
    state, _ = GAME.apply(state, 0, "FORWARD Start S")
    assert state["last"] == {"seat": 0, "action": "forward start skull", "from": 0, "to": 1}


def test_label_shows_the_landing_square_from_the_view() -> None:
    state = table()
    arrange(state, {0: "skull key"}, rest="stock")
    place(state, 0, 4)
    place(state, 1, 1, 15, 14)
    view = GAME.view(state, 0)
    assert GAME.label(view, "forward 4 skull") == "forward 4 skull → 11"
    assert GAME.label(view, "forward start skull") == "forward start skull → 11"
    assert GAME.label(view, "back 4") == "back 4 → 1 (+1)"
    assert GAME.label(view, "end") == "end"
    place(state, 0, 34)
    assert GAME.label(GAME.view(state, None), "forward 34 skull") == "forward 34 skull → SLOOP"


def test_undoable_timeout_and_info() -> None:
    state = table()
    arrange(state, {0: "skull"}, rest="stock")
    assert GAME.undoable(state, 0, "forward start skull")
    assert not GAME.undoable(state, 0, "back 4") and not GAME.undoable(state, 0, "end")
    assert not GAME.undoable(state, 0, "pass")
    assert GAME.timeout_action(state, 0) == "forward start skull"
    after, _ = play(state, "forward start skull")
    assert GAME.timeout_action(after, 0) == "end"
    arrange(state, rest="stock")
    assert GAME.timeout_action(state, 0) == "pass"
    assert GAME.info.seat_names == ("Red", "Blue", "Yellow", "Green", "Purple")
    assert len(GAME.info.rules) < 3500 and "forward" in GAME.info.rules and "back" in GAME.info.rules
    assert [opt.default for opt in GAME.info.options] == ["jamaica", "off", "on", "random"]


def test_not_your_turn_names_whose_turn_it_is() -> None:
    error = refused(table(3), "end", seat=2)
    assert error.code == "not_your_turn" and "Red" in error.message


def test_load_rejects_another_version() -> None:
    data = GAME.dump(table())
    data["version"] = 2
    with pytest.raises(IllegalAction) as caught:
        GAME.load(data)
    assert caught.value.code == "bad_version"


def test_turns_count_every_turn_begun_including_passes() -> None:
    state = table()
    arrange(state, {1: "pistol"}, rest="stock")
    place(state, 1, SLOOP, SLOOP, SLOOP, SLOOP, SLOOP, 36)
    state, _ = play(state, "pass", "forward 36 pistol")
    assert state["result"] == {"winners": [1], "reason": "escaped", "turns": 2}


def test_view_shape_follows_spec_section_4() -> None:
    state = GAME.new(2, {"board": "fixed"}, "shape")
    state["turn_seat"] = 0
    first = GAME.legal_actions(state, 0)[0]
    state, _ = GAME.apply(state, 0, first)
    view = GAME.view(state, 0)
    for key in ("mode", "options", "path", "pirates", "turn_seat", "actions_taken", "to_act", "passes_in_a_row"):
        assert key in view
    for key in ("hands", "row", "stock_count", "discard", "reshuffles", "last", "winners", "phase", "step"):
        assert key in view
    assert view["options"] == {"reshuffle": False, "back_from_sloop": True, "board": "fixed"}
    assert view["pirates"]["0"]["start"] == 5 and view["pirates"]["1"] == {"start": 6, "sloop": 0, "spaces": {}}
    assert view["hands"]["0"]["count"] == 5 and view["stock_count"] == 90 and view["discard"] == {first.split()[2]: 1}
    assert view["last"]["action"] == first and view["to_act"] == [0] and view["actions_left"] == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["jamaica", "tortuga"])
@pytest.mark.parametrize("reshuffle", ["off", "on"])
def test_the_lobby_suggests_reshuffle_on_only_at_a_jamaica_table_of_4_or_5(
    players: int, mode: str, reshuffle: str
) -> None:
    """A Jamaica pile without reshuffle runs dry in a third to half of the games with 4–5 crews
    (docs/games/cartagena.md#the-stall-ending)."""
    notes = GAME.lobby_notes(players, GAME.resolve_options({"mode": mode, "reshuffle": reshuffle}))
    if players >= 4 and mode == "jamaica" and reshuffle == "off":
        assert len(notes) == 1 and "`reshuffle on`" in notes[0] and str(players) in notes[0]
    else:
        assert notes == []
