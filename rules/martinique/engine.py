"""Martinique's state and how it changes: setup (``new_state``), one legal action (``apply``: the Sunrise turn with
its reveal / Hook / claim steps, Sunset digs) and scoring at the end.

The state is plain JSON. Tiles are strings (see ``tiles.py``); squares are indices 0..63 in index order. Engine seats:
0 = Black (moves first), 1 = Red.
"""

from __future__ import annotations

from typing import Any

from rules import core
from rules.core import GAME_ACTOR, Event, Outcome, State, clone
from rules.martinique.board import (
    ARTIFACT_SQUARES,
    HOOK_SET,
    INDEX,
    LETTERS,
    NAMES,
    NUMBERS,
    PIRATES,
    SCROLL,
    SQUARES,
)
from rules.martinique.moves import claim_actions, hidden_maps, moves_from
from rules.martinique.tiles import (
    CHEST_SIZE,
    CHESTS,
    JOKERS,
    TYPE_POS,
    all_artifacts,
    is_map,
    pairs_points,
    type_of,
    value_of,
)
from rules.voice import credit


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


# -- apply ----------------------------------------------------------------------------------------------------


class Turn:
    """One ``apply`` in progress: the copied state and the narration collected so far."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def say(self, public: str | None, private: dict[int, str] | None = None, actor: int | str | None = None) -> None:
        """A line; its actor is the seat whose name starts it (``credit`` in ``apply``) unless given here."""
        self.events.append(Event(public, private or {}, actor))

    # -- shared pieces of a turn ---------------------------------------------------------------------------
    def to_pub(self, seat: int) -> int:
        pub = self.state["pub"]
        k = pub.index(None)
        pub[k] = seat
        return k + 1

    def collect(self, seat: int, sq: int, how: str, then: str = "") -> None:
        """Pocket the tile on ``sq``; the public line is ``how`` + what was taken + ``then``."""
        state = self.state
        tile = state["island"][sq]
        state["island"][sq] = None
        if tile is None:
            return
        player = state["players"][seat]
        if is_map(tile):
            player["maps"].append({"id": tile, "revealed": False})
            private = {seat: f"Your map tile from {SQUARES[sq]} is {tile[4:]}."}
            self.say(f"{how} a map tile from {SQUARES[sq]}{then}.", private)
        else:
            player["collection"].append(tile)
            self.say(f"{how} {tile} from {SQUARES[sq]}{then}.")

    def reveal(self, seat: int, tile: str, passed: int, chosen: bool = True) -> None:
        """Turn a map tile of ``seat`` face up: its own choice, or (``chosen`` False) the engine's when the passed
        seat owes as many reveals as it has hidden tiles (docs/games/martinique.md#reveals)."""
        for m in self.state["players"][seat]["maps"]:
            if m["id"] == tile:
                m["revealed"] = True
        if chosen:
            self.say(f"{NAMES[seat]} reveals map tile {tile[4:]} (passed at {SQUARES[passed]}).")
            return
        # the passed seat did not choose, and its hidden tiles changed through the other seat's move: it is told
        mover = 1 - seat
        self.say(
            f"{NAMES[seat]}'s map tile {tile[4:]} is turned face up (passed at {SQUARES[passed]}).",
            {seat: f"{NAMES[mover]} passed your pirate at {SQUARES[passed]}: your map tile {tile[4:]} is now face up."},
            GAME_ACTOR,
        )

    def resolve_reveals(self) -> None:
        """The reveals a move owes (docs/games/martinique.md#reveals): lapse, reveal automatically, or ask the
        passed seat; then carry on with the move."""
        p = self.state["pending"]
        opp = 1 - p["mover"]
        while p["owed"] > 0:
            hidden = hidden_maps(self.state["players"][opp])
            if not hidden:
                self.say(f"{NAMES[opp]} has no hidden map tile to reveal.", actor=GAME_ACTOR)
                p["owed"] = 0
            elif p["owed"] >= len(hidden):
                for tile in hidden:
                    self.reveal(opp, tile, p["via"][p["done"]], chosen=False)
                    p["done"] += 1
                p["owed"] = 0
            else:
                self.state["step"] = "reveal"
                return
        self.finish_move()

    def finish_move(self) -> None:
        state = self.state
        p = state["pending"]
        mover, start, end = p["mover"], p["from"], p["to"]
        state["pending"] = None
        self.collect(mover, start, f"{NAMES[mover]} takes")
        state["pirates"][start] = None
        if end in HOOK_SET:
            seat_no = self.to_pub(mover)
            self.say(f"{NAMES[mover]}'s pirate ends on {SQUARES[end]} (The Hook) and takes pub seat {seat_no}.")
            if self.hook_reward(mover):
                return
        elif state["island"][end] is None:
            seat_no = self.to_pub(mover)
            self.say(f"{NAMES[mover]}'s pirate ends on {SQUARES[end]} (bare sand) and takes pub seat {seat_no}.")
        else:
            state["pirates"][end] = mover
        self.claim_check(mover)

    def hook_reward(self, mover: int) -> bool:
        """Give the Hook reward; True when the mover must choose (the turn pauses at ``sunrise/hook``)."""
        hook = self.state["hook"]
        if hook["jokers"] and hook["maps"]:
            self.state["step"] = "hook"
            self.state["pending"] = {"mover": mover}
            return True
        if hook["maps"]:
            self.take_map(mover)
        elif hook["jokers"]:
            self.take_joker(mover)
        return False

    def take_map(self, mover: int) -> None:
        tile = self.state["hook"]["maps"].pop(0)
        self.state["players"][mover]["maps"].append({"id": tile, "revealed": False})
        self.say(f"{NAMES[mover]} takes a map tile from The Hook.", {mover: f"The Hook map tile is {tile[4:]}."})

    def take_joker(self, mover: int) -> None:
        self.state["hook"]["jokers"] -= 1
        self.state["players"][mover]["jokers"] += 1
        self.say(f"{NAMES[mover]} takes a joker from The Hook.")

    def claim_check(self, mover: int) -> None:
        if claim_actions(self.state, mover):
            self.state["step"] = "claim"
            self.state["pending"] = {"mover": mover}
        else:
            self.end_turn()

    def refill(self) -> None:
        state = self.state
        for chest in CHESTS:
            tiles = state["chests"][chest]
            missing = CHEST_SIZE[chest] - len(tiles)
            if not missing:
                continue
            drawn = state["bag"][:missing]
            del state["bag"][:missing]
            tiles += drawn
            if drawn:
                self.say(f"{chest} refilled: {' '.join(drawn)}.")
            if len(tiles) < CHEST_SIZE[chest]:
                self.say(f"The bag is empty: {chest} holds {len(tiles)} of {CHEST_SIZE[chest]} tiles.")

    def end_turn(self) -> None:
        state = self.state
        state["pending"] = None
        self.refill()
        if None not in state["pub"]:
            self.end_sunrise()
            return
        me = state["turn_seat"]
        other = 1 - me
        state["step"] = "turn"
        if self.active(other):
            state["turn_seat"] = other
        else:
            self.say(f"{NAMES[other]} has no pirates left to play; {NAMES[me]} plays again.")

    def active(self, seat: int) -> bool:
        return self.state["players"][seat]["supply"] > 0 or seat in self.state["pirates"]

    def end_sunrise(self) -> None:
        state = self.state
        removed = state["removed"]
        for i, tile in enumerate(state["island"]):
            if tile is not None:
                removed.append(tile)
                state["island"][i] = None
        removed += state["hook"]["maps"] + ["joker"] * state["hook"]["jokers"]
        state["hook"] = {"maps": [], "jokers": 0}
        for chest in CHESTS:
            removed += state["chests"][chest]
            state["chests"][chest] = []
        state["phase"], state["step"], state["next_pub"] = "sunset", "dig", 0
        first = state["pub"][0]
        self.say(f"Sunrise is over. Sunset: pub seat 1 ({NAMES[first]}) places first.")

    # -- the actions ---------------------------------------------------------------------------------------
    def act(self, seat: int, text: str) -> None:
        state = self.state
        words = text.split()
        verb = words[0]
        claimed = (state.get("last") or {}).get("kind") == "claim"  # this claim step has a line already
        state["last"] = {"seat": seat, "action": text, "kind": verb}
        if verb == "place":
            sq = INDEX[words[1]]
            state["players"][seat]["supply"] -= 1
            state["pirates"][sq] = seat
            state["last_move"] = {"seat": seat, "kind": "place", "path": [words[1]], "passed": []}
            self.say(f"{NAMES[seat]} places a pirate on {words[1]}.")
            self.end_turn()
        elif verb == "move":
            start, end = INDEX[words[1]], INDEX[words[2]]
            via = tuple(INDEX[w] for w in words[4:])
            path = moves_from(state, seat, start)[(end, via)]
            state["last_move"] = {
                "seat": seat,
                "kind": "move",
                "path": [SQUARES[i] for i in path],
                "passed": [SQUARES[i] for i in via],
            }
            passing = ", ".join(SQUARES[v] for v in via)
            tail = f" passing {NAMES[1 - seat]} at {passing}" if via else ""
            self.say(f"{NAMES[seat]} moves {words[1]} → {words[2]}{tail}.")
            state["pending"] = {"mover": seat, "from": start, "to": end, "via": list(via), "owed": len(via), "done": 0}
            self.resolve_reveals()
        elif verb == "retire":
            self.retire(seat, words[1])
        elif verb == "reveal":
            p = state["pending"]
            self.reveal(seat, f"map:{words[1]}", p["via"][p["done"]])
            p["done"] += 1
            p["owed"] -= 1
            state["step"] = "turn"  # provisional: resolve_reveals sets the next step
            self.resolve_reveals()
        elif verb == "take":
            state["pending"] = None
            if words[1] == "joker":
                self.take_joker(seat)
            else:
                self.take_map(seat)
            self.claim_check(seat)
        elif verb == "claim":
            self.claim(seat, words[1], words[3:])
        elif verb == "done":
            if not claimed:
                # the whole claim step is this one decision: say it, or the channel never learns it was passed
                self.say(f"{NAMES[seat]} claims no chest.")
            self.end_turn()
        else:
            self.dig(seat, words[1])

    def retire(self, seat: int, where: str) -> None:
        state = self.state
        state["last_move"] = {
            "seat": seat,
            "kind": "retire",
            "path": [] if where == "supply" else [where],
            "passed": [],
        }
        head = f"{NAMES[seat]} has no legal place or move:"
        if where == "supply":
            state["players"][seat]["supply"] -= 1
            seat_no = self.to_pub(seat)
            self.say(f"{head} a pirate from the supply goes to pub seat {seat_no}.")
            self.end_turn()
            return
        sq = INDEX[where]
        state["pirates"][sq] = None
        seat_no = state["pub"].index(None) + 1
        self.collect(seat, sq, f"{head} the pirate on {where} takes", f" and goes to pub seat {seat_no}")
        self.to_pub(seat)
        self.claim_check(seat)

    def claim(self, seat: int, chest: str, jokered: list[str]) -> None:
        state = self.state
        player = state["players"][seat]
        tiles = state["chests"][chest]
        need: dict[str, int] = {}
        for tile in tiles:
            need[type_of(tile)] = need.get(type_of(tile), 0) + 1
        for t in jokered:
            need[t] -= 1
        player["jokers"] -= len(jokered)
        state["discarded"] += ["joker"] * len(jokered)
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
        state["discarded"] += paid
        stack = sorted(tiles, key=lambda x: (TYPE_POS[type_of(x)], value_of(x)))
        player["ship"].append(stack)
        state["chests"][chest] = []
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
        if claim_actions(state, seat):
            state["step"], state["pending"] = "claim", {"mover": seat}
        else:
            self.end_turn()

    def dig(self, seat: int, where: str) -> None:
        state = self.state
        sq = INDEX[where]
        pub_seat = state["next_pub"] + 1
        state["pirates"][sq] = seat
        state["dig_pub"][where] = pub_seat
        state["next_pub"] += 1
        state["last_move"] = {"seat": seat, "kind": "dig", "path": [where], "passed": []}
        self.say(f"Pub seat {pub_seat}: {NAMES[seat]} digs at {where}.")
        if state["next_pub"] == 8:
            self.finish_game()

    def finish_game(self) -> None:
        state = self.state
        letter, number = state["lost"][0][4:], state["lost"][1][4:]
        square = letter + number
        finder = state["pirates"][INDEX[square]]
        self.say(f"The Lost Treasure lies at {square}!")
        state["result"] = score(state, square, finder)
        state["phase"] = state["step"] = "over"
        r = state["result"]
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
    """A legal action (``Game.apply`` checked it) applied to a copy of ``state``."""
    turn = Turn(clone(state))
    turn.act(seat, text)
    # each line starts with the name of the seat whose move it tells, or speaks for the game
    return turn.state, credit(turn.events, {s: [NAMES[s]] for s in range(len(NAMES))})
