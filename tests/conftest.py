"""Fixtures shared by every tier: ``db_url``, a fresh database on each store (SQLite file, PostgreSQL schema)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import pg


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
