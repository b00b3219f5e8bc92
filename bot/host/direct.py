"""Requests from a player's DMs with the bot, which belong to no channel's table.

Discord sends every interaction from a DM to shard 0, so in a cluster they reach the process serving shard 0,
which may not serve the player's table. ``/hand`` in a DM therefore looks the player's running tables up in the
shared store: one served by this process is answered at once (the same private view as ``/hand`` in its
channel); one served by another process is named, with where to ask instead. Nothing else is offered in DMs:
every other table command is guild-only, and DMs carry no buttons."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.host.api import Caller, Outputs
from bot.host.index import TableIndex
from bot.host.messages import refuse
from bot.infra.store import Store
from rules import registry


def title_of(game_id: str) -> str:
    return registry.get(game_id).info.title if game_id in registry.game_ids() else game_id


class Direct:
    """What a player may ask from their DMs. ``hand`` is ``/hand`` in a channel, as the host answers it
    (:meth:`bot.host.tables.TableHost.hand`, its table found and checked first)."""

    def __init__(self, store: Store, index: TableIndex, hand: Callable[[Caller], Awaitable[Outputs]]) -> None:
        self.store = store
        self.index = index
        self.hand = hand

    async def hand_from_dm(self, caller: Caller) -> Outputs:
        """``/hand`` sent from a DM: the caller's private view at a running table this process serves, and where
        to ask for the others."""
        here = sorted(
            (t for t in self.index.tables.values() if t.status == "running" and t.seat_of(caller.user_id) is not None),
            key=lambda t: -t.updated,
        )
        served = {t.id for t in here}
        elsewhere: list[tuple[int, str]] = []  # (channel, game) of the caller's tables other processes serve
        for table_id, seats in (await self.store.seats.by_status("running")).items():
            if table_id in served or not any(s.user_id == caller.user_id and s.ai_level is None for s in seats):
                continue
            row = await self.store.tables.get(table_id)
            if row is not None and row.status == "running":
                elsewhere.append((row.channel_id, row.game_id))
        others = [f"<#{t.channel_id}> ({title_of(t.game_id)})" for t in here[1:]]
        others += [f"<#{channel}> ({title_of(game)})" for channel, game in elsewhere]
        if not here:
            if not elsewhere:
                return refuse("no_game_anywhere")
            return refuse("served_elsewhere", channels=", ".join(others))
        t = here[0]
        out = await self.hand(Caller(t.guild_id, t.channel_id, caller.user_id, caller.name))
        head = f"Your {title_of(t.game_id)} table in <#{t.channel_id}>."
        if others:
            head += f" For your other games use `/hand` in {', '.join(others)}."
        return Outputs(ok=out.ok, reply=f"{head}\n{out.reply}", reply_image=out.reply_image, seat=out.seat)
