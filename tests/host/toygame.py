"""A tiny game used as a fast fixture for the table host: secrets, multi-action turns, undo, draws and a
simultaneous phase, in a hundred lines.

Setup: a shuffled deck of 30 uniquely named gems (``gem01`` … ``gem30``, worth 1–3 each); every seat gets
two. Phase ``ready``: every seat must type ``ready`` (all at once). Then turns in seat order, up to three
actions a turn: ``play <gem>`` (reveals it, adds its value to the pile), ``mark`` (a public tally, reveals
nothing: undoable), ``draw`` (a secret draw), ``end``. The seat whose play takes the pile to the target
(option ``length``: short 6, long 12) wins.
"""

from __future__ import annotations

import random
from typing import Any

from rules import core
from rules.core import Event, Game, GameInfo, Option, Outcome, State

TARGET = {"short": 6, "long": 12}
NAMES = ("Red", "Blue", "Green", "Yellow")


def value(gem: str) -> int:
    return int(gem[3:]) % 3 + 1


def easy(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """Any gem it holds, else a draw, else the end of the turn."""
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        return rnd.choice(plays)
    return legal[0] if legal == ["ready"] else ("draw" if "draw" in legal else "end")


def normal(view: dict[str, Any], seat: int, legal: list[str], rnd: random.Random) -> str:
    """Its most valuable gem, else a draw, else the end of the turn."""
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        return max(plays, key=lambda a: value(a[5:]))
    return legal[0] if legal == ["ready"] else ("draw" if "draw" in legal else "end")


class ToyGame(Game):
    info = GameInfo(
        id="toy",
        title="Toy Gems",
        min_players=2,
        max_players=4,
        options=(Option("length", ("short", "long"), "short", "pile target"),),
        blurb="A test game.",
        rules="Play gems until the pile reaches the target.",
        seat_names=NAMES,
    )
    policies = {"easy": easy, "normal": normal}

    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        state: State = {"seed": seed, "rng_n": 0, "players": players, "options": opts}
        deck = [f"gem{i:02d}" for i in range(1, 31)]
        core.rng(state).shuffle(deck)
        state.update(
            hands=[[deck.pop(), deck.pop()] for _ in range(players)],
            deck=deck,
            phase="ready",
            ready=[False] * players,
            turn=0,
            left=3,
            pile=0,
            played=[],
            marks=[0] * players,
            winner=None,
            last=None,
        )
        return state

    def to_act(self, state: State) -> list[int]:
        if state["winner"] is not None:
            return []
        if state["phase"] == "ready":
            return [s for s in range(state["players"]) if not state["ready"][s]]
        return [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "ready":
            return ["ready"]
        acts = [f"play {g}" for g in sorted(state["hands"][seat])]
        acts.append("mark")
        if state["deck"]:
            acts.append("draw")
        acts.append("end")
        return acts

    def _apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        s = core.clone(state)
        name = NAMES[seat]
        if action == "ready":
            s["ready"][seat] = True
            if all(s["ready"]):
                s["phase"] = "turns"
            s["last"] = {"seat": seat, "action": "ready"}
            return s, [Event(f"{name} is ready.", actor=seat)]
        events: list[Event] = []
        if action.startswith("play "):
            gem = action[5:]
            s["hands"][seat].remove(gem)
            s["played"].append(gem)
            s["pile"] += value(gem)
            events.append(Event(f"{name} played {gem} (+{value(gem)}), pile {s['pile']}.", actor=seat))
            if s["pile"] >= TARGET[s["options"]["length"]]:
                s["winner"] = seat
                events.append(Event(f"{name} wins.", actor=seat))
        elif action == "mark":
            s["marks"][seat] += 1
            events.append(Event(f"{name} made a mark.", actor=seat))
        elif action == "draw":
            gem = s["deck"].pop(core.rng(s).randrange(len(s["deck"])))
            s["hands"][seat].append(gem)
            events.append(Event(f"{name} drew a gem.", {seat: f"You drew {gem}."}))
        s["left"] -= 1
        s["last"] = {"seat": seat, "action": action.split(" ")[0]}
        if s["winner"] is None and (action == "end" or s["left"] == 0):
            s["turn"] = (seat + 1) % s["players"]
            s["left"] = 3
            if action == "end":
                events.append(Event(f"{name} ended the turn.", actor=seat))
        return s, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "players": state["players"],
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "turn": state["turn"],
            "left": state["left"],
            "pile": state["pile"],
            "played": list(state["played"]),
            "hand_sizes": [len(h) for h in state["hands"]],
            "deck_size": len(state["deck"]),
            "marks": list(state["marks"]),
            "winner": state["winner"],
            "last": state["last"],
        }
        if seat is not None:
            v["hand"] = sorted(state["hands"][seat])
            v["seat"] = seat
        return v

    def seat_count(self, state: State) -> int:
        return state["players"]

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        scores = tuple(float(m) for m in state["marks"])
        return Outcome((state["winner"],), "pile reached", scores=scores)

    def undoable(self, before: State, seat: int, action: str) -> bool:
        return action in ("mark", "ready")

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        if view.get("seat") != seat:
            return ""
        gems = ", ".join(f"{g} (+{value(g)})" for g in view["hand"]) or "none"
        return f"Your gems: {gems}."

    def secrets(self, state: State) -> list[str]:
        return [g for h in state["hands"] for g in h] + list(state["deck"]) + [state["seed"]]

    def label(self, view: dict[str, Any], action: str) -> str:
        if action.startswith("play "):
            return f"{action} (+{value(action[5:])})"
        return action


GAME = ToyGame()


def render(view: dict[str, Any], *, seat: int | None = None) -> bytes:
    """A small deterministic picture of the view: the fixture's renderer (drawn text of the view)."""
    from renderers.common import canvas, font, to_png

    img, draw = canvas(240, 80)
    draw.text((4, 4), f"pile {view['pile']} left {view['left']}", font=font(14), fill="#000000")
    if seat is not None:
        draw.text((4, 30), " ".join(view["hand"]), font=font(12), fill="#000000")
    return to_png(img)
