"""Windows of a turn (docs/games/buccaneer.md#ports-home-flat-island): trading at other ports with a basket, the home
port and its Safety Zone, Flat Island and Kidd's Chart at Anchor Bay."""

from __future__ import annotations

from typing import Any

from rules.buccaneer import board
from rules.buccaneer.model import (
    CARD_VALUE,
    CREW,
    CREW_VALUE,
    HOLD_MAX,
    KEEPER_CARDS,
    KEEPER_TITLE,
    KEEPERS,
    TREASURE,
    TREASURE_VALUE,
    Narration,
    has_keeper,
    sort_hold,
    who,
)
from rules.core import State

ITEMS: tuple[str, ...] = (*CREW, *TREASURE, *KEEPERS)


def _n(pool: dict[str, int], item: str) -> int:
    return pool.get(item, 0)


def trader_has(state: State, seat: int, item: str) -> int:
    p = state["players"][seat]
    if item in CREW_VALUE:
        return p["hand"][item]
    if item in TREASURE_VALUE:
        return p["ship"]["hold"].count(item)
    return sum(1 for n in KEEPER_CARDS[item] if n in p["keepers"])


def docks_have(docks: dict[str, Any], item: str) -> int:
    if item in CREW_VALUE:
        return docks["crew"][item]
    if item in TREASURE_VALUE:
        return docks["treasure"][item]
    return sum(1 for n in KEEPER_CARDS[item] if n in docks["cards"])


def basket_status(state: State, seat: int) -> dict[str, Any]:
    """The running values of the basket and its status line, first match wins (docs/games/buccaneer.md#trading)."""
    basket = state["turn"]["basket"]
    give, get = basket["give"], basket["get"]
    plain = sum((CREW_VALUE.get(i) or TREASURE_VALUE.get(i, 0)) * n for i, n in give.items() if i not in KEEPERS)
    cards = sum(CARD_VALUE.get(i, 0) * n for i, n in give.items() if i in KEEPERS)
    wanted = sum((CREW_VALUE.get(i) or TREASURE_VALUE.get(i) or CARD_VALUE.get(i, 0)) * n for i, n in get.items())
    hold = state["players"][seat]["ship"]["hold"]
    after = (
        len(hold)
        - sum(n for i, n in give.items() if i in TREASURE_VALUE)
        + sum(n for i, n in get.items() if i in TREASURE_VALUE)
    )
    lj_give = give.get("longjohn", 0)
    lj_get = get.get("longjohn", 0)
    ok = False
    if after > HOLD_MAX:
        status = "hold would exceed 2"
    elif lj_give or lj_get:
        if (give == {"longjohn": 1} and get and all(i in CREW_VALUE for i in get) and wanted <= 5) or (
            get == {"longjohn": 1} and len(give) == 1 and sum(give.values()) == 1 and next(iter(give)) in TREASURE_VALUE
        ):
            status, ok = "balanced", True
        else:
            status = "Long John goes only for up to 5 in crew, or comes for exactly one treasure"
    elif plain + cards < wanted:
        status = f"give more: short by {wanted - plain - cards}"
    elif plain + cards > wanted:
        status = f"give less: over by {plain + cards - wanted}"
    elif not give or not get:
        status = "add something to both sides"
    else:
        status, ok = "balanced", True
    return {
        "give": dict(give),
        "get": dict(get),
        "plain": plain,
        "cards": cards,
        "wanted": wanted,
        "status": status,
        "ok": ok,
    }


def trade_actions(state: State, seat: int) -> list[str]:
    """offer / want / unoffer / unwant / trade / cancel at a port that is not home."""
    harbour = state["players"][seat]["ship"]["at"]
    docks = state["harbours"][harbour]["docks"]
    basket = state["turn"]["basket"]
    out = [f"offer {i}" for i in ITEMS if trader_has(state, seat, i) > _n(basket["give"], i)]
    out += [f"want {i}" for i in ITEMS if docks_have(docks, i) > _n(basket["get"], i)]
    out += [f"unoffer {i}" for i in ITEMS if _n(basket["give"], i)]
    out += [f"unwant {i}" for i in ITEMS if _n(basket["get"], i)]
    if basket["give"] or basket["get"]:
        if basket_status(state, seat)["ok"]:
            out.append("trade")
        out.append("cancel")
    return out


def basket_step(state: State, seat: int, action: str) -> None:
    verb, item = action.split()
    basket = state["turn"]["basket"]
    side = basket["give" if verb in ("offer", "unoffer") else "get"]
    side[item] = side.get(item, 0) + (1 if verb in ("offer", "want") else -1)
    if side[item] == 0:
        del side[item]
    for key in ("give", "get"):
        basket[key] = {i: basket[key][i] for i in ITEMS if i in basket[key]}


def do_trade(state: State, seat: int, narration: Narration) -> None:
    p = state["players"][seat]
    harbour = p["ship"]["at"]
    docks = state["harbours"][harbour]["docks"]
    basket = state["turn"]["basket"]
    for item, n in basket["give"].items():
        for _ in range(n):
            if item in CREW_VALUE:
                p["hand"][item] -= 1
                docks["crew"][item] += 1
            elif item in TREASURE_VALUE:
                p["ship"]["hold"].remove(item)
                docks["treasure"][item] += 1
            else:
                card = has_keeper(p["keepers"], item)
                p["keepers"].remove(card)
                docks["cards"].append(card)
    for item, n in basket["get"].items():
        for _ in range(n):
            if item in CREW_VALUE:
                docks["crew"][item] -= 1
                p["hand"][item] += 1
            elif item in TREASURE_VALUE:
                docks["treasure"][item] -= 1
                p["ship"]["hold"].append(item)
            else:
                card = has_keeper(docks["cards"], item)
                docks["cards"].remove(card)
                p["keepers"].append(card)
    p["ship"]["hold"] = sort_hold(p["ship"]["hold"])
    p["keepers"].sort()
    docks["cards"].sort()
    narration.add(
        f"{who(state, seat)} at {board.HARBOUR[harbour]['name']} gives {_list(basket['give'])}, gets "
        f"{_list(basket['get'])}"
    )
    state["turn"]["basket"] = {"give": {}, "get": {}}


