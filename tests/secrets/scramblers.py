"""Per-game scramblers: a copy of a state that differs from it ONLY in what the public may not know.

``scramble(state, rnd)`` re-deals the secrets (hands among themselves and the hidden piles, pile orders, hidden
tiles, the buried treasure among the places the public cannot yet rule out, planned cards, tokens, the seed and
the RNG counter) while keeping every public fact: hand sizes, pile sizes, what lies face up. The public view
and the public picture of the scramble must then be byte-identical to the original's; a difference means some
public output depends on a secret.

Each scramble also says whether it changed a secret, so a test can insist that the comparison had teeth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.core import State, clone

Scrambler = Callable[[State, random.Random], State]


def _copy(state: State, *keys: str) -> State:
    """A copy sharing everything with ``state`` but the named keys, which are deep copies (the scramble changes
    only those; a whole deep copy per state would cost more than the checks)."""
    s = dict(state)
    for key in keys:
        s[key] = clone(state[key])
    return s


def _reseed(s: State, rnd: random.Random) -> None:
    s["seed"] = f"scrambled-{rnd.getrandbits(48):012x}"
    s["rng_n"] = rnd.randrange(10_000)


def _redeal(pieces: list[list[Any]], rnd: random.Random) -> list[list[Any]]:
    """Shuffle the items of several lists together and cut them back to the same lengths."""
    pool = [x for p in pieces for x in p]
    rnd.shuffle(pool)
    out, i = [], 0
    for p in pieces:
        out.append(pool[i : i + len(p)])
        i += len(p)
    return out


# -- cartagena -------------------------------------------------------------------------------------------------
def cartagena(state: State, rnd: random.Random) -> State:
    from rules.cartagena.board import SYMBOLS

    s = _copy(state, "hands", "stock")
    _reseed(s, rnd)
    if s["options"]["mode"] == "jamaica":
        hands = [[sym for sym, n in zip(SYMBOLS, h, strict=True) for _ in range(n)] for h in s["hands"]]
        *new_hands, stock = _redeal([*hands, s["stock"]], rnd)
        s["hands"] = [[h.count(sym) for sym in SYMBOLS] for h in new_hands]
        s["stock"] = stock
    else:
        rnd.shuffle(s["stock"])
    return s


# -- buccaneer -------------------------------------------------------------------------------------------------
def buccaneer(state: State, rnd: random.Random) -> State:
    s = _copy(state, "players", "pirate_pile", "chance_pile")
    _reseed(s, rnd)
    kinds = ("b1", "b2", "b3", "r1", "r2", "r3")
    hands = [[k for k in kinds for _ in range(p["hand"].get(k, 0))] for p in s["players"]]
    *new_hands, pile = _redeal([*hands, s["pirate_pile"]], rnd)
    for p, h in zip(s["players"], new_hands, strict=True):
        p["hand"] = {k: h.count(k) for k in kinds}
    s["pirate_pile"] = pile
    rnd.shuffle(s["chance_pile"])
    return s


# -- flagon ----------------------------------------------------------------------------------------------------
def flagon(state: State, rnd: random.Random) -> State:
    s = _copy(state, "chars")
    _reseed(s, rnd)
    for c in s["chars"]:
        c["queue"], c["hand"] = _redeal([c["queue"], c["hand"]], rnd)
    unseen = [sp for sp in s["end_spaces"] if str(sp) not in s["end_revealed"] and sp not in s["end_revealed"]]
    if unseen and s["navy"] in unseen:
        s["navy"] = rnd.choice(unseen)
    return s


# -- martinique ------------------------------------------------------------------------------------------------
def martinique(state: State, rnd: random.Random) -> State:
    s = _copy(state, "bag", "island", "hook", "lost", "players")
    _reseed(s, rnd)
    rnd.shuffle(s["bag"])
    if s["phase"] == "over":
        return s
    # every map tile whose identity nobody public knows: face down on the island, in the Hook, the Lost Treasure,
    # unrevealed in a collection; and the tiles removed at the end of Sunrise
    slots: list[tuple[Any, ...]] = [("island", i) for i, t in enumerate(s["island"]) if t and t.startswith("map:")]
    slots += [("hook", i) for i in range(len(s["hook"]["maps"]))]
    slots += [("lost", i) for i in range(len(s["lost"]))]
    slots += [
        ("mine", p, i) for p, pl in enumerate(s["players"]) for i, m in enumerate(pl["maps"]) if not m["revealed"]
    ]
    ids = [_get_map(s, slot) for slot in slots]
    rnd.shuffle(ids)
    for slot, tile in zip(slots, ids, strict=True):
        _set_map(s, slot, tile)
    return s


def _get_map(s: State, slot: tuple[Any, ...]) -> str:
    if slot[0] == "island":
        return s["island"][slot[1]]
    if slot[0] == "hook":
        return s["hook"]["maps"][slot[1]]
    if slot[0] == "lost":
        return s["lost"][slot[1]]
    return s["players"][slot[1]]["maps"][slot[2]]["id"]


def _set_map(s: State, slot: tuple[Any, ...], tile: str) -> None:
    if slot[0] == "island":
        s["island"][slot[1]] = tile
    elif slot[0] == "hook":
        s["hook"]["maps"][slot[1]] = tile
    elif slot[0] == "lost":
        s["lost"][slot[1]] = tile
    else:
        s["players"][slot[1]]["maps"][slot[2]]["id"] = tile


# -- treasure island -------------------------------------------------------------------------------------------
def treasure_island(state: State, rnd: random.Random) -> State:
    from rules.treasure_island import geometry
    from rules.treasure_island.views import public_candidates

    keys = ("treasure", "hand", "starting_deck", "black_deck", "compass_hand", "compass_deck", "discards")
    s = _copy(state, *keys, "districts", "district_pile", "chest_tokens", "hint_tokens", "tokens")
    _reseed(s, rnd)
    if s["state"] == "over":
        return s
    if s["treasure"] is not None:
        here = geometry.node(*s["treasure"])
        nodes = [k for k in _bits(public_candidates(s)) if k != here]
        if nodes:
            s["treasure"] = list(geometry.ij(rnd.choice(nodes)))
    # Silver's hint hand and the undealt decks, by deck (deck sizes are public)
    for prefix, deck in (("S", "starting_deck"), ("B", "black_deck")):
        held = [c for c in s["hand"] if c.startswith(prefix)]
        new_held, s[deck] = _redeal([held, s[deck]], rnd)
        s["hand"] = [c for c in s["hand"] if not c.startswith(prefix)] + new_held
    s["compass_hand"], s["compass_deck"] = _redeal([s["compass_hand"], s["compass_deck"]], rnd)
    rnd.shuffle(s["discards"])
    # District Hints: who holds which, the one set aside, the undealt pile
    minis = sorted(s["districts"])
    dealt = [s["districts"][m] for m in minis]
    *dealt, aside, pile = _redeal([*dealt, [s["set_aside"]] if s["set_aside"] else [], s["district_pile"]], rnd)
    for m, cards in zip(minis, dealt, strict=True):
        s["districts"][m] = cards
    if s["set_aside"]:
        s["set_aside"] = aside[0]
    s["district_pile"] = pile
    rnd.shuffle(s["chest_tokens"])
    # the tokens under face-down hints (the first hint's TRUTH is public), and Silver's tokens left
    hidden = [i for i in range(1, len(s["hint_tokens"])) if s["hint_tokens"][i] in ("truth", "bluff", "lie")]
    toks = [s["hint_tokens"][i] for i in hidden]
    rnd.shuffle(toks)
    for i, t in zip(hidden, toks, strict=True):
        s["hint_tokens"][i] = t
    s["tokens"] = {k: rnd.randrange(4) for k in s["tokens"]}
    if s["figures"] and s["real"] is not None:
        s["real"] = rnd.choice([f["id"] for f in s["figures"]])
    return s


def _bits(mask: int) -> list[int]:
    return [k for k, bit in enumerate(reversed(bin(mask)[2:])) if bit == "1"]


SCRAMBLERS: dict[str, Scrambler] = {
    "cartagena": cartagena,
    "buccaneer": buccaneer,
    "flagon": flagon,
    "martinique": martinique,
    "treasure_island": treasure_island,
}
