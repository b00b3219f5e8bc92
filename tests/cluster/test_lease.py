"""The shard lease in PostgreSQL: disjoint ranges coexist, an overlap or another shard count is refused with one
line, a lapsed lease is taken over (and its old holder learns it lost it), a released one is free at once."""

from __future__ import annotations

import asyncio

import pytest

from bot.infra.lease import TABLE, LeaseConflict, LeaseError, ShardLease
from bot.infra.shards import ALL, Shards


async def test_disjoint_ranges_coexist_and_an_overlap_is_refused_in_one_line(pg_url: str) -> None:
    low, high = ShardLease(pg_url, Shards.of("0-3", 8), 30), ShardLease(pg_url, Shards.of("4-7", 8), 30)
    await low.acquire()
    await high.acquire()
    try:
        overlap = ShardLease(pg_url, Shards.of("3-4", 8), 30)
        with pytest.raises(LeaseConflict) as refused:
            await overlap.acquire()
        line = str(refused.value)
        assert "\n" not in line and "shards 3-4 of 8 are already served by process" in line and "lease until" in line
        await overlap.release()
        # another shard count overlaps in guilds whatever the range: refused too, and so is a process for all
        for other in (Shards.of("8-15", 16), ALL):
            lease = ShardLease(pg_url, other, 30)
            with pytest.raises(LeaseConflict, match="already serves this database with a shard count of 8"):
                await lease.acquire()
            await lease.release()
        held = await low.held_by_others()
        assert sorted(h.shard for h in held) == [4, 5, 6, 7]
    finally:
        await low.release()
        await high.release()


async def test_a_single_process_holds_everything(pg_url: str) -> None:
    single = ShardLease(pg_url, ALL, 30)
    await single.acquire()
    try:
        lease = ShardLease(pg_url, Shards.of("0", 2), 30)
        with pytest.raises(LeaseConflict, match="serves this database with every shard"):
            await lease.acquire()
        await lease.release()
    finally:
        await single.release()
    after = ShardLease(pg_url, Shards.of("0", 2), 30)
    await after.acquire()  # released by a clean stop: free at once
    await after.release()


async def test_a_lapsed_lease_is_taken_over_and_its_old_holder_learns_it(pg_url: str) -> None:
    dead = ShardLease(pg_url, Shards.of("0-1", 4), 1.0)
    await dead.acquire()  # and never renewed: its process "died"
    replacement = ShardLease(pg_url, Shards.of("0-1", 4), 1.0)
    with pytest.raises(LeaseConflict):
        await replacement.acquire()
    await asyncio.sleep(1.2)
    await replacement.acquire()
    try:
        assert not await dead.renew()  # its rows are someone else's now
        lost: list[str] = []
        dead.start(lost.append)
        for _ in range(100):
            if lost:
                break
            await asyncio.sleep(0.05)
        assert lost and "taken over" in lost[0] and dead.lost
    finally:
        await dead.release()  # a lost lease is not deleted: the replacement's rows stay
        conn = await replacement._connection()  # noqa: SLF001 - read the table directly
        holders = await conn.fetch(f"SELECT DISTINCT holder FROM {TABLE}")
        assert [r["holder"] for r in holders] == [replacement.holder]
        await replacement.release()


async def test_a_renewed_lease_outlives_its_duration(pg_url: str) -> None:
    keeper = ShardLease(pg_url, Shards.of("2", 4), 1.0)
    await keeper.acquire()
    lost: list[str] = []
    keeper.start(lost.append)
    try:
        await asyncio.sleep(2.5)
        intruder = ShardLease(pg_url, Shards.of("2-3", 4), 1.0)
        with pytest.raises(LeaseConflict, match="shard 2 of 4"):
            await intruder.acquire()
        await intruder.release()
        assert not lost
    finally:
        await keeper.release()


async def test_no_server_is_one_clear_error() -> None:
    lease = ShardLease("postgresql://root@127.0.0.1:1/test", Shards.of("0", 2), 5)
    with pytest.raises(LeaseError, match="cannot reach PostgreSQL to claim shard"):
        await lease.acquire()
