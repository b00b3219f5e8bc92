"""The production table host, built in one place from the settings: what ``parley run`` serves and what the
benchmarks (``python -m benchmarks``, ``benchmarks.soak``) measure."""

from __future__ import annotations

from typing import Any

from bot.host.tables import TableHost
from bot.infra.settings import Settings
from bot.infra.store import Store


def build_store(where: Settings | str) -> Store:
    """The store the settings' ``PARLEY_DB`` (or a URL) names: PostgreSQL for ``postgresql://…``, else the SQLite
    file at that path (``sqlite:///path`` too)."""
    return Store(where.db_path if isinstance(where, Settings) else where)


def build_host(settings: Settings, **options: Any) -> TableHost:
    """The host ``parley run`` serves: the settings' store, pictures and replays drawn in
    ``settings.render_processes`` worker processes. ``options`` go to :class:`TableHost` (a benchmark's seed or
    stand-in renderer); nothing else differs from production."""
    options.setdefault("owns_guild", None if settings.shards.everything else settings.shards.owns)
    return TableHost(
        build_store(settings),
        render_processes=settings.render_processes,
        ai_processes=settings.ai_processes,
        ai_seconds=settings.ai_seconds,
        ai_takeover_level=settings.ai_takeover_level,
        **options,
    )
