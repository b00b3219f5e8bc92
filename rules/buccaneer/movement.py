"""Sailing (docs/games/buccaneer.md#turns-and-moves): move starters, the revisable plan, walking the line with
interceptions, and the loser's free move."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board
from rules.buccaneer.combat import start_combat
from rules.buccaneer.model import Narration, count, is_derelict, order_after, sailing, seat_of_ship, ships_at, who
from rules.core import IllegalAction, State


def limit(state: State, seat: int, free: bool) -> int:
    """The longest distance offered: free moves up to max(S, 1), drifts 1, turn moves per the honour option."""
    hand = state["players"][seat]["hand"]
    if free:
        return max(sailing(hand), 1)
    if is_derelict(state, seat):
        return 1
    if state["options"]["honour"] == "on":
        return 3 * count(hand)
    return sailing(hand)


def sail_dirs(state: State, seat: int, free: bool) -> list[str]:
    """Directions offered to ``sail`` before checking that some distance is legal."""
    ship = state["players"][seat]["ship"]
    at = ship["at"]
    if board.is_harbour(at):
        return list(board.EXITS[at])
    if free or is_derelict(state, seat) or ship["facing"] is None:
        return list(board.DIRS)
    return [ship["facing"]]


def go_actions(state: State, seat: int, d: str, free: bool) -> list[str]:
    """Every legal ``go k`` / ``go k attack <harbour>`` for direction ``d``, by k, plain first."""
    at = state["players"][seat]["ship"]["at"]
    can_attack = not free and not is_derelict(state, seat)
    out: list[str] = []
    for k, end in enumerate(board.RAYS[at][d][: limit(state, seat, free)], start=1):
        if board.is_harbour(end):
            out.append(f"go {k}")
            continue
        there = ships_at(state, end, exclude=seat)
        if len(there) <= 1:
            out.append(f"go {k}")
        if can_attack and len(there) <= 2:
            out.extend(f"go {k} attack {state['players'][s]['harbour']}" for s in _clockwise(state, there))
    return out


def _clockwise(state: State, seats: list[int]) -> list[int]:
    return sorted(seats, key=lambda s: board.HARBOUR_IDS.index(state["players"][s]["harbour"]))


def start_moves(state: State, seat: int) -> list[str]:
    """``sail <dir>``, ``turn`` and ``stay`` as offered in the start stage."""
    ship = state["players"][seat]["ship"]
    at = ship["at"]
    out = [f"sail {d}" for d in sail_dirs(state, seat, False) if go_actions(state, seat, d, False)]
    in_harbour = board.is_harbour(at)
    if not in_harbour:
        out.append("turn")
    own_home = at == state["players"][seat]["harbour"]
    if own_home or is_derelict(state, seat) or not out:
        out.append("stay")
    return out


def face_options(state: State, seat: int, plan: dict[str, Any]) -> list[str]:
    ship = state["players"][seat]["ship"]
    if plan["kind"] == "turn":
        return [d for d in board.DIRS if d != ship["facing"]]
    if board.is_harbour(plan["end"]):
        return []
    if plan["target"]:
        f = state["players"][seat_of_ship(state, plan["target"])]["ship"]["facing"]
        return [d for d in board.DIRS if d in (f, board.opposite(f))]
    return list(board.DIRS)


def plan_complete(state: State, seat: int, plan: dict[str, Any]) -> bool:
    if plan["kind"] == "turn":
        return plan["face"] is not None
    if plan["k"] is None:
        return False
    return plan["face"] is not None or board.is_harbour(plan["end"])


def plan_actions(state: State, seat: int, plan: dict[str, Any], free: bool) -> list[str]:
    if plan["kind"] == "sail" and plan["k"] is None:
        out = go_actions(state, seat, plan["dir"], free)
    elif not plan_complete(state, seat, plan):
        out = [f"face {d}" for d in face_options(state, seat, plan)]
    else:
        out = ["confirm"]
    out.append("undo")
    return out


def plan_step(state: State, seat: int, plan: dict[str, Any] | None, action: str) -> dict[str, Any] | None:
    """The plan after a legal plan action (``sail``/``turn``/``go``/``face``/``undo``); None means back to start."""
    words = action.split()
    if words[0] == "sail":
        return {"kind": "sail", "dir": words[1], "k": None, "target": None, "end": None, "face": None}
    if words[0] == "turn":
        return {"kind": "turn", "dir": None, "k": None, "target": None, "end": None, "face": None}
    assert plan is not None
    plan = dict(plan)
    if words[0] == "go":
        k = int(words[1])
        plan["k"] = k
        plan["end"] = board.RAYS[state["players"][seat]["ship"]["at"]][plan["dir"]][k - 1]
        plan["target"] = words[3] if len(words) == 4 else None
    elif words[0] == "face":
        plan["face"] = words[1]
    elif words[0] == "undo":
        if plan["face"] is not None:
            plan["face"] = None
        elif plan["kind"] == "sail" and plan["k"] is not None:
            plan.update(k=None, end=None, target=None, face=None)
        else:
            return None
    return plan


def explain_go(state: State, seat: int, plan: dict[str, Any], action: str, free: bool) -> IllegalAction:
    """The precise refusal of an illegal ``go``, with its code (docs/games/buccaneer.md#the-action-language)."""
    words = action.split()
    if len(words) < 2 or not words[1].isdigit():
        return IllegalAction("bad_syntax", "Write the distance as a number, e.g. `go 3`.")
    k = int(words[1])
    at = state["players"][seat]["ship"]["at"]
    d = plan["dir"]
    top = limit(state, seat, free)
    if k < 1 or k > top:
        hand = state["players"][seat]["hand"]
        if not free and not is_derelict(state, seat) and state["options"]["honour"] == "on":
            msg = f"{count(hand)} crew cards can never sail more than {top}; choose `go 1` to `go {top}`."
        elif is_derelict(state, seat):
            msg = "a derelict drifts exactly 1 square; choose `go 1`."
        else:
            msg = f"your sailing strength is {top}; choose `go 1` to `go {top}`."
        return IllegalAction("too_far", msg)
    why = board.blocker(at, d, k)
    if why:
        return IllegalAction("blocked", f"{why}; choose a shorter distance or `undo`.")
    attacking = len(words) > 2
    if attacking and (free or is_derelict(state, seat)):
        return IllegalAction("no_attack", f"{'a free move' if free else 'a derelict'} may not attack; use `go {k}`.")
    end = board.RAYS[at][d][k - 1]
    there = ships_at(state, end, exclude=seat)
    if len(there) >= 2 and not attacking:
        return IllegalAction(
            "occupied", f"{end.upper()} already holds two ships: you may end there only to attack one of them."
        )
    legal = go_actions(state, seat, d, free)
    return IllegalAction("no_such_action", f"`{action}` is not possible here; choose one of: {', '.join(legal)}.")


# -- execution ------------------------------------------------------------------------------------------
def record_move(
    state: State, seat: int, kind: str, start: str, end: str, d: str | None, k: int, free: bool, n0: int
) -> None:
    state["last"]["move"] = {
        "seat": seat,
        "kind": kind,
        "from": start,
        "to": end,
        "dir": d,
        "k_travelled": k,
        "n0": n0,
        "free": free,
    }


def place(state: State, seat: int, at: str, facing: str | None) -> None:
    ship = state["players"][seat]["ship"]
    ship["at"] = at
    ship["facing"] = None if board.is_harbour(at) else facing


def describe_end(state: State, seat: int, end: str, facing: str | None, target: int | None) -> str:
    if board.is_harbour(end):
        return f"into {board.HARBOUR[end]['name']}"
    text = f"to {end.upper()}, facing {facing.upper() if facing else '-'}"
    others = ships_at(state, end, exclude=seat)
    if target is not None:
        text += f", and attacks {who(state, target)}"
    elif others:
        text += ", beside " + " and ".join(who(state, s) for s in others)
    return text


def confirm_turn_move(state: State, seat: int, narration: Narration) -> None:
    """Execute the confirmed plan of the active seat: push the walk and its continuations
    (docs/games/buccaneer.md#interceptions)."""
    turn = state["turn"]
    plan = turn["plan"]
    p = state["players"][seat]
    hand = p["hand"]
    turn["plan"] = None
    turn["stage"] = "moving"
    start = p["ship"]["at"]
    turn["record"] = {
        "kind": plan["kind"],
        "from": start,
        "dir": plan["dir"],
        "k_planned": plan["k"] or 0,
        "S0": sailing(hand),
        "n0": count(hand),
        "derelict": is_derelict(state, seat),
        "k_travelled": 0,
    }
    stack = state["stack"]
    stack.append({"kind": "task", "op": "after", "seat": seat})
    stack.append({"kind": "task", "op": "arrive", "seat": seat, "free": False})
    if plan["kind"] == "turn":
        p["ship"]["facing"] = plan["face"]
        record_move(state, seat, "turn", start, start, plan["face"], 0, False, count(hand))
        narration.add(f"{who(state, seat)} turned to face {plan['face'].upper()} at {start.upper()}")
        return
    stack.append(
        {
            "kind": "task",
            "op": "walk",
            "seat": seat,
            "from": start,
            "dir": plan["dir"],
            "k": plan["k"],
            "face": plan["face"],
            "target": plan["target"],
            "i": 1,
            "asked": [],
        }
    )


def run_walk(state: State, frame: dict[str, Any], narration: Narration) -> None:
    """Walk the line square by square; every non-derelict ship passed may intercept
    (docs/games/buccaneer.md#interceptions)."""
    seat = frame["seat"]
    path = board.RAYS[frame["from"]][frame["dir"]]
    while frame["i"] < frame["k"]:
        q = path[frame["i"] - 1]
        for s in order_after(state, seat):
            if state["players"][s]["ship"]["at"] == q and not is_derelict(state, s) and s not in frame["asked"]:
                frame["asked"].append(s)
                state["stack"].append(frame)
                end = path[frame["k"] - 1]
                state["stack"].append({"kind": "INTERCEPT", "seat": s, "mover": seat, "square": q, "end": end})
                narration.add(
                    f"{who(state, s)} may attack {who(state, seat)} passing {q.upper()} (bound for {end.upper()})"
                )
                return
        frame["i"] += 1
        frame["asked"] = []
    end = path[frame["k"] - 1]
    target = seat_of_ship(state, frame["target"]) if frame["target"] else None
    text = describe_end(state, seat, end, frame["face"], target)
    place(state, seat, end, frame["face"])
    record = state["turn"]["record"]
    record["k_travelled"] = frame["k"]
    record_move(state, seat, "sail", frame["from"], end, frame["dir"], frame["k"], False, record["n0"])
    narration.add(f"{who(state, seat)} sailed {frame['k']} {frame['dir'].upper()} from {_where(frame['from'])} {text}")
    if target is not None:
        start_combat(
            state, attacker=seat, attacked=target, mover=seat, square=end, intercepted=False, narration=narration
        )


def _where(at: str) -> str:
    return board.HARBOUR[at]["name"] if board.is_harbour(at) else at.upper()


def intercepted(state: State, interceptor: int, frame: dict[str, Any], narration: Narration) -> None:
    """The passed ship attacks: the mover stops on the square and the fight starts
    (docs/games/buccaneer.md#interceptions)."""
    seat = frame["seat"]
    q = board.RAYS[frame["from"]][frame["dir"]][frame["i"] - 1]
    place(state, seat, q, frame["dir"])
    record = state["turn"]["record"]
    record["k_travelled"] = frame["i"]
    record_move(state, seat, "sail", frame["from"], q, frame["dir"], frame["i"], False, record["n0"])
    narration.add(f"{who(state, interceptor)} stops {who(state, seat)} at {q.upper()}")
    start_combat(
        state, attacker=interceptor, attacked=seat, mover=seat, square=q, intercepted=True, narration=narration
    )


def free_move_actions(state: State, frame: dict[str, Any]) -> list[str]:
    seat = frame["seat"]
    plan = frame["plan"]
    if plan is None:
        return [f"sail {d}" for d in sail_dirs(state, seat, True) if go_actions(state, seat, d, True)]
    return plan_actions(state, seat, plan, True)


def confirm_free_move(state: State, frame: dict[str, Any], narration: Narration) -> None:
    seat = frame["seat"]
    plan = frame["plan"]
    start = state["players"][seat]["ship"]["at"]
    text = describe_end(state, seat, plan["end"], plan["face"], None)
    place(state, seat, plan["end"], plan["face"])
    record_move(
        state, seat, "sail", start, plan["end"], plan["dir"], plan["k"], True, count(state["players"][seat]["hand"])
    )
    narration.add(
        f"{who(state, seat)} (free move) sailed {plan['k']} {plan['dir'].upper()} from {_where(start)} {text}"
    )
    state["stack"].append({"kind": "task", "op": "arrive", "seat": seat, "free": True})
