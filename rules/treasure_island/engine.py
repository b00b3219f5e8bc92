"""Treasure Island's rules: setup, the calendar, pirate turns, Long John Silver's hint steps and the escape.

The state is plain JSON (spec §3.1). Every decision is one finite step; automatic steps (calendar update, Black
Spot, Bluff token, dealing) run inside ``apply`` until a seat owes a decision again.
"""

from __future__ import annotations

from typing import Any

from rules import core
from rules.core import Event, State
from rules.treasure_island import calendar as C
from rules.treasure_island import geometry as G
from rules.treasure_island import hints as H
from rules.treasure_island.geometry import Pt

NAMES = H.NAMES
SILVER = "Long John Silver"
POINT_VERBS = ("bury", "fog", "ride", "walk", "step", "search", "gallop", "monkey", "spyglass", "run")
ESCAPE_ROUNDS = 30
FOG_R2 = 9  # fog discs: 1.5 miles = 3 hu


def P(v: list[int] | tuple[int, int]) -> Pt:
    return (v[0], v[1])


def month(day: int) -> str:
    return f"June {day}"


# -- small state queries ---------------------------------------------------------------------------------------
def geo_of(s: State) -> G.Geo:
    return G.geo(s["options"]["map"])


def mini_name(m: str) -> str:
    return NAMES[m]


def used_spots(s: State) -> tuple[str, ...]:
    return tuple(c for c in C.CHARACTERS if c in s["minis"])


def player_minis(s: State, seat: int) -> list[str]:
    """A player's miniatures in pass order."""
    return sorted((m for m in s["minis"] if s["owner"][m] == seat), key=lambda m: s["pass_idx"][m])


def current_deck(s: State) -> str:
    return "black_deck" if s["black_spot"] else "starting_deck"


def credit(s: State) -> int:
    return len(s["given"]) - s["chest_hints_played"]


def playable_cards(s: State) -> list[str]:
    return H.sort_ids([c for c in s["hand"] if not H.CARDS[c].chest or credit(s) >= 1])


def redraw_allowed(s: State) -> bool:
    hand = s["hand"]
    return len(hand) == 3 and all(H.CARDS[c].chest for c in hand) and len(s[current_deck(s)]) > 0


def trick_playable(s: State, card: str) -> bool:
    t = s["tricks"]
    if card not in t["hand"]:
        return False
    value, date_a, date_b = C.TRICKS[card]
    if value > t["points"]:
        return False
    if s["escape"] is not None:
        return card == "phantom"
    return s["day"] <= (date_a if s["side"] == "A" else date_b)


def hint_ctx(s: State) -> H.Ctx:
    g = geo_of(s)
    return H.Ctx(
        s["options"]["map"],
        tuple((m, P(s["minis"][m]["pos"])) for m in s["order"]),
        (s["tower"], g.towers[s["tower"]]),
    )


def fog_discs(s: State) -> tuple[Pt, ...]:
    return tuple(P(f["centre"]) for f in s["fog"])


def search_radius(mini: str) -> int:
    return 5 if mini == "jim" else 4


def holds_token(s: State, token: str) -> bool:
    return token in s["chest_tokens"]


def info_true(s: State, token: str, p: Pt) -> bool:
    t = P(s["treasure"])
    if token == "west":
        return t[0] <= p[0]
    if token == "east":
        return t[0] >= p[0]
    if token == "notdistrict":
        g = geo_of(s)
        return g.district[G.node(*t)] != g.district[G.node(*p)]
    return True


def to_act(s: State) -> list[int]:
    st = s["state"]
    if st == "over":
        return []
    if st in ("bury", "hint_card", "fog", "hint_token", "hint_param", "prison_trick", "chest", "compass"):
        return [s["silver"]]
    if st in ("escape", "phantom"):
        return [s["silver"]]
    if st == "prison":
        return [s["prison_by"]]
    return [s["owner"][s["turn"]["mini"]]]


