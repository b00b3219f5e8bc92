"""Treasure Island's 28 chance cards (docs/games/buccaneer.md#treasure-island-and-chance-cards): drawing, and each
card's resolution as frames."""

from __future__ import annotations

from rules.buccaneer import board
from rules.buccaneer.model import (
    CHANCE_TITLES,
    CREW,
    CREW_VALUE,
    HOLD_MAX,
    KEEPER_OF,
    TREASURE,
    TREASURE_VALUE,
    Narration,
    cards_text,
    count,
    empty_crew,
    order_after,
    sailing,
    sort_hold,
    take_crew,
    who,
)
from rules.buccaneer.movement import place
from rules.core import State, rng

GAIN_CARDS: dict[int, tuple[int, int]] = {11: (5, 2), 12: (4, 2), 13: (5, 2), 14: (7, 3), 27: (5, 3)}


def draw(state: State, seat: int, narration: Narration) -> None:
    """Turn up the top card for everyone to see, keep it or put it under the pile, then obey it."""
    card = state["chance_pile"].pop(0)
    state["last"]["chance"] = {"seat": seat, "card": card}
    title = CHANCE_TITLES[card]
    if card in KEEPER_OF:
        state["players"][seat]["keepers"].append(card)
        narration.add(f"{who(state, seat)} draws chance card {card}, {title}, and keeps it")
        return
    # The card lies face up until everything it set off is settled (burials, picks, choices), then goes under
    # the pile (docs/games/buccaneer.md#when-a-chance-card-is-drawn): a task beneath the card's own frames, so the pile
    # count leaves it out until then.
    state["stack"].append({"kind": "task", "op": "chance_back", "card": card})
    narration.add(f"{who(state, seat)} draws chance card {card}, {title}")
    RESOLVE[card](state, seat, card, narration)


# -- common pieces --------------------------------------------------------------------------------------
def gain_crew(state: State, seat: int, n: int, narration: Narration) -> None:
    got = take_crew(state, seat, n)
    k = count(got)
    if k:
        narration.add(f"{who(state, seat)} takes {k} crew from Pirate Island", {seat: f"You took {cards_text(got)}"})
    else:
        narration.add(f"Pirate Island has no crew left for {who(state, seat)}")


def can_pick(state: State, seat: int, budget: int) -> bool:
    return bool(pick_actions(state, {"seat": seat, "budget": budget})[:-1])


def pick_actions(state: State, frame: dict) -> list[str]:
    hold = state["players"][frame["seat"]]["ship"]["hold"]
    out = []
    if len(hold) < HOLD_MAX:
        ti = state["treasure_island"]
        out = [f"pick {t}" for t in TREASURE if ti[t] and TREASURE_VALUE[t] <= frame["budget"]]
    out.append("done")
    return out


def pick(state: State, frame: dict, piece: str, narration: Narration) -> None:
    state["treasure_island"][piece] -= 1
    ship = state["players"][frame["seat"]]["ship"]
    ship["hold"] = sort_hold([*ship["hold"], piece])
    frame["budget"] -= TREASURE_VALUE[piece]
    narration.add(f"{who(state, frame['seat'])} takes {piece} from Treasure Island")


def storm(state: State, seat: int, narration: Narration) -> None:
    if sailing(state["players"][seat]["hand"]) <= 3:
        gain_crew(state, seat, 4, narration)


def relocate(state: State, seat: int, target: board.Cell, narration: Narration) -> None:
    """Move to ``target`` or the nearest free sea square; a tie is the drawer's ``place`` choice. Then the
    storm bonus, then a new facing."""
    state["stack"].append({"kind": "REPOINT", "seat": seat})
    state["stack"].append({"kind": "task", "op": "storm", "seat": seat})
    taken = {state["players"][s]["ship"]["at"] for s in state["order"] if s != seat}
    free = [c for c in board.ALL_SQUARES if c in board.SEA and board.name(c) not in taken]
    best = min((board.cheb(c, target), board.euclid2(c, target)) for c in free)
    squares = [board.name(c) for c in free if (board.cheb(c, target), board.euclid2(c, target)) == best]
    if len(squares) == 1:
        move_to(state, seat, squares[0], narration)
    else:
        state["stack"].append({"kind": "PLACE", "seat": seat, "squares": squares})


def move_to(state: State, seat: int, at: str, narration: Narration) -> None:
    ship = state["players"][seat]["ship"]
    place(state, seat, at, ship["facing"])
    if board.is_harbour(at):
        narration.add(f"{who(state, seat)} is blown into {board.HARBOUR[at]['name']}")
    else:
        narration.add(f"{who(state, seat)} is blown to {at.upper()}")


def _harbour_move(state: State, seat: int, harbour: str, narration: Narration) -> None:
    state["stack"].append({"kind": "task", "op": "storm", "seat": seat})
    move_to(state, seat, harbour, narration)


