"""What the store keeps and hands back, as records: a table, its seats, log entries, deadlines, kicks, ratings
and their changes, and :class:`Commit`, everything one move writes at once."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    ai_level: str | None
    vacated: bool = False
    reachable: bool = True


@dataclass(frozen=True)
class KickRow:
    """A member kicked from a table: they may not sit at it again unless the kick is lifted. A kick by a
    moderator (``by_moderator``) is lifted only by a moderator."""

    user_id: int
    by_id: int
    by_moderator: bool
    at: float


@dataclass
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: str
    ai_seed: str
    players: int
    state_no: int
    snapshot: dict[str, Any] | None
    created: float
    updated: float
    #: the host's name, kept for a host who holds no seat (a moderator hosting without playing)
    host_name: str | None = None


@dataclass
class LogRow:
    n: int
    kind: str  # "action" | "undo"
    seat: int | None
    action: str | None
    by_ai: bool
    user_id: int | None
    public: list[str]
    at: float


@dataclass
class DeadlineRow:
    table_id: int
    seat: int
    started: float
    due: float
    reminded: bool


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def conservative(self) -> float:
        """μ − 3σ: the skill the player has with 99.7 % confidence, the leaderboard's order."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Entry:
    """One seat of a rated game: who played it, on which side, and the side's place (1 best)."""

    seat: int
    player: str  # the rating's key: a user id in decimal, or "ai:<level>"
    user_id: int | None
    name: str
    team: int
    place: int


@dataclass(frozen=True)
class RatedGame:
    table_id: int
    guild_id: int
    game_id: str
    finished: float
    entries: tuple[Entry, ...]

    @property
    def players(self) -> list[str]:
        return sorted({e.player for e in self.entries})


@dataclass(frozen=True)
class Change:
    """A seat's rating before and after a game (a player in two seats has the same ``after`` in both)."""

    seat: int
    player: str
    user_id: int | None
    name: str
    before: Rating
    after: Rating


#: how a game changes its players' ratings (bot/host/ratings.py's ``rate``): from the game and the players'
#: current ratings (a missing player starts at ``Rater.initial``), the per-seat changes and the new ratings
RateFn = Callable[[RatedGame, Mapping[str, Rating]], tuple[list[Change], dict[str, Rating]]]


@dataclass(frozen=True)
class Rater:
    """The rating model the store applies inside a transaction: where a new player starts, and ``rate``."""

    initial: Rating
    rate: RateFn


@dataclass(frozen=True)
class FinishedTable:
    """A finished table as a rating rebuild reads it: its final snapshot and seats, and when its last move was."""

    table_id: int
    guild_id: int
    game_id: str
    finished: float
    snapshot: dict[str, Any]
    seats: list[SeatRow]


@dataclass
class Commit:
    """Everything one move (or undo) writes, in one transaction: log entry ``n`` (state number n after it) with
    the new ``snapshot``. In the same transaction, so a crash never splits them: ``deadlines`` (when given,
    they replace the table's: a restart never sees a move without the timers it armed; a finished game has
    none); the game-ending move's ``results`` (rows as for ``GuildRepo.record_results``) and its ``rating``
    update (rated with ``rater``), so a finished game is never left out of the statistics or the ratings;
    the private news ``dms`` (``(user_id, text)``, owed until reported sent), so a crash before they go out
    cannot lose them."""

    table_id: int
    n: int
    kind: str  # "action" | "undo"
    seat: int | None
    action: str | None
    by_ai: bool
    user_id: int | None
    public: list[str]
    snapshot: dict[str, Any]
    now: float
    deadlines: list[DeadlineRow] | None = None
    finished: bool = False
    results: list[dict[str, Any]] | None = None
    rating: RatedGame | None = None
    rater: Rater | None = None
    dms: list[tuple[int, str]] | None = None
