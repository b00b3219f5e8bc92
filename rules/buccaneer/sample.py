"""A full Buccaneer state consistent with one seat's view, for AIs that search (issue 17).

Hidden from a seat: the other players' crew cards (only how many each holds is public, except the opponent's
hand during a fight the seat is in), the order and make-up of Pirate Island and of the chance pile, the
mover's sailing strength S0 behind an open challenge, a plan or trade basket another player is still building,
and the crew cards a giver has handed over so far.

* Crew: the 72 cards (12 of each kind) minus every card the seat can see (its hand, a fight opponent's hand,
  the Docks, Flat Island) are shuffled and dealt to the hidden hands by their public sizes; the rest, in that
  random order, is Pirate Island.
* Chance cards: the 28 cards minus the keepers held by players or lying in Docks, the removed Kidd's Chart
  and the cards being resolved, shuffled.
* S0 of someone else's move: the sailing strength of the sampled hand if it still has the size it had when
  the move set out, else of a random hand of that size from the sampled hand and the unseen cards.
* A plan another player is still building is replaced by a fresh start of one of his legal moves; a basket by
  an empty one.
The draws are uniform: they do not weigh hands by what the owners did (a long move makes a strong hand more
likely for an honest mover), nor use the known bottom of Pirate Island (cards buried in public).
"""

from __future__ import annotations

import random
from typing import Any

from rules.buccaneer import movement
from rules.buccaneer.model import CREW, CREW_PER_KIND, CREW_VALUE, KEEPER_CARDS, empty_crew, sailing
from rules.core import State, clone

KEEPER_CARDS_ALL = frozenset(num for nums in KEEPER_CARDS.values() for num in nums)


def _hand_list(hand: dict[str, int]) -> list[str]:
    return [k for k in CREW for _ in range(hand.get(k, 0))]


def _counts(cards: list[str]) -> dict[str, int]:
    out = empty_crew()
    for k in cards:
        out[k] += 1
    return out


