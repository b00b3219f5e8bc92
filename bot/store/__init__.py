"""Storage: ``Store(url)`` is the SQLite store for a path (the default) and the PostgreSQL store for a
``postgresql://`` URL, both behind one contract (:mod:`bot.store.base`)."""

from bot.store.base import (
    DATA_TABLES,
    DEFAULT_SETTINGS,
    MIGRATIONS,
    DeadlineRow,
    IntegrityError,
    KickRow,
    LogRow,
    SeatRow,
    Step,
    Store,
    TableRow,
    is_postgres_url,
    redact_url,
)
from bot.store.errors import StoreError, url_problem
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SQLiteStore

__all__ = [
    "DATA_TABLES",
    "DEFAULT_SETTINGS",
    "MIGRATIONS",
    "DeadlineRow",
    "IntegrityError",
    "KickRow",
    "LogRow",
    "PostgresStore",
    "SQLiteStore",
    "SeatRow",
    "Step",
    "Store",
    "StoreError",
    "TableRow",
    "is_postgres_url",
    "redact_url",
    "url_problem",
]
