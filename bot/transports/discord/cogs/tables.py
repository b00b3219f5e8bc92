"""Table commands: ``/table …`` (open per game with its own typed options and ``seat``, join, leave, ai, start,
status, kick, unkick, host, end, history), ``/play`` with autocomplete of the legal actions, ``/hand`` and ``/undo``.

Rights are checked by the table host (the table's host or a moderator); the transport only computes who is a
moderator. Discord's ``default_permissions`` applies to whole top-level commands, so the ``/table`` tree stays
visible to everyone (players must join) and its moderator subcommands rely on the host's runtime check.
"""

from __future__ import annotations

import inspect
import logging
import re
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.host.tables import Caller, Outputs
from bot.transports.discord.interact import caller_for, run_command
from bot.transports.discord.seatlink import with_seat_link
from rules import registry
from rules.core import AI_LEVELS, Option

if TYPE_CHECKING:
    from bot.transports.discord.client import ParleyBot

log = logging.getLogger("parley.discord")

AUTOCOMPLETE_MAX = 25  # Discord shows at most 25 suggestions
_NAME = re.compile(r"[^a-z0-9_-]")


def option_param(option: Option) -> str:
    """A valid Discord option name (lower case, 1–32 characters) for a game option."""
    return (_NAME.sub("_", option.name.lower()) or "option")[:32]


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _option_choices(option: Option) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_short(f"{value} (default)" if value == option.default else value), value=value)
        for value in option.choices
    ]


