"""The claim a cluster process holds on its shards in the shared PostgreSQL, so that no two processes ever serve
the same shard.

A lease row with an expiry, not an advisory lock:

- **A lapse the replacement can count on.** A session advisory lock is freed only when PostgreSQL notices that
  its connection died: at once for a killed process on the same machine, but after the TCP keep-alive (two hours
  by default) for a machine that vanished. A row's ``expires_at`` lapses after ``PARLEY_LEASE_SECONDS`` whatever
  happened to its holder, and the database's own clock decides, so the processes' clocks never matter.
- **The holder knows when it lost it.** A lock dropped with its connection is lost silently, while the process
  goes on serving Discord. Here the holder renews every third of the lease and must see its rows come back; when
  it cannot (the database unreachable, or its rows taken over) it gives up before the lease could have lapsed,
  and ``parley run`` stops, so that the process which takes the shards over is the only one serving them.
- **Visible and pooler-safe.** ``SELECT * FROM parley_shard_leases`` shows who serves which shard until when;
  session locks do not survive a transaction-pooling PgBouncer.

The cost: after a crash the shards wait up to one lease for their replacement (a clean stop releases at once).

Every lease of a cluster must use the same shard count (a guild is on shard ``(id >> 22) % count``, so ranges of
two counts overlap). A process without ``--shards`` claims every shard, as shard 0 of a count of 1, so it
conflicts with any other process on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.infra.shards import Shards, format_ranges
from bot.infra.store.db import redact_url
from bot.infra.store.errors import url_problem

log = logging.getLogger("parley.lease")

TABLE = "parley_shard_leases"
#: a holder that could not renew gives up this far before its lease could lapse (a fraction of the lease)
MARGIN = 0.2

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    shard integer PRIMARY KEY,
    shard_count integer NOT NULL,
    holder text NOT NULL,
    expires_at timestamptz NOT NULL
)"""


class LeaseError(RuntimeError):
    """The shards could not be claimed; the message is one line for the operator."""


class LeaseConflict(LeaseError):
    """Another live process holds some of the shards (or runs with another shard count)."""


@dataclass(frozen=True)
class Held:
    """A live lease row of another process."""

    shard: int
    shard_count: int
    holder: str
    expires_at: datetime


def _claimed(shards: Shards) -> tuple[tuple[int, ...], int]:
    """The rows a process claims: its shards, or shard 0 of 1 for a process serving every shard."""
    if shards.ids is None or shards.count is None:
        return (0,), 1
    return shards.ids, shards.count


def conflicts(shards: Shards, held: list[Held]) -> list[Held]:
    """The live leases of others that forbid serving ``shards``: the same shard, or another shard count."""
    ids, count = _claimed(shards)
    return [h for h in held if h.shard_count != count or h.shard in ids]


def _who(holder: str) -> str:
    host, _, rest = holder.partition(":")
    return f"process {rest.split(':', 1)[0]} on {host}" if rest else holder


def conflict_line(shards: Shards, clash: list[Held]) -> str:
    """One line for the operator: who holds what, and until when."""
    who = ", ".join(sorted({_who(h.holder) for h in clash}))
    until = max(h.expires_at for h in clash).astimezone(UTC).strftime("%H:%M:%S UTC")
    counts = sorted({h.shard_count for h in clash})
    _, count = _claimed(shards)
    if counts != [count]:
        theirs = "every shard" if counts == [1] else f"a shard count of {', '.join(map(str, counts))}"
        what = f"{who} already serves this database with {theirs}, so {shards.describe()} would overlap it"
    else:
        taken = format_ranges(h.shard for h in clash)
        what = f"{'shard' if len(clash) == 1 else 'shards'} {taken} of {count} are already served by {who}"
    return f"{what} (lease until {until}). Stop that process, or start this one again once its lease has lapsed."


