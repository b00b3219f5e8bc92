"""Short rollouts for the hard-AI tests: what they check (legal choices, the same choice for the same view and
seed, whole games through the host) does not depend on how far a rollout looks, and Treasure Island's
``normal`` moves cost tens of milliseconds each. (Worker processes keep the real horizons.)"""

from __future__ import annotations

import pytest

from rules import registry
from rules.core import Game


@pytest.fixture(autouse=True)
def short_rollouts(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    if request.module.__name__.endswith("test_aipool"):
        return  # those compare a worker process's choice with this process's: both must use the real horizons
    for game in registry.all_games():
        monkeypatch.setattr(game, "search_horizon", min(game.search_horizon, 8))
    monkeypatch.setattr(Game, "search_horizon", 8)
