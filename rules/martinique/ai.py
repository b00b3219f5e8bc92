"""Martinique AI players (docs/games/martinique.md#the-ais). They read only a seat's view and the legal list; ties go to the earlier action.

``normal`` scores each action with the tile values, crossings, landing and pub timing described there; ``easy`` grabs the
best-looking tile and ignores everything else.
"""

from __future__ import annotations

import random
from typing import Any

from rules.martinique.board import INDEX, SQUARES, walks
from rules.martinique.tiles import CHESTS, TYPE_POS, claim_options, pairs_points, type_counts

View = dict[str, Any]


class Knowledge:
    """What the AI derives once per decision from its view."""

    def __init__(self, view: View, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.opp = 1 - seat
        private = view.get("private") or {}
        self.maps: list[str] = list(private.get("maps", []))
        self.candidates: list[str] = list(private.get("candidates", SQUARES))
        self.cand = len(self.candidates)
        me = view["players"][seat]
        self.collection: list[str] = list(me["collection"])
        self.jokers: int = me["jokers"]
        self.counts = type_counts(self.collection)
        self.squares: dict[str, Any] = view["squares"]
        self.opp_hidden: int = view["players"][self.opp]["maps_hidden"]
        self.chests: dict[str, list[str]] = view["chests"]
        self._wants: dict[str, bool] = {}

    def chest_wants(self, t: str) -> bool:
        """Some chest requires type ``t`` and the collection cannot cover that chest yet (asked of every tile a
        move passes, so each type's answer is kept for the decision)."""
        wants = self._wants.get(t)
        if wants is None:
            wants = self._wants[t] = any(
                any(x.startswith(t + ":") for x in self.chests[chest])
                and not claim_options(self.chests[chest], self.collection, self.jokers)
                for chest in CHESTS
            )
        return wants

    def g(self, tile: dict[str, Any] | None) -> float:
        if tile is None:
            return 0.0
        if tile["kind"] == "map":
            return 5.0 if self.cand > 1 else 0.5
        t = tile["type"]
        value = 1.0
        if self.counts[t] % 2 == 1:
            value += 2.0
        if self.chest_wants(t):
            value += 1.5
        return value

    def tile_at(self, sq: str) -> dict[str, Any] | None:
        return self.squares[sq]["tile"]


def _threatened(k: Knowledge, start: str, end: str) -> bool:
    """Whether an opponent pirate could pass ``end`` next turn once our pirate stands there (it moved off ``start``)."""
    opp_colour = k.view["players"][k.opp]["colour"]
    opp = k.view["players"][k.opp]
    if opp["landed"] < k.view["options"]["move_after"]:
        return False
    occupied = {sq for sq, info in k.squares.items() if info["pirate"] is not None}
    occupied.discard(start)
    occupied.add(end)
    target = INDEX[end]
    for sq, info in k.squares.items():
        if info["pirate"] != opp_colour or info["tile"] is None:
            continue
        n = 1 if info["tile"]["kind"] == "map" else info["tile"]["value"]
        for path in walks(INDEX[sq], n):
            if target in path[1:-1] and SQUARES[path[-1]] not in occupied:
                return True
    return False


def _pub_term(k: Knowledge, end: str) -> float:
    if k.cand <= 2:
        value = 6.0
    elif k.cand <= 4:
        value = 2.0
    else:
        value = -3.0
    if k.squares[end]["hook"]:
        hook = k.view["hook"]
        if hook["maps"] and k.cand > 1:
            value += 4.0
        elif hook["jokers"]:
            value += 2.0
    return value


def _score_move(k: Knowledge, action: str) -> float:
    words = action.split()
    start, end, via = words[1], words[2], words[4:]
    value = k.g(k.tile_at(start))
    if k.opp_hidden:
        value += 3.0 * len(via)
    landing = k.tile_at(end)
    if landing is not None and not k.squares[end]["hook"]:
        value += 0.3 * k.g(landing)
        if k.maps and _threatened(k, start, end):
            value -= 1.5
    else:
        value += _pub_term(k, end)
    return value


def _turn_normal(k: Knowledge, legal: list[str]) -> str:
    if legal[0].startswith("retire"):
        return _retire(k, legal)
    me = k.view["players"][k.seat]
    unlocked = me["landed"] >= k.view["options"]["move_after"]
    scored: list[tuple[float, int, str]] = []
    for i, action in enumerate(legal):
        if action.startswith("place"):
            g = k.g(k.tile_at(action.split()[1]))
            scored.append((1.0 + g, i, action))
        else:
            scored.append((_score_move(k, action), i, action))
    places = [x for x in scored if x[2].startswith("place")]
    moves = [x for x in scored if not x[2].startswith("place")]
    if unlocked and places and moves:
        # keep the last pirate in supply until a good beach tile shows up or nothing else is worth doing
        best_place = max(places, key=lambda x: (x[0], -x[1]))
        if best_place[0] - 1.0 < 3.0 and max(m[0] for m in moves) > 0:
            scored = moves
    return max(scored, key=lambda x: (x[0], -x[1]))[2]


def _retire(k: Knowledge, legal: list[str]) -> str:
    best, best_g = legal[0], -1.0
    for action in legal:
        sq = action.split()[1]
        if sq == "supply":
            continue
        g = k.g(k.tile_at(sq))
        if g > best_g:
            best, best_g = action, g
    return best


def _turn_easy(k: Knowledge, legal: list[str]) -> str:
    best, best_g = legal[0], -1.0
    for action in legal:
        sq = action.split()[1]
        g = 0.0 if sq == "supply" else k.g(k.tile_at(sq))
        if g > best_g:
            best, best_g = action, g
    return best


def _reveal(k: Knowledge, legal: list[str]) -> str:
    opp = k.view["players"][k.opp]
    revealed = opp["maps_revealed"]
    half = opp["maps_hidden"] / 2
    m_letters = 8 - sum(1 for x in revealed if x.isalpha()) - half
    m_numbers = 8 - sum(1 for x in revealed if x.isdigit()) - half
    mine_letters = sum(1 for x in k.maps if x.isalpha())
    mine_numbers = len(k.maps) - mine_letters
    letters = [a for a in legal if a.split()[1].isalpha()]
    numbers = [a for a in legal if a.split()[1].isdigit()]
    if not letters or not numbers:
        return legal[0]
    prefer_letters = (m_letters, mine_letters) >= (m_numbers, mine_numbers)
    return (letters if prefer_letters else numbers)[0]


def _stack_lead_bonus(k: Knowledge) -> float:
    mine = len(k.view["players"][k.seat]["ship"])
    theirs = len(k.view["players"][k.opp]["ship"])
    # one more stack makes us the strict leader, or breaks the opponent's lead
    return 2.0 if mine + 1 > theirs >= mine else 0.0


def _claim_value(k: Knowledge, action: str) -> float:
    words = action.split()
    chest = k.chests[words[1]]
    jokered = words[3:]
    need = type_counts(chest)
    for t in jokered:
        need[t] -= 1
    after = list(k.collection)
    for t in sorted(need, key=TYPE_POS.__getitem__):
        for _ in range(need[t]):
            for idx, tile in enumerate(after):
                if tile.startswith(t + ":"):
                    del after[idx]
                    break
    pairs_lost = (pairs_points(k.collection) - pairs_points(after)) / 2
    value = sum(int(x.split(":")[1]) for x in chest)
    return value + _stack_lead_bonus(k) - 2.0 * pairs_lost - 1.0 * len(jokered)


def _claim_normal(k: Knowledge, legal: list[str]) -> str:
    best, best_v = "done", 0.0
    for action in legal:
        if action == "done":
            continue
        v = _claim_value(k, action)
        if v > best_v:
            best, best_v = action, v
    return best


def _dig(k: Knowledge, legal: list[str], level: str) -> str:
    free = [a.split()[1] for a in legal]
    free_set = set(free)
    cands = [sq for sq in k.candidates if sq in free_set]
    if not cands:
        letters = {sq[0] for sq in k.candidates}
        numbers = {sq[1] for sq in k.candidates}
        for sq in free:
            if sq[0] in letters or sq[1] in numbers:
                return f"dig {sq}"
        return legal[0]
    if level == "easy":
        return f"dig {cands[0]}"
    opp_colour = k.view["players"][k.opp]["colour"]
    opp_digs = [sq for sq, info in k.squares.items() if info["pirate"] == opp_colour]
    best, best_w = cands[0], -1.0
    for sq in cands:
        w = 1.0
        for d in opp_digs:
            if d[0] == sq[0] or d[1] == sq[1]:
                w *= 1.5
        if w > best_w:
            best, best_w = sq, w
    return f"dig {best}"


def easy(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    """The best-looking tile, ignoring everything else."""
    return _choose(view, seat, legal, "easy")


def normal(view: View, seat: int, legal: list[str], rnd: random.Random) -> str:
    """Tile values, crossings, landing and pub timing, weighed as docs/games/martinique.md#the-ais describes."""
    return _choose(view, seat, legal, "normal")


def _choose(view: View, seat: int, legal: list[str], level: str) -> str:
    k = Knowledge(view, seat)
    step = view["step"]
    easy = level == "easy"
    if step == "turn":
        return _turn_easy(k, legal) if easy else _turn_normal(k, legal)
    if step == "reveal":
        return legal[0] if easy else _reveal(k, legal)
    if step == "hook":
        return "take map" if easy or k.cand > 1 else "take joker"
    if step == "claim":
        return legal[0] if easy else _claim_normal(k, legal)
    return _dig(k, legal, level)