def _list(side: dict[str, int]) -> str:
    # crew as the hands spell them, kept cards by their title ("gives Long John Silver, gets B3 R2")
    names = [(i.upper() if i in CREW_VALUE else KEEPER_TITLE.get(i, i)) for i, n in side.items() for _ in range(n)]
    return " ".join(names)


# -- home port ------------------------------------------------------------------------------------------
def home_actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    h = state["harbours"][p["harbour"]]
    docks, safety = h["docks"], h["safety"]
    hold = p["ship"]["hold"]
    out = [f"unload {t}" for t in TREASURE if t in hold]
    if len(hold) < HOLD_MAX:
        out += [f"load {t}" for t in TREASURE if docks["treasure"][t]]
    out += [
        f"safe {t}"
        for t in TREASURE
        if (docks["treasure"][t] >= 3 and safety[t] == 0) or (safety[t] >= 3 and docks["treasure"][t] >= 1)
    ]
    out += [f"leave {k}" for k in CREW if p["hand"][k]]
    out += [f"pickup {k}" for k in CREW if docks["crew"][k]]
    out += [f"pickup {k}" for k in KEEPERS if has_keeper(docks["cards"], k) is not None]
    return out


def home_step(state: State, seat: int, action: str, narration: Narration) -> None:
    verb, item = action.split()
    p = state["players"][seat]
    h = state["harbours"][p["harbour"]]
    docks = h["docks"]
    name = who(state, seat)
    if verb == "unload":
        p["ship"]["hold"].remove(item)
        docks["treasure"][item] += 1
        narration.add(f"{name} unloads {item}")
    elif verb == "load":
        docks["treasure"][item] -= 1
        p["ship"]["hold"] = sort_hold([*p["ship"]["hold"], item])
        narration.add(f"{name} loads {item} aboard")
    elif verb == "safe":
        n = 1 if h["safety"][item] >= 3 else 3
        docks["treasure"][item] -= n
        h["safety"][item] += n
        narration.add(f"{name} puts {n} {item} in the Safety Zone")
    elif verb == "leave":
        p["hand"][item] -= 1
        docks["crew"][item] += 1
        narration.add(f"{name} leaves {item.upper()} for sale")
    elif item in CREW_VALUE:
        docks["crew"][item] -= 1
        p["hand"][item] += 1
        narration.add(f"{name} picks up {item.upper()} from the Docks")
    else:
        card = has_keeper(docks["cards"], item)
        docks["cards"].remove(card)
        p["keepers"] = sorted([*p["keepers"], card])
        narration.add(f"{name} picks up {KEEPER_TITLE[item]} from the Docks")


# -- Flat Island and Anchor Bay -------------------------------------------------------------------------
def flat_actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    flat = state["flat"]
    out = [f"flat take {k}" for k in CREW if flat["crew"][k]]
    if len(p["ship"]["hold"]) < HOLD_MAX:
        out += [f"flat take {t}" for t in TREASURE if flat["treasure"][t]]
    out += [f"flat leave {k}" for k in CREW if p["hand"][k]]
    return out


def flat_step(state: State, seat: int, action: str, narration: Narration) -> None:
    _, verb, item = action.split()
    p = state["players"][seat]
    flat = state["flat"]
    name = who(state, seat)
    if verb == "leave":
        p["hand"][item] -= 1
        flat["crew"][item] += 1
        narration.add(f"{name} leaves {item.upper()} on Flat Island")
    elif item in CREW_VALUE:
        flat["crew"][item] -= 1
        p["hand"][item] += 1
        narration.add(f"{name} takes {item.upper()} from Flat Island")
    else:
        flat["treasure"][item] -= 1
        p["ship"]["hold"] = sort_hold([*p["ship"]["hold"], item])
        narration.add(f"{name} takes {item} from Flat Island")


def can_land_chart(state: State, seat: int) -> bool:
    p = state["players"][seat]
    return (
        p["ship"]["at"] == board.ANCHOR_BAY
        and has_keeper(p["keepers"], "chart") is not None
        and not state["kidd_landed"]
        and len(p["ship"]["hold"]) < HOLD_MAX
    )


def land_chart(state: State, seat: int, narration: Narration) -> None:
    p = state["players"][seat]
    card = has_keeper(p["keepers"], "chart")
    p["keepers"].remove(card)
    state["removed"].append(card)
    state["kidd_landed"] = True
    narration.add(f"{who(state, seat)} lands Kidd's Chart at Anchor Bay and digs for treasure up to 7")
    state["stack"].append({"kind": "PICK", "seat": seat, "budget": 7})


def window_actions(state: State, seat: int) -> list[str]:
    """Every window action open to the active seat where its ship lies (docs/games/buccaneer.md#ports-home-flat-island);
    only basket steps while the basket holds something."""
    p = state["players"][seat]
    at = p["ship"]["at"]
    basket = state["turn"]["basket"]
    if board.is_harbour(at):
        if at == p["harbour"]:
            return home_actions(state, seat)
        return trade_actions(state, seat)
    assert not basket["give"] and not basket["get"]
    out: list[str] = []
    if at in board.FLAT_COAST_SET:
        out += flat_actions(state, seat)
    if can_land_chart(state, seat):
        out.append("land chart")
    return out
