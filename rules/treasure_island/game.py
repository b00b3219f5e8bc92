"""The ``Game`` object: legal actions in their fixed order (§3.1), ``apply`` and the text forms (§3.13)."""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

from rules import core
from rules.core import Event, GameInfo, IllegalAction, Option, Outcome, State
from rules.treasure_island import ai
from rules.treasure_island import calendar as C
from rules.treasure_island import engine as E
from rules.treasure_island import geometry as G
from rules.treasure_island import hints as H
from rules.treasure_island import moves as M
from rules.treasure_island import views as V
from rules.treasure_island.engine import P
from rules.treasure_island.evaluate import HORIZON, win_chance
from rules.treasure_island.geometry import Pt
from rules.voice import credit

RULES = """**Treasure Island**: one seat is **Long John Silver** (LJS), every other seat plays pirates.
LJS buries the treasure in secret (not within 2 miles of a starting spot, not in a red zone, not on a dotted circle).
Each pirate miniature gets a secret **District Hint** (a district the treasure is not in).

**Calendar**: each day one miniature acts with 1 or 2 actions (stars). Events: *Starting Hint* and *Black Spot Hint*
(LJS plays a public hint with a face-down token: Truth must be true, Bluff may lie; the first hint is always true),
*The Black Spot* (his Starting Hints become Black Spot Hints), *Prison* (the active pirate picks LJS's tower),
*Bluff token* (LJS gains a Bluff), *Escape*.

**Actions**: `ride x,y` (straight, 6 miles), `walk x,y` (3 miles, then dig 1 mile around), `dig` then `step x,y`,
`search x,y` (2-mile circle that contains you), `gallop x,y` (once), `compass` (LJS shows a true compass card:
two eighths the treasure is not in), `verify <day>` (see one hint's token, once), specials: Anne `monkey x,y`,
Olivier `spyglass x,y` and two-segment rides, Jim 2.5-mile searches, Charlotte 2 extra District Hints, Ben `recall Lk`.
Moves never touch the coast or a red zone. A search covering the treasure wins at once.

**Chests**: after a failed search LJS may secretly give a chest token (an item or a true clue). Chest-icon hints need
a chest given first.

**Escape**: LJS leaves his tower and makes two 4-mile moves per round; pirates get 2 actions each. LJS wins by ending
a move on the treasure; a pirate wins by searching it first. Positions are `x,y` in miles, half-mile steps.
"""

#: what each hint card tells when Long John Silver plays it (docs/games/treasure_island.md §11); ⛁ a chest-icon card
HINT_EFFECTS: dict[str, str] = {
    "S1": "the treasure's altitude: the height band it lies in",
    "S2": "the treasure lies N, E, S or W of a pirate (a half-plane)",
    "S3": "the treasure is within or beyond 4, 8 or 12 miles of a pirate",
    "S4": "⛁ the treasure is within or beyond 1-4 miles of the sea",
    "S5": "the treasure is within or beyond 4, 8 or 12 miles of a landmark",
    "S6": "⛁ the kind of land the treasure lies in",
    "S7": "⛁ the treasure is within or beyond 5 or 10 miles of his tower",
    "S8": "the treasure lies above or below a contour line",
    "B1": "the quadrant around a pirate the treasure lies in",
    "B2": "the treasure is closer to one pirate than to another",
    "B3": "the treasure is closer to one landmark than to another",
    "B4": "a pirate within 4 miles of the treasure, or none",
    "B5": "the treasure lies in a district or one of its neighbours",
    "B6": "the direction of the treasure from a landmark",
    "B7": "the treasure is on the same or the other bank of the river as a pirate",
    "B8": "⛁ the treasure is in a pirate's district, or in none of theirs",
    "B9": "⛁ the treasure is in neither of two districts",
    "B10": "⛁ a landmark within 3 miles of the treasure, or none",
    "B11": "the treasure's distance band from a pirate",
    "B12": "the treasure is higher than, level with or lower than a pirate",
}
#: the expansion's trick cards (§21)
TRICK_EFFECTS: dict[str, str] = {
    "lie": "(1 point) play as a hint's token: the hint must be false",
    "fog": "(1 point) before a hint: three fog banks block moves for three days",
    "mutiny": "(1 point) Long John Silver chooses his own prison tower",
    "traitor": "(2 points) slip into a chest: its receiver wins with Long John Silver",
    "phantom": "(2 points) at the escape: three Silvers leave the tower, only he knows the real one",
}
_TI_OWED = {
    "bury": "bury the treasure",
    "hint": "give the day's hint",
    "compass": "show a Compass Hint",
    "chest": "answer the search: hand over a chest, or nothing found",
    "escape": "make Long John Silver's escape move",
}


def _hint_card(card: str) -> str:
    return f"{card} {H.CARDS[card].name}" if card in H.CARDS else card


INFO = GameInfo(
    id="treasure_island",
    title="Treasure Island",
    min_players=2,
    max_players=6,
    options=(
        Option("map", ("treasure", "revenge"), "treasure", "Which island: Treasure Island or Revenge Island."),
        Option("expansion", ("off", "on"), "off", "Captain Silver module: tricks, Ben Gunn, 6 players."),
        Option("tricks", ("0", "1", "2", "3"), "1", "Long John Silver's Trick Points (expansion only)."),
        Option("silver", ("random", "first"), "random", "Who plays Long John Silver: a random seat or seat 1."),
    ),
    blurb=(
        "Long John Silver sits locked in a tower, and he is the only man alive who knows where his treasure is buried. "
        "You are his old crew. Ride, dig and read the compass, and weigh every clue he gives you, because some of them "
        "are bluffs. Find the gold before Silver breaks out and walks to it himself."
    ),
    rules=RULES,
    seat_names=(),
    cards=(
        *((_hint_card(c), HINT_EFFECTS[c]) for c in HINT_EFFECTS),
        *((f"Trick: {t.capitalize()}", TRICK_EFFECTS[t]) for t in TRICK_EFFECTS),
    ),
)

