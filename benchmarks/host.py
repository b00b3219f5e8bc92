"""The table host under load: N concurrent tables through TableHost with SQLite on disk (WAL), or on any store
(``--db postgresql://…``, an empty database or schema).

Every table seats its game's minimum of humans (console-style ids). Each table's players think for a random
time (exponential, mean ``--think`` seconds), ask ``host.choices`` as the picker does, and then play a random
legal action with the button's state number. ``choices`` runs on the event loop like every host call, so a
slow one (Treasure Island lists about 2,000 actions) delays the other tables' replies, as it would in the bot. The figure is the time from calling ``play`` to getting back its committed, rendered outputs (board
picture and any private picture), per action. Budget: p95 under 100 ms with 200 live tables, and the host's
own share of that time at most 20% of drawing plus one commit.

    python -m benchmarks.host [--game cartagena|mix] [--tables 200] [--think 20] [--actions 600] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import random
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import renderers
from benchmarks.stats import describe, union_length
from bot.host.factory import build_host
from bot.host.tables import Caller, Choice, TableHost, TableSummary
from bot.infra.pictures import PICTURE
from bot.infra.settings import Settings, default_render_processes
from bot.infra.store import is_postgres_url, redact_url
from rules import registry

Log = Callable[[str], None]


class SwitchRenderer:
    """The real renderer, switched off (an empty picture) while the tables are being set up. Picklable, so
    it also works in the render worker processes (each job pickles the current switch)."""

    def __init__(self) -> None:
        self.real = False

    def __call__(self, game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
        if not self.real:
            return b""
        return renderers.render(game_id, view, seat=seat)


@dataclass
class _Account:
    """Where one ``play`` call spent its time: the intervals it waited for pictures and for its commit."""

    drawing: list[tuple[float, float]] = field(default_factory=list)
    commit: list[tuple[float, float]] = field(default_factory=list)


_current: contextvars.ContextVar[_Account | None] = contextvars.ContextVar("bench_account", default=None)


def instrument(host: TableHost) -> None:
    """Time, per ``play`` call, the drawing and the commit the host waits for (wrapping from the outside).

    Drawing is the wall time of each ``Pictures.render_many`` await as the host sees it. With render
    processes the drawing happens in workers whose clocks the host cannot read; the host-side wall time
    also holds pickling the view, the trip to the worker and any wait behind other tables' pictures. That is
    the right side of the ledger for this budget: all of it is drawing capacity, none of it is work the host
    itself does. Commit is the wall time of ``Store.append`` (the statements, the SQLite commit, the hop to
    the aiosqlite thread and the wait for the store's write lock). What is left of a reply's latency is the
    host's own: engine, narration, outputs, the per-table lock and the event loop's queue.

    ``measure_host`` reports the share both ways: ``share`` against the budget's yardstick (drawing plus one
    SQLite commit measured alone, so the store's overhead counts as the host's), and ``share_beside_store``
    with the commit as the host waited for it."""
    pictures = host.pictures
    real_render_many = pictures.render_many
    real_append = host.store.append

    async def render_many(*a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await real_render_many(*a, **kw)
        finally:
            acc = _current.get()
            if acc is not None:
                acc.drawing.append((t0, time.perf_counter()))

    async def append(*a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await real_append(*a, **kw)
        finally:
            acc = _current.get()
            if acc is not None:
                acc.commit.append((t0, time.perf_counter()))

    pictures.render_many = render_many  # type: ignore[method-assign]
    host.store.append = append  # type: ignore[method-assign]


def commit_floor(folder: Path, *, repeats: int = 200, payload: int = 4000) -> dict[str, float]:
    """One SQLite commit alone: a log row inserted and a snapshot of ``payload`` bytes updated in one
    transaction, on a file in ``folder`` with the store's settings (WAL, synchronous=NORMAL), straight
    through ``sqlite3`` in this thread. Seconds, ``describe`` keys."""
    path = folder / "commit-floor.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL").close()
        db.execute("PRAGMA synchronous=NORMAL").close()
        db.execute("CREATE TABLE log (id INTEGER, n INTEGER, action TEXT, PRIMARY KEY (id, n))")
        db.execute("CREATE TABLE snap (id INTEGER PRIMARY KEY, n INTEGER, snapshot TEXT)")
        db.execute("INSERT INTO snap VALUES (1, 0, '')")
        blob = "x" * payload
        times: list[float] = []
        for n in range(1, repeats + 1):
            t0 = time.perf_counter()
            db.execute("BEGIN")
            db.execute("INSERT INTO log VALUES (1, ?, 'move')", (n,))
            db.execute("UPDATE snap SET n = ?, snapshot = ? WHERE id = 1", (n, blob))
            db.execute("COMMIT")
            times.append(time.perf_counter() - t0)
        return describe(times)
    finally:
        db.close()


async def pg_commit_floor(url: str, *, repeats: int = 200, payload: int = 4000) -> dict[str, float]:
    """One PostgreSQL commit alone, as :func:`commit_floor` for SQLite: a log row inserted and a snapshot of
    ``payload`` bytes updated in one transaction, straight through one asyncpg connection, in temporary tables."""
    import asyncpg

    con = await asyncpg.connect(url)
    try:
        await con.execute(
            "CREATE TEMPORARY TABLE floor_log (id BIGINT, n INTEGER, action TEXT, PRIMARY KEY (id, n));"
            "CREATE TEMPORARY TABLE floor_snap (id BIGINT PRIMARY KEY, n INTEGER, snapshot TEXT);"
            "INSERT INTO floor_snap VALUES (1, 0, '')"
        )
        blob = "x" * payload
        times: list[float] = []
        for n in range(1, repeats + 1):
            t0 = time.perf_counter()
            async with con.transaction():
                await con.execute("INSERT INTO floor_log VALUES (1, $1, 'move')", n)
                await con.execute("UPDATE floor_snap SET n = $1, snapshot = $2 WHERE id = 1", n, blob)
            times.append(time.perf_counter() - t0)
        return describe(times)
    finally:
        await con.close()


class Replays:
    """The transport's side of a game's end, as the bot does it: the replay GIF is drawn in the background and
    published after the result; this counts them and times each from the game-ending move's delivery."""

    def __init__(self, host: TableHost) -> None:
        self.count = 0
        self.seconds: list[float] = []
        host.publish = self.publish
        real = host.narration.replay_post  # noqa: SLF001 - timed from the outside

        async def timed(t: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await real(t)
            finally:
                self.seconds.append(time.perf_counter() - t0)

        host.narration.replay_post = timed  # type: ignore[method-assign]  # noqa: SLF001

    async def publish(self, out: Any) -> None:
        self.count += sum(p.filename == "replay.gif" and p.image is not None for p in out.public)


def _game_ids(game: str) -> list[str]:
    return registry.game_ids() if game == "mix" else [registry.get(game).info.id]


async def _seat_table(host: TableHost, i: int, game_id: str, round_no: int = 0) -> list[Caller]:
    players = registry.get(game_id).info.min_players
    channel = 1000 + i
    base = 1000 * (i + 1) + 10 * round_no  # new players for each new game of the channel
    callers = [Caller(1, channel, base + k + 1, f"P{i}.{k}", moderator=(k == 0)) for k in range(players)]
    out = await host.open(callers[0], game_id, {})
    assert out.ok, out.reply
    for c in callers[1:]:
        out = await host.join(c)
        assert out.ok, out.reply
    out = await host.start_table(callers[0])
    assert out.ok, out.reply
    return callers


async def owing(host: TableHost, callers: list[Caller], summary: TableSummary) -> tuple[Caller | None, list[Choice]]:
    """The first human who owes a decision and their choices (what the picker would show them). Only the
    seats the table says are to act are asked: ``choices`` is the transport's picker call, not free."""
    by_user = {c.user_id: c for c in callers}
    for seat in summary.to_act:
        c = by_user.get(summary.seats[seat].user_id or -1)
        if c is not None and (choices := await host.choices(c)):
            return c, choices
    return None, []


async def _warm(host: TableHost, ids: list[str], processes: int) -> None:
    """Draw a few pictures of every game in every worker first: the first picture of a game in a process
    builds cached backgrounds and fonts, which a long-running bot pays once, not per move."""
    for game_id in ids:
        game = registry.get(game_id)
        view = game.view(game.new(game.info.min_players, {}, "warm"), None)
        await host.pictures.render_many(game_id, [(view, None)] * max(2, 2 * processes))


async def measure_host(
    tables: int = 200,
    *,
    game: str = "mix",
    think: float = 20.0,
    actions: int = 600,
    processes: int | None = None,
    seed: int = 1,
    db_dir: str | None = None,
    db: str | None = None,
    log: Log | None = None,
) -> dict[str, Any]:
    """``tables`` live tables (``game``: one id, or ``mix`` for every game in turn) on a fresh SQLite file
    in ``db_dir`` (default: a temporary folder), ``actions`` measured actions in all, then the figures.

    A table whose game ends starts a new game in its channel (not measured), so one table can play any
    number of actions. Game-ending actions (which also draw the replay GIF) are counted apart. Returned
    keys (seconds): latency, drawing, commit (as waited for), own (``describe`` dicts per reply), share
    (the host's own time over drawing plus one commit measured alone, summed over the replies; see
    ``instrument``), share_beside_store, latency_by_game, plus tables, think, actions, refused, game_ends,
    rate (actions per second), setup_seconds, internal_errors, commit_floor, database (None when the
    temporary folder was removed). ``db`` (a store URL, e.g. an empty PostgreSQL schema) replaces the SQLite file;
    the commit floor is then one commit of that server."""
    say = log or (lambda _: None)
    own_folder = db_dir is None
    folder = Path(db_dir or tempfile.mkdtemp(prefix="parley-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    store_url = db or str(folder / f"host-{tables}.sqlite3")
    if db is None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store_url}{suffix}").unlink(missing_ok=True)
    ids = _game_ids(game)
    renderer = SwitchRenderer()
    # the production host (bot.host.factory), with the drawing switched off while the tables are set up
    settings = Settings(
        db_path=store_url, render_processes=default_render_processes() if processes is None else processes
    )
    processes = settings.render_processes
    host = build_host(settings, ai_seed=f"bench-{seed}", renderer=renderer)
    replays = Replays(host)
    await host.start()
    try:
        t0 = time.perf_counter()
        seated = [await _seat_table(host, i, ids[i % len(ids)]) for i in range(tables)]
        setup = time.perf_counter() - t0
        say(f"host: set up {tables} tables in {setup:.1f} s ({', '.join(ids)}); database {redact_url(store_url)}")
        renderer.real = True
        await _warm(host, ids, processes)
        instrument(host)

        latencies: list[float] = []
        drawing: list[float] = []
        commit: list[float] = []
        own: list[float] = []
        by_game: dict[str, list[float]] = {}
        game_ends: list[float] = []
        counts = {"refused": 0, "game_ends": 0, "budget": actions}
        done = asyncio.Event()
        rnd = random.Random(seed)
        window = [time.perf_counter(), time.perf_counter()]

        async def nap(seconds: float) -> None:
            try:
                await asyncio.wait_for(done.wait(), seconds)
            except TimeoutError:
                pass

        # fewer tables than games (one table alone): each table ends its game after its share of the actions
        # and opens the next game, so the figure still covers every game
        per_game = max(1, actions // len(ids)) if tables < len(ids) else None

        async def table_loop(i: int, callers: list[Caller], trnd: random.Random) -> None:
            rounds = played = 0
            await nap(trnd.uniform(0, think))
            while not done.is_set():
                summary = host.table_for(callers[0].channel_id)
                if per_game is not None and played >= per_game and summary is not None:
                    if summary.status == "running":
                        await host.end(callers[0])
                    summary, played = None, 0
                if summary is None or summary.status != "running":
                    rounds += 1
                    callers = await _seat_table(host, i, ids[(i + rounds) % len(ids)], rounds)
                    continue
                c, choices = await owing(host, callers, summary)
                if c is None:
                    return
                if counts["budget"] <= 0:
                    break
                counts["budget"] -= 1
                acc = _Account()
                token = _current.set(acc)
                start = time.perf_counter()
                try:
                    out = await host.play(c, trnd.choice(choices).action, summary.state_no)
                finally:
                    end = time.perf_counter()
                    _current.reset(token)
                out.delivered()  # as the transport does: the game's replay is drawn and published after it
                if not out.ok:
                    counts["refused"] += 1
                elif any(p.filename == "final.png" for p in out.public):
                    counts["game_ends"] += 1
                    game_ends.append(end - start)
                else:
                    clip = [(max(a, start), min(b, end)) for a, b in acc.drawing + acc.commit]
                    d = union_length((max(a, start), min(b, end)) for a, b in acc.drawing)
                    k = union_length((max(a, start), min(b, end)) for a, b in acc.commit)
                    latencies.append(end - start)
                    by_game.setdefault(summary.game_id, []).append(end - start)
                    drawing.append(d)
                    commit.append(k)
                    own.append(max(0.0, (end - start) - union_length(clip)))
                window[1] = end
                played += 1
                if counts["budget"] <= 0:
                    done.set()
                    break
                await nap(trnd.expovariate(1 / think) if think > 0 else 0)

        window[0] = time.perf_counter()
        cpu0 = time.process_time()
        pool = host.pictures.pool
        drawn0 = pool.cpu.get(PICTURE, 0.0) if pool is not None else 0.0
        await asyncio.gather(*(table_loop(i, c, random.Random(rnd.random())) for i, c in enumerate(seated)))
        elapsed = max(1e-9, window[1] - window[0])
        cpu = time.process_time() - cpu0  # the bot's own process (render workers are other processes)
        # the workers' CPU for the pictures of the run: beside the drawing's wall time it tells how busy the
        # machine was (on a quiet one a picture's wall time is little more than its CPU time)
        drawing_cpu = (pool.cpu.get(PICTURE, 0.0) - drawn0) if pool is not None else float("nan")
        internal = host.internal_errors
        await host.idle()  # the last replays
    finally:
        await host.close()
    floor = await pg_commit_floor(store_url) if is_postgres_url(store_url) else commit_floor(folder)
    if own_folder:
        shutil.rmtree(folder, ignore_errors=True)
    # the budget's yardstick: the drawing this reply waited for plus ONE SQLite commit measured alone; the
    # rest (the aiosqlite hop and write lock included) is the host's own
    one_commit = floor["p50"]
    own_strict = [max(0.0, lat - d - one_commit) for lat, d in zip(latencies, drawing, strict=True)]
    paid = sum(drawing) + one_commit * len(drawing)
    paid_store = sum(drawing) + sum(commit)
    return {
        "tables": tables,
        "game": game,
        "think": think,
        "processes": processes,
        "actions": len(latencies),
        "refused": counts["refused"],
        "game_ends": counts["game_ends"],
        "rate": len(latencies) / elapsed,
        # every move of the run, game-ending ones included, over the host process's CPU time
        "cpu_per_move": cpu / max(1, len(latencies) + counts["game_ends"]),
        "setup_seconds": setup,
        "internal_errors": internal,
        "latency": describe(latencies),
        "drawing": describe(drawing),
        # workers' CPU seconds per measured reply (every picture of the run, game ends' included, over the replies)
        "drawing_cpu": drawing_cpu / max(1, len(latencies)),
        "commit": describe(commit),
        "own": describe(own_strict),
        "share": sum(own_strict) / paid if paid > 0 else float("nan"),
        "own_beside_store": describe(own),
        "share_beside_store": sum(own) / paid_store if paid_store > 0 else float("nan"),
        "latency_by_game": {g: describe(v) for g, v in sorted(by_game.items())},
        "game_end": describe(game_ends) if game_ends else None,
        "replays": replays.count,
        "replay_seconds": describe(replays.seconds) if replays.seconds else None,
        "commit_floor": floor,
        "database": None if own_folder and db is None else redact_url(store_url),
        "store": "postgresql" if is_postgres_url(store_url) else "sqlite",
    }


def report(r: dict[str, Any]) -> list[str]:
    """The figures of one ``measure_host`` run as printed lines."""
    lat, ms = r["latency"], 1000
    ends = ""
    if r.get("game_end"):
        ends = (
            f"game-ending moves (result posted, replay after it): n={r['game_end']['n']}, p50"
            f" {r['game_end']['p50'] * ms:.1f} ms, max {r['game_end']['max'] * ms:.1f} ms; replays drawn {r['replays']}"
        )
        if r.get("replay_seconds"):
            ends += f", each p50 {r['replay_seconds']['p50']:.2f} s, max {r['replay_seconds']['max']:.2f} s"
    return [
        f"{r['game']}: {r['tables']} live tables, render processes {r['processes']}, think {r['think']:g} s mean,"
        f" {r['actions']} actions ({r['rate']:.1f}/s); refused {r['refused']}, game ends {r['game_ends']},"
        f" internal errors {r['internal_errors']}",
        f"action -> committed, rendered reply: p50 {lat['p50'] * ms:.1f} ms, p95 {lat['p95'] * ms:.1f} ms,"
        f" p99 {lat['p99'] * ms:.1f} ms, mean {lat['mean'] * ms:.1f} ms, max {lat['max'] * ms:.1f} ms",
        f"per reply: drawing (host-side wall) median {r['drawing']['median'] * ms:.1f} ms, store.append median"
        f" {r['commit']['median'] * ms:.2f} ms, host's own median {r['own']['median'] * ms:.1f} ms;"
        f" own / (drawing + one commit) = {r['share']:.0%} ({r['share_beside_store']:.0%} counting the store's"
        " wall time as commit)",
        f"one {'PostgreSQL commit alone' if r.get('store') == 'postgresql' else 'SQLite commit alone (WAL, synchronous=NORMAL, same disk)'}: p50 {r['commit_floor']['p50'] * ms:.2f} ms,"
        f" p95 {r['commit_floor']['p95'] * ms:.2f} ms",
        f"budget p95 <= 100 ms: {'within' if lat['p95'] <= 0.1 else 'OVER'};"
        f" own share <= 20%: {'within' if r['share'] <= 0.2 else 'OVER'}",
        *([ends] if ends else []),
        slowest_line(r),
    ]


def slowest_line(r: dict[str, Any]) -> str:
    """Issue 12's figure: the slowest move of the run, a game's last move included (its result is posted as fast
    as any move; the replay GIF is drawn afterwards, in its own message, and is not part of it)."""
    ends = r.get("game_end") or {}
    slowest = max(r["latency"]["max"], ends.get("max", 0.0))
    verdict = "within" if slowest <= 1.0 else "OVER"
    return (
        f"slowest move, game-ending moves included ({r['game_ends']} of them; replay GIF excluded):"
        f" {slowest * 1000:.0f} ms; budget <= 1 s: {verdict}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cartagena", choices=[*registry.game_ids(), "mix"])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", type=float, default=20.0, help="mean seconds between a table's actions")
    parser.add_argument("--actions", type=int, default=600, help="actions to measure in all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--processes", type=int, default=None, help="render worker processes (default: production's, one per core)"
    )
    parser.add_argument("--db-dir", default=None, help="folder for the database file (default: a temp folder)")
    parser.add_argument("--db", default=None, help="an empty store to use instead of a SQLite file (postgresql://…)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    r = asyncio.run(
        measure_host(
            args.tables,
            game=args.game,
            think=args.think,
            actions=args.actions,
            processes=args.processes,
            seed=args.seed,
            db_dir=args.db_dir,
            db=args.db,
            log=print,
        )
    )
    if not r["actions"]:
        print("no actions measured")
        return 1
    print("\n".join(report(r)))
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
