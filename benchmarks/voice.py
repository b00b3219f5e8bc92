"""The table's voice (issue 12), measured over one whole seeded game of each game played by people only.

Every seat is a person (three where the game allows, two in Martinique) who plays what the easy AI would choose
from that seat's own view, through the production table host (``TableHost``, SQLite on disk); the same calls the
Discord buttons make. Pictures are stood in for by a digest of the view drawn; a DM counts as identical to the one
before it when its text is the same (its picture shows what its text says). Printed per game: moves, DMs per player, DMs identical to that
player's previous DM, and board-post lines credited to the wrong player:

- a line that starts with a player's name but tells an automatic step ("Drawn: …", "⏳ Time 3", "The game
  begins…"), or
- a line that starts with a player's name and then names another seat as its subject (``Ben (Red): Black takes
  rum:2 from C3``).

    python -m benchmarks.voice [--games cartagena,flagon] [--seed S] [--option flagon:length=long] [--samples]

``--samples`` also prints a board post asking someone to act (past the 40th move) and the first and last DM of
each game (for before/after notes).
Written against the host's public calls only (open, join, start, play, the store's snapshot), so the same file
measures older versions of the host too.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.host.api import Caller, Outputs
from bot.host.tables import TableHost
from bot.infra.store import Store
from rules import registry

GUILD, CHANNEL = 1, 10
NAMES = ["Ana", "Bo", "Cy"]
#: lines that tell an automatic step: never any player's doing
AUTOMATIC = re.compile(
    r"^(Drawn:|⏳|⚓|The game begins|Yellow fever|Round limit|Sunrise is over|The Lost Treasure|District Hints|"
    r"(June|July|August) \d|End token|The bag is empty|\w+ refilled|The draw pile|Prison:)"
)


def digest_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """A stand-in picture that differs exactly when the view drawn differs."""
    return hashlib.sha256(json.dumps([game_id, view, seat], sort_keys=True).encode()).digest()


@dataclass
class Result:
    game_id: str
    moves: int = 0
    dms: Counter[str] = field(default_factory=Counter)
    identical: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    lines: int = 0
    board: str = ""
    first_dm: str = ""
    last_dm: str = ""
    seconds: float = 0.0


def engine_names(game_id: str, view: dict[str, Any], seat: int) -> set[str]:
    """Every name the engine's narration may give ``seat`` (read from the finished game's public view)."""
    game = registry.get(game_id)
    names = {f"Seat {seat + 1}", f"seat {seat + 1}"}
    if seat < len(game.info.seat_names):
        names.add(game.info.seat_names[seat])
    if game_id == "buccaneer":
        from rules.buccaneer import board

        p = view["players"][seat]
        names.add(p["name"])
        if p["harbour"]:
            names.add(board.HARBOUR[p["harbour"]]["name"])
    elif game_id == "treasure_island":
        from rules.treasure_island import hints

        if seat == view["silver_seat"]:
            names.add("Long John Silver")
        names |= {hints.NAMES[m] for m in view["players"][seat]["minis"]}
    elif game_id == "flagon":
        names |= {c["name"] for c in view["chars"] if c.get("seat") == seat and c.get("name")}
    return {n for n in names if n}


def wrong_lines(game_id: str, view: dict[str, Any], players: list[str], lines: list[str]) -> list[str]:
    """Lines credited to a player that are not that player's doing (see the module's docstring)."""
    names = {s: engine_names(game_id, view, s) for s in range(len(players))}
    wrong = []
    for line in lines:
        seat = next((s for s, p in enumerate(players) if line.startswith(p)), None)
        if seat is None:
            continue
        rest = line[len(players[seat]) :]
        rest = re.sub(r"^ \([^)]*\)", "", rest)  # the seat's name in brackets
        rest = rest[2:] if rest.startswith(": ") else rest.lstrip()
        if AUTOMATIC.match(rest):
            wrong.append(line)
            continue
        others = [n for s, ns in names.items() if s != seat for n in ns if n not in names[seat]]
        if any(rest.startswith(n) and not rest[len(n) : len(n) + 1].isalnum() for n in others):
            wrong.append(line)
    return wrong


async def play_one(game_id: str, seed: str, tmp: Path, options: dict[str, str] | None = None) -> Result:
    game = registry.get(game_id)
    n = max(game.info.min_players, min(3, game.info.max_players))
    host = TableHost(Store(str(tmp / f"{game_id}.sqlite3")), ai_seed=seed, renderer=digest_renderer, replay_frames=2)
    await host.start()
    callers = [Caller(GUILD, CHANNEL, 100 + i, NAMES[i], moderator=i == 0) for i in range(n)]
    by_user = {c.user_id: c for c in callers}
    out = Result(game_id)
    last_dm: dict[int, str] = {}
    boards: dict[str, str] = {}  # board key -> its latest text

    def take(o: Outputs) -> None:
        for post in o.public:
            if post.board_key is not None:
                boards[post.board_key] = post.text
                if "▶" in post.text and out.moves >= 20:  # a board post asking someone to act, mid-game
                    out.board = out.board if "▶" in out.board and out.moves > 40 else post.text
        for user, post in o.private:
            name = by_user[user].name
            out.dms[name] += 1
            if last_dm.get(user) == post.text:
                out.identical[name] += 1
            last_dm[user] = post.text
            out.first_dm = out.first_dm or post.text
            out.last_dm = post.text

    take(await host.open(callers[0], game_id, options or {}, seed=seed))
    for c in callers[1:]:
        take(await host.join(c))
    take(await host.start_table(callers[0]))
    rnd = random.Random(f"voice:{game_id}:{seed}")
    started = time.perf_counter()
    for _ in range(5000):
        summary = host.table_for(CHANNEL)
        if summary is None or summary.status != "running":
            break
        row = await host.store.tables.get(summary.table_id)
        assert row is not None and row.snapshot is not None
        state = game.load(row.snapshot)
        seat = game.to_act(state)[0]
        user = next(s.user_id for s in summary.seats if s.seat == seat)
        legal = game.legal_actions(state, seat)
        action = game.ai_choose(game.view(state, seat), seat, legal, "easy", rnd)
        result = await host.play(by_user[int(user)], action)
        assert result.ok, result.reply
        take(result)
        out.moves += 1
    out.seconds = time.perf_counter() - started
    row = await host.store.tables.get(host.index.last.get(CHANNEL) or summary.table_id)  # noqa: SLF001 - a benchmark
    final = game.view(game.load(row.snapshot), None) if row is not None and row.snapshot else {}
    lines = [line for text in boards.values() for line in text.splitlines()]
    out.lines = len(lines)
    out.wrong = wrong_lines(game_id, final, [c.name for c in callers], lines)
    await host.close()
    return out


async def run(games: list[str], seed: str, options: dict[str, dict[str, str]] | None = None) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        return [await play_one(g, seed, Path(tmp), (options or {}).get(g)) for g in games]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(registry.game_ids()))
    parser.add_argument("--seed", default="voice-1")
    parser.add_argument("--samples", action="store_true")
    parser.add_argument("--option", action="append", default=[], help="game:name=value, e.g. flagon:length=long")
    args = parser.parse_args(argv)
    options: dict[str, dict[str, str]] = {}
    for item in args.option:
        game_id, _, pair = item.partition(":")
        name, _, value = pair.partition("=")
        options.setdefault(game_id, {})[name] = value
    results = asyncio.run(run(args.games.split(","), args.seed, options))
    print(f"{'game':<16} {'moves':>5}  {'DMs per player':<28} {'identical':>9} {'wrong-actor lines':>17}")
    for r in results:
        per = ", ".join(f"{k} {v}" for k, v in sorted(r.dms.items())) or "none"
        print(f"{r.game_id:<16} {r.moves:>5}  {per:<28} {sum(r.identical.values()):>9} {len(r.wrong):>8} of {r.lines}")
    for r in results:
        for line in r.wrong[:3]:
            print(f"  wrong ({r.game_id}): {line}")
    if args.samples:
        for r in results:
            print(f"\n===== {r.game_id}: a board post =====\n{r.board}")
            print(f"----- {r.game_id}: first DM -----\n{r.first_dm}")
            print(f"----- {r.game_id}: last DM -----\n{r.last_dm}")


if __name__ == "__main__":
    main()
