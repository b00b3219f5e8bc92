"""Who owes a decision in Flagon and what each seat may do, in a fixed order: the draft, starting and re-entry
squares, facing, secret planning (each seat for its lowest-index character still owing a card) and, while a card
resolves, the options of its step (``resolution.options``)."""

from __future__ import annotations

from rules.flagon import resolution
from rules.flagon.board import (
    START_FACING,
    STARTS,
    TAVERN_STARTS,
    VEC,
    add,
    dist,
    in_grid,
    is_tavern,
    name,
    rowmajor,
    ship_of,
    xy,
)
from rules.flagon.cards import ROSTER_IDS
from rules.flagon.forces import State, barrel_at, char_at, is_floor


def to_act(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase in ("plan", "replan"):
        return sorted({state["chars"][int(k)]["seat"] for k, n in state["owed"].items() if n > 0})
    pend = state["pending"]
    if phase in ("pick", "start"):
        return [state["chars"][pend["slot"]]["seat"]]
    return [state["chars"][pend["char"]]["seat"]]


def planner(state: State, seat: int) -> int | None:
    """The seat's lowest-index character still owing a planned card."""
    owing = [int(k) for k, n in state["owed"].items() if n > 0 and state["chars"][int(k)]["seat"] == seat]
    return min(owing) if owing else None


def legal_actions(state: State, seat: int) -> list[str]:
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase in ("plan", "replan"):
        i = planner(state, seat)
        c = state["chars"][i]
        return [f"plan {c['id']} {card}" for card in c["hand"]]
    pend = state["pending"]
    if pend["step"] == "pick":
        taken = {c["id"] for c in state["chars"]}
        return [f"pick {cid}" for cid in ROSTER_IDS if cid not in taken]
    if pend["step"] == "start":
        c = state["chars"][pend["slot"]]
        squares = TAVERN_STARTS if is_tavern(state) else STARTS[c["crew"]]
        return [f"start {s}" for s in squares if _vacant(state, xy(s))]
    if pend["step"] == "enter":
        return [f"enter {name(q)}" for q in entry_squares(state, pend["char"])]
    if pend["step"] == "face" and pend.get("card") is None:
        i = pend["char"]
        first = START_FACING[state["chars"][i]["crew"]]  # toward the enemy ship
        return [f"face {first}"] + [f"face {d}" for d in VEC if d != first]
    return resolution.options(state)


def _vacant(state: State, p: tuple[int, int]) -> bool:
    return is_floor(state, p) and char_at(state, p) is None and barrel_at(state, p) is None


def entry_squares(state: State, i: int) -> list[tuple[int, int]]:
    crew = state["chars"][i]["crew"]
    starts = [xy(s) for s in STARTS[crew]]
    out = [p for p in starts if _vacant(state, p)]
    if out:
        return out
    near = {add(p, d) for p in starts for d in VEC.values()}
    out = sorted((q for q in near if in_grid(q) and _vacant(state, q)), key=rowmajor)
    if out:
        return out
    deck_sqs = [(x, y) for y in range(13) for x in range(15) if ship_of((x, y)) == crew and _vacant(state, (x, y))]
    if not deck_sqs:
        return []
    best = min(min(dist(q, s) for s in starts) for q in deck_sqs)
    return [q for q in deck_sqs if min(dist(q, s) for s in starts) == best]


