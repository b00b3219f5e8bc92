"""The turn machine (spec §3.1–§3.3, §3.14, §3.15): who owes what, the legal actions of every frame, applying
one action, running the engine's own tasks and forced steps, the challenge window and the win check."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board, chance, combat, movement, trading
from rules.buccaneer.model import (
    CREW,
    CREW_VALUE,
    TREASURE,
    Narration,
    cards_text,
    count,
    credit,
    hold_value,
    home_value,
    order_from,
    sailing,
    who,
)
from rules.buccaneer.setup import choosing_seat, free_ports, new_turn, start_play, take_port
from rules.core import IllegalAction, State, clone

#: frames the engine settles on its own when they leave one choice (§3.2 forced steps, rule 1)
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


# -- who acts -------------------------------------------------------------------------------------------
def top(state: State) -> dict[str, Any] | None:
    return state["stack"][-1] if state["stack"] else None


def to_act(state: State) -> list[int]:
    if state["phase"] == "over":
        return []
    if state["phase"] == "choose_ports":
        seat = choosing_seat(state)
        return [] if seat is None else [seat]
    frame = top(state)
    if frame is None:
        return [state["turn"]["seat"]]
    if frame["kind"] == "YELLOW_FEVER":
        return chance.fever_seats(frame)
    return [frame["seat"]]


def frame_actions(state: State, frame: dict[str, Any], seat: int) -> list[str]:
    kind = frame["kind"]
    if kind == "YELLOW_FEVER":
        return chance.fever_actions(state, frame, seat)
    if seat != frame["seat"]:
        return []
    if kind == "INTERCEPT":
        return ["attack", "pass"]
    if kind == "SPOILS":
        return combat.spoils_options(state, frame["loser"])
    if kind == "RETURN":
        return combat.return_actions(state, frame)
    if kind == "GIVE":
        return combat.give_actions(state, frame)
    if kind == "FREE_MOVE":
        return movement.free_move_actions(state, frame)
    if kind in ("ALONGSIDE",):
        return combat.alongside_actions(frame)
    if kind == "REPOINT":
        return [f"face {d}" for d in board.DIRS]
    if kind == "CHOICE":
        return chance.choice_actions(state, frame)
    if kind == "PICK":
        return chance.pick_actions(state, frame)
    if kind == "PLACE":
        return [f"place {sq}" for sq in frame["squares"]]
    if kind == "PORT_TIE":
        return [f"harbour {h}" for h in frame["harbours"]]
    if kind == "TARGET":
        return [f"target {h}" for h in frame["options"]]
    if kind == "LOSE":
        return chance.lose_actions(state, frame)
    if kind == "BURY":
        return chance.bury_actions(state, frame)
    if kind == "FORFEIT":
        return forfeit_actions(state, frame["seat"])
    raise AssertionError(kind)


def turn_actions(state: State, seat: int) -> list[str]:
    turn = state["turn"]
    if seat != turn["seat"]:
        return []
    basket = turn["basket"]
    busy = bool(basket["give"] or basket["get"])
    stage = turn["stage"]
    if stage == "start":
        if busy:
            return trading.trade_actions(state, seat)
        return trading.window_actions(state, seat) + movement.start_moves(state, seat)
    if stage == "plan":
        return movement.plan_actions(state, seat, turn["plan"], False)
    if stage == "after":
        if busy:
            return trading.trade_actions(state, seat)
        return [*trading.window_actions(state, seat), "end"]
    return []


def legal_actions(state: State, seat: int) -> list[str]:
    if state["phase"] == "over" or not 0 <= seat < len(state["players"]):
        return []
    if state["phase"] == "choose_ports":
        return [f"home {h}" for h in free_ports(state)] if seat == choosing_seat(state) else []
    frame = top(state)
    out = turn_actions(state, seat) if frame is None else frame_actions(state, frame, seat)
    window = state["challenge"]
    if window and seat != window["mover"]:
        out = [*out, "challenge"]
    return out


# -- applying -------------------------------------------------------------------------------------------
def apply(state: State, seat: int, action: str) -> tuple[State, list]:
    """Apply a legal action (``Game.apply`` checked it) to a copy of ``state``."""
    s = clone(state)
    N = Narration()
    if action == "challenge":
        do_challenge(s, seat, N)
    else:
        s["challenge"] = None
        dispatch(s, seat, action, N)
    run(s, N, seat)
    return s, credit(state, s, N.events)


def dispatch(s: State, seat: int, action: str, N: Narration) -> None:
    if s["phase"] == "choose_ports":
        harbour = action.split()[1]
        take_port(s, seat, harbour)
        N.add(f"{s['players'][seat]['name']} takes {board.HARBOUR[harbour]['name']} as home port")
        if choosing_seat(s) is None:
            start_play(s)
            dealt = {x: f"You are dealt {cards_text(p['hand'])}" for x, p in enumerate(s["players"])}
            N.add(f"The game begins: {who(s, s['order'][0])} deals and moves first", dealt)
        return
    frame = top(s)
    if frame is None:
        turn_step(s, seat, action, N)
        return
    kind = frame["kind"]
    words = action.split()
    stack = s["stack"]
    if kind == "INTERCEPT":
        stack.pop()
        if action == "attack":
            walk = stack.pop()
            movement.intercepted(s, seat, walk, N)
        else:
            N.add(f"{who(s, seat)} lets {who(s, frame['mover'])} pass")
    elif kind == "SPOILS":
        stack.pop()
        combat.take_spoils(s, frame, action, N)
    elif kind == "RETURN":
        if combat.return_piece(s, frame, words[1], N):
            stack.pop()
    elif kind == "GIVE":
        if combat.give_card(s, frame, action, N):
            stack.pop()
    elif kind == "FREE_MOVE":
        if action == "confirm":
            stack.pop()
            movement.confirm_free_move(s, frame, N)
        else:
            frame["plan"] = movement.plan_step(s, seat, frame["plan"], action)
    elif kind in ("ALONGSIDE", "REPOINT"):
        stack.pop()
        s["players"][seat]["ship"]["facing"] = words[1]
        N.add(f"{who(s, seat)} points {words[1].upper()}")
    elif kind == "CHOICE":
        stack.pop()
        chance.choose(s, frame, words[1], N)
    elif kind == "PICK":
        if action == "done":
            stack.pop()
        else:
            chance.pick(s, frame, words[1], N)
    elif kind == "PLACE":
        stack.pop()
        chance.move_to(s, seat, words[1], N)
    elif kind == "PORT_TIE":
        stack.pop()
        chance.move_to(s, seat, words[1], N)
    elif kind == "TARGET":
        stack.pop()
        chance.target_chosen(s, frame, words[1], N)
    elif kind == "LOSE":
        if chance.lose(s, frame, words[1], N):
            stack.pop()
    elif kind == "BURY":
        chance.bury_one(s, seat, words[1], False, N)
        if frame.get("n") is not None:
            frame["n"] -= 1
        if chance.bury_done(s, frame):
            stack.pop()
    elif kind == "YELLOW_FEVER":
        chance.bury_one(s, seat, words[-1], words[1] == "docks", N)
        frame["owe"][str(seat)] -= 1
        if not chance.fever_seats(frame):
            stack.pop()
    elif kind == "FORFEIT":
        stack.pop()
        forfeit(s, seat, words[1], N)
    else:  # pragma: no cover - every frame kind is listed above
        raise AssertionError(kind)


def turn_step(s: State, seat: int, action: str, N: Narration) -> None:
    turn = s["turn"]
    verb = action.split()[0]
    if verb in WINDOW_VERBS:
        window_step(s, seat, action, N)
    elif verb in ("sail", "turn", "go", "face", "undo"):
        turn["plan"] = movement.plan_step(s, seat, turn["plan"], action)
        turn["stage"] = "start" if turn["plan"] is None else "plan"
        if verb == "sail" or verb == "turn":
            N.add(f"{who(s, seat)} is planning a move")
    elif verb == "confirm":
        movement.confirm_turn_move(s, seat, N)
    elif verb == "stay":
        at = s["players"][seat]["ship"]["at"]
        where = board.HARBOUR[at]["name"] if board.is_harbour(at) else at.upper()
        N.add(f"{who(s, seat)} stays at {where}")
        end_turn(s, N)
    elif verb == "end":
        end_turn(s, N)


def window_step(s: State, seat: int, action: str, N: Narration) -> None:
    verb = action.split()[0]
    if verb in ("unload", "load", "safe", "leave", "pickup"):
        trading.home_step(s, seat, action, N)
    elif verb in ("offer", "want", "unoffer", "unwant"):
        was_empty = not (s["turn"]["basket"]["give"] or s["turn"]["basket"]["get"])
        trading.basket_step(s, seat, action)
        if was_empty:
            at = s["players"][seat]["ship"]["at"]
            N.add(f"{who(s, seat)} is trading at {board.HARBOUR[at]['name']}")
    elif verb == "trade":
        trading.do_trade(s, seat, N)
    elif verb == "cancel":
        s["turn"]["basket"] = {"give": {}, "get": {}}
        N.add(f"{who(s, seat)} calls off the trade")
    elif verb == "flat":
        trading.flat_step(s, seat, action, N)
    elif verb == "land":
        trading.land_chart(s, seat, N)


# -- the engine's own steps -----------------------------------------------------------------------------
def run(s: State, N: Narration, actor: int) -> None:
    """Run tasks and forced steps until a seat owes a real decision, checking for a winner after each."""
    while s["phase"] == "play":
        if win_check(s, actor, N):
            return
        frame = top(s)
        if frame is None:
            return
        if frame["kind"] == "task":
            s["stack"].pop()
            run_task(s, frame, N)
            continue
        forced = forced_step(s, frame, N)
        if forced is None:
            return
        if forced:
            seat, action = forced
            dispatch(s, seat, action, N)


def forced_step(s: State, frame: dict[str, Any], N: Narration) -> tuple[int, str] | None | bool:
    """The action the engine takes for a seat, False after settling a frame itself, None to wait."""
    kind = frame["kind"]
    if kind == "FREE_MOVE" and frame["plan"] is None and not movement.free_move_actions(s, frame):
        s["stack"].pop()
        N.add(f"{who(s, frame['seat'])} cannot move and stays")
        return False
    if kind == "PICK" and chance.pick_actions(s, frame) == ["done"]:
        s["stack"].pop()
        return False
    if kind not in FORCED:
        return None
    if kind == "YELLOW_FEVER":
        for seat in order_from(s, s["order"][0]):
            acts = chance.fever_actions(s, frame, seat)
            if len(acts) == 1:
                return seat, acts[0]
        return None
    seat = frame["seat"]
    acts = frame_actions(s, frame, seat)
    if not acts:
        s["stack"].pop()
        return False
    if len(acts) == 1:
        return seat, acts[0]
    # Rule 2: handing over, losing or burying m cards from a pool of m or fewer needs no choice.
    p = s["players"][seat]
    if kind == "GIVE":
        pool = count(p["hand"]) + (count(s["harbours"][p["harbour"]]["docks"]["crew"]) if frame["docks"] else 0)
        if pool <= frame["n"]:
            return seat, acts[0]
    if kind == "LOSE" and frame["what"] == "crew" and count(p["hand"]) <= frame["n"]:
        return seat, acts[0]
    if kind == "BURY" and frame.get("n") is not None and count(p["hand"]) <= frame["n"]:
        return seat, acts[0]
    return None


def run_task(s: State, frame: dict[str, Any], N: Narration) -> None:
    op = frame["op"]
    if op == "walk":
        movement.run_walk(s, frame, N)
    elif op == "arrive":
        seat = frame["seat"]
        if not frame["free"] and s["turn"]["freemoved"]:
            return
        if s["players"][seat]["ship"]["at"] in board.TREASURE_COAST_SET:
            chance.draw(s, seat, N)
    elif op == "after":
        seat = frame["seat"]
        if not s["turn"]["freemoved"] and trading.window_actions(s, seat):
            s["turn"]["stage"] = "after"
        else:
            end_turn(s, N)
    elif op == "storm":
        chance.storm(s, frame["seat"], N)
    elif op == "bury_cap":
        hand = s["players"][frame["seat"]]["hand"]
        if sailing(hand) > frame["cap"]:
            s["stack"].append({"kind": "BURY", "seat": frame["seat"], "n": None, "cap": frame["cap"]})
    elif op == "recruit_if":
        if sailing(s["players"][frame["seat"]]["hand"]) <= 7:
            chance.gain_crew(s, frame["seat"], 2, N)
    elif op == "combat_end":
        s["combat"] = None
    elif op == "chance_back":
        s["chance_pile"].append(frame["card"])
    else:  # pragma: no cover
        raise AssertionError(op)


def end_turn(s: State, N: Narration) -> None:
    turn = s["turn"]
    rec = turn["record"]
    if (
        s["options"]["honour"] == "on"
        and rec
        and rec["kind"] == "sail"
        and not rec["derelict"]
        and rec["k_travelled"] > rec["n0"]
    ):
        s["challenge"] = {"mover": turn["seat"], "k": rec["k_travelled"], "n0": rec["n0"], "S0": rec["S0"]}
    order = s["order"]
    nxt = (s["turn_index"] + 1) % len(order)
    if nxt == 0:
        limit = int(s["options"]["round_limit"])
        if limit and s["round"] >= limit:
            s["challenge"] = None
            finish(s, [], "round_limit")
            N.add("Round limit reached: no winner")
            return
        s["round"] += 1
    s["turn_index"] = nxt
    s["turn"] = new_turn(order[nxt])


# -- challenges (seed laws 16, 16B) --------------------------------------------------------------------
def do_challenge(s: State, seat: int, N: Narration) -> None:
    window = s["challenge"]
    s["challenge"] = None
    mover = window["mover"]
    private = {seat: f"{who(s, mover)}'s sailing strength was {window['S0']} for a move of {window['k']}"}
    verdict = "exceeded" if window["k"] > window["S0"] else "within"
    s["last"]["challenge"] = {
        "challenger": seat,
        "mover": mover,
        "k": window["k"],
        "S0": window["S0"],
        "verdict": verdict,
    }
    if verdict == "exceeded":
        hand = s["players"][mover]["hand"]
        for k in CREW:
            s["pirate_pile"].extend([k] * hand[k])
            hand[k] = 0
        N.add(
            f"{who(s, seat)} challenges {who(s, mover)}'s move: exceeded; {who(s, mover)} loses all crew to Pirate Island",
            private,
        )
    else:
        N.add(f"{who(s, seat)} challenges {who(s, mover)}'s move: within; the challenger must pay", private)
        s["stack"].append({"kind": "FORFEIT", "seat": seat})


def forfeit_actions(s: State, seat: int) -> list[str]:
    p = s["players"][seat]
    hand = p["hand"]
    out = []
    if count(hand):
        top_value = max(CREW_VALUE[k] for k in CREW if hand[k])
        out += [f"forfeit {k}" for k in CREW if hand[k] and CREW_VALUE[k] == top_value]
    out += [f"forfeit {t}" for t in TREASURE if t in p["ship"]["hold"]]
    return out


def forfeit(s: State, seat: int, item: str, N: Narration) -> None:
    p = s["players"][seat]
    if item in CREW_VALUE:
        p["hand"][item] -= 1
        s["flat"]["crew"][item] += 1
        N.add(f"{who(s, seat)} forfeits {item.upper()} to Flat Island")
    else:
        p["ship"]["hold"].remove(item)
        s["flat"]["treasure"][item] += 1
        N.add(f"{who(s, seat)} forfeits {item} to Flat Island")


# -- the end --------------------------------------------------------------------------------------------
def win_check(s: State, actor: int, N: Narration) -> bool:
    start = actor if actor in s["order"] else s["order"][0]
    for seat in order_from(s, start):
        p = s["players"][seat]
        if p["ship"]["at"] == p["harbour"] and home_value(s, p["harbour"]) >= 20:
            finish(s, [seat], "landed_20")
            N.add(f"{who(s, seat)} wins with {home_value(s, p['harbour'])} landed")
            return True
    return False


def finish(s: State, winners: list[int], reason: str) -> None:
    # a card whose resolution the end cut short still goes back under the pile (all 28 stay accounted for)
    s["chance_pile"].extend(f["card"] for f in s["stack"] if f["kind"] == "task" and f["op"] == "chance_back")
    s["phase"] = "over"
    s["stack"] = []
    s["challenge"] = None
    s["combat"] = None
    scores = [home_value(s, p["harbour"]) for p in s["players"]]
    ranking = sorted(
        range(len(s["players"])),
        key=lambda i: (-scores[i], -hold_value(s["players"][i]["ship"]["hold"]), s["order"].index(i)),
    )
    s["outcome"] = {"winners": winners, "reason": reason, "scores": scores, "ranking": ranking}


# -- refusals -------------------------------------------------------------------------------------------
def explain(state: State, seat: int, action: str, legal: list[str]) -> IllegalAction | None:
    """Why ``action`` is not legal for ``seat`` (which owes a decision), where the rules say more than the shared
    wording does; None otherwise."""
    words = action.split()
    verb = words[0] if words else ""
    frame = top(state)
    if frame is None and state["phase"] == "play":
        turn = state["turn"]
        if verb == "go" and turn["stage"] == "plan" and turn["plan"]["kind"] == "sail" and turn["plan"]["k"] is None:
            return movement.explain_go(state, seat, turn["plan"], action, False)
        if verb == "trade" and "cancel" in legal:
            return IllegalAction("unbalanced", f"{trading.basket_status(state, seat)['status']}; adjust or `cancel`.")
        if verb in ("load", "want", "flat", "pickup") and len(words) >= 2:
            item = words[-1]
            if item in TREASURE and verb in ("load", "flat") and len(state["players"][seat]["ship"]["hold"]) >= 2:
                return IllegalAction("hold_full", "a ship carries at most 2 treasures; unload or trade one first.")
            if verb == "want":
                return IllegalAction("not_available", f"the Docks hold no {item} to spare; `want` only what is listed.")
    if frame is not None and frame["kind"] == "FREE_MOVE" and verb == "go" and frame["plan"]:
        return movement.explain_go(state, seat, frame["plan"], action, True)
    if verb not in _VERBS:
        return IllegalAction("bad_syntax", f"`{action}` is not a Buccaneer action; try one of: {_some(legal)}.")
    return None


def _some(legal: list[str]) -> str:
    shown = ", ".join(legal[:12])
    return shown + (f" (and {len(legal) - 12} more)" if len(legal) > 12 else "")


_VERBS = {
    "home",
    "unload",
    "load",
    "safe",
    "leave",
    "pickup",
    "offer",
    "want",
    "unoffer",
    "unwant",
    "trade",
    "cancel",
    "flat",
    "land",
    "sail",
    "turn",
    "stay",
    "go",
    "face",
    "confirm",
    "undo",
    "end",
    "attack",
    "pass",
    "spoils",
    "return",
    "give",
    "choose",
    "pick",
    "done",
    "place",
    "harbour",
    "target",
    "lose",
    "bury",
    "challenge",
    "forfeit",
}
