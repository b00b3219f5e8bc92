"""Storage: ``Store(url)`` is the SQLite store for a path (the default) and the PostgreSQL store for a
``postgresql://`` URL, both behind one contract (:mod:`bot.infra.store.base`)."""

from bot.infra.store.base import (
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
from bot.infra.store.errors import StoreError, url_problem
from bot.infra.store.postgres import PostgresStore
from bot.infra.store.sqlite import SQLiteStore

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
