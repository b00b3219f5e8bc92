"""The Buccaneer game object: what a table shows of the game (title, options, the ``/rules`` text, the cards a
player may hold) and the ``rules.core.Game`` contract over the modules of this package (docs/games/buccaneer.md)."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.buccaneer import actions, ai, board, engine, evaluate, moves, rollout, sample, views
from rules.buccaneer.model import CHANCE_EFFECTS, CREW, CREW_VALUE, chance_title, top
from rules.core import Action, Game, GameInfo, IllegalAction, Option, Outcome, State, normalize_text

RULES = (
    "**Buccaneer** (Waddingtons, 1958): 2–8 ships, each with a home port.\n"
    "1. **Sail** in a straight line up to your *sailing strength* (the total of your crew cards). Longer moves are "
    "allowed but any opponent may `challenge` (the **Challenge** button under the board) until the next player "
    "acts: caught, you lose your whole hand; a wrong challenger loses their best card or a treasure to Flat "
    "Island. An AI due to move next waits `challenge_wait` seconds (20 unless the table chose otherwise) first. At "
    "sea you sail only forward; leave a harbour by one of its 3 exits. End every move by pointing where you will "
    "go next (`face`). Turning on the spot (`turn`) is a whole turn. Plan with `sail`, `go`, `face`, then "
    "`confirm` (`undo` until then).\n"
    "2. **Treasure Island**: stop on (or stay on, by turning) a square next to it to draw a chance card: treasure, "
    "crew, storms, losses, keepers (Long John Silver, Doubloons, Pieces of Eight, Kidd's Chart).\n"
    "3. A ship carries at most **2 treasures**. Land them at home with `unload`; put three of a kind in your "
    "**Safety Zone** (`safe`), where nobody can buy them.\n"
    "4. **Trade** value for value at any other port's Docks: build the basket with `offer` and `want`, then "
    "`trade` when both sides balance (or `cancel`). Diamond/ruby 5, gold 4, pearl 3, rum 2, crew their number, "
    "Doubloons 4, Pieces of Eight 5, Kidd's Chart 3.\n"
    "5. **Fight**: end a move on another ship's square with `go k attack <port>`, or attack a ship sailing through "
    "your square. The higher *fighting strength* (black total minus red total, ignoring the sign) wins the loser's "
    "treasure or up to 2 crew; the loser then makes a free move. A ship may also share a square in peace.\n"
    "6. Anything washed onto **Flat Island** is free to a ship beside it. Land a Kidd's Chart at **Anchor Bay** "
    "(X1) for treasure up to 7. A ship with no crew is a **derelict**: it drifts one square.\n"
    "7. **Win**: your ship is in your home port with treasure worth **20 or more** in your Docks and Safety Zone.\n"
)

BLURB = (
    "Waddingtons' 1958 Buccaneer for 2–8 players. Sail a 24×24 sea, draw chance cards at Treasure Island, trade at "
    "ports and fight other ships. The first to land 20 points of treasure in their home port wins."
)

UNDOABLE = {"sail", "turn", "go", "face", "undo", "offer", "want", "unoffer", "unwant", "cancel"}
UNDOABLE |= {"unload", "load", "leave", "pickup"}


class Buccaneer(Game):
    info = GameInfo(
        id="buccaneer",
        title="Buccaneer",
        min_players=2,
        max_players=8,
        options=(
            Option("ports", ("choose", "random"), "choose", "choose: each player picks a home port; random: dealt"),
            Option("honour", ("on", "off"), "on", "on: long moves may be challenged; off: no move beyond strength"),
            Option("round_limit", ("0", "50", "100", "150", "200"), "100", "stop with no winner after this round"),
            Option(
                "challenge_wait",
                ("20", "0", "10", "30", "60"),
                "20",
                "seconds an AI next to act waits while a person may still challenge a move",
            ),
        ),
        blurb=BLURB,
        rules=RULES,
        cards=tuple((f"{n} {chance_title(n)}", CHANCE_EFFECTS[n]) for n in sorted(CHANCE_EFFECTS)),
    )
    version = 1
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        # the wait is the host's business (``reaction_seconds``): the rules and their state never see it
        opts.pop("challenge_wait")
        state = engine.new_state(players, opts, str(seed))
        state["game"] = self.info.id
        state["version"] = self.version
        return state

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        text = normalize_text(action)
        reason = moves.explain(state, seat, text, moves.legal_actions(state, seat))
        return reason or super().refuse(state, seat, text)

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

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        return views.seat_name(view, seat)

    # -- action text ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    def describe(self, view: dict[str, Any], action: Action) -> str:
        return actions.describe(view, action)

    # -- the host's helpers --------------------------------------------------------------------------
    take_back = "undo"

    def joins(self, view: dict[str, Any], action: Action) -> bool:
        # a direction alone, or turning without a facing, decides nothing: the picker offers each with its distance
        # or facing as one pick (docs/games/buccaneer.md#the-picker)
        return action.split(" ", 1)[0] in ("sail", "turn")

    def follows(self, view: dict[str, Any], seat: int, legal: list[Action]) -> Action | None:
        # a finished plan's confirm, a turn's end with nothing else to do: no choice, so the pick plays them too
        left = [a for a in legal if a != self.take_back]
        return left[0] if len(left) == 1 and left[0] in ("confirm", "end") else None

    def reaction_seconds(self, options: dict[str, str]) -> int:
        # an AI next to act waits while a person may still challenge; the table chooses how long
        # (docs/games/buccaneer.md#honour-and-the-challenge-window)
        if options.get("honour", "on") == "off":
            return 0
        return int(options.get("challenge_wait", "20"))

    def undoable(self, before: State, seat: int, action: Action) -> bool:
        return action.split(" ", 1)[0] in UNDOABLE and top(before) is None

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        legal = [a for a in legal if a != "challenge"] or legal
        frame = top(state) if state["phase"] == "play" else None
        kind = frame["kind"] if frame else "TURN"
        if kind == "INTERCEPT":
            return "pass"
        if kind in ("RETURN",) or (kind == "LOSE" and frame["what"] == "treasure"):
            return legal[-1]
        if kind in ("GIVE", "BURY", "YELLOW_FEVER") or kind == "LOSE":
            return min(legal, key=lambda a: (CREW_VALUE.get(a.split()[-1], 9), "docks" in a, CREW.index(a.split()[-1])))
        if kind in ("ALONGSIDE", "REPOINT"):
            facing = state["players"][seat]["ship"]["facing"]
            return f"face {facing}" if f"face {facing}" in legal else legal[0]
        if kind == "PICK":
            return legal[0]
        if kind == "FREE_MOVE":
            return legal[0] if legal[0] != "undo" else legal[-1]
        if kind != "TURN":
            return legal[0]
        return _turn_default(state, seat, legal)

    # -- the hard AI ---------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    def rollout(self, state: State) -> rollout.BuccaneerRollout:
        return rollout.BuccaneerRollout(self, state)

    # -- tests ---------------------------------------------------------------------------------------
    def secrets(self, state: State) -> list[str]:
        """The seed (as typed and, for a hex seed, as a number), the keys of the RNG counter and of the piles, each
        pile's order as a view or a line would spell it, and each hand as a view spells it
        (docs/games/buccaneer.md#hidden-information)."""
        seed = state["seed"]
        out = ['"rng_n":', '"pirate_pile":', '"chance_pile":']
        if len(seed) >= 6:
            out.append(seed)
            if all(ch in "0123456789abcdef" for ch in seed.lower()):
                out.append(str(int(seed, 16)))
        if len(state["pirate_pile"]) >= 2:
            out.append(json.dumps(state["pirate_pile"]))
        if len(state["pirate_pile"]) >= 16:  # longer than any hand ("Hand: B3 B2 ..."), so never a hand's spelling
            out.append(" ".join(k.upper() for k in state["pirate_pile"]))
        if state["chance_pile"]:
            out.append(json.dumps(state["chance_pile"]))
        for p in state["players"]:
            out.append('"hand": ' + json.dumps(p["hand"], sort_keys=True))
        return out


def _turn_default(state: State, seat: int, legal: list[str]) -> str:
    if state["phase"] == "choose_ports":
        return legal[0]
    if "cancel" in legal:
        return "cancel"
    if "end" in legal:
        return "end"
    turn = state["turn"]
    if turn["stage"] == "plan":
        plan = turn["plan"]
        at = state["players"][seat]["ship"]["at"]
        if at == state["players"][seat]["harbour"] or state["players"][seat]["hand"] == dict.fromkeys(CREW, 0):
            return "undo"
        if "confirm" in legal:
            return "confirm"
        faces = [a for a in legal if a.startswith("face")]
        if faces:
            if plan["kind"] == "turn":
                facing = state["players"][seat]["ship"]["facing"]
                nxt = board.DIRS[(board.DIRS.index(facing) + 1) % 8]
                return f"face {nxt}"
            return faces[0]
        goes = [a for a in legal if a.startswith("go")]
        plain = [a for a in goes if "attack" not in a]
        return (plain or goes or legal)[0]
    if "stay" in legal:
        return "stay"
    if "turn" in legal:
        return "turn"
    return next(a for a in legal if a.startswith("sail"))


GAME = Buccaneer()
