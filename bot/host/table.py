"""The in-memory table: its rows as the host holds them between commits, and the lock that loads it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.host.api import Choice
from bot.host.outputs import escape_name, player_label, seat_label
from bot.infra.store import DeadlineRow, KickRow, SeatRow, TableRow
from rules import registry
from rules.core import Game, State

log = logging.getLogger("parley.tables")


class LoadingLock(asyncio.Lock):
    """A table's lock that finishes loading the table for whoever takes it first.

    A table restored at start-up is only indexed (its snapshot, seats and deadlines); its log is read and its
    replay checked by ``load`` once, by the first holder of the lock. So every holder sees a loaded table,
    however many calls arrive at once, and a table nobody touches costs nothing at start-up.
    """

    def __init__(self) -> None:
        super().__init__()
        self.load: Callable[[], Awaitable[None]] | None = None

    async def __aenter__(self) -> None:
        await self.acquire()
        if self.load is not None:
            try:
                await self.load()
            except BaseException:
                self.release()  # the next holder tries again
                raise
            self.load = None


@dataclass
class Table:
    """A table in memory. ``state`` and ``state_no`` change only after the store committed them."""

    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: str
    ai_seed: str
    seats: list[SeatRow]
    updated: float
    state: State | None = None
    state_no: int = 0
    lock: LoadingLock = field(default_factory=LoadingLock)
    # the board post of the current turn: its key, who was to act when it began, and its narration
    turn_key: str = ""
    turn_to_act: tuple[int, ...] = ()
    turn_lines: list[str] = field(default_factory=list)
    # moves of the current turn that may be taken back: (state before, seat, undoable)
    undo_stack: list[tuple[State, int, bool]] = field(default_factory=list)
    deadlines: dict[int, DeadlineRow] = field(default_factory=dict)
    # seat -> the state number its own latest action (or undo) produced, known from ``fresh_from`` on (the
    # state number when the table was loaded): lets a simultaneous decision taken on a slightly older board stand
    acted: dict[int, int] = field(default_factory=dict)
    # the last seat's choices and the state they were built for: the picker, its pages and autocomplete ask for
    # the same list many times, and a Treasure Island destination list is thousands of labelled points
    choices_for: tuple[State, tuple[int, bool], list[Choice]] | None = None  # (state, (seat, joined), choices)
    # seat -> the state number at which it let the move stand (declined its optional actions: bot.host.reactions)
    declined: dict[int, int] = field(default_factory=dict)
    fresh_from: int = -1
    # seat -> the text of the last DM it was sent, so no DM repeats the one before it
    last_dm: dict[int, str] = field(default_factory=dict)
    # the state (by identity) whose public view seat names were last read from, and that view: ``who`` is asked often
    _named: tuple[State, dict[str, Any]] | None = field(default=None, repr=False)
    #: the host's name, for a host who holds no seat (a moderator hosting without playing)
    host_name: str = ""
    # who may sit where (bot.host.lobby), read from the store when first needed: user -> the seats a take-over replaced
    # them in while the game ran (the seat rows hold the rest), and the members kicked from the table
    replaced: dict[int, set[int]] | None = None
    kicked: dict[int, KickRow] | None = None
    #: when /table status last posted the board to the channel again (clock seconds)
    reposted: float = float("-inf")

    @classmethod
    def from_row(cls, row: TableRow, seats: list[SeatRow]) -> Table:
        """The table as stored, without its game state (a running table's comes from its snapshot)."""
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game_id=row.game_id,
            status=row.status,
            host_id=row.host_id,
            options=row.options,
            seed=row.seed,
            ai_seed=row.ai_seed,
            seats=seats,
            updated=row.updated,
            state_no=row.state_no,
            host_name=row.host_name or "",
        )

    def __post_init__(self) -> None:
        if self.fresh_from < 0:
            self.fresh_from = self.state_no

    @property
    def game(self) -> Game:
        return registry.get(self.game_id)

    @property
    def loaded(self) -> bool:
        """False for a table indexed at start-up until the first holder of its lock has loaded it."""
        return self.lock.load is None

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and s.ai_level is None:
                return s.seat
        return None

    def public_view(self) -> dict[str, Any] | None:
        """The public view of the current state (remembered until the state changes), or None in the lobby."""
        if self.state is None:
            return None
        if self._named is None or self._named[0] is not self.state:
            self._named = (self.state, self.game.view(self.state, None))
        return self._named[1]

    def row(self, seat: int) -> SeatRow:
        """The seat's row by its number (in a lobby, seat numbers have gaps: ``seats[n]`` is not seat n)."""
        return next(s for s in self.seats if s.seat == seat)

    def held(self, user_id: int) -> set[int]:
        """The seats of the running game ``user_id`` has held, each of whose private views they have seen: the
        seats whose rows name them (their own, or one an AI keeps for them) and those a take-over replaced them in.
        Empty in the lobby, where nothing is dealt. Needs :attr:`replaced` loaded."""
        if self.status != "running":
            return set()
        rows = {s.seat for s in self.seats if s.user_id == user_id}
        return rows | set((self.replaced or {}).get(user_id, ()))

    def player(self, seat: int) -> str:
        """The player's own name (escaped: bot.host.outputs.escape_name), marked when an AI plays the seat they left."""
        s = self.seats[seat]
        name = escape_name(s.name)
        return f"{name} (AI)" if s.vacated and s.ai_level else name

    def who(self, seat: int, view: dict[str, Any] | None = None) -> str:
        """The seat's one name everywhere: the player and the game's current name for the seat ("Ana (London)"),
        read from the public ``view`` when given (a move's narration names seats as they are after it)."""
        s = self.seats[seat]
        ai = " · AI" if s.vacated and s.ai_level else ""
        view = view if view is not None else self.public_view()
        name = self.game.seat_name(view, seat) if view is not None else seat_label(self.game, seat)
        return player_label(escape_name(s.name), name + ai if name else ai.strip(" ·"))
