"""Cartagena: the engine (spec ``shared/specs/cartagena.md``; seed ``001_aca20d3f94b4ec3a``).

The state is plain JSON. Each seat's pirates are a sorted list of 6 positions (0 START, 1..36, 37 SLOOP);
hands are counts per symbol in symbol order; the stock and the Tortuga row list their next card first.
"""

from __future__ import annotations

import json
import random
from typing import Any

from rules import core
from rules.cartagena import ai
from rules.cartagena.board import (
    BY_LETTER,
    FIXED_PATH,
    PIRATES_PER_SEAT,
    SECTION,
    SLOOP,
    SPACES,
    START,
    SYMBOLS,
    back_target,
    forward_target,
    occupancy,
    occupancy_from_view,
    position_name,
    position_word,
)
from rules.cartagena.deck import ROW_SIZE, SYMBOL_INDEX, draw, new_deck
from rules.cartagena.evaluate import HORIZON, win_chance
from rules.cartagena.texts import BLURB, OPTION_HELP, RULES

SEAT_NAMES: tuple[str, ...] = ("Red", "Blue", "Yellow", "Green", "Purple")
HAND_SIZE = 6
ACTIONS_PER_TURN = 3
SYNTAX_HINT = "say e.g. `forward 12 key`, `forward start skull`, `back 14`, `back sloop`, `end` or `pass`"

#: a decoded action: (kind, position, symbol); position and symbol are None where the kind has none
Decoded = tuple[str, int | None, str | None]


def _option(name: str, choices: tuple[str, ...]) -> core.Option:
    return core.Option(name, choices, choices[0], OPTION_HELP[name])


def decode(text: str) -> Decoded:
    """Read an action typed by a person or stored in a log; raises ``bad_syntax``.

    Accepts the canonical forms of spec §3.7 in any case and spacing, and a symbol's letter for its name."""
    words = core.normalize_text(text).split()
    if words in (["end"], ["end", "turn"]):
        return ("end", None, None)
    if words == ["pass"]:
        return ("pass", None, None)
    if len(words) == 3 and words[0] == "forward":
        symbol = BY_LETTER.get(words[2], words[2])
        if symbol in SYMBOLS:
            pos = _position(words[1])
            if pos is not None:
                return ("forward", pos, symbol)
    if len(words) == 2 and words[0] == "back":
        pos = _position(words[1])
        if pos is not None:
            return ("back", pos, None)
    raise core.IllegalAction("bad_syntax", f"'{core.normalize_text(text)}' is not a Cartagena action; {SYNTAX_HINT}.")


def _position(word: str) -> int | None:
    if word == "start":
        return START
    if word == "sloop":
        return SLOOP
    if word.isdigit() and 1 <= int(word) <= SPACES:
        return int(word)
    return None


def encode(kind: str, pos: int | None = None, symbol: str | None = None) -> core.Action:
    if kind == "forward":
        return f"forward {position_word(pos)} {symbol}"
    if kind == "back":
        return f"back {position_word(pos)}"
    return kind