class TablesCog(commands.Cog):
    """Opening, joining and running tables, and taking turns."""

    def __init__(self, bot: ParleyBot) -> None:
        self.bot = bot
        self.table = app_commands.Group(name="table", description="The game table in this channel", guild_only=True)
        self._build_open()
        self._build_seats()
        self._build_running()
        self.__cog_app_commands__.append(self.table)
        self.__cog_app_commands__.extend(self._build_turn_commands())

    # -- helpers ---------------------------------------------------------------------------------------
    @property
    def host(self) -> Any:
        return self.bot.host

    async def _run(self, interaction: discord.Interaction, action: Any) -> None:
        delivery = self.bot.delivery
        await run_command(interaction, self.host, action, delivery.deliver, delivery.reply_view)

    # -- /table open <game> [options] -------------------------------------------------------------------
    def _build_open(self) -> None:
        group = app_commands.Group(name="open", description="Open a game table in this channel", parent=self.table)
        for game_id in registry.game_ids():
            try:
                group.add_command(self._open_command(game_id))
            except Exception:  # one broken game must not take the other games' commands down
                log.exception("cannot build /table open %s", game_id)

    def _open_command(self, game_id: str) -> app_commands.Command[Any, ..., Any]:
        info = registry.get(game_id).info
        options = list(info.options)
        params = {option_param(opt): opt for opt in options}
        big = {name for name, opt in params.items() if len(opt.choices) > AUTOCOMPLETE_MAX}
        # whether the opener sits at the table: a Discord option of its own, named apart from any game option
        seat_param = next(name for name in ("seat", "host_seat", "parley_seat") if name not in params)

        async def callback(interaction: discord.Interaction, **values: Any) -> None:
            seat = values.pop(seat_param, None)
            chosen = {params[name].name: value for name, value in values.items() if value is not None}
            await self._run(
                interaction, lambda caller: self.host.open(caller, game_id, chosen, seat=seat is not False)
            )

        # discord.py reads the options from the signature: give the callback one typed parameter per option.
        callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
            + [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Optional[str], default=None)  # noqa: UP045
                for name in params
            ]
            + [inspect.Parameter(seat_param, inspect.Parameter.KEYWORD_ONLY, annotation=Optional[bool], default=None)]  # noqa: UP045
        )
        callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
            **{name: _short(opt.help or f"{opt.name} (default {opt.default})") for name, opt in params.items()},
            seat_param: "Take seat 1 yourself (default yes); no: a moderator hosts the table without playing",
        }
        callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
            name: _option_choices(opt) for name, opt in params.items() if name not in big
        }
        if big:

            def completer(option: Option) -> Any:
                async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
                    hits = [v for v in option.choices if current.lower() in v]
                    return [app_commands.Choice(name=_short(v), value=v) for v in hits[:AUTOCOMPLETE_MAX]]

                return complete

            callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
                name: completer(params[name]) for name in big
            }
        description = _short(f"{info.title}: {info.blurb}" if info.blurb else f"Open a {info.title} table")
        return app_commands.Command(name=game_id, description=description, callback=callback)

    # -- seats ----------------------------------------------------------------------------------------------
    def _build_seats(self) -> None:
        table = self.table

        async def seat_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
            summary = self.host.table_for(interaction.channel_id or 0)
            if summary is None or summary.status not in ("lobby", "running"):
                return []
            game = registry.get(summary.game_id)
            names = game.info.seat_names
            taken = {s.seat: s for s in summary.seats}
            out = []
            if summary.status == "lobby":
                # In the lobby a seat is a place in the order of play; the game's colours (or ports) are dealt
                # in that order at the start, so a name here would promise what a smaller table cannot keep.
                for seat in range(game.info.max_players):
                    held = taken.get(seat)
                    label = f"Seat {seat + 1}" + (f" (taken by {held.name})" if held is not None else "")
                    if current.lower() in label.lower():
                        out.append(app_commands.Choice(name=_short(label), value=seat + 1))
            else:
                # a running game: the seats an AI plays for a player who left, under their real names; only those
                # the caller may take (a player who held a seat here gets only their own back)
                caller = await caller_for(interaction, self.host)
                open_to = set(await self.host.seats_open_to(caller))
                for s in summary.seats:
                    if s.ai_level is None or s.user_id is None or s.seat not in open_to:
                        continue
                    name = names[s.seat] if s.seat < len(names) else f"Seat {s.seat + 1}"
                    label = f"{s.seat + 1}: {name} (played by an AI for {s.name})"
                    if current.lower() in label.lower():
                        out.append(app_commands.Choice(name=_short(label), value=s.seat + 1))
            return out[:AUTOCOMPLETE_MAX]

        @table.command(name="join", description="Take a seat at this channel's table")
        @app_commands.describe(seat="Your place in the order of play (colours follow it), or a seat an AI is keeping")
        @app_commands.autocomplete(seat=seat_autocomplete)
        async def join(
            interaction: discord.Interaction,
            seat: Optional[app_commands.Range[int, 1, 99]] = None,  # noqa: UP045 (Range is not a type)
        ) -> None:
            await self._run(interaction, lambda c: self.host.join(c, None if seat is None else seat - 1))

        @table.command(name="leave", description="Give up your seat (an AI plays it if the game is running)")
        async def leave(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.leave)

        ai = app_commands.Group(name="ai", description="AI players at this table", parent=table)

        @ai.command(name="add", description="Add an AI player (table host or moderators)")
        @app_commands.describe(
            level="How strong the AI plays", seconds="hard only: think time a decision at this table (0.2 to 10)"
        )
        @app_commands.choices(level=[app_commands.Choice(name=lvl, value=lvl) for lvl in AI_LEVELS])
        async def ai_add(
            interaction: discord.Interaction,
            level: str = "normal",
            seconds: Optional[app_commands.Range[float, 0.2, 10.0]] = None,  # noqa: UP045
        ) -> None:
            await self._run(interaction, lambda c: self.host.ai_add(c, level, seconds))

        @ai.command(name="remove", description="Remove the last AI player (table host or moderators)")
        async def ai_remove(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.ai_remove)

        @table.command(
            name="kick",
            description="Remove a member from this table: an AI plays their seat (table host or moderators)",
        )
        @app_commands.describe(member="The member to remove; they cannot sit at this table again while it lasts")
        async def kick(interaction: discord.Interaction, member: discord.User) -> None:
            await self._run(interaction, lambda c: self.host.kick(c, member.id, member.display_name))

        @table.command(name="unkick", description="Let a kicked member sit at this table again (moderators)")
        @app_commands.describe(member="The member to let back")
        async def unkick(interaction: discord.Interaction, member: discord.User) -> None:
            await self._run(interaction, lambda c: self.host.unkick(c, member.id, member.display_name))

        @table.command(name="host", description="Hand this table's host rights to a member (table host or moderators)")
        @app_commands.describe(member="The new host: a player at the table (a moderator may choose anyone)")
        async def host(interaction: discord.Interaction, member: discord.User) -> None:
            await self._run(interaction, lambda c: self.host.hand_host(c, member.id, member.display_name))

    def _build_running(self) -> None:
        table = self.table

        @table.command(name="start", description="Deal and begin (table host or moderators)")
        async def start(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.start_table)

        @table.command(name="status", description="The board, whose turn it is and the last moves, shown only to you")
        @app_commands.describe(
            repost="Also post the board to the channel again (players and moderators; once a minute, no pings)"
        )
        async def status(interaction: discord.Interaction, repost: bool = False) -> None:
            await self._run(interaction, lambda c: self.host.status(c, repost))

        @table.command(name="end", description="End the game, recorded as abandoned (table host or moderators)")
        async def end(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.end)

        @table.command(name="history", description="The move log of this table (the current or the last game)")
        async def history(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.history)

    # -- /play, /hand, /undo ----------------------------------------------------------------------------------
    def _build_turn_commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            # Autocomplete cannot be deferred: host.choices is an in-memory read, well inside the limit.
            try:
                caller = await caller_for(interaction, self.host)
                choices = await self.host.choices(caller)
            except Exception:
                log.exception("autocomplete failed")
                return []
            words = current.lower().split()
            hits = [c for c in choices if all(w in f"{c.label} {c.action}".lower() for w in words)]
            return [
                app_commands.Choice(
                    name=_short(c.label if c.label == c.action else f"{c.label} — {c.action}"), value=c.action[:100]
                )
                for c in hits[:AUTOCOMPLETE_MAX]
            ]

        @app_commands.command(name="play", description="Take an action at this channel's table")
        @app_commands.guild_only()
        @app_commands.describe(action="The action; start typing to see the legal ones")
        @app_commands.autocomplete(action=action_autocomplete)
        async def play(interaction: discord.Interaction, action: str) -> None:
            await self._run(interaction, lambda c: self.host.play(c, action))

        @app_commands.command(name="hand", description="Your private view (hand, hints, secret map), only to you")
        async def hand(interaction: discord.Interaction) -> None:
            # also in DMs (where a player reads their hand's news): the host finds their table there
            ask = self.host.hand if interaction.guild_id else self.host.hand_from_dm

            async def with_link(caller: Caller) -> Outputs:
                return await with_seat_link(self.bot.delivery.web_links, caller, await ask(caller))

            await self._run(interaction, with_link)

        @app_commands.command(
            name="undo", description="Take back your last action of this turn, when it revealed nothing"
        )
        @app_commands.guild_only()
        async def undo(interaction: discord.Interaction) -> None:
            await self._run(interaction, self.host.undo)

        return [play, hand, undo]
