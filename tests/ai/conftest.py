"""Short rollouts for the hard-AI tests: what they check (legal choices, the same choice for the same view and
seed, whole games through the host) does not depend on how far a rollout looks, and Treasure Island's
``normal`` moves cost tens of milliseconds each. (Worker processes keep the real horizons.)"""

from __future__ import annotations

import pytest

from rules import search


@pytest.fixture(autouse=True)
def short_rollouts(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    if request.module.__name__.endswith("test_aipool"):
        return  # those compare a worker process's choice with this process's: both must use the real horizons
    monkeypatch.setattr(search, "HORIZON", {game: min(horizon, 8) for game, horizon in search.HORIZON.items()})
    monkeypatch.setattr(search, "DEFAULT_HORIZON", 8)
