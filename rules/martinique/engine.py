"""Martinique rules: setup, the Sunrise turn with its reveal / Hook / claim steps, Sunset digs and scoring.

The state is plain JSON. Tiles are strings (see ``tiles.py``); squares are indices 0..63 in index order. Engine seats:
0 = Black (moves first), 1 = Red.
"""

from __future__ import annotations

from typing import Any

from rules import core
from rules.core import Event, Outcome, State, clone
from rules.martinique.board import (
    ARTIFACT_SQUARES,
    BEACH,
    HOOK_SET,
    INDEX,
    LETTERS,
    MAP_TILES,
    NUMBERS,
    SCROLL,
    SQUARES,
    walks,
)
from rules.martinique.tiles import (
    CHEST_SIZE,
    CHESTS,
    JOKERS,
    TYPE_POS,
    all_artifacts,
    claim_options,
    claim_text,
    is_map,
    pairs_points,
    type_of,
    value_of,
)

COLOURS = ("black", "red")
NAMES = ("Black", "Red")
PIRATES = 4


def _shuffled(state: State, items: list[Any]) -> list[Any]:
    out = list(items)
    core.rng(state).shuffle(out)
    return out


def new_state(options: dict[str, str], seed: str) -> State:
    state: State = {"game": "martinique", "version": 1, "seed": str(seed), "rng_n": 0}
    letters = _shuffled(state, list(LETTERS))  # shuffle 0
    numbers = _shuffled(state, list(NUMBERS))  # shuffle 1
    hook_maps = _shuffled(state, [f"map:{letters[1]}", f"map:{numbers[1]}"])  # shuffle 2
    rest = [f"map:{x}" for x in letters[2:] + numbers[2:]]
    scrolls = _shuffled(state, rest)  # shuffle 3
    bag = _shuffled(state, all_artifacts())  # shuffle 4
    island: list[str | None] = [None] * 64
    for sq, tile in zip(SCROLL, scrolls, strict=True):
        island[sq] = tile
    for sq in ARTIFACT_SQUARES:
        island[sq] = bag.pop(0)
    chests = {}
    for chest in CHESTS:
        chests[chest] = bag[: CHEST_SIZE[chest]]
        del bag[: CHEST_SIZE[chest]]
    state.update(
        {
            "options": {"move_after": int(options["move_after"]), "lost_shadow": options["lost_shadow"] == "on"},
            "phase": "sunrise",
            "step": "turn",
            "turn_seat": 0,
            "island": island,
            "pirates": [None] * 64,
            "hook": {"maps": hook_maps, "jokers": JOKERS},
            "lost": [f"map:{letters[0]}", f"map:{numbers[0]}"],
            "chests": chests,
            "bag": bag,
            "pub": [None] * 8,
            "players": [{"supply": PIRATES, "collection": [], "jokers": 0, "maps": [], "ship": []} for _ in range(2)],
            "discarded": [],
            "removed": [],
            "pending": None,
            "dig_pub": {},
            "next_pub": 0,
            "last": None,
            "last_move": None,
            "result": None,
        }
    )
    return state


# -- queries --------------------------------------------------------------------------------------------------


def to_act(state: State) -> list[int]:
    step = state["step"]
    if step == "over":
        return []
    if step == "turn":
        return [state["turn_seat"]]
    if step == "reveal":
        return [1 - state["pending"]["mover"]]
    if step in ("hook", "claim"):
        return [state["pending"]["mover"]]
    return [state["pub"][state["next_pub"]]]


def landed(state: State, seat: int) -> int:
    return PIRATES - state["players"][seat]["supply"]


def hidden_maps(player: dict[str, Any]) -> list[str]:
    """The seat's hidden map tiles (``map:X``) in map tile order."""
    return sorted((m["id"] for m in player["maps"] if not m["revealed"]), key=lambda t: MAP_TILES.index(t[4:]))


def place_squares(state: State, seat: int) -> list[int]:
    if state["players"][seat]["supply"] == 0:
        return []
    island, pirates = state["island"], state["pirates"]
    return [i for i in BEACH if island[i] is not None and pirates[i] is None]


