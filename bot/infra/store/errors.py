"""A database that cannot be used, said in one line an operator can act on: a malformed URL, an unreachable or
refusing server, a file that is not a SQLite database or cannot be created. Never a traceback, never a password.

The backends raise :class:`StoreError` from ``open()`` (after closing whatever they had opened, so nothing is
left running to keep the process alive); the command line turns it, and any database failure met later by a
one-shot command (:func:`failure`), into one line on stderr and a non-zero exit code.
"""

from __future__ import annotations

import sqlite3
from urllib.parse import urlsplit

from bot.infra.store.db import is_postgres_url, redact_url

#: seconds a PostgreSQL connection may take before the server counts as unreachable (asyncpg waits 60 by default)
CONNECT_SECONDS = 10.0
#: exit codes: a database that may come back (unreachable, busy) and one that needs the operator (a bad URL, a
#: file that is not a database)
EXIT_UNAVAILABLE, EXIT_UNUSABLE = 1, 2


class StoreError(Exception):
    """The database cannot be used. The message is one line for the operator, without any password;
    ``retry`` says whether trying again later may help (the server unreachable) or not (a malformed URL)."""

    def __init__(self, message: str, *, retry: bool = False) -> None:
        super().__init__(message)
        self.retry = retry

    @property
    def exit_code(self) -> int:
        return EXIT_UNAVAILABLE if self.retry else EXIT_UNUSABLE


def url_problem(url: str) -> str | None:
    """What is wrong with a PostgreSQL URL's form (a port that is not a number from 1 to 65535), or None. The
    driver would otherwise fail deep inside with a bare ``ValueError`` or ``OverflowError``."""
    if not is_postgres_url(url):
        return None if url.strip() else "the database path is empty"
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        return f"{redact_url(url)} is not a valid PostgreSQL URL ({exc})"
    hosts = parts.netloc.rpartition("@")[2]
    for host in filter(None, hosts.split(",")):
        # [::1]:5432, host:5432 or host; the port is what follows the last colon outside brackets
        port = host.rpartition("]")[2].rpartition(":")[2] if ":" in host.rpartition("]")[2] else ""
        if port and not (port.isdigit() and 1 <= int(port) <= 65535):
            return f"the port '{port[:20]}' in {redact_url(url)} is not a number from 1 to 65535"
    return None


def sqlite_failure(path: str, exc: BaseException) -> StoreError:
    """A SQLite file that could not be opened, created or read, as one line."""
    if isinstance(exc, OSError):  # creating its folder
        why = "a file is in the way" if isinstance(exc, FileExistsError | NotADirectoryError) else exc.strerror
        return StoreError(f"cannot create the folder of the SQLite file {path} ({why or type(exc).__name__})")
    text = str(exc)
    if "locked" in text or "busy" in text:
        return StoreError(f"the SQLite file {path} is locked by another process ({text})", retry=True)
    if isinstance(exc, sqlite3.DatabaseError) and "unable to open" not in text and "readonly" not in text:
        return StoreError(f"{path} is not a usable SQLite database ({text})")
    return StoreError(f"cannot open or write the SQLite file {path} ({text}); check the path and its permissions")


def postgres_failure(url: str, exc: BaseException) -> StoreError:
    """A PostgreSQL server that could not be reached or refused us, as one line (the URL without its password)."""
    where = redact_url(url)
    if isinstance(exc, TimeoutError):
        return StoreError(f"cannot reach PostgreSQL at {where} (no answer within {CONNECT_SECONDS:g} s)", retry=True)
    if isinstance(exc, OSError):
        why = exc.strerror or str(exc) or type(exc).__name__
        return StoreError(f"cannot reach PostgreSQL at {where} ({why})", retry=True)
    if isinstance(exc, ValueError):  # the driver could not read the URL
        return StoreError(f"{where} is not a valid PostgreSQL URL ({_one_line(str(exc))})")
    if type(exc).__module__.startswith("asyncpg"):
        return StoreError(f"PostgreSQL at {where} refused: {_one_line(str(exc)) or type(exc).__name__}")
    return StoreError(f"PostgreSQL at {where} failed: {type(exc).__name__}")


def failure(url: str, exc: BaseException) -> StoreError | None:
    """A database failure met by a one-shot command (``parley db copy``, ``parley ratings rebuild``) as one line,
    or None when ``exc`` is not a database failure (a bug, which keeps its traceback)."""
    if isinstance(exc, StoreError):
        return exc
    if is_postgres_url(url):
        if isinstance(exc, TimeoutError | OSError | ValueError) or type(exc).__module__.startswith("asyncpg"):
            return postgres_failure(url, exc)
        return None
    if isinstance(exc, sqlite3.Error | OSError):
        return sqlite_failure(url, exc)
    return None


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]
