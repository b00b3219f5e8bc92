"""The toy's action text: actions are typed as they are listed, so ``parse`` is the shared one; a picker shows
each gem with its value."""

from __future__ import annotations

from typing import Any

from rules.core import Action
from tests.host.toygame.board import value


def label(view: dict[str, Any], action: Action) -> str:
    if action.startswith("play "):
        return f"{action} (+{value(action[5:])})"
    return action