def loss(state: State, seat: int, dest: str, narration: Narration) -> None:
    """Cards 7 and 8: one treasure or two crew cards go to ``dest`` ("flat" or a seat number as text)."""
    p = state["players"][seat]
    treasure_ok = bool(p["ship"]["hold"]) and (
        dest == "flat" or len(state["players"][int(dest)]["ship"]["hold"]) < HOLD_MAX
    )
    crew_ok = count(p["hand"]) >= 2
    if treasure_ok and crew_ok:
        state["stack"].append({"kind": "CHOICE", "seat": seat, "branch": "loss", "dest": dest})
    elif treasure_ok:
        state["stack"].append({"kind": "LOSE", "seat": seat, "what": "treasure", "n": 1, "dest": dest, "allowed": None})
    elif count(p["hand"]):
        state["stack"].append({"kind": "LOSE", "seat": seat, "what": "crew", "n": 2, "dest": dest, "allowed": None})
    else:
        narration.add(f"{who(state, seat)} has nothing to lose")


def lose_actions(state: State, frame: dict) -> list[str]:
    p = state["players"][frame["seat"]]
    allowed = frame["allowed"]
    if frame["what"] == "treasure":
        kinds = [t for t in TREASURE if t in p["ship"]["hold"]]
    else:
        kinds = [k for k in CREW if p["hand"][k]]
    return [f"lose {k}" for k in kinds if allowed is None or k in allowed]


def lose(state: State, frame: dict, kind: str, narration: Narration) -> bool:
    """One piece or card to the frame's destination; True when the frame is finished."""
    seat, dest = frame["seat"], frame["dest"]
    p = state["players"][seat]
    if kind in TREASURE_VALUE:
        p["ship"]["hold"].remove(kind)
        if dest == "flat":
            state["flat"]["treasure"][kind] += 1
            narration.add(f"{who(state, seat)} loses {kind} to Flat Island")
        else:
            x = int(dest)
            state["players"][x]["ship"]["hold"] = sort_hold([*state["players"][x]["ship"]["hold"], kind])
            narration.add(f"{who(state, seat)}'s {kind} washes aboard {who(state, x)}")
    else:
        p["hand"][kind] -= 1
        if dest == "flat":
            state["flat"]["crew"][kind] += 1
            narration.add(f"{who(state, seat)} loses {kind.upper()} to Flat Island")
        elif dest == "pile":
            state["pirate_pile"].append(kind)
            narration.add(f"{who(state, seat)} loses a crew card to Pirate Island", {seat: f"You lost {kind.upper()}"})
        else:
            x = int(dest)
            state["players"][x]["hand"][kind] += 1
            narration.add(
                f"{who(state, seat)} loses a crew card to {who(state, x)}",
                {seat: f"You gave {kind.upper()}", x: f"You received {kind.upper()} from {who(state, seat)}"},
            )
    frame["n"] -= 1
    return frame["n"] == 0 or not lose_actions(state, frame)


def choice_actions(state: State, frame: dict) -> list[str]:
    return ["choose treasure", "choose crew"]


def choose(state: State, frame: dict, branch: str, narration: Narration) -> None:
    seat = frame["seat"]
    if frame["branch"] == "gain":
        if branch == "treasure":
            state["stack"].append({"kind": "PICK", "seat": seat, "budget": frame["budget"]})
        else:
            gain_crew(state, seat, frame["n"], narration)
        return
    what, n = ("treasure", 1) if branch == "treasure" else ("crew", 2)
    state["stack"].append({"kind": "LOSE", "seat": seat, "what": what, "n": n, "dest": frame["dest"], "allowed": None})


def gain_choice(state: State, seat: int, budget: int, n: int, narration: Narration) -> None:
    treasure_ok = can_pick(state, seat, budget)
    crew_ok = bool(state["pirate_pile"])
    if treasure_ok and crew_ok:
        state["stack"].append({"kind": "CHOICE", "seat": seat, "branch": "gain", "budget": budget, "n": n})
    elif treasure_ok:
        state["stack"].append({"kind": "PICK", "seat": seat, "budget": budget})
    elif crew_ok:
        gain_crew(state, seat, n, narration)
    else:
        narration.add(f"{who(state, seat)} can gain nothing from it")


def bury_actions(state: State, frame: dict) -> list[str]:
    hand = state["players"][frame["seat"]]["hand"]
    return [f"bury {k}" for k in CREW if hand[k]]


