"""A table at one moment, and what its web pages show of it: the public card (board, whose turn and what is owed,
seats, the fine print, the result), one seat's private card, and each logged move's public narration.

Everything here is built from the public view, the stored public narration of each move, or, for a seat's card,
that one seat's view: never from the state itself, the seed or a move's action text (which may name a secret while
the game runs). The names and the prompt are the host's own (:class:`bot.host.table.Table`, :func:`bot.host.posts.prompt_line`),
so a page says exactly what the channel says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import renderers
from bot.host.outputs import outcome_text
from bot.host.posts import private_summary, prompt_line
from bot.host.table import Table
from bot.infra.store import LogRow, SeatRow, TableRow
from rules import registry
from rules.core import Game, State

#: statuses of a game that is over: its whole record may be shown (never its seed)
OVER = ("finished", "abandoned")
STATUS_TEXT = {"lobby": "Lobby", "running": "Live", "finished": "Finished", "abandoned": "Ended early"}


def sse(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One server-sent event; ``event_id`` (a move number) is what a reconnecting browser sends back."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


def move_event(entry: LogRow) -> dict[str, Any]:
    """A logged move as spectators get it: its number and the channel's narration of it, nothing else."""
    return {"n": entry.n, "lines": list(entry.public), "undo": entry.kind == "undo"}


def move_chunk(entry: LogRow) -> bytes:
    return sse("move", move_event(entry), entry.n)


@dataclass
class Snapshot:
    """A table as stored at one moment: its row, seats and game state (None in the lobby), and its address."""

    row: TableRow
    seats: list[SeatRow]
    slug: str
    state: State | None = None
    _table: Table | None = field(default=None, repr=False)
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, row: TableRow, seats: list[SeatRow], slug: str) -> Snapshot:
        game = registry.get(row.game_id)
        state = game.load(row.snapshot) if row.snapshot is not None and row.status != "lobby" else None
        snap = cls(row, seats, slug, state)
        snap.row.snapshot = None  # the state is loaded: the row's copy of it is not needed again
        return snap

    # -- what it is ----------------------------------------------------------------------------------------
    @property
    def table_id(self) -> int:
        return self.row.id

    @property
    def n(self) -> int:
        return self.row.state_no

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def over(self) -> bool:
        return self.row.status in OVER

    @property
    def game(self) -> Game:
        return registry.get(self.row.game_id)

    @property
    def mark(self) -> tuple[int, str, float]:
        """What changes whenever the table does (:meth:`bot.infra.store.Store.table_marks`)."""
        return (self.row.state_no, self.row.status, float(self.row.updated))

    @property
    def base(self) -> str:
        return f"/t/{self.slug}"

    def table(self) -> Table:
        """The host's table object for these rows: how the host names seats and what they owe."""
        if self._table is None:
            self._table = Table.from_row(self.row, self.seats)
            self._table.state = self.state
        return self._table

    def public_view(self) -> dict[str, Any] | None:
        return self.table().public_view()

    def to_act(self) -> list[int]:
        if self.state is None or self.row.status != "running":
            return []
        return list(self.game.to_act(self.state))

    # -- the public card -----------------------------------------------------------------------------------
    def card(self) -> dict[str, Any]:
        """The table as everyone may see it (the table page, ``state.json`` and its live ``table`` events)."""
        if "card" not in self._memo:
            self._memo["card"] = self._card()
        return self._memo["card"]

    def card_chunk(self) -> bytes:
        if "card_chunk" not in self._memo:
            self._memo["card_chunk"] = sse("table", self.card())
        return self._memo["card_chunk"]

    def _card(self) -> dict[str, Any]:
        game, t, view = self.game, self.table(), self.public_view()
        to_act = self.to_act()
        seats = sorted(self.seats, key=lambda s: s.seat)
        card: dict[str, Any] = {
            "title": game.info.title,
            "game": game.info.id,
            "status": self.status,
            "status_text": STATUS_TEXT.get(self.status, self.status),
            "over": self.over,
            "n": self.n,
            "board": f"{self.base}/board/{self.n}.png" if self.state is not None else None,
            "options": ", ".join(f"{k}: {v}" for k, v in self.row.options.items()),
            "prompt": prompt_line(game, view, to_act, lambda s: t.who(s, view)) if to_act and view else "",
            "seats": [
                {
                    "n": s.seat + 1,
                    "name": t.who(s.seat, view) if view is not None else s.name,
                    "ai": s.ai_level is not None,
                    "acting": s.seat in to_act,
                }
                for s in seats
            ],
            "caption": renderers.caption(game.info.id, view).splitlines() if view is not None else [],
            "result": [],
            "note": "",
        }
        if self.status == "lobby":
            card["note"] = (
                f"Waiting for players: {len(seats)} seated, {game.info.min_players}–{game.info.max_players} play."
                " The game starts from Discord."
            )
        elif self.state is None:
            card["note"] = "This table was closed before the game started."
        elif self.over:
            outcome = game.outcome(self.state)
            if outcome is not None and self.status == "finished":
                card["result"] = outcome_text(game, outcome, [t.who(s.seat, view) for s in seats]).splitlines()
            elif self.status == "abandoned":
                card["note"] = "The game was ended before it finished."
        return card

    # -- one seat's card -----------------------------------------------------------------------------------
    def seat_card(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see (its seat page and its live ``seat`` events), from its own view alone."""
        key = ("seat", seat)
        if key not in self._memo:
            self._memo[key] = self._seat_card(seat)
        return self._memo[key]

    def seat_chunk(self, seat: int) -> bytes:
        key = ("seat_chunk", seat)
        if key not in self._memo:
            self._memo[key] = sse("seat", self.seat_card(seat))
        return self._memo[key]

    def _seat_card(self, seat: int) -> dict[str, Any]:
        game, t = self.game, self.table()
        view = self.public_view()
        card: dict[str, Any] = {"seat": seat + 1, "you": t.who(seat, view) if view is not None else ""}
        if self.state is None or view is None:
            return {**card, "picture": None, "summary": [], "fine": [], "owes": False, "owed": ""}
        mine = game.view(self.state, seat)
        owes = seat in self.to_act()
        summary = private_summary(game, view, mine, seat)  # the host's one way to say it
        return {
            **card,
            "picture": f"{self.base}/seat/board/{self.n}.png",
            "summary": summary.splitlines(),
            "fine": renderers.caption(game.info.id, mine, seat).splitlines(),
            "owes": owes,
            "owed": game.owed(view, seat).rstrip(".") if owes else "",
        }
