"""The glue every command and button shares: who is calling, and answering them within Discord's limits."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.host.tables import Caller, Outputs, TableHost

log = logging.getLogger("parley.discord")

# Discord's hard limit for message content.
MAX_CONTENT = 2000


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Text cut to Discord's limit, marked when cut, so a long narration never makes a send fail."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def host_role_id(host: TableHost, guild_id: int) -> int | None:
    """The server's configured host role, if any."""
    try:
        settings = await host.guild_settings(guild_id)
    except Exception:  # a storage hiccup must not stop the command: permissions still decide
        log.exception("could not read the settings of guild %s", guild_id)
        return None
    role = settings.get("host_role_id")
    return int(role) if role else None


async def caller_for(interaction: discord.Interaction, host: TableHost) -> Caller:
    """The transport-computed identity: moderators hold Manage Channels, Manage Server or the host role."""
    perms = interaction.permissions
    admin = bool(perms.manage_guild or perms.administrator)
    moderator = admin or bool(perms.manage_channels)
    user = interaction.user
    if not moderator and interaction.guild_id is not None and isinstance(user, discord.Member):
        role_id = await host_role_id(host, interaction.guild_id)
        if role_id is not None and any(role.id == role_id for role in user.roles):
            moderator = True
    return Caller(
        guild_id=interaction.guild_id or 0,
        channel_id=interaction.channel_id or 0,
        user_id=user.id,
        name=user.display_name,
        moderator=moderator,
        admin=admin,
    )


def reply_files(out: Outputs) -> list[discord.File]:
    files = []
    if out.reply_image is not None:
        name = "view.gif" if out.reply_image[:3] == b"GIF" else "view.png"
        files.append(discord.File(io.BytesIO(out.reply_image), filename=name))
    if out.reply_file is not None:
        files.append(text_file(out.reply_file[1], out.reply_file[0]))
    return files


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge at once (ephemeral, "thinking"), so drawing and storage never break the 3-second limit."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def say(
    interaction: discord.Interaction,
    text: str,
    *,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """An ephemeral answer whether or not the interaction was deferred, with a ``view``'s buttons if given."""
    text = clip(text or "Done.")
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, files=files or [], **extra)
    else:
        await interaction.response.send_message(text, ephemeral=True, files=files or [], **extra)


#: Discord's limits for embeds: a description, all embeds of one message together, embeds per message
EMBED_DESCRIPTION = 4096
EMBED_TOTAL = 6000
EMBEDS_MAX = 10


def embeds_for(text: str) -> list[discord.Embed] | None:
    """A long text (its first line the title) as embeds within Discord's limits, split between lines; None if
    even that cannot hold it (the caller then attaches it as a file)."""
    head, _, body = text.partition("\n")
    title = head.strip().strip("*").strip()[:256]
    chunks: list[str] = []
    for line in body.splitlines():
        while len(line) > EMBED_DESCRIPTION - 100:  # one monstrous line: cut it into pieces
            chunks.append(line[: EMBED_DESCRIPTION - 100])
            line = line[EMBED_DESCRIPTION - 100 :]
        if chunks and len(chunks[-1]) + 1 + len(line) <= EMBED_DESCRIPTION - 100:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    if len(title) + sum(len(c) for c in chunks) > EMBED_TOTAL - 100 or len(chunks) > EMBEDS_MAX:
        return None
    embeds = [discord.Embed(description=c or "\u200b") for c in chunks or [""]]
    embeds[0].title = title
    return embeds


def text_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


async def say_long(interaction: discord.Interaction, text: str, filename: str = "text.txt") -> None:
    """An ephemeral answer that may be longer than a message: as it is when it fits, else as embeds (the rules, a
    card list), else its start and the whole of it as a text file. Nothing is cut."""
    if len(text) <= MAX_CONTENT:
        await say(interaction, text)
        return
    embeds = embeds_for(text)
    if embeds is not None:
        if interaction.response.is_done():
            await interaction.followup.send(embeds=embeds, ephemeral=True)
        else:
            await interaction.response.send_message(embeds=embeds, ephemeral=True)
        return
    head = text.partition("\n")[0]
    await say(interaction, f"{head}\n(The whole text is in the attached file.)", files=[text_file(text, filename)])


async def run_command(
    interaction: discord.Interaction,
    host: TableHost,
    action: Callable[[Caller], Awaitable[Outputs]],
    deliver: Callable[[Outputs, int | None], Awaitable[None]],
    reply_view: Callable[[Outputs], discord.ui.View | None] | None = None,
) -> Outputs | None:
    """Defer, call the host, answer the caller ephemerally (with the buttons ``reply_view`` gives a reply that
    shows a board), then deliver the public posts and DMs."""
    await defer(interaction)
    try:
        caller = await caller_for(interaction, host)
        out = await action(caller)
    except Exception:
        log.exception("command %s failed", interaction.command.qualified_name if interaction.command else "?")
        await say(
            interaction, "Something went wrong on my side. /table status shows the current board; please try again."
        )
        return None
    text = out.reply or ("Done." if out.ok else "That did not work.")
    try:
        view = reply_view(out) if reply_view is not None and out.reply_board is not None else None
        await say(interaction, text, files=reply_files(out), view=view)
    except discord.HTTPException:
        # The answer is lost (an expired interaction, say) but the move is committed: still post it.
        log.warning("could not answer an interaction; delivering its posts anyway")
    await deliver(out, interaction.channel_id)
    return out