class ShardLease:
    """The claim on ``shards`` in the database at ``url``, renewed in the background.

    ``await acquire()`` claims (or raises :class:`LeaseConflict`); ``start(on_lost)`` renews every third of
    ``seconds`` and calls ``on_lost`` once if the claim cannot be kept; ``await release()`` gives it back."""

    def __init__(
        self, url: str, shards: Shards, seconds: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.url = url
        self.shards = shards
        self.seconds = float(seconds)
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.clock = clock
        self.valid_until = 0.0  # local clock: after this the holder must assume the lease has lapsed
        self.lost = False
        self.claimed = False  # rows of this holder may exist (set by a successful acquire)
        self._conn = None  # asyncpg.Connection, imported lazily so SQLite users never load asyncpg
        self._task: asyncio.Task[None] | None = None

    # -- the connection ------------------------------------------------------------------------------------
    async def _connection(self):  # noqa: ANN202 - asyncpg is optional
        if self._conn is None or self._conn.is_closed():
            import asyncpg

            self._conn = await asyncpg.connect(self.url, timeout=max(1.0, self.seconds / 3))
        return self._conn

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.terminate()

    # -- claiming ------------------------------------------------------------------------------------------
    async def held_by_others(self) -> list[Held]:
        conn = await self._connection()
        await conn.execute(_SCHEMA)
        rows = await conn.fetch(
            f"SELECT shard, shard_count, holder, expires_at FROM {TABLE} WHERE expires_at > now() AND holder <> $1",
            self.holder,
        )
        return [Held(r["shard"], r["shard_count"], r["holder"], r["expires_at"]) for r in rows]

    async def acquire(self) -> None:
        """Claim every shard of this process in one transaction, or raise :class:`LeaseConflict` (nothing
        claimed) naming who holds them until when."""
        ids, count = _claimed(self.shards)
        problem = url_problem(self.url)
        if problem is not None:
            raise LeaseError(problem)
        started = self.clock()
        try:
            conn = await self._connection()
            # two processes creating the table at once would collide on the catalogue: one at a time
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", TABLE)
                await conn.execute(_SCHEMA)
            async with conn.transaction():
                # one claim at a time sees and changes the table (renewals wait the few milliseconds it takes)
                await conn.execute(f"LOCK TABLE {TABLE} IN SHARE ROW EXCLUSIVE MODE")
                rows = await conn.fetch(
                    f"SELECT shard, shard_count, holder, expires_at FROM {TABLE}"
                    " WHERE expires_at > now() AND holder <> $1",
                    self.holder,
                )
                clash = conflicts(self.shards, [Held(*r) for r in rows])
                if clash:
                    raise LeaseConflict(conflict_line(self.shards, clash))
                lapsed = await conn.fetch(f"DELETE FROM {TABLE} WHERE expires_at <= now() RETURNING shard, holder")
                await conn.executemany(
                    f"INSERT INTO {TABLE} (shard, shard_count, holder, expires_at)"
                    " VALUES ($1, $2, $3, now() + make_interval(secs => $4))",
                    [(shard, count, self.holder, self.seconds) for shard in ids],
                )
        except LeaseConflict:
            raise
        except (TimeoutError, OSError) as exc:
            await self._drop_connection()
            raise LeaseError(
                f"cannot reach PostgreSQL to claim {self.shards.describe()} ({type(exc).__name__})"
            ) from None
        except Exception as exc:
            await self._drop_connection()
            if type(exc).__module__.startswith("asyncpg") or isinstance(exc, ValueError):
                why = " ".join(str(exc).split()) or type(exc).__name__
                raise LeaseError(
                    f"PostgreSQL at {redact_url(self.url)} refused the claim on {self.shards.describe()}: {why}"
                ) from None
            raise
        self.claimed = True
        self.valid_until = started + self.seconds * (1 - MARGIN)
        taken = sorted({r["holder"] for r in lapsed if r["shard"] in ids})
        if taken:
            log.warning("took over %s after the lease of %s lapsed", self.shards.describe(), ", ".join(taken))
        log.info("holding %s (lease %.0f s, holder %s)", self.shards.describe(), self.seconds, self.holder)

    async def renew(self) -> bool:
        """Extend every row of this holder. False if any is gone (another process took it over after a lapse)."""
        ids, _ = _claimed(self.shards)
        started = self.clock()
        conn = await self._connection()
        rows = await conn.fetch(
            f"UPDATE {TABLE} SET expires_at = now() + make_interval(secs => $2)"
            " WHERE holder = $1 AND expires_at > now() RETURNING shard",
            self.holder,
            self.seconds,
        )
        if sorted(r["shard"] for r in rows) != sorted(ids):
            return False
        self.valid_until = started + self.seconds * (1 - MARGIN)
        return True

    # -- keeping it ----------------------------------------------------------------------------------------
    def start(self, on_lost: Callable[[str], None]) -> None:
        """Renew in the background; call ``on_lost(reason)`` once if the lease cannot be kept."""
        self._task = asyncio.get_running_loop().create_task(self._keep(on_lost))

    async def _keep(self, on_lost: Callable[[str], None]) -> None:
        interval = self.seconds / 3
        pause = interval
        while True:
            await asyncio.sleep(min(pause, max(0.0, self.valid_until - self.clock())))
            reason = ""
            try:
                if not await asyncio.wait_for(self.renew(), timeout=max(0.5, self.valid_until - self.clock())):
                    reason = "its rows were taken over by another process"
                pause = interval
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database unreachable: try again until the margin
                await self._drop_connection()
                log.warning("could not renew the lease of %s (%s)", self.shards.describe(), type(exc).__name__)
                if self.clock() >= self.valid_until:
                    reason = f"it could not be renewed in time ({type(exc).__name__})"
                pause = min(1.0, interval)
            if reason:
                self.lost = True
                log.error("lost the lease of %s: %s", self.shards.describe(), reason)
                on_lost(reason)
                return

    async def release(self) -> None:
        """Stop renewing and give the shards back at once (a clean stop: the next process need not wait)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self.claimed and not self.lost:  # a start that failed claimed nothing: nothing to give back
            try:
                conn = await self._connection()
                await conn.execute(f"DELETE FROM {TABLE} WHERE holder = $1", self.holder)
            except Exception as exc:  # noqa: BLE001 - it lapses by itself
                log.warning("could not release the lease (%s); it lapses by itself", type(exc).__name__)
        self.claimed = False
        await self._drop_connection()