# -- setup -----------------------------------------------------------------------------------------------------
def new_state(players: int, opts: dict[str, str], seed: str) -> State:
    s: State = {"seed": seed, "rng_n": 0, "options": opts, "n": players}
    expansion = opts["expansion"] == "on"
    silver = core.rng(s).randrange(players) if opts["silver"] == "random" else 0
    per = C.minis_each(players)
    f = per * (players - 1)
    pool = [c for c in C.CHARACTERS if expansion or c != "ben"]
    core.rng(s).shuffle(pool)
    cal = C.passes(C.counter_clockwise_from(silver, players), per)
    char_of = {sp: pool[k] for k, sp in enumerate(cal)}
    deal = C.passes(C.clockwise_from(silver, players), per)
    starting = [f"S{k}" for k in (range(2, 9) if expansion else range(1, 8))]
    black = [f"B{k}" for k in range(1, 13 if expansion else 12)]
    compass = [f"C{k}" for k in range(1, 9)]
    core.rng(s).shuffle(starting)
    core.rng(s).shuffle(black)
    core.rng(s).shuffle(compass)
    g = G.geo(opts["map"])
    minis: dict[str, Any] = {}
    for sp in cal:
        m = char_of[sp]
        minis[m] = {
            "pos": list(g.spots[m]),
            "trail": [],
            "gallop": 1,
            "verify": 1,
            "compass": 2 if m == "anne" else 1,
            "special": 1 if m in ("anne", "olivier", "ben") else 0,
            "chests": 0,
            "items_used": [],
        }
    tricks_hand: list[str] = []
    points = int(opts["tricks"]) if expansion else 0
    if expansion and points >= 1:
        tricks_hand = [t for t in C.TRICK_ORDER if not (t == "traitor" and players == 2)]
    s.update(
        {
            "silver": silver,
            "order": [char_of[sp] for sp in cal],
            "deal_order": [char_of[sp] for sp in deal],
            "owner": {char_of[sp]: sp[0] for sp in cal},
            "pass_idx": {char_of[sp]: sp[1] for sp in cal},
            "side": C.side_for(f),
            "F": f,
            "state": "bury",
            "day": 0,
            "treasure": None,
            "starting_deck": starting[3:],
            "black_deck": black,
            "compass_deck": compass[f + 3 :],
            "hand": starting[:3],
            "compass_hand": compass[: f + 3],
            "discards": [],
            "black_spot": False,
            "districts": {m: [] for m in minis},
            "set_aside": None,
            "district_pile": [],
            "scrolls": [],
            "tokens": {"truth": 6, "bluff": 0, "lie": 0},
            "bluffs_taken": 0,
            "chest_tokens": list(C.CHEST_TOKENS),
            "given": [],
            "chest_hints_played": 0,
            "items": [[] for _ in range(players)],
            "received": [False] * players,
            "minis": minis,
            "tower": "T1",
            "figures": [],
            "real": None,
            "calendar": [],
            "hints": [],
            "hint_tokens": [],
            "searches": [],
            "compass_uses": [],
            "compass_given": [],
            "verifications": [],
            "verified": [[] for _ in range(players)],
            "memory": [[] for _ in range(players)],
            "info_tokens": [[] for _ in range(players)],
            "fog": [],
            "tricks": {"hand": tricks_hand, "points": points, "played": []},
            "tricks_public": [],
            "traitor": None,
            "turn": {"mini": None, "left": 0},
            "pending": None,
            "chest_ctx": None,
            "compass_mini": None,
            "ride_from": None,
            "prison_by": None,
            "escape": None,
            "last": None,
            "outcome": None,
        }
    )
    return s