_VERBS = {
    "bury", "hint", "redraw", "trick", "fog", "token", "say", "proceed", "tower", "ride", "halt", "walk", "dig",
    "step", "stay", "search", "gallop", "compass", "verify", "monkey", "spyglass", "recall", "use", "end",
    "nothing", "give", "show", "run", "real",
}  # fmt: skip
_NOARG = {"redraw", "proceed", "halt", "dig", "stay", "compass", "end", "nothing"}
_LIMITS = {"ride": 12, "walk": 6, "step": 6, "stride": 14, "run": 8}
_MOVE_WORD = {
    "ride": "Horse moves",
    "walk": "Foot moves",
    "step": "Foot moves",
    "stride": "A stride",
    "run": "Silver's runs",
}


def _pt_text(text: str) -> str:
    p = G.parse_point(text)
    if p is None:
        raise IllegalAction("bad_point", "Positions use half-mile steps inside the map, e.g. 12.5,7")
    return G.fmt(p)


def _say_case(v: str) -> str:
    if re.fullmatch(r"[nsew]{1,2}", v) or re.fullmatch(r"[ld]\d+", v):
        return v.upper()
    return v


def _point_of(action: str) -> Pt:
    p = G.parse_point(action.split(" ")[-1])
    assert p is not None
    return p


def _miles(a: Pt, b: Pt) -> str:
    return f"{math.sqrt(G.d2(a, b)) / 2:.1f}".rstrip("0").rstrip(".")


