"""Fights at sea (docs/games/buccaneer.md#fights): reveal, result, spoils, the surplus return, the loser's free move
and the intercepted winner's alongside facing."""

from __future__ import annotations

from rules.buccaneer import board
from rules.buccaneer.model import (
    CREW,
    HOLD_MAX,
    Narration,
    cards_text,
    colour_totals,
    count,
    fighting,
    sort_hold,
    who,
)
from rules.core import State


def start_combat(
    state: State, *, attacker: int, attacked: int, mover: int, square: str, intercepted: bool, narration: Narration
) -> None:
    pa, pd = state["players"][attacker], state["players"][attacked]
    fa, fd = fighting(pa["hand"]), fighting(pd["hand"])
    if fa == fd:
        winner, loser, free_mover = None, None, attacked
        result = "draw"
    else:
        winner, loser = (attacker, attacked) if fa > fd else (attacked, attacker)
        free_mover = loser
        result = "win"
    state["last"]["combat"] = {
        "attacker": attacker,
        "attacked": attacked,
        "square": square,
        "result": result,
        "winner": winner,
        "spoils": None,
    }
    state["combat"] = {"seats": [attacker, attacked]}
    verdict = f"{who(state, winner)} wins" if winner is not None else "a draw"
    private = {}
    for me, other in ((attacker, attacked), (attacked, attacker)):
        mine, theirs = state["players"][me]["hand"], state["players"][other]["hand"]
        bo, ro = colour_totals(theirs)
        private[me] = (
            f"Fight: your fighting strength {fighting(mine)}; {who(state, other)} holds {cards_text(theirs)} "
            f"(Black {bo} - Red {ro}, fighting strength {fighting(theirs)})"
        )
    narration.add(f"{who(state, attacker)} attacked {who(state, attacked)} at {square.upper()}: {verdict}", private)
    stack = state["stack"]
    stack.append({"kind": "task", "op": "combat_end"})
    if intercepted and winner == mover:
        f = state["players"][attacker]["ship"]["facing"]
        stack.append(
            {"kind": "ALONGSIDE", "seat": mover, "options": [d for d in board.DIRS if d in (f, board.opposite(f))]}
        )
    stack.append({"kind": "FREE_MOVE", "seat": free_mover, "plan": None})
    if free_mover == state["turn"]["seat"]:
        state["turn"]["freemoved"] = True
    if winner is not None and spoils_options(state, loser):
        stack.append({"kind": "SPOILS", "seat": winner, "loser": loser})


def spoils_options(state: State, loser: int) -> list[str]:
    p = state["players"][loser]
    out = []
    if p["ship"]["hold"]:
        out.append("spoils treasure")
    n = count(p["hand"])
    if n >= 1:
        out.append("spoils crew 1")
    if n >= 2:
        out.append("spoils crew 2")
    return out


def take_spoils(state: State, frame: dict, action: str, narration: Narration) -> None:
    winner, loser = frame["seat"], frame["loser"]
    if action == "spoils treasure":
        taken = state["players"][loser]["ship"]["hold"]
        state["players"][loser]["ship"]["hold"] = []
        hold = state["players"][winner]["ship"]
        hold["hold"] = sort_hold(hold["hold"] + taken)
        state["last"]["combat"]["spoils"] = {"treasure": list(taken)}
        narration.add(f"{who(state, winner)} takes {who(state, loser)}'s treasure: {', '.join(taken)}")
        if len(hold["hold"]) > HOLD_MAX:
            state["stack"].append({"kind": "RETURN", "seat": winner})
        return
    n = int(action.split()[-1])
    state["last"]["combat"]["spoils"] = {"crew": n}
    state["stack"].append({"kind": "GIVE", "seat": loser, "to": winner, "n": n, "docks": False, "given": []})


def return_actions(state: State, frame: dict) -> list[str]:
    hold = state["players"][frame["seat"]]["ship"]["hold"]
    return [f"return {t}" for t in sort_hold(list(dict.fromkeys(hold)))]


def return_piece(state: State, frame: dict, piece: str, narration: Narration) -> bool:
    """Send one surplus piece to Treasure Island; True when the hold is back to two."""
    hold = state["players"][frame["seat"]]["ship"]["hold"]
    hold.remove(piece)
    state["treasure_island"][piece] += 1
    narration.add(f"{who(state, frame['seat'])} returns {piece} to Treasure Island (a ship carries at most 2)")
    return len(hold) <= HOLD_MAX


def give_actions(state: State, frame: dict) -> list[str]:
    hand = state["players"][frame["seat"]]["hand"]
    out = [f"give {k}" for k in CREW if hand[k]]
    if frame.get("docks"):
        docks = state["harbours"][state["players"][frame["seat"]]["harbour"]]["docks"]["crew"]
        out += [f"give docks {k}" for k in CREW if docks[k]]
    return out


def give_card(state: State, frame: dict, action: str, narration: Narration) -> bool:
    """Hand one card to the receiver (spoils or card 2); True when the frame is finished."""
    words = action.split()
    kind = words[-1]
    giver, taker = frame["seat"], frame["to"]
    if words[1] == "docks":
        pool = state["harbours"][state["players"][giver]["harbour"]]["docks"]["crew"]
    else:
        pool = state["players"][giver]["hand"]
    pool[kind] -= 1
    state["players"][taker]["hand"][kind] += 1
    frame["given"].append(kind)
    frame["n"] -= 1
    done = frame["n"] == 0 or not give_actions(state, frame)
    given = frame["given"]
    # The receiver's hand changes with every card, so it hears of every card (docs/games/buccaneer.md#private-news);
    # the cards handed over in one apply (a forced run) are one line.
    run = [kind]
    if narration.gift is not None and narration.gift[:2] == (giver, taker):
        run = [*narration.gift[2], kind]
        narration.events.pop()
    got = f"{who(state, giver)} gives you {cards_text({k: run.count(k) for k in CREW})}"
    if done:
        text = cards_text({k: given.count(k) for k in CREW})
        whole = f"{got}: you received {text} in all" if len(given) > len(run) else got
        narration.add(
            f"{who(state, giver)} gives {len(given)} crew to {who(state, taker)}",
            {giver: f"You gave {text}", taker: whole},
            echo=giver,
        )
    else:
        narration.add(None, {taker: f"{got} ({len(given)} of {len(given) + frame['n']})"})
        narration.gift = (giver, taker, run)
    return done


def alongside_actions(frame: dict) -> list[str]:
    return [f"face {d}" for d in frame["options"]]