def deal_districts(s: State, ev: list[Event]) -> None:
    g = geo_of(s)
    t = P(s["treasure"])
    dt = g.district[G.node(*t)]
    s["set_aside"] = f"D{dt}"
    pile = [f"D{d}" for d in sorted(g.district_mask) if d != dt]
    core.rng(s).shuffle(pile)
    for m in s["deal_order"]:
        s["districts"][m].append(pile.pop(0))
    extra = ""
    if "charlotte" in s["minis"]:
        s["scrolls"] = pile[:2]
        s["districts"]["charlotte"] += pile[:2]
        pile = pile[2:]
        extra = " (Charlotte de Berry draws two more)"
    s["district_pile"] = pile
    private: dict[int, str] = {}
    for m in s["deal_order"]:
        seat = s["owner"][m]
        lines = []
        for d in s["districts"][m]:
            k = int(d[1:])
            lines.append(f"{mini_name(m)}'s District Hint: the treasure is not in {d} {g.district_names[k]}.")
        private[seat] = (private.get(seat, "") + " " + " ".join(lines)).strip()
    if s["scrolls"]:
        private[s["silver"]] = f"Charlotte de Berry's Ancient Scrolls: {s['scrolls'][0]} and {s['scrolls'][1]}."
    ev.append(Event(f"District Hints dealt: one per miniature{extra}.", private))


# -- the calendar ---------------------------------------------------------------------------------------------
def start_day(s: State, ev: list[Event]) -> None:
    s["day"] += 1
    day = s["day"]
    stars, event = C.SIDES[s["side"]][day]
    active = s["order"][(day - 1) % s["F"]]
    s["fog"] = [f for f in s["fog"] if f["laid"] > day - 3]
    s["calendar"].append({"day": day, "stars": stars, "event": event, "active": active, "hint": None, "token": None})
    s["turn"] = {"mini": active, "left": stars}
    ename = f" Event: {C.EVENT_NAMES[event]}." if event else ""
    acts = f"{stars} action{'s' if stars != 1 else ''}" if stars else "no actions"
    ev.append(Event(f"{month(day)}: {mini_name(active)}'s day, {acts}.{ename}"))
    if event in ("starting", "black"):
        begin_hint(s, ev)
    elif event == "blackspot":
        s["discards"] += s["hand"]
        deck = s["black_deck"]
        s["hand"], s["black_deck"] = deck[:3], deck[3:]
        s["black_spot"] = True
        ev.append(
            Event(
                "Long John Silver receives the Black Spot! His Starting Hints go to the discard and three Black "
                "Spot Hints come to his hand."
            )
        )
        begin_turn(s, ev)
    elif event == "bluff":
        s["tokens"]["bluff"] += 1
        s["bluffs_taken"] += 1
        ev.append(Event(f"Long John Silver takes a Bluff token ({s['bluffs_taken']} of 2)."))
        begin_turn(s, ev)
    elif event == "prison":
        if s["options"]["expansion"] == "on":
            s["state"] = "prison_trick"
        else:
            s["prison_by"] = s["owner"][active]
            s["state"] = "prison"
    elif event == "escape":
        begin_escape(s, ev)
    else:
        begin_turn(s, ev)


def begin_hint(s: State, ev: list[Event]) -> None:
    if not playable_cards(s) and not redraw_allowed(s):
        ev.append(Event("Long John Silver has no hint he can play today."))
        begin_turn(s, ev)
        return
    s["pending"] = {"card": None, "token": None, "params": [], "fog_left": 0}
    s["state"] = "hint_card"


def begin_turn(s: State, ev: list[Event]) -> None:
    s["state"] = "turn"
    back_to_turn(s, ev)


def back_to_turn(s: State, ev: list[Event]) -> None:
    """Return to ``turn``, ending it by itself when nothing is left and the player never got a chest (§3.6)."""
    s["state"] = "turn"
    m = s["turn"]["mini"]
    if s["turn"]["left"] <= 0 and not s["received"][s["owner"][m]]:
        end_turn(s, ev)


def end_turn(s: State, ev: list[Event]) -> None:
    if s["escape"] is None:
        start_day(s, ev)
    else:
        next_in_escape(s, ev)


# -- the escape -----------------------------------------------------------------------------------------------
def escape_queue(s: State) -> list[str]:
    out: list[str] = []
    for seat in C.clockwise_from(s["silver"], s["n"]):
        out += player_minis(s, seat)
    return out


