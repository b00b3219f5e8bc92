"""What each Buccaneer seat may see (docs/games/buccaneer.md#hidden-information): the public view and a seat's own
additions; and the table's words from a view: what a seat owes, its name (its home port) and its private summary."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board, movement, trading
from rules.buccaneer.model import (
    CHANCE_TITLES,
    KEEPER_EFFECT,
    KEEPER_TITLE,
    colour_totals,
    count,
    fighting,
    home_value,
    is_derelict,
    keeper_names,
    sailing,
    top,
    treasure_value,
)
from rules.buccaneer.moves import to_act
from rules.core import State


def _awaiting(state: State) -> dict[str, Any]:
    seats = to_act(state)
    if state["phase"] == "over":
        return {"kind": "over", "seats": [], "info": {}}
    if state["phase"] == "choose_ports":
        return {"kind": "PORT_CHOICE", "seats": seats, "info": {}}
    frame = top(state)
    if frame is None:
        return {"kind": "TURN", "seats": seats, "info": {"stage": state["turn"]["stage"]}}
    info: dict[str, Any] = {}
    kind = frame["kind"]
    if kind == "INTERCEPT":
        info = {"mover": frame["mover"], "square": frame["square"], "end": frame["end"]}
    elif kind == "SPOILS":
        info = {"loser": frame["loser"]}
    elif kind == "GIVE":
        info = {"to": frame["to"], "n": frame["n"]}
    elif kind == "PICK":
        info = {"budget": frame["budget"]}
    elif kind in ("PLACE",):
        info = {"squares": list(frame["squares"])}
    elif kind == "PORT_TIE":
        info = {"harbours": list(frame["harbours"])}
    elif kind == "YELLOW_FEVER":
        info = {"owe": dict(frame["owe"])}
    elif kind == "LOSE":
        info = {"what": frame["what"], "n": frame["n"], "dest": frame["dest"]}
    return {"kind": kind, "seats": seats, "info": info}


def public_view(state: State) -> dict[str, Any]:
    turn = state["turn"]
    stage = "over" if state["phase"] == "over" else (turn["stage"] if turn else "choose_ports")
    frame = top(state) if state["phase"] == "play" else None
    players = []
    for seat, p in enumerate(state["players"]):
        h = p["harbour"]
        players.append(
            {
                "seat": seat,
                "name": p["name"],
                "harbour": h,
                "code": board.HARBOUR[h]["code"] if h else None,
                "colour": board.HARBOUR[h]["colour"] if h else None,
                "ship": {
                    "at": p["ship"]["at"],
                    "facing": p["ship"]["facing"],
                    "hold": list(p["ship"]["hold"]),
                    "derelict": is_derelict(state, seat) if state["phase"] != "choose_ports" else False,
                },
                "hand_size": count(p["hand"]),
                "keepers": keeper_names(p["keepers"]),
            }
        )
    harbours = []
    for hid in board.HARBOUR_IDS:
        h = state["harbours"][hid]
        docks = h["docks"]
        harbours.append(
            {
                "id": hid,
                "name": board.HARBOUR[hid]["name"],
                "code": board.HARBOUR[hid]["code"],
                "owner": h["owner"],
                "docks": {
                    "crew": dict(docks["crew"]),
                    "treasure": dict(docks["treasure"]),
                    "cards": keeper_names(docks["cards"]),
                },
                "safety": dict(h["safety"]),
                "home_value": home_value(state, hid),
                "docks_value": treasure_value(docks["treasure"]),
            }
        )
    last = state["last"]
    chance_last = None
    if last["chance"]:
        chance_last = {**last["chance"], "title": CHANCE_TITLES[last["chance"]["card"]]}
    window = state["challenge"]
    return {
        "game": "buccaneer",
        "version": 1,
        "options": dict(state["options"]),
        "phase": state["phase"],
        "step": frame["kind"] if frame else stage,
        "stage": stage,
        "round": state["round"],
        "order": list(state["order"]),
        "turn_seat": turn["seat"] if turn else None,
        "to_act": to_act(state),
        "awaiting": _awaiting(state),
        "players": players,
        "harbours": harbours,
        "treasure_island": dict(state["treasure_island"]),
        "flat": {"crew": dict(state["flat"]["crew"]), "treasure": dict(state["flat"]["treasure"])},
        "pirate_count": len(state["pirate_pile"]),
        "chance_count": len(state["chance_pile"]),
        "kidd_landed": state["kidd_landed"],
        "removed": list(state["removed"]),
        "challenge_open": {"mover": window["mover"], "k": window["k"], "n0": window["n0"]} if window else None,
        # the engine's pending steps and the move being made, all public, so a state can be rebuilt from a view
        "stack": [_public_frame(f) for f in state["stack"]],
        "record": _public_record(turn["record"] if turn else None),
        "freemoved": bool(turn and turn["freemoved"]),
        "last": {
            "move": last["move"],
            "chance": chance_last,
            "combat": last["combat"],
            "challenge": _public_challenge(last.get("challenge")),
        },
        "outcome": state["outcome"],
    }


def _public_frame(frame: dict[str, Any]) -> dict[str, Any]:
    """A pending step without what only its seat knows: which crew a "lose your best" may take, the cards given
    so far (only their number) and a free move still being planned."""
    out = dict(frame)
    if frame["kind"] == "LOSE" and frame["what"] == "crew" and frame["allowed"] is not None:
        out["allowed"] = "best"  # the kinds of the highest card held would tell the hand
    elif frame["kind"] == "GIVE":
        out["given"] = len(frame["given"])
    elif frame["kind"] == "FREE_MOVE":
        out["plan"] = None
    return out


def _public_record(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """The move of this turn without S0, the mover's sailing strength when it set out
    (docs/games/buccaneer.md#honour-and-the-challenge-window)."""
    return None if record is None else {k: v for k, v in record.items() if k != "S0"}


def _public_challenge(last: dict[str, Any] | None) -> dict[str, Any] | None:
    """Who challenged whom and the verdict; the mover's strength S0 only the challenger learns
    (docs/games/buccaneer.md#honour-and-the-challenge-window)."""
    if not last:
        return None
    return {k: v for k, v in last.items() if k != "S0"}


def seat_view(state: State, seat: int) -> dict[str, Any]:
    view = public_view(state)
    p = state["players"][seat]
    hand = p["hand"]
    black, red = colour_totals(hand)
    you: dict[str, Any] = {
        "seat": seat,
        "hand": dict(hand),
        "sailing": sailing(hand),
        "fighting": fighting(hand),
        "black": black,
        "red": red,
        "plan": None,
        "basket": None,
        "combat": None,
        "challenge": None,
        "free_plan": None,
    }
    turn = state["turn"]
    if turn and turn["seat"] == seat and state["phase"] == "play":
        if turn["plan"]:
            you["plan"] = dict(turn["plan"])
        at = p["ship"]["at"]
        if board.is_harbour(at) and at != p["harbour"]:
            you["basket"] = trading.basket_status(state, seat)
    frame = top(state) if state["phase"] == "play" else None
    if frame and frame["kind"] == "FREE_MOVE" and frame["seat"] == seat and frame["plan"]:
        you["free_plan"] = dict(frame["plan"])
    fight = state.get("combat")
    if fight and seat in fight["seats"]:
        other = fight["seats"][1] if fight["seats"][0] == seat else fight["seats"][0]
        theirs = state["players"][other]["hand"]
        you["combat"] = {
            "opponent": other,
            "opponent_hand": dict(theirs),
            "your_fs": fighting(hand),
            "their_fs": fighting(theirs),
        }
    # the seat's own facts a rebuilt state needs: its strength when its move set out, the cards it has given so far
    if turn and turn["seat"] == seat and turn["record"]:
        you["move_s0"] = turn["record"]["S0"]
    window = state["challenge"]
    if window and window["mover"] == seat:
        you["window_s0"] = window["S0"]
    if frame and frame["kind"] == "GIVE" and frame["seat"] == seat:
        you["given"] = list(frame["given"])
    challenge = state["last"].get("challenge")
    if challenge and challenge["challenger"] == seat:
        you["challenge"] = dict(challenge)
    keepers = ", ".join(keeper_names(p["keepers"])) or "none"
    hand_text = " ".join(k.upper() for k in ("b3", "b2", "b1", "r3", "r2", "r1") for _ in range(hand[k]))
    you["text"] = (
        f"Hand: {hand_text or 'none'} | sailing {you['sailing']} | fighting {you['fighting']} | keepers: {keepers}"
    )
    if state["phase"] == "play" and state["options"]["honour"] == "on" and p["harbour"]:
        you["limit"] = movement.limit(state, seat, False) if not is_derelict(state, seat) else 1
    view["you"] = you
    return view


def view(state: State, seat: int | None) -> dict[str, Any]:
    return public_view(state) if seat is None else seat_view(state, seat)


# -- the table's voice -----------------------------------------------------------------------------------
#: what a seat owes, by the frame it must answer (docs/games/buccaneer.md#every-decision-is-a-step-from-a-finite-list);
#: the frames whose words depend on the frame are worded in ``_frame_owed``
_OWED = {
    "RETURN": "return treasure your ship cannot carry (it holds at most 2)",
    "REPOINT": "point your ship (any direction)",
    "ALONGSIDE": "point your ship alongside: the same way as the other ship, or the opposite",
    "PLACE": "choose the square your ship is blown to",
    "PORT_TIE": "choose the harbour your ship is blown to",
    "FORFEIT": "pay the forfeit for your challenge: your best crew card or a treasure, to Flat Island",
}
_PLAN = "direction, distance, facing, then confirm"


def owed(view: dict[str, Any], seat: int) -> str:
    """What the seat owes, naming the step. From the public view (the board post) a plan in progress is private, so
    its steps are listed; from the seat's own view (its picker's heading) the next step of its plan is named."""
    awaiting = view.get("awaiting") or {}
    kind = awaiting.get("kind")
    if kind == "PORT_CHOICE":
        return "choose your home port"
    you = view.get("you") if (view.get("you") or {}).get("seat") == seat else None
    if kind == "TURN":
        stage = (awaiting.get("info") or {}).get("stage")
        if stage == "plan":
            return _plan_owed(you.get("plan") if you else None, "finish planning your move")
        if stage == "after":
            return "trade where your ship lies, or end your turn"
        return "sail, turn or stay (trading first where your ship lies)"
    if kind == "FREE_MOVE":
        return _plan_owed(you.get("free_plan") if you else None, "make your free move (no attack)")
    return _frame_owed(view, seat, str(kind))


def _plan_owed(plan: dict[str, Any] | None, what: str) -> str:
    """The next step of a move being planned (``you.plan``), or all of them when the plan is not in the view."""
    if not plan:
        return f"{what}: {_PLAN}"
    if plan.get("kind") == "turn":
        step = "choose the new facing, then confirm" if plan.get("face") is None else "confirm (or undo)"
    elif plan.get("k") is None:
        step = f"choose how far to sail {str(plan.get('dir')).upper()}, then a facing and confirm"
    elif plan.get("face") is None and not board.is_harbour(plan.get("end") or ""):
        step = f"choose your facing at {str(plan.get('end')).upper()}, then confirm"
    else:
        step = "confirm (or undo)"
    return f"{what}: {step}"


def _name(view: dict[str, Any], seat: Any) -> str:
    named = seat_name(view, seat) if isinstance(seat, int) else ""
    return named or "the other ship"


def _frame_owed(view: dict[str, Any], seat: int, kind: str) -> str:
    info = (view.get("awaiting") or {}).get("info") or {}
    stack = view.get("stack") or []
    frame = stack[-1] if stack and stack[-1].get("kind") == kind else {}
    if kind == "INTERCEPT":
        return f"attack {_name(view, info.get('mover'))} passing {str(info.get('square', '')).upper()}, or let it pass"
    if kind == "SPOILS":
        return f"choose your spoils from {_name(view, info.get('loser'))}: its treasure, or crew cards"
    if kind == "GIVE":
        n = info.get("n", 1)
        docks = " from your hand or Docks" if frame.get("docks") else ""
        return f"hand over {n} crew card{'s' if n != 1 else ''}{docks} to {_name(view, info.get('to'))}"
    if kind == "PICK":
        return f"pick treasure from Treasure Island worth up to {info.get('budget')} in all, or done"
    if kind == "YELLOW_FEVER":
        n = (info.get("owe") or {}).get(str(seat), 1)
        return f"bury {n} crew card{'s' if n != 1 else ''} (hand or Docks) to get down to 7"
    if kind == "BURY":
        if frame.get("cap") is not None:
            return f"bury crew cards until your crew is worth at most {frame['cap']}"
        n = frame.get("n") or 1
        return f"bury {n} crew card{'s' if n != 1 else ''} on Pirate Island"
    if kind == "LOSE":
        return _lose_owed(view, info, frame)
    if kind == "CHOICE":
        if frame.get("branch") == "gain":
            return f"choose: treasure worth up to {frame.get('budget')}, or {frame.get('n')} crew from Pirate Island"
        dest = frame.get("dest")
        where = "overboard to Flat Island" if dest == "flat" else f"to {_name(view, _int(dest))}"
        return f"choose what goes {where}: one treasure or two crew cards"
    if kind == "TARGET":
        if frame.get("card") == 20:
            return "choose the ship to swap two crew cards with, blind"
        return "name the player who must give you three crew"
    return _OWED.get(kind, "take your turn")


def _lose_owed(view: dict[str, Any], info: dict[str, Any], frame: dict[str, Any]) -> str:
    """A loss, in the words of the card that caused it: Deserter sends the best crew card to Pirate Island, card 9
    the best piece overboard to Flat Island, card 8 one treasure or two crew onto Flat Island, card 7 aboard the
    nearest ship."""
    what, n, dest = info.get("what"), info.get("n", 1), info.get("dest")
    best = frame.get("allowed") is not None
    cards = f"{n} crew card{'s' if n != 1 else ''}"
    if dest == "pile":
        if best:
            return "choose which of your best crew cards deserts to Pirate Island"
        return f"choose {cards} to send to Pirate Island"
    if dest == "flat":
        if what == "treasure":
            thing = "which of your best treasures goes" if best else "the treasure that goes"
            return f"choose {thing} overboard to Flat Island"
        if best:
            return "choose which of your best crew cards goes overboard to Flat Island"
        return f"choose {cards} to go overboard to Flat Island"
    aboard = _name(view, _int(dest))
    if what == "treasure":
        return f"choose the treasure that washes aboard {aboard}"
    return f"choose {cards} to wash aboard {aboard}"


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def seat_name(view: dict[str, Any], seat: int) -> str:
    players = view.get("players") or []
    if seat >= len(players) or not players[seat].get("harbour"):
        return ""  # no name until a home port is chosen ("Seat 1" is the engine's placeholder, not a name)
    return board.HARBOUR[players[seat]["harbour"]]["name"]


def private_summary(view: dict[str, Any], seat: int) -> str:
    """The hand with its strengths, then each kept chance card with what it does; a card that can no longer do its
    first use says so (the other Kidd's Chart after one was landed: docs/games/buccaneer.md#flat-island)."""
    you = view.get("you") or {}
    if you.get("seat") != seat:
        return ""
    hand = you.get("hand") or {}
    cards = " ".join(k.upper() for k in ("b3", "b2", "b1", "r3", "r2", "r1") for _ in range(hand.get(k, 0)))
    lines = [f"Hand: {cards or 'none'} (sailing {you.get('sailing', 0)}, fighting {you.get('fighting', 0)})"]
    players = view.get("players") or []
    keepers = players[seat].get("keepers", []) if seat < len(players) else []
    for k in dict.fromkeys(keepers):
        if k not in KEEPER_TITLE:
            continue
        landed = k == "chart" and view.get("kidd_landed")
        spent = " (a chart was landed already: this one is only worth 3 in trade)" if landed else ""
        lines.append(f"• {KEEPER_TITLE[k]}: {KEEPER_EFFECT[k]}{spent}")
    return "\n".join(lines)
