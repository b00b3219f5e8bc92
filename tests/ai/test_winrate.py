"""The strength benchmark's arithmetic and a one-game run (figures are printed, never asserted)."""

from __future__ import annotations

import pytest

from benchmarks import winrate


def test_wilson_interval() -> None:
    lo, hi = winrate.wilson(30, 40)
    assert 0.59 < lo < 0.60 and 0.85 < hi < 0.87
    assert winrate.wilson(0, 0) == (0.0, 1.0)
    lo, hi = winrate.wilson(0, 10)
    assert lo == 0.0 and hi < 0.31


def test_one_game_prints_shares_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    winrate.main(["--game", "cartagena", "--levels", "hard,normal", "--games", "1", "--iterations", "1"])
    out = capsys.readouterr().out
    assert "1 iterations a decision" in out and "95% CI" in out and "errors 0" in out
