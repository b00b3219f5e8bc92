"""The toy's state and how it changes: the deal, one legal action, the end."""

from __future__ import annotations

from rules import core
from rules.core import Event, Outcome, State
from tests.host.toygame.board import ACTIONS_PER_TURN, GEMS, NAMES, TARGET, value


def new_state(players: int, opts: dict[str, str], seed: str) -> State:
    state: State = {"seed": seed, "rng_n": 0, "players": players, "options": opts}
    deck = list(GEMS)
    core.rng(state).shuffle(deck)
    state.update(
        hands=[[deck.pop(), deck.pop()] for _ in range(players)],
        deck=deck,
        phase="ready",
        ready=[False] * players,
        turn=0,
        left=ACTIONS_PER_TURN,
        pile=0,
        played=[],
        marks=[0] * players,
        winner=None,
        last=None,
    )
    return state


def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """A legal action (``Game.apply`` checked it) applied to a copy of ``state``."""
    after = core.clone(state)
    name = NAMES[seat]
    if action == "ready":
        after["ready"][seat] = True
        if all(after["ready"]):
            after["phase"] = "turns"
        after["last"] = {"seat": seat, "action": "ready"}
        return after, [Event(f"{name} is ready.", actor=seat)]
    events: list[Event] = []
    if action.startswith("play "):
        gem = action[5:]
        after["hands"][seat].remove(gem)
        after["played"].append(gem)
        after["pile"] += value(gem)
        events.append(Event(f"{name} played {gem} (+{value(gem)}), pile {after['pile']}.", actor=seat))
        if after["pile"] >= TARGET[after["options"]["length"]]:
            after["winner"] = seat
            events.append(Event(f"{name} wins.", actor=seat))
    elif action == "mark":
        after["marks"][seat] += 1
        events.append(Event(f"{name} made a mark.", actor=seat))
    elif action == "draw":
        gem = after["deck"].pop(core.rng(after).randrange(len(after["deck"])))
        after["hands"][seat].append(gem)
        events.append(Event(f"{name} drew a gem.", {seat: f"You drew {gem}."}))
    after["left"] -= 1
    after["last"] = {"seat": seat, "action": action.split(" ")[0]}
    if after["winner"] is None and (action == "end" or after["left"] == 0):
        after["turn"] = (seat + 1) % after["players"]
        after["left"] = ACTIONS_PER_TURN
        if action == "end":
            events.append(Event(f"{name} ended the turn.", actor=seat))
    return after, events


def outcome(state: State) -> Outcome | None:
    if state["winner"] is None:
        return None
    scores = tuple(float(m) for m in state["marks"])
    return Outcome((state["winner"],), "pile reached", scores=scores)
