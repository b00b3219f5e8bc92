"""The two runs of the suite (CONTRIBUTING.md#the-test-tiers): the default run keeps a quick representative of
every parametrized sweep, and the slow tier (``pytest --slow``) the rest of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

slow = pytest.mark.slow


def quick_first(values: Iterable[Any], *, unpack: bool = False) -> list[Any]:
    """``values`` for ``parametrize``: the first in the default run, the others in the slow tier. ``unpack`` when
    each value is a tuple of several arguments."""
    out: list[Any] = []
    for i, value in enumerate(values):
        if i == 0:
            out.append(value)
        elif unpack:
            out.append(pytest.param(*value, marks=slow))
        else:
            out.append(pytest.param(value, marks=slow))
    return out


def quick_subset(values: Iterable[Any], quick: Iterable[Any]) -> list[Any]:
    """``values`` for ``parametrize``: those in ``quick`` in the default run, the others in the slow tier."""
    keep = set(quick)
    return [value if value in keep else pytest.param(value, marks=slow) for value in values]
