"""AI-only games straight on the engine, for balance checks and as a smoke test (``parley simulate``)."""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass, field
from typing import TextIO

from bot.infra.aipool import AI_ONLY_TABLE, SEARCHING_LEVELS, AIPool
from rules import registry
from rules.core import Game

#: a game longer than this is counted as an error (an engine or AI that never ends)
MAX_ACTIONS = 20000


@dataclass
class Summary:
    game_id: str
    players: int
    levels: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)  # per seat; a shared win counts 1/k to each winner
    no_winner: int = 0
    lengths: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def mean_length(self) -> float:
        return sum(self.lengths) / len(self.lengths) if self.lengths else 0.0

    def text(self) -> str:
        done = len(self.lengths)
        lines = [
            f"{self.game_id}: {self.games} games, {self.players} players, levels {', '.join(self.levels)}",
            f"finished: {done}, errors: {len(self.errors)}, without a winner: {self.no_winner}",
            f"mean length: {self.mean_length():.1f} actions; {self.seconds:.1f} s"
            f" ({self.games / self.seconds if self.seconds else 0:.1f} games/s)",
            "wins per seat:",
        ]
        for seat, w in enumerate(self.wins):
            share = 100 * w / done if done else 0.0
            lines.append(f"  seat {seat + 1} ({self.levels[seat]}): {w:g} ({share:.1f}%)")
        for err in self.errors[:5]:
            lines.append(f"error: {err}")
        return "\n".join(lines)


def play_one(
    game: Game, players: int, options: dict[str, str], seed: str, levels: list[str], ai: AIPool | None = None
) -> tuple[tuple[int, ...], int]:
    """One AI-only game: (winners, number of actions). ``hard`` seats decide through ``ai`` (the host's path:
    a worker process, from the seat's view only)."""
    state = game.new(players, options, seed)
    rnd = random.Random(f"ai:{seed}")
    for n in range(MAX_ACTIONS):
        to_act = game.to_act(state)
        if not to_act:
            outcome = game.outcome(state)
            return (tuple(outcome.winners) if outcome else ()), n
        seat = to_act[0]
        legal = game.legal_actions(state, seat)
        if ai is not None and levels[seat] in SEARCHING_LEVELS:
            view = game.view(state, seat)
            action = ai.choose_sync(game.info.id, view, seat, list(legal), levels[seat], f"ai:{seed}:{n}", None,
                                    AI_ONLY_TABLE)
        else:
            action = game.ai_choose(game.view(state, seat), seat, list(legal), levels[seat], rnd)
        state, _ = game.apply(state, seat, action)
    raise RuntimeError(f"no end after {MAX_ACTIONS} actions")


def progress(done: int, total: int, out: TextIO, width: int = 30) -> None:
    filled = width * done // max(total, 1)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        out.write("\n")
    out.flush()


def simulate(
    game_id: str,
    games: int,
    *,
    players: int | None = None,
    levels: list[str] | None = None,
    seed: str = "sim",
    options: dict[str, str] | None = None,
    bar: TextIO | None = None,
    ai: AIPool | None = None,
    ai_seconds: float | None = None,
) -> Summary:
    """``games`` AI-only games; ``hard`` seats search in ``ai``'s worker process (one is started when none is
    given and a seat plays ``hard``)."""
    game = registry.get(game_id)
    players = players or game.info.min_players
    game.check_players(players)
    opts = game.resolve_options(options)
    levels = levels or ["normal"]
    per_seat = [levels[i % len(levels)] for i in range(players)]
    summary = Summary(game.info.id, players, per_seat, games=games, wins=[0.0] * players)
    own_pool = None
    if ai is None and any(level in SEARCHING_LEVELS for level in per_seat):
        ai = own_pool = AIPool(processes=1) if ai_seconds is None else AIPool(processes=1, seconds=ai_seconds)
    start = time.perf_counter()
    step = max(1, games // 100)
    for g in range(games):
        try:
            winners, length = play_one(game, players, opts, f"{seed}:{g}", per_seat, ai)
        except Exception as exc:  # noqa: BLE001 - counted and reported, the run goes on
            summary.errors.append(f"game {g} (seed {seed}:{g}): {type(exc).__name__}: {exc}")
            summary.errors[-1] += "\n" + "".join(traceback.format_tb(exc.__traceback__)[-3:])
        else:
            summary.lengths.append(length)
            if winners:
                for w in winners:
                    summary.wins[w] += 1 / len(winners)
            else:
                summary.no_winner += 1
        if bar is not None and ((g + 1) % step == 0 or g + 1 == games):
            progress(g + 1, games, bar)
    summary.seconds = time.perf_counter() - start
    if own_pool is not None:
        own_pool.shutdown()
    return summary
