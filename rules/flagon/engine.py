"""Flagon's state and how it changes: setup and the time loop (docs/games/flagon.md#the-time-loop-and-planning): draft,
re-entry, simultaneous planning, random draws, reveals, replanning after Overboard, end tokens and scoring. ``act``
applies one legal decision; ``settle`` then runs every automatic transition (including steps with a single legal action)
until a decision is owed or the game is over. What a revealed card does is ``resolution.py``'s."""

from __future__ import annotations

from typing import Any

from rules.core import GAME_ACTOR, Event, Outcome, clone, rng
from rules.flagon import resolution
from rules.flagon.board import (
    CREW_NAME,
    CREWS,
    SHIP_NAME,
    START_FACING,
    STARTS,
    TAVERN_FACING,
    TAVERN_STARTS,
    is_tavern,
    layout,
    ship_of,
    tavern_layout,
    xy,
)
from rules.flagon.cards import CHAR_NAME, ROSTER_IDS, card_name, card_time, deck
from rules.flagon.forces import Ctx, State, cname, sort_hand
from rules.flagon.moves import legal_actions, planner, to_act

CHARS_PER_CREW = {2: 2, 3: 2, 4: 4, 5: 3, 6: 3, 7: 4, 8: 4}
LENGTHS = {"short": 15, "standard": 21, "long": 27}
AI_DRAFT = ("paladin", "barbarian", "monk", "buccaneer", "rogue", "swashbuckler", "wizard", "jack")


def rand_below(state: State, n: int) -> int:
    return rng(state).randrange(n)


