"""The course of a Treasure Island game, day by day (docs/games/treasure_island.md#setup-and-the-calendar): the District
Hints dealt once the treasure is buried, each calendar day and its event, a miniature's turn and its end, searches and
the chests they may earn, the escape round by round, and the end."""

from __future__ import annotations

from rules import core
from rules.core import Event, State
from rules.treasure_island import calendar, geometry, hints
from rules.treasure_island.geometry import Pt
from rules.treasure_island.model import (
    ESCAPE_ROUNDS,
    as_pt,
    geo_of,
    mini_name,
    month,
    playable_cards,
    player_minis,
    redraw_allowed,
    tower_name,
)


def deal_districts(state: State, ev: list[Event]) -> None:
    g = geo_of(state)
    t = as_pt(state["treasure"])
    dt = g.district[geometry.node(*t)]
    state["set_aside"] = f"D{dt}"
    pile = [f"D{d}" for d in sorted(g.district_mask) if d != dt]
    core.rng(state).shuffle(pile)
    for m in state["deal_order"]:
        state["districts"][m].append(pile.pop(0))
    extra = ""
    if "charlotte" in state["minis"]:
        state["scrolls"] = pile[:2]
        state["districts"]["charlotte"] += pile[:2]
        pile = pile[2:]
        extra = " (Charlotte de Berry draws two more)"
    state["district_pile"] = pile
    private: dict[int, str] = {}
    for m in state["deal_order"]:
        seat = state["owner"][m]
        lines = []
        for d in state["districts"][m]:
            k = int(d[1:])
            lines.append(f"{mini_name(m)}'s District Hint: the treasure is not in {d} {g.district_names[k]}.")
        private[seat] = (private.get(seat, "") + " " + " ".join(lines)).strip()
    if state["scrolls"]:
        private[state["silver"]] = (
            f"Charlotte de Berry's Ancient Scrolls: {state['scrolls'][0]} and {state['scrolls'][1]}."
        )
    ev.append(Event(f"District Hints dealt: one per miniature{extra}.", private))


# -- the calendar ---------------------------------------------------------------------------------------------
def start_day(state: State, ev: list[Event]) -> None:
    state["day"] += 1
    day = state["day"]
    stars, event = calendar.SIDES[state["side"]][day]
    active = state["order"][(day - 1) % state["F"]]
    state["fog"] = [f for f in state["fog"] if f["laid"] > day - 3]
    state["calendar"].append(
        {"day": day, "stars": stars, "event": event, "active": active, "hint": None, "token": None}
    )
    state["turn"] = {"mini": active, "left": stars}
    ename = f" Event: {calendar.EVENT_NAMES[event]}." if event else ""
    acts = f"{stars} action{'s' if stars != 1 else ''}" if stars else "no actions"
    ev.append(Event(f"{month(day)}: {mini_name(active)}'s day, {acts}.{ename}"))
    if event in ("starting", "black"):
        begin_hint(state, ev)
    elif event == "blackspot":
        state["discards"] += state["hand"]
        deck = state["black_deck"]
        state["hand"], state["black_deck"] = deck[:3], deck[3:]
        state["black_spot"] = True
        # Silver's hand changes through a pirate's move: he is told which cards he now holds
        drew = "; ".join(f"{hints.title(c)}: {hints.EFFECTS.get(c, '')}" for c in state["hand"])
        ev.append(
            Event(
                "Long John Silver receives the Black Spot! His Starting Hints go to the discard and three Black "
                "Spot Hints come to his hand.",
                {state["silver"]: f"The Black Spot: your Starting Hints are discarded and you draw {drew}."},
            )
        )
        begin_turn(state, ev)
    elif event == "bluff":
        state["tokens"]["bluff"] += 1
        state["bluffs_taken"] += 1
        ev.append(Event(f"Long John Silver takes a Bluff token ({state['bluffs_taken']} of 2)."))
        begin_turn(state, ev)
    elif event == "prison":
        if state["options"]["expansion"] == "on":
            state["state"] = "prison_trick"
        else:
            state["prison_by"] = state["owner"][active]
            state["state"] = "prison"
    elif event == "escape":
        begin_escape(state, ev)
    else:
        begin_turn(state, ev)


def begin_hint(state: State, ev: list[Event]) -> None:
    if not playable_cards(state) and not redraw_allowed(state):
        ev.append(Event("Long John Silver has no hint he can play today."))
        begin_turn(state, ev)
        return
    state["pending"] = {"card": None, "token": None, "params": [], "fog_left": 0}
    state["state"] = "hint_card"


def begin_turn(state: State, ev: list[Event]) -> None:
    state["state"] = "turn"
    back_to_turn(state, ev)