def bury_one(state: State, seat: int, kind: str, from_docks: bool, narration: Narration) -> None:
    p = state["players"][seat]
    pool = state["harbours"][p["harbour"]]["docks"]["crew"] if from_docks else p["hand"]
    pool[kind] -= 1
    state["pirate_pile"].append(kind)
    # The public line names how many, never which (docs/games/buccaneer.md#who-sees-crew-changing-hands); burials of one
    # seat from one place in a row (a forced run) are one line.
    cards = [kind]
    if narration.burial is not None and narration.burial[:2] == (seat, from_docks):
        cards = [*narration.burial[2], kind]
        narration.events.pop()
    where = " from its Docks" if from_docks else ""
    narration.add(
        f"{who(state, seat)} buries {len(cards)} crew{where} on Pirate Island",
        {seat: f"You buried {' '.join(k.upper() for k in cards)}"},
        echo=seat,
    )
    narration.burial = (seat, from_docks, cards)


def bury_done(state: State, frame: dict) -> bool:
    hand = state["players"][frame["seat"]]["hand"]
    if not count(hand):
        return True
    if frame.get("cap") is not None:
        return sailing(hand) <= frame["cap"]
    return frame["n"] <= 0


def fever_count(state: State, seat: int) -> int:
    p = state["players"][seat]
    return count(p["hand"]) + count(state["harbours"][p["harbour"]]["docks"]["crew"])


def fever_actions(state: State, frame: dict, seat: int) -> list[str]:
    if frame["owe"].get(str(seat), 0) <= 0:
        return []
    p = state["players"][seat]
    docks = state["harbours"][p["harbour"]]["docks"]["crew"]
    return [f"bury {k}" for k in CREW if p["hand"][k]] + [f"bury docks {k}" for k in CREW if docks[k]]


def fever_seats(frame: dict) -> list[int]:
    return sorted(int(s) for s, n in frame["owe"].items() if n > 0)


def exchange(state: State, seat: int, partner: int, narration: Narration) -> None:
    """Card 20's blind exchange: both sets drawn from the hands as they were before either moves."""

    def draw_from(hand: dict[str, int]) -> list[str]:
        cards = [k for k in CREW for _ in range(hand[k])]
        got = []
        for _ in range(min(2, len(cards))):
            got.append(cards.pop(rng(state).randrange(len(cards))))
        return got

    mine, theirs = state["players"][seat]["hand"], state["players"][partner]["hand"]
    to_me = draw_from(theirs)
    to_them = draw_from(mine)
    for k in to_me:
        theirs[k] -= 1
        mine[k] += 1
    for k in to_them:
        mine[k] -= 1
        theirs[k] += 1
    a = cards_text({k: to_me.count(k) for k in CREW})
    b = cards_text({k: to_them.count(k) for k in CREW})
    narration.add(
        f"{who(state, seat)} and {who(state, partner)} swap crew blind: {len(to_me)} for {len(to_them)}",
        {seat: f"You got {a} and gave {b}", partner: f"You got {b} and gave {a}"},
    )


# -- the cards ------------------------------------------------------------------------------------------
def _square(state: State, seat: int) -> str:
    return state["players"][seat]["ship"]["at"]


def _c1(state: State, seat: int, card: int, narration: Narration) -> None:
    relocate(state, seat, board.blown_off_target(_square(state, seat)), narration)


def _c2(state: State, seat: int, card: int, narration: Narration) -> None:
    options = [state["players"][s]["harbour"] for s in order_after(state, seat)]
    state["stack"].append({"kind": "TARGET", "seat": seat, "card": 2, "options": options})


def _c3(state: State, seat: int, card: int, narration: Narration) -> None:
    relocate(state, seat, board.POS[board.MUD_BAY], narration)


def _c4(state: State, seat: int, card: int, narration: Narration) -> None:
    relocate(state, seat, board.POS[board.CLIFF_CREEK], narration)


def _c5(state: State, seat: int, card: int, narration: Narration) -> None:
    _harbour_move(state, seat, state["players"][seat]["harbour"], narration)


def _c6(state: State, seat: int, card: int, narration: Narration) -> None:
    ship = state["players"][seat]["ship"]
    ports = board.blown_to_port(ship["at"], ship["facing"])
    if len(ports) == 1:
        _harbour_move(state, seat, ports[0], narration)
    else:
        state["stack"].append({"kind": "task", "op": "storm", "seat": seat})
        state["stack"].append({"kind": "PORT_TIE", "seat": seat, "harbours": ports})


def nearest_ships(state: State, seat: int, candidates: list[int]) -> list[int]:
    here = board.cell_of(_square(state, seat))
    dist = {s: board.cheb(here, board.cell_of(_square(state, s))) for s in candidates}
    best = min(dist.values())
    return [s for s in candidates if dist[s] == best]


def _c7(state: State, seat: int, card: int, narration: Narration) -> None:
    near = nearest_ships(state, seat, order_after(state, seat))
    if len(near) > 1:
        narration.add(
            f"{who(state, seat)} is equally near {' and '.join(who(state, s) for s in near)}: nothing happens"
        )
        return
    loss(state, seat, str(near[0]), narration)


