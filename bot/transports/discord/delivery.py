"""Posting the host's Outputs to Discord: channel posts in order, one board post per turn, DMs in the background."""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

import discord

from bot.host.tables import Outputs, Post, TableHost
from bot.transports.discord import views
from bot.transports.discord.interact import clip
from bot.transports.web.links import WebLinks

log = logging.getLogger("parley.discord")


@dataclass
class _Board:
    board_key: str
    channel_id: int
    message_id: int


class Delivery:
    """Delivers Outputs. Channel posts of one channel go out one after another (a lock per channel) so the
    narration stays in order; DMs run as background tasks because the game never waits on a DM."""

    def __init__(self, client: discord.Client, host: TableHost) -> None:
        self.client = client
        self.host = host
        self._boards: dict[int, _Board] = {}  # table (or channel) -> its current board post
        self._lobbies: dict[int, int] = {}  # table -> its lobby post, edited as the table starts and ends
        self._locks: dict[int, asyncio.Lock] = {}
        self._dm_tasks: set[asyncio.Task[None]] = set()
        #: the tables' web pages (``PARLEY_WEB_URL``): board posts link to them when set
        self.web_links: WebLinks | None = None

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def deliver(self, out: Outputs, channel_id: int | None = None) -> None:
        """Public posts to the table channel (``out.channel_id``, else the caller's channel), then DMs."""
        target = out.channel_id or channel_id
        try:
            if out.public and target:
                async with self._lock(target):
                    for post in out.public:
                        try:
                            await self._post(target, post)
                        except discord.HTTPException:
                            # A missing permission or a deleted channel loses this post only, never the game.
                            log.exception("could not post to channel %s", target)
        finally:
            out.delivered()  # what follows these posts (the replay after the result) may go now
        for user_id, post in out.private:
            task = asyncio.get_running_loop().create_task(self._dm(target, user_id, post))
            self._dm_tasks.add(task)
            task.add_done_callback(self._dm_tasks.discard)

    async def drain(self) -> None:
        """Wait for the DMs still being sent (at shutdown)."""
        if self._dm_tasks:
            await asyncio.gather(*list(self._dm_tasks), return_exceptions=True)

    # -- channel posts ---------------------------------------------------------------------------------
    @staticmethod
    def _content(post: Post) -> str:
        missing = [f"<@{uid}>" for uid in post.mentions if f"<@{uid}>" not in post.text]
        text = " ".join(missing) + ("\n" if missing and post.text else "") + post.text
        return clip(text or "\u200b")

    @staticmethod
    def _files(post: Post) -> list[discord.File]:
        if post.image is None:
            return []
        return [discord.File(io.BytesIO(post.image), filename=post.filename)]

    async def _web_link(self, post: Post) -> tuple[str, str] | None:
        """Under a board post, a link to the table's page ("Watch"); under the final board, to its replay; None
        without web pages or when the table's server turned them off."""
        if self.web_links is None or post.table_id is None or post.image is None:
            return None
        final = post.filename == "final.png"
        if post.board_key is None and not final:
            return None
        try:
            url = await self.web_links.table_link(post.table_id)
        except Exception:  # a link is a bonus: the board goes out without it
            log.exception("could not make the web link of table %s", post.table_id)
            return None
        if url is None:
            return None
        return ("Replay", f"{url}/replay") if final else ("Watch", url)

    def _view(self, channel_id: int, post: Post, web: tuple[str, str] | None = None) -> discord.ui.View | None:
        if post.table_id is None:
            return None
        board = post.image is not None and (post.board_key is not None or post.filename == "final.png")
        if not (post.buttons or post.optional or board):
            return None
        state_no = post.state_no
        if state_no is None:
            summary = self.host.table_for(channel_id)
            state_no = summary.state_no if summary is not None and summary.table_id == post.table_id else 0
        if post.buttons or post.optional:
            return views.board_view(
                post.table_id, state_no, post.optional, turn=post.buttons, decline=post.decline, web=web
            )
        # a board post nobody must act on (a closed turn, the final board) still offers the close-up
        return views.zoom_view(post.table_id, state_no, web)

    def reply_view(self, out: Outputs) -> discord.ui.View | None:
        """The buttons of the board an ephemeral reply shows (``/table status``), as its board post has them."""
        if out.reply_board is None:
            return None
        return self._view(out.channel_id or 0, out.reply_board)

    async def _edit_lobby(self, channel_id: int, post: Post) -> None:
        """The lobby post edited in place once the table has moved on (started, ended); if this process never saw
        it (a restart since), nothing is posted: a lobby message appearing at the end of a game would be noise."""
        message_id = self._lobbies.get(post.table_id or 0)
        if message_id is None:
            log.debug("no lobby post of table %s to edit", post.table_id)
            return
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=self._content(post), allowed_mentions=discord.AllowedMentions.none())
        except discord.NotFound:
            self._lobbies.pop(post.table_id or 0, None)

    async def _post(self, channel_id: int, post: Post) -> None:
        if post.edit_only:
            await self._edit_lobby(channel_id, post)
            return
        channel = self.client.get_partial_messageable(channel_id)
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(uid) for uid in post.mentions]
        )
        view = self._view(channel_id, post, await self._web_link(post))
        key = post.table_id if post.table_id is not None else channel_id
        board = self._boards.get(key)
        if board is None and post.table_id is not None and post.board_key is not None:
            # after a restart: the board post of the turn in progress, saved with the table
            saved = await self.host.store.posts.board_post(post.table_id)
            if saved is not None:
                board = self._boards[key] = _Board(*saved)
                if board.board_key.endswith(":lobby"):
                    self._lobbies[post.table_id] = board.message_id
        if post.board_key is not None and board is not None and board.board_key == post.board_key:
            # Same turn: edit the board post in place so the channel shows one board per turn.
            message = channel.get_partial_message(board.message_id)
            try:
                await message.edit(
                    content=self._content(post),
                    attachments=self._files(post),
                    view=view,
                    allowed_mentions=mentions,
                )
                if post.table_id is not None:
                    await self.host.store.posts.save_board_post(
                        post.table_id, board.board_key, board.channel_id, board.message_id, post.state_no
                    )
                return
            except discord.NotFound:
                pass  # someone deleted it: post a fresh one below
        kwargs: dict[str, object] = {"allowed_mentions": mentions, "files": self._files(post)}
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(self._content(post), **kwargs)  # type: ignore[arg-type]
        if post.board_key is not None:
            # Older boards keep their buttons: a click there is refused politely as out of date.
            self._boards[key] = _Board(post.board_key, channel_id, sent.id)
            if post.table_id is not None and post.board_key.endswith(":lobby"):
                self._lobbies[post.table_id] = sent.id  # edited again when the game starts and ends
            if post.table_id is not None:
                await self.host.store.posts.save_board_post(post.table_id, post.board_key, channel_id, sent.id, post.state_no)

    # -- DMs -------------------------------------------------------------------------------------------
    async def _dm(self, channel_id: int | None, user_id: int, post: Post) -> None:
        try:
            await self._send_dm(channel_id, user_id, post)
        finally:
            if post.table_id is not None and post.state_no is not None:
                await self.host.dm_sent(post.table_id, user_id, post.state_no)  # no longer owed after a crash

    async def _send_dm(self, channel_id: int | None, user_id: int, post: Post) -> None:
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
            await dm.send(self._content(post), files=self._files(post))
        except discord.Forbidden as error:
            # 50007 is the usual code (closed DMs, blocked bot); any 403 means the same for the player.
            log.info("DM refused (code %s); telling the table", error.code)
            if channel_id is None:
                return
            try:
                notice = await self.host.dm_failed(channel_id, user_id)
                await self.deliver(notice, channel_id)
            except Exception:
                log.exception("could not report a failed DM in channel %s", channel_id)
        except discord.HTTPException:
            log.exception("could not send a DM")