class TreasureIsland(core.Game):
    info = INFO
    version = 1
    search_horizon = HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- setup ------------------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        opts = self.resolve_options(options)
        self.check_players(players)
        if players == 6 and opts["expansion"] != "on":
            # the sixth seat needs Ben Gunn: a table of six that left the option at its default gets the
            # expansion; only an explicit `expansion: off` is refused
            if "expansion" in {str(k).lower() for k in (options or {})}:
                raise IllegalAction("bad_players", "Six players need the expansion (expansion: on) for Ben Gunn.")
            opts["expansion"] = "on"
        s = E.new_state(players, opts, str(seed))
        s["game"] = self.info.id
        s["version"] = self.version
        return s

    def to_act(self, state: State) -> list[int]:
        return E.to_act(state)

    def seat_count(self, state: State) -> int:
        return state["n"]

    def outcome(self, state: State) -> Outcome | None:
        o = state["outcome"]
        if o is None:
            return None
        winners = tuple(o["winners"])
        scores = tuple(1.0 if s in winners else 0.0 for s in range(state["n"]))
        if not winners:
            # the 30-round cap: the original names only two ways to win, so nobody is ranked (not rated)
            return Outcome(winners, o["reason"], scores)
        # Ratings: Long John Silver and his traitor are one side; every other pirate plays for himself (only the
        # finder wins, so the other pirates lost to him as much as Silver did). A traitor who finds the gold
        # himself wins alone, against Silver.
        silver, traitor = state["silver"], state["traitor"]
        side = (silver,) if traitor is None or traitor in winners and silver not in winners else (silver, traitor)
        teams = (side, *((p,) for p in range(state["n"]) if p not in side))
        places = tuple(1 if any(p in winners for p in team) else 2 for team in teams)
        return Outcome(winners, o["reason"], scores, teams=teams, places=places)

    # -- text -------------------------------------------------------------------------------------------
    def parse(self, text: str) -> str:
        t = core.normalize_text(text)
        if not t:
            raise IllegalAction("bad_text", "Type an action, e.g. `ride 12.5,7`, `search 12,9.5` or `end`.")
        verb, _, rest = t.partition(" ")
        if verb not in _VERBS:
            raise IllegalAction("bad_text", f"Unknown action '{verb}'. Pick one from the list of legal moves.")
        if verb in _NOARG:
            if rest:
                raise IllegalAction("bad_text", f"`{verb}` takes nothing after it.")
            return verb
        if not rest:
            raise IllegalAction("bad_text", f"`{verb}` needs something after it, e.g. from the list of legal moves.")
        if verb in E.POINT_VERBS:
            return f"{verb} {_pt_text(rest)}"
        if verb == "use":
            item, _, more = rest.partition(" ")
            if item == "stride":
                return f"use stride {_pt_text(more)}"
            if item in ("extra", "dig") and not more:
                return f"use {item}"
            raise IllegalAction("bad_text", "Use a chest item: `use stride x,y`, `use extra` or `use dig`.")
        if verb == "give":
            parts = rest.split()
            if parts[0] not in C.CHEST_TOKENS or len(parts) > 2 or (len(parts) == 2 and parts[1] != "traitor"):
                raise IllegalAction("bad_text", "Give a chest token: e.g. `give east` or `give dig traitor`.")
            return f"give {rest}"
        if verb in ("hint", "tower", "show", "recall", "real"):
            if " " in rest:  # one id only: "hint S1 extra" must not pass for "hint S1"
                raise IllegalAction("bad_text", f"`{verb}` takes one id, e.g. from the list of legal moves.")
            return f"{verb} {rest.upper()}"
        if verb == "say":
            return f"say {_say_case(rest)}"
        return f"{verb} {rest}"

    # -- legal actions ----------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in E.to_act(state):
            return []
        return M.legal(state)

    # -- apply ------------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        s = json.loads(json.dumps(state))  # the state is plain JSON, and this copies it faster than deepcopy
        ev: list[Event] = []
        _act(s, seat, action, ev)
        s["last"] = _last(state, s, seat, action)
        # each line's actor: Long John Silver's seat, or the seat of the pirate a line starts with
        names = {p: ["Long John Silver"] if p == s["silver"] else [E.mini_name(m) for m in E.player_minis(s, p)]
                 for p in range(s["n"])}  # fmt: skip
        return s, credit(ev, names)

    def refuse(self, state: State, seat: int, action: str) -> IllegalAction:
        """The rule a handler names when it meets ``action`` (tried on a copy: the state is not touched)."""
        try:
            _act(json.loads(json.dumps(state)), seat, self.parse(action), [])
        except IllegalAction as reason:
            if reason.code != "wrong_step":
                return reason
        return super().refuse(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return V.view(state, seat)

    # -- the table's voice ------------------------------------------------------------------------------
    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        if seat == view.get("silver_seat"):
            return "Long John Silver"
        players = view.get("players") or []
        minis = players[seat]["minis"] if seat < len(players) else []
        return " & ".join(H.NAMES.get(m, m) for m in minis)

    def owed(self, view: dict[str, Any], seat: int) -> str:
        step = view.get("step")
        if step == "prison":
            if seat == view.get("silver_seat"):
                return "play a trick or let the prison go ahead"
            return "choose the tower to lock Long John Silver in"
        if step in ("turn", "ride2", "step"):
            mini = view.get("active")
            left = view.get("left")
            name = H.NAMES.get(mini, "your pirate") if mini else "your pirate"
            more = f" ({left} action{'' if left == 1 else 's'} left)" if isinstance(left, int) and left > 0 else ""
            return f"play {name}'s day{more}"
        return _TI_OWED.get(str(step), "take your turn")

    def describe(self, view: dict[str, Any], action: str) -> str:
        words = action.split()
        if len(words) >= 2 and words[0] == "hint" and words[1].upper() in HINT_EFFECTS:
            card = words[1].upper()
            return f"{_hint_card(card)}: {HINT_EFFECTS[card]}"[:100]
        if len(words) >= 2 and words[0] == "trick" and words[1] in TRICK_EFFECTS:
            return f"{words[1].capitalize()}: {TRICK_EFFECTS[words[1]]}"[:100]
        if len(words) >= 2 and words[0] == "show" and words[1].upper() in H.COMPASS:
            a, b = H.COMPASS[words[1].upper()]
            return f"Compass {words[1].upper()}: the treasure is in neither the {a} nor the {b} eighth"
        return ""

    # -- host helpers -----------------------------------------------------------------------------------
    def undoable(self, before: State, seat: int, action: str) -> bool:
        verb = action.split(" ")[0]
        if verb not in ("ride", "halt", "gallop") or before["state"] not in ("turn", "ride2"):
            return False
        try:
            after, _ = self.apply(before, seat, action)
        except IllegalAction:
            return False
        return (
            after["day"] == before["day"]
            and after["state"] in ("turn", "ride2")
            and after["escape"] == before["escape"]
        )

    def timeout_action(self, state: State, seat: int) -> str:
        st = state["state"]
        if st == "turn":
            return "end"
        if st == "ride2":
            return "halt"
        if st == "step":
            return "stay"
        if st == "prison" and seat != state["silver"]:
            return f"tower {state['tower']}"
        # every Long John Silver decision: the easy AI, with secret randomness (a fixed default would leak)
        legal = self.legal_actions(state, seat)
        rnd = random.Random(f"{state['seed']}|timeout|{state['rng_n']}|{len(state['calendar'])}|{state['day']}")
        return ai.easy(self.view(state, seat), seat, legal, rnd)

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        from rules.treasure_island.sample import sample

        return sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return win_chance(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        """What only this seat knows, in a few lines for DMs and ``/hand`` (from its own view)."""
        priv = view.get("private")
        if not priv:
            return ""
        if seat == view["silver_seat"]:
            return _silver_summary(view, priv)
        return _pirate_summary(view, priv)

    def secrets(self, state: State) -> list[str]:
        """What only Silver (or nobody) may know, in the forms a leak would take (spec §4.1; all public at the end).

        The seed (as typed, and as a number when it is hex) and the RNG counter's key; T as a leaked ``treasure``
        key; Silver's cards and the deck, discard and Compass cards as quoted ids (bare ids like ``B4`` occur inside
        base64 masks); deck and chest-token orders; his tokens left, the traitor and the real Silver as his own view
        spells them. District Hints, tokens under hints and T as a line's ``(x,y)`` have spellings that also occur
        for public reasons: tests/secrets checks those (its scramble, and T's ``(x,y)`` unless a mover stood there)."""
        s = state
        seed = s["seed"]
        out = ['"rng_n":']
        if len(seed) >= 6:
            out.append(seed)
            if all(ch in "0123456789abcdef" for ch in seed.lower()):
                out.append(str(int(seed, 16)))
        if s["state"] == "over":
            return out
        if s["treasure"] is not None:
            out.append(json.dumps({"treasure": V.miles(s["treasure"])})[1:-1])
        cards = s["hand"] + s["compass_hand"] + s["starting_deck"] + s["black_deck"] + s["compass_deck"] + s["discards"]
        out += [json.dumps(c) for c in cards + [c["card"] for c in s["compass_given"]]]
        for pile in (s["starting_deck"], s["black_deck"], s["compass_deck"], s["district_pile"], s["chest_tokens"]):
            if len(pile) >= 2:
                out.append(json.dumps(pile))
        out.append(json.dumps({"tokens": s["tokens"]})[1:-1])
        if s["traitor"] is not None:
            out.append(json.dumps({"traitor": s["traitor"]})[1:-1])
        if s["real"] is not None:
            out.append(json.dumps({"real_figure": s["real"]})[1:-1])
        return out

    def label(self, view: dict[str, Any], action: str) -> str:
        verb = action.split(" ")[0]
        if verb in ("ride", "walk", "step", "search", "run") or action.startswith("use stride"):
            src = _acting_pos(view)
            if src is not None:
                p = _point_of(action)
                return f"{action} ({_miles(src, p)} mi {_direction(src, p)})"
        if verb == "verify":
            return f"{action} (token of June {action.split()[1]})"
        return action

    def group(self, view: dict[str, Any], action: str) -> str:
        verb = action.split(" ")[0]
        if verb == "use":
            return "use " + action.split(" ")[1]
        if verb in E.POINT_VERBS:
            # One menu per verb; a phone user then picks a direction and a distance band, then the point (the
            # issue: nobody has to type coordinates). Long-range verbs get wider bands so a menu keeps to about
            # 25 entries. A point with no mover to measure from (burying, fog) goes by a band of columns.
            p = _point_of(action)
            src = _acting_pos(view)
            if src is None or src == p:
                lo = (p[0] // 2) // 6 * 6
                return f"{verb} › x {lo}–{lo + 5}"
            width = 6 if verb in LONG_RANGE_VERBS else 2
            band = int(math.sqrt(G.d2(src, p)) / 2 // width) * width
            return f"{verb} › {_direction(src, p)} {band}–{band + width} mi"
        return verb


#: verbs whose destination may lie anywhere on the island
LONG_RANGE_VERBS = ("gallop", "spyglass", "monkey")


def _pos_text(p: list[float]) -> str:
    return G.fmt((int(round(p[0] * 2)), int(round(p[1] * 2))))


def _silver_summary(view: dict[str, Any], priv: dict[str, Any]) -> str:
    lines = []
    if priv.get("treasure"):
        lines.append(f"Your treasure: ({_pos_text(priv['treasure'])}).")
    if priv["hand"]:
        # each hint card with what it tells, so Silver can read his hand without the rules
        lines.append("Hint hand:")
        lines.extend(f"• {_hint_card(c)}: {HINT_EFFECTS.get(c, '')}" for c in priv["hand"])
    if priv["compass_hand"]:
        lines.append(
            "Compass hand: " + ", ".join(f"{c} ({'/'.join(H.COMPASS[c])})" for c in priv["compass_hand"]) + "."
        )
    tk = priv["tokens"]
    lines.append(f"Tokens: {tk.get('truth', 0)} Truth, {tk.get('bluff', 0)} Bluff.")
    if priv["chest_tokens"]:
        lines.append("Chest tokens: " + ", ".join(priv["chest_tokens"]) + ".")
    tricks = priv["tricks"]
    if tricks["hand"]:
        lines.append(f"Tricks ({tricks['points_left']} points left):")
        lines.extend(f"• {t.capitalize()} {TRICK_EFFECTS.get(t, '')}" for t in tricks["hand"])
    played = priv.get("hint_tokens") or {}
    if played:
        lines.append("Your tokens so far: " + ", ".join(f"June {d} {t.upper()}" for d, t in played.items()) + ".")
    if priv["districts"].get("scrolls"):
        lines.append("Charlotte's Ancient Scrolls: " + ", ".join(priv["districts"]["scrolls"]) + ".")
    return "\n".join(lines)


def _pirate_summary(view: dict[str, Any], priv: dict[str, Any]) -> str:
    names = priv.get("district_names", {})
    lines = []
    for m, ds in priv["districts"].items():
        if ds:
            listed = ", ".join(f"{d} {names.get(d, '')}".strip() for d in ds)
            lines.append(f"{H.NAMES[m]}: the treasure is not in {listed}.")
    for c in priv["compass"]:
        lines.append(f"Compass at ({_pos_text(c['pos'])}): not in the {c['skulls'][0]} or {c['skulls'][1]} eighth.")
    for it in priv["info_tokens"]:
        where = f"({_pos_text(it['pos'])})"
        if it["token"] == "notdistrict":
            lines.append(f"Chest: the treasure is not in the district of {where}.")
        else:
            lines.append(f"Chest: the treasure lies {it['token']} of {where}.")
    if priv["items"]:
        lines.append("Items: " + ", ".join(C.CHEST_NAMES[i] for i in priv["items"]) + ".")
    for v in priv["verified"]:
        lines.append(f"The token of June {v['target_day']} is {v['token'].upper()}.")
    for mem in priv["memory"]:
        lines.append(
            f"Memory: the treasure is {'within' if mem['within_5'] else 'more than'} 5 miles of {mem['landmark']}."
        )
    if priv["traitor"]:
        lines.append("You are Long John Silver's traitor: you win if he wins, or alone if you find the gold.")
    return "\n".join(lines)


def _direction(a: Pt, b: Pt) -> str:
    return G.sector(a, b) or "here"


def _acting_pos(view: dict[str, Any]) -> Pt | None:
    if view.get("step") == "escape":
        figs = view["silver"].get("figures") or []
        e = view["silver"].get("fig") or 0
        return _hu(figs[e]["pos"]) if figs and e < len(figs) else None
    m = view.get("active")
    if m and m in view["miniatures"]:
        return _hu(view["miniatures"][m]["pos"])
    return None


def _hu(p: list[float]) -> Pt:
    return int(round(p[0] * 2)), int(round(p[1] * 2))


# -- apply -----------------------------------------------------------------------------------------------------
def _wrong(s: State, action: str) -> IllegalAction:
    """A verb this step does not take: ``refuse`` answers it in the shared wording."""
    return IllegalAction("wrong_step", f"`{action}` is not possible now.")


def _check_move(s: State, a: Pt, b: Pt, kind: str, ben: bool, fog: tuple[Pt, ...]) -> None:
    g = E.geo_of(s)
    err = g.move_error(a, b, _LIMITS[kind], ben, fog)
    if err == "bad_destination":
        why = "your own position" if a == b else "not a legal location (sea or red zone)"
        raise IllegalAction("bad_destination", f"({G.fmt(b)}) is {why}; pick a land node outside the red zones.")
    if err == "too_far":
        raise IllegalAction(
            "too_far", f"{_MOVE_WORD[kind]} reach {_LIMITS[kind] // 2} miles; ({G.fmt(b)}) is {_miles(a, b)} away."
        )
    if err == "blocked":
        raise IllegalAction(
            "blocked", f"The line from ({G.fmt(a)}) to ({G.fmt(b)}) touches {g.blocker(a, b, ben, fog)}; go around it."
        )


def _move(s: State, m: str, b: Pt, kind: str, ev: list[Event], verb: str) -> None:
    mi = s["minis"][m]
    a = P(mi["pos"])
    mi["pos"] = list(b)
    mi["trail"].append([list(a), list(b), kind, s["day"]])
    ev.append(Event(f"{E.mini_name(m)} {verb} ({G.fmt(a)}) → ({G.fmt(b)})."))


def _need_left(s: State) -> None:
    if s["turn"]["left"] < 1:
        raise IllegalAction("no_actions_left", "No actions left this turn: use a chest item or `end`.")


def _act(s: State, seat: int, action: str, ev: list[Event]) -> None:
    st = s["state"]
    verb = action.split(" ")[0]
    handler = _HANDLERS.get(st)
    assert handler is not None
    handler(s, seat, action, verb, ev)
    # the states whose lists could in principle run dry; every other state always offers a fixed action
    assert s["state"] not in ("hint_card", "hint_token", "hint_param", "compass") or M.legal(s), s["state"]


def _h_bury(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "bury":
        raise _wrong(s, action)
    p = _point_of(action)
    if not G.eligible_mask(s["options"]["map"], E.used_spots(s)) >> G.node(*p) & 1:
        raise IllegalAction(
            "not_eligible",
            f"({G.fmt(p)}) cannot hold the treasure: it must be on land, outside red zones, more than 2 miles from "
            "every starting spot in use and not on a dotted circle.",
        )
    s["treasure"] = list(p)
    g = E.geo_of(s)
    d = g.district[G.node(*p)]
    ev.append(
        Event(
            "Long John Silver has buried the treasure.",
            actor=seat,
        )
    )
    ev.append(Event(None, {seat: f"Treasure buried at ({G.fmt(p)}) in D{d} {g.district_names[d]}."}, seat))
    E.deal_districts(s, ev)
    E.start_day(s, ev)


def _h_hint_card(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    pend = s["pending"]
    if action == "redraw":
        if not E.redraw_allowed(s):
            raise IllegalAction("illegal", "Redraw needs exactly three chest-icon hints in hand and cards in the deck.")
        deck = E.current_deck(s)
        s["discards"] += s["hand"]
        n = min(3, len(s[deck]))
        s["hand"], s[deck] = s[deck][:n], s[deck][n:]
        drew = "; ".join(f"{_hint_card(c)}: {HINT_EFFECTS.get(c, '')}" for c in s["hand"])
        ev.append(
            Event(f"Long John Silver discards three chest-icon hints and draws {n}.", {seat: f"You draw {drew}."})
        )
        if not E.playable_cards(s) and not E.redraw_allowed(s):
            s["pending"] = None
            ev.append(Event("Long John Silver has no hint he can play today."))
            E.begin_turn(s, ev)
        return
    if action == "trick fog":
        if not E.trick_playable(s, "fog") or pend["fog_left"] != 0:
            raise IllegalAction("trick_unavailable", "Fog cannot be played now (date passed, no points or used).")
        _spend_trick(s, "fog", public=True)
        pend["fog_left"] = 3
        s["state"] = "fog"
        ev.append(Event("Long John Silver plays the Fog trick: three fog banks roll in."))
        return
    if verb != "hint":
        raise _wrong(s, action)
    card = action.split(" ")[1]
    if card not in s["hand"]:
        raise IllegalAction("not_held", f"{card} is not in your hand; you hold {', '.join(H.sort_ids(s['hand']))}.")
    if card not in E.playable_cards(s):
        raise IllegalAction("no_credit", f"{card} has a chest icon: give a chest token first (credit {E.credit(s)}).")
    pend["card"] = card
    if not s["hints"]:
        pend["token"] = "truth"
        s["state"] = "hint_param"
    else:
        s["state"] = "hint_token"
    ev.append(Event(None, {seat: f"You chose {card} {H.CARDS[card].name}."}, seat))


def _spend_trick(s: State, card: str, public: bool) -> None:
    t = s["tricks"]
    t["hand"].remove(card)
    value = C.TRICKS[card][0]
    t["points"] -= value
    t["played"].append({"card": card, "day": s["day"], "value": value})
    if public:
        s["tricks_public"].append({"card": card, "day": s["day"], "value": value})


def _h_fog(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "fog":
        raise _wrong(s, action)
    p = _point_of(action)
    g = E.geo_of(s)
    if not g.legal[G.node(*p)] or any(G.d2(p, P(m["pos"])) <= E.FOG_R2 for m in s["minis"].values()):
        raise IllegalAction(
            "bad_destination", "A fog centre must be a legal location more than 1.5 miles from every pirate."
        )
    s["fog"].append({"centre": list(p), "laid": s["day"], "expires": s["day"] + 2})
    s["pending"]["fog_left"] -= 1
    ev.append(Event(f"Fog settles around ({G.fmt(p)}) until {E.month(s['day'] + 2)}."))
    if s["pending"]["fog_left"] == 0:
        s["pending"]["fog_left"] = -1  # spent: the option does not come back this hint
        s["state"] = "hint_card"


def _h_hint_token(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "token":
        raise _wrong(s, action)
    if action not in M.token_options(s):
        tok = action.split(" ")[1]
        if tok == "lie":
            raise IllegalAction("trick_unavailable", "The Lie cannot be played now: " + ", ".join(M.token_options(s)))
        raise IllegalAction("not_held", f"You cannot use a {tok} token now; allowed: {', '.join(M.token_options(s))}.")
    tok = action.split(" ")[1]
    s["pending"]["token"] = tok
    if tok == "lie":
        _spend_trick(s, "lie", public=False)
    s["state"] = "hint_param"
    ev.append(Event(None, {seat: f"Token: {tok.upper()}."}, seat))


def _h_hint_param(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "say":
        raise _wrong(s, action)
    v = action.split(" ", 1)[1]
    pend = s["pending"]
    legal = M.param_values(s)
    if v not in legal:
        ctx = E.hint_ctx(s)
        kind = H.CARDS[pend["card"]].params[len(pend["params"])]
        if v in H.values(kind, ctx, tuple(pend["params"])):
            code = "must_be_false" if pend["token"] == "lie" else "must_be_true"
            raise IllegalAction(code, f"With that token `{v}` is not allowed; allowed: {', '.join(legal)}.")
        raise IllegalAction("bad_target", f"`{v}` is not a value for this hint; allowed: {', '.join(legal)}.")
    pend["params"].append(v)
    if len(pend["params"]) < len(H.CARDS[pend["card"]].params):
        ev.append(Event(None, {seat: f"Parameter: {v}."}, seat))
        return
    _resolve_hint(s, seat, ev)


def _resolve_hint(s: State, seat: int, ev: list[Event]) -> None:
    pend = s["pending"]
    card = H.CARDS[pend["card"]]
    vals = tuple(pend["params"])
    ctx = E.hint_ctx(s)
    day = s["day"]
    first = not s["hints"]
    text = H.text(card.id, vals, ctx)
    s["hints"].append(
        {
            "day": day,
            "deck": card.deck,
            "card": card.id,
            "name": card.name,
            "chest_icon": card.chest,
            "params": list(vals),
            "frozen": H.frozen(card.id, vals, ctx),
            "text": text,
            "token": "truth" if first else "hidden",
            "true_mask": G.mask_b64(H.region(card.id, vals, ctx)),
        }
    )
    s["hint_tokens"].append(pend["token"])
    s["tokens"][pend["token"]] = s["tokens"].get(pend["token"], 0) - (0 if pend["token"] == "lie" else 1)
    cal = s["calendar"][-1]
    cal["hint"] = len(s["hints"]) - 1
    cal["token"] = "truth" if first else "hidden"
    s["hand"].remove(card.id)
    if card.chest:
        s["chest_hints_played"] += 1
    deck = "starting_deck" if card.deck == "starting" else "black_deck"
    drawn = None
    if s[deck]:
        drawn = s[deck].pop(0)
        s["hand"].append(drawn)
    kind = "Starting Hint" if card.deck == "starting" else "Black Spot Hint"
    tail = (
        "A TRUTH token lies beside it (the first hint is always true)."
        if first
        else "A face-down token lies beside it."
    )
    ev.append(
        Event(
            f"{E.month(day)}, {kind} {card.id} {card.name}: {text} {tail}",
            actor=core.GAME_ACTOR,  # the hint speaks for itself; Silver's own note below is old news to him
        )
    )
    ev.append(Event(None, {seat: f"You played {card.id} with a {pend['token'].upper()} token."}, seat))
    if drawn is not None:
        # a card from the deck is news to Silver, although his own hint set it off
        ev.append(Event(None, {seat: f"You draw {_hint_card(drawn)}: {HINT_EFFECTS.get(drawn, '')}."}, core.GAME_ACTOR))
    s["pending"] = None
    E.begin_turn(s, ev)


def _h_prison_trick(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if action == "proceed":
        s["prison_by"] = s["owner"][s["turn"]["mini"]]
        s["state"] = "prison"
        ev.append(Event(f"Prison: {E.mini_name(s['turn']['mini'])} chooses Long John Silver's tower."))
        return
    if action == "trick mutiny":
        if not E.trick_playable(s, "mutiny"):
            raise IllegalAction("trick_unavailable", "Mutiny cannot be played now (date passed or not enough points).")
        _spend_trick(s, "mutiny", public=True)
        s["prison_by"] = s["silver"]
        s["state"] = "prison"
        ev.append(Event("Long John Silver plays Mutiny: he chooses his own tower."))
        return
    raise _wrong(s, action)


def _h_prison(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "tower":
        raise _wrong(s, action)
    tid = action.split(" ")[1]
    g = E.geo_of(s)
    if tid not in g.towers:
        raise IllegalAction("bad_target", f"No tower {tid}; towers: {', '.join(g.tower_ids)}.")
    s["tower"] = tid
    who = E.mini_name(s["turn"]["mini"]) if seat != s["silver"] else E.SILVER
    ev.append(Event(f"{who} locks Long John Silver in {tid} {E._tower_name(s, tid)}."))
    s["prison_by"] = None
    E.begin_turn(s, ev)


def _h_turn(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = s["turn"]["mini"]
    mi = s["minis"][m]
    here = P(mi["pos"])
    fog = E.fog_discs(s)
    g = E.geo_of(s)
    ben = m == "ben"
    items = s["items"][seat]
    if verb == "end":
        ev.append(Event(f"{E.mini_name(m)} ends the turn."))
        E.end_turn(s, ev)
        return
    if verb == "use":
        item = action.split(" ")[1]
        if item not in items:
            raise IllegalAction("not_held", f"You hold no {item} item; items: {', '.join(items) or 'none'}.")
        if item == "stride":
            b = _point_of(action)
            _check_move(s, here, b, "stride", ben, fog)
            items.remove(item)
            mi["items_used"].append(item)
            ev.append(Event(f"{E.mini_name(m)} opens a chest: Seven-League Stride."))
            _move(s, m, b, "stride", ev, "strides")
            E.back_to_turn(s, ev)
        elif item == "extra":
            items.remove(item)
            mi["items_used"].append(item)
            s["turn"]["left"] += 1
            ev.append(Event(f"{E.mini_name(m)} opens a chest: Second Wind (+1 action)."))
        else:
            items.remove(item)
            mi["items_used"].append(item)
            ev.append(Event(f"{E.mini_name(m)} opens a chest: Shovel."))
            E.search(s, ev, m, "use dig", here, 2, here, "turn")
        return
    if verb in ("ride", "walk", "dig", "search", "gallop", "compass", "verify", "monkey", "spyglass", "recall"):
        _need_left(s)
    else:
        raise _wrong(s, action)
    if verb == "ride":
        b = _point_of(action)
        _check_move(s, here, b, "ride", ben, fog)
        s["turn"]["left"] -= 1
        _move(s, m, b, "ride", ev, "rides")
        if m == "olivier":
            s["ride_from"] = list(b)
            s["state"] = "ride2"
        else:
            E.back_to_turn(s, ev)
    elif verb == "walk":
        b = _point_of(action)
        _check_move(s, here, b, "walk", ben, fog)
        s["turn"]["left"] -= 1
        _move(s, m, b, "walk", ev, "walks")
        E.search(s, ev, m, "walk", b, 2, b, "turn")
    elif verb == "dig":
        s["turn"]["left"] -= 1
        E.search(s, ev, m, "dig", here, 2, here, "step")
    elif verb == "search":
        c = _point_of(action)
        r = E.search_radius(m)
        if G.d2(c, here) > r * r:
            raise IllegalAction(
                "too_far", f"A large search must contain you: its centre may be at most {G.fmt_mile(r)} miles away."
            )
        s["turn"]["left"] -= 1
        E.search(s, ev, m, "search", c, r, here, "turn")
    elif verb == "gallop":
        if not mi["gallop"]:
            raise IllegalAction("no_uses_left", "Full Gallop is used once per game and is spent.")
        b = _point_of(action)
        if b == here or not g.legal[G.node(*b)] or any(G.d2(b, c) <= E.FOG_R2 for c in fog):
            raise IllegalAction("bad_destination", f"({G.fmt(b)}): gallop to any other legal location outside fog.")
        mi["gallop"] = 0
        s["turn"]["left"] -= 1
        mi["pos"] = list(b)
        mi["trail"].append([list(here), list(b), "gallop", s["day"]])
        ev.append(Event(f"{E.mini_name(m)} gallops to ({G.fmt(b)})."))
        E.back_to_turn(s, ev)
    elif verb == "compass":
        if not mi["compass"]:
            raise IllegalAction("no_uses_left", "This miniature has no Compass use left.")
        mi["compass"] -= 1
        s["turn"]["left"] -= 1
        s["compass_mini"] = m
        s["compass_uses"].append({"day": s["day"], "by": m, "pos": list(here)})
        s["state"] = "compass"
        ev.append(Event(f"{E.mini_name(m)} lays the compass at ({G.fmt(here)})."))
    elif verb == "verify":
        if not mi["verify"]:
            raise IllegalAction("no_uses_left", "Verification is used once per game and is spent.")
        try:
            day = int(action.split(" ")[1])
        except ValueError:
            raise IllegalAction("bad_text", "Verify a day number, e.g. `verify 9`.") from None
        targets = M.verify_targets(s, seat)
        if day not in targets:
            raise IllegalAction("bad_target", f"No checkable token on June {day}; you may check: {targets or 'none'}.")
        idx = next(i for i, h in enumerate(s["hints"]) if h["day"] == day)
        tok = s["hint_tokens"][idx]
        mi["verify"] = 0
        s["turn"]["left"] -= 1
        s["verified"][seat].append({"target_day": day, "token": tok, "by": m})
        s["verifications"].append({"day": s["day"], "by": m, "target_day": day})
        ev.append(
            Event(
                f"{E.mini_name(m)} checks the token of June {day}.",
                {seat: f"The token of June {day} is a {tok.upper()} token."},
            )
        )
        E.back_to_turn(s, ev)
    elif verb in ("monkey", "spyglass"):
        if (verb == "monkey") != (m == "anne") or (verb == "spyglass") != (m == "olivier"):
            raise IllegalAction(
                "no_uses_left", f"Only {'Anne Bonny' if verb == 'monkey' else 'Olivier Levasseur'} has that."
            )
        if not mi["special"]:
            raise IllegalAction("no_uses_left", "That special is used once per game and is spent.")
        c = _point_of(action)
        if not g.legal[G.node(*c)]:
            raise IllegalAction(
                "bad_destination", f"({G.fmt(c)}) is not a legal location; aim at land outside red zones."
            )
        mi["special"] = 0
        s["turn"]["left"] -= 1
        r = 2 if verb == "monkey" else 4
        E.search(s, ev, m, verb, c, r, c, "turn")
    elif verb == "recall":
        if m != "ben" or not mi["special"]:
            raise IllegalAction("no_uses_left", "Hermit's Memory is Ben Gunn's, once per game.")
        lid = action.split(" ")[1]
        if lid not in g.landmarks:
            raise IllegalAction("bad_target", f"No landmark {lid}; landmarks: {', '.join(g.landmark_ids)}.")
        within = G.d2(P(s["treasure"]), g.landmarks[lid]) <= 100
        mi["special"] = 0
        s["turn"]["left"] -= 1
        s["memory"][seat].append({"landmark": lid, "within_5": within, "day": s["day"]})
        ans = "within" if within else "more than"
        ev.append(
            Event(
                f"Ben Gunn searches his memory about {lid}.",
                {seat: f"Hermit's Memory: the treasure is {ans} 5 miles of {lid}."},
            )
        )
        E.back_to_turn(s, ev)


def _h_ride2(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = s["turn"]["mini"]
    if action == "halt":
        s["ride_from"] = None
        ev.append(Event(f"{E.mini_name(m)} reins in."))
        E.back_to_turn(s, ev)
        return
    if verb != "ride":
        raise _wrong(s, action)
    b = _point_of(action)
    _check_move(s, P(s["minis"][m]["pos"]), b, "ride", False, E.fog_discs(s))
    _move(s, m, b, "ride", ev, "rides on")
    s["ride_from"] = None
    E.back_to_turn(s, ev)


def _h_step(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = s["turn"]["mini"]
    if action == "stay":
        ev.append(Event(f"{E.mini_name(m)} stays put."))
        E.back_to_turn(s, ev)
        return
    if verb != "step":
        raise _wrong(s, action)
    b = _point_of(action)
    _check_move(s, P(s["minis"][m]["pos"]), b, "step", m == "ben", E.fog_discs(s))
    _move(s, m, b, "step", ev, "steps")
    E.back_to_turn(s, ev)


def _h_chest(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    ctx = s["chest_ctx"]
    m = ctx["mini"]
    if action == "nothing":
        ev.append(Event("Long John Silver: nothing found."))
    elif verb == "give":
        parts = action.split(" ")
        tok = parts[1]
        traitor = len(parts) == 3
        if tok not in s["chest_tokens"]:
            raise IllegalAction("not_held", f"You no longer hold {tok}; you hold {', '.join(s['chest_tokens'])}.")
        p = P(ctx["pos"])
        if not E.info_true(s, tok, p):
            raise IllegalAction("must_be_true", f"`{tok}` would be false from ({G.fmt(p)}); give another or `nothing`.")
        if traitor and (not E.trick_playable(s, "traitor") or s["traitor"] is not None):
            raise IllegalAction("trick_unavailable", "The Traitor cannot be played now.")
        receiver = s["owner"][m]
        s["chest_tokens"].remove(tok)
        s["given"].append({"day": s["day"], "mini": m, "token": tok, "traitor": traitor})
        s["received"][receiver] = True
        s["minis"][m]["chests"] += 1
        if tok in C.ITEMS:
            s["items"][receiver].append(tok)
            line = f"Chest for {E.mini_name(m)}: {C.CHEST_NAMES[tok]}."
        else:
            s["info_tokens"][receiver].append({"day": s["day"], "mini": m, "pos": list(p), "token": tok})
            if tok == "notdistrict":
                d = E.geo_of(s).district[G.node(*p)]
                line = f"Chest: the treasure is not in D{d}, the district of ({G.fmt(p)}) where {E.mini_name(m)} stood."
            else:
                side = "west" if tok == "west" else "east"
                line = f"Chest: the treasure lies {side} of ({G.fmt(p)}), where {E.mini_name(m)} stood."
        if traitor:
            _spend_trick(s, "traitor", public=False)
            s["traitor"] = receiver
            line += " A TRAITOR token lies inside: you now win if Long John Silver wins (or alone if you find it)."
        ev.append(Event(f"Long John Silver hands {E.mini_name(m)} a chest.", {receiver: line}))
    else:
        raise _wrong(s, action)
    s["chest_ctx"] = None
    E.after_chest(s, ev, ctx["then"])


def _h_compass(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "show":
        raise _wrong(s, action)
    card = action.split(" ")[1]
    if card not in s["compass_hand"]:
        raise IllegalAction(
            "not_held", f"{card} is not in your Compass hand: {', '.join(H.sort_ids(s['compass_hand']))}."
        )
    if action not in M.compass_cards(s):
        raise IllegalAction(
            "must_be_true", f"{card} would be false here; show one of: {', '.join(M.compass_cards(s))}."
        )
    m = s["compass_mini"]
    p = P(s["minis"][m]["pos"])
    s["compass_hand"].remove(card)
    skulls = list(H.COMPASS[card])
    s["compass_given"].append({"day": s["day"], "mini": m, "pos": list(p), "card": card, "skulls": skulls})
    owner = s["owner"][m]
    ev.append(
        Event(
            "Long John Silver shows a Compass Hint.",
            {
                owner: f"Compass at ({G.fmt(p)}): the treasure is in neither the {skulls[0]} nor the {skulls[1]} eighth (card {card})."
            },
        )
    )
    s["compass_mini"] = None
    E.back_to_turn(s, ev)


def _h_escape(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    e = s["escape"]
    fig = s["figures"][e["fig"]]
    if action == "trick phantom":
        if not (e["first"] and e["round"] == 1 and E.trick_playable(s, "phantom")):
            raise IllegalAction("trick_unavailable", "Phantom can only be played at the very first step of the escape.")
        _spend_trick(s, "phantom", public=True)
        pos = fig["pos"]
        s["figures"] = [{"id": x, "pos": list(pos), "trail": []} for x in ("A", "B", "C")]
        s["state"] = "phantom"
        ev.append(Event("Long John Silver plays Phantom: three Silvers, A, B and C, leave the tower."))
        return
    if action == "stay":
        ev.append(Event(f"Long John Silver ({fig['id']}) waits."))
        E.next_figure(s, ev)
        return
    if verb != "run":
        raise _wrong(s, action)
    a, b = P(fig["pos"]), _point_of(action)
    _check_move(s, a, b, "run", False, ())
    fig["pos"] = list(b)
    fig["trail"].append([list(a), list(b), "run", e["round"]])
    name = "Long John Silver" if fig["id"] == "L" else f"Silver {fig['id']}"
    ev.append(Event(f"{name} runs ({G.fmt(a)}) → ({G.fmt(b)})."))
    e["first"] = False
    if fig["id"] == s["real"] and b == P(s["treasure"]):
        winners = [s["silver"]] + ([s["traitor"]] if s["traitor"] is not None else [])
        E.finish(s, ev, winners, "escaped", "Long John Silver digs up his treasure and wins!")
        return
    e["moves"] += 1
    if e["moves"] >= 2:
        E.next_figure(s, ev)


def _h_phantom(s: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "real" or action.split(" ")[1] not in ("A", "B", "C"):
        raise _wrong(s, action)
    s["real"] = action.split(" ")[1]
    s["state"] = "escape"
    s["escape"]["first"] = False
    ev.append(Event(None, {seat: f"Silver {s['real']} is the real one."}, seat))


_HANDLERS = {
    "bury": _h_bury,
    "hint_card": _h_hint_card,
    "fog": _h_fog,
    "hint_token": _h_hint_token,
    "hint_param": _h_hint_param,
    "prison_trick": _h_prison_trick,
    "prison": _h_prison,
    "turn": _h_turn,
    "ride2": _h_ride2,
    "step": _h_step,
    "chest": _h_chest,
    "compass": _h_compass,
    "escape": _h_escape,
    "phantom": _h_phantom,
}

_SECRET_VERBS = ("bury", "hint", "token", "say", "give", "show", "real", "trick", "redraw", "fog", "nothing")


def _last(before: State, after: State, seat: int, action: str) -> dict[str, Any]:
    """What the public may highlight: pirate moves and searches; Silver's private steps stay a bare 'silver'."""
    verb = action.split(" ")[0]
    if seat == before["silver"] and verb in _SECRET_VERBS:
        return {"seat": seat, "kind": "silver"}
    out: dict[str, Any] = {"seat": seat, "kind": verb}
    if before["state"] in ("turn", "ride2", "step"):
        out["mini"] = before["turn"]["mini"]
    if verb in E.POINT_VERBS or verb == "use":
        p = G.parse_point(action.split(" ")[-1])
        if p is not None:
            out["to"] = G.fmt(p)
    return out
