"""The games Parley hosts, by id. Imports are lazy so one game's module is loaded only when used."""

from __future__ import annotations

import importlib

from rules.core import Game

# id -> module that defines ``GAME``. A game is listed here once its engine, AI and renderer are complete.
_MODULES: dict[str, str] = {
    "cartagena": "rules.cartagena",
    "buccaneer": "rules.buccaneer",
    "flagon": "rules.flagon",
    "martinique": "rules.martinique",
    "treasure_island": "rules.treasure_island",
}

_cache: dict[str, Game] = {}


def game_ids() -> list[str]:
    return list(_MODULES)


def get(game_id: str) -> Game:
    """The engine for ``game_id``; ``KeyError`` with the known ids if there is none."""
    key = game_id.strip().lower()
    if key not in _MODULES:
        raise KeyError(f"unknown game '{game_id}'; games: {', '.join(_MODULES)}")
    if key not in _cache:
        _cache[key] = importlib.import_module(_MODULES[key]).GAME
    return _cache[key]


def all_games() -> list[Game]:
    return [get(g) for g in _MODULES]
