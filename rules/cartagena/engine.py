"""Cartagena's state and how it changes: the deal (``new_state``), one legal action (``apply``) and the end.

The state is plain JSON. Each seat's pirates are a sorted list of 6 positions (0 START, 1..36, 37 SLOOP);
hands are counts per symbol in symbol order; the stock and the Tortuga row list their next card first.
"""

from __future__ import annotations

from typing import Any

from rules import core
from rules.cartagena.actions import read
from rules.cartagena.board import (
    ACTIONS_PER_TURN,
    FIXED_PATH,
    HAND_SIZE,
    PIRATES_PER_SEAT,
    SEAT_NAMES,
    SECTION,
    SLOOP,
    SPACES,
    START,
    SYMBOLS,
    back_target,
    forward_target,
    occupancy,
    position_name,
)
from rules.cartagena.deck import ROW_SIZE, SYMBOL_INDEX, draw, new_deck


# -- setup (docs/games/cartagena.md#setup) -----------------------------------------------------------------------------
def new_state(players: int, opts: dict[str, str], seed: str) -> core.State:
    state: core.State = {"seed": seed, "rng_n": 0}
    if opts["board"] == "fixed":
        path = list(FIXED_PATH)
    else:
        path = []
        for _ in range(SPACES // SECTION):
            section = list(SYMBOLS)
            core.rng(state).shuffle(section)
            path += section
    deck = new_deck()
    core.rng(state).shuffle(deck)
    hands = []
    for seat in range(players):
        hand = [0] * len(SYMBOLS)
        for card in deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]:
            hand[SYMBOL_INDEX[card]] += 1
        hands.append(hand)
    stock = deck[players * HAND_SIZE :]
    row = None
    if opts["mode"] == "tortuga":
        row, stock = stock[:ROW_SIZE], stock[ROW_SIZE:]
    state.update(
        players=players,
        options=opts,
        path=path,
        pirates=[[START] * PIRATES_PER_SEAT for _ in range(players)],
        hands=hands,
        stock=stock,
        row=row,
        discard=[],
        reshuffles=0,
        turn_seat=core.rng(state).randrange(players),
        turn_number=1,
        actions_taken=0,
        passes_in_a_row=0,
        this_turn=[],
        last=None,
        last_action=None,
        result=None,
    )
    return state


# -- one action (docs/games/cartagena.md#the-action-language) ----------------------------------------------------------
def apply(state: core.State, seat: int, action: core.Action) -> tuple[core.State, list[core.Event]]:
    """A legal action (``Game.apply`` checked it, so it is in its canonical text) applied to a copy of ``state``."""
    after = core.clone(state)
    events: list[core.Event] = []
    advance(after, seat, action, events)
    return after, events


def advance(after: core.State, seat: int, action: core.Action, events: list[core.Event]) -> None:
    """``apply`` in place: the state itself changes (the ``hard`` search's rollouts own theirs)."""
    kind, pos, symbol = read(action)
    if kind == "forward":
        _forward(after, seat, action, pos, symbol, events)
    elif kind == "back":
        _back(after, seat, action, pos, events)
    elif kind == "end":
        taken = after["actions_taken"]
        events.append(
            core.Event(f"{SEAT_NAMES[seat]} ends the turn ({taken} action{'' if taken == 1 else 's'}).", actor=seat)
        )
        _next_turn(after)
    else:
        after["passes_in_a_row"] += 1
        events.append(core.Event(f"{SEAT_NAMES[seat]} cannot act and passes.", actor=seat))
        if after["passes_in_a_row"] >= after["players"]:
            _stall(after, "Every seat passed in a row, so nothing can change any more.", events)
        else:
            _next_turn(after)
    after["last_action"] = {"seat": seat, "action": action}
    if kind in ("forward", "back") and not after["result"]:
        _after_move(after, seat, events)


def _forward(state: core.State, seat: int, action: str, pos: int, symbol: str, events: list[core.Event]) -> None:
    target = forward_target(state["path"], occupancy(state["pirates"]), pos, symbol)
    state["hands"][seat][SYMBOL_INDEX[symbol]] -= 1
    state["discard"].append(symbol)
    _move(state["pirates"][seat], pos, target)
    name = SEAT_NAMES[seat]
    line = f"{name} plays {symbol}: pirate {position_name(pos)} → {position_name(target)}"
    aboard = state["pirates"][seat].count(SLOOP)
    if target == SLOOP:
        line += f" ({aboard}/{PIRATES_PER_SEAT} aboard)"
    events.append(core.Event(line + ".", actor=seat))
    _record(state, seat, action, pos, target, None)
    if aboard == PIRATES_PER_SEAT:
        events.append(core.Event(f"{name}'s sixth pirate boards the sloop. {name} escapes and wins!", actor=seat))
        _finish(state, [seat], "escaped")


