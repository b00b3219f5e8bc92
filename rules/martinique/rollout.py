"""Martinique played on in place for the ``hard`` search's playouts (rules/rollout.py): the engine's turn
changes the sampled state itself (no copy, no turn checks: every action comes from the legal list).

The rollout policy is ``normal``'s turn (docs/games/martinique.md#the-ais) read straight from the state, without a
view, and without its costliest term (whether an opponent could walk past the landing square next turn); the
rarer decisions (reveals, The Hook, claims, digs) are ``normal``'s own from the mover's view. It reads only what the
mover may know: the board, both collections and ships, and its own map tiles."""

from __future__ import annotations

import random

from rules.core import Outcome
from rules.martinique import ai, engine, moves, views
from rules.martinique.board import HOOK_SET, INDEX, candidates
from rules.martinique.tiles import CHESTS, claim_options, type_counts
from rules.rollout import Rollout


class MartiniqueRollout(Rollout):
    def to_act(self) -> list[int]:
        return moves.to_act(self.state)

    def legal(self, seat: int) -> list[str]:
        return moves.legal_actions(self.state, seat)

    def play(self, seat: int, action: str) -> None:
        engine.Turn(self.state).act(seat, action)

    def outcome(self) -> Outcome | None:
        return engine.outcome(self.state)

    def choose(self, seat: int, rng: random.Random) -> str:
        legal = self.legal(seat)
        if len(legal) == 1:
            return legal[0]
        step = self.state["step"]
        if step == "claim":
            return ai._claim_normal(_ClaimKnowledge(self.state, seat), legal)
        if step != "turn" or legal[0].startswith("retire"):
            return ai.normal(views.view(self.state, seat), seat, legal, rng)
        return _Turn(self.state, seat).choose(legal)


class _ClaimKnowledge:
    """What ``normal``'s chest claims read of a view (ai.py's ``_claim_normal``), taken from the state."""

    def __init__(self, state: dict, seat: int) -> None:
        self.seat = seat
        self.opp = 1 - seat
        self.chests = state["chests"]
        self.collection = state["players"][seat]["collection"]
        self.view = {"players": [{"ship": p["ship"]} for p in state["players"]]}


class _Turn:
    """``normal``'s scores of a turn's places and moves, from the state (ai.py's ``_turn_normal``)."""

    def __init__(self, state: dict, seat: int) -> None:
        self.state = state
        me = state["players"][seat]
        opp = state["players"][1 - seat]
        own = [m["id"][4:] for m in me["maps"]]
        seen = set(own) | {m["id"][4:] for m in opp["maps"] if m["revealed"]}
        self.cand = len(candidates([x for x in seen if x.isalpha()], [x for x in seen if x.isdigit()]))
        self.collection = me["collection"]
        self.jokers = me["jokers"]
        self.counts = type_counts(self.collection)
        self.opp_hidden = sum(1 for m in opp["maps"] if not m["revealed"])
        self.unlocked = moves.landed(state, seat) >= state["options"]["move_after"]
        self.values: dict[str, float] = {}

    def g(self, tile: str | None) -> float:
        if tile is None:
            return 0.0
        if tile.startswith("map:"):
            return 5.0 if self.cand > 1 else 0.5
        t = tile.split(":", 1)[0]
        value = self.values.get(t)
        if value is None:
            value = 1.0 + (2.0 if self.counts[t] % 2 == 1 else 0.0)
            chests = self.state["chests"]
            if any(
                any(x.startswith(t + ":") for x in chests[c]) and not claim_options(chests[c], self.collection, self.jokers)
                for c in CHESTS
            ):
                value += 1.5
            self.values[t] = value
        return value

    def pub(self, end: int) -> float:
        value = 6.0 if self.cand <= 2 else 2.0 if self.cand <= 4 else -3.0
        if end in HOOK_SET:
            hook = self.state["hook"]
            if hook["maps"] and self.cand > 1:
                value += 4.0
            elif hook["jokers"]:
                value += 2.0
        return value

    def choose(self, legal: list[str]) -> str:
        island = self.state["island"]
        scored: list[tuple[float, int, str]] = []
        for i, action in enumerate(legal):
            words = action.split()
            if words[0] == "place":
                scored.append((1.0 + self.g(island[INDEX[words[1]]]), i, action))
                continue
            start, end = INDEX[words[1]], INDEX[words[2]]
            value = self.g(island[start]) + (3.0 * len(words[4:]) if self.opp_hidden else 0.0)
            landing = island[end]
            if landing is not None and end not in HOOK_SET:
                value += 0.3 * self.g(landing)
            else:
                value += self.pub(end)
            scored.append((value, i, action))
        places = [x for x in scored if x[2].startswith("place")]
        moved = [x for x in scored if not x[2].startswith("place")]
        if self.unlocked and places and moved:
            best_place = max(places, key=lambda x: (x[0], -x[1]))
            if best_place[0] - 1.0 < 3.0 and max(m[0] for m in moved) > 0:
                scored = moved
        return max(scored, key=lambda x: (x[0], -x[1]))[2]
