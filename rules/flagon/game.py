"""The Flagon game object: what a table shows of the game (title, options, the ``/rules`` text, the cards) and
the ``rules.core.Game`` contract over the modules of this package (docs/games/flagon.md)."""

from __future__ import annotations

import random
import re
from typing import Any

from rules.core import Action, Event, Game, GameInfo, IllegalAction, Option, Outcome, State
from rules.flagon import actions, ai, engine, evaluate, moves, rollout, sample, views
from rules.flagon.cards import CARD

RULES = """**Flagon: pirate brawl on two ships** (2–8 players, two crews: Gulls west, Krakens east)

**Each character** has 20 Reputation and 16 cards (13 common + 2 gold + 1 Dragon).
**Time track.** Everyone starts at time 0. At each time T the characters whose token is on T first
**plan in secret** (all seats at once) until 2 cards are queued (3 if Dazed). Then they are drawn in random
order; each reveals its oldest queued card and resolves it, then moves its time token on by the card's time.

**Choices at reveal.** Targets, directions and destinations are picked when the card is revealed
(`to H5`, `at G6`, `aim e`, `shove e`, `take chest D3`, `face ne`, `skip`). Time-out default: the first
option (plan the first card in hand, stay, keep facing, skip the target).

**Damage** takes Reputation from the victim and gives it to the attacker (teammates: discarded).
Damage, Dazed or a Fall makes you **drop** what you hold. **Dazed**: plan 3 ahead. **Falls**: time +1.

**Water.** Squares off the ships and gangplanks (also H6 and H8) are water. Nobody may enter water on
purpose; Leap, Shadow Step/Dash, Dragon Kick, Swing and Arr! may pass over it but not end on it (table tops
hanging over the side are fine). Knocked into water = **Overboard**: off the board, held object sinks
(the Flagon floats back to H7), queued cards return to hand, pay 2 Reputation to the attacker, plan 2 new
cards, and climb back aboard at a starting square when next active.

**Objects.** Barrels block and roll when kicked (never into water; across a gangplank if lined up).
Tables can be pushed, even over water; a table fully over water sinks with its riders. Rugs can be pulled.
Mugs and chairs can be thrown. Chests cannot. Pick up the **Dragon Flagon** to unlock your Dragon card.

**End.** Four face-down end tokens lie on the track; one is the Navy. When it turns up the game ends.
Crew score = Reputation + 5 per chest held by the crew or lying loose on its own ship (not on a gangplank).
Most points wins; tie: more chests, else a draw.

**Tavern** (option `map: tavern`): free for all on an 11×11 floor walled all round (no water, no chests);
most Reputation wins, ties go to whoever holds the Flagon.

Cards: Step 1, Move 2, Dash 3, Charge 3, Punch 1, Slash 2, Kick 2, Pick Up 1, Throw 2, Swing 3,
Push Table 2, Pull Rug 2, Boast 2 (Duration: +2, +4 on a table)."""


class Flagon(Game):
    info = GameInfo(
        id="flagon",
        title="Flagon",
        min_players=2,
        max_players=8,
        options=(
            Option("map", ("ships", "tavern"), "ships", "two ships (two crews) or the free-for-all tavern"),
            Option("length", ("auto", "short", "standard", "long"), "auto", "where the end tokens lie"),
            Option("crews", ("random", "seats"), "random", "how players are split between the ships"),
            Option("setup", ("draft", "random"), "draft", "pick characters and squares, or deal them"),
        ),
        blurb=(
            "Two pirate crews, two ships, three gangplanks and one Dragon Flagon. Plan your moves in secret, then "
            "watch them collide: kick barrels across the planks, swing from the rigging, and knock your rivals "
            "into the sea. The crew with the most Reputation and treasure when the Navy arrives wins."
        ),
        rules=RULES,
        cards=tuple((f"{name} ({time})", text) for name, time, text in CARD.values()),
    )
    version = 1
    search_horizon = evaluate.HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    # -- the state -----------------------------------------------------------------------------------
    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        return engine.new_state(players, opts, str(seed))

    def to_act(self, state: State) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return moves.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        return engine.apply(state, seat, action)

    def refuse(self, state: State, seat: int, action: str) -> IllegalAction:
        if not re.fullmatch(r"[a-z-]+( [a-zA-Z0-9-]+){0,2}", actions.parse(action)):
            legal = moves.legal_actions(state, seat)
            return IllegalAction("bad_syntax", f"'{action}' is not an action. Choose one of: {', '.join(legal[:12])}.")
        return super().refuse(state, seat, action)

    def seat_count(self, state: State) -> int:
        return state["players"]

    def outcome(self, state: State) -> Outcome | None:
        return engine.outcome(state)

    # -- what a seat sees and reads ------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        return views.private_summary(view, seat)

    def owed(self, view: dict[str, Any], seat: int) -> str:
        return views.owed(view, seat)

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        return views.seat_name(view, seat)

    # -- action text ---------------------------------------------------------------------------------
    def parse(self, text: str) -> Action:
        return actions.parse(text)

    def label(self, view: dict[str, Any], action: Action) -> str:
        return actions.label(view, action)

    def group(self, view: dict[str, Any], action: Action) -> str:
        return actions.group(view, action)

    def describe(self, view: dict[str, Any], action: Action) -> str:
        return actions.describe(view, action)

    # -- the host's helpers --------------------------------------------------------------------------
    def undoable(self, before: State, seat: int, action: str) -> bool:
        if before["phase"] != "act" or not (before["pending"] or {}).get("card"):
            return False
        after, _ = self.apply(before, seat, action)
        pend = after["pending"]
        return (
            after["rng_n"] == before["rng_n"]
            and after["phase"] == "act"
            and pend is not None
            and pend.get("card") == before["pending"]["card"]
            and pend["char"] == before["pending"]["char"]
        )

    def timeout_action(self, state: State, seat: int) -> str:
        """docs/games/flagon.md#time-out-default: the first legal option (plan the first card in hand, stay, keep facing, skip)."""
        return self.legal_actions(state, seat)[0]

    # -- the hard AI ---------------------------------------------------------------------------------
    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return sample.sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return evaluate.win_chance(state, seat)

    def rollout(self, state: State) -> rollout.FlagonRollout:
        return rollout.FlagonRollout(self, state)

    # -- tests ---------------------------------------------------------------------------------------
    def secrets(self, state: State) -> list[str]:
        out = ['"hand":', '"queue":', '"navy":', '"seed":', '"rng_n":']
        for c in state["chars"]:
            out += [f"plan {c['id']} {card}" for card in c["queue"]]
        seed = state["seed"]
        if len(seed) >= 6:
            out.append(seed)
            if all(ch in "0123456789abcdef" for ch in seed.lower()):
                out.append(str(int(seed, 16)))
        return out


GAME = Flagon()
