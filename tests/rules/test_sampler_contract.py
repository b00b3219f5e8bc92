"""Every sampler is consistent with its view: ``view(sample(view, seat), seat) == view``, and the sample is a state
the engine plays on (its legal actions apply), at positions of seeded playouts, for every seat."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.core import canonical_json
from tests.ai.positions import positions, sampled_games

GAMES = sampled_games()


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game, the guide's worked example, has a sampler too (docs/adding-a-game.md: ``sample.py``)."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.host.toygame")


def test_every_game_has_its_own_sampler() -> None:
    assert set(GAMES) == set(registry.game_ids()) - {"toy"}


@pytest.mark.parametrize("game_id", [*GAMES, "toy"])
def test_sample_has_the_same_view_and_plays_on(game_id: str) -> None:
    game = registry.get(game_id)
    checked = differed = 0
    every = 1 if game_id == "toy" else 9  # a toy game is over in a couple of dozen actions
    for n, (state, acting) in enumerate(positions(game_id, every, 12)):
        players = len(game.view(state, None).get("seat_names") or []) or game.info.min_players
        for seat in sorted({acting, (acting + 1) % players}):
            view = game.view(state, seat)
            sample = game.sample(view, seat, random.Random(f"{game_id}:{n}:{seat}"))
            assert canonical_json(game.view(sample, seat)) == canonical_json(view), (game_id, n, seat)
            # the same view and RNG give the same sample: a pure function of (view, rng)
            again = game.sample(view, seat, random.Random(f"{game_id}:{n}:{seat}"))
            assert canonical_json(again) == canonical_json(sample)
            # it never hands back the real state's seed, so the future draws are not the real ones
            assert sample["seed"] != state["seed"]
            differed += canonical_json({k: v for k, v in sample.items() if k not in ("seed", "rng_n")}) != (
                canonical_json({k: v for k, v in state.items() if k not in ("seed", "rng_n")})
            )
            for who in game.to_act(sample):
                legal = game.legal_actions(sample, who)
                assert legal, (game_id, n, who)
                if who == seat:
                    assert legal == game.legal_actions(state, seat)
                game.apply(sample, who, legal[0])
                game.apply(sample, who, legal[-1])
            checked += 1
    assert checked >= 10
    assert differed, f"{game_id}: no sample ever differed from the real state in what the seat cannot see"