def back_to_turn(state: State, ev: list[Event]) -> None:
    """Return to ``turn``, ending it by itself when nothing is left and the player never got a chest
    (docs/games/treasure_island.md#automatic-end-of-turn)."""
    state["state"] = "turn"
    m = state["turn"]["mini"]
    if state["turn"]["left"] <= 0 and not state["received"][state["owner"][m]]:
        end_turn(state, ev)


def end_turn(state: State, ev: list[Event]) -> None:
    if state["escape"] is None:
        start_day(state, ev)
    else:
        next_in_escape(state, ev)


# -- the escape -----------------------------------------------------------------------------------------------
def escape_queue(state: State) -> list[str]:
    out: list[str] = []
    for seat in calendar.clockwise_from(state["silver"], state["n"]):
        out += player_minis(state, seat)
    return out


def begin_escape(state: State, ev: list[Event]) -> None:
    g = geo_of(state)
    state["fog"] = []
    tower = state["tower"]
    pos = list(g.towers[tower])
    state["figures"] = [{"id": "L", "pos": pos, "trail": []}]
    state["real"] = "L"
    state["escape"] = {"round": 1, "queue": escape_queue(state), "qi": -1, "fig": 0, "moves": 0, "first": True}
    state["state"] = "escape"
    tname = tower_name(state, tower)
    ev.append(Event(f"{month(state['day'])}: Long John Silver escapes from {tower} {tname}!"))


def next_figure(state: State, ev: list[Event]) -> None:
    e = state["escape"]
    e["fig"] += 1
    e["moves"] = 0
    e["first"] = False
    if e["fig"] >= len(state["figures"]):
        e["qi"] = 0
        start_escape_pirate(state, ev)


def start_escape_pirate(state: State, ev: list[Event]) -> None:
    e = state["escape"]
    m = e["queue"][e["qi"]]
    state["turn"] = {"mini": m, "left": 2}
    begin_turn(state, ev)


def next_in_escape(state: State, ev: list[Event]) -> None:
    e = state["escape"]
    e["qi"] += 1
    if e["qi"] < len(e["queue"]):
        start_escape_pirate(state, ev)
        return
    if e["round"] >= ESCAPE_ROUNDS:
        finish(state, ev, [], "provisions", "The ship sails without the gold: 30 escape rounds and no winner.")
        return
    e["round"] += 1
    e["fig"] = 0
    e["moves"] = 0
    e["qi"] = -1
    state["state"] = "escape"


# -- the end --------------------------------------------------------------------------------------------------
def finish(state: State, ev: list[Event], winners: list[int], reason: str, line: str) -> None:
    state["state"] = "over"
    state["outcome"] = {"winners": sorted(winners), "reason": reason}
    t = geometry.fmt(as_pt(state["treasure"]))
    tokens = ", ".join(
        f"{month(h['day'])} {tok.upper()}" for h, tok in zip(state["hints"], state["hint_tokens"], strict=True)
    )
    traitor = f" The traitor was seat {state['traitor'] + 1}." if state["traitor"] is not None else ""
    ev.append(Event(f"{line} The treasure was at ({t}). Tokens: {tokens or 'none'}.{traitor}"))


def search(state: State, ev: list[Event], mini: str, kind: str, centre: Pt, r: int, anchor: Pt, then: str) -> None:
    """Resolve a search: a win, or a public record and maybe a chest decision
    (docs/games/treasure_island.md#chest-tokens)."""
    g = geo_of(state)
    cov = g.covered(centre, r, anchor)
    t = as_pt(state["treasure"])
    owner = state["owner"][mini]
    miles = geometry.fmt_mile(r)
    what = {"small": "digs around", "large": f"searches {miles} miles around"}[
        "small" if kind in ("walk", "dig", "use dig", "monkey") else "large"
    ]
    if cov >> geometry.node(*t) & 1:
        finish(
            state,
            ev,
            [owner],
            "found",
            f"{mini_name(mini)} {what} ({geometry.fmt(centre)}) and strikes the chest! {mini_name(mini)} wins.",
        )
        return
    state["searches"].append(
        {
            "day": state["day"],
            "by": mini,
            "kind": kind,
            "source": kind,
            "centre": list(centre),
            "radius": r,
            "anchor": list(anchor),
            "covered": geometry.mask_b64(cov),
        }
    )
    ev.append(Event(f"{mini_name(mini)} {what} ({geometry.fmt(centre)}): nothing."))
    if state["chest_tokens"]:
        state["chest_ctx"] = {"mini": mini, "pos": list(state["minis"][mini]["pos"]), "then": then}
        state["state"] = "chest"
    else:
        after_chest(state, ev, then)


def after_chest(state: State, ev: list[Event], then: str) -> None:
    if then == "step":
        state["state"] = "step"
    else:
        back_to_turn(state, ev)
