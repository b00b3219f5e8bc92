"""The Buccaneer engine object: the contract of ``rules.core.Game`` over the modules of this package."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.buccaneer import ai, board, engine, views
from rules.buccaneer.evaluate import HORIZON, win_chance
from rules.buccaneer.model import CHANCE_TITLES, CREW, CREW_VALUE, KEEPERS
from rules.buccaneer.setup import new_state
from rules.core import Action, Game, GameInfo, IllegalAction, Option, Outcome, State, normalize_text

RULES = """**Buccaneer** (Waddingtons, 1958): 2–8 ships, each with a home port.
1. **Sail** in a straight line up to your *sailing strength* (the total of your crew cards). Longer moves are allowed but any opponent may `challenge` (the **Challenge** button under the board) until the next player acts: caught, you lose your whole hand; a wrong challenger loses their best card or a treasure to Flat Island. An AI due to move next waits `challenge_wait` seconds (20 unless the table chose otherwise) first. At sea you sail only forward; leave a harbour by one of its 3 exits. End every move by pointing where you will go next (`face`). Turning on the spot (`turn`) is a whole turn. Plan with `sail`, `go`, `face`, then `confirm` (`undo` until then).
2. **Treasure Island**: stop on (or stay on, by turning) a square next to it to draw a chance card: treasure, crew, storms, losses, keepers (Long John Silver, Doubloons, Pieces of Eight, Kidd's Chart).
3. A ship carries at most **2 treasures**. Land them at home with `unload`; put three of a kind in your **Safety Zone** (`safe`), where nobody can buy them.
4. **Trade** value for value at any other port's Docks: build the basket with `offer` and `want`, then `trade` when both sides balance (or `cancel`). Diamond/ruby 5, gold 4, pearl 3, rum 2, crew their number, Doubloons 4, Pieces of Eight 5, Kidd's Chart 3.
5. **Fight**: end a move on another ship's square with `go k attack <port>`, or attack a ship sailing through your square. The higher *fighting strength* (black total minus red total, ignoring the sign) wins the loser's treasure or up to 2 crew; the loser then makes a free move. A ship may also share a square in peace.
6. Anything washed onto **Flat Island** is free to a ship beside it. Land a Kidd's Chart at **Anchor Bay** (X1) for treasure up to 7. A ship with no crew is a **derelict**: it drifts one square.
7. **Win**: your ship is in your home port with treasure worth **20 or more** in your Docks and Safety Zone.
"""

BLURB = (
    "Waddingtons' 1958 Buccaneer for 2–8 players. Sail a 24×24 sea, draw chance cards at Treasure Island, trade at "
    "ports and fight other ships. The first to land 20 points of treasure in their home port wins."
)

#: what each chance card does (docs/games/buccaneer.md), by number; the keepers' effects are what trading reads
CHANCE_EFFECTS: dict[int, str] = {
    1: "blown five squares out from the island; storm bonus (crew value 3 or less: take 4 crew)",
    2: "name a player: they give you 3 crew from hand or home Docks, their choice",
    3: "blown to Mud Bay; storm bonus",
    4: "blown to Cliff Creek; storm bonus",
    5: "blown into your home port (you may win at once); storm bonus",
    6: "blown to the nearest harbour the way you face; storm bonus",
    7: "one treasure or two crew wash aboard the nearest ship",
    8: "one treasure or two crew wash onto Flat Island",
    9: "your best treasure aboard, else your best crew card, goes to Flat Island",
    10: "your best crew card deserts to Pirate Island",
    11: "take treasure up to 5, or 2 crew",
    12: "take treasure up to 4, or 2 crew",
    13: "take treasure up to 5, or 2 crew",
    14: "take treasure up to 7, or 3 crew",
    15: "take 2 crew",
    16: "take treasure up to 7, then cut your crew value to 10",
    17: "take treasure up to 6, then cut your crew value to 11",
    18: "take treasure up to 4; with crew value 7 or less, also take 2 crew",
    19: "your whole hand goes under Pirate Island; draw as many back from the top",
    20: "swap 2 random crew with the nearest ship on the coast; with none, bury 2",
    21: "kept: sell him at a port for crew worth up to 5, or buy him back for one treasure",
    22: "everyone with more than 7 crew (hand and home Docks) buries the surplus",
    23: "kept: worth 4 when buying at a port",
    24: "kept: worth 5 when buying at a port",
    25: "kept: land at Anchor Bay for treasure up to 7 (once a game); otherwise worth 3 when buying",
    26: "kept: land at Anchor Bay for treasure up to 7 (once a game); otherwise worth 3 when buying",
    27: "take treasure up to 5, or 3 crew",
    28: "take 2 crew",
}
KEEPER_TITLE = {"longjohn": "Long John Silver", "doubloons": "Doubloons", "pieces": "Pieces of Eight", "chart": "Kidd's Chart"}
KEEPER_EFFECT = {"longjohn": CHANCE_EFFECTS[21], "doubloons": CHANCE_EFFECTS[23], "pieces": CHANCE_EFFECTS[24]}
KEEPER_EFFECT["chart"] = CHANCE_EFFECTS[25]
_VERB = {
    "offer": "offer",
    "unoffer": "take back",
    "want": "ask for",
    "unwant": "stop asking for",
    "pickup": "pick up",
    "load": "load",
    "unload": "unload",
    "leave": "leave",
    "flat": "leave on Flat Island",
    "take": "take",
    "land": "land",
}
#: what a seat owes, by the frame it must answer (spec §3)
_OWED = {
    "INTERCEPT": "attack the passing ship or let it pass",
    "SPOILS": "choose your spoils",
    "GIVE": "hand over crew cards",
    "PICK": "pick treasure from Treasure Island",
    "PLACE": "choose the square your ship is blown to",
    "PORT_TIE": "choose the harbour your ship is blown to",
    "YELLOW_FEVER": "bury crew down to 7",
    "LOSE": "choose what goes overboard",
    "BURY": "bury crew cards",
    "CHOICE": "choose treasure or crew",
    "TARGET": "name the player who must give you crew",
    "RETURN": "return treasure your ship cannot carry",
    "ALONGSIDE": "point your ship",
    "REPOINT": "point your ship",
    "FREE_MOVE": "make your free move",
    "FORFEIT": "pay the forfeit for your challenge",
}


def _title(n: int) -> str:
    return CHANCE_TITLES.get(n, f"card {n}")


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
        cards=tuple((f"{n} {_title(n)}", CHANCE_EFFECTS[n]) for n in sorted(CHANCE_EFFECTS)),
    )
    version = 1
    search_horizon = HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the table's voice -------------------------------------------------------------------------------
    def owed(self, view: dict[str, Any], seat: int) -> str:
        awaiting = view.get("awaiting") or {}
        kind = awaiting.get("kind")
        if kind == "PORT_CHOICE":
            return "choose your home port"
        if kind == "TURN":
            stage = (awaiting.get("info") or {}).get("stage")
            if stage == "plan":
                return "finish planning your move (direction, distance, facing, then confirm)"
            if stage == "after":
                return "trade where your ship lies, or end your turn"
            return "sail, turn or stay (trading first where your ship lies)"
        if kind == "CHOICE":
            card = ((view.get("last") or {}).get("chance") or {}).get("card")
            return f"choose treasure or crew ({_title(card)})" if card else _OWED[kind]
        return _OWED.get(str(kind), "take your turn")

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        players = view.get("players") or []
        if seat >= len(players) or not players[seat].get("harbour"):
            return ""  # no name until a home port is chosen ("Seat 1" is the engine's placeholder, not a name)
        return board.HARBOUR[players[seat]["harbour"]]["name"]

    def describe(self, view: dict[str, Any], action: Action) -> str:
        words = action.split()
        if len(words) >= 2 and words[0] in _VERB and words[-1] in KEEPERS:
            item = words[-1]
            return f"{_VERB[words[0]].capitalize()} {KEEPER_TITLE[item]} ({KEEPER_EFFECT[item]})"[:100]
        if words[:1] == ["choose"]:
            card = ((view.get("last") or {}).get("chance") or {}).get("card")
            if card:
                return f"{card} {_title(card)}: {CHANCE_EFFECTS[card]}"[:100]
        return ""

    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        # the wait is the host's business (``reaction_seconds``): the rules and their state never see it
        opts.pop("challenge_wait")
        state = new_state(players, opts, str(seed))
        state["game"] = self.info.id
        state["version"] = self.version
        return state

    def to_act(self, state: State) -> list[int]:
        return engine.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return engine.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        text = normalize_text(action)
        reason = engine.explain(state, seat, text, engine.legal_actions(state, seat))
        return reason or super().refuse(state, seat, text)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is None:
            return views.public_view(state)
        return views.seat_view(state, seat)

    def seat_count(self, state: State) -> int:
        return len(state["players"])

    def outcome(self, state: State) -> Outcome | None:
        out = state["outcome"]
        if out is None:
            return None
        winners, scores = tuple(out["winners"]), tuple(float(x) for x in out["scores"])
        # ratings rank by treasure landed (the winner first), equal landed values tied; so a game stopped by the
        # round limit, which has no winner, is still rated
        key = [(s not in winners, -scores[s]) for s in range(len(scores))]
        places = tuple(1 + sum(k < key[s] for k in key) for s in range(len(scores)))
        return Outcome(winners, out["reason"], scores, tuple(out["ranking"]), places=places)

    def parse(self, text: str) -> Action:
        action = normalize_text(text)
        if not action:
            raise IllegalAction("bad_syntax", "Type an action such as `sail n`, `go 3`, `face ne` or `end`.")
        return action

    def reaction_seconds(self, options: dict[str, str]) -> int:
        # spec §3.14: an AI next to act waits while a person may still challenge; the table chooses how long
        if options.get("honour", "on") == "off":
            return 0
        return int(options.get("challenge_wait", "20"))

    def undoable(self, before: State, seat: int, action: Action) -> bool:
        return action.split(" ", 1)[0] in UNDOABLE and engine.top(before) is None

    def evaluate(self, state: State, seat: int) -> float:
        return win_chance(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        you = view.get("you") or {}
        if you.get("seat") != seat:
            return ""
        players = view.get("players") or []
        keepers = players[seat].get("keepers", []) if seat < len(players) else []
        # each kept chance card with what it does, so a player can read the cards they hold
        held = [f"• {KEEPER_TITLE[k]}: {KEEPER_EFFECT[k]}" for k in dict.fromkeys(keepers) if k in KEEPER_TITLE]
        return "\n".join([you.get("text", ""), *held])

    def secrets(self, state: State) -> list[str]:
        """The seed (as typed and, for a hex seed, as a number), the keys of the RNG counter and of the piles, each
        pile's order as a view or a line would spell it, and each hand as a view spells it (spec §4)."""
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

    def label(self, view: dict[str, Any], action: Action) -> str:
        window = view.get("challenge_open")
        if action == "challenge" and window:
            mover = view["players"][window["mover"]]
            name = board.HARBOUR[mover["harbour"]]["name"] if mover["harbour"] else mover["name"]
            return f"Challenge {name}'s move of {window['k']}"
        words = action.split()
        you = view.get("you") or {}
        plan = you.get("free_plan") or you.get("plan")
        if words and words[0] == "go" and plan and plan.get("dir"):
            me = view["players"][you["seat"]]
            ray = board.RAYS[me["ship"]["at"]][plan["dir"]]
            k = int(words[1])
            end = ray[k - 1]
            where = board.HARBOUR[end]["name"] if board.is_harbour(end) else end.upper()
            text = f"{plan['dir'].upper()} {k} → {where}"
            if len(words) == 4:
                text += f", attack {board.HARBOUR[words[3]]['name']}"
            if k > you.get("sailing", k) and not you.get("free_plan"):
                text += " (exceeds your sailing strength)"
            return text
        return action

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        legal = [a for a in legal if a != "challenge"] or legal
        frame = engine.top(state) if state["phase"] == "play" else None
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

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        from rules.buccaneer.sample import sample

        return sample(view, seat, rng)


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