def moves_from(state: State, seat: int, start: int) -> dict[tuple[int, tuple[int, ...]], tuple[int, ...]]:
    """Legal (end, via) pairs of the pirate on ``start``, each with the first path that realises it."""
    pirates = state["pirates"]
    opp = 1 - seat
    found: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
    for path in walks(start, value_of(state["island"][start])):
        end = path[-1]
        if pirates[end] is not None:
            continue
        key = (end, tuple(p for p in path[1:-1] if pirates[p] == opp))
        if key not in found:
            found[key] = path
    return found


def move_text(start: int, end: int, via: tuple[int, ...]) -> str:
    text = f"move {SQUARES[start]} {SQUARES[end]}"
    return text + (" via " + " ".join(SQUARES[v] for v in via) if via else "")


def move_actions(state: State, seat: int) -> list[str]:
    if landed(state, seat) < state["options"]["move_after"]:
        return []
    out: list[str] = []
    pirates = state["pirates"]
    for start in range(64):
        if pirates[start] != seat:
            continue
        keys = sorted(moves_from(state, seat, start), key=lambda k: (k[0], k[1]))
        out += [move_text(start, end, via) for end, via in keys]
    return out


def claim_actions(state: State, seat: int) -> list[str]:
    player = state["players"][seat]
    out: list[str] = []
    for chest in CHESTS:
        for jokered in claim_options(state["chests"][chest], player["collection"], player["jokers"]):
            out.append(claim_text(chest, jokered))
    return out


def legal_actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    step = state["step"]
    if step == "turn":
        out = [f"place {SQUARES[i]}" for i in place_squares(state, seat)] + move_actions(state, seat)
        if out:
            return out
        retire = [f"retire {SQUARES[i]}" for i in range(64) if state["pirates"][i] == seat]
        return retire + (["retire supply"] if state["players"][seat]["supply"] else [])
    if step == "reveal":
        return [f"reveal {t[4:]}" for t in hidden_maps(state["players"][seat])]
    if step == "hook":
        return ["take joker", "take map"]
    if step == "claim":
        return claim_actions(state, seat) + ["done"]
    pirates = state["pirates"]
    return [f"dig {SQUARES[i]}" for i in range(64) if pirates[i] is None]


# -- apply ----------------------------------------------------------------------------------------------------


