"""What each Buccaneer seat may see (docs/games/buccaneer.md#hidden-information): the public view and a seat's own additions; and the table's words
from a view: what a seat owes, its name (its home port) and its private summary."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board, movement, trading
from rules.buccaneer.model import (
    CHANCE_TITLES,
    KEEPER_EFFECT,
    KEEPER_TITLE,
    chance_title,
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
#: what a seat owes, by the frame it must answer (docs/games/buccaneer.md#every-decision-is-a-step-from-a-finite-list)
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


def owed(view: dict[str, Any], seat: int) -> str:
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
        return f"choose treasure or crew ({chance_title(card)})" if card else _OWED[kind]
    return _OWED.get(str(kind), "take your turn")


def seat_name(view: dict[str, Any], seat: int) -> str:
    players = view.get("players") or []
    if seat >= len(players) or not players[seat].get("harbour"):
        return ""  # no name until a home port is chosen ("Seat 1" is the engine's placeholder, not a name)
    return board.HARBOUR[players[seat]["harbour"]]["name"]


def private_summary(view: dict[str, Any], seat: int) -> str:
    you = view.get("you") or {}
    if you.get("seat") != seat:
        return ""
    players = view.get("players") or []
    keepers = players[seat].get("keepers", []) if seat < len(players) else []
    # each kept chance card with what it does, so a player can read the cards they hold
    held = [f"• {KEEPER_TITLE[k]}: {KEEPER_EFFECT[k]}" for k in dict.fromkeys(keepers) if k in KEEPER_TITLE]
    return "\n".join([you.get("text", ""), *held])
