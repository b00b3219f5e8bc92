"""Start-up and recovery: every lobby and running table indexed from its stored row (cheaply: a table's log is
replayed and checked against its snapshot only when it is first touched), and boards a crash left behind
reposted."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from bot.host.api import Outputs, Post
from bot.host.background import Background
from bot.host.guild import GuildSettings
from bot.host.health import Health
from bot.host.index import TableIndex
from bot.host.narration import Narration
from bot.host.outputs import clip
from bot.host.posts import Batch, pend_board
from bot.host.ratings_rebuild import rate_earlier_games
from bot.host.table import Table
from bot.infra.replay import current_turn, replay_steps, same_state
from bot.infra.store import DeadlineRow, LogRow, SeatRow, Store, TableRow
from rules.core import State

log = logging.getLogger("parley.tables")


class Restore:
    """Bringing tables back after a restart. ``owns_guild`` (a cluster's :meth:`bot.infra.shards.Shards.owns`)
    limits the tables restored, and so timed and reposted, to the guilds on this process's shards."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        rand: random.Random,
        health: Health,
        index: TableIndex,
        settings: GuildSettings,
        narration: Narration,
        background: Background,
        owns_guild: Callable[[int], bool],
    ) -> None:
        self.store = store
        self.clock = clock
        self.rand = rand
        self.health = health
        self.index = index
        self.settings = settings
        self.narration = narration
        self.background = background
        self.owns_guild = owns_guild

    async def start(self) -> None:
        """Apply migrations and index every lobby and running table from its row, snapshot, seats and stored
        deadlines, so every channel is served and every timer runs at once. A running table's log is read and its
        replay checked against the snapshot, with a loud ERROR log line on a mismatch, when the table is first
        touched (:meth:`_load`): start-up stays quick with thousands of stored tables."""
        await self.store.open()
        await rate_earlier_games(self.store)
        live = ("lobby", "running")
        # in a cluster, only the tables of guilds on this process's shards: their timers, AI seats and lost
        # boards are this process's to serve, the others' belong to the process holding their shards
        rows = [row for row in await self.store.tables.with_status(*live) if self.owns_guild(row.guild_id)]
        seats = await self.store.seats.by_status(*live)
        deadlines: dict[int, dict[int, DeadlineRow]] = {}
        for d in await self.store.tables.deadlines():
            deadlines.setdefault(d.table_id, {})[d.seat] = d
        for row in rows:
            try:
                await self._restore(row, seats.get(row.id, []), deadlines.get(row.id, {}))
            except Exception as exc:  # noqa: BLE001 - one broken table must not keep the others down
                self.health.internal_errors += 1
                log.error("table %s could not be restored: %s", row.id, type(exc).__name__)
            row.snapshot = None  # the state is a copy: let its memory serve the next tables
        # the worker processes boot afterwards (bot.host.tables.TableHost.start_workers): their warm-up would slow the indexing
        log.info("restored %d tables (logs are replayed when a table is first touched)", len(rows))

    async def _restore(self, row: TableRow, seats: list[SeatRow], deadlines: dict[int, DeadlineRow]) -> None:
        """Index a table at start-up: its seats, state (from the snapshot) and deadlines; not its log."""
        t = Table.from_row(row, seats)
        if row.status == "running":
            game = t.game
            if row.snapshot is None:
                raise ValueError("running table without a snapshot")
            t.state = game.load(row.snapshot)
            t.turn_to_act = tuple(game.to_act(t.state))
            t.turn_key = f"{t.id}:{t.state_no}:r"
            t.deadlines = dict(deadlines)
            missing = [s for s in t.turn_to_act if t.seats[s].ai_level is None and s not in t.deadlines]
            if missing:
                limit = (await self.settings.get(t.guild_id))["turn_limit_seconds"]
                now = self.clock()
                for s in missing:
                    t.deadlines[s] = DeadlineRow(t.id, s, now, now + limit, False)
                await self.store.tables.set_deadlines(t.id, list(t.deadlines.values()))
            players = row.players

            async def load() -> None:
                await self._load(t, players)

            t.lock.load = load
            for d in t.deadlines.values():
                if t.seats[d.seat].ai_level is not None:
                    self.background.wake(t, d.due)  # an AI seat held for people's reactions (bot.host.reactions) goes on then
        self.index.add(t)
        log.debug("restored table %s (%s, %s, state %s)", t.id, t.game_id, t.status, t.state_no)

    async def _load(self, t: Table, players: int) -> None:
        """The first touch of a restored running table, under its lock: replay its log from the seed and check
        it reproduces the snapshot (if not: a loud ERROR line, ``replay_mismatches``, and the table goes on from
        the snapshot, which is what players saw), then pick up the turn in progress."""
        game = t.game
        assert t.state is not None
        entries = await self.store.tables.log(t.id)
        steps: list[tuple[LogRow | None, State]] = []
        try:
            steps = await asyncio.to_thread(replay_steps, game, players, t.options, t.seed, entries)
            reproduced = same_state(game, steps[-1][1], t.state)
        except Exception as exc:  # noqa: BLE001 - e.g. an engine change that refuses an old move
            log.error("table %s: replaying its log raised %s", t.id, type(exc).__name__)
            reproduced = False
        if not reproduced:
            self.health.replay_mismatches.append(t.id)
            log.error(
                "REPLAY MISMATCH: table %s (%s) replayed from its seed and %d log entries does not reproduce"
                " its snapshot; continuing from the snapshot",
                t.id,
                t.game_id,
                len(entries),
            )
        else:
            # the turn in progress carries on: its narration, what its player may still take back, and its
            # board post (keyed, as when it began, by the state number that started the turn)
            t.undo_stack, t.turn_lines = current_turn(game, steps)
            t.turn_key = f"{t.id}:{t.state_no - len(t.undo_stack)}"
        log.info("loaded table %s (%s, state %s)", t.id, t.game_id, t.state_no)

    async def dm_sent(self, table_id: int, user_id: int, state_no: int) -> None:
        """The transport sent a DM (or the user refuses DMs): it is no longer owed."""
        try:
            await self.store.posts.dm_sent(table_id, user_id, state_no)
        except Exception as exc:  # noqa: BLE001 - at worst the DM is sent again after a restart
            self.health.internal_errors += 1
            log.error("could not mark a DM sent: %s", type(exc).__name__)

    async def lost_dms(self) -> list[Outputs]:
        """After a crash: the DMs that were owed and never reported sent, each once more, marked as late (the
        picture is left out: it showed a moment that has passed; /hand shows the private view now)."""
        outs: list[Outputs] = []
        owned: dict[int, bool] = {}
        for table_id, user_id, state_no, text in await self.store.posts.dms_owed():
            t = self.index.tables.get(table_id)
            if t is None and table_id not in owned:
                # a finished table is not restored: in a cluster, its guild says whose DM this is to send
                row = await self.store.tables.get(table_id)
                owned[table_id] = row is not None and self.owns_guild(row.guild_id)
            if t is None and not owned[table_id]:
                continue
            channel = t.channel_id if t is not None else None
            late = f"-# Sent late: Parley restarted before this message went out. /hand shows your view now.\n{text}"
            post = Post(text=clip(late), table_id=table_id, state_no=state_no)
            outs.append(Outputs(private=[(user_id, post)], channel_id=channel))
        return outs

    async def lost_boards(self) -> list[Outputs]:
        """After a crash: a fresh board post for every running table whose saved board post shows an older state
        than the committed one (the move was acknowledged, but the bot died before its board post arrived)."""
        outs: list[Outputs] = []
        for table_id, shown in (await self.store.posts.shown_states()).items():
            t = self.index.tables.get(table_id)
            if t is None or t.status != "running" or shown >= t.state_no:
                continue
            try:
                async with t.lock:
                    t.turn_key = f"{t.id}:{t.state_no}:s{self.rand.getrandbits(24):06x}"
                    batch = Batch()
                    pend_board(t, batch)
                    outs.append(await self.narration.flush(t, batch, reply=""))
            except Exception as exc:  # noqa: BLE001 - one broken table must not keep the others' boards back
                self.health.internal_errors += 1
                log.error("table %s: reposting its board failed: %s", t.id, type(exc).__name__)
        return outs
