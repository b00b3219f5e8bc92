"""The bot's cogs (slash commands). Commands are built from the game registry when a cog is created."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.transports.discord.cogs.server import ServerCog
from bot.transports.discord.cogs.tables import TablesCog

if TYPE_CHECKING:
    from bot.transports.discord.client import ParleyBot


async def add_cogs(bot: ParleyBot) -> None:
    await bot.add_cog(TablesCog(bot))
    await bot.add_cog(ServerCog(bot))
