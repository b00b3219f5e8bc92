"""Who owes a decision and what each seat may do: everyone at once in the ``ready`` phase, then the seat whose
turn it is: a gem it holds, ``mark``, ``draw`` while the deck lasts, ``end``."""

from __future__ import annotations

from rules.core import Action, State


def to_act(state: State) -> list[int]:
    if state["winner"] is not None:
        return []
    if state["phase"] == "ready":
        return [s for s in range(state["players"]) if not state["ready"][s]]
    return [state["turn"]]


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state["phase"] == "ready":
        return ["ready"]
    acts = [f"play {g}" for g in sorted(state["hands"][seat])]
    acts.append("mark")
    if state["deck"]:
        acts.append("draw")
    acts.append("end")
    return acts
