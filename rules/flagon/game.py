"""The Flagon engine: the ``rules.core.Game`` contract over the board, cards and time loop."""

from __future__ import annotations

import random
import re
from typing import Any

from rules.core import Event, Game, GameInfo, IllegalAction, Option, Outcome, State, clone, normalize_text

from . import ai, flow
from .board import SHIP_NAME
from .cards import CARD, CHAR_NAME, TAG, card_name
from .evaluate import HORIZON, win_chance
from .forces import Ctx

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
    search_horizon = HORIZON
    policies = {"easy": ai.easy, "normal": ai.normal}

    def new(self, players: int, options: dict[str, str] | None, seed: str) -> State:
        self.check_players(players)
        opts = self.resolve_options(options)
        return flow.new_state(players, opts, str(seed))

    def to_act(self, state: State) -> list[int]:
        return flow.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return flow.options(state, seat)

    def parse(self, text: str) -> str:
        action = normalize_text(text)
        if not action:
            raise IllegalAction("bad_syntax", "Type an action, for example `plan monk step`, `to H5` or `skip`.")
        return re.sub(r"\b([a-o])(\d{1,2})\b", lambda m: m.group(1).upper() + m.group(2), action)

    def _apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        st = clone(state)
        ctx = Ctx(st)
        flow.act(st, ctx, seat, action)
        return st, ctx.events

    def refuse(self, state: State, seat: int, action: str) -> IllegalAction:
        if not re.fullmatch(r"[a-z-]+( [a-zA-Z0-9-]+){0,2}", self.parse(action)):
            legal = flow.options(state, seat)
            return IllegalAction("bad_syntax", f"'{action}' is not an action. Choose one of: {', '.join(legal[:12])}.")
        return super().refuse(state, seat, action)

    # -- views --------------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        my_crews = set()
        if seat is not None:
            my_crews = {c["crew"] for c in state["chars"] if c["seat"] == seat}
            my_crews |= {crew for crew, seats in state["crews"].items() if seat in seats}
        chars = []
        for c in state["chars"]:
            row = {
                k: c[k]
                for k in (
                    "idx",
                    "id",
                    "crew",
                    "seat",
                    "pos",
                    "facing",
                    "rep",
                    "time",
                    "duration",
                    "held",
                    "dragon",
                    "dazed",
                    "spoiled",
                    "waiting",
                )
            }
            row["duration"] = list(c["duration"])
            row["name"] = CHAR_NAME.get(c["id"] or "", "")
            row["tag"] = TAG.get(c["id"] or "", "?")
            row["queued"] = len(c["queue"])
            row["owed"] = state["owed"].get(str(c["idx"]), 0)
            row["used"] = list(c["used"])
            if seat is not None and c["seat"] == seat:
                row["hand"] = list(c["hand"])
            if seat is not None and c["crew"] in my_crews:
                row["queue"] = list(c["queue"])
            chars.append(row)
        pend = state["pending"]
        pending = None
        if pend is not None:
            pending = {k: v for k, v in pend.items() if k != "data"}
            if pend.get("data", {}).get("target") is not None:
                pending["target"] = pend["data"]["target"]
            if pend.get("data", {}).get("parried"):
                # who parried the card being resolved was narrated; a sampler needs it to rebuild the state
                pending["parried"] = list(pend["data"]["parried"])
        return {
            "game": "flagon",
            "seat": seat,
            "players": state["players"],
            "phase": state["phase"],
            "step": pend["step"] if pend else state["phase"],
            "to_act": flow.to_act(state),
            "T": state["T"],
            "end_spaces": list(state["end_spaces"]),
            "end_revealed": dict(state["end_revealed"]),
            "map": state.get("map", "ships"),
            "crews": {
                crew: {"name": flow.crew_label(state, crew), "ship": SHIP_NAME.get(crew, ""), "seats": list(seats)}
                for crew, seats in state["crews"].items()
            },
            "chars": chars,
            "objects": clone(state["objects"]),
            "pending": pending,
            "last": clone(state["last"]),
            "scores": flow.scores(state),
            # characters knocked overboard by the card being resolved (public), who replan once it ends
            "victims": list(state["victims"]),
            "result": clone(state["result"]),
        }

    def seat_count(self, state: State) -> int:
        return state["players"]

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        r = state["result"]
        totals = {crew: r["scores"][crew]["total"] for crew in r["scores"]}
        seat_crew = {s: crew for crew, seats in state["crews"].items() for s in seats}
        scores = tuple(float(totals[seat_crew[s]]) for s in range(state["players"]))
        ranking = tuple(sorted(range(state["players"]), key=lambda s: (-scores[s], s)))
        # ratings: each crew is a side, the winning crews first, then by total (and chests on the ships, the
        # result's own tie-break), still equal is a tie; in the tavern every seat is its own crew, so that
        # free-for-all is ranked seat by seat
        crews = sorted(c for c in state["crews"] if state["crews"][c])
        teams = tuple(tuple(state["crews"][c]) for c in crews)
        tavern = state.get("map") == "tavern"
        key = {
            c: (not set(teams[i]) & set(r["winners"]), -totals[c], 0 if tavern else -r["scores"][c]["chests"])
            for i, c in enumerate(crews)
        }
        places = tuple(1 + sum(k < key[c] for k in key.values()) for c in crews)
        return Outcome(
            winners=tuple(r["winners"]), reason="navy", scores=scores, ranking=ranking, teams=teams, places=places
        )

    # -- the table's voice -------------------------------------------------------------------------------
    def owed(self, view: dict[str, Any], seat: int) -> str:
        phase = view.get("phase")
        if phase in ("plan", "replan"):
            return "plan your cards in secret"
        pend = view.get("pending") or {}
        chars = view.get("chars") or []
        slot = pend.get("char", pend.get("slot"))
        who = chars[slot]["name"] if isinstance(slot, int) and slot < len(chars) and chars[slot]["name"] else ""
        step = pend.get("step")
        if step == "pick":
            crew = (view.get("crews") or {}).get(chars[slot]["crew"], {}).get("name", "") if who == "" else ""
            return f"pick a character{f' for the {crew}' if crew else ''}"
        if step == "start":
            return f"choose where the {who} starts"
        if step == "enter":
            return f"choose where the {who} climbs back aboard"
        if pend.get("card"):
            return f"play out the {who}'s {card_name(pend['card'])}"
        if step == "face":
            return f"choose which way the {who} faces"
        return f"act for the {who}" if who else "take your turn"

    def seat_name(self, view: dict[str, Any], seat: int) -> str:
        """The seat's characters: during secret planning only those still owing a card (spec §4's "waiting for:
        Ana (Monk)"), while a character acts that one if it is the seat's; before the draft, its crew."""
        mine = [c for c in view.get("chars") or [] if c.get("seat") == seat]
        picked = [c for c in mine if c.get("name")]
        if not picked:
            crews = view.get("crews") or {}
            names = [crews[c["crew"]]["name"] for c in mine if c["crew"] in crews]
            return names[0] if names and view.get("map", "ships") == "ships" else ""
        if view.get("phase") in ("plan", "replan"):
            owing = [c for c in picked if c.get("owed")]
            if owing:
                picked = owing
        else:
            pend = view.get("pending") or {}
            acting = [c for c in picked if c.get("idx") == pend.get("char")]
            if acting:
                picked = acting
        return " & ".join(c["name"] for c in picked)

    def describe(self, view: dict[str, Any], action: str) -> str:
        words = action.split()
        if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
            name, time, text = CARD[words[2]]
            return f"{name} (time {time}): {text}"[:100]
        pend = view.get("pending") or {}
        if pend.get("card") in CARD and words[0] in ("to", "at", "aim", "shove", "skip", "face", "take"):
            name, time, text = CARD[pend["card"]]
            return f"{name}: {text}"[:100]
        return ""

    # -- helpers for hosts and AIs ------------------------------------------------------------------------
    def label(self, view: dict[str, Any], action: str) -> str:
        words = action.split()
        if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
            name, time, text = CARD[words[2]]
            return f"{name} ({time}): {text}"
        if words[0] == "pick" and len(words) == 2:
            return CHAR_NAME.get(words[1], action)
        pend = view.get("pending") or {}
        if pend.get("card") and words[0] in ("to", "at", "aim", "shove", "skip"):
            return f"{card_name(pend['card'])}: {action}"
        return action

    def group(self, view: dict[str, Any], action: str) -> str:
        words = action.split()
        if words[0] == "to" and len(words) == 2:
            # Dash and Shadow Dash can offer more than a menu holds: one menu per row
            return f"to row {words[1][1:]}"
        return words[0]

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
        """Spec 3.8: the first legal option (plan the first card in hand, stay, keep facing, skip)."""
        return self.legal_actions(state, seat)[0]

    def sample(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        from .sample import sample

        return sample(view, seat, rng)

    def evaluate(self, state: State, seat: int) -> float:
        return win_chance(state, seat)

    def private_summary(self, view: dict[str, Any], seat: int) -> str:
        lines = []
        for char in view["chars"]:
            if char.get("seat") != seat or "hand" not in char or not char.get("name"):
                continue  # not this seat's, or not yet drafted (no name, no cards)
            planned = ", ".join(card_name(c) for c in char.get("queue") or []) or "nothing"
            lines.append(f"**{char['name']}** — planned: {planned}. Hand:")
            # each card with what it does, so the hand can be read without the rules
            lines.extend(f"• {CARD[c][0]} ({CARD[c][1]}): {CARD[c][2]}" for c in char["hand"] if c in CARD)
        return "\n".join(lines)

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
