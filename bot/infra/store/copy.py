"""``parley db copy --from URL --to URL``: every row of one store into another (SQLite → PostgreSQL and back),
then verified: the same number of rows in every table, and every copied log replayed from its seed to its
copied snapshot."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.infra.replay import replay_steps, same_state
from bot.infra.store.db import redact_url
from bot.infra.store.front import Store
from bot.infra.store.schema import DATA_TABLES
from rules import registry


class CopyError(Exception):
    """The copy cannot start (the target already holds data, different schema versions)."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches


async def copy_database(source: str, target: str, say: Callable[[str], None] = lambda _: None) -> CopyReport:
    """Copy everything from ``source`` into the empty (or freshly created) ``target`` in one transaction, then
    verify the target. Raises :class:`CopyError` before writing anything if the target already holds tables."""
    src, dst = Store(source), Store(target)
    await src.open(create=False)  # a typo in --from must not create an empty source and copy nothing
    try:
        await dst.open()  # creates and migrates the target
        try:
            return await _copy(src, dst, say)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(src: Store, dst: Store, say: Callable[[str], None]) -> CopyReport:
    if (a := await src.schema_version()) != (b := await dst.schema_version()):
        raise CopyError(f"schema versions differ: {a} in the source, {b} in the target")
    names = [t for t in DATA_TABLES if t in await src.table_names()]
    for table in names:
        if await dst.count(table):
            raise CopyError(
                f"the target {redact_url(dst.url)} already holds data (table {table}); copy into an empty one"
            )
    report = CopyReport()
    # one transaction: a copy that fails half-way leaves the target as empty as it was
    async with dst.transaction() as tx:
        for table in names:
            copied = 0
            async for batch in src.rows(table):
                columns = list(batch[0])
                sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
                await tx.executemany(sql, [tuple(r[c] for c in columns) for r in batch])
                copied += len(batch)
            report.rows[table] = copied
            say(f"{table}: {copied} rows")
    await dst.after_copy()
    await verify(src, dst, report, say)
    return report


async def verify(src: Store, dst: Store, report: CopyReport, say: Callable[[str], None]) -> None:
    """Row counts equal table by table; every table with a snapshot replays from its copied log to it."""
    for table, copied in report.rows.items():
        m, n = await src.count(table), await dst.count(table)
        if m != copied or n != copied:
            report.mismatches.append(f"{table}: {m} rows in the source, {n} in the target")
    for row in await dst.tables.with_status("running", "finished", "abandoned"):
        if row.snapshot is None:
            continue
        try:
            game = registry.get(row.game_id)
        except KeyError:
            report.mismatches.append(f"table {row.id}: unknown game {row.game_id!r}")
            continue
        log = await dst.tables.log(row.id)
        if [e.n for e in log] != list(range(1, row.state_no + 1)):
            report.mismatches.append(f"table {row.id}: state {row.state_no} but {len(log)} log entries")
            continue
        try:
            steps = await asyncio.to_thread(replay_steps, game, row.players, row.options, row.seed, log)
            if not same_state(game, steps[-1][1], game.load(row.snapshot)):
                report.mismatches.append(f"table {row.id} ({row.game_id}): its log does not replay to its snapshot")
        except Exception as exc:  # noqa: BLE001 - a log that does not even replay is a mismatch like any other
            report.mismatches.append(f"table {row.id} ({row.game_id}): its log does not replay ({type(exc).__name__})")
        report.replayed += 1
        if report.replayed % 500 == 0:
            say(f"replayed {report.replayed} logs")
