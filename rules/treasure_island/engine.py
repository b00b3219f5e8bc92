"""Treasure Island's state and how it changes: the deal (``new_state``), one legal action (``apply``: a handler
for each kind of decision, from burying the treasure to Silver's escape) and the outcome. The course of the days
those decisions drive is ``days.py``'s."""

from __future__ import annotations

import json
from typing import Any

from rules import core
from rules.core import Event, IllegalAction, Outcome, State
from rules.treasure_island import actions, calendar, days, geometry, hints, model, moves
from rules.treasure_island.geometry import Pt
from rules.treasure_island.model import as_pt
from rules.voice import credit

_LIMITS = {"ride": 12, "walk": 6, "step": 6, "stride": 14, "run": 8}
_MOVE_WORD = {
    "ride": "Horse moves",
    "walk": "Foot moves",
    "step": "Foot moves",
    "stride": "A stride",
    "run": "Silver's runs",
}


# -- setup -----------------------------------------------------------------------------------------------------
def new_state(players: int, opts: dict[str, str], seed: str) -> State:
    state: State = {"seed": seed, "rng_n": 0, "options": opts, "n": players}
    expansion = opts["expansion"] == "on"
    silver = core.rng(state).randrange(players) if opts["silver"] == "random" else 0
    per = calendar.minis_each(players)
    f = per * (players - 1)
    pool = [c for c in calendar.CHARACTERS if expansion or c != "ben"]
    core.rng(state).shuffle(pool)
    cal = calendar.passes(calendar.counter_clockwise_from(silver, players), per)
    char_of = {sp: pool[k] for k, sp in enumerate(cal)}
    deal = calendar.passes(calendar.clockwise_from(silver, players), per)
    starting = [f"S{k}" for k in (range(2, 9) if expansion else range(1, 8))]
    black = [f"B{k}" for k in range(1, 13 if expansion else 12)]
    compass = [f"C{k}" for k in range(1, 9)]
    core.rng(state).shuffle(starting)
    core.rng(state).shuffle(black)
    core.rng(state).shuffle(compass)
    g = geometry.geo(opts["map"])
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
        tricks_hand = [t for t in calendar.TRICK_ORDER if not (t == "traitor" and players == 2)]
    state.update(
        {
            "silver": silver,
            "order": [char_of[sp] for sp in cal],
            "deal_order": [char_of[sp] for sp in deal],
            "owner": {char_of[sp]: sp[0] for sp in cal},
            "pass_idx": {char_of[sp]: sp[1] for sp in cal},
            "side": calendar.side_for(f),
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
            "chest_tokens": list(calendar.CHEST_TOKENS),
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
    return state


# -- one action -----------------------------------------------------------------------------------------------
def apply(state: State, seat: int, action: str) -> tuple[State, list[Event]]:
    """A legal action (``Game.apply`` checked it) applied to a copy of ``state``."""
    after = json.loads(json.dumps(state))  # the state is plain JSON, and this copies it faster than deepcopy
    ev: list[Event] = []
    act(after, seat, action, ev)
    after["last"] = _last(state, after, seat, action)
    # each line's actor: Long John Silver's seat, or the seat of the pirate a line starts with
    names = {
        p: ["Long John Silver"] if p == after["silver"] else [model.mini_name(m) for m in model.player_minis(after, p)]
        for p in range(after["n"])
    }
    return after, credit(ev, names)


# -- the handlers: one per kind of decision -----------------------------------------------------------------
def _wrong(state: State, action: str) -> IllegalAction:
    """A verb this step does not take: ``refuse`` answers it in the shared wording."""
    return IllegalAction("wrong_step", f"`{action}` is not possible now.")


def _check_move(state: State, a: Pt, b: Pt, kind: str, ben: bool, fog: tuple[Pt, ...]) -> None:
    g = model.geo_of(state)
    err = g.move_error(a, b, _LIMITS[kind], ben, fog)
    if err == "bad_destination":
        why = "your own position" if a == b else "not a legal location (sea or red zone)"
        raise IllegalAction("bad_destination", f"({geometry.fmt(b)}) is {why}; pick a land node outside the red zones.")
    if err == "too_far":
        raise IllegalAction(
            "too_far",
            f"{_MOVE_WORD[kind]} reach {_LIMITS[kind] // 2} miles; ({geometry.fmt(b)}) is "
            f"{geometry.miles_between(a, b)} away.",
        )
    if err == "blocked":
        raise IllegalAction(
            "blocked",
            f"The line from ({geometry.fmt(a)}) to ({geometry.fmt(b)}) touches {g.blocker(a, b, ben, fog)}; go around "
            "it.",
        )


def _move(state: State, m: str, b: Pt, kind: str, ev: list[Event], verb: str) -> None:
    mi = state["minis"][m]
    a = as_pt(mi["pos"])
    mi["pos"] = list(b)
    mi["trail"].append([list(a), list(b), kind, state["day"]])
    ev.append(Event(f"{model.mini_name(m)} {verb} ({geometry.fmt(a)}) → ({geometry.fmt(b)})."))


def _need_left(state: State) -> None:
    if state["turn"]["left"] < 1:
        raise IllegalAction("no_actions_left", "No actions left this turn: use a chest item or `end`.")


def act(state: State, seat: int, action: str, ev: list[Event]) -> None:
    step = state["state"]
    verb = action.split(" ")[0]
    handler = _HANDLERS.get(step)
    assert handler is not None
    handler(state, seat, action, verb, ev)
    # the states whose lists could in principle run dry (all Silver's); every other state always offers a fixed action
    dry = state["state"] in ("hint_card", "hint_token", "hint_param", "compass")
    assert not dry or moves.legal_actions(state, state["silver"]), state["state"]


def _h_bury(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "bury":
        raise _wrong(state, action)
    p = actions.point_of(action)
    if not geometry.eligible_mask(state["options"]["map"], model.used_spots(state)) >> geometry.node(*p) & 1:
        raise IllegalAction(
            "not_eligible",
            f"({geometry.fmt(p)}) cannot hold the treasure: it must be on land, outside red zones, more than 2 miles "
            "from "
            "every starting spot in use and not on a dotted circle.",
        )
    state["treasure"] = list(p)
    g = model.geo_of(state)
    d = g.district[geometry.node(*p)]
    ev.append(
        Event(
            "Long John Silver has buried the treasure.",
            actor=seat,
        )
    )
    ev.append(Event(None, {seat: f"Treasure buried at ({geometry.fmt(p)}) in D{d} {g.district_names[d]}."}, seat))
    days.deal_districts(state, ev)
    days.start_day(state, ev)


def _h_hint_card(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    pend = state["pending"]
    if action == "redraw":
        if not model.redraw_allowed(state):
            raise IllegalAction("illegal", "Redraw needs exactly three chest-icon hints in hand and cards in the deck.")
        deck = model.current_deck(state)
        state["discards"] += state["hand"]
        n = min(3, len(state[deck]))
        state["hand"], state[deck] = state[deck][:n], state[deck][n:]
        drew = "; ".join(f"{hints.title(c)}: {hints.EFFECTS.get(c, '')}" for c in state["hand"])
        ev.append(
            Event(f"Long John Silver discards three chest-icon hints and draws {n}.", {seat: f"You draw {drew}."})
        )
        if not model.playable_cards(state) and not model.redraw_allowed(state):
            state["pending"] = None
            ev.append(Event("Long John Silver has no hint he can play today."))
            days.begin_turn(state, ev)
        return
    if action == "trick fog":
        if not model.trick_playable(state, "fog") or pend["fog_left"] != 0:
            raise IllegalAction("trick_unavailable", "Fog cannot be played now (date passed, no points or used).")
        _spend_trick(state, "fog", public=True)
        pend["fog_left"] = 3
        state["state"] = "fog"
        ev.append(Event("Long John Silver plays the Fog trick: three fog banks roll in."))
        return
    if verb != "hint":
        raise _wrong(state, action)
    card = action.split(" ")[1]
    if card not in state["hand"]:
        raise IllegalAction(
            "not_held", f"{card} is not in your hand; you hold {', '.join(hints.sort_ids(state['hand']))}."
        )
    if card not in model.playable_cards(state):
        raise IllegalAction(
            "no_credit", f"{card} has a chest icon: give a chest token first (credit {model.credit(state)})."
        )
    pend["card"] = card
    if not state["hints"]:
        pend["token"] = "truth"
        state["state"] = "hint_param"
    else:
        state["state"] = "hint_token"
    ev.append(Event(None, {seat: f"You chose {card} {hints.CARDS[card].name}."}, seat))


def _spend_trick(state: State, card: str, public: bool) -> None:
    t = state["tricks"]
    t["hand"].remove(card)
    value = calendar.TRICKS[card][0]
    t["points"] -= value
    t["played"].append({"card": card, "day": state["day"], "value": value})
    if public:
        state["tricks_public"].append({"card": card, "day": state["day"], "value": value})


def _h_fog(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "fog":
        raise _wrong(state, action)
    p = actions.point_of(action)
    g = model.geo_of(state)
    if not g.legal[geometry.node(*p)] or any(
        geometry.d2(p, as_pt(m["pos"])) <= model.FOG_R2 for m in state["minis"].values()
    ):
        raise IllegalAction(
            "bad_destination", "A fog centre must be a legal location more than 1.5 miles from every pirate."
        )
    state["fog"].append({"centre": list(p), "laid": state["day"], "expires": state["day"] + 2})
    state["pending"]["fog_left"] -= 1
    ev.append(Event(f"Fog settles around ({geometry.fmt(p)}) until {model.month(state['day'] + 2)}."))
    if state["pending"]["fog_left"] == 0:
        state["pending"]["fog_left"] = -1  # spent: the option does not come back this hint
        state["state"] = "hint_card"


def _h_hint_token(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "token":
        raise _wrong(state, action)
    if action not in moves.token_options(state):
        tok = action.split(" ")[1]
        if tok == "lie":
            raise IllegalAction(
                "trick_unavailable", "The Lie cannot be played now: " + ", ".join(moves.token_options(state))
            )
        raise IllegalAction(
            "not_held", f"You cannot use a {tok} token now; allowed: {', '.join(moves.token_options(state))}."
        )
    tok = action.split(" ")[1]
    state["pending"]["token"] = tok
    if tok == "lie":
        _spend_trick(state, "lie", public=False)
    state["state"] = "hint_param"
    ev.append(Event(None, {seat: f"Token: {tok.upper()}."}, seat))


def _h_hint_param(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "say":
        raise _wrong(state, action)
    v = action.split(" ", 1)[1]
    pend = state["pending"]
    legal = moves.param_values(state)
    if v not in legal:
        ctx = model.hint_ctx(state)
        kind = hints.CARDS[pend["card"]].params[len(pend["params"])]
        if v in hints.values(kind, ctx, tuple(pend["params"])):
            code = "must_be_false" if pend["token"] == "lie" else "must_be_true"
            raise IllegalAction(code, f"With that token `{v}` is not allowed; allowed: {', '.join(legal)}.")
        raise IllegalAction("bad_target", f"`{v}` is not a value for this hint; allowed: {', '.join(legal)}.")
    pend["params"].append(v)
    if len(pend["params"]) < len(hints.CARDS[pend["card"]].params):
        ev.append(Event(None, {seat: f"Parameter: {v}."}, seat))
        return
    _resolve_hint(state, seat, ev)


def _resolve_hint(state: State, seat: int, ev: list[Event]) -> None:
    pend = state["pending"]
    card = hints.CARDS[pend["card"]]
    vals = tuple(pend["params"])
    ctx = model.hint_ctx(state)
    day = state["day"]
    first = not state["hints"]
    text = hints.text(card.id, vals, ctx)
    state["hints"].append(
        {
            "day": day,
            "deck": card.deck,
            "card": card.id,
            "name": card.name,
            "chest_icon": card.chest,
            "params": list(vals),
            "frozen": hints.frozen(card.id, vals, ctx),
            "text": text,
            "token": "truth" if first else "hidden",
            "true_mask": geometry.mask_b64(hints.region(card.id, vals, ctx)),
        }
    )
    state["hint_tokens"].append(pend["token"])
    state["tokens"][pend["token"]] = state["tokens"].get(pend["token"], 0) - (0 if pend["token"] == "lie" else 1)
    cal = state["calendar"][-1]
    cal["hint"] = len(state["hints"]) - 1
    cal["token"] = "truth" if first else "hidden"
    state["hand"].remove(card.id)
    if card.chest:
        state["chest_hints_played"] += 1
    deck = "starting_deck" if card.deck == "starting" else "black_deck"
    drawn = None
    if state[deck]:
        drawn = state[deck].pop(0)
        state["hand"].append(drawn)
    kind = "Starting Hint" if card.deck == "starting" else "Black Spot Hint"
    tail = (
        "A TRUTH token lies beside it (the first hint is always true)."
        if first
        else "A face-down token lies beside it."
    )
    ev.append(
        Event(
            f"{model.month(day)}, {kind} {card.id} {card.name}: {text} {tail}",
            actor=core.GAME_ACTOR,  # the hint speaks for itself; Silver's own note below is old news to him
        )
    )
    ev.append(Event(None, {seat: f"You played {card.id} with a {pend['token'].upper()} token."}, seat))
    if drawn is not None:
        # a card from the deck is news to Silver, although his own hint set it off
        ev.append(
            Event(None, {seat: f"You draw {hints.title(drawn)}: {hints.EFFECTS.get(drawn, '')}."}, core.GAME_ACTOR)
        )
    state["pending"] = None
    days.begin_turn(state, ev)


def _h_prison_trick(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if action == "proceed":
        state["prison_by"] = state["owner"][state["turn"]["mini"]]
        state["state"] = "prison"
        ev.append(Event(f"Prison: {model.mini_name(state['turn']['mini'])} chooses Long John Silver's tower."))
        return
    if action == "trick mutiny":
        if not model.trick_playable(state, "mutiny"):
            raise IllegalAction("trick_unavailable", "Mutiny cannot be played now (date passed or not enough points).")
        _spend_trick(state, "mutiny", public=True)
        state["prison_by"] = state["silver"]
        state["state"] = "prison"
        ev.append(Event("Long John Silver plays Mutiny: he chooses his own tower."))
        return
    raise _wrong(state, action)


def _h_prison(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "tower":
        raise _wrong(state, action)
    tid = action.split(" ")[1]
    g = model.geo_of(state)
    if tid not in g.towers:
        raise IllegalAction("bad_target", f"No tower {tid}; towers: {', '.join(g.tower_ids)}.")
    state["tower"] = tid
    who = model.mini_name(state["turn"]["mini"]) if seat != state["silver"] else model.SILVER
    ev.append(Event(f"{who} locks Long John Silver in {tid} {model.tower_name(state, tid)}."))
    state["prison_by"] = None
    days.begin_turn(state, ev)


def _h_turn(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = state["turn"]["mini"]
    mi = state["minis"][m]
    here = as_pt(mi["pos"])
    fog = model.fog_discs(state)
    g = model.geo_of(state)
    ben = m == "ben"
    items = state["items"][seat]
    if verb == "end":
        ev.append(Event(f"{model.mini_name(m)} ends the turn."))
        days.end_turn(state, ev)
        return
    if verb == "use":
        item = action.split(" ")[1]
        if item not in items:
            raise IllegalAction("not_held", f"You hold no {item} item; items: {', '.join(items) or 'none'}.")
        if item == "stride":
            b = actions.point_of(action)
            _check_move(state, here, b, "stride", ben, fog)
            items.remove(item)
            mi["items_used"].append(item)
            ev.append(Event(f"{model.mini_name(m)} opens a chest: Seven-League Stride."))
            _move(state, m, b, "stride", ev, "strides")
            days.back_to_turn(state, ev)
        elif item == "extra":
            items.remove(item)
            mi["items_used"].append(item)
            state["turn"]["left"] += 1
            ev.append(Event(f"{model.mini_name(m)} opens a chest: Second Wind (+1 action)."))
        else:
            items.remove(item)
            mi["items_used"].append(item)
            ev.append(Event(f"{model.mini_name(m)} opens a chest: Shovel."))
            days.search(state, ev, m, "use dig", here, 2, here, "turn")
        return
    if verb in ("ride", "walk", "dig", "search", "gallop", "compass", "verify", "monkey", "spyglass", "recall"):
        _need_left(state)
    else:
        raise _wrong(state, action)
    if verb == "ride":
        b = actions.point_of(action)
        _check_move(state, here, b, "ride", ben, fog)
        state["turn"]["left"] -= 1
        _move(state, m, b, "ride", ev, "rides")
        if m == "olivier":
            state["ride_from"] = list(b)
            state["state"] = "ride2"
        else:
            days.back_to_turn(state, ev)
    elif verb == "walk":
        b = actions.point_of(action)
        _check_move(state, here, b, "walk", ben, fog)
        state["turn"]["left"] -= 1
        _move(state, m, b, "walk", ev, "walks")
        days.search(state, ev, m, "walk", b, 2, b, "turn")
    elif verb == "dig":
        state["turn"]["left"] -= 1
        days.search(state, ev, m, "dig", here, 2, here, "step")
    elif verb == "search":
        c = actions.point_of(action)
        r = model.search_radius(m)
        if geometry.d2(c, here) > r * r:
            raise IllegalAction(
                "too_far",
                f"A large search must contain you: its centre may be at most {geometry.fmt_mile(r)} miles away.",
            )
        state["turn"]["left"] -= 1
        days.search(state, ev, m, "search", c, r, here, "turn")
    elif verb == "gallop":
        if not mi["gallop"]:
            raise IllegalAction("no_uses_left", "Full Gallop is used once per game and is spent.")
        b = actions.point_of(action)
        if b == here or not g.legal[geometry.node(*b)] or any(geometry.d2(b, c) <= model.FOG_R2 for c in fog):
            raise IllegalAction(
                "bad_destination", f"({geometry.fmt(b)}): gallop to any other legal location outside fog."
            )
        mi["gallop"] = 0
        state["turn"]["left"] -= 1
        mi["pos"] = list(b)
        mi["trail"].append([list(here), list(b), "gallop", state["day"]])
        ev.append(Event(f"{model.mini_name(m)} gallops to ({geometry.fmt(b)})."))
        days.back_to_turn(state, ev)
    elif verb == "compass":
        if not mi["compass"]:
            raise IllegalAction("no_uses_left", "This miniature has no Compass use left.")
        mi["compass"] -= 1
        state["turn"]["left"] -= 1
        state["compass_mini"] = m
        state["compass_uses"].append({"day": state["day"], "by": m, "pos": list(here)})
        state["state"] = "compass"
        ev.append(Event(f"{model.mini_name(m)} lays the compass at ({geometry.fmt(here)})."))
    elif verb == "verify":
        if not mi["verify"]:
            raise IllegalAction("no_uses_left", "Verification is used once per game and is spent.")
        try:
            day = int(action.split(" ")[1])
        except ValueError:
            raise IllegalAction("bad_text", "Verify a day number, e.g. `verify 9`.") from None
        targets = moves.verify_targets(state, seat)
        if day not in targets:
            raise IllegalAction("bad_target", f"No checkable token on June {day}; you may check: {targets or 'none'}.")
        idx = next(i for i, h in enumerate(state["hints"]) if h["day"] == day)
        tok = state["hint_tokens"][idx]
        mi["verify"] = 0
        state["turn"]["left"] -= 1
        state["verified"][seat].append({"target_day": day, "token": tok, "by": m})
        state["verifications"].append({"day": state["day"], "by": m, "target_day": day})
        ev.append(
            Event(
                f"{model.mini_name(m)} checks the token of June {day}.",
                {seat: f"The token of June {day} is a {tok.upper()} token."},
            )
        )
        days.back_to_turn(state, ev)
    elif verb in ("monkey", "spyglass"):
        if (verb == "monkey") != (m == "anne") or (verb == "spyglass") != (m == "olivier"):
            raise IllegalAction(
                "no_uses_left", f"Only {'Anne Bonny' if verb == 'monkey' else 'Olivier Levasseur'} has that."
            )
        if not mi["special"]:
            raise IllegalAction("no_uses_left", "That special is used once per game and is spent.")
        c = actions.point_of(action)
        if not g.legal[geometry.node(*c)]:
            raise IllegalAction(
                "bad_destination", f"({geometry.fmt(c)}) is not a legal location; aim at land outside red zones."
            )
        mi["special"] = 0
        state["turn"]["left"] -= 1
        r = 2 if verb == "monkey" else 4
        days.search(state, ev, m, verb, c, r, c, "turn")
    elif verb == "recall":
        if m != "ben" or not mi["special"]:
            raise IllegalAction("no_uses_left", "Hermit's Memory is Ben Gunn's, once per game.")
        lid = action.split(" ")[1]
        if lid not in g.landmarks:
            raise IllegalAction("bad_target", f"No landmark {lid}; landmarks: {', '.join(g.landmark_ids)}.")
        within = geometry.d2(as_pt(state["treasure"]), g.landmarks[lid]) <= 100
        mi["special"] = 0
        state["turn"]["left"] -= 1
        state["memory"][seat].append({"landmark": lid, "within_5": within, "day": state["day"]})
        ans = "within" if within else "more than"
        ev.append(
            Event(
                f"Ben Gunn searches his memory about {lid}.",
                {seat: f"Hermit's Memory: the treasure is {ans} 5 miles of {lid}."},
            )
        )
        days.back_to_turn(state, ev)


def _h_ride2(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = state["turn"]["mini"]
    if action == "halt":
        state["ride_from"] = None
        ev.append(Event(f"{model.mini_name(m)} reins in."))
        days.back_to_turn(state, ev)
        return
    if verb != "ride":
        raise _wrong(state, action)
    b = actions.point_of(action)
    _check_move(state, as_pt(state["minis"][m]["pos"]), b, "ride", False, model.fog_discs(state))
    _move(state, m, b, "ride", ev, "rides on")
    state["ride_from"] = None
    days.back_to_turn(state, ev)


def _h_step(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    m = state["turn"]["mini"]
    if action == "stay":
        ev.append(Event(f"{model.mini_name(m)} stays put."))
        days.back_to_turn(state, ev)
        return
    if verb != "step":
        raise _wrong(state, action)
    b = actions.point_of(action)
    _check_move(state, as_pt(state["minis"][m]["pos"]), b, "step", m == "ben", model.fog_discs(state))
    _move(state, m, b, "step", ev, "steps")
    days.back_to_turn(state, ev)


def _h_chest(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    ctx = state["chest_ctx"]
    m = ctx["mini"]
    if action == "nothing":
        ev.append(Event("Long John Silver: nothing found."))
    elif verb == "give":
        parts = action.split(" ")
        tok = parts[1]
        traitor = len(parts) == 3
        if tok not in state["chest_tokens"]:
            raise IllegalAction("not_held", f"You no longer hold {tok}; you hold {', '.join(state['chest_tokens'])}.")
        p = as_pt(ctx["pos"])
        if not model.info_true(state, tok, p):
            raise IllegalAction(
                "must_be_true", f"`{tok}` would be false from ({geometry.fmt(p)}); give another or `nothing`."
            )
        if traitor and (not model.trick_playable(state, "traitor") or state["traitor"] is not None):
            raise IllegalAction("trick_unavailable", "The Traitor cannot be played now.")
        receiver = state["owner"][m]
        state["chest_tokens"].remove(tok)
        state["given"].append({"day": state["day"], "mini": m, "token": tok, "traitor": traitor})
        state["received"][receiver] = True
        state["minis"][m]["chests"] += 1
        if tok in calendar.ITEMS:
            state["items"][receiver].append(tok)
            line = f"Chest for {model.mini_name(m)}: {calendar.CHEST_NAMES[tok]}."
        else:
            state["info_tokens"][receiver].append({"day": state["day"], "mini": m, "pos": list(p), "token": tok})
            if tok == "notdistrict":
                d = model.geo_of(state).district[geometry.node(*p)]
                line = (
                    f"Chest: the treasure is not in D{d}, the district of ({geometry.fmt(p)}) where "
                    f"{model.mini_name(m)} stood."
                )
            else:
                side = "west" if tok == "west" else "east"
                line = f"Chest: the treasure lies {side} of ({geometry.fmt(p)}), where {model.mini_name(m)} stood."
        if traitor:
            _spend_trick(state, "traitor", public=False)
            state["traitor"] = receiver
            line += " A TRAITOR token lies inside: you now win if Long John Silver wins (or alone if you find it)."
        ev.append(Event(f"Long John Silver hands {model.mini_name(m)} a chest.", {receiver: line}))
    else:
        raise _wrong(state, action)
    state["chest_ctx"] = None
    days.after_chest(state, ev, ctx["then"])


def _h_compass(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "show":
        raise _wrong(state, action)
    card = action.split(" ")[1]
    if card not in state["compass_hand"]:
        raise IllegalAction(
            "not_held", f"{card} is not in your Compass hand: {', '.join(hints.sort_ids(state['compass_hand']))}."
        )
    if action not in moves.compass_cards(state):
        raise IllegalAction(
            "must_be_true", f"{card} would be false here; show one of: {', '.join(moves.compass_cards(state))}."
        )
    m = state["compass_mini"]
    p = as_pt(state["minis"][m]["pos"])
    state["compass_hand"].remove(card)
    skulls = list(hints.COMPASS[card])
    state["compass_given"].append({"day": state["day"], "mini": m, "pos": list(p), "card": card, "skulls": skulls})
    owner = state["owner"][m]
    ev.append(
        Event(
            "Long John Silver shows a Compass Hint.",
            {
                owner: f"Compass at ({geometry.fmt(p)}): the treasure is in neither the {skulls[0]} nor the "
                f"{skulls[1]} eighth (card {card})."
            },
        )
    )
    state["compass_mini"] = None
    days.back_to_turn(state, ev)


def _h_escape(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    e = state["escape"]
    fig = state["figures"][e["fig"]]
    if action == "trick phantom":
        if not (e["first"] and e["round"] == 1 and model.trick_playable(state, "phantom")):
            raise IllegalAction("trick_unavailable", "Phantom can only be played at the very first step of the escape.")
        _spend_trick(state, "phantom", public=True)
        pos = fig["pos"]
        state["figures"] = [{"id": x, "pos": list(pos), "trail": []} for x in ("A", "B", "C")]
        state["state"] = "phantom"
        ev.append(Event("Long John Silver plays Phantom: three Silvers, A, B and C, leave the tower."))
        return
    if action == "stay":
        ev.append(Event(f"Long John Silver ({fig['id']}) waits."))
        days.next_figure(state, ev)
        return
    if verb != "run":
        raise _wrong(state, action)
    a, b = as_pt(fig["pos"]), actions.point_of(action)
    _check_move(state, a, b, "run", False, ())
    fig["pos"] = list(b)
    fig["trail"].append([list(a), list(b), "run", e["round"]])
    name = "Long John Silver" if fig["id"] == "L" else f"Silver {fig['id']}"
    ev.append(Event(f"{name} runs ({geometry.fmt(a)}) → ({geometry.fmt(b)})."))
    e["first"] = False
    if fig["id"] == state["real"] and b == as_pt(state["treasure"]):
        winners = [state["silver"]] + ([state["traitor"]] if state["traitor"] is not None else [])
        days.finish(state, ev, winners, "escaped", "Long John Silver digs up his treasure and wins!")
        return
    e["moves"] += 1
    if e["moves"] >= 2:
        days.next_figure(state, ev)


def _h_phantom(state: State, seat: int, action: str, verb: str, ev: list[Event]) -> None:
    if verb != "real" or action.split(" ")[1] not in ("A", "B", "C"):
        raise _wrong(state, action)
    state["real"] = action.split(" ")[1]
    state["state"] = "escape"
    state["escape"]["first"] = False
    ev.append(Event(None, {seat: f"Silver {state['real']} is the real one."}, seat))


_HANDLERS = {
    "bury": _h_bury,
    "hint_card": _h_hint_card,
    "fog": _h_fog,
    "hint_token": _h_hint_token,
    "hint_param": _h_hint_param,
    "prison_trick": _h_prison_trick,
    "prison": _h_prison,
    "turn": _h_turn,
    "ride2": _h_ride2,
    "step": _h_step,
    "chest": _h_chest,
    "compass": _h_compass,
    "escape": _h_escape,
    "phantom": _h_phantom,
}

_SECRET_VERBS = ("bury", "hint", "token", "say", "give", "show", "real", "trick", "redraw", "fog", "nothing")


def _last(before: State, after: State, seat: int, action: str) -> dict[str, Any]:
    """What the public may highlight: pirate moves and searches; Silver's private steps stay a bare 'silver'."""
    verb = action.split(" ")[0]
    if seat == before["silver"] and verb in _SECRET_VERBS:
        return {"seat": seat, "kind": "silver"}
    out: dict[str, Any] = {"seat": seat, "kind": verb}
    if before["state"] in ("turn", "ride2", "step"):
        out["mini"] = before["turn"]["mini"]
    if verb in model.POINT_VERBS or verb == "use":
        p = geometry.parse_point(action.split(" ")[-1])
        if p is not None:
            out["to"] = geometry.fmt(p)
    return out


def outcome(state: State) -> Outcome | None:
    o = state["outcome"]
    if o is None:
        return None
    winners = tuple(o["winners"])
    scores = tuple(1.0 if s in winners else 0.0 for s in range(state["n"]))
    if not winners:
        # the 30-round cap: the original names only two ways to win, so nobody is ranked (not rated)
        return Outcome(winners, o["reason"], scores)
    # Ratings: Long John Silver and his traitor are one side; every other pirate plays for himself (only the
    # finder wins, so the other pirates lost to him as much as Silver did). A traitor who finds the gold
    # himself wins alone, against Silver.
    silver, traitor = state["silver"], state["traitor"]
    side = (silver,) if traitor is None or traitor in winners and silver not in winners else (silver, traitor)
    teams = (side, *((p,) for p in range(state["n"]) if p not in side))
    places = tuple(1 if any(p in winners for p in team) else 2 for team in teams)
    return Outcome(winners, o["reason"], scores, teams=teams, places=places)
