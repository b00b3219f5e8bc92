"""Setup and the time loop (spec 2.7 and 3.7): draft, re-entry, simultaneous planning, random draws, reveals,
replanning after Overboard, end tokens and scoring. ``settle`` runs every automatic transition (including
steps with a single legal action) until a decision is owed or the game is over."""

from __future__ import annotations

from typing import Any

from rules.core import GAME_ACTOR, Event, rng

from . import actions
from .board import (
    CREW_NAME,
    CREWS,
    SHIP_NAME,
    START_FACING,
    STARTS,
    TAVERN_FACING,
    TAVERN_STARTS,
    VEC,
    add,
    dist,
    in_grid,
    is_tavern,
    layout,
    name,
    rowmajor,
    ship_of,
    tavern_layout,
    xy,
)
from .cards import CHAR_NAME, ROSTER_IDS, card_name, card_time, deck
from .forces import Ctx, State, barrel_at, char_at, cname, is_floor, sort_hand

CHARS_PER_CREW = {2: 2, 3: 2, 4: 4, 5: 3, 6: 3, 7: 4, 8: 4}
LENGTHS = {"short": 15, "standard": 21, "long": 27}
AI_DRAFT = ("paladin", "barbarian", "monk", "buccaneer", "rogue", "swashbuckler", "wizard", "jack")


def rand_below(st: State, n: int) -> int:
    return rng(st).randrange(n)


