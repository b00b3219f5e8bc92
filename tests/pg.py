"""PostgreSQL for the tests: a fresh schema per test on the local server, dropped afterwards.

The server is ``PARLEY_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``, as on every machine of
the project, CI's included). Off CI, a machine without a reachable server skips the PostgreSQL tests with one
reason; with ``CI=true`` they fail instead, so a missing server can never pass silently.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

SERVER = os.environ.get("PARLEY_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
T = TypeVar("T")


def run_sync(fn: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion from synchronous code, even under a running event loop (in a thread)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(fn())  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


async def _execute(url: str, sql: str) -> None:
    import asyncpg

    con = await asyncpg.connect(url, timeout=5)
    try:
        await con.execute(sql)
    finally:
        await con.close()


@functools.cache
def unreachable() -> str | None:
    """Why the test server cannot be used, or None when it can."""
    try:
        run_sync(lambda: _execute(SERVER, "SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure to connect is the reason
        return f"{type(exc).__name__}: {exc}"
    return None


def require_server() -> None:
    """Skip (or, under CI=true, fail) when the server is missing."""
    why = unreachable()
    if why is None:
        return
    reason = f"PostgreSQL tests need a server at {SERVER} ({why})"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason + "; CI=true, so this is a failure", pytrace=False)
    pytest.skip(reason)


def fresh_schema() -> tuple[str, Callable[[], None]]:
    """A new empty schema: the store URL that uses it, and the function that drops it."""
    require_server()
    schema = f"parley_test_{uuid.uuid4().hex[:12]}"
    run_sync(lambda: _execute(SERVER, f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in SERVER else "?"

    def drop() -> None:
        run_sync(lambda: _execute(SERVER, f"DROP SCHEMA IF EXISTS {schema} CASCADE"))

    return f"{SERVER}{sep}search_path={schema}", drop
