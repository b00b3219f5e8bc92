"""The steps of setting up a game, in their exact order (docs/games/buccaneer.md#setup): ports, turn order, piles, port
stock, hands."""

from __future__ import annotations

from rules.buccaneer import board
from rules.buccaneer.model import (
    CREW,
    CREW_PER_KIND,
    CREW_VALUE,
    TREASURE,
    TREASURE_VALUE,
)
from rules.core import State, rng


def take_port(state: State, seat: int, harbour: str) -> None:
    state["players"][seat]["harbour"] = harbour
    state["players"][seat]["ship"]["at"] = harbour
    state["harbours"][harbour]["owner"] = seat


def choosing_seat(state: State) -> int | None:
    for seat, p in enumerate(state["players"]):
        if p["harbour"] is None:
            return seat
    return None


def free_ports(state: State) -> list[str]:
    return [h for h in board.HARBOUR_IDS if state["harbours"][h]["owner"] is None]


def start_play(state: State) -> None:
    """The rest of the setup (docs/games/buccaneer.md#setup), once every seat has a home port."""
    dealer_home = state["players"][0]["harbour"]
    ids = list(board.HARBOUR_IDS)
    i = ids.index(dealer_home)
    clockwise = ids[i:] + ids[:i]
    state["order"] = [state["harbours"][h]["owner"] for h in clockwise if state["harbours"][h]["owner"] is not None]
    pile = list(range(1, 29))
    rng(state).shuffle(pile)
    state["chance_pile"] = pile
    deck = [k for k in CREW for _ in range(CREW_PER_KIND)]
    rng(state).shuffle(deck)
    trade_ports = [h for h in clockwise[1:] if state["harbours"][h]["owner"] is None]
    for h in trade_ports:
        for _ in range(2):
            state["harbours"][h]["docks"]["crew"][deck.pop(0)] += 1
    rng(state).shuffle(deck)
    order = state["order"]
    deal_order = order[1:] + order[:1]
    for _ in range(6):
        for seat in deal_order:
            state["players"][seat]["hand"][deck.pop(0)] += 1
    state["pirate_pile"] = deck
    for h in trade_ports:
        crew = state["harbours"][h]["docks"]["crew"]
        need = 8 - sum(CREW_VALUE[k] * n for k, n in crew.items())
        for piece in stock_pieces(state["treasure_island"], need):
            state["treasure_island"][piece] -= 1
            state["harbours"][h]["docks"]["treasure"][piece] += 1
    state["phase"] = "play"
    state["round"] = 1
    state["turn_index"] = 0
    state["turn"] = new_turn(order[0])


def new_turn(seat: int) -> dict:
    return {
        "seat": seat,
        "stage": "start",
        "plan": None,
        "basket": {"give": {}, "get": {}},
        "freemoved": False,
        "record": None,
    }


def stock_pieces(stock: dict[str, int], need: int) -> list[str]:
    """Pieces worth exactly ``need``, the largest first value that still allows an exact fill
    (docs/games/buccaneer.md#stocking-the-trade-ports-to-exactly-8).
    A 5-piece is whichever of diamond and ruby has more left; a tie goes to diamond."""
    left = dict(stock)

    def kinds_by_value() -> list[str]:
        fives = sorted(("diamond", "ruby"), key=lambda k: (-left[k], TREASURE.index(k)))
        return [*fives, "gold", "pearl", "rum"]

    def fill(rest: int, avail: dict[str, int]) -> list[str] | None:
        if rest == 0:
            return []
        for k in kinds_by_value():
            if avail[k] and TREASURE_VALUE[k] <= rest:
                avail[k] -= 1
                tail = fill(rest - TREASURE_VALUE[k], avail)
                if tail is not None:
                    return [k, *tail]
                avail[k] += 1
        return None

    exact = fill(need, left)
    if exact is not None:
        return exact
    left = dict(stock)
    out: list[str] = []
    rest = need
    for k in kinds_by_value():
        while left[k] and TREASURE_VALUE[k] <= rest:
            left[k] -= 1
            rest -= TREASURE_VALUE[k]
            out.append(k)
    return out
