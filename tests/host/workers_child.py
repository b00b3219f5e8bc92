"""Picklable renderers for the render-worker tests (they run inside spawned worker processes), and a child
process that measures the peak memory of one replay GIF.

    python -m tests.host.workers_child replay-memory GAME   → one JSON line: moves, frames, peak_mb, gif_bytes
"""

from __future__ import annotations

import gc
import io
import json
import os
import random
import resource
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from renderers.common import tiny_png

TINY_PNG = tiny_png()


def tiny(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    return TINY_PNG


class DiesOnce:
    """Kills the worker drawing the first picture (as a crash in C code would), then draws normally."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __call__(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
        if not Path(self.marker).exists():
            Path(self.marker).write_text(str(os.getpid()))
            os._exit(3)
        return TINY_PNG


def always_dies(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    os._exit(4)


def worker_pid(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """The drawing process's id instead of a picture: where was this drawn?"""
    return str(os.getpid()).encode()


def long_game(game_id: str, seed: str, limit: int = 5000) -> tuple[int, list[tuple[str, int, str]]]:
    """A whole game of random legal moves (long: random players wander), as logged moves."""
    from rules import registry

    game = registry.get(game_id)
    players = game.info.min_players
    rnd = random.Random(seed)
    state = game.new(players, {}, seed)
    moves: list[tuple[str, int, str]] = []
    while len(moves) < limit and game.outcome(state) is None and game.to_act(state):
        seat = game.to_act(state)[0]
        action = rnd.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        moves.append(("action", seat, action))
    return players, moves


def reset_peak() -> None:
    """Set this process's peak resident set (VmHWM) back to its current size (Linux 4.0+)."""
    Path("/proc/self/clear_refs").write_text("5")


def peak_rss() -> int:
    """This process's peak resident set since :func:`reset_peak`, in bytes."""
    for row in Path("/proc/self/status").read_text().splitlines():
        if row.startswith("VmHWM:"):
            return int(row.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def replay_memory(game_id: str) -> dict[str, Any]:
    """Build one replay GIF as a render worker does and report the growth of the resident set at its peak."""
    import renderers
    from bot.infra.pictures import replay_job
    from bot.infra.replay import MAX_FRAMES
    from bot.infra.workers import rss_bytes
    from rules import registry

    seed = "s6"
    players, moves = long_game(game_id, seed)
    game = registry.get(game_id)
    renderers.render(game_id, game.view(game.new(players, {}, "memory"), None), seat=None)  # fonts, caches
    gc.collect()
    before = rss_bytes()
    reset_peak()  # the playout and the warm-up above had peaks of their own
    data = replay_job(None, game_id, players, {}, seed, moves, MAX_FRAMES)
    peak = peak_rss()
    frames = Image.open(io.BytesIO(data)).n_frames
    return {"moves": len(moves), "frames": frames, "peak_mb": (peak - before) / 2**20, "gif_bytes": len(data)}


if __name__ == "__main__":
    if sys.argv[1] == "replay-memory":
        print(json.dumps(replay_memory(sys.argv[2])))