def _c8(state: State, seat: int, card: int, narration: Narration) -> None:
    loss(state, seat, "flat", narration)


def _c9(state: State, seat: int, card: int, narration: Narration) -> None:
    p = state["players"][seat]
    hold = p["ship"]["hold"]
    if hold:
        top = max(TREASURE_VALUE[t] for t in hold)
        allowed = [t for t in TREASURE if t in hold and TREASURE_VALUE[t] == top]
        state["stack"].append(
            {"kind": "LOSE", "seat": seat, "what": "treasure", "n": 1, "dest": "flat", "allowed": allowed}
        )
    else:
        _lose_best_crew(state, seat, "flat", narration)


def _lose_best_crew(state: State, seat: int, dest: str, narration: Narration) -> None:
    hand = state["players"][seat]["hand"]
    if not count(hand):
        narration.add(f"{who(state, seat)} has no crew to lose")
        return
    top = max(CREW_VALUE[k] for k in CREW if hand[k])
    allowed = [k for k in CREW if hand[k] and CREW_VALUE[k] == top]
    state["stack"].append({"kind": "LOSE", "seat": seat, "what": "crew", "n": 1, "dest": dest, "allowed": allowed})


def _c10(state: State, seat: int, card: int, narration: Narration) -> None:
    _lose_best_crew(state, seat, "pile", narration)


def _gain(state: State, seat: int, card: int, narration: Narration) -> None:
    budget, n = GAIN_CARDS[card]
    gain_choice(state, seat, budget, n, narration)


def _recruits(state: State, seat: int, card: int, narration: Narration) -> None:
    gain_crew(state, seat, 2, narration)


def _c16(state: State, seat: int, card: int, narration: Narration) -> None:
    budget, cap = (7, 10) if card == 16 else (6, 11)
    state["stack"].append({"kind": "task", "op": "bury_cap", "seat": seat, "cap": cap})
    state["stack"].append({"kind": "PICK", "seat": seat, "budget": budget})


def _c18(state: State, seat: int, card: int, narration: Narration) -> None:
    state["stack"].append({"kind": "task", "op": "recruit_if", "seat": seat})
    state["stack"].append({"kind": "PICK", "seat": seat, "budget": 4})


def _c19(state: State, seat: int, card: int, narration: Narration) -> None:
    hand = state["players"][seat]["hand"]
    n = count(hand)
    for k in CREW:
        state["pirate_pile"].extend([k] * hand[k])
    state["players"][seat]["hand"] = empty_crew()
    got = take_crew(state, seat, n)
    narration.add(
        f"{who(state, seat)} swaps {n} crew for new crew from Pirate Island",
        {seat: f"Your new crew: {cards_text(got)}"},
    )


def _c20(state: State, seat: int, card: int, narration: Narration) -> None:
    cands = [s for s in order_after(state, seat) if _square(state, s) in board.TREASURE_COAST_SET]
    if not cands:
        state["stack"].append({"kind": "BURY", "seat": seat, "n": 2, "cap": None})
        return
    near = nearest_ships(state, seat, cands)
    if len(near) == 1:
        exchange(state, seat, near[0], narration)
    else:
        options = [state["players"][s]["harbour"] for s in near]
        state["stack"].append({"kind": "TARGET", "seat": seat, "card": 20, "options": options})


def _c22(state: State, seat: int, card: int, narration: Narration) -> None:
    owe = {}
    for s in state["order"]:
        extra = fever_count(state, s) - 7
        if extra > 0:
            owe[str(s)] = extra
    if owe:
        names = ", ".join(who(state, int(s)) for s in owe)
        narration.add(f"Yellow fever: {names} must bury crew down to 7")
        state["stack"].append({"kind": "YELLOW_FEVER", "owe": owe})
    else:
        narration.add("Yellow fever: nobody has more than 7 crew")


RESOLVE = {
    1: _c1,
    2: _c2,
    3: _c3,
    4: _c4,
    5: _c5,
    6: _c6,
    7: _c7,
    8: _c8,
    9: _c9,
    10: _c10,
    11: _gain,
    12: _gain,
    13: _gain,
    14: _gain,
    15: _recruits,
    16: _c16,
    17: _c16,
    18: _c18,
    19: _c19,
    20: _c20,
    22: _c22,
    27: _gain,
    28: _recruits,
}


def target_chosen(state: State, frame: dict, harbour: str, narration: Narration) -> None:
    seat = frame["seat"]
    victim = state["harbours"][harbour]["owner"]
    if frame["card"] == 20:
        exchange(state, seat, victim, narration)
        return
    narration.add(f"{who(state, seat)} demands three crew from {who(state, victim)}")
    state["stack"].append({"kind": "GIVE", "seat": victim, "to": seat, "n": 3, "docks": True, "given": []})
