"""States Cartagena's ``hard`` AI cannot tell from the real one: the hidden cards re-dealt from what a view allows.

A seat sees the board, every hand's size, its own hand, the discard pile's contents and (Tortuga) every hand and the
row. What it does not see: in Jamaica the other hands, and in both modes the stock's order. Every card of the deck
(17 of each symbol) that is not in its own hand, on the discard pile or in the row is one of those unseen cards, so
a sample shuffles them and deals the other hands (at their known sizes) and the stock from them. The discard pile's
order is never shown either; it only matters when it is reshuffled, which draws a fresh order anyway.
"""

from __future__ import annotations

import random
from typing import Any

from rules.cartagena.board import CARDS_PER_SYMBOL, PIRATES_PER_SEAT, SLOOP, START, SYMBOLS
from rules.core import State, clone


def _positions(entry: dict[str, Any]) -> list[int]:
    positions = [START] * entry["start"]
    for space, count in entry["spaces"].items():
        positions += [int(space)] * count
    positions += [SLOOP] * entry["sloop"]
    assert len(positions) == PIRATES_PER_SEAT
    return sorted(positions)


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    players = view["players"]
    unseen = dict.fromkeys(SYMBOLS, CARDS_PER_SYMBOL)
    known: dict[int, list[int]] = {}
    for s in range(players):
        cards = view["hands"][str(s)].get("cards")
        if cards is not None:
            known[s] = [cards.get(symbol, 0) for symbol in SYMBOLS]
            for symbol, n in cards.items():
                unseen[symbol] -= n
    for symbol, n in view["discard"].items():
        unseen[symbol] -= n
    for card in view["row"] or []:
        unseen[card] -= 1
    pool = [symbol for symbol in SYMBOLS for _ in range(unseen[symbol])]
    rng.shuffle(pool)
    hands = []
    for s in range(players):
        if s in known:
            hands.append(known[s])
            continue
        size = view["hands"][str(s)]["count"]
        dealt, pool = pool[:size], pool[size:]
        hands.append([dealt.count(symbol) for symbol in SYMBOLS])
    if len(pool) != view["stock_count"]:
        raise ValueError("the view's card counts do not add up to the deck")
    discard = [symbol for symbol in SYMBOLS for _ in range(view["discard"].get(symbol, 0))]
    rng.shuffle(discard)
    opts = view["options"]
    result = view["result"]
    return {
        "game": "cartagena",
        "version": 1,
        "seed": f"{rng.getrandbits(64):016x}",
        "rng_n": 0,
        "players": players,
        "options": {
            "mode": view["mode"],
            "reshuffle": "on" if opts["reshuffle"] else "off",
            "back_from_sloop": "on" if opts["back_from_sloop"] else "off",
            "board": opts["board"],
        },
        "path": list(view["path"]),
        "pirates": [_positions(view["pirates"][str(s)]) for s in range(players)],
        "hands": hands,
        "stock": pool,
        "row": None if view["row"] is None else list(view["row"]),
        "discard": discard,
        "reshuffles": view["reshuffles"],
        "turn_seat": view["turn_seat"],
        "turn_number": view["turn_number"],
        "actions_taken": view["actions_taken"],
        "passes_in_a_row": view["passes_in_a_row"],
        "this_turn": [dict(move) for move in view["this_turn"]],
        "last": None if view["last"] is None else dict(view["last"]),
        "last_action": None if view["last_action"] is None else dict(view["last_action"]),
        "result": None if result is None else clone(result),
    }

