"""PostgreSQL for the cluster tests: each test gets a schema of its own in the local server, dropped at the end.

Off CI a machine without a reachable server skips these tests with one reason; with ``CI=true`` (as ``.ci/run``
runs) they fail instead, so a missing server never passes silently."""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator

import pytest

PG_URL = os.environ.get("PARLEY_TEST_PG_URL", "postgresql://root@127.0.0.1:5432/test")


def with_schema(url: str, schema: str) -> str:
    """The URL with ``search_path`` set to ``schema`` (asyncpg passes unknown query keys as server settings)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _connect():  # noqa: ANN202 - asyncpg is optional
    try:
        import asyncpg
    except ImportError as exc:  # pragma: no cover - a missing driver is a missing server for these tests
        raise OSError(f"asyncpg is not installed ({exc})") from None
    return await asyncpg.connect(PG_URL, timeout=3)


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh schema in the test database; the URL whose connections use it."""
    try:
        admin = await _connect()
    except Exception as exc:  # noqa: BLE001 - any failure to connect means no server for these tests
        reason = f"PostgreSQL is not reachable at {PG_URL} ({type(exc).__name__}: {exc})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason}; CI=true requires it")
        pytest.skip(reason)
    schema = f"parley_test_{secrets.token_hex(6)}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(PG_URL, schema)
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()
