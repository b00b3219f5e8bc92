"""A table host that plays random legal moves forever, for the crash-safety test to SIGKILL.

Run as ``python -m tests.host.crash_child --db PATH --seed N``. It starts a :class:`TableHost` on the database
file (restoring whatever a killed predecessor left), makes sure every channel has a running table (one channel per
game and round of ``--channels``; a finished table is replaced by a new one of the same game), then plays random
legal moves on every table at once, every seat a human. Every line it prints on stdout is flushed at once:

- ``READY <internal_errors> <replay_mismatch_ids|->`` once every table was touched after start-up;
- ``TRY <table> <n> <seat> <kind> <action>`` just before a move is handed to the host (``n`` = the state number
  the move would create; kind ``action`` or ``undo``, whose action is ``-``);
- ``ACK <table> <n> <seat> <kind> <action>`` after the host returned ok, i.e. after the move was acknowledged;
- ``ERR <text>`` for anything a correct host never does here (a refused legal move, a skipped state number).

The kill can land anywhere: during the imports, the restore, a commit, a render, a print.

``--serve`` makes it the crash test's fork server instead: it imports and warms up once, then forks one such
child per ``RUN`` line on stdin (see :func:`serve`), so that sixty restarts do not pay sixty times for it.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import logging
import os
import random
import sys
import time
import traceback
from typing import Any

from bot.host.tables import Caller, TableHost
from bot.infra.store import Store
from bot.infra.store.guilds import GuildRepo
from bot.infra.store.posts import PostRepo
from bot.infra.store.ratings import RatingRepo
from bot.infra.store.seats import SeatRepo
from bot.infra.store.tables import TableRepo
from bot.infra.store.web import WebRepo
from renderers.common import tiny_png
from rules import registry

GUILD = 7
GAMES = ("cartagena", "buccaneer", "martinique", "treasure_island", "flagon")
#: options that keep random games short enough to finish (and be replaced) many times during the test
SHORT = {"buccaneer": {"round_limit": "50"}, "flagon": {"length": "short"}}
UNDO_CHANCE = 0.05


TINY_PNG = tiny_png()


def tiny_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """Every picture is the same tiny PNG: the test is about the database, not about drawing."""
    return TINY_PNG


def channel_ids(channels: int) -> list[int]:
    return [1000 + i for i in range(channels)]


def game_of(channel: int) -> str:
    return GAMES[(channel - 1000) % len(GAMES)]


def caller(channel: int, k: int) -> Caller:
    """Player ``k`` of a channel; player 0 opens its tables and is a moderator."""
    return Caller(GUILD, channel, channel * 10 + k, f"P{channel}-{k}", moderator=(k == 0))


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Player:
    """Keeps one channel's table going: opens/starts a table when there is none, then plays random moves."""

    def __init__(self, host: TableHost, channel: int, rnd: random.Random) -> None:
        self.host = host
        self.channel = channel
        self.rnd = rnd
        self.game = registry.get(game_of(channel))

    async def ensure(self) -> None:
        """A running table in the channel, whatever state a kill left it in (none, finished, lobby)."""
        opener = caller(self.channel, 0)
        await self.host.status(opener)  # touches the table: a lazily loading host restores it now
        summary = self.host.table_for(self.channel)
        if summary is not None and summary.status == "running":
            return
        info = self.game.info
        players = self.rnd.randint(info.min_players, min(info.max_players, 4))
        if summary is None or summary.status != "lobby":
            seed = f"{self.rnd.getrandbits(32):08x}"
            out = await self.host.open(opener, info.id, SHORT.get(info.id, {}), seed=seed)
            if not out.ok:
                emit(f"ERR open {self.channel}: {out.reply}")
                return
        # a kill between the lobby's writes may have left any subset of seats, even none
        for k in range(players):
            await self.host.join(caller(self.channel, k))
        out = await self.host.start_table(opener)
        if not out.ok:
            emit(f"ERR start {self.channel}: {out.reply}")

    async def step(self) -> None:
        summary = self.host.table_for(self.channel)
        if summary is None or summary.status != "running":
            await self.ensure()
            return
        if not summary.to_act:
            emit(f"ERR table {summary.table_id} is running but nobody is to act")
            return
        seat = self.rnd.choice(summary.to_act)
        who = Caller(GUILD, self.channel, int(summary.seats[seat].user_id or 0), summary.seats[seat].name)
        n = summary.state_no + 1
        if self.rnd.random() < UNDO_CHANCE:
            emit(f"TRY {summary.table_id} {n} {seat} undo -")
            out = await self.host.undo(who)
            if out.ok:
                self._acked(summary.table_id, n, f"{seat} undo -")
            return
        choices = await self.host.choices(who)
        if not choices:
            emit(f"ERR table {summary.table_id}: seat {seat} is to act but has no choices")
            return
        action = self.rnd.choice(choices).action
        emit(f"TRY {summary.table_id} {n} {seat} action {action}")
        out = await self.host.play(who, action, summary.state_no)
        if not out.ok:
            emit(f"ERR table {summary.table_id}: legal move {action!r} refused: {out.reply}")
            return
        self._acked(summary.table_id, n, f"{seat} action {action}")

    def _acked(self, table_id: int, n: int, rest: str) -> None:
        emit(f"ACK {table_id} {n} {rest}")
        after = self.host.table_for(self.channel)
        if after is not None and after.table_id == table_id and after.state_no != n:
            emit(f"ERR table {table_id}: state {after.state_no} after a move that should have made {n}")

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            await self.step()


