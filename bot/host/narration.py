"""Narration: a :class:`bot.host.posts.Batch` of board posts, notes and DMs turned into :class:`Outputs`, every
picture drawn in one trip off the event loop; DMs owed in the store until the transport reports them sent; the
replay of a finished game posted after its result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import renderers
from bot.host.api import BoardParts, Outputs, Post
from bot.host.background import Background
from bot.host.outputs import clip, fold_repeats
from bot.host.posts import NO_BOARD, NO_HAND, Batch, place_dms, private_summary, prompt, with_fine_print
from bot.host.table import Table
from bot.infra.pictures import Pictures
from bot.infra.store import Store
from rules.core import canonical_json


class Narration:
    """From a batch to outputs. ``dms_tracked`` is set when the transport reports each DM sent (Discord): DMs
    are then owed in the store until it does (:meth:`bot.host.restore.Restore.lost_dms` sends them after a crash)."""

    def __init__(
        self,
        store: Store,
        pictures: Pictures,
        clock: Callable[[], float],
        background: Background,
        replay_frames: int,
    ) -> None:
        self.store = store
        self.pictures = pictures
        self.clock = clock
        self.background = background
        self.replay_frames = replay_frames
        self.dms_tracked = False

    async def flush(self, t: Table, batch: Batch, *, reply: str = "", ok: bool = True) -> Outputs:
        """Render every picture of the batch in one trip off the event loop and assemble the outputs; its DMs
        placed among the public posts, and then remembered until the transport reports them sent
        (:meth:`bot.host.restore.Restore.dm_sent`), so a crash before they go out does not lose them."""
        out = await self._assemble(t, batch, reply=reply, ok=ok)
        place_dms(batch, out)  # where each DM's news happened among the public posts (for the terminal)
        if self.dms_tracked and out.private:
            for _, post in out.private:
                post.state_no = t.state_no  # what dm_sent clears: this DM and any older one of the same table
            # news committed with its moves is owed already (bot.host.turns); what else this call tells is owed from now
            rows = [(t.id, user, t.state_no, post.text) for user, post in out.private if user not in batch.owed]
            await self.store.posts.owe_dms(rows, self.clock())
        return out

    async def _assemble(self, t: Table, batch: Batch, *, reply: str, ok: bool) -> Outputs:
        game = t.game
        state = t.state
        drawn = [i for i, b in enumerate(batch.boards) if b is not None]
        jobs: list[tuple[dict[str, Any], int | None]] = [(batch.boards[i].view, None) for i in drawn]
        # a DM shows the seat's private view as it is now, after every move of this call
        dms = [(user, seat, lines) for (user, seat), lines in batch.private.items()]
        pictures = [(user, seat) for user, seat, _ in dms if seat is not None and state is not None]
        jobs += [(game.view(state, seat), seat) for _, seat in pictures]
        # identical views (a closed turn's post and the next turn's post) are drawn once
        keys = [canonical_json([v, s]) for v, s in jobs]
        unique = list(dict.fromkeys(keys))
        first = {k: jobs[keys.index(k)] for k in unique}
        drawn_once = dict(
            zip(unique, await self.pictures.render_many(t.game_id, [first[k] for k in unique]), strict=True)
        )
        images = [drawn_once[k] for k in keys]
        board_images = dict(zip(drawn, images, strict=False))
        dm_images = dict(zip(pictures, images[len(drawn) :], strict=True))
        out = Outputs(ok=ok, reply=reply, channel_id=t.channel_id)
        header = f"**{game.info.title}** · table {t.id}"
        for kind, i in batch.order:
            if kind == "note":
                out.public.append(batch.notes[i])
                continue
            b = batch.boards[i]
            if b is None:
                continue
            ask, mentions = prompt(t, b.to_act, b.view) if b.final is False else ("", [])
            reaction = b.reaction if b.final is False else None
            extra = [reaction.line] if reaction is not None else []
            missing = [NO_BOARD] if board_images[i] is None else []
            owed = [line for line in (ask, *extra) if line]
            lines = [f"{header} · move {b.state_no}", *fold_repeats(b.lines), *owed, *missing]
            caption = renderers.caption(t.game_id, b.view, None)
            text = with_fine_print("\n".join(lines), t.game_id, b.view, caption=caption)
            out.public.append(
                Post(
                    text=text,
                    image=board_images[i],
                    mentions=mentions,
                    buttons=bool(mentions),
                    state_no=b.state_no,
                    board_key=b.key,
                    table_id=t.id,
                    optional=list(reaction.offer) if reaction is not None else [],
                    decline=reaction is not None and reaction.hold,
                    parts=BoardParts(game.info.title, b.state_no, tuple(b.lines), tuple(owed), caption),
                )
            )
        public_view = game.view(state, None) if state is not None else {}
        for user, seat, lines in dms:
            if seat is None or state is None:
                out.private.append((user, Post(text=clip("\n".join(lines)), table_id=t.id)))
                continue
            mine = game.view(state, seat)
            summary = private_summary(game, public_view, mine, seat)
            head = f"**{game.info.title}** (table {t.id}) — {t.who(seat, public_view)}"
            text = "\n".join([head, *lines, summary])
            image = dm_images[(user, seat)]
            if image is None:
                text += f"\n{NO_HAND}"
            text = with_fine_print(text, t.game_id, mine, seat)
            if t.last_dm.get(seat) == text:
                continue  # the same news twice says nothing new
            t.last_dm[seat] = text
            out.private.append((user, Post(text=text, image=image, filename="hand.png", table_id=t.id)))
        if batch.summary is not None:
            # the final board is the last board of the batch: drawn once, shown twice
            final_image = board_images[drawn[-1]] if drawn else None
            out.public.append(Post(text=clip(batch.summary), image=final_image, filename="final.png", table_id=t.id))
        if batch.replay:
            # the result is posted now, as fast as any move; the replay follows in its own message once drawn
            self.background.later(self.replay_post(t), after=out)
        return out

    async def replay_post(self, t: Table) -> Outputs:
        """The animated public board of the whole game, rebuilt in a render worker from the seed and the log."""
        entries = await self.store.tables.log(t.id)
        moves = [(e.kind, e.seat, e.action) for e in entries]
        data = await self.pictures.replay(t.game_id, len(t.seats), t.options, t.seed, moves, self.replay_frames)
        text = f"Replay of table {t.id}." if data else f"The replay of table {t.id} could not be drawn, sorry."
        post = Post(text=text, image=data, filename="replay.gif", table_id=t.id)
        return Outputs(public=[post], channel_id=t.channel_id)
