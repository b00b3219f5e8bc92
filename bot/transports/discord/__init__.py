"""The Discord transport: a discord.py client, slash-command cogs, buttons and DM delivery over the table host."""

from __future__ import annotations

from bot.transports.discord.client import ParleyBot, run, sync

__all__ = ["ParleyBot", "run", "sync"]
