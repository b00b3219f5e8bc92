"""Whether an AI challenges a long move (docs/games/buccaneer.md#honour-and-the-challenge-window): evidence weighed
against the forfeit it risks.

The challenger sees only its own view: the mover's hand size when it confirmed (``n0``), the distance sailed
(``k``), its own hand, and the crew lying face up in every Docks and on Flat Island. Every other card of the
72 (other hands and the Pirate Island pile) is unseen, so the mover's ``n0`` cards are treated as a draw
without replacement from the unseen cards, and ``P(S0 < k)`` is counted exactly over that draw.

That chance alone would accuse every honest player who holds a good hand, since an honest mover sails far
because its hand allows it, and most often sails exactly its strength. So the estimate weighs the three ways
a move of ``k`` comes about:
- the hand is stronger than ``k`` and the mover wanted to go just ``k``;
- the hand is exactly ``k`` and the mover went as far as it honestly could, which is :data:`AT_STRENGTH` times
  as likely as wanting one particular shorter distance;
- the hand is weaker than ``k`` and the mover bluffed, which a player short of the move they want does only
  some of the time (:data:`BLUFF_RATE`).

The AI challenges when the chance of the last case times what the mover stands to lose (their whole hand)
outweighs the other chance times its own forfeit (its best crew card, or a treasure). The mover's loss is
shared among the challenger's opponents, since another player's loss helps the challenger only as much as it
helps everyone else at the table.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

from rules.buccaneer.model import CREW, CREW_PER_KIND, CREW_VALUE, TREASURE_VALUE

#: the assumed share of bluffs among the moves a player would like to make but cannot honestly: cautious, so that
#: honest players are rarely accused (``python -m benchmarks.challenges`` measures both sides)
BLUFF_RATE = 0.05
#: how much likelier an honest mover sails exactly its strength than one particular shorter distance (Parley's
#: AIs end 58% of their long moves exactly at their strength, the rest spread over the distances below it)
AT_STRENGTH = 10
#: a challenger with nothing to forfeit still wants this much at stake (in crew points) before accusing anyone
MIN_COST = 1
#: a treasure forfeited is worth this many crew points (it is landed points towards the 20 that win)
TREASURE_WEIGHT = 2


def unseen(view: dict[str, Any]) -> dict[int, int]:
    """Crew cards by value (1, 2, 3) that this seat has not seen: the 72 minus its hand and every face-up card."""
    left = dict.fromkeys(CREW, CREW_PER_KIND)
    you = view["you"]
    for k in CREW:
        left[k] -= you["hand"][k] + view["flat"]["crew"][k]
        for h in view["harbours"]:
            left[k] -= h["docks"]["crew"][k]
    by_value = {1: 0, 2: 0, 3: 0}
    for k in CREW:
        by_value[CREW_VALUE[k]] += max(left[k], 0)
    return by_value


@lru_cache(maxsize=1024)
def short_chance(ones: int, twos: int, threes: int, n: int, k: int) -> float:
    """P(the sum of ``n`` cards drawn without replacement from these unseen cards is below ``k``)."""
    total = ones + twos + threes
    if n <= 0 or n > total:
        return 0.0 if n <= 0 else 1.0
    below = 0
    for c3 in range(min(threes, n) + 1):
        for c2 in range(min(twos, n - c3) + 1):
            c1 = n - c3 - c2
            if c1 > ones:
                continue
            if c1 + 2 * c2 + 3 * c3 < k:
                below += comb(ones, c1) * comb(twos, c2) * comb(threes, c3)
    return below / comb(total, n)


def bluff_chance(view: dict[str, Any]) -> float:
    """The chance that the open window's move went beyond its mover's sailing strength, from this view only."""
    window = view["challenge_open"]
    pool = unseen(view)
    n, k = window["n0"], window["k"]
    short = short_chance(pool[1], pool[2], pool[3], n, k)
    exact = short_chance(pool[1], pool[2], pool[3], n, k + 1) - short
    lied = BLUFF_RATE * short
    honest = (1.0 - short - exact) + AT_STRENGTH * exact
    return lied / (lied + honest) if lied + honest > 0 else 0.0


def forfeit_cost(view: dict[str, Any], seat: int) -> int:
    """What a wrong challenge would cost this seat, in crew points: its cheapest forfeit
    (docs/games/buccaneer.md#honour-and-the-challenge-window)."""
    hand = view["you"]["hand"]
    options = [max(CREW_VALUE[k] for k in CREW if hand[k])] if any(hand.values()) else []
    options += [TREASURE_WEIGHT * TREASURE_VALUE[t] for t in view["players"][seat]["ship"]["hold"]]
    return min(options, default=0)


def worth_challenging(view: dict[str, Any], seat: int) -> bool:
    """Challenge when the expected harm to the mover, shared among this seat's opponents, outweighs the expected
    forfeit."""
    window = view["challenge_open"]
    if not window or window["mover"] == seat:
        return False
    p = bluff_chance(view)
    # a caught mover loses the whole hand: n0 cards worth at least n0 and under k in all
    loss = (window["n0"] + window["k"] - 1) / 2
    opponents = max(1, sum(1 for pl in view["players"] if pl["seat"] != seat and pl["harbour"]))
    return p * loss / opponents > (1 - p) * max(forfeit_cost(view, seat), MIN_COST)