class Turn:
    """One ``apply`` in progress: the copied state and the narration collected so far."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events: list[Event] = []

    def say(self, public: str | None, private: dict[int, str] | None = None) -> None:
        self.events.append(Event(public, private or {}))

    # -- shared pieces of a turn ---------------------------------------------------------------------------
    def to_pub(self, seat: int) -> int:
        pub = self.s["pub"]
        k = pub.index(None)
        pub[k] = seat
        return k + 1

    def collect(self, seat: int, sq: int, how: str, then: str = "") -> None:
        """Pocket the tile on ``sq``; the public line is ``how`` + what was taken + ``then``."""
        s = self.s
        tile = s["island"][sq]
        s["island"][sq] = None
        if tile is None:
            return
        player = s["players"][seat]
        if is_map(tile):
            player["maps"].append({"id": tile, "revealed": False})
            private = {seat: f"Your map tile from {SQUARES[sq]} is {tile[4:]}."}
            self.say(f"{how} a map tile from {SQUARES[sq]}{then}.", private)
        else:
            player["collection"].append(tile)
            self.say(f"{how} {tile} from {SQUARES[sq]}{then}.")

    def reveal(self, seat: int, tile: str, passed: int) -> None:
        for m in self.s["players"][seat]["maps"]:
            if m["id"] == tile:
                m["revealed"] = True
        self.say(f"{NAMES[seat]} reveals map tile {tile[4:]} (passed at {SQUARES[passed]}).")

    def resolve_reveals(self) -> None:
        """§3.4 step 1: lapse, reveal automatically, or ask the passed seat; then carry on with the move."""
        p = self.s["pending"]
        opp = 1 - p["mover"]
        while p["owed"] > 0:
            hidden = hidden_maps(self.s["players"][opp])
            if not hidden:
                self.say(f"{NAMES[opp]} has no hidden map tile to reveal.")
                p["owed"] = 0
            elif p["owed"] >= len(hidden):
                for tile in hidden:
                    self.reveal(opp, tile, p["via"][p["done"]])
                    p["done"] += 1
                p["owed"] = 0
            else:
                self.s["step"] = "reveal"
                return
        self.finish_move()

    def finish_move(self) -> None:
        s = self.s
        p = s["pending"]
        mover, start, end = p["mover"], p["from"], p["to"]
        s["pending"] = None
        self.collect(mover, start, f"{NAMES[mover]} takes")
        s["pirates"][start] = None
        if end in HOOK_SET:
            seat_no = self.to_pub(mover)
            self.say(f"{NAMES[mover]}'s pirate ends on {SQUARES[end]} (The Hook) and takes pub seat {seat_no}.")
            if self.hook_reward(mover):
                return
        elif s["island"][end] is None:
            seat_no = self.to_pub(mover)
            self.say(f"{NAMES[mover]}'s pirate ends on {SQUARES[end]} (bare sand) and takes pub seat {seat_no}.")
        else:
            s["pirates"][end] = mover
        self.claim_check(mover)

    def hook_reward(self, mover: int) -> bool:
        """Give the Hook reward; True when the mover must choose (the turn pauses at ``sunrise/hook``)."""
        hook = self.s["hook"]
        if hook["jokers"] and hook["maps"]:
            self.s["step"] = "hook"
            self.s["pending"] = {"mover": mover}
            return True
        if hook["maps"]:
            self.take_map(mover)
        elif hook["jokers"]:
            self.take_joker(mover)
        return False

    def take_map(self, mover: int) -> None:
        tile = self.s["hook"]["maps"].pop(0)
        self.s["players"][mover]["maps"].append({"id": tile, "revealed": False})
        self.say(f"{NAMES[mover]} takes a map tile from The Hook.", {mover: f"The Hook map tile is {tile[4:]}."})

    def take_joker(self, mover: int) -> None:
        self.s["hook"]["jokers"] -= 1
        self.s["players"][mover]["jokers"] += 1
        self.say(f"{NAMES[mover]} takes a joker from The Hook.")

    def claim_check(self, mover: int) -> None:
        if claim_actions(self.s, mover):
            self.s["step"] = "claim"
            self.s["pending"] = {"mover": mover}
        else:
            self.end_turn()

    def refill(self) -> None:
        s = self.s
        for chest in CHESTS:
            tiles = s["chests"][chest]
            missing = CHEST_SIZE[chest] - len(tiles)
            if not missing:
                continue
            drawn = s["bag"][:missing]
            del s["bag"][:missing]
            tiles += drawn
            if drawn:
                self.say(f"{chest} refilled: {' '.join(drawn)}.")
            if len(tiles) < CHEST_SIZE[chest]:
                self.say(f"The bag is empty: {chest} holds {len(tiles)} of {CHEST_SIZE[chest]} tiles.")

    def end_turn(self) -> None:
        s = self.s
        s["pending"] = None
        self.refill()
        if None not in s["pub"]:
            self.end_sunrise()
            return
        me = s["turn_seat"]
        other = 1 - me
        s["step"] = "turn"
        if self.active(other):
            s["turn_seat"] = other
        else:
            self.say(f"{NAMES[other]} has no pirates left to play; {NAMES[me]} plays again.")

    def active(self, seat: int) -> bool:
        return self.s["players"][seat]["supply"] > 0 or seat in self.s["pirates"]

    def end_sunrise(self) -> None:
        s = self.s
        removed = s["removed"]
        for i, tile in enumerate(s["island"]):
            if tile is not None:
                removed.append(tile)
                s["island"][i] = None
        removed += s["hook"]["maps"] + ["joker"] * s["hook"]["jokers"]
        s["hook"] = {"maps": [], "jokers": 0}
        for chest in CHESTS:
            removed += s["chests"][chest]
            s["chests"][chest] = []
        s["phase"], s["step"], s["next_pub"] = "sunset", "dig", 0
        first = s["pub"][0]
        self.say(f"Sunrise is over. Sunset: pub seat 1 ({NAMES[first]}) places first.")

    # -- the actions ---------------------------------------------------------------------------------------
    def act(self, seat: int, text: str) -> None:
        s = self.s
        words = text.split()
        verb = words[0]
        s["last"] = {"seat": seat, "action": text, "kind": verb}
        if verb == "place":
            sq = INDEX[words[1]]
            s["players"][seat]["supply"] -= 1
            s["pirates"][sq] = seat
            s["last_move"] = {"seat": seat, "kind": "place", "path": [words[1]], "passed": []}
            self.say(f"{NAMES[seat]} places a pirate on {words[1]}.")
            self.end_turn()
        elif verb == "move":
            start, end = INDEX[words[1]], INDEX[words[2]]
            via = tuple(INDEX[w] for w in words[4:])
            path = moves_from(s, seat, start)[(end, via)]
            s["last_move"] = {
                "seat": seat,
                "kind": "move",
                "path": [SQUARES[i] for i in path],
                "passed": [SQUARES[i] for i in via],
            }
            passing = ", ".join(SQUARES[v] for v in via)
            tail = f" passing {NAMES[1 - seat]} at {passing}" if via else ""
            self.say(f"{NAMES[seat]} moves {words[1]} → {words[2]}{tail}.")
            s["pending"] = {"mover": seat, "from": start, "to": end, "via": list(via), "owed": len(via), "done": 0}
            self.resolve_reveals()
        elif verb == "retire":
            self.retire(seat, words[1])
        elif verb == "reveal":
            p = s["pending"]
            self.reveal(seat, f"map:{words[1]}", p["via"][p["done"]])
            p["done"] += 1
            p["owed"] -= 1
            s["step"] = "turn"  # provisional: resolve_reveals sets the next step
            self.resolve_reveals()
        elif verb == "take":
            s["pending"] = None
            if words[1] == "joker":
                self.take_joker(seat)
            else:
                self.take_map(seat)
            self.claim_check(seat)
        elif verb == "claim":
            self.claim(seat, words[1], words[3:])
        elif verb == "done":
            self.end_turn()
        else:
            self.dig(seat, words[1])

    def retire(self, seat: int, where: str) -> None:
        s = self.s
        s["last_move"] = {"seat": seat, "kind": "retire", "path": [] if where == "supply" else [where], "passed": []}
        head = f"{NAMES[seat]} has no legal place or move:"
        if where == "supply":
            s["players"][seat]["supply"] -= 1
            seat_no = self.to_pub(seat)
            self.say(f"{head} a pirate from the supply goes to pub seat {seat_no}.")
            self.end_turn()
            return
        sq = INDEX[where]
        s["pirates"][sq] = None
        seat_no = s["pub"].index(None) + 1
        self.collect(seat, sq, f"{head} the pirate on {where} takes", f" and goes to pub seat {seat_no}")
        self.to_pub(seat)
        self.claim_check(seat)

    def claim(self, seat: int, chest: str, jokered: list[str]) -> None:
        s = self.s
        player = s["players"][seat]
        tiles = s["chests"][chest]
        need: dict[str, int] = {}
        for tile in tiles:
            need[type_of(tile)] = need.get(type_of(tile), 0) + 1
        for t in jokered:
            need[t] -= 1
        player["jokers"] -= len(jokered)
        s["discarded"] += ["joker"] * len(jokered)
        paid: list[str] = []
        # earliest collected copies go first (the collection is kept in collection order)
        kept: list[str] = []
        for tile in player["collection"]:
            t = type_of(tile)
            if need.get(t, 0) > 0:
                need[t] -= 1
                paid.append(tile)
            else:
                kept.append(tile)
        player["collection"] = kept
        s["discarded"] += paid
        stack = sorted(tiles, key=lambda x: (TYPE_POS[type_of(x)], value_of(x)))
        player["ship"].append(stack)
        s["chests"][chest] = []
        points = sum(value_of(x) for x in stack)
        paid_types = sorted([type_of(x) for x in paid], key=TYPE_POS.__getitem__)
        parts = [", ".join(paid_types)] if paid_types else []
        if jokered:
            parts.append(f"{'a joker' if len(jokered) == 1 else f'{len(jokered)} jokers'} for {', '.join(jokered)}")
        cover = " and ".join(parts)
        self.say(
            f"{NAMES[seat]} claims {chest} with {cover} → ship stack {len(player['ship'])}: "
            f"{' '.join(stack)} ({points} points)."
        )
        if claim_actions(s, seat):
            s["step"], s["pending"] = "claim", {"mover": seat}
        else:
            self.end_turn()

    def dig(self, seat: int, where: str) -> None:
        s = self.s
        sq = INDEX[where]
        pub_seat = s["next_pub"] + 1
        s["pirates"][sq] = seat
        s["dig_pub"][where] = pub_seat
        s["next_pub"] += 1
        s["last_move"] = {"seat": seat, "kind": "dig", "path": [where], "passed": []}
        self.say(f"Pub seat {pub_seat}: {NAMES[seat]} digs at {where}.")
        if s["next_pub"] == 8:
            self.finish_game()

    def finish_game(self) -> None:
        s = self.s
        letter, number = s["lost"][0][4:], s["lost"][1][4:]
        square = letter + number
        finder = s["pirates"][INDEX[square]]
        self.say(f"The Lost Treasure lies at {square}!")
        s["result"] = score(s, square, finder)
        s["phase"] = s["step"] = "over"
        r = s["result"]
        totals = [r["scores"][str(i)]["total"] for i in range(2)]
        line = f"Black {totals[0]}, Red {totals[1]}."
        if r["reason"] == "treasure":
            self.say(f"{NAMES[finder]} finds the Lost Treasure and wins! (Points: {line})")
        elif r["reason"] == "tie":
            self.say(f"Equal points and equal stacks: no winner. ({line})")
        else:
            how = " on the most-stacks tie-break" if r["reason"] == "stacks_tiebreak" else " on points"
            found = f"{NAMES[finder]} found the Lost Treasure (+20). " if finder is not None else ""
            self.say(f"{found}{NAMES[r['winners'][0]]} wins{how}: {line}")


def score(state: State, square: str, finder: int | None) -> dict[str, Any]:
    players = state["players"]
    stacks = [len(p["ship"]) for p in players]
    leader = 0 if stacks[0] > stacks[1] else 1 if stacks[1] > stacks[0] else None
    shadow = state["options"]["lost_shadow"]
    scores: dict[str, dict[str, int]] = {}
    for seat, p in enumerate(players):
        row = {
            "pairs": pairs_points(p["collection"]),
            "ship": sum(value_of(t) for stack in p["ship"] for t in stack),
            "stacks_bonus": 2 if leader == seat else 0,
            "treasure": 20 if shadow and finder == seat else 0,
        }
        row["total"] = sum(row.values())
        scores[str(seat)] = row
    totals = [scores["0"]["total"], scores["1"]["total"]]
    if finder is not None and not shadow:
        winners, reason = [finder], "treasure"
    elif totals[0] != totals[1]:
        winners, reason = [0 if totals[0] > totals[1] else 1], "points"
    elif leader is not None:
        winners, reason = [leader], "stacks_tiebreak"
    else:
        winners, reason = [], "tie"
    return {"winners": winners, "reason": reason, "scores": scores, "treasure": square, "finder": finder}


def outcome(state: State) -> Outcome | None:
    r = state["result"]
    if r is None:
        return None
    totals = tuple(float(r["scores"][str(i)]["total"]) for i in range(2))
    winners = tuple(r["winners"])
    ranking = tuple(sorted(range(2), key=lambda i: (i not in winners, -totals[i], i)))
    # a tie ("still tied? no winner") is a draw for ratings, not a game left unrated
    places = (1, 1) if not winners else None
    return Outcome(winners, r["reason"], totals, ranking, places=places)


def apply(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    turn = Turn(clone(state))
    turn.act(seat, text)
    return turn.s, turn.events
