"""Buccaneer's state and how it changes (docs/games/buccaneer.md#turns-and-moves, docs/games/buccaneer.md#challenges-and-the-end): the initial state, applying one legal
action, running the engine's own tasks and forced steps, the challenge window, the win check and the outcome."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board, chance, combat, movement, trading
from rules.buccaneer.model import (
    CREW,
    CREW_VALUE,
    TREASURE,
    TREASURE_PER_KIND,
    Narration,
    cards_text,
    count,
    credit,
    empty_crew,
    empty_treasure,
    hold_value,
    home_value,
    order_from,
    sailing,
    top,
    who,
)
from rules.buccaneer.moves import frame_actions
from rules.buccaneer.setup import choosing_seat, new_turn, start_play, take_port
from rules.core import Outcome, State, clone, rng

#: frames the engine settles on its own when they leave one choice (docs/games/buccaneer.md#forced-steps)
FORCED = {
    "SPOILS",
    "RETURN",
    "GIVE",
    "TARGET",
    "CHOICE",
    "PLACE",
    "PORT_TIE",
    "LOSE",
    "BURY",
    "YELLOW_FEVER",
    "FORFEIT",
    "REPOINT",
}
WINDOW_VERBS = {"unload", "load", "safe", "leave", "pickup", "offer", "want", "unoffer", "unwant", "trade", "cancel"}
WINDOW_VERBS |= {"flat", "land"}


# -- setup (docs/games/buccaneer.md#setup) -----------------------------------------------------------------------------
def new_state(players: int, options: dict[str, str], seed: str) -> State:
    state: State = {
        "options": dict(options),
        "seed": seed,
        "rng_n": 0,
        "phase": "choose_ports",
        "players": [
            {
                "name": f"Seat {i + 1}",
                "harbour": None,
                "hand": empty_crew(),
                "keepers": [],
                "ship": {"at": None, "facing": None, "hold": []},
            }
            for i in range(players)
        ],
        "order": [],
        "round": 0,
        "turn_index": 0,
        "harbours": {
            hid: {
                "owner": None,
                "docks": {"crew": empty_crew(), "treasure": empty_treasure(), "cards": []},
                "safety": empty_treasure(),
            }
            for hid in board.HARBOUR_IDS
        },
        "treasure_island": dict.fromkeys(TREASURE, TREASURE_PER_KIND),
        "chance_pile": [],
        "pirate_pile": [],
        "flat": {"crew": empty_crew(), "treasure": empty_treasure()},
        "kidd_landed": False,
        "removed": [],
        "stack": [],
        "turn": None,
        "challenge": None,
        "combat": None,
        "last": {"move": None, "chance": None, "combat": None, "challenge": None},
        "outcome": None,
    }
    if options["ports"] == "random":
        free = list(board.HARBOUR_IDS)
        rng(state).shuffle(free)
        for seat in range(players):
            take_port(state, seat, free[seat])
        start_play(state)
    return state


# -- applying ----------------------------------------------------------------------------------------------------------
def apply(state: State, seat: int, action: str) -> tuple[State, list]:
    """Apply a legal action (``Game.apply`` checked it) to a copy of ``state``."""
    after = clone(state)
    N = Narration()
    advance(after, seat, action, N)
    return after, credit(state, after, N.events)


def advance(state: State, seat: int, action: str, N: Narration) -> None:
    """``apply`` in place: the state itself changes (the ``hard`` search's rollouts own theirs)."""
    if action == "challenge":
        do_challenge(state, seat, N)
    else:
        state["challenge"] = None
        dispatch(state, seat, action, N)
    run(state, N, seat)


def dispatch(state: State, seat: int, action: str, N: Narration) -> None:
    if state["phase"] == "choose_ports":
        harbour = action.split()[1]
        take_port(state, seat, harbour)
        N.add(f"{state['players'][seat]['name']} takes {board.HARBOUR[harbour]['name']} as home port")
        if choosing_seat(state) is None:
            start_play(state)
            dealt = {x: f"You are dealt {cards_text(p['hand'])}" for x, p in enumerate(state["players"])}
            N.add(f"The game begins: {who(state, state['order'][0])} deals and moves first", dealt)
        return
    frame = top(state)
    if frame is None:
        turn_step(state, seat, action, N)
        return
    kind = frame["kind"]
    words = action.split()
    stack = state["stack"]
    if kind == "INTERCEPT":
        stack.pop()
        if action == "attack":
            walk = stack.pop()
            movement.intercepted(state, seat, walk, N)
        else:
            N.add(f"{who(state, seat)} lets {who(state, frame['mover'])} pass")
    elif kind == "SPOILS":
        stack.pop()
        combat.take_spoils(state, frame, action, N)
    elif kind == "RETURN":
        if combat.return_piece(state, frame, words[1], N):
            stack.pop()
    elif kind == "GIVE":
        if combat.give_card(state, frame, action, N):
            stack.pop()
    elif kind == "FREE_MOVE":
        if action == "confirm":
            stack.pop()
            movement.confirm_free_move(state, frame, N)
        else:
            frame["plan"] = movement.plan_step(state, seat, frame["plan"], action)
    elif kind in ("ALONGSIDE", "REPOINT"):
        stack.pop()
        state["players"][seat]["ship"]["facing"] = words[1]
        N.add(f"{who(state, seat)} points {words[1].upper()}")
    elif kind == "CHOICE":
        stack.pop()
        chance.choose(state, frame, words[1], N)
    elif kind == "PICK":
        if action == "done":
            stack.pop()
            N.add(f"{who(state, seat)} takes no more treasure")
        else:
            chance.pick(state, frame, words[1], N)
    elif kind == "PLACE":
        stack.pop()
        chance.move_to(state, seat, words[1], N)
    elif kind == "PORT_TIE":
        stack.pop()
        chance.move_to(state, seat, words[1], N)
    elif kind == "TARGET":
        stack.pop()
        chance.target_chosen(state, frame, words[1], N)
    elif kind == "LOSE":
        if chance.lose(state, frame, words[1], N):
            stack.pop()
    elif kind == "BURY":
        chance.bury_one(state, seat, words[1], False, N)
        if frame.get("n") is not None:
            frame["n"] -= 1
        if chance.bury_done(state, frame):
            stack.pop()
    elif kind == "YELLOW_FEVER":
        chance.bury_one(state, seat, words[-1], words[1] == "docks", N)
        frame["owe"][str(seat)] -= 1
        if not chance.fever_seats(frame):
            stack.pop()
    elif kind == "FORFEIT":
        stack.pop()
        forfeit(state, seat, words[1], N)
    else:  # pragma: no cover - every frame kind is listed above
        raise AssertionError(kind)


def turn_step(state: State, seat: int, action: str, N: Narration) -> None:
    turn = state["turn"]
    verb = action.split()[0]
    if verb in WINDOW_VERBS:
        window_step(state, seat, action, N)
    elif verb in ("sail", "turn", "go", "face", "undo"):
        turn["plan"] = movement.plan_step(state, seat, turn["plan"], action)
        turn["stage"] = "start" if turn["plan"] is None else "plan"
        if verb == "sail" or verb == "turn":
            N.add(f"{who(state, seat)} is planning a move")
    elif verb == "confirm":
        movement.confirm_turn_move(state, seat, N)
    elif verb == "stay":
        at = state["players"][seat]["ship"]["at"]
        where = board.HARBOUR[at]["name"] if board.is_harbour(at) else at.upper()
        N.add(f"{who(state, seat)} stays at {where}")
        end_turn(state, N)
    elif verb == "end":
        N.add(f"{who(state, seat)} ends its turn")
        end_turn(state, N)


def window_step(state: State, seat: int, action: str, N: Narration) -> None:
    verb = action.split()[0]
    if verb in ("unload", "load", "safe", "leave", "pickup"):
        trading.home_step(state, seat, action, N)
    elif verb in ("offer", "want", "unoffer", "unwant"):
        was_empty = not (state["turn"]["basket"]["give"] or state["turn"]["basket"]["get"])
        trading.basket_step(state, seat, action)
        if was_empty:
            at = state["players"][seat]["ship"]["at"]
            N.add(f"{who(state, seat)} is trading at {board.HARBOUR[at]['name']}")
    elif verb == "trade":
        trading.do_trade(state, seat, N)
    elif verb == "cancel":
        state["turn"]["basket"] = {"give": {}, "get": {}}
        N.add(f"{who(state, seat)} calls off the trade")
    elif verb == "flat":
        trading.flat_step(state, seat, action, N)
    elif verb == "land":
        trading.land_chart(state, seat, N)


# -- the engine's own steps --------------------------------------------------------------------------------------------
def run(state: State, N: Narration, actor: int) -> None:
    """Run tasks and forced steps until a seat owes a real decision, checking for a winner after each."""
    while state["phase"] == "play":
        if win_check(state, actor, N):
            return
        frame = top(state)
        if frame is None:
            return
        if frame["kind"] == "task":
            state["stack"].pop()
            run_task(state, frame, N)
            continue
        forced = forced_step(state, frame, N)
        if forced is None:
            return
        if forced:
            seat, action = forced
            dispatch(state, seat, action, N)


def forced_step(state: State, frame: dict[str, Any], N: Narration) -> tuple[int, str] | None | bool:
    """The action the engine takes for a seat, False after settling a frame itself, None to wait."""
    kind = frame["kind"]
    if kind == "FREE_MOVE" and frame["plan"] is None and not movement.free_move_actions(state, frame):
        state["stack"].pop()
        N.add(f"{who(state, frame['seat'])} cannot move and stays")
        return False
    if kind == "PICK" and chance.pick_actions(state, frame) == ["done"]:
        state["stack"].pop()
        return False
    if kind not in FORCED:
        return None
    if kind == "YELLOW_FEVER":
        for seat in order_from(state, state["order"][0]):
            acts = chance.fever_actions(state, frame, seat)
            if len(acts) == 1:
                return seat, acts[0]
        return None
    seat = frame["seat"]
    acts = frame_actions(state, frame, seat)
    if not acts:
        state["stack"].pop()
        return False
    if len(acts) == 1:
        return seat, acts[0]
    # Rule 2: handing over, losing or burying m cards from a pool of m or fewer needs no choice.
    p = state["players"][seat]
    if kind == "GIVE":
        pool = count(p["hand"]) + (count(state["harbours"][p["harbour"]]["docks"]["crew"]) if frame["docks"] else 0)
        if pool <= frame["n"]:
            return seat, acts[0]
    if kind == "LOSE" and frame["what"] == "crew" and count(p["hand"]) <= frame["n"]:
        return seat, acts[0]
    if kind == "BURY" and frame.get("n") is not None and count(p["hand"]) <= frame["n"]:
        return seat, acts[0]
    return None


def run_task(state: State, frame: dict[str, Any], N: Narration) -> None:
    op = frame["op"]
    if op == "walk":
        movement.run_walk(state, frame, N)
    elif op == "arrive":
        seat = frame["seat"]
        if not frame["free"] and state["turn"]["freemoved"]:
            return
        if state["players"][seat]["ship"]["at"] in board.TREASURE_COAST_SET:
            chance.draw(state, seat, N)
    elif op == "after":
        seat = frame["seat"]
        if not state["turn"]["freemoved"] and trading.window_actions(state, seat):
            state["turn"]["stage"] = "after"
        else:
            end_turn(state, N)
    elif op == "storm":
        chance.storm(state, frame["seat"], N)
    elif op == "bury_cap":
        hand = state["players"][frame["seat"]]["hand"]
        if sailing(hand) > frame["cap"]:
            state["stack"].append({"kind": "BURY", "seat": frame["seat"], "n": None, "cap": frame["cap"]})
    elif op == "recruit_if":
        if sailing(state["players"][frame["seat"]]["hand"]) <= 7:
            chance.gain_crew(state, frame["seat"], 2, N)
    elif op == "combat_end":
        state["combat"] = None
    elif op == "chance_back":
        state["chance_pile"].append(frame["card"])
    else:  # pragma: no cover
        raise AssertionError(op)


def end_turn(state: State, N: Narration) -> None:
    turn = state["turn"]
    rec = turn["record"]
    if (
        state["options"]["honour"] == "on"
        and rec
        and rec["kind"] == "sail"
        and not rec["derelict"]
        and rec["k_travelled"] > rec["n0"]
    ):
        state["challenge"] = {"mover": turn["seat"], "k": rec["k_travelled"], "n0": rec["n0"], "S0": rec["S0"]}
    order = state["order"]
    nxt = (state["turn_index"] + 1) % len(order)
    if nxt == 0:
        limit = int(state["options"]["round_limit"])
        if limit and state["round"] >= limit:
            state["challenge"] = None
            finish(state, [], "round_limit")
            N.add("Round limit reached: no winner")
            return
        state["round"] += 1
    state["turn_index"] = nxt
    state["turn"] = new_turn(order[nxt])


# -- challenges (docs/games/buccaneer.md#honour-and-the-challenge-window) ----------------------------------------------
def do_challenge(state: State, seat: int, N: Narration) -> None:
    window = state["challenge"]
    state["challenge"] = None
    mover = window["mover"]
    private = {seat: f"{who(state, mover)}'s sailing strength was {window['S0']} for a move of {window['k']}"}
    verdict = "exceeded" if window["k"] > window["S0"] else "within"
    state["last"]["challenge"] = {
        "challenger": seat,
        "mover": mover,
        "k": window["k"],
        "S0": window["S0"],
        "verdict": verdict,
    }
    if verdict == "exceeded":
        hand = state["players"][mover]["hand"]
        if count(hand):
            # the mover's hand changes through another seat's move: it is told which cards went
            private[mover] = f"Your whole hand goes to Pirate Island: {cards_text(hand)}"
        for k in CREW:
            state["pirate_pile"].extend([k] * hand[k])
            hand[k] = 0
        N.add(
            f"{who(state, seat)} challenges {who(state, mover)}'s move: exceeded; {who(state, mover)} loses all crew to Pirate Island",
            private,
        )
    else:
        N.add(f"{who(state, seat)} challenges {who(state, mover)}'s move: within; the challenger must pay", private)
        state["stack"].append({"kind": "FORFEIT", "seat": seat})


def forfeit(state: State, seat: int, item: str, N: Narration) -> None:
    p = state["players"][seat]
    if item in CREW_VALUE:
        p["hand"][item] -= 1
        state["flat"]["crew"][item] += 1
        N.add(f"{who(state, seat)} forfeits {item.upper()} to Flat Island")
    else:
        p["ship"]["hold"].remove(item)
        state["flat"]["treasure"][item] += 1
        N.add(f"{who(state, seat)} forfeits {item} to Flat Island")


# -- the end -----------------------------------------------------------------------------------------------------------
def win_check(state: State, actor: int, N: Narration) -> bool:
    start = actor if actor in state["order"] else state["order"][0]
    for seat in order_from(state, start):
        p = state["players"][seat]
        if p["ship"]["at"] == p["harbour"] and home_value(state, p["harbour"]) >= 20:
            finish(state, [seat], "landed_20")
            N.add(f"{who(state, seat)} wins with {home_value(state, p['harbour'])} landed")
            return True
    return False


def finish(state: State, winners: list[int], reason: str) -> None:
    # a card whose resolution the end cut short still goes back under the pile (all 28 stay accounted for)
    state["chance_pile"].extend(f["card"] for f in state["stack"] if f["kind"] == "task" and f["op"] == "chance_back")
    state["phase"] = "over"
    state["stack"] = []
    state["challenge"] = None
    state["combat"] = None
    scores = [home_value(state, p["harbour"]) for p in state["players"]]
    ranking = sorted(
        range(len(state["players"])),
        key=lambda i: (-scores[i], -hold_value(state["players"][i]["ship"]["hold"]), state["order"].index(i)),
    )
    state["outcome"] = {"winners": winners, "reason": reason, "scores": scores, "ranking": ranking}


def outcome(state: State) -> Outcome | None:
    out = state["outcome"]
    if out is None:
        return None
    winners, scores = tuple(out["winners"]), tuple(float(x) for x in out["scores"])
    # ratings rank by treasure landed (the winner first), equal landed values tied; so a game stopped by the
    # round limit, which has no winner, is still rated
    key = [(s not in winners, -scores[s]) for s in range(len(scores))]
    places = tuple(1 + sum(k < key[s] for k in key) for s in range(len(scores)))
    return Outcome(winners, out["reason"], scores, tuple(out["ranking"]), places=places)
