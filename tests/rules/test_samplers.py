"""Samplers of states consistent with a seat's view (issue 17): Buccaneer, Treasure Island, Flagon.

At positions of seeded playouts, for every seat: the sample's view equals the view it came from, the sample is
playable, it depends only on (view, rng), and it varies with the rng where something is hidden."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator

import pytest

from rules.core import Game, State, canonical_json
from rules.playout import ai_chooser, random_chooser, steps
from rules.registry import get
from tests.tiers import quick_subset

# (game, players, options, seed, chooser kind, every n-th position)
RUNS = {
    "buccaneer": [
        (2, None, "bu-a", "ai", 5),
        (3, None, "bu-b", "random", 7),
        (4, {"ports": "random"}, "bu-c", "ai", 11),
        (2, {"honour": "on"}, "bu-d", "random", 5),
    ],
    "treasure_island": [
        (3, None, "ti-a", "ai", 7),
        (2, {"expansion": "on", "tricks": "3"}, "ti-b", "ai", 5),
        (5, {"map": "revenge"}, "ti-c", "random", 9),
        (6, {"expansion": "on", "tricks": "2"}, "ti-d", "random", 7),
    ],
    "flagon": [
        (2, None, "fl-a", "ai", 7),
        (5, None, "fl-b", "random", 11),
        (3, {"map": "tavern"}, "fl-c", "random", 9),
        (4, {"setup": "random"}, "fl-d", "ai", 9),
    ],
}


@functools.cache
def positions(game_id: str) -> list[tuple[Game, State]]:
    """Every n-th position of the game's seeded playouts, and each final one (computed once per run)."""
    return list(_positions(game_id))


def _positions(game_id: str) -> Iterator[tuple[Game, State]]:
    game = get(game_id)
    for players, options, seed, kind, every in RUNS[game_id]:
        chooser = ai_chooser(["normal"] * players, seed) if kind == "ai" else random_chooser(random.Random(seed))
        for i, step in enumerate(steps(game, players, options, seed, chooser)):
            if i % every == 0:
                yield game, step.before
        yield game, step.after


def check_sample(game: Game, state: State, seat: int, salt: str) -> State:
    view = game.view(state, seat)
    frozen = canonical_json(view)
    sampled = game.sample(json.loads(frozen), seat, random.Random(f"{salt}:{seat}"))
    assert canonical_json(view) == frozen
    assert canonical_json(game.view(sampled, seat)) == frozen, f"{game.info.id}: seat {seat} view differs"
    # the same view and rng give the same sample: a pure function of (view, rng)
    again = game.sample(json.loads(frozen), seat, random.Random(f"{salt}:{seat}"))
    assert canonical_json(again) == canonical_json(sampled)
    assert sampled["seed"] != state["seed"]
    assert sorted(sampled) == sorted(state), "the sample has the real state's fields"
    for s in game.to_act(sampled):
        legal = game.legal_actions(sampled, s)
        assert legal, f"{game.info.id}: seat {s} owes a decision in the sample but has no legal action"
        for action in (legal[0], legal[-1], legal[len(legal) // 2]):
            game.apply(sampled, s, action)
    return sampled


# Treasure Island's sampling runs are the slow tier's; tests/rules/test_sampler_contract.py keeps it in the default run
@pytest.mark.parametrize("game_id", quick_subset(sorted(RUNS), set(RUNS) - {"treasure_island"}))
def test_sample_view_equals_view(game_id: str) -> None:
    count = 0
    for game, state in positions(game_id):
        players = len(game.view(state, None)["players"]) if game_id != "flagon" else state["players"]
        for seat in range(players):
            check_sample(game, state, seat, f"{count}")
        count += 1
    assert count > 50


def hidden_flagon(state: State, seat: int) -> str:
    view = get("flagon").view(state, seat)
    seen = {c["idx"] for c in view["chars"] if "queue" in c}
    return canonical_json([[c["queue"], c["hand"]] for c in state["chars"] if c["idx"] not in seen] + [state["navy"]])


def hidden_buccaneer(state: State, seat: int) -> str:
    others = [p["hand"] for s, p in enumerate(state["players"]) if s != seat]
    return canonical_json([others, state["pirate_pile"], state["chance_pile"]])


def hidden_treasure_island(state: State, seat: int) -> str:
    keys = ("treasure", "hand", "compass_hand", "districts", "starting_deck", "black_deck", "district_pile")
    return canonical_json([state[k] for k in keys])


HIDDEN = {"flagon": hidden_flagon, "buccaneer": hidden_buccaneer, "treasure_island": hidden_treasure_island}


@pytest.mark.parametrize("game_id", sorted(RUNS))
def test_samples_vary_with_the_rng(game_id: str) -> None:
    """Where the seat cannot see something, different rngs give different guesses at it."""
    game = get(game_id)
    varied = 0
    tried = 0
    for game, state in positions(game_id):
        if game.outcome(state) is not None:
            continue
        tried += 1
        view = game.view(state, 0)
        guesses = {HIDDEN[game_id](game.sample(view, 0, random.Random(k)), 0) for k in range(6)}
        if len(guesses) > 1:
            varied += 1
    assert tried and varied >= tried // 2


def test_treasure_only_where_the_pirate_cannot_rule_it_out() -> None:
    """A pirate's sample buries the treasure on a node his own view leaves open, under hint tokens Silver could
    have laid (Truth only on a hint that holds there, the Lie only on one that does not)."""
    from rules.treasure_island import geometry as G

    game = get("treasure_island")
    checked = 0
    for _, state in positions("treasure_island"):
        if state["treasure"] is None or state["state"] == "over":
            continue
        for seat in range(state["n"]):
            if seat == state["silver"]:
                continue
            view = game.view(state, seat)
            excluded = G.mask_from_b64(view["private"]["certain_excluded"])
            for k in range(3):
                sampled = game.sample(view, seat, random.Random(k))
                node = G.node(*sampled["treasure"])
                assert not excluded >> node & 1
                assert G.geo(state["options"]["map"]).legal[node]
                for hint, token in zip(sampled["hints"], sampled["hint_tokens"], strict=True):
                    holds = G.mask_from_b64(hint["true_mask"]) >> node & 1
                    assert (token != "truth" or holds) and (token != "lie" or not holds)
                checked += 1
    assert checked > 100
