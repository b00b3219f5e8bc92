"""The Martinique game object: what a table shows of the game (title, options, the ``/rules`` text, seat colours)
and the ``rules.core.Game`` contract over the modules of this package (docs/games/martinique.md)."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.core import Action, Event, Game, GameInfo, IllegalAction, Option, Outcome, State
from rules.martinique import actions, ai, engine, evaluate, moves, rollout, sample, views
from rules.martinique.board import NAMES

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
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        return engine.new_state(self.resolve_options(options), seed)

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        text = self.parse(action)
        reason = moves.explain(state, seat, text, moves.legal_actions(state, seat))
        return IllegalAction("illegal", reason) if reason else super().refuse(state, seat, text)

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    def seat_count(self, state: State) -> int:
        return len(state["players"])

    # -- what a seat sees and reads ------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        return views.private_summary(view, seat)

    def owed(self, view: dict[str, Any], seat: int) -> str:
        return views.owed(view, seat)

    # -- action text ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    def group(self, view: dict[str, Any], action: Action) -> str:
        return actions.group(view, action)

    # -- the host's helpers --------------------------------------------------------------------------
    def undoable(self, before: State, seat: int, action: Action) -> bool:
        """True when nothing hidden came to light: no bag draw, no map tile changed hands or was revealed, and the
        game did not end (the final dig reveals the treasure)."""
        after, _ = self.apply(before, seat, action)

        def secrets_seen(state: State) -> tuple[Any, ...]:
            maps = tuple((m["id"], m["revealed"]) for p in state["players"] for m in p["maps"])
            return len(state["bag"]), maps, len(state["hook"]["maps"]), state["phase"] == "over"

        return secrets_seen(before) == secrets_seen(after)

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = moves.legal_actions(state, seat)
        if state["step"] == "claim":
            return "done"
        if state["step"] == "dig":
            for sq in views.knowledge(state, seat)["candidates"]:
                if f"dig {sq}" in legal:
                    return f"dig {sq}"
        return legal[0]

    # -- the hard AI ---------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    def rollout(self, state: State) -> rollout.MartiniqueRollout:
        return rollout.MartiniqueRollout(self, state)

    # -- tests ---------------------------------------------------------------------------------------
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


GAME = Martinique()