def _back(state: core.State, seat: int, action: str, pos: int, events: list[core.Event]) -> None:
    occ = occupancy(state["pirates"])
    target = back_target(occ, pos)
    earned = occ[target]
    _move(state["pirates"][seat], pos, target)
    drawn, deck_lines = draw(state, seat, earned)
    name = SEAT_NAMES[seat]
    line = f"{name} moves a pirate back {position_name(pos)} → {target} and draws "
    if state["row"] is not None and drawn:
        line += ", ".join(drawn)
    else:
        line += f"{len(drawn)} card{'' if len(drawn) == 1 else 's'}"
    if len(drawn) < earned:
        line += f" ({earned} earned, nothing more to draw)"
    private = {seat: "You draw " + ", ".join(drawn) + "."} if state["row"] is None and drawn else {}
    # the cards drawn are news to the drawer although the move was its own (a private line on a public line)
    events.append(core.Event(line + ".", private, actor=seat))
    events.extend(core.Event(text, actor=core.GAME_ACTOR) for text in deck_lines)
    _record(state, seat, action, pos, target, len(drawn))


def _move(positions: list[int], start: int, target: int) -> None:
    positions.remove(start)
    positions.append(target)
    positions.sort()


def _record(state: core.State, seat: int, action: str, start: int, target: int, drew: int | None) -> None:
    move: dict[str, Any] = {"seat": seat, "action": action, "from": start, "to": target}
    if drew is not None:
        move["drew"] = drew
    state["this_turn"].append(move)
    state["last"] = dict(move)
    state["actions_taken"] += 1
    state["passes_in_a_row"] = 0


def _after_move(state: core.State, seat: int, events: list[core.Event]) -> None:
    jamaica_dry = (
        state["row"] is None
        and state["options"]["reshuffle"] == "off"
        and not state["stock"]
        and not any(any(hand) for hand in state["hands"])
    )
    if jamaica_dry:
        _stall(state, "Nobody holds a card and the draw pile is empty, so no card can be played again.", events)
    elif state["actions_taken"] >= ACTIONS_PER_TURN:
        events.append(core.Event(f"{SEAT_NAMES[seat]}'s turn ends ({ACTIONS_PER_TURN} actions).", actor=core.GAME_ACTOR))
        _next_turn(state)


def _next_turn(state: core.State) -> None:
    state["turn_seat"] = (state["turn_seat"] + 1) % state["players"]
    state["turn_number"] += 1
    state["actions_taken"] = 0
    state["this_turn"] = []


# -- the end (docs/games/cartagena.md#the-stall-ending) ----------------------------------------------------------------
def _stall(state: core.State, why: str, events: list[core.Event]) -> None:
    """End a game that can no longer change (docs/games/cartagena.md#the-stall-ending): most pirates aboard, then most progress."""
    ranking = sorted(
        ([seat, positions.count(SLOOP), sum(positions)] for seat, positions in enumerate(state["pirates"])),
        key=lambda entry: (-entry[1], -entry[2], entry[0]),
    )
    best = ranking[0][1:]
    winners = [seat for seat, *score in ranking if score == best]
    _finish(state, winners, "stalled", ranking)
    names = " and ".join(SEAT_NAMES[seat] for seat in winners)
    verdict = f"{names} share the win" if len(winners) > 1 else f"{names} wins"
    events.append(
        core.Event(f"{why} The game ends: {verdict} with {best[0]} aboard and progress {best[1]}.", actor=core.GAME_ACTOR)
    )


def _finish(state: core.State, winners: list[int], reason: str, ranking: list[list[int]] | None = None) -> None:
    result: dict[str, Any] = {"winners": winners, "reason": reason, "turns": state["turn_number"]}
    if ranking is not None:
        result["ranking"] = ranking
    state["result"] = result
    state["this_turn"] = []


def outcome(state: core.State) -> core.Outcome | None:
    result = state["result"]
    if not result:
        return None
    ranking = tuple(entry[0] for entry in result["ranking"]) if "ranking" in result else None
    return core.Outcome(tuple(result["winners"]), result["reason"], None, ranking)
