"""The Treasure Island game object: what a table shows of the game (title, options, the ``/rules`` text, the hint
and trick cards) and the ``rules.core.Game`` contract over the modules of this package
(docs/games/treasure_island.md)."""

from __future__ import annotations

import json
import random
from typing import Any

from rules import core
from rules.core import Action, Event, GameInfo, IllegalAction, Option, Outcome, State
from rules.treasure_island import actions, ai, calendar, engine, evaluate, hints, moves, rollout, sample, views

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
        *((hints.title(c), hints.EFFECTS[c]) for c in hints.EFFECTS),
        *((f"Trick: {t.capitalize()}", calendar.TRICK_EFFECTS[t]) for t in calendar.TRICK_EFFECTS),
    ),
)


class TreasureIsland(core.Game):
    info = INFO
    version = 1
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        opts = self.resolve_options(options)
        self.check_players(players)
        if players == 6 and opts["expansion"] != "on":
            # the sixth seat needs Ben Gunn: a table of six that left the option at its default gets the
            # expansion; only an explicit `expansion: off` is refused
            if "expansion" in {str(k).lower() for k in (options or {})}:
                raise IllegalAction("bad_players", "Six players need the expansion (expansion: on) for Ben Gunn.")
            opts["expansion"] = "on"
        state = engine.new_state(players, opts, str(seed))
        state["game"] = self.info.id
        state["version"] = self.version
        return state

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: str) -> IllegalAction:
        """The rule a handler names when it meets ``action`` (tried on a copy: the state is not touched)."""
        try:
            engine.act(json.loads(json.dumps(state)), seat, self.parse(action), [])
        except IllegalAction as reason:
            if reason.code != "wrong_step":
                return reason
        return super().refuse(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    def seat_count(self, state: State) -> int:
        return state["n"]

    # -- what a seat sees and reads ------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        return views.private_summary(view, seat)

    def owed(self, view: dict[str, Any], seat: int) -> str:
        return views.owed(view, seat)

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        return views.seat_name(view, seat)

    # -- action text ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    def group(self, view: dict[str, Any], action: Action) -> str:
        return actions.group(view, action)

    def groups(self, view: dict[str, Any], actions_: list[Action]) -> list[str]:
        return actions.groups(view, actions_)

    def describe(self, view: dict[str, Any], action: Action) -> str:
        return actions.describe(view, action)

    # -- the host's helpers --------------------------------------------------------------------------
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
        step = state["state"]
        if step == "turn":
            return "end"
        if step == "ride2":
            return "halt"
        if step == "step":
            return "stay"
        if step == "prison" and seat != state["silver"]:
            return f"tower {state['tower']}"
        # every Long John Silver decision: the easy AI, with secret randomness (a fixed default would leak)
        legal = self.legal_actions(state, seat)
        rnd = random.Random(f"{state['seed']}|timeout|{state['rng_n']}|{len(state['calendar'])}|{state['day']}")
        return ai.easy(self.view(state, seat), seat, legal, rnd)

    # -- the hard AI ---------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    def rollout(self, state: State) -> rollout.IslandRollout:
        return rollout.IslandRollout(self, state)

    # -- tests ---------------------------------------------------------------------------------------
    def secrets(self, state: State) -> list[str]:
        """What only Silver (or nobody) may know, in the forms a leak would take
        (docs/games/treasure_island.md#hidden-information; all public at the end).

        The seed (as typed, and as a number when it is hex) and the RNG counter's key; T as a leaked ``treasure``
        key; Silver's cards and the deck, discard and Compass cards as quoted ids (bare ids like ``B4`` occur inside
        base64 masks); deck and chest-token orders; his tokens left, the traitor and the real Silver as his own view
        spells them. District Hints, tokens under hints and T as a line's ``(x,y)`` have spellings that also occur
        for public reasons: tests/secrets checks those (its scramble, and T's ``(x,y)`` unless a mover stood there)."""
        seed = state["seed"]
        out = ['"rng_n":']
        if len(seed) >= 6:
            out.append(seed)
            if all(ch in "0123456789abcdef" for ch in seed.lower()):
                out.append(str(int(seed, 16)))
        if state["state"] == "over":
            return out
        if state["treasure"] is not None:
            out.append(json.dumps({"treasure": views.miles(state["treasure"])})[1:-1])
        cards = (
            state["hand"]
            + state["compass_hand"]
            + state["starting_deck"]
            + state["black_deck"]
            + state["compass_deck"]
            + state["discards"]
        )
        out += [json.dumps(c) for c in cards + [c["card"] for c in state["compass_given"]]]
        for pile in (
            state["starting_deck"],
            state["black_deck"],
            state["compass_deck"],
            state["district_pile"],
            state["chest_tokens"],
        ):
            if len(pile) >= 2:
                out.append(json.dumps(pile))
        out.append(json.dumps({"tokens": state["tokens"]})[1:-1])
        if state["traitor"] is not None:
            out.append(json.dumps({"traitor": state["traitor"]})[1:-1])
        if state["real"] is not None:
            out.append(json.dumps({"real_figure": state["real"]})[1:-1])
        return out


GAME = TreasureIsland()