def shuffle(st: State, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rand_below(st, i + 1)
        items[i], items[j] = items[j], items[i]


# -- setup ----------------------------------------------------------------------------------------------


def new_state(players: int, options: dict[str, str], seed: str) -> State:
    if options.get("map") == "tavern":
        return new_tavern(players, options, seed)
    st: State = {"seed": seed, "rng_n": 0, "options": options, "players": players, "map": "ships"}
    seats = list(range(players))
    if options["crews"] == "random":
        shuffle(st, seats)
    crews = {"west": seats[0::2], "east": seats[1::2]}
    per_crew = CHARS_PER_CREW[players]
    first = CREWS[rand_below(st, 2)]
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
        shuffle(st, roster)
    _open(st, crews, first, chars, layout())
    if options["setup"] == "random":
        used = {"west": 0, "east": 0}
        for c, cid in zip(chars, roster, strict=False):
            _take_character(c, cid)
            c["pos"] = STARTS[c["crew"]][used[c["crew"]]]
            used[c["crew"]] += 1
        begin_step(st, Ctx(st))
    else:
        st["pending"] = {"step": "pick", "slot": 0}
    return st


def new_tavern(players: int, options: dict[str, str], seed: str) -> State:
    """Appendix B: every player is a one-player crew; a snake draft over the seats shuffled by the RNG."""
    st: State = {"seed": seed, "rng_n": 0, "options": options, "players": players, "map": "tavern"}
    order = list(range(players))
    shuffle(st, order)
    rounds = [order, order[::-1]] if players <= 4 else [order]
    chars = []
    for rnd in rounds:
        for seat in rnd:
            chars.append(_blank_char(len(chars), f"p{seat}", seat))
    roster = list(ROSTER_IDS)
    if options["setup"] == "random":
        shuffle(st, roster)
    _open(st, {f"p{seat}": [seat] for seat in range(players)}, f"p{order[0]}", chars, tavern_layout())
    if options["setup"] == "random":
        for c, cid, square in zip(chars, roster, TAVERN_STARTS, strict=False):
            _take_character(c, cid)
            c["pos"] = square
            c["facing"] = TAVERN_FACING[square]
        begin_step(st, Ctx(st))
    else:
        st["pending"] = {"step": "pick", "slot": 0}
    return st


def _open(st: State, crews: dict[str, list[int]], first: str, chars: list[dict], objects: list[dict]) -> None:
    """The fields every board starts with: crews, the time track, the hidden end token (seed), objects."""
    length = st["options"]["length"]
    if length == "auto":
        length = "long" if len(chars) <= 5 else "standard"
    start = LENGTHS[length]
    st.update(
        {
            "crews": crews,
            "first_crew": first,
            "T": 0,
            "end_spaces": [start, start + 1, start + 2, start + 3],
            "navy": start + rand_below(st, 4),
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


def crew_label(st: State, crew: str) -> str:
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


# -- who owes what --------------------------------------------------------------------------------------


def to_act(st: State) -> list[int]:
    phase = st["phase"]
    if phase == "over":
        return []
    if phase in ("plan", "replan"):
        return sorted({st["chars"][int(k)]["seat"] for k, n in st["owed"].items() if n > 0})
    pend = st["pending"]
    if phase in ("pick", "start"):
        return [st["chars"][pend["slot"]]["seat"]]
    return [st["chars"][pend["char"]]["seat"]]


def planner(st: State, seat: int) -> int | None:
    """The seat's lowest-index character still owing a planned card."""
    owing = [int(k) for k, n in st["owed"].items() if n > 0 and st["chars"][int(k)]["seat"] == seat]
    return min(owing) if owing else None


def options(st: State, seat: int) -> list[str]:
    if seat not in to_act(st):
        return []
    phase = st["phase"]
    if phase in ("plan", "replan"):
        i = planner(st, seat)
        c = st["chars"][i]
        return [f"plan {c['id']} {card}" for card in c["hand"]]
    pend = st["pending"]
    if pend["step"] == "pick":
        taken = {c["id"] for c in st["chars"]}
        return [f"pick {cid}" for cid in ROSTER_IDS if cid not in taken]
    if pend["step"] == "start":
        c = st["chars"][pend["slot"]]
        squares = TAVERN_STARTS if is_tavern(st) else STARTS[c["crew"]]
        return [f"start {s}" for s in squares if _vacant(st, xy(s))]
    if pend["step"] == "enter":
        return [f"enter {name(q)}" for q in entry_squares(st, pend["char"])]
    if pend["step"] == "face" and pend.get("card") is None:
        i = pend["char"]
        first = START_FACING[st["chars"][i]["crew"]]  # toward the enemy ship
        return [f"face {first}"] + [f"face {d}" for d in VEC if d != first]
    return actions.options(st)


def _vacant(st: State, p: tuple[int, int]) -> bool:
    return is_floor(st, p) and char_at(st, p) is None and barrel_at(st, p) is None


def entry_squares(st: State, i: int) -> list[tuple[int, int]]:
    crew = st["chars"][i]["crew"]
    starts = [xy(s) for s in STARTS[crew]]
    out = [p for p in starts if _vacant(st, p)]
    if out:
        return out
    near = {add(p, d) for p in starts for d in VEC.values()}
    out = sorted((q for q in near if in_grid(q) and _vacant(st, q)), key=rowmajor)
    if out:
        return out
    deck_sqs = [(x, y) for y in range(13) for x in range(15) if ship_of((x, y)) == crew and _vacant(st, (x, y))]
    if not deck_sqs:
        return []
    best = min(min(dist(q, s) for s in starts) for q in deck_sqs)
    return [q for q in deck_sqs if min(dist(q, s) for s in starts) == best]


# -- applying a decision --------------------------------------------------------------------------------


def act(st: State, ctx: Ctx, seat: int, action: str) -> None:
    """Apply one legal decision of ``seat`` (already validated), then settle."""
    phase = st["phase"]
    words = action.split()
    if phase in ("plan", "replan"):
        i = planner(st, seat)
        assert i is not None
        c = st["chars"][i]
        c["hand"].remove(words[2])
        c["queue"].append(words[2])
        st["owed"][str(i)] -= 1
        total = len(c["queue"])
        ctx.say(f"Seat {seat + 1} has planned for the {cname(st, i)}.", actor=seat)
        # the card itself is told back to its planner alone: an echo of its own choice (no DM)
        ctx.events.append(
            Event(None, {seat: f"{cname(st, i)}: {card_name(words[2])} planned (slot {total} in the queue)."}, seat)
        )
    elif phase in ("pick", "start"):
        _draft(st, ctx, words)
    else:
        step(st, ctx, action)
    settle(st, ctx)


def _draft(st: State, ctx: Ctx, words: list[str]) -> None:
    slot = st["pending"]["slot"]
    c = st["chars"][slot]
    if words[0] == "pick":
        _take_character(c, words[1])
        st["phase"] = "start"
        st["pending"] = {"step": "start", "slot": slot}
        ctx.say(
            f"Seat {c['seat'] + 1} picks the {CHAR_NAME[words[1]]} for the {crew_label(st, c['crew'])}.",
            actor=c["seat"],
        )
        return
    c["pos"] = words[1]
    if is_tavern(st):
        c["facing"] = TAVERN_FACING[words[1]]
    ctx.say(f"The {cname(st, slot)} starts on {words[1]}.")
    if slot + 1 < len(st["chars"]):
        st["phase"] = "pick"
        st["pending"] = {"step": "pick", "slot": slot + 1}
    else:
        st["pending"] = None
        begin_step(st, ctx)


def step(st: State, ctx: Ctx, action: str) -> None:
    """A step of phase reenter/act."""
    pend = st["pending"]
    words = action.split()
    if pend["step"] == "enter":
        i = pend["char"]
        st["chars"][i]["pos"] = words[1]
        pend["step"] = "face"
        st["last"] = _fresh_last(i, None)
        ctx.bind(st["last"])
        ctx.touch(xy(words[1]))
        return
    if pend["step"] == "face" and pend.get("card") is None:
        i = pend["char"]
        c = st["chars"][i]
        c["facing"] = words[1]
        ctx.say(
            f"{cname(st, i)} climbs back aboard the *{SHIP_NAME[c['crew']]}* at {c['pos']}, facing {words[1].upper()}."
        )
        if st["phase"] == "reenter":
            st["pending"] = None
            next_reenter(st, ctx)
        else:
            reveal(st, ctx, i)
        return
    if actions.choose(st, ctx, action):
        post_card(st, ctx)


def settle(st: State, ctx: Ctx) -> None:
    while st["phase"] != "over":
        phase = st["phase"]
        if phase in ("plan", "replan"):
            if any(n > 0 for n in st["owed"].values()):
                return
            st["owed"] = {}
            if phase == "plan":
                for c in st["chars"]:
                    if c["time"] == st["T"] and c["waiting"]:
                        c["dazed"] = False
            draw_next(st, ctx)
            continue
        seat = to_act(st)[0]
        opts = options(st, seat)
        if len(opts) != 1:
            return
        if phase in ("pick", "start"):
            _draft(st, ctx, opts[0].split())
        else:
            step(st, ctx, opts[0])


# -- the time loop --------------------------------------------------------------------------------------


def begin_step(st: State, ctx: Ctx) -> None:
    while True:
        active = [c for c in st["chars"] if c["time"] == st["T"]]
        if active:
            break
        if end_step(st, ctx):
            return
    for c in active:
        c["waiting"] = True
    up = ", ".join(f"{cname(st, c['idx'])} ({crew_label(st, c['crew'])})" for c in active)
    ctx.say(f"⏳ Time {st['T']}. Up now: {up}.", actor=GAME_ACTOR)
    next_reenter(st, ctx)


def next_reenter(st: State, ctx: Ctx) -> None:
    for c in st["chars"]:
        if c["time"] == st["T"] and c["waiting"] and c["pos"] is None:
            st["phase"] = "reenter"
            st["pending"] = {"step": "enter", "char": c["idx"], "card": None}
            return
    st["phase"] = "plan"
    st["pending"] = None
    st["owed"] = {}
    for c in st["chars"]:
        if c["time"] == st["T"] and c["waiting"]:
            need = (3 if c["dazed"] else 2) - len(c["queue"])
            if need > 0:
                st["owed"][str(c["idx"])] = need


def draw_next(st: State, ctx: Ctx) -> None:
    pool = [c for c in st["chars"] if c["waiting"] and c["time"] == st["T"]]
    if not pool:
        for c in st["chars"]:
            c["waiting"] = False
        if not end_step(st, ctx):
            begin_step(st, ctx)
        return
    c = pool[rand_below(st, len(pool))]  # random tie order; one RNG call per draw (spec 2.7)
    c["waiting"] = False
    ctx.say(f"Drawn: {cname(st, c['idx'])} ({crew_label(st, c['crew'])}).", actor=GAME_ACTOR)
    if c["pos"] is None:
        st["phase"] = "act"
        st["pending"] = {"step": "enter", "char": c["idx"], "card": None}
        return
    reveal(st, ctx, c["idx"])


def reveal(st: State, ctx: Ctx, i: int) -> None:
    c = st["chars"][i]
    for card in list(c["duration"]):
        if card == "boast":
            if c["spoiled"]:
                ctx.say(f"{cname(st, i)}'s Boast is spoiled.")
            else:
                on_table = any(c["pos"] in o["sqs"] for o in st["objects"] if o["kind"] == "table")
                gain = 4 if on_table else 2
                c["rep"] += gain
                where = " (on a table)" if on_table else ""
                ctx.say(f"{cname(st, i)}'s Boast pays off: +{gain} Reputation{where} → {c['rep']}.")
        else:
            ctx.say(f"{cname(st, i)}'s {card_name(card)} ends.")
        c["duration"].remove(card)
        c["hand"].append(card)
    c["spoiled"] = False
    sort_hand(c)
    card = c["queue"].pop(0)
    st["phase"] = "act"
    st["victims"] = []
    st["last"] = _fresh_last(i, card)
    ctx.bind(st["last"])
    ctx.active = i
    ctx.parried = set()
    if c["pos"] is not None:
        ctx.touch(xy(c["pos"]))
    ctx.say(f"{cname(st, i)} reveals **{card_name(card)}** (time {card_time(card)}).")
    if actions.begin_card(st, ctx, i, card):
        post_card(st, ctx)


def post_card(st: State, ctx: Ctx) -> None:
    victims = st["victims"]
    st["victims"] = []
    ctx.active = None
    ctx.parried = set()
    if victims:
        st["phase"] = "replan"
        st["pending"] = None
        st["owed"] = {str(v): 2 - len(st["chars"][v]["queue"]) for v in sorted(victims)}
        return
    draw_next(st, ctx)


def end_step(st: State, ctx: Ctx) -> bool:
    """Turn up an end token on T; True if the Navy ended the game. Otherwise T moves on."""
    t = st["T"]
    if t in st["end_spaces"] and str(t) not in st["end_revealed"]:
        navy = t == st["navy"]
        st["end_revealed"][str(t)] = "navy" if navy else "calm"
        if navy:
            ctx.say(f"⚓ The NAVY arrives at {t}! The brawl is over.", actor=GAME_ACTOR)
            st["phase"] = "over"
            st["pending"] = None
            st["owed"] = {}
            st["result"] = result(st)
            ctx.say(result_text(st), actor=GAME_ACTOR)
            return True
        ctx.say(f"End token at {t}: Calm Seas.", actor=GAME_ACTOR)
    st["T"] = t + 1
    return False


# -- scoring --------------------------------------------------------------------------------------------


def scores(st: State) -> dict[str, dict[str, int]]:
    out = {crew: {"rep": 0, "chests": 0, "total": 0} for crew in st["crews"]}
    for c in st["chars"]:
        out[c["crew"]]["rep"] += c["rep"]
    for o in st["objects"]:
        if o["kind"] != "chest" or o["gone"]:
            continue
        if o["held"] is not None:
            out[st["chars"][o["held"]]["crew"]]["chests"] += 1
        else:
            ship = ship_of(xy(o["sq"]))
            if ship is not None:
                out[ship]["chests"] += 1
    for crew in out:
        out[crew]["total"] = out[crew]["rep"] + 5 * out[crew]["chests"]
    return out


def result(st: State) -> dict[str, Any]:
    sc = scores(st)
    key = {crew: (s["total"], s["chests"]) for crew, s in sc.items()}
    if is_tavern(st):
        # Appendix B: most Reputation; among the tied, whoever holds the Flagon; otherwise a shared win
        key = {crew: (s["total"], 0) for crew, s in sc.items()}
        best = max(key.values())
        tied = [crew for crew in sc if key[crew] == best]
        holder = next(
            (st["chars"][o["held"]]["crew"] for o in st["objects"] if o["kind"] == "flagon" and o["held"] is not None),
            None,
        )
        if holder in tied:
            tied = [holder]
    else:
        best = max(key.values())
        tied = [crew for crew in sc if key[crew] == best]
    winners = sorted(seat for crew in tied for seat in st["crews"][crew])
    return {"winner": tied[0] if len(tied) == 1 else None, "winners": winners, "scores": sc}


def result_text(st: State) -> str:
    r = st["result"]
    sc = r["scores"]

    def part(crew: str) -> str:
        s = sc[crew]
        if is_tavern(st):
            return f"{crew_label(st, crew)} {s['total']}"
        return f"Rep {s['rep']} + {s['chests']} chest{'s' if s['chests'] != 1 else ''}"

    if is_tavern(st):
        table = ", ".join(part(crew) for crew in sorted(sc, key=lambda k: (-sc[k]["total"], k)))
        head = "Shared win" if r["winner"] is None else f"{crew_label(st, r['winner']).capitalize()} wins"
        return f"{head}: {table}."
    if r["winner"] is None:
        return f"A draw at {sc['west']['total']} – {sc['east']['total']} ({part('west')} vs {part('east')})."
    win, lose = r["winner"], "east" if r["winner"] == "west" else "west"
    return f"{CREW_NAME[win]} win {sc[win]['total']} – {sc[lose]['total']} ({part(win)} vs {part(lose)})."
