"""parley run's process once it is up: start-up's objects frozen, the young generation collected less often."""

from __future__ import annotations

import gc

from bot.infra import heap


def test_settle_freezes_what_start_up_made_and_collects_the_young_less_often() -> None:
    threshold = gc.get_threshold()
    try:
        gc.unfreeze()
        assert gc.get_freeze_count() == 0
        heap.settle()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (heap.YOUNG, threshold[1], threshold[2])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
