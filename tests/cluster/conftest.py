"""PostgreSQL for the cluster tests: a schema of its own per test on the local server (``tests/pg.py``), dropped
at the end. Off CI a machine without a reachable server skips these tests with one reason; with ``CI=true`` they
fail instead."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import pg


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema in the test database; the URL whose connections use it."""
    url, drop = pg.fresh_schema()
    try:
        yield url
    finally:
        drop()