def begin_escape(s: State, ev: list[Event]) -> None:
    g = geo_of(s)
    s["fog"] = []
    tower = s["tower"]
    pos = list(g.towers[tower])
    s["figures"] = [{"id": "L", "pos": pos, "trail": []}]
    s["real"] = "L"
    s["escape"] = {"round": 1, "queue": escape_queue(s), "qi": -1, "fig": 0, "moves": 0, "first": True}
    s["state"] = "escape"
    tname = _tower_name(s, tower)
    ev.append(Event(f"{month(s['day'])}: Long John Silver escapes from {tower} {tname}!"))


def _tower_name(s: State, tid: str) -> str:
    from rules.treasure_island.maps import MAPS

    for t in MAPS[s["options"]["map"]]["towers"]:
        if t["id"] == tid:
            return t["name"]
    return tid


def next_figure(s: State, ev: list[Event]) -> None:
    e = s["escape"]
    e["fig"] += 1
    e["moves"] = 0
    e["first"] = False
    if e["fig"] >= len(s["figures"]):
        e["qi"] = 0
        start_escape_pirate(s, ev)


def start_escape_pirate(s: State, ev: list[Event]) -> None:
    e = s["escape"]
    m = e["queue"][e["qi"]]
    s["turn"] = {"mini": m, "left": 2}
    begin_turn(s, ev)


def next_in_escape(s: State, ev: list[Event]) -> None:
    e = s["escape"]
    e["qi"] += 1
    if e["qi"] < len(e["queue"]):
        start_escape_pirate(s, ev)
        return
    if e["round"] >= ESCAPE_ROUNDS:
        finish(s, ev, [], "provisions", "The ship sails without the gold: 30 escape rounds and no winner.")
        return
    e["round"] += 1
    e["fig"] = 0
    e["moves"] = 0
    e["qi"] = -1
    s["state"] = "escape"


# -- the end --------------------------------------------------------------------------------------------------
def finish(s: State, ev: list[Event], winners: list[int], reason: str, line: str) -> None:
    s["state"] = "over"
    s["outcome"] = {"winners": sorted(winners), "reason": reason}
    t = G.fmt(P(s["treasure"]))
    tokens = ", ".join(f"{month(h['day'])} {tok.upper()}" for h, tok in zip(s["hints"], s["hint_tokens"], strict=True))
    traitor = f" The traitor was seat {s['traitor'] + 1}." if s["traitor"] is not None else ""
    ev.append(Event(f"{line} The treasure was at ({t}). Tokens: {tokens or 'none'}.{traitor}"))


def search(s: State, ev: list[Event], mini: str, kind: str, centre: Pt, r: int, anchor: Pt, then: str) -> None:
    """Resolve a search (§3.7): a win, or a public record and maybe a chest decision."""
    g = geo_of(s)
    cov = g.covered(centre, r, anchor)
    t = P(s["treasure"])
    owner = s["owner"][mini]
    miles = G.fmt_mile(r)
    what = {"small": "digs around", "large": f"searches {miles} miles around"}[
        "small" if kind in ("walk", "dig", "use dig", "monkey") else "large"
    ]
    if cov >> G.node(*t) & 1:
        finish(
            s,
            ev,
            [owner],
            "found",
            f"{mini_name(mini)} {what} ({G.fmt(centre)}) and strikes the chest! {mini_name(mini)} wins.",
        )
        return
    s["searches"].append(
        {
            "day": s["day"],
            "by": mini,
            "kind": kind,
            "source": kind,
            "centre": list(centre),
            "radius": r,
            "anchor": list(anchor),
            "covered": G.mask_b64(cov),
        }
    )
    ev.append(Event(f"{mini_name(mini)} {what} ({G.fmt(centre)}): nothing."))
    if s["chest_tokens"]:
        s["chest_ctx"] = {"mini": mini, "pos": list(s["minis"][mini]["pos"]), "then": then}
        s["state"] = "chest"
    else:
        after_chest(s, ev, then)


def after_chest(s: State, ev: list[Event], then: str) -> None:
    if then == "step":
        s["state"] = "step"
    else:
        back_to_turn(s, ev)
