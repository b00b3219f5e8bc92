"""Which guilds a process serves when Parley runs as clusters: one ``parley run`` process per range of Discord
shards, all over one shared PostgreSQL.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count``; every table belongs to one channel, so to one
guild and one shard. A process started with ``--shards 0-3 --shard-count 8`` connects those four shards and
serves (indexes at start-up, times, reposts) only the tables of guilds on them. :class:`Shards` is that choice,
and :meth:`Shards.owns` is the predicate the table host filters with. Without ``--shards`` a process serves every
guild, as a single process always has.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Discord's limit on shards per bot is far below this; a typo (``--shard-count 80000``) is refused
MAX_SHARD_COUNT = 16_384


class ShardError(ValueError):
    """A shard range or count Parley cannot use; the message says what is expected."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to (Discord's own formula)."""
    return (guild_id >> 22) % shard_count


def parse_ranges(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0-1,4,6-7"`` to sorted distinct shard ids."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, sep, last = part.partition("-")
        if not first.isdigit() or (sep and not last.isdigit()):
            raise ShardError(f"shards are written like 0-3 or 0,2,5-7, not '{text}'")
        low, high = int(first), int(last) if sep else int(first)
        if high < low:
            raise ShardError(f"the shard range {part} runs backwards")
        ids.update(range(low, high + 1))
    if not ids:
        raise ShardError("no shard given")
    return tuple(sorted(ids))


def format_ranges(ids: Iterable[int]) -> str:
    """The inverse of :func:`parse_ranges`: ``(0, 1, 2, 5)`` to ``"0-2,5"``."""
    out: list[str] = []
    run: list[int] = []
    for shard in sorted(set(ids)):
        if run and shard == run[-1] + 1:
            run.append(shard)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [shard]
    if run:
        out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(out)


@dataclass(frozen=True)
class Shards:
    """The shards this process serves. ``ids`` None: every shard (the single-process default, where discord.py
    asks Discord how many shards to run); ``count`` None only then."""

    ids: tuple[int, ...] | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if self.count is not None and not 1 <= self.count <= MAX_SHARD_COUNT:
            raise ShardError(f"the shard count must be from 1 to {MAX_SHARD_COUNT}, not {self.count}")
        if self.ids is not None:
            if self.count is None:
                raise ShardError("a shard range needs a shard count (--shard-count, PARLEY_SHARD_COUNT)")
            outside = [s for s in self.ids if s >= self.count]
            if outside:
                raise ShardError(
                    f"shard {outside[0]} does not exist with {self.count} shards (they are 0 to {self.count - 1})"
                )

    @classmethod
    def of(cls, ranges: str | None, count: int | None) -> Shards:
        """From ``--shards``/``--shard-count`` (or the environment): a count alone means all its shards."""
        if ranges is None or not ranges.strip():
            return cls(tuple(range(count)) if count else None, count)
        return cls(parse_ranges(ranges), count)

    @property
    def everything(self) -> bool:
        """Whether every guild is served here (no range, or a range that covers every shard)."""
        return self.ids is None or (self.count is not None and len(self.ids) == self.count)

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves the guild's tables. A DM (guild 0) is never a table's guild."""
        if self.everything:
            return True
        assert self.ids is not None and self.count is not None
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        if self.ids is None:
            return "every shard"
        return f"{'shard' if len(self.ids) == 1 else 'shards'} {format_ranges(self.ids)} of {self.count}"


ALL = Shards()
