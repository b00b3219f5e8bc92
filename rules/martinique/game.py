"""The Martinique engine object: the ``rules.core.Game`` contract over the functions of ``engine.py``."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.core import Action, Event, Game, GameInfo, IllegalAction, Option, Outcome, State
from rules.martinique import actions, ai, engine
from rules.martinique.board import BEACH_SET, INDEX, walks
from rules.martinique.engine import NAMES
from rules.martinique.evaluate import HORIZON, win_chance
from rules.martinique.tiles import value_of
from rules.martinique.view import build_view, knowledge
from rules.voice import credit

BLURB = (
    "Two crews comb an 8×8 island. Every time a pirate walks off a tile, its owner pockets the tile: souvenirs for "
    "pairs and chest loads, or map scraps that rule out one column letter or row number of the Lost Treasure. A pirate "
    "whose walk ends on bare sand or in The Hook tavern sits down in the pub, and pub seat order decides who digs first "
    "at Sunset. Dig on the right square and you win; otherwise points decide."
)

RULES = """**Martinique** — 2 players, Black (seat 1) starts.
**Sunrise** — on your turn do one:
• `place A6` — put a pirate from your supply on a beach (edge) square that holds a tile and no pirate.
• `move C3 C5` — once 3 of your pirates have landed (option `move_after`), walk one pirate exactly as many squares \
as the number on its tile (a map tile counts 1): orthogonal steps, never the same square twice, never ending on a \
pirate. Pirates never block. If the walk passes an opponent's pirate, add `via` and the squares: `move C3 C5 via C4`.
• `retire A1` / `retire supply` — only when you can neither place nor move.
**After a move**
1. Each opponent pirate you passed makes the opponent reveal one of its secret map tiles (it chooses which).
2. You pocket the tile you started on: artifacts face up, map tiles (A–H, 1–8) secret.
3. Ending on bare sand sends the pirate to the lowest free pub seat; ending on The Hook (D4 E4 D5 E5) does too, and \
you `take joker` or `take map` from there.
4. You may `claim chest2|chest3|chest4`: pay artifacts of the chest's types (values don't matter; jokers are wild, \
e.g. `claim chest3 joker rum`) and the chest's tiles become a stack on your ship. `done` ends claiming.
**Map tiles** — the Lost Treasure is one letter and one number. Every map tile you hold or see revealed rules out a \
column or a row. Your DM picture crosses out the ruled-out squares.
**Sunset** — when all 8 pirates sit in the pub, every tile leaves the island. In pub-seat order each pirate's owner \
digs on a free square (`dig F6`).
**End** — the Lost Treasure is revealed. A pirate on it wins (option `lost_shadow`: +20 points instead). Otherwise: \
2 points per pair of same-type artifacts in front of you, + the values of your ship tiles, + 2 for strictly most ship \
stacks. Equal totals: most stacks wins; still equal: no winner."""


class Martinique(Game):
    info = GameInfo(
        id="martinique",
        title="Martinique",
        min_players=2,
        max_players=2,
        options=(
            Option("move_after", ("1", "2", "3", "4"), "3", "pirates a seat must land before it may move"),
            Option("lost_shadow", ("off", "on"), "off", "on: the treasure finder scores +20 instead of winning"),
        ),
        blurb=BLURB,
        rules=RULES,
        seat_names=NAMES,
    )
    version = 1
    search_horizon = HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- contract ------------------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        return engine.new_state(self.resolve_options(options), seed)

    def to_act(self, state: State) -> list[int]:
        return engine.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return engine.legal_actions(state, seat)

    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        after, events = engine.apply(state, seat, action)
        return after, credit(events, {s: [NAMES[s]] for s in range(len(NAMES))})

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        text = self.parse(action)
        reason = explain(state, seat, text, engine.legal_actions(state, seat))
        return IllegalAction("illegal", reason) if reason else super().refuse(state, seat, text)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    def seat_count(self, state: State) -> int:
        return len(state["players"])

    # -- host helpers --------------------------------------------------------------------------------------
    def owed(self, view: dict[str, Any], seat: int) -> str:
        step = view.get("step")
        if step == "reveal":
            return "reveal one of your hidden map tiles (the other pirate passed yours)"
        if step == "hook":
            return "take a joker or a map tile from The Hook"
        if step == "claim":
            return "claim a chest or say done"
        if view.get("phase") == "sunset" or step == "dig":
            pub = view.get("next_pub")
            return f"place a digging pirate (pub seat {pub})" if pub else "place a digging pirate"
        return "place or move a pirate"

    def label(self, view: dict[str, Any], action: Action) -> str:
        words = action.split()
        squares = view.get("squares", {})
        if words[0] == "place":
            return f"place on {words[1]} ({_tile_word(squares[words[1]]['tile'])})"
        if words[0] == "move":
            end = squares[words[2]]
            if end["hook"]:
                landing = "The Hook → pub"
            elif end["tile"] is None:
                landing = "bare sand → pub"
            else:
                landing = f"stays on {_tile_word(end['tile'])}"
            passing = f", passes {', '.join(words[4:])}" if len(words) > 3 else ""
            return f"{words[1]} → {words[2]}: take {_tile_word(squares[words[1]]['tile'])}, {landing}{passing}"
        if words[0] == "dig":
            cands = (view.get("private") or {}).get("candidates")
            if cands is not None and words[1] in cands:
                return f"dig {words[1]} (possible treasure)"
        return action

    def group(self, view: dict[str, Any], action: Action) -> str:
        words = action.split()
        if words[0] == "move":
            return f"move {words[1]}"
        if words[0] == "dig":
            return f"dig {words[1][0]}"
        return words[0]

    def undoable(self, before: State, seat: int, action: Action) -> bool:
        """True when nothing hidden came to light: no bag draw, no map tile changed hands or was revealed, and the
        game did not end (the final dig reveals the treasure)."""
        after, _ = self.apply(before, seat, action)

        def secrets_seen(s: State) -> tuple[Any, ...]:
            maps = tuple((m["id"], m["revealed"]) for p in s["players"] for m in p["maps"])
            return len(s["bag"]), maps, len(s["hook"]["maps"]), s["phase"] == "over"

        return secrets_seen(before) == secrets_seen(after)

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = engine.legal_actions(state, seat)
        if state["step"] == "claim":
            return "done"
        if state["step"] == "dig":
            for sq in knowledge(state, seat)["candidates"]:
                if f"dig {sq}" in legal:
                    return f"dig {sq}"
        return legal[0]

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        from rules.martinique.sample import sample

        return sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return win_chance(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        mine = view.get("private") or {}
        if mine.get("seat") != seat:
            return ""
        maps = ", ".join(mine["maps"]) or "none"
        places = mine["candidates"]
        where = ", ".join(places) if len(places) <= 12 else f"{len(places)} squares (crossed out on your map)"
        return f"Your secret map tiles: {maps}.\nThe Lost Treasure may still lie on: {where}."

    def secrets(self, state: State) -> list[str]:
        """The seed, and every map tile identity still hidden, in the state's own ``map:X`` spelling (a public view
        or line holding one would have copied a raw tile out of the state)."""
        seed = state["seed"]
        out = [seed, '"rng_n":']
        if all(ch in "0123456789abcdef" for ch in seed.lower()) and len(seed) >= 6:
            out.append(str(int(seed, 16)))
        if len(state["bag"]) >= 3:
            out.append(json.dumps(state["bag"]))  # the bag's order (its contents by type are public)
        if len(state["removed"]) >= 2:
            out.append(json.dumps(state["removed"]))  # removed at the end of Sunrise: hidden forever
        if state["phase"] == "over":
            return out
        hidden = [t for t in state["island"] if t is not None and t.startswith("map:")]
        hidden += state["hook"]["maps"] + state["lost"]
        for p in state["players"]:
            hidden += [m["id"] for m in p["maps"] if not m["revealed"]]
        return out + sorted(hidden)


def _tile_word(tile: dict[str, Any] | None) -> str:
    if tile is None:
        return "nothing"
    if tile["kind"] == "map":
        return "a map tile"
    return f"{tile['type']}:{tile['value']}"


def explain(state: State, seat: int, text: str, legal: list[str]) -> str:
    """Why ``text`` is refused, in words that name what is allowed instead; "" when there is nothing to say beyond
    the shared wording (the action is simply not one of this step's)."""
    words = text.split()
    verb = words[0]
    step = state["step"]
    examples = ", ".join(f"`{a}`" for a in legal[:4]) + (", ..." if len(legal) > 4 else "")
    if step != "turn" or verb not in ("place", "move", "retire"):
        if verb == "dig" and step == "dig":
            return f"{words[1]} already holds a pirate: dig on a free square, e.g. {examples}."
        if verb == "claim" and step == "claim":
            return f"you cannot cover `{text[6:]}` with your artifacts and jokers; possible: {examples}."
        return ""
    player = state["players"][seat]
    if verb == "place":
        sq = INDEX[words[1]]
        if player["supply"] == 0:
            return "you have no pirate left in your supply; move a pirate instead."
        if sq not in BEACH_SET:
            return f"{words[1]} is not a beach square: place on an edge square that holds a tile."
        if state["island"][sq] is None:
            return f"{words[1]} has no tile left: place only where a tile lies."
        return f"{words[1]} holds a pirate already: choose a free beach square."
    if verb == "retire":
        return f"retire is allowed only when you can neither place nor move; try {examples}."
    have = engine.landed(state, seat)
    need = state["options"]["move_after"]
    if have < need:
        return f"you have only {have} pirates landed; Move unlocks at {need}."
    start, end = INDEX[words[1]], INDEX[words[2]]
    if state["pirates"][start] != seat:
        return f"you have no pirate on {words[1]}."
    if state["pirates"][end] is not None:
        return f"{words[2]} holds a pirate: a move cannot end there."
    n = value_of(state["island"][start])
    if not any(path[-1] == end for path in walks(start, n)):
        return (
            f"your pirate on {words[1]} must walk exactly {n} square{'s' if n > 1 else ''}, orthogonally and never "
            f"over the same square twice; {words[2]} cannot be reached that way."
        )
    forms = [a for a in legal if a.startswith(f"move {words[1]} {words[2]}")]
    return f"that is not how this walk passes {NAMES[1 - seat]}: write {' or '.join(f'`{f}`' for f in forms)}."
