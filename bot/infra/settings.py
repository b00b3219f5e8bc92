"""Configuration from the environment and ``.env`` (python-dotenv). The environment wins over the file.

Settings: ``DISCORD_TOKEN`` (the bot token; never logged or shown), ``PARLEY_DB`` (the SQLite file,
default ``parley.sqlite3``, or a ``postgresql://`` URL whose password is never shown either), ``PARLEY_DEV_GUILD`` (a server id for instant command sync while developing),
``PARLEY_LOG_LEVEL`` (``DEBUG``, ``INFO``, ``WARNING``, ``ERROR``; default ``INFO``), ``PARLEY_RENDER_PROCESSES``
(worker processes that draw pictures and replays; default one per core; 0 draws in two threads of the bot's own
process, which slows the event loop under load), ``PARLEY_AI_PROCESSES`` (worker processes for ``hard`` AI
searches; default one per core less one, at least one), ``PARLEY_AI_SECONDS`` (a ``hard`` decision's time budget;
default 1), ``PARLEY_AI_TAKEOVER_LEVEL`` (the level that plays a timed-out or vacated seat: ``normal`` or ``hard``).

Clusters (several processes over one PostgreSQL, see ``bot/infra/shards.py``): ``PARLEY_SHARDS`` (the Discord shards this
process serves, ``0-3`` or ``0,2,5-7``; default every shard), ``PARLEY_SHARD_COUNT`` (the bot's total number of
shards; required with ``PARLEY_SHARDS``), ``PARLEY_LEASE_SECONDS`` (how long a process's claim on its shards lasts
without renewal, so how long a replacement waits after a crash; default 30).

Tables on the web (``bot/transports/web/``): ``PARLEY_WEB_PORT`` (serve the pages on this port inside ``parley run``; ``parley
web`` serves them on its own), ``PARLEY_WEB_BIND`` (the address the pages listen on; default ``127.0.0.1``, behind
a reverse proxy), ``PARLEY_WEB_URL`` (the pages' public base address, e.g. ``https://parley.example``: with it, board
posts get a Watch button and ``/hand`` a private link to the player's seat).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.infra import logs
from bot.infra.shards import ALL, ShardError, Shards
from bot.infra.store.db import redact_url
from bot.infra.store.errors import url_problem

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(ValueError):
    """A setting with a value Parley cannot use; the message names it and says what is expected."""


@dataclass(frozen=True)
class Settings:
    token: str = field(default="", repr=False)
    db_path: str = "parley.sqlite3"
    dev_guild: int | None = None
    log_level: str = "INFO"
    render_processes: int = field(default_factory=lambda: default_render_processes())
    shards: Shards = ALL
    lease_seconds: float = 30.0
    ai_processes: int = field(default_factory=lambda: max(1, default_render_processes() - 1))
    ai_seconds: float = 1.0
    ai_takeover_level: str = "normal"
    web_port: int | None = None
    web_bind: str = "127.0.0.1"
    web_url: str = ""

    def __repr__(self) -> str:
        # the token must never reach a log line or a traceback
        token = "set" if self.token else "missing"
        return (
            f"Settings(token=<{token}>, db_path={redact_url(self.db_path)!r}, dev_guild={self.dev_guild!r},"
            f" log_level={self.log_level!r}, render_processes={self.render_processes!r},"
            f" shards={self.shards.describe()!r}, lease_seconds={self.lease_seconds!r},"
            f" ai_processes={self.ai_processes!r}, ai_seconds={self.ai_seconds!r},"
            f" ai_takeover_level={self.ai_takeover_level!r}, web_port={self.web_port!r},"
            f" web_bind={self.web_bind!r}, web_url={self.web_url!r})"
        )

    __str__ = __repr__


def default_render_processes() -> int:
    """One render worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def load(env_file: str | os.PathLike[str] | None = ".env", environ: Mapping[str, str] | None = None) -> Settings:
    """Read ``env_file`` (if it exists) under the process environment (which wins)."""
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    guild = values.get("PARLEY_DEV_GUILD", "").strip()
    if guild and not guild.isdigit():
        raise SettingsError(f"PARLEY_DEV_GUILD must be a server id (digits only), not '{guild}'.")
    level = (values.get("PARLEY_LOG_LEVEL", "") or "INFO").strip().upper()
    if level not in LEVELS:
        raise SettingsError(f"PARLEY_LOG_LEVEL must be one of {', '.join(LEVELS)}, not '{level}'.")
    render = values.get("PARLEY_RENDER_PROCESSES", "").strip()
    if render and not (render.isdigit() and int(render) <= 64):
        raise SettingsError(f"PARLEY_RENDER_PROCESSES must be a number of processes from 0 to 64, not '{render}'.")
    count = values.get("PARLEY_SHARD_COUNT", "").strip()
    if count and not count.isdigit():
        raise SettingsError(f"PARLEY_SHARD_COUNT must be a number of shards, not '{count}'.")
    try:
        shards = Shards.of(values.get("PARLEY_SHARDS", ""), int(count) if count else None)
    except ShardError as exc:
        raise SettingsError(f"PARLEY_SHARDS: {exc}.") from None
    lease = values.get("PARLEY_LEASE_SECONDS", "").strip()
    try:
        lease_seconds = float(lease) if lease else 30.0
    except ValueError:
        lease_seconds = -1.0
    if not 1.0 <= lease_seconds <= 3600.0:
        raise SettingsError(f"PARLEY_LEASE_SECONDS must be a number of seconds from 1 to 3600, not '{lease}'.")
    ai = values.get("PARLEY_AI_PROCESSES", "").strip()
    if ai and not (ai.isdigit() and 1 <= int(ai) <= 64):
        raise SettingsError(f"PARLEY_AI_PROCESSES must be a number of processes from 1 to 64, not '{ai}'.")
    seconds = values.get("PARLEY_AI_SECONDS", "").strip()
    try:
        ai_seconds = float(seconds) if seconds else 1.0
    except ValueError:
        ai_seconds = -1.0
    if not 0.1 <= ai_seconds <= 30:
        raise SettingsError(f"PARLEY_AI_SECONDS must be a number of seconds from 0.1 to 30, not '{seconds}'.")
    db_path = (values.get("PARLEY_DB", "") or "parley.sqlite3").strip()
    problem = url_problem(db_path)
    if problem is not None:
        raise SettingsError(f"PARLEY_DB: {problem}.")
    takeover = (values.get("PARLEY_AI_TAKEOVER_LEVEL", "") or "normal").strip().lower()
    if takeover not in ("easy", "normal", "hard"):
        raise SettingsError(f"PARLEY_AI_TAKEOVER_LEVEL must be easy, normal or hard, not '{takeover}'.")
    port = values.get("PARLEY_WEB_PORT", "").strip()
    if port and not (port.isdigit() and 1 <= int(port) <= 65535):
        raise SettingsError(f"PARLEY_WEB_PORT must be a port number from 1 to 65535, not '{port}'.")
    bind = (values.get("PARLEY_WEB_BIND", "") or "127.0.0.1").strip()
    return Settings(
        web_port=int(port) if port else None,
        web_bind=bind,
        web_url=web_url(values.get("PARLEY_WEB_URL", "")),
        shards=shards,
        lease_seconds=lease_seconds,
        ai_processes=int(ai) if ai else max(1, default_render_processes() - 1),
        ai_seconds=ai_seconds,
        ai_takeover_level=takeover,
        render_processes=int(render) if render else default_render_processes(),
        token=values.get("DISCORD_TOKEN", "").strip(),
        db_path=db_path,
        dev_guild=int(guild) if guild else None,
        log_level=level,
    )


def web_url(text: str) -> str:
    """``PARLEY_WEB_URL`` checked: an ``http(s)://`` base address with no query or fragment, without its final slash
    ("" when unset)."""
    url = text.strip().rstrip("/")
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingsError(f"PARLEY_WEB_URL must be the pages' public address, like https://parley.example, not '{url}'.")
    return url



def configure_logging(settings: Settings) -> None:
    """Readable logs on stderr at the configured level; no record holds the token or a private text
    (:mod:`bot.infra.logs`)."""
    logs.configure(settings.log_level, settings.token)
