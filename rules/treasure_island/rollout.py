"""Treasure Island played on in place for the ``hard`` search's playouts (rules/rollout.py).

The engine's handlers change the sampled state directly (no JSON copy, no check against a list of thousands of
destinations, no narration credited), and the rollout policy chooses without listing the legal actions or building
a view: a pirate scores a handful of searches around it and of reachable destinations against its belief held as
one integer bitset (docs/games/treasure_island.md#the-ais: ``normal``'s weights are a softer version of the same
sets), and Long John Silver plays his hints plainly and runs for the treasure. Each pirate's belief reads only what
its seat may know: the public candidates, every hint played, and its own District Hints, compass cards, chest
clues, memories and verified tokens.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from rules.core import Game, Outcome, State
from rules.rollout import Rollout
from rules.treasure_island import ai, engine, geometry, moves, views
from rules.treasure_island.model import as_pt

#: destinations a pirate weighs for a ride or a walk: a few random points of its reach
TRIES = 8
#: the search centres a pirate weighs, as unit offsets scaled by its search radius (its own spot first)
_AROUND = ((0.0, 0.0), (1, 0), (-1, 0), (0, 1), (0, -1), (0.6, 0.6), (0.6, -0.6), (-0.6, 0.6), (-0.6, -0.6))


# ≈900 B an entry (a bitset over the map's nodes); a few radii around every node fit, and a miss costs ~10 µs
@lru_cache(maxsize=2048)
def _disc(map_id: str, k: int, r: int) -> int:
    """Legal nodes within ``r`` half-miles of node ``k``: what a search or dig centred there roughly covers. Built
    a row at a time (``geometry.disc_mask`` tests every node of the map, 400 times slower)."""
    i, j = geometry.ij(k)
    m = 0
    for dj in range(-r, r + 1):
        row = j + dj
        if 0 <= row < geometry.H:
            w = math.isqrt(r * r - dj * dj)
            lo, hi = max(0, i - w), min(geometry.W - 1, i + w)
            m |= ((1 << (hi - lo + 1)) - 1) << (row * geometry.W + lo)
    return m & geometry.geo(map_id).legal_mask


class IslandRollout(Rollout):
    def __init__(self, game: Game, state: State) -> None:
        super().__init__(game, state)
        self._events: list = []
        self.map_id = state["options"]["map"]
        self.g = geometry.geo(self.map_id)

    def to_act(self) -> list[int]:
        return moves.to_act(self.state)

    def legal(self, seat: int) -> list[str]:
        return moves.legal_actions(self.state, seat)

    def play(self, seat: int, action: str) -> None:
        engine.act(self.state, seat, action, self._events)
        self._events.clear()

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)

    # -- the rollout policy ----------------------------------------------------------------------------------
    def choose(self, seat: int, rng: random.Random) -> str:
        state = self.state
        step = state["state"]
        if seat == state["silver"]:
            return self._silver(step, rng)
        if step == "turn":
            return self._turn(seat, rng)
        if step == "ride2":
            return "halt"
        if step == "step":
            return "stay"
        if step == "prison":
            return f"tower {rng.choice(self.g.tower_ids)}"
        legal = self.legal(seat)
        return rng.choice(legal)

    def _belief(self, seat: int) -> int:
        """The nodes the seat cannot rule out, narrowed by each hint played before any Bluff token could have lain
        under it, where that leaves any. ``normal`` trusts those hints almost fully and a later one only a little
        (docs/games/treasure_island.md#the-ais); trusting the later ones here would let the search win its playouts
        with bluffs that ``normal`` pirates see through."""
        state = self.state
        cands = views.public_candidates(state) & ~views.certain_excluded(state, seat)
        if not cands:
            cands = views.public_candidates(state) or self.g.legal_mask
        first_bluff = min((c["day"] for c in state["calendar"] if c["event"] == "bluff"), default=None)
        for h in state["hints"][1:]:
            if first_bluff is not None and first_bluff < h["day"]:
                break
            narrowed = cands & geometry.mask_from_b64(h["true_mask"])
            if narrowed:
                cands = narrowed
        return cands

    def _turn(self, seat: int, rng: random.Random) -> str:
        state = self.state
        m = state["turn"]["mini"]
        left = state["turn"]["left"]
        items = state["items"][seat]
        if left < 1:
            return "use extra" if "extra" in items else "end"
        cands = self._belief(seat)
        total = cands.bit_count() or 1
        here = as_pt(state["minis"][m]["pos"])
        r = 5 if m == "jim" else 4
        map_id = self.map_id
        legal_node = self.g.legal
        # the best large search that contains the mover
        best, best_score = "end", 0.0
        for dx, dy in _AROUND:
            c = (here[0] + round(dx * r), here[1] + round(dy * r))
            if not (0 <= c[0] < geometry.W and 0 <= c[1] < geometry.H):
                continue
            k = geometry.node(*c)
            mass = (cands & _disc(map_id, k, r)).bit_count() / total
            if mass > best_score:
                best, best_score = f"search {geometry.NODE_TEXT[k]}", mass
        gamma = 0.6 if left >= 2 else 0.35
        ben = m == "ben"
        fog = tuple(as_pt(f["centre"]) for f in state["fog"])
        for verb, reach in (("ride", 12), ("walk", 6)):
            for _ in range(TRIES):
                b = (here[0] + rng.randint(-reach, reach), here[1] + rng.randint(-reach, reach))
                if not (0 <= b[0] < geometry.W and 0 <= b[1] < geometry.H):
                    continue
                k = geometry.node(*b)
                if not legal_node[k] or self.g.move_error(here, b, reach, ben, fog) is not None:
                    continue
                ahead = gamma * (cands & _disc(map_id, k, r)).bit_count() / total
                if verb == "ride":
                    score = ahead - ai.RIDE_COST * math.sqrt(geometry.d2(here, b)) / 2
                else:
                    score = ahead + (cands & _disc(map_id, k, 2)).bit_count() / total
                if score > best_score:
                    best, best_score = f"{verb} {geometry.NODE_TEXT[k]}", score
        if best == "end" and left >= 1:
            return "dig"  # nothing measurable anywhere near: dig where it stands rather than wait
        return best

    def _silver(self, step: str, rng: random.Random) -> str:
        state = self.state
        if step == "hint_card":
            legal = self.legal(state["silver"])
            cards = [a for a in legal if a.startswith("hint ")]
            return rng.choice(cards) if cards else "redraw"
        if step == "hint_token":
            return "token truth" if state["tokens"]["truth"] > 0 else self.legal(state["silver"])[0]
        if step == "prison_trick":
            return "proceed"
        if step == "chest":
            return "nothing"
        if step == "escape":
            return self._run(rng)
        return rng.choice(self.legal(state["silver"]))

    def _run(self, rng: random.Random) -> str:
        """The real figure heads for the treasure along the shortest path; a decoy heads nowhere in particular."""
        state = self.state
        e = state["escape"]
        fig = state["figures"][e["fig"]]
        here = as_pt(fig["pos"])
        t = as_pt(state["treasure"])
        if fig["id"] != state["real"]:
            return "stay"
        if here == t:
            return "stay"
        route = ai.path(self.map_id, geometry.node(*here), geometry.node(*t))
        for k in reversed(route[1:]):
            b = geometry.ij(k)
            if geometry.d2(here, b) <= 64 and self.g.move_error(here, b, 8) is None:
                return f"run {geometry.NODE_TEXT[k]}"
        return "stay"

