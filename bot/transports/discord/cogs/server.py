"""Server-wide commands: ``/rules``, ``/stats show|forget``, ``/leaderboard`` and ``/config``.

``/stats`` is a group because Discord does not let a command with subcommands be invoked by itself:
``/stats show [member]`` and ``/stats forget``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.host.guild import TURN_LIMIT_MINUTES
from bot.transports.discord.interact import defer, run_command, say, say_long
from rules import registry

if TYPE_CHECKING:
    from bot.transports.discord.client import ParleyBot


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=registry.get(g).info.title, value=g) for g in registry.game_ids()][:25]


class ServerCog(commands.Cog):
    """Rules, statistics and per-server settings."""

    def __init__(self, bot: ParleyBot) -> None:
        self.bot = bot
        self.__cog_app_commands__.extend(self._build())

    @property
    def host(self) -> Any:
        return self.bot.host

    async def _run(self, interaction: discord.Interaction, action: Any) -> None:
        await run_command(interaction, self.host, action, self.bot.delivery.deliver)

    def _build(self) -> list[Any]:
        games = _game_choices()

        @app_commands.command(name="rules", description="A short summary of a game's rules and how to play it here")
        @app_commands.describe(
            game="The game (default: the one at this channel's table, else the list)",
            section="The rules summary (default) or the game's cards and what each does",
        )
        @app_commands.choices(
            game=games,
            section=[
                app_commands.Choice(name="rules", value="rules"),
                app_commands.Choice(name="cards", value="cards"),
            ],
        )
        async def rules(
            interaction: discord.Interaction,
            game: Optional[str] = None,  # noqa: UP045
            section: str = "rules",
        ) -> None:
            await defer(interaction)
            if game is None:
                summary = self.host.table_for(interaction.channel_id or 0)
                game = summary.game_id if summary is not None else None
            out = await self.host.rules(game, section)
            # a rules summary is up to 4,000 characters, more than a message holds: embeds keep all of it
            await say_long(interaction, out.reply, filename=f"{game or 'games'}-{section}.txt")

        stats = app_commands.Group(name="stats", description="Games played and won, and skill ratings", guild_only=True)

        @stats.command(name="show", description="Games played and won, rating and rank per game, yours or a member's")
        @app_commands.describe(member="Whose statistics (default: yours)")
        async def show(interaction: discord.Interaction, member: Optional[discord.User] = None) -> None:  # noqa: UP045
            await self._run(interaction, lambda c: self.host.stats(c, None if member is None else member.id))

        @stats.command(name="forget", description="Delete all your statistics and ratings")
        async def forget(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.forget_me)

        @app_commands.command(name="leaderboard", description="A game's players on this server ranked by skill rating")
        @app_commands.guild_only()
        @app_commands.choices(game=games)
        async def leaderboard(interaction: discord.Interaction, game: str) -> None:
            await self._run(interaction, lambda c: self.host.leaderboard(c, game))

        @app_commands.command(name="config", description="Parley settings for this server (Manage Server)")
        @app_commands.guild_only()
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.describe(
            host_role="Members with this role may open and run tables",
            anyone_can_open="Whether anyone may open a table",
            turn_limit_minutes="Minutes a player has for a move (default 1440 = 24 hours)",
            ai_takeover="At the time limit the AI moves (on) or the game's default move is applied (off)",
            web_pages="Whether this server's tables have web pages (Watch links, players' seat pages)",
        )
        async def config(
            interaction: discord.Interaction,
            host_role: Optional[discord.Role] = None,  # noqa: UP045
            anyone_can_open: Optional[bool] = None,  # noqa: UP045
            turn_limit_minutes: Optional[app_commands.Range[int, TURN_LIMIT_MINUTES[0], TURN_LIMIT_MINUTES[1]]] = None,  # noqa: UP045
            ai_takeover: Optional[bool] = None,  # noqa: UP045
            web_pages: Optional[bool] = None,  # noqa: UP045
        ) -> None:
            # default_permissions only hides the command; the permission is checked here again because
            # server admins can change command visibility.
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                await defer(interaction)
                await say(interaction, "Only members with the Manage Server permission can change Parley's settings.")
                return
            settings: dict[str, Any] = {}
            if host_role is not None:
                settings["host_role_id"] = host_role.id
            if anyone_can_open is not None:
                settings["anyone_can_open"] = anyone_can_open
            if turn_limit_minutes is not None:
                # the host checks the range again (bot.host.guild), whatever reached this far
                whole = isinstance(turn_limit_minutes, int) and not isinstance(turn_limit_minutes, bool)
                settings["turn_limit_seconds"] = turn_limit_minutes * 60 if whole else turn_limit_minutes
            if ai_takeover is not None:
                settings["ai_takeover"] = ai_takeover
            if web_pages is not None:
                settings["web_pages"] = web_pages
            await self._run(interaction, lambda c: self.host.config(c, **settings))

        return [rules, stats, leaderboard, config]