def shuffle(state: State, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rand_below(state, i + 1)
        items[i], items[j] = items[j], items[i]


# -- setup ----------------------------------------------------------------------------------------------


def new_state(players: int, options: dict[str, str], seed: str) -> State:
    if options.get("map") == "tavern":
        return new_tavern(players, options, seed)
    state: State = {"seed": seed, "rng_n": 0, "options": options, "players": players, "map": "ships"}
    seats = list(range(players))
    if options["crews"] == "random":
        shuffle(state, seats)
    crews = {"west": seats[0::2], "east": seats[1::2]}
    per_crew = CHARS_PER_CREW[players]
    first = CREWS[rand_below(state, 2)]
    other = "east" if first == "west" else "west"
    slot_seats: dict[str, list[int]] = {}
    for crew in CREWS:
        members = crews[crew]
        counts = [per_crew // len(members) + (1 if k < per_crew % len(members) else 0) for k in range(len(members))]
        order = list(members) + [s for s, n in zip(members, counts, strict=True) if n == 2]
        slot_seats[crew] = order
    chars = []
    for k in range(per_crew):
        for crew in (first, other):
            chars.append(_blank_char(len(chars), crew, slot_seats[crew][k]))
    roster = list(ROSTER_IDS)
    if options["setup"] == "random":
        shuffle(state, roster)
    _open(state, crews, first, chars, layout())
    if options["setup"] == "random":
        used = {"west": 0, "east": 0}
        for c, cid in zip(chars, roster, strict=False):
            _take_character(c, cid)
            c["pos"] = STARTS[c["crew"]][used[c["crew"]]]
            used[c["crew"]] += 1
        begin_step(state, Ctx(state))
    else:
        state["pending"] = {"step": "pick", "slot": 0}
    return state


def new_tavern(players: int, options: dict[str, str], seed: str) -> State:
    """Appendix B: every player is a one-player crew; a snake draft over the seats shuffled by the RNG."""
    state: State = {"seed": seed, "rng_n": 0, "options": options, "players": players, "map": "tavern"}
    order = list(range(players))
    shuffle(state, order)
    rounds = [order, order[::-1]] if players <= 4 else [order]
    chars = []
    for rnd in rounds:
        for seat in rnd:
            chars.append(_blank_char(len(chars), f"p{seat}", seat))
    roster = list(ROSTER_IDS)
    if options["setup"] == "random":
        shuffle(state, roster)
    _open(state, {f"p{seat}": [seat] for seat in range(players)}, f"p{order[0]}", chars, tavern_layout())
    if options["setup"] == "random":
        for c, cid, square in zip(chars, roster, TAVERN_STARTS, strict=False):
            _take_character(c, cid)
            c["pos"] = square
            c["facing"] = TAVERN_FACING[square]
        begin_step(state, Ctx(state))
    else:
        state["pending"] = {"step": "pick", "slot": 0}
    return state


def _open(state: State, crews: dict[str, list[int]], first: str, chars: list[dict], objects: list[dict]) -> None:
    """The fields every board starts with: crews, the time track, the hidden end token (drawn at random), objects."""
    length = state["options"]["length"]
    if length == "auto":
        length = "long" if len(chars) <= 5 else "standard"
    start = LENGTHS[length]
    state.update(
        {
            "crews": crews,
            "first_crew": first,
            "T": 0,
            "end_spaces": [start, start + 1, start + 2, start + 3],
            "navy": start + rand_below(state, 4),
            "end_revealed": {},
            "chars": chars,
            "objects": objects,
            "phase": "pick",
            "pending": None,
            "owed": {},
            "victims": [],
            "last": _fresh_last(None, None),
            "result": None,
        }
    )


def crew_label(state: State, crew: str) -> str:
    return CREW_NAME.get(crew) or f"seat {int(crew[1:]) + 1}"


def _blank_char(idx: int, crew: str, seat: int) -> dict[str, Any]:
    return {
        "idx": idx,
        "id": None,
        "crew": crew,
        "seat": seat,
        "pos": None,
        "facing": START_FACING.get(crew, "n"),
        "rep": 20,
        "time": 0,
        "queue": [],
        "hand": [],
        "duration": [],
        "used": [],
        "held": None,
        "dragon": "locked",
        "dazed": False,
        "spoiled": False,
        "waiting": False,
    }


def _take_character(c: dict, cid: str) -> None:
    c["id"] = cid
    c["hand"] = deck(cid)


def _fresh_last(i: int | None, card: str | None) -> dict[str, Any]:
    return {"char": i, "card": card, "touched": [], "arrows": [], "splash": []}


# -- applying a decision --------------------------------------------------------------------------------
def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """A legal action (``Game.apply`` checked it) applied to a copy of ``state``."""
    after = clone(state)
    ctx = Ctx(after)
    act(after, ctx, seat, action)
    return after, ctx.events



def act(state: State, ctx: Ctx, seat: int, action: str) -> None:
    """Apply one legal decision of ``seat`` (already validated), then settle."""
    phase = state["phase"]
    words = action.split()
    if phase in ("plan", "replan"):
        i = planner(state, seat)
        assert i is not None
        c = state["chars"][i]
        c["hand"].remove(words[2])
        c["queue"].append(words[2])
        state["owed"][str(i)] -= 1
        total = len(c["queue"])
        ctx.say(f"Seat {seat + 1} has planned for the {cname(state, i)}.", actor=seat)
        # the card itself is told back to its planner alone: an echo of its own choice (no DM)
        ctx.events.append(
            Event(None, {seat: f"{cname(state, i)}: {card_name(words[2])} planned (slot {total} in the queue)."}, seat)
        )
    elif phase in ("pick", "start"):
        _draft(state, ctx, words)
    else:
        step(state, ctx, action)
    settle(state, ctx)


def _draft(state: State, ctx: Ctx, words: list[str]) -> None:
    slot = state["pending"]["slot"]
    c = state["chars"][slot]
    if words[0] == "pick":
        _take_character(c, words[1])
        state["phase"] = "start"
        state["pending"] = {"step": "start", "slot": slot}
        ctx.say(
            f"Seat {c['seat'] + 1} picks the {CHAR_NAME[words[1]]} for the {crew_label(state, c['crew'])}.",
            actor=c["seat"],
        )
        return
    c["pos"] = words[1]
    if is_tavern(state):
        c["facing"] = TAVERN_FACING[words[1]]
    ctx.say(f"The {cname(state, slot)} starts on {words[1]}.")
    if slot + 1 < len(state["chars"]):
        state["phase"] = "pick"
        state["pending"] = {"step": "pick", "slot": slot + 1}
    else:
        state["pending"] = None
        begin_step(state, ctx)


def step(state: State, ctx: Ctx, action: str) -> None:
    """A step of phase reenter/act."""
    pend = state["pending"]
    words = action.split()
    if pend["step"] == "enter":
        i = pend["char"]
        state["chars"][i]["pos"] = words[1]
        pend["step"] = "face"
        state["last"] = _fresh_last(i, None)
        ctx.bind(state["last"])
        ctx.touch(xy(words[1]))
        return
    if pend["step"] == "face" and pend.get("card") is None:
        i = pend["char"]
        c = state["chars"][i]
        c["facing"] = words[1]
        ctx.say(
            f"{cname(state, i)} climbs back aboard the *{SHIP_NAME[c['crew']]}* at {c['pos']}, facing "
            f"{words[1].upper()}."
        )
        if state["phase"] == "reenter":
            state["pending"] = None
            next_reenter(state, ctx)
        else:
            reveal(state, ctx, i)
        return
    if resolution.choose(state, ctx, action):
        post_card(state, ctx)


def settle(state: State, ctx: Ctx) -> None:
    while state["phase"] != "over":
        phase = state["phase"]
        if phase in ("plan", "replan"):
            if any(n > 0 for n in state["owed"].values()):
                return
            state["owed"] = {}
            if phase == "plan":
                for c in state["chars"]:
                    if c["time"] == state["T"] and c["waiting"]:
                        c["dazed"] = False
            draw_next(state, ctx)
            continue
        seat = to_act(state)[0]
        opts = legal_actions(state, seat)
        if len(opts) != 1:
            return
        if phase in ("pick", "start"):
            _draft(state, ctx, opts[0].split())
        else:
            step(state, ctx, opts[0])


# -- the time loop --------------------------------------------------------------------------------------


def begin_step(state: State, ctx: Ctx) -> None:
    while True:
        active = [c for c in state["chars"] if c["time"] == state["T"]]
        if active:
            break
        if end_step(state, ctx):
            return
    for c in active:
        c["waiting"] = True
    up = ", ".join(f"{cname(state, c['idx'])} ({crew_label(state, c['crew'])})" for c in active)
    ctx.say(f"⏳ Time {state['T']}. Up now: {up}.", actor=GAME_ACTOR)
    next_reenter(state, ctx)


def next_reenter(state: State, ctx: Ctx) -> None:
    for c in state["chars"]:
        if c["time"] == state["T"] and c["waiting"] and c["pos"] is None:
            state["phase"] = "reenter"
            state["pending"] = {"step": "enter", "char": c["idx"], "card": None}
            return
    state["phase"] = "plan"
    state["pending"] = None
    state["owed"] = {}
    for c in state["chars"]:
        if c["time"] == state["T"] and c["waiting"]:
            need = (3 if c["dazed"] else 2) - len(c["queue"])
            if need > 0:
                state["owed"][str(c["idx"])] = need


def draw_next(state: State, ctx: Ctx) -> None:
    pool = [c for c in state["chars"] if c["waiting"] and c["time"] == state["T"]]
    if not pool:
        for c in state["chars"]:
            c["waiting"] = False
        if not end_step(state, ctx):
            begin_step(state, ctx)
        return
    # random tie order; one RNG call per draw (docs/games/flagon.md#drawing-and-revealing)
    c = pool[rand_below(state, len(pool))]
    c["waiting"] = False
    ctx.say(f"Drawn: {cname(state, c['idx'])} ({crew_label(state, c['crew'])}).", actor=GAME_ACTOR)
    if c["pos"] is None:
        state["phase"] = "act"
        state["pending"] = {"step": "enter", "char": c["idx"], "card": None}
        return
    reveal(state, ctx, c["idx"])


def reveal(state: State, ctx: Ctx, i: int) -> None:
    c = state["chars"][i]
    for card in list(c["duration"]):
        if card == "boast":
            if c["spoiled"]:
                ctx.say(f"{cname(state, i)}'s Boast is spoiled.")
            else:
                on_table = any(c["pos"] in o["sqs"] for o in state["objects"] if o["kind"] == "table")
                gain = 4 if on_table else 2
                c["rep"] += gain
                where = " (on a table)" if on_table else ""
                ctx.say(f"{cname(state, i)}'s Boast pays off: +{gain} Reputation{where} → {c['rep']}.")
        else:
            ctx.say(f"{cname(state, i)}'s {card_name(card)} ends.")
        c["duration"].remove(card)
        c["hand"].append(card)
    c["spoiled"] = False
    sort_hand(c)
    card = c["queue"].pop(0)
    state["phase"] = "act"
    state["victims"] = []
    state["last"] = _fresh_last(i, card)
    ctx.bind(state["last"])
    ctx.active = i
    ctx.parried = set()
    if c["pos"] is not None:
        ctx.touch(xy(c["pos"]))
    ctx.say(f"{cname(state, i)} reveals **{card_name(card)}** (time {card_time(card)}).")
    if resolution.begin_card(state, ctx, i, card):
        post_card(state, ctx)


def post_card(state: State, ctx: Ctx) -> None:
    victims = state["victims"]
    state["victims"] = []
    ctx.active = None
    ctx.parried = set()
    if victims:
        state["phase"] = "replan"
        state["pending"] = None
        state["owed"] = {str(v): 2 - len(state["chars"][v]["queue"]) for v in sorted(victims)}
        return
    draw_next(state, ctx)


def end_step(state: State, ctx: Ctx) -> bool:
    """Turn up an end token on T; True if the Navy ended the game. Otherwise T moves on."""
    t = state["T"]
    if t in state["end_spaces"] and str(t) not in state["end_revealed"]:
        navy = t == state["navy"]
        state["end_revealed"][str(t)] = "navy" if navy else "calm"
        if navy:
            ctx.say(f"⚓ The NAVY arrives at {t}! The brawl is over.", actor=GAME_ACTOR)
            state["phase"] = "over"
            state["pending"] = None
            state["owed"] = {}
            state["result"] = result(state)
            ctx.say(result_text(state), actor=GAME_ACTOR)
            return True
        ctx.say(f"End token at {t}: Calm Seas.", actor=GAME_ACTOR)
    state["T"] = t + 1
    return False


# -- scoring --------------------------------------------------------------------------------------------


def scores(state: State) -> dict[str, dict[str, int]]:
    out = {crew: {"rep": 0, "chests": 0, "total": 0} for crew in state["crews"]}
    for c in state["chars"]:
        out[c["crew"]]["rep"] += c["rep"]
    for o in state["objects"]:
        if o["kind"] != "chest" or o["gone"]:
            continue
        if o["held"] is not None:
            out[state["chars"][o["held"]]["crew"]]["chests"] += 1
        else:
            ship = ship_of(xy(o["sq"]))
            if ship is not None:
                out[ship]["chests"] += 1
    for crew in out:
        out[crew]["total"] = out[crew]["rep"] + 5 * out[crew]["chests"]
    return out


def result(state: State) -> dict[str, Any]:
    sc = scores(state)
    key = {crew: (s["total"], s["chests"]) for crew, s in sc.items()}
    if is_tavern(state):
        # Appendix B: most Reputation; among the tied, whoever holds the Flagon; otherwise a shared win
        key = {crew: (s["total"], 0) for crew, s in sc.items()}
        best = max(key.values())
        tied = [crew for crew in sc if key[crew] == best]
        holder = next(
            (
                state["chars"][o["held"]]["crew"]
                for o in state["objects"]
                if o["kind"] == "flagon" and o["held"] is not None
            ),
            None,
        )
        if holder in tied:
            tied = [holder]
    else:
        best = max(key.values())
        tied = [crew for crew in sc if key[crew] == best]
    winners = sorted(seat for crew in tied for seat in state["crews"][crew])
    return {"winner": tied[0] if len(tied) == 1 else None, "winners": winners, "scores": sc}


def result_text(state: State) -> str:
    r = state["result"]
    sc = r["scores"]

    def part(crew: str) -> str:
        s = sc[crew]
        if is_tavern(state):
            return f"{crew_label(state, crew)} {s['total']}"
        return f"Rep {s['rep']} + {s['chests']} chest{'s' if s['chests'] != 1 else ''}"

    if is_tavern(state):
        table = ", ".join(part(crew) for crew in sorted(sc, key=lambda k: (-sc[k]["total"], k)))
        head = "Shared win" if r["winner"] is None else f"{crew_label(state, r['winner']).capitalize()} wins"
        return f"{head}: {table}."
    if r["winner"] is None:
        return f"A draw at {sc['west']['total']} – {sc['east']['total']} ({part('west')} vs {part('east')})."
    win, lose = r["winner"], "east" if r["winner"] == "west" else "west"
    return f"{CREW_NAME[win]} win {sc[win]['total']} – {sc[lose]['total']} ({part(win)} vs {part(lose)})."


def outcome(state: State) -> Outcome | None:
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
