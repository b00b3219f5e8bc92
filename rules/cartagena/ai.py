"""Cartagena AI players (docs/games/cartagena.md#the-ais): the ``easy`` and ``normal`` policies. They read only their
own view and the legal actions.

``normal`` scores every legal move by its gain in position and cards and repeats until no move gains;
``easy`` makes the longest forward move and ends its turn. Both are deterministic: ties go to the earlier legal
action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.cartagena.board import (
    ACTIONS_PER_TURN,
    SLOOP,
    START,
    SYMBOLS,
    back_target,
    forward_target,
    occupancy,
    positions_from_view,
)

SLOOP_SCORE = 42  # the sloop counts as 42 in the position score: boarding is worth a bonus of 5
JAMAICA_CARD = 3.5  # a hidden card's worth, about the mean forward jump
FULL_HAND = 10  # cards beyond the 10th are worth 1; no backward move while holding this many
SURPLUS_CARD = 1.0
REAR_BONUS = 1.0  # rear pirates make long jumps and are the ones left behind at the end
STACK_PENALTY = 1.5  # per opponent pirate that gains a 2-pirate backward target: a gift of 2 cards


def easy(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """One action a turn: the longest forward jump, else the first backward move."""
    if len(legal) == 1:
        return legal[0]
    return _easy(view, legal)


def normal(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """The move that gains most in position and cards, until none gains; a way to board every pirate first."""
    if len(legal) == 1:
        return legal[0]
    return _normal(_Seen.of(view, seat), view, legal)


def _read(action: str) -> tuple[str, int, str]:
    """(kind, position, symbol) of a canonical legal action; position and symbol are dummies for end/pass."""
    words = action.split()
    if len(words) == 1:
        return words[0], START, ""
    pos = START if words[1] == "start" else SLOOP if words[1] == "sloop" else int(words[1])
    return words[0], pos, words[2] if len(words) == 3 else ""


def _score(pos: int) -> int:
    return SLOOP_SCORE if pos == SLOOP else pos


# -- easy --------------------------------------------------------------------------------------------------------------
def _easy(view: dict[str, Any], legal: list[str]) -> str:
    if view["actions_taken"] and "end" in legal:
        return "end"
    occ = occupancy([positions_from_view(entry) for entry in view["pirates"].values()])
    best, best_gain = None, -1
    for action in legal:
        kind, pos, symbol = _read(action)
        if kind == "forward":
            gain = forward_target(view["path"], occ, pos, symbol) - pos
            if gain > best_gain:
                best, best_gain = action, gain
    if best is not None:
        return best
    return next((action for action in legal if action.startswith("back")), legal[0])


# -- normal ------------------------------------------------------------------------------------------------------------
@dataclass
class _Seen:
    """What the AI knows, decoded once per decision from its view."""

    path: list[str]
    occ: list[int]
    mine: list[int]
    opponents: list[int]
    hand: dict[str, int]
    hand_size: int
    row: list[str] | None
    back_from_sloop: bool

    @classmethod
    def of(cls, view: dict[str, Any], seat: int) -> _Seen:
        positions = {int(s): positions_from_view(entry) for s, entry in view["pirates"].items()}
        own = view["hands"][str(seat)]
        return cls(
            path=view["path"],
            occ=occupancy(list(positions.values())),
            mine=positions[seat],
            opponents=[pos for s, ps in sorted(positions.items()) if s != seat for pos in ps],
            hand=dict(own.get("cards", {})),
            hand_size=own["count"],
            row=view["row"],
            back_from_sloop=view["options"]["back_from_sloop"],
        )

    def card_value(self, symbol: str | None) -> float:
        """Jamaica: 3.5 a card. Tortuga (cards known): the distance its best forward move gains now, at least 1."""
        if symbol is None or self.row is None:
            return JAMAICA_CARD
        best = 1.0
        for pos in set(self.mine):
            if pos != SLOOP:
                best = max(best, _score(forward_target(self.path, self.occ, pos, symbol)) - pos)
        return best


def _normal(seen: _Seen, view: dict[str, Any], legal: list[str]) -> str:
    taken = view["actions_taken"]
    finishing = _finishing_move(seen, ACTIONS_PER_TURN - taken)
    if finishing is not None and finishing in legal:
        return finishing
    backed_to = {move["to"] for move in view["this_turn"] if move["action"].startswith("back")}
    rear = min((pos for pos in seen.mine if pos != SLOOP), default=SLOOP)
    best, best_gain = None, float("-inf")
    for action in legal:
        kind, pos, symbol = _read(action)
        if kind == "forward":
            gain = _forward_gain(seen, pos, symbol, rear)
        elif kind == "back" and seen.hand_size < FULL_HAND and pos not in backed_to:
            gain = _back_gain(seen, pos)
        else:
            continue
        if gain > best_gain:
            best, best_gain = action, gain
    if taken and (best is None or best_gain <= 0):
        return "end"
    return best if best is not None else legal[0]


def _forward_gain(seen: _Seen, pos: int, symbol: str, rear: int) -> float:
    target = forward_target(seen.path, seen.occ, pos, symbol)
    cost = seen.card_value(symbol) if seen.hand_size <= FULL_HAND else SURPLUS_CARD
    return _score(target) - pos - cost + (REAR_BONUS if pos == rear else 0.0)


def _back_gain(seen: _Seen, pos: int) -> float:
    target = back_target(seen.occ, pos)
    if target is None:
        return float("-inf")
    earned = seen.occ[target]
    value = 0.0
    for i in range(earned):
        known = seen.row[i] if seen.row is not None and i < len(seen.row) else None
        value += seen.card_value(known) if seen.hand_size + i < FULL_HAND else SURPLUS_CARD
    after = list(seen.occ)
    after[pos] -= 1
    after[target] += 1
    return value - (_score(pos) - target) - STACK_PENALTY * _gifts(seen, after)


def _gifts(seen: _Seen, after: list[int]) -> int:
    """Opponent pirates whose backward target becomes a 2-pirate space they did not have before."""
    gifts = 0
    for pos in seen.opponents:
        if pos == START or (pos == SLOOP and not seen.back_from_sloop):
            continue
        new = back_target(after, pos)
        if new is None or after[new] != 2:
            continue
        old = back_target(seen.occ, pos)
        if old != new or seen.occ[old] != 2:
            gifts += 1
    return gifts


def _finishing_move(seen: _Seen, actions_left: int) -> str | None:
    """The first move of a way to board every remaining pirate this turn with the cards in hand, if any."""
    left = sorted(pos for pos in seen.mine if pos != SLOOP)
    if not left or len(left) > actions_left or sum(seen.hand.values()) < len(left):
        return None
    plan = _board_all(seen.path, list(seen.occ), left, dict(seen.hand), actions_left)
    return plan[0] if plan else None


def _board_all(path: list[str], occ: list[int], left: list[int], hand: dict[str, int], moves: int) -> list[str] | None:
    """Depth-first search of forward moves, rearmost pirate first, that puts every pirate in ``left`` aboard."""
    if not left:
        return []
    if len(left) > moves:
        return None
    for i, pos in enumerate(left):
        if i and pos == left[i - 1]:
            continue
        for symbol in SYMBOLS:
            if not hand.get(symbol):
                continue
            target = forward_target(path, occ, pos, symbol)
            rest = left[:i] + left[i + 1 :] + ([] if target == SLOOP else [target])
            if len(rest) > moves - 1:
                continue
            occ[pos] -= 1
            occ[target] += 1
            hand[symbol] -= 1
            plan = _board_all(path, occ, sorted(rest), hand, moves - 1)
            hand[symbol] += 1
            occ[target] -= 1
            occ[pos] += 1
            if plan is not None:
                word = "start" if pos == START else str(pos)
                return [f"forward {word} {symbol}", *plan]
    return None
