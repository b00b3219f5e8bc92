"""The leak sweep in CI: seeded games per game, every state checked (tests/secrets/sweep.py does the work).

The default run sweeps the first games of each game (``QUICK``), the slow tier the rest (``pytest --slow``,
CONTRIBUTING.md#the-test-tiers). ``PARLEY_SECRET_GAMES`` sets the number of games for every game (e.g. 5000 for a
night run); without it each game gets what fits the CI budget (its AI and view speed decide). ``python -m
tests.secrets.sweep --games 5000`` runs the full sweep in two processes and prints the figures.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Executor

import pytest

from rules import registry
from tests.secrets.sweep import parallel_sweep, process_pool

#: CI defaults, games per game, sized so the whole tests/secrets/ directory keeps within 4 minutes on two cores:
#: the cheap engines get their hundreds or thousands, the slow AIs and views (Buccaneer, Treasure Island) tens
CI_GAMES = {"cartagena": 200, "buccaneer": 25, "flagon": 400, "martinique": 1000, "treasure_island": 25}
#: the first games of each, which the default run sweeps (about a twentieth: every game's rules and views still
#: meet the scramble); the slow tier sweeps the rest
QUICK = {"cartagena": 10, "buccaneer": 1, "flagon": 20, "martinique": 50, "treasure_island": 1}
#: the default run's part and the slow tier's
PARTS = [pytest.param("quick"), pytest.param("rest", marks=pytest.mark.slow)]
#: per game, (games, every Nth state) whose public PNG is also compared with the scramble's: about 30 pairs each
PICTURES = {
    "cartagena": (1, 12),
    "buccaneer": (1, 40),
    "flagon": (2, 8),
    "martinique": (4, 4),
    "treasure_island": (1, 6),
}


@pytest.fixture(scope="module")
def pool() -> Iterator[Executor]:
    # the sweep is embarrassingly parallel: both cores of the CI machine
    with process_pool(2) as executor:
        yield executor


def games_for(game_id: str, part: str) -> range:
    """The game numbers this part sweeps: the first ``QUICK`` ones, or the rest up to the total."""
    env = os.environ.get("PARLEY_SECRET_GAMES")
    total = int(env) if env else CI_GAMES[game_id]
    quick = min(QUICK[game_id], total)
    return range(quick) if part == "quick" else range(quick, total)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("game_id", registry.game_ids())
def test_no_secret_in_any_public_view_or_line_of_seeded_games(pool: Executor, game_id: str, part: str) -> None:
    games = games_for(game_id, part)
    n = len(games)
    if not n:
        pytest.skip(f"PARLEY_SECRET_GAMES leaves no {game_id} games past the first {QUICK[game_id]}")
    tally = parallel_sweep(pool, game_id, n, start=games.start)
    assert tally.games == n and tally.states >= n
    assert tally.refusals > 0
    # the scramble must have re-dealt a real secret (not just the seed) in most states, or it proved nothing
    assert tally.scrambles == tally.states and tally.scrambles_with_teeth > 0.8 * tally.scrambles


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_public_pictures_are_the_same_for_states_that_differ_only_in_secrets(pool: Executor, game_id: str) -> None:
    # other game numbers than the sweep's, so these games add to it
    n, every = PICTURES[game_id]
    tally = parallel_sweep(pool, game_id, n, start=1_000_000, picture_every=every, parts=n)
    assert tally.pictures >= 10
