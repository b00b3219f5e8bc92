"""Pieces, values and the small state helpers every Buccaneer module shares (docs/games/buccaneer.md#pieces)."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board
from rules.core import GAME_ACTOR, Event, State

CREW: tuple[str, ...] = ("b1", "b2", "b3", "r1", "r2", "r3")
CREW_VALUE: dict[str, int] = {k: int(k[1]) for k in CREW}
TREASURE: tuple[str, ...] = ("diamond", "ruby", "gold", "pearl", "rum")
TREASURE_VALUE: dict[str, int] = {"diamond": 5, "ruby": 5, "gold": 4, "pearl": 3, "rum": 2}
KEEPERS: tuple[str, ...] = ("longjohn", "doubloons", "pieces", "chart")
KEEPER_CARDS: dict[str, tuple[int, ...]] = {"longjohn": (21,), "doubloons": (23,), "pieces": (24,), "chart": (25, 26)}
KEEPER_OF: dict[int, str] = {n: k for k, ns in KEEPER_CARDS.items() for n in ns}
#: trade value of the value cards; Long John has none (he only takes part in his two special trades)
CARD_VALUE: dict[str, int] = {"doubloons": 4, "pieces": 5, "chart": 3}
CREW_PER_KIND = 12
TREASURE_PER_KIND = 6
WIN_VALUE = 20
HOLD_MAX = 2

CHANCE_TITLES: dict[int, str] = {
    1: "Blown off the coast",
    2: "Demand three crew",
    3: "Blown to Mud Bay",
    4: "Blown to Cliff Creek",
    5: "Blown home",
    6: "Blown to port",
    7: "Washed to the nearest ship",
    8: "Washed to Flat Island",
    9: "Best goes overboard",
    10: "Deserter",
    11: "Treasure or crew",
    12: "Treasure or crew",
    13: "Treasure or crew",
    14: "Treasure or crew",
    15: "Recruits",
    16: "Treasure, crew cut",
    17: "Treasure, crew cut",
    18: "Treasure and recruits",
    19: "New crew",
    20: "Blind exchange",
    21: "Long John Silver",
    22: "Yellow fever",
    23: "Doubloons",
    24: "Pieces of Eight",
    25: "Kidd's Chart",
    26: "Kidd's Chart",
    27: "Treasure or crew",
    28: "Recruits",
}

#: what each chance card does (docs/games/buccaneer.md), by number; the keepers' effects are what trading reads
CHANCE_EFFECTS: dict[int, str] = {
    1: "blown five squares out from the island; storm bonus (crew value 3 or less: take 4 crew)",
    2: "name a player: they give you 3 crew from hand or home Docks, their choice",
    3: "blown to Mud Bay; storm bonus",
    4: "blown to Cliff Creek; storm bonus",
    5: "blown into your home port (you may win at once); storm bonus",
    6: "blown to the nearest harbour the way you face; storm bonus",
    7: "one treasure or two crew wash aboard the nearest ship",
    8: "one treasure or two crew wash onto Flat Island",
    9: "your best treasure aboard, else your best crew card, goes to Flat Island",
    10: "your best crew card deserts to Pirate Island",
    11: "take treasure up to 5, or 2 crew",
    12: "take treasure up to 4, or 2 crew",
    13: "take treasure up to 5, or 2 crew",
    14: "take treasure up to 7, or 3 crew",
    15: "take 2 crew",
    16: "take treasure up to 7, then cut your crew value to 10",
    17: "take treasure up to 6, then cut your crew value to 11",
    18: "take treasure up to 4; with crew value 7 or less, also take 2 crew",
    19: "your whole hand goes under Pirate Island; draw as many back from the top",
    20: "swap 2 random crew with the nearest ship on the coast; with none, bury 2",
    21: "kept: sell him at a port for crew worth up to 5, or buy him back for one treasure",
    22: "everyone with more than 7 crew (hand and home Docks) buries the surplus",
    23: "kept: worth 4 when buying at a port",
    24: "kept: worth 5 when buying at a port",
    25: "kept: land at Anchor Bay for treasure up to 7 (once a game); otherwise worth 3 when buying",
    26: "kept: land at Anchor Bay for treasure up to 7 (once a game); otherwise worth 3 when buying",
    27: "take treasure up to 5, or 3 crew",
    28: "take 2 crew",
}
KEEPER_TITLE = {
    "longjohn": "Long John Silver",
    "doubloons": "Doubloons",
    "pieces": "Pieces of Eight",
    "chart": "Kidd's Chart",
}
KEEPER_EFFECT = {"longjohn": CHANCE_EFFECTS[21], "doubloons": CHANCE_EFFECTS[23], "pieces": CHANCE_EFFECTS[24]}
KEEPER_EFFECT["chart"] = CHANCE_EFFECTS[25]



def chance_title(n: int) -> str:
    return CHANCE_TITLES.get(n, f"card {n}")


def empty_crew() -> dict[str, int]:
    return dict.fromkeys(CREW, 0)


def empty_treasure() -> dict[str, int]:
    return dict.fromkeys(TREASURE, 0)


def item_value(item: str) -> int:
    if item in CREW_VALUE:
        return CREW_VALUE[item]
    if item in TREASURE_VALUE:
        return TREASURE_VALUE[item]
    return CARD_VALUE.get(item, 0)


def sailing(hand: dict[str, int]) -> int:
    return sum(CREW_VALUE[k] * n for k, n in hand.items())


def colour_totals(hand: dict[str, int]) -> tuple[int, int]:
    black = sum(CREW_VALUE[k] * n for k, n in hand.items() if k[0] == "b")
    red = sum(CREW_VALUE[k] * n for k, n in hand.items() if k[0] == "r")
    return black, red


def fighting(hand: dict[str, int]) -> int:
    black, red = colour_totals(hand)
    return abs(black - red)


def count(pool: dict[str, int]) -> int:
    return sum(pool.values())


def cards_text(pool: dict[str, int]) -> str:
    """``B3 B2 B2 R1``: a multiset of crew, Black first, high to low (the hand order of the picture)."""
    parts = [k.upper() for k in ("b3", "b2", "b1", "r3", "r2", "r1") for _ in range(pool.get(k, 0))]
    return " ".join(parts) if parts else "none"


def treasure_value(pool: dict[str, int]) -> int:
    return sum(TREASURE_VALUE[k] * n for k, n in pool.items())


def hold_value(hold: list[str]) -> int:
    return sum(TREASURE_VALUE[t] for t in hold)


def sort_hold(hold: list[str]) -> list[str]:
    return sorted(hold, key=TREASURE.index)


def keeper_names(cards: list[int]) -> list[str]:
    """Keeper names of a list of card numbers, canonical order, one entry per card."""
    return [KEEPER_OF[n] for n in sorted(cards, key=lambda n: (KEEPERS.index(KEEPER_OF[n]), n))]


def has_keeper(cards: list[int], keeper: str) -> int | None:
    """The lowest-numbered card of that keeper in ``cards`` (the one that moves), or None."""
    for n in KEEPER_CARDS[keeper]:
        if n in cards:
            return n
    return None


# -- players, ships, harbours ---------------------------------------------------------------------------
def top(state: State) -> dict[str, Any] | None:
    return state["stack"][-1] if state["stack"] else None


def player(state: State, seat: int) -> dict[str, Any]:
    return state["players"][seat]


def home(state: State, seat: int) -> str:
    return state["players"][seat]["harbour"]


def who(state: State, seat: int) -> str:
    """How narration names a seat: home harbour and display name."""
    p = state["players"][seat]
    if p["harbour"]:
        return board.HARBOUR[p["harbour"]]["name"]
    return p["name"]


def owner_of(state: State, harbour: str) -> int | None:
    return state["harbours"][harbour]["owner"]


def seat_of_ship(state: State, harbour: str) -> int:
    seat = state["harbours"][harbour]["owner"]
    assert seat is not None
    return seat


def ships_at(state: State, at: str, exclude: int | None = None) -> list[int]:
    """Seats whose ship is at ``at``, in turn order."""
    return [s for s in state["order"] if s != exclude and state["players"][s]["ship"]["at"] == at]


def order_after(state: State, seat: int) -> list[int]:
    """Every other seat, in turn order starting after ``seat``."""
    order = state["order"]
    i = order.index(seat)
    return order[i + 1 :] + order[:i]


def order_from(state: State, seat: int) -> list[int]:
    order = state["order"]
    i = order.index(seat)
    return order[i:] + order[:i]


def is_derelict(state: State, seat: int) -> bool:
    return count(state["players"][seat]["hand"]) == 0


def home_value(state: State, harbour: str) -> int:
    h = state["harbours"][harbour]
    return treasure_value(h["docks"]["treasure"]) + treasure_value(h["safety"])


def at_sea(at: str) -> bool:
    return not board.is_harbour(at)


# -- crew piles -----------------------------------------------------------------------------------------
def take_crew(state: State, seat: int, n: int) -> dict[str, int]:
    """Move up to ``n`` cards from the top of Pirate Island to the hand (fewer if it runs out)."""
    got = empty_crew()
    hand = state["players"][seat]["hand"]
    pile = state["pirate_pile"]
    for _ in range(min(n, len(pile))):
        k = pile.pop(0)
        hand[k] += 1
        got[k] += 1
    return got


def bury(state: State, pool: dict[str, int], kind: str) -> None:
    """One card from ``pool`` to the bottom of Pirate Island."""
    pool[kind] -= 1
    state["pirate_pile"].append(kind)


class Narration:
    """Events collected during one ``apply``."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        # the last event if it is a burial: (seat, from the Docks, cards), so a run of burials reads as one line
        self.burial: tuple[int, bool, list[str]] | None = None
        # the last event if it tells a receiver of cards being handed over: (giver, receiver, the cards of this run)
        self.gift: tuple[int, int, list[str]] | None = None

    def add(self, public: str | None, private: dict[int, str] | None = None, echo: int | None = None) -> None:
        """A line, with private lines; ``echo`` is the seat whose private line only repeats its own choice ("You
        buried R2"), kept on the line; every other private line is news (see :func:`credit`)."""
        self.events.append(Event(public, dict(private or {}), echo))
        self.burial = None
        self.gift = None


def credit(before: State, after: State, events: list[Event]) -> list[Event]:
    """Each line's true actor (``Event.actor``): the seat whose name starts it (every line of Buccaneer's
    narration names its subject first, "London sails…"), else the game. Private lines on a line are news to their
    seats (crew taken from Pirate Island), even after the seat's own move; an ``echo`` line ("You buried R2") moves
    to a private-only event of its seat, which the host takes as old news."""
    names = sorted(
        (
            (name, seat)
            for seat in range(len(after["players"]))
            for name in {who(after, seat), who(before, seat), after["players"][seat]["name"]}
        ),
        key=lambda pair: -len(pair[0]),
    )
    out: list[Event] = []
    for e in events:
        actor: int | str | None = GAME_ACTOR
        text = e.public or ""
        for name, seat in names:
            if text.startswith(name) and not text[len(name) : len(name) + 1].isalnum():
                actor = seat
                break
        echo = e.actor if isinstance(e.actor, int) and e.actor in e.private else None
        news = {s: line for s, line in e.private.items() if s != echo}
        out.append(Event(e.public, news, actor))
        if echo is not None:
            # the seat's own choice, told back to it alone: a private-only event of its own (no DM)
            out.append(Event(None, {echo: e.private[echo]}, echo))
    return out
