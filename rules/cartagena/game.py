"""The Cartagena game object: what a table shows of the game (title, options, the ``/rules`` text, seat colours,
cards) and the ``rules.core.Game`` contract over the modules of this package (docs/games/cartagena.md)."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.cartagena import actions, ai, engine, evaluate, moves, rollout, sample, views
from rules.cartagena.board import SEAT_NAMES, SYMBOLS
from rules.core import Action, Event, Game, GameInfo, IllegalAction, Option, Outcome, State

BLURB = (
    "Thirty pirates break out of the fortress of Cartagena through a secret tunnel. Play a card to send one of "
    "your pirates forward to the next free space with that symbol, jumping over everyone in the way, or pull a "
    "pirate back to a space where one or two pirates wait, and draw a card for each of them. Up to three actions "
    "a turn; the first crew with all six pirates aboard the sloop escapes and wins."
)

RULES = """\
**Cartagena** — get all six of your pirates from the fortress (START) through the 36-space tunnel onto the SLOOP.

**Your turn: 1 to 3 actions, in any mix**
- **Play a card** — `forward <from> <symbol>`: one of your pirates on `<from>` (`start` or a space number) \
moves forward to the next *empty* space showing that symbol, jumping over occupied ones. If there is none, \
it boards the sloop. Example: `forward start skull`, `forward 12 key`.
- **Move back** — `back <from>`: one of your pirates moves back to the nearest space holding 1 or 2 pirates \
(empty and full spaces are passed over; never to START). Draw 1 card for each pirate already there. \
Example: `back 14`, `back sloop`.
- `end` finishes your turn after 1 or 2 actions; after the 3rd it ends by itself. `pass` only when you can do \
nothing at all.

A space holds at most 3 pirates. The same pirate may act several times, and a card drawn this turn may be \
played at once.

**Symbols**: B bottle, D dagger, H hat, K key, P pistol, S skull. Each section of 6 spaces shows each symbol \
once; the deck has 17 cards of each.

**Modes**
- **Jamaica** (default): hands are secret; you draw from a face-down pile. Played cards come back only with \
the table option `reshuffle on`.
- **Tortuga**: every hand is face up; you draw from a face-up row of 12 cards, always the first one. A new \
row is laid out when it is used up, reshuffling the played cards if needed.

**End**: the first crew with all six pirates on the sloop wins at once. If the game can no longer change \
(every seat passes in a row, or in Jamaica without reshuffle nobody holds a card and the pile is empty), \
the most pirates aboard wins, then the furthest crew (sum of positions).

**Options**: `mode` jamaica/tortuga · `reshuffle` off/on (Jamaica) · `back_from_sloop` on/off · \
`board` random/fixed.
"""

OPTION_HELP: dict[str, str] = {
    "mode": "jamaica: secret hands, draw from a face-down pile; tortuga: open hands, draw from a face-up row of 12",
    "reshuffle": (
        "Jamaica only: shuffle played cards into a new pile when it runs out (a house rule); "
        "suggested with 4–5 players, where the pile often runs dry"
    ),
    "back_from_sloop": "whether a pirate already on the sloop may move back to draw cards",
    "board": "random: each section's symbols shuffled; fixed: the standard tournament passage",
}


def _option(name: str, choices: tuple[str, ...]) -> Option:
    return Option(name, choices, choices[0], OPTION_HELP[name])


class Cartagena(Game):
    info = GameInfo(
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
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        return {"game": self.info.id, "version": self.version, **engine.new_state(players, opts, str(seed))}

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: Action) -> IllegalAction:
        try:
            moves.check(state, seat, *actions.decode(action))
        except IllegalAction as reason:
            return reason
        return super().refuse(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    def seat_count(self, state: State) -> int:
        return state["players"]

    # -- what a seat sees and reads ------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        return views.private_summary(view, seat)

    def owed(self, view: dict[str, Any], seat: int) -> str:
        return views.owed(view, seat)

    # -- action text ---------------------------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    def describe(self, view: dict[str, Any], action: Action) -> str:
        return actions.describe(view, action)

    # -- the host's helpers --------------------------------------------------------------------------------------------
    def lobby_notes(self, players: int, options: dict[str, str]) -> list[str]:
        # with 4-5 crews and no reshuffle a Jamaica pile runs dry in a third to half of the games (docs/games/cartagena.md#the-stall-ending)
        if players >= 4 and options.get("mode") == "jamaica" and options.get("reshuffle") == "off":
            return [
                f"With {players} players a Jamaica pile often runs dry before anyone reaches the sloop: "
                "consider opening the table with `reshuffle on`."
            ]
        return []

    def undoable(self, before: State, seat: int, action: Action) -> bool:
        """A forward move shows nothing new (its card was chosen by its player); a back move draws."""
        try:
            return actions.decode(action)[0] == "forward"
        except IllegalAction:
            return False

    def timeout_action(self, state: State, seat: int) -> Action:
        """``end`` after at least one action, otherwise the first legal action (``pass`` if alone): docs/games/cartagena.md#time-out-default."""
        legal = self.legal_actions(state, seat)
        return "end" if "end" in legal else legal[0]

    # -- the hard AI ---------------------------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    def rollout(self, state: State) -> rollout.CartagenaRollout:
        return rollout.CartagenaRollout(self, state)

    # -- tests ---------------------------------------------------------------------------------------------------------
    def secrets(self, state: State) -> list[str]:
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


GAME = Cartagena()
