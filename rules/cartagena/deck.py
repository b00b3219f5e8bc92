"""Cards: the deck, drawing in both modes, reshuffles and Tortuga row refills (docs/games/cartagena.md#drawing,
docs/games/cartagena.md#tortugas-row).

Every function here changes a state the caller owns (a copy made by ``apply`` or a state being set up).
Hands are counts per symbol, in symbol order; the stock and the row are lists whose first card is the next
one taken; the discard pile is a list whose last card is the top.
"""

from __future__ import annotations

from rules import core
from rules.cartagena.board import CARDS_PER_SYMBOL, SYMBOLS

ROW_SIZE = 12
SYMBOL_INDEX: dict[str, int] = {symbol: i for i, symbol in enumerate(SYMBOLS)}


def new_deck() -> list[str]:
    """The 102 cards in symbol order, before the setup shuffle."""
    return [symbol for symbol in SYMBOLS for _ in range(CARDS_PER_SYMBOL)]


def reshuffle(state: core.State) -> str:
    """Shuffle the discard pile into a new stock (one RNG operation); returns the event line."""
    pile = state["discard"]
    core.rng(state).shuffle(pile)
    state["stock"] = pile
    state["discard"] = []
    state["reshuffles"] += 1
    return f"The discard pile ({len(pile)} cards) is shuffled into a new draw pile."


def refill_row(state: core.State) -> list[str]:
    """Tortuga: lay out up to 12 new cards, reshuffling the discards when the stock runs out
    (docs/games/cartagena.md#tortugas-row).

    The ``reshuffle`` table option does not apply here: the seed always reshuffles for a new row."""
    lines: list[str] = []
    row = state["row"]
    while len(row) < ROW_SIZE:
        if not state["stock"]:
            if not state["discard"]:
                break
            lines.append(reshuffle(state))
        row.append(state["stock"].pop(0))
    if row:
        lines.append("New row: " + " ".join(row) + ".")
    return lines


def draw(state: core.State, seat: int, count: int) -> tuple[list[str], list[str]]:
    """``seat`` draws up to ``count`` cards; returns (cards drawn, public event lines).

    A draw may come up short when nothing is left to draw; that is not an error (docs/games/cartagena.md#drawing)."""
    drawn: list[str] = []
    lines: list[str] = []
    hand = state["hands"][seat]
    tortuga = state["row"] is not None
    for _ in range(count):
        if tortuga:
            if not state["row"]:
                lines += refill_row(state)
            if not state["row"]:
                break
            card = state["row"].pop(0)
            if not state["row"]:
                # the new row is laid out at once, so it is visible before the next draw
                # (docs/games/cartagena.md#tortugas-row)
                lines += refill_row(state)
        else:
            if not state["stock"] and state["options"]["reshuffle"] == "on" and state["discard"]:
                lines.append(reshuffle(state))
            if not state["stock"]:
                break
            card = state["stock"].pop(0)
        hand[SYMBOL_INDEX[card]] += 1
        drawn.append(card)
    return drawn, lines


def card_total(state: core.State) -> int:
    """Every card in hands, stock, discard pile and row: always 102."""
    row = state["row"] or []
    return sum(sum(hand) for hand in state["hands"]) + len(state["stock"]) + len(state["discard"]) + len(row)
