"""Every slash command's typed options checked against what the command declared, before the command runs.

Discord's client enforces a command's option types, ranges, lengths and choices, but an interaction is only a
JSON payload: a modified client or a script can send any value for any option (a turn limit of 2**53 minutes,
``"abc"`` for an integer, a choice that was never offered), and discord.py hands most of them to the callback
unchecked. So :func:`problem` compares each value with its parameter's declaration (type, ``min_value`` and
``max_value``, a string's lengths, ``choices``, required; no option it did not declare) and ``ParleyTree`` refuses the
whole command politely when one does not fit. The host checks its own inputs again (it also serves the terminal);
this makes every command refuse the same way, naming what is allowed, before any of its code runs.
"""

from __future__ import annotations

import math
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as T

#: a Discord id is a positive 64-bit integer
MAX_SNOWFLAKE = 2**63 - 1
_SNOWFLAKES = (T.user, T.role, T.channel, T.mentionable, T.attachment)


def problem(interaction: discord.Interaction) -> str | None:
    """Why the options of this slash command interaction do not fit the command's declaration (one polite
    sentence naming what is allowed), or None when they all do. Autocomplete and components are not checked
    here: a partly typed value is not a value yet, and components carry their own checks."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None  # a context menu or an unknown command: discord.py answers those itself
    try:
        namespace = interaction.namespace
    except (ValueError, TypeError, KeyError):
        return "I couldn't read the options of that command. Pick them from the lists Discord offers."
    declared = {param.display_name for param in command.parameters}
    for name, _ in namespace:
        if name not in declared:
            return f"/{command.qualified_name} has no option `{_short(name)}`."
    for param in command.parameters:
        name = param.display_name
        if name not in namespace:
            if param.required:
                return f"`{name}` is required."
            continue
        why = _check(param, namespace[name])
        if why is not None:
            return f"`{name}` {why}."
    return None


def _check(param: app_commands.Parameter, value: Any) -> str | None:
    """Why ``value`` does not fit ``param`` (the end of a sentence starting with its name), or None."""
    kind = param.type
    if kind is T.integer:
        if not _integer(value):
            return "must be a whole number" + _range_text(param)
        return _within(param, value)
    if kind is T.number:
        if not _number(value):
            return "must be a number" + _range_text(param)
        return _within(param, value)
    if kind is T.boolean:
        return None if isinstance(value, bool) else "must be true or false"
    if kind is T.string:
        if not isinstance(value, str):
            return "must be text"
        low, high = param.min_value, param.max_value  # a string's declared lengths
        if (low is not None and len(value) < low) or (high is not None and len(value) > high):
            return f"must be {low or 0} to {high} characters long" if high is not None else f"needs {low} characters"
        return _chosen(param, value)
    if kind in _SNOWFLAKES:
        ident = getattr(value, "id", None)
        return None if _integer(ident) and 0 < ident <= MAX_SNOWFLAKE else "must be picked from Discord's list"
    return None


def _chosen(param: app_commands.Parameter, value: Any) -> str | None:
    """A parameter with declared choices takes one of their values (autocomplete suggests, it does not limit)."""
    if not param.choices or param.autocomplete:
        return None
    if any(choice.value == value for choice in param.choices):
        return None
    return "must be one of: " + ", ".join(str(choice.value) for choice in param.choices)


def _within(param: app_commands.Parameter, value: int | float) -> str | None:
    low, high = param.min_value, param.max_value
    if (low is not None and value < low) or (high is not None and value > high):
        return "must be" + _range_text(param)
    return _chosen(param, value)


def _range_text(param: app_commands.Parameter) -> str:
    low, high = param.min_value, param.max_value
    if low is not None and high is not None:
        return f" from {_shown(low)} to {_shown(high)}"
    if low is not None:
        return f" of at least {_shown(low)}"
    if high is not None:
        return f" of at most {_shown(high)}"
    return ""


def _shown(bound: int | float) -> str:
    return f"{bound:,}" if isinstance(bound, int) else f"{bound:g}"


def _short(name: str) -> str:
    """An option name the sender made up, safe to quote back: letters, digits, - and _ only, cut short."""
    return "".join(ch for ch in str(name) if ch.isalnum() or ch in "-_")[:32] or "?"


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return (_integer(value) or isinstance(value, float)) and math.isfinite(value)