def sample(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    """A legal state whose view for ``seat`` is ``view``; hidden cards and piles drawn with ``rng``."""
    you = view["you"]
    phase = view["phase"]
    n = len(view["players"])
    known: dict[int, dict[str, int]] = {seat: dict(you["hand"])}
    if you.get("combat"):
        known[you["combat"]["opponent"]] = dict(you["combat"]["opponent_hand"])

    # -- keeper cards: names back to numbers (the two Kidd's Charts are interchangeable)
    spare = {name: list(nums) for name, nums in KEEPER_CARDS.items()}
    removed = list(view["removed"])
    for num in removed:
        for nums in spare.values():
            if num in nums:
                nums.remove(num)

    def numbers(names: list[str]) -> list[int]:
        return sorted(spare[name].pop(0) for name in names)

    players = []
    for p in view["players"]:
        players.append(
            {
                "name": p["name"],
                "harbour": p["harbour"],
                "hand": empty_crew(),
                "keepers": numbers(p["keepers"]),
                "ship": {"at": p["ship"]["at"], "facing": p["ship"]["facing"], "hold": list(p["ship"]["hold"])},
            }
        )
    harbours = {}
    for h in view["harbours"]:
        docks = h["docks"]
        harbours[h["id"]] = {
            "owner": h["owner"],
            "docks": {
                "crew": dict(docks["crew"]),
                "treasure": dict(docks["treasure"]),
                "cards": numbers(docks["cards"]),
            },
            "safety": dict(h["safety"]),
        }

    # -- the stack, with what only its seat knows filled in
    stack = [clone(f) for f in view["stack"]]
    in_play = [f["card"] for f in stack if f["kind"] == "task" and f["op"] == "chance_back"]

    # -- crew cards
    unseen = dict.fromkeys(CREW, CREW_PER_KIND)
    pools = [*(known.values()), *(h["docks"]["crew"] for h in harbours.values()), view["flat"]["crew"]]
    for pool in pools:
        for k in CREW:
            unseen[k] -= pool.get(k, 0)
    deck = [k for k in CREW for _ in range(unseen[k])]
    rng.shuffle(deck)
    for s in range(n):
        if s in known:
            players[s]["hand"] = dict(known[s])
        else:
            size = view["players"][s]["hand_size"]
            players[s]["hand"] = _counts(deck[:size])
            deck = deck[size:]
    pirate_pile = deck if phase != "choose_ports" else []

    chance_pile: list[int] = []
    if phase != "choose_ports":
        chance_pile = [num for nums in spare.values() for num in nums]
        chance_pile += [num for num in range(1, 29) if num not in KEEPER_CARDS_ALL]
        chance_pile = [num for num in chance_pile if num not in in_play and num not in removed]
        rng.shuffle(chance_pile)

    def strength_at_start(mover: int, n0: int) -> int:
        hand = _hand_list(players[mover]["hand"])
        if len(hand) == n0:
            return sailing(players[mover]["hand"])
        pool = hand + list(deck)
        return sailing(_counts(rng.sample(pool, min(n0, len(pool)))))

    for f in stack:
        if f["kind"] == "LOSE" and f["allowed"] == "best":
            hand = players[f["seat"]]["hand"]
            top = max((CREW_VALUE[k] for k in CREW if hand[k]), default=0)
            f["allowed"] = [k for k in CREW if hand[k] and CREW_VALUE[k] == top]
        elif f["kind"] == "GIVE":
            if f["seat"] == seat:
                f["given"] = list(you.get("given", []))
            else:
                # handed over already, so somewhere in the receiver's hand
                taker = _hand_list(players[f["to"]]["hand"])
                got = rng.sample(taker, min(f["given"], len(taker)))
                f["given"] = got + ["b1"] * (f["given"] - len(got))
        elif f["kind"] == "FREE_MOVE" and f["seat"] == seat and f is stack[-1] and you.get("free_plan"):
            f["plan"] = dict(you["free_plan"])

    turn = None
    if view["turn_seat"] is not None:
        record = clone(view["record"])
        if record is not None:
            if view["turn_seat"] == seat:
                record["S0"] = you["move_s0"]
            else:
                record["S0"] = strength_at_start(view["turn_seat"], record["n0"])
        turn = {
            "seat": view["turn_seat"],
            "stage": view["stage"] if phase == "play" else "after",
            "plan": dict(you["plan"]) if you.get("plan") else None,
            "basket": {"give": {}, "get": {}},
            "freemoved": view["freemoved"],
            "record": record,
        }
        if you.get("basket"):
            turn["basket"] = {"give": dict(you["basket"]["give"]), "get": dict(you["basket"]["get"])}

    challenge = None
    window = view["challenge_open"]
    if window:
        s0 = you["window_s0"] if window["mover"] == seat else strength_at_start(window["mover"], window["n0"])
        challenge = {"mover": window["mover"], "k": window["k"], "n0": window["n0"], "S0": s0}

    last = clone(view["last"])
    if last["chance"]:
        last["chance"].pop("title", None)
    if last["challenge"]:
        if you.get("challenge"):
            last["challenge"] = dict(you["challenge"])
        else:
            # only the challenger learned S0; any value giving the public verdict will do
            k = last["challenge"]["k"]
            last["challenge"]["S0"] = k - 1 if last["challenge"]["verdict"] == "exceeded" else k

    state: State = {
        "options": dict(view["options"]),
        "seed": f"{rng.getrandbits(64):016x}",
        "rng_n": rng.randrange(1 << 20),
        "phase": phase,
        "players": players,
        "order": list(view["order"]),
        "round": view["round"],
        "turn_index": view["order"].index(view["turn_seat"]) if view["turn_seat"] is not None else 0,
        "harbours": harbours,
        "treasure_island": dict(view["treasure_island"]),
        "chance_pile": chance_pile,
        "pirate_pile": pirate_pile,
        "flat": {"crew": dict(view["flat"]["crew"]), "treasure": dict(view["flat"]["treasure"])},
        "kidd_landed": view["kidd_landed"],
        "removed": removed,
        "stack": stack,
        "turn": turn,
        "challenge": challenge,
        "combat": None,
        "last": last,
        "outcome": clone(view["outcome"]),
        "game": "buccaneer",
        "version": view["version"],
    }
    if any(f["kind"] == "task" and f["op"] == "combat_end" for f in stack):
        # a fight is on until its closing step runs; who fought is public
        fight = view["last"]["combat"]
        state["combat"] = {"seats": [fight["attacker"], fight["attacked"]]}
    if turn is not None and phase == "play" and turn["stage"] == "plan" and turn["plan"] is None:
        turn["plan"] = _some_plan(state, turn["seat"], rng)
    return state


def _some_plan(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A move another player may be halfway through planning: the first step of one of his legal moves."""
    starts = [a for a in movement.start_moves(state, seat) if a != "stay"]
    if not starts:  # pragma: no cover - a plan exists only after a sail or a turn
        return {"kind": "turn", "dir": None, "k": None, "target": None, "end": None, "face": None}
    plan = movement.plan_step(state, seat, None, rng.choice(starts))
    assert plan is not None
    return plan
