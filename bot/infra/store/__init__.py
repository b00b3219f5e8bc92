"""Storage: ``Store(url)`` is the store over SQLite for a path (the default) and over PostgreSQL for a
``postgresql://`` URL (:mod:`bot.infra.store.front`); the schema is declared once (:mod:`bot.infra.store.schema`)."""

from bot.infra.store.db import Database, IntegrityError, is_postgres_url, redact_url
from bot.infra.store.errors import StoreError, url_problem
from bot.infra.store.front import Store
from bot.infra.store.guilds import DEFAULT_SETTINGS
from bot.infra.store.postgres import PostgresDatabase
from bot.infra.store.rows import (
    Change,
    Commit,
    DeadlineRow,
    Entry,
    FinishedTable,
    KickRow,
    LogRow,
    RatedGame,
    Rater,
    Rating,
    SeatRow,
    TableRow,
)
from bot.infra.store.schema import DATA_TABLES, MIGRATIONS, Step
from bot.infra.store.sqlite import SQLiteDatabase

__all__ = [
    "DATA_TABLES",
    "DEFAULT_SETTINGS",
    "MIGRATIONS",
    "Change",
    "Commit",
    "Database",
    "DeadlineRow",
    "Entry",
    "FinishedTable",
    "IntegrityError",
    "KickRow",
    "LogRow",
    "PostgresDatabase",
    "RatedGame",
    "Rater",
    "Rating",
    "SQLiteDatabase",
    "SeatRow",
    "Step",
    "Store",
    "StoreError",
    "TableRow",
    "is_postgres_url",
    "redact_url",
    "url_problem",
]
