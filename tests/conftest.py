"""Fixtures shared by every tier: ``db_url``, a fresh database on each store (SQLite file, PostgreSQL schema).

And the two runs of the suite (CONTRIBUTING.md#the-test-tiers): ``pytest`` runs every tier with quick
representatives; tests marked ``slow`` (the long sweeps and end-to-end games) run only with ``--slow``, and
``pytest --slow -m slow`` runs them alone, as CI does after the default run. ``--tier-times`` prints the wall and
CPU time each folder of tests took.
"""

from __future__ import annotations

import resource
import time
from collections import defaultdict
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

from tests import pg


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="also run the slow tier: the long sweeps and end-to-end games (alone with -m slow)",
    )
    parser.addoption(
        "--tier-times",
        action="store_true",
        default=False,
        help="print the wall and CPU time (this process and its finished children) of each folder of tests",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    # deselected rather than skipped: the default run's summary lists real skips only
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


#: per folder of tests: [wall seconds, CPU seconds], filled by the hook below when --tier-times is given
_TIMES: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    if not item.config.getoption("--tier-times"):
        return (yield)
    wall, cpu = time.perf_counter(), _cpu()
    result = yield
    # a worker pool's children are counted when reaped, at their fixture's teardown: in the same folder
    parts = Path(item.path).relative_to(item.config.rootpath).parts
    folder = "/".join(parts[:2]) if len(parts) > 2 else f"{parts[0]}/*.py"
    _TIMES[folder][0] += time.perf_counter() - wall
    _TIMES[folder][1] += _cpu() - cpu
    return result


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    if not _TIMES:
        return
    terminalreporter.section("time per folder (wall / CPU of this process and its finished children)")
    for folder, (wall, cpu) in sorted(_TIMES.items(), key=lambda kv: -kv[1][1]):
        terminalreporter.write_line(f"{folder:<28} {wall:7.1f} s wall {cpu:7.1f} s CPU")
    wall, cpu = sum(t[0] for t in _TIMES.values()), sum(t[1] for t in _TIMES.values())
    terminalreporter.write_line(f"{'all':<28} {wall:7.1f} s wall {cpu:7.1f} s CPU")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a schema of its own on the local PostgreSQL (dropped after)."""
    if request.param == "sqlite":
        yield str(tmp_path / "parley.sqlite3")
        return
    url, drop = pg.fresh_schema()
    try:
        yield url
    finally:
        drop()
