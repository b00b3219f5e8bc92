"""The web pages under spectators: page and event latency with 200 spectators on 20 live tables.

The server is what ``parley run`` with ``PARLEY_WEB_PORT`` runs: the production host (``bot.host.factory.build_host``,
render workers and all) and the pages in the same process, drawing with the same render workers, over a SQLite file
(or ``--db postgresql://…``, in a schema of its own). Its tables move at random moments (a move every
``--move-every`` seconds per table on average, a random legal action of the seat that owes one). The spectators live
in another process (so their own work does not slow the server): each opens its table's page, keeps its event
stream open and, like a browser, fetches the new board picture whenever the table changes; meanwhile new visitors
load table pages at ``--pages`` a second. Each client speaks from an address of its own (``X-Forwarded-For`` from
127.0.0.1, as behind a reverse proxy), so the rate limits and caps per address apply as in production.

Figures: a table page and a new board picture (request to last byte), each beside the floor of the same stack (a
small static file fetched the same way in the same run); and from a move's commit (its log entry's time) to its
event at every spectator, beside its floor (half the poll interval on SQLite: the mean wait before a change is seen;
on PostgreSQL a notification arrives at once). Every spectator must get every move exactly once. Budgets: page
p95 ≤ 100 ms, commit to event p95 ≤ 1 s. Printed, never asserted.

    python -m benchmarks.web [--tables 20] [--spectators 200] [--seconds 30] [--move-every 2] [--pages 20]
                             [--game cartagena] [--processes N] [--db postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from benchmarks.stats import describe

PAGE_BUDGET = 0.100
EVENT_BUDGET = 1.0


@dataclass
class WebConfig:
    tables: int = 20
    spectators: int = 200
    seconds: float = 30.0
    move_every: float = 2.0  # seconds between moves of one table, on average
    pages: float = 20.0  # page loads a second by visitors who do not stay
    game: str = "cartagena"
    processes: int | None = None  # render workers (None: production's, one per core)
    db: str | None = None  # None: a fresh SQLite file; postgresql://…: a fresh schema on that server


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


# -- the spectators' process -----------------------------------------------------------------------------------
def _spectators(conn: Connection, base: str, slugs: list[str], cfg: WebConfig, css: str) -> None:
    try:
        conn.send(asyncio.run(_watch(conn, base, slugs, cfg, css)))
    except BaseException as exc:  # noqa: BLE001 - reported to the server side, which prints it
        conn.send({"error": f"{type(exc).__name__}: {exc}"})
    finally:
        conn.close()


async def _watch(conn: Connection, base: str, slugs: list[str], cfg: WebConfig, css: str) -> dict[str, Any]:
    import aiohttp

    arrivals: dict[str, list[tuple[int, int, float]]] = {s: [] for s in slugs}  # slug -> (spectator, n, when)
    pages: list[float] = []
    boards: list[float] = []
    floor: list[float] = []
    errors: list[str] = []
    stop = asyncio.Event()
    ready = asyncio.Event()
    connected = 0

    def address(k: int) -> dict[str, str]:
        return {"X-Forwarded-For": f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"}

    async def timed(http: aiohttp.ClientSession, url: str, k: int, into: list[float]) -> bytes | None:
        start = time.perf_counter()
        async with http.get(url, headers=address(k)) as r:
            body = await r.read()
            if r.status != 200:
                errors.append(f"{url.removeprefix(base)}: {r.status}")
                return None
        into.append(time.perf_counter() - start)
        return body

    async def spectator(http: aiohttp.ClientSession, k: int) -> None:
        nonlocal connected
        slug = slugs[k % len(slugs)]
        page = await timed(http, f"{base}/t/{slug}", k, pages)
        since = int(page.decode().split('data-n="', 1)[1].split('"', 1)[0]) if page else 0
        async with http.get(f"{base}/t/{slug}/events?since={since}", headers=address(k)) as stream:
            if stream.status != 200:
                errors.append(f"stream: {stream.status}")
                return
            connected += 1
            if connected == cfg.spectators:
                ready.set()
            event = ""
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(stream.content.readline(), 0.5)
                except TimeoutError:
                    continue
                if not raw:
                    return
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    if event == "move":
                        arrivals[slug].append((k, int(data["n"]), time.time()))
                    elif event == "table" and data.get("board"):
                        await timed(http, base + data["board"], k, boards)  # the browser swaps the picture

    async def visitors(http: aiohttp.ClientSession) -> None:
        rnd = random.Random(7)
        k = 100_000
        while not stop.is_set():
            await asyncio.sleep(rnd.expovariate(cfg.pages))
            k += 1
            asyncio.ensure_future(timed(http, f"{base}/t/{rnd.choice(slugs)}", k, pages))
            asyncio.ensure_future(timed(http, base + css, k, floor))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as http:
        tasks = [asyncio.ensure_future(spectator(http, k)) for k in range(cfg.spectators)]
        await asyncio.wait_for(ready.wait(), 120)
        pages.clear()  # the first loads warmed the server: measured from here on
        conn.send({"ready": True})
        visiting = asyncio.ensure_future(visitors(http))
        await asyncio.to_thread(conn.recv)  # the server says when its moves are done
        await asyncio.sleep(3.0)  # the last events are on their way
        stop.set()
        visiting.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"arrivals": arrivals, "pages": pages, "boards": boards, "floor": floor, "errors": errors[:20]}


# -- the server ------------------------------------------------------------------------------------------------
async def _serve(cfg: WebConfig, url: str, log: Any) -> dict[str, Any]:
    from benchmarks.host import owing
    from bot.host.factory import build_host
    from bot.host.tables import Caller
    from bot.infra.settings import Settings, default_render_processes
    from bot.infra.store import Store
    from bot.transports.web.app import WebApp
    from bot.transports.web.pages import static

    processes = default_render_processes() if cfg.processes is None else cfg.processes
    host = build_host(Settings(db_path=url, render_processes=processes), ai_seed="web-bench")
    await host.start()
    store = Store(url)
    await store.open()
    app = WebApp(store, host.pictures, base_url="")
    port = await app.start("127.0.0.1", 0)
    await host.pictures.warm()
    rnd = random.Random(11)
    seated: list[list[Caller]] = []
    slugs: list[str] = []
    for i in range(cfg.tables):
        channel = 50_000 + i
        callers = [Caller(1, channel, 1_000 + 10 * i + k, f"P{i}.{k}", moderator=k == 0) for k in range(2)]
        assert (await host.open(callers[0], cfg.game, {})).ok
        assert (await host.join(callers[1])).ok
        assert (await host.start_table(callers[0])).ok
        seated.append(callers)
        slugs.append(await app.links.slug(host.table_for(channel).table_id))
    ctx = multiprocessing.get_context("spawn")
    mine, theirs = ctx.Pipe()
    client = ctx.Process(
        target=_spectators, args=(theirs, f"http://127.0.0.1:{port}", slugs, cfg, static("parley.css")), daemon=True
    )
    client.start()
    try:
        answer = await asyncio.to_thread(mine.recv)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        log(f"web: {cfg.spectators} spectators connected to {cfg.tables} tables; moving for {cfg.seconds:g} s")
        cpu0, wall0 = time.process_time(), time.perf_counter()
        moves = 0

        async def table(callers: list[Caller]) -> None:
            nonlocal moves
            end = time.perf_counter() + cfg.seconds
            while True:
                await asyncio.sleep(rnd.expovariate(1 / cfg.move_every))
                if time.perf_counter() >= end:
                    return
                summary = host.table_for(callers[0].channel_id)
                if summary is None or summary.status != "running":
                    return
                who, choices = await owing(host, callers, summary)
                if who is None:
                    continue
                out = await host.play(who, rnd.choice(choices).action, summary.state_no)
                out.delivered()
                moves += out.ok

        await asyncio.gather(*(table(c) for c in seated))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        mine.send({"done": True})
        result = await asyncio.to_thread(mine.recv)
        if "error" in result:
            raise RuntimeError(result["error"])
        logs = {slug: {e.n: e.at for e in await host.store.tables.log(host.table_for(c[0].channel_id).table_id)}
                for slug, c in zip(slugs, seated, strict=True)}
        return {"result": result, "logs": logs, "moves": moves, "cpu": cpu, "wall": wall, "processes": processes,
                "poll": app.hub.feed.poll_seconds, "listening": app.hub.feed.listening}
    finally:
        client.join(30)
        if client.is_alive():
            client.kill()
        await app.stop()
        await store.close()
        await host.close()


def measure(cfg: WebConfig, log: Any = lambda s: print(s, file=sys.stderr)) -> dict[str, Any]:
    """Run the benchmark once; the figures (see :func:`report`)."""
    folder = None
    drop = None
    if cfg.db is None:
        folder = tempfile.TemporaryDirectory(prefix="parley-web-bench-")
        url = os.path.join(folder.name, "parley.sqlite3")
    elif cfg.db.startswith(("postgresql://", "postgres://")):
        from benchmarks.cluster import _schema

        schema = f"parley_bench_{uuid.uuid4().hex[:10]}"
        asyncio.run(_schema(cfg.db, f"CREATE SCHEMA {schema}"))
        url = f"{cfg.db}{'&' if '?' in cfg.db else '?'}search_path={schema}"
        drop = lambda: asyncio.run(_schema(cfg.db, f"DROP SCHEMA IF EXISTS {schema} CASCADE"))  # noqa: E731
    else:
        url = cfg.db
    try:
        raw = asyncio.run(_serve(cfg, url, log))
    finally:
        if drop is not None:
            drop()
        if folder is not None:
            folder.cleanup()
    return _figures(cfg, raw)


def _figures(cfg: WebConfig, raw: dict[str, Any]) -> dict[str, Any]:
    result, logs = raw["result"], raw["logs"]
    latencies: list[float] = []
    missed = twice = delivered = 0
    slugs = list(result["arrivals"])
    for slug, arrivals in result["arrivals"].items():
        at = logs[slug]
        # every spectator of this table, even one that got nothing
        by_spectator: dict[int, list[int]] = {
            k: [] for k in range(cfg.spectators) if slugs[k % len(slugs)] == slug
        }
        for k, n, when in arrivals:
            by_spectator.setdefault(k, []).append(n)
            if n in at:
                latencies.append(when - at[n])
        for got in by_spectator.values():
            delivered += len(got)
            twice += len(got) - len(set(got))
            missed += len(set(at) - set(got))
    return {
        "config": cfg.__dict__,
        "cores": cores(),
        "moves": raw["moves"],
        "moves_per_second": raw["moves"] / raw["wall"] if raw["wall"] else 0.0,
        "pages": describe(result["pages"]),
        "boards": describe(result["boards"]),
        "floor": describe(result["floor"]),
        "events": describe(latencies),
        "delivered": delivered,
        "missed": missed,
        "twice": twice,
        "errors": result["errors"],
        "cpu": raw["cpu"],
        "processes": raw["processes"],
        "event_floor": 0.0 if raw["listening"] else raw["poll"] / 2,
        "store": "PostgreSQL (notifications)" if raw["listening"] else f"SQLite (polled every {raw['poll'] * 1000:.0f} ms)",
    }


def report(f: dict[str, Any]) -> list[str]:
    def ms(x: float) -> str:
        return f"{x * 1000:.1f} ms" if x == x else "n/a"

    cfg = f["config"]
    floor = f["floor"]
    rows = [
        ("table page, request to last byte", f["pages"], f"static file {ms(floor['p50'])} / {ms(floor['p95'])}",
         PAGE_BUDGET),
        ("new board picture, as each spectator fetches it", f["boards"],
         f"static file {ms(floor['p50'])} / {ms(floor['p95'])}", None),
        ("move committed → its event, every spectator", f["events"],
         f"{ms(f['event_floor'])} mean wait to be seen" if f["event_floor"] else "a notification, at once",
         EVENT_BUDGET),
    ]
    lines = [
        f"Web pages: {cfg['tables']} live tables ({cfg['game']}), {cfg['spectators']} spectators,"
        f" {f['moves_per_second']:.1f} moves/s for {cfg['seconds']:g} s, {cfg['pages']:g} page loads/s,"
        f" {f['store']}, {f['processes']} render workers, {f['cores']} cores shared by everything",
        f"  {'figure':<50} {'n':>6} {'p50':>9} {'p95':>9} {'max':>9}   floor (p50 / p95)                budget",
    ]
    for name, d, fl, budget in rows:
        verdict = ""
        if budget is not None:
            verdict = f"p95 ≤ {budget * 1000:.0f} ms: {'OK' if d['p95'] <= budget else 'OVER'}"
        lines.append(
            f"  {name:<50} {d['n']:>6} {ms(d['p50']):>9} {ms(d['p95']):>9} {ms(d['max']):>9}   {fl:<32} {verdict}"
        )
    lines.append(
        f"  events: {f['delivered']} delivered, {f['missed']} missed, {f['twice']} twice;"
        f" {len(f['errors'])} failed requests{': ' + ', '.join(f['errors'][:3]) if f['errors'] else ''}"
    )
    per_move = f["cpu"] / f["moves"] * 1000 if f["moves"] else float("nan")
    per_event = f["cpu"] / f["delivered"] * 1e6 if f["delivered"] else float("nan")
    lines.append(
        f"  CPU of the bot's process (host and pages; pictures are drawn in the workers): {f['cpu']:.1f} s,"
        f" {per_move:.1f} ms a move, {per_event:.0f} µs an event delivered"
    )
    return lines


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks.web", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=WebConfig.tables)
    p.add_argument("--spectators", type=int, default=WebConfig.spectators)
    p.add_argument("--seconds", type=float, default=WebConfig.seconds)
    p.add_argument("--move-every", type=float, default=WebConfig.move_every, help="seconds between a table's moves")
    p.add_argument("--pages", type=float, default=WebConfig.pages, help="page loads a second by passing visitors")
    p.add_argument("--game", default=WebConfig.game)
    p.add_argument("--processes", type=int, default=None, help="render workers (default one per core)")
    p.add_argument("--db", default=None, help="a SQLite path or postgresql://… (default: a fresh SQLite file)")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    cfg = WebConfig(
        tables=args.tables,
        spectators=args.spectators,
        seconds=args.seconds,
        move_every=args.move_every,
        pages=args.pages,
        game=args.game,
        processes=args.processes,
        db=args.db,
    )
    figures = measure(cfg)
    print("\n".join(report(figures)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
