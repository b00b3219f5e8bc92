"""Hand-built Buccaneer positions for the scenario tests, and the invariants every state must keep."""

from __future__ import annotations

import json

from rules.buccaneer import GAME, board
from rules.buccaneer.model import CREW, CREW_PER_KIND, KEEPER_OF, TREASURE, TREASURE_PER_KIND, empty_crew
from rules.core import State, canonical_json

DEFAULT_PORTS = ("amsterdam", "bombay", "bristol", "genoa", "marseilles", "cadiz", "london", "venice")


#: three home ports around the board, for scenarios that need a third ship
THREE = ("amsterdam", "cadiz", "london")


def make(ports: tuple[str, ...] = ("amsterdam", "cadiz"), seed: str = "fixture", **options: str) -> State:
    """A game whose seats chose ``ports`` in seat order; seat 0 is the dealer and to move."""
    state = GAME.new(len(ports), {"ports": "choose", **options}, seed)
    for seat, port in enumerate(ports):
        state, _ = GAME.apply(state, seat, f"home {port}")
    return state


def hand(text: str) -> dict[str, int]:
    h = empty_crew()
    for k in text.lower().split():
        h[k] += 1
    return h


def set_hand(state: State, seat: int, text: str) -> None:
    state["players"][seat]["hand"] = hand(text)
    rebalance(state)


def rebalance(state: State) -> None:
    """Rebuild the Pirate Island pile so that every crew kind is accounted for (12 each), keeping the order
    of the cards that stay."""
    placed = dict.fromkeys(CREW, 0)
    for p in state["players"]:
        for k in CREW:
            placed[k] += p["hand"][k]
    for h in state["harbours"].values():
        for k in CREW:
            placed[k] += h["docks"]["crew"][k]
    for k in CREW:
        placed[k] += state["flat"]["crew"][k]
    pile = []
    left = {k: CREW_PER_KIND - placed[k] for k in CREW}
    assert all(v >= 0 for v in left.values()), left
    for k in state["pirate_pile"]:
        if left[k]:
            pile.append(k)
            left[k] -= 1
    for k in CREW:
        pile.extend([k] * left[k])
    state["pirate_pile"] = pile


def put(state: State, seat: int, at: str, facing: str | None = None) -> None:
    ship = state["players"][seat]["ship"]
    ship["at"] = at
    ship["facing"] = None if board.is_harbour(at) else facing


def give_hold(state: State, seat: int, *pieces: str) -> None:
    for t in pieces:
        state["treasure_island"][t] -= 1
    state["players"][seat]["ship"]["hold"] = sorted(
        [*state["players"][seat]["ship"]["hold"], *pieces], key=TREASURE.index
    )


def top_cards(state: State, *cards: int) -> None:
    """Put these chance cards on top of the pile, in this order."""
    pile = [c for c in state["chance_pile"] if c not in cards]
    state["chance_pile"] = [*cards, *pile]


def play(state: State, seat: int, *actions: str) -> tuple[State, list]:
    """Apply each action with the contract checks of :func:`check_step`, so every scenario state (and so
    every frame type) also goes through the JSON round trip, the invariants and the leak check."""
    events: list = []
    for action in actions:
        state, ev = check_step(state, seat, action)
        events += ev
    return state, events


def public_text(events: list) -> str:
    return "\n".join(e.public for e in events if e.public is not None)


def check_invariants(state: State) -> None:
    """Conservation (edge case 32 of docs/games/buccaneer.md#edge-cases-and-the-tests-that-cover-them) and the physical
    limits of issue item 6."""
    crew = dict.fromkeys(CREW, 0)
    for p in state["players"]:
        for k in CREW:
            crew[k] += p["hand"][k]
    for h in state["harbours"].values():
        for k in CREW:
            crew[k] += h["docks"]["crew"][k]
    for k in CREW:
        crew[k] += state["flat"]["crew"][k] + state["pirate_pile"].count(k)
    # the crew deck is shuffled and dealt only once every port is chosen
    assert crew == dict.fromkeys(CREW, CREW_PER_KIND) or state["phase"] == "choose_ports", crew

    treasure = dict(state["treasure_island"])
    for p in state["players"]:
        for t in p["ship"]["hold"]:
            treasure[t] += 1
    for h in state["harbours"].values():
        for t in TREASURE:
            treasure[t] += h["docks"]["treasure"][t] + h["safety"][t]
    for t in TREASURE:
        treasure[t] += state["flat"]["treasure"][t]
    assert treasure == dict.fromkeys(TREASURE, TREASURE_PER_KIND), treasure

    if state["phase"] != "choose_ports":
        # a card being resolved lies face up until its resolution is complete
        # (docs/games/buccaneer.md#when-a-chance-card-is-drawn)
        resolving = [f["card"] for f in state["stack"] if f["kind"] == "task" and f["op"] == "chance_back"]
        assert len(resolving) <= 1, resolving
        cards = list(state["chance_pile"]) + list(state["removed"]) + resolving
        for p in state["players"]:
            cards += p["keepers"]
        for h in state["harbours"].values():
            cards += h["docks"]["cards"]
        assert sorted(cards) == list(range(1, 29)), sorted(cards)
        assert all(c in KEEPER_OF for c in cards if c not in state["chance_pile"] and c not in resolving)

    returning = {f["seat"] for f in state["stack"] if f["kind"] == "RETURN"}
    per_square: dict[str, int] = {}
    for seat, p in enumerate(state["players"]):
        ship = p["ship"]
        assert len(ship["hold"]) <= 2 or seat in returning, ship
        at = ship["at"]
        if at is None:
            assert state["phase"] == "choose_ports"
            continue
        if board.is_harbour(at):
            assert ship["facing"] is None
        else:
            assert board.POS[at] in board.SEA, at
            assert ship["facing"] in board.DIRS, ship
            per_square[at] = per_square.get(at, 0) + 1
    assert all(n <= 3 for n in per_square.values()), per_square


def check_step(state: State, seat: int, action: str) -> tuple[State, list]:
    """Apply with every contract check of the playout tests."""
    before = canonical_json(state)
    after, events = GAME.apply(state, seat, action)
    assert canonical_json(state) == before, f"apply mutated its input ({action})"
    dumped = json.loads(json.dumps(GAME.dump(after)))
    assert canonical_json(GAME.load(dumped)) == canonical_json(GAME.dump(after))
    check_invariants(after)
    public = json.dumps(GAME.view(after, None), sort_keys=True)
    for secret in GAME.secrets(after):
        assert secret not in public, f"secret {secret!r} in the public view"
        for e in events:
            assert secret not in (e.public or "")
    if GAME.to_act(after):
        assert any(GAME.legal_actions(after, s) for s in GAME.to_act(after))
    return after, events


def test_fixture_positions_keep_the_invariants() -> None:
    s = make(("amsterdam", "cadiz", "venice"))
    check_invariants(s)
    set_hand(s, 0, "b3 b3 b3 r1")
    give_hold(s, 1, "gold")
    check_invariants(s)
    assert s["phase"] == "play" and GAME.to_act(s) == [0]