#: how long a held move waits before it is written (``no-commit``)
HELD_SECONDS = 0.05


def inject(fault: str) -> None:
    """Break the host's storage on purpose, so the crash test can prove it notices (never used otherwise).

    ``no-commit``: a move is acknowledged before it is committed: ``Store.append`` returns at once and its
    transaction is written by the store's next call, whatever it is (so every later read and write still sees
    it, as with a transaction left open). Held moves are written in order under one lock, so this works the same
    on every store and never lets two moves race. Killed in between, the acknowledged move is lost.
    """
    if fault == "none":
        return
    if fault != "no-commit":
        raise ValueError(f"unknown fault {fault!r}")
    held: list[tuple[Store, tuple[Any, ...], dict[str, Any]]] = []
    lock = asyncio.Lock()
    real_append = Store.append

    async def write_held() -> None:
        while held:
            # a commit that takes a moment, as a real one under load does: a whole move's commit is one quick
            # call on SQLite, and a kill right after the acknowledgement must still find it unwritten
            await asyncio.sleep(HELD_SECONDS)
            store, args, kwargs = held.pop(0)
            await real_append(store, *args, **kwargs)

    async def append_later(self: Store, *args: Any, **kwargs: Any) -> None:
        async with lock:
            await write_held()
            held.append((self, args, kwargs))

    def after_held(cls: type, name: str) -> Any:
        real = getattr(cls, name)

        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            async with lock:
                await write_held()
            return await real(self, *args, **kwargs)

        return call

    # the store's front and every repository it composes (bot/infra/store/front.py)
    for cls in (Store, TableRepo, SeatRepo, GuildRepo, RatingRepo, PostRepo, WebRepo):
        for name, member in list(vars(cls).items()):
            if inspect.iscoroutinefunction(member) and not name.startswith("_") and name not in ("open", "append"):
                setattr(cls, name, after_held(cls, name))
    Store.append = append_later  # type: ignore[method-assign]


async def main(db: str, seed: int, channels: int, seconds: float, fault: str = "none") -> None:
    inject(fault)
    rnd = random.Random(seed)
    host = TableHost(Store(db), renderer=tiny_renderer, ai_seed=f"crash:{seed}", replay_frames=4, render_processes=0)
    await host.start()
    players = [Player(host, ch, random.Random(rnd.getrandbits(64))) for ch in channel_ids(channels)]
    await asyncio.gather(*(p.ensure() for p in players))
    emit(f"READY {host.internal_errors} {','.join(map(str, host.replay_mismatches)) or '-'}")
    until = time.monotonic() + seconds
    try:
        await asyncio.gather(*(p.run(until) for p in players))
    finally:
        await host.close()
    emit(f"DONE {host.internal_errors}")


def warm() -> None:
    """Pay once, before forking, for what every host start would pay again: imports and the engines' caches
    (Treasure Island computes its map geometry on its first deal, about a second)."""
    for game_id in GAMES:
        game = registry.get(game_id)
        game.new(game.info.min_players, SHORT.get(game_id, {}), "warm")


def serve() -> None:
    """The fork server: each ``RUN <db> <seed> <channels> <seconds> <fault>`` line on stdin forks a child that
    prints ``PID <pid>`` and runs :func:`main` on this process's stdout; ``EXIT <pid> <wait status>`` follows once
    the child is gone (killed or not), after every line the child wrote. ``QUIT`` ends."""
    warm()
    emit("WARM")
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "QUIT":
            return
        db, seed, channels, seconds, fault = words[1], int(words[2]), int(words[3]), float(words[4]), words[5]
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                emit(f"PID {os.getpid()}")  # the child's first line: nothing of it can come before
                asyncio.run(main(db, seed, channels, seconds, fault))
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        emit(f"EXIT {pid} {status}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="the database file")
    ap.add_argument("--seed", type=int, default=0, help="seeds the moves, players and table seeds")
    ap.add_argument("--channels", type=int, default=len(GAMES), help="tables played at once (games round-robin)")
    ap.add_argument("--seconds", type=float, default=60.0, help="stop by itself after this long (a safety net)")
    ap.add_argument("--serve", action="store_true", help="be a fork server for the crash test (commands on stdin)")
    args = ap.parse_args(argv)
    if not args.serve and not args.db:
        ap.error("--db is required unless --serve")
    return args


if __name__ == "__main__":
    args = parse()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if args.serve:
        serve()
    else:
        asyncio.run(main(args.db, args.seed, args.channels, args.seconds))