class Cartagena(core.Game):
    info = core.GameInfo(
        id="cartagena",
        title="Cartagena",
        min_players=2,
        max_players=5,
        options=(
            _option("mode", ("jamaica", "tortuga")),
            _option("reshuffle", ("off", "on")),
            _option("back_from_sloop", ("on", "off")),
            _option("board", ("random", "fixed")),
        ),
        blurb=BLURB,
        rules=RULES,
        seat_names=SEAT_NAMES,
        cards=tuple(
            (symbol.capitalize(), f"move one of your pirates forward to the next free {symbol} space (or the sloop)")
            for symbol in SYMBOLS
        ),
    )
    version = 1
    search_horizon = HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    def lobby_notes(self, players: int, options: dict[str, str]) -> list[str]:
        # spec §1.2: with 4-5 crews and no reshuffle, a Jamaica pile runs dry in a third to half of the games
        if players >= 4 and options.get("mode") == "jamaica" and options.get("reshuffle") == "off":
            return [
                f"With {players} players a Jamaica pile often runs dry before anyone reaches the sloop: "
                "consider opening the table with `reshuffle on`."
            ]
        return []

    # -- setup (spec §2.4) ---------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> core.State:
        self.check_players(players)
        opts = self.resolve_options(options)
        state: core.State = {"game": self.info.id, "version": self.version, "seed": str(seed), "rng_n": 0}
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

    # -- whose turn and what is legal (spec §3.1, §3.7) ------------------------------------------------
    def to_act(self, state: core.State) -> list[int]:
        return [] if state["result"] else [state["turn_seat"]]

    def legal_actions(self, state: core.State, seat: int) -> list[core.Action]:
        if state["result"] or seat != state["turn_seat"]:
            return []
        mine = sorted(set(state["pirates"][seat]))
        hand = state["hands"][seat]
        held = [symbol for i, symbol in enumerate(SYMBOLS) if hand[i]]
        actions = [f"forward {position_word(pos)} {symbol}" for pos in mine if pos != SLOOP for symbol in held]
        occ = occupancy(state["pirates"])
        back_from_sloop = state["options"]["back_from_sloop"] == "on"
        for pos in mine:
            if pos != START and (pos != SLOOP or back_from_sloop) and back_target(occ, pos) is not None:
                actions.append(f"back {position_word(pos)}")
        if state["actions_taken"]:
            actions.append("end")
        elif not actions:
            actions.append("pass")
        return actions

    # -- apply (spec §3.2–§3.6) -----------------------------------------------------------------------
    def _apply(self, state: core.State, seat: int, action: core.Action) -> tuple[core.State, list[core.Event]]:
        kind, pos, symbol = decode(action)
        new = core.clone(state)
        events: list[core.Event] = []
        if kind == "forward":
            self._forward(new, seat, pos, symbol, events)
        elif kind == "back":
            self._back(new, seat, pos, events)
        elif kind == "end":
            taken = new["actions_taken"]
            events.append(
                core.Event(f"{SEAT_NAMES[seat]} ends the turn ({taken} action{'' if taken == 1 else 's'}).", actor=seat)
            )
            self._next_turn(new)
        else:
            new["passes_in_a_row"] += 1
            events.append(core.Event(f"{SEAT_NAMES[seat]} cannot act and passes.", actor=seat))
            if new["passes_in_a_row"] >= new["players"]:
                self._stall(new, "Every seat passed in a row, so nothing can change any more.", events)
            else:
                self._next_turn(new)
        new["last_action"] = {"seat": seat, "action": encode(kind, pos, symbol)}
        if kind in ("forward", "back") and not new["result"]:
            self._after_move(new, seat, events)
        return new, events

    def refuse(self, state: core.State, seat: int, action: core.Action) -> core.IllegalAction:
        try:
            self._check(state, seat, *decode(action))
        except core.IllegalAction as reason:
            return reason
        return super().refuse(state, seat, action)

    def _check(self, state: core.State, seat: int, kind: str, pos: int | None, symbol: str | None) -> None:
        """Raise ``illegal`` with a reason and what to do instead; the state is not touched."""
        mine = state["pirates"][seat]
        if kind == "forward":
            if pos == SLOOP:
                raise _illegal("a pirate on the sloop cannot move forward; move another pirate or `back sloop`")
            if not state["hands"][seat][SYMBOL_INDEX[symbol]]:
                raise _illegal(f"you have no {symbol} card; play a symbol you hold, or move back to draw")
            if pos not in mine:
                raise _illegal(f"you have no pirate on {position_name(pos)}; {self._where(mine)}")
        elif kind == "back":
            if pos == START:
                raise _illegal("a pirate on START cannot move back; move back a pirate on the passage")
            if pos == SLOOP and state["options"]["back_from_sloop"] != "on":
                raise _illegal("moving back from the sloop is off at this table; move back a pirate on the passage")
            if pos not in mine:
                raise _illegal(f"you have no pirate on {position_name(pos)}; {self._where(mine)}")
            if back_target(occupancy(state["pirates"]), pos) is None:
                raise _illegal(
                    f"no space with 1 or 2 pirates lies behind {position_name(pos)}; "
                    "move back a pirate further ahead, or play a card"
                )
        elif kind == "end":
            if not state["actions_taken"]:
                hint = (
                    "type `pass`, you have no action"
                    if self._nothing_to_do(state, seat)
                    else "play a card or move back"
                )
                raise _illegal(f"you must take at least one action before ending your turn; {hint}")
        elif state["actions_taken"]:
            raise _illegal("you have already acted this turn; type `end` to finish it")
        elif not self._nothing_to_do(state, seat):
            first = self.legal_actions(state, seat)[0]
            raise _illegal(f"you can still act (for example `{first}`); `pass` is only for a turn with no action")

    def _nothing_to_do(self, state: core.State, seat: int) -> bool:
        return self.legal_actions(state, seat) in (["pass"], ["end"])

    @staticmethod
    def _where(mine: list[int]) -> str:
        return "your pirates are on " + ", ".join(position_name(pos) for pos in sorted(set(mine)))

    def _forward(self, state: core.State, seat: int, pos: int, symbol: str, events: list[core.Event]) -> None:
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
        self._record(state, seat, encode("forward", pos, symbol), pos, target, None)
        if aboard == PIRATES_PER_SEAT:
            events.append(core.Event(f"{name}'s sixth pirate boards the sloop. {name} escapes and wins!", actor=seat))
            self._finish(state, [seat], "escaped")

    def _back(self, state: core.State, seat: int, pos: int, events: list[core.Event]) -> None:
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
        self._record(state, seat, encode("back", pos), pos, target, len(drawn))

    @staticmethod
    def _record(state: core.State, seat: int, action: str, start: int, target: int, drew: int | None) -> None:
        move: dict[str, Any] = {"seat": seat, "action": action, "from": start, "to": target}
        if drew is not None:
            move["drew"] = drew
        state["this_turn"].append(move)
        state["last"] = dict(move)
        state["actions_taken"] += 1
        state["passes_in_a_row"] = 0

    def _after_move(self, state: core.State, seat: int, events: list[core.Event]) -> None:
        jamaica_dry = (
            state["row"] is None
            and state["options"]["reshuffle"] == "off"
            and not state["stock"]
            and not any(any(hand) for hand in state["hands"])
        )
        if jamaica_dry:
            self._stall(
                state, "Nobody holds a card and the draw pile is empty, so no card can be played again.", events
            )
        elif state["actions_taken"] >= ACTIONS_PER_TURN:
            events.append(core.Event(f"{SEAT_NAMES[seat]}'s turn ends ({ACTIONS_PER_TURN} actions).", actor=core.GAME_ACTOR))
            self._next_turn(state)

    @staticmethod
    def _next_turn(state: core.State) -> None:
        state["turn_seat"] = (state["turn_seat"] + 1) % state["players"]
        state["turn_number"] += 1
        state["actions_taken"] = 0
        state["this_turn"] = []

    def _stall(self, state: core.State, why: str, events: list[core.Event]) -> None:
        """End a game that can no longer change (spec §5.2): most pirates aboard, then most progress."""
        ranking = sorted(
            ([seat, positions.count(SLOOP), sum(positions)] for seat, positions in enumerate(state["pirates"])),
            key=lambda entry: (-entry[1], -entry[2], entry[0]),
        )
        best = ranking[0][1:]
        winners = [seat for seat, *score in ranking if score == best]
        self._finish(state, winners, "stalled", ranking)
        names = " and ".join(SEAT_NAMES[seat] for seat in winners)
        verdict = f"{names} share the win" if len(winners) > 1 else f"{names} wins"
        events.append(
            core.Event(
                f"{why} The game ends: {verdict} with {best[0]} aboard and progress {best[1]}.", actor=core.GAME_ACTOR
            )
        )

    @staticmethod
    def _finish(state: core.State, winners: list[int], reason: str, ranking: list[list[int]] | None = None) -> None:
        result: dict[str, Any] = {"winners": winners, "reason": reason, "turns": state["turn_number"]}
        if ranking is not None:
            result["ranking"] = ranking
        state["result"] = result
        state["this_turn"] = []

    # -- views and outcome (spec §4, §5) --------------------------------------------------------------
    def view(self, state: core.State, seat: int | None) -> dict[str, Any]:
        opts = state["options"]
        tortuga = opts["mode"] == "tortuga"
        pirates = {}
        hands = {}
        for s, positions in enumerate(state["pirates"]):
            spaces: dict[str, int] = {}
            for pos in positions:
                if START < pos < SLOOP:
                    spaces[str(pos)] = spaces.get(str(pos), 0) + 1
            pirates[str(s)] = {"start": positions.count(START), "sloop": positions.count(SLOOP), "spaces": spaces}
            hand = state["hands"][s]
            hands[str(s)] = {"count": sum(hand)}
            if tortuga or s == seat:
                hands[str(s)]["cards"] = {symbol: n for symbol, n in zip(SYMBOLS, hand, strict=True) if n}
        discard = {symbol: state["discard"].count(symbol) for symbol in SYMBOLS if symbol in state["discard"]}
        over = state["result"] is not None
        return {
            "game": self.info.id,
            "mode": opts["mode"],
            "options": {
                "reshuffle": opts["reshuffle"] == "on",
                "back_from_sloop": opts["back_from_sloop"] == "on",
                "board": opts["board"],
            },
            "players": state["players"],
            "seat_names": list(SEAT_NAMES[: state["players"]]),
            "viewer": seat,
            "phase": "over" if over else "turn",
            "step": "over" if over else "turn",
            "path": list(state["path"]),
            "pirates": pirates,
            "turn_seat": state["turn_seat"],
            "turn_number": state["turn_number"],
            "actions_taken": state["actions_taken"],
            "actions_left": 0 if over else ACTIONS_PER_TURN - state["actions_taken"],
            "to_act": self.to_act(state),
            "passes_in_a_row": state["passes_in_a_row"],
            "hands": hands,
            "row": None if state["row"] is None else list(state["row"]),
            "stock_count": len(state["stock"]),
            "discard": discard,
            "discard_count": len(state["discard"]),
            "reshuffles": state["reshuffles"],
            "this_turn": [dict(move) for move in state["this_turn"]],
            "last": None if state["last"] is None else dict(state["last"]),
            "last_action": None if state["last_action"] is None else dict(state["last_action"]),
            "winners": None if not over else list(state["result"]["winners"]),
            "result": None if not over else core.clone(state["result"]),
        }

    def seat_count(self, state: core.State) -> int:
        return state["players"]

    def outcome(self, state: core.State) -> core.Outcome | None:
        result = state["result"]
        if not result:
            return None
        ranking = tuple(entry[0] for entry in result["ranking"]) if "ranking" in result else None
        return core.Outcome(tuple(result["winners"]), result["reason"], None, ranking)

    # -- text ----------------------------------------------------------------------------------------
    def parse(self, text: str) -> core.Action:
        return encode(*decode(text))

    def owed(self, view: dict[str, Any], seat: int) -> str:
        left = view.get("actions_left", 0)
        if not view.get("actions_taken"):
            return "play a card or move a pirate back (up to 3 actions)"
        return f"play a card, move a pirate back or end your turn ({left} action{'' if left == 1 else 's'} left)"

    def describe(self, view: dict[str, Any], action: core.Action) -> str:
        words = action.split()
        if len(words) == 3 and words[0] == "forward" and words[2] in SYMBOLS:
            return f"{words[2].capitalize()} card: your pirate on {words[1]} runs to the next free {words[2]} space."
        return ""

    def label(self, view: dict[str, Any], action: core.Action) -> str:
        """``forward 4 skull → 11``, ``back 20 → 15 (+2)``: the landing square computed from the view."""
        try:
            kind, pos, symbol = decode(action)
        except core.IllegalAction:
            return action
        if kind == "forward" and pos != SLOOP:
            target = forward_target(view["path"], occupancy_from_view(view), pos, symbol)
            return f"{action} → {position_name(target)}"
        if kind == "back":
            occ = occupancy_from_view(view)
            target = back_target(occ, pos)
            if target is not None:
                return f"{action} → {target} (+{occ[target]})"
        return action

    # -- host helpers --------------------------------------------------------------------------------
    def undoable(self, before: core.State, seat: int, action: core.Action) -> bool:
        """A forward move shows nothing new (its card was chosen by its player); a back move draws."""
        try:
            return decode(action)[0] == "forward"
        except core.IllegalAction:
            return False

    def timeout_action(self, state: core.State, seat: int) -> core.Action:
        """Spec §7: ``end`` after at least one action, otherwise the first legal action (``pass`` if alone)."""
        legal = self.legal_actions(state, seat)
        return "end" if "end" in legal else legal[0]

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> core.State:
        from rules.cartagena.sample import sample

        return sample(view, seat, rng)

    def evaluate(self, state: core.State, seat: int) -> float:
        return win_chance(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        hand = view["hands"][str(seat)]
        cards = hand.get("cards")
        if cards is None:
            return ""
        held = ", ".join(f"{name} ×{cards[name]}" for name in SYMBOLS if cards.get(name))
        return f"Your hand ({hand['count']} card{'' if hand['count'] == 1 else 's'}): {held or 'no cards'}."

    def secrets(self, state: core.State) -> list[str]:
        """The seed (as typed and, for a hex seed, as a number) and the RNG counter's key; the stock's order as a
        view or a line would spell it; in Jamaica each hand as its own view spells it."""
        seed = state["seed"]
        found = ['"rng_n":', '"stock":']
        if len(seed) >= 6:
            found.append(seed)
            if all(ch in "0123456789abcdef" for ch in seed.lower()):
                found.append(str(int(seed, 16)))
        stock = state["stock"]
        if len(stock) >= 3:
            found += [json.dumps(stock), ", ".join(stock), " ".join(stock)]
        if state["options"]["mode"] == "jamaica":  # Jamaica hands stay hidden, even at the end
            for hand in state["hands"]:
                cards = {symbol: n for symbol, n in zip(SYMBOLS, hand, strict=True) if n}
                if cards:
                    found.append('"cards": ' + json.dumps(cards))
        return found


def _move(positions: list[int], start: int, target: int) -> None:
    positions.remove(start)
    positions.append(target)
    positions.sort()


def _illegal(message: str) -> core.IllegalAction:
    return core.IllegalAction("illegal", message)


GAME = Cartagena()
