"""The ``parley`` command line: ``run`` (Discord; ``--shards 0-3 --shard-count 8`` for one process of a cluster)
and ``sync`` (Discord), ``web`` (the tables' web pages), ``play`` (a table in the terminal), ``simulate`` (AI-only games), ``bench`` (every
benchmark, one table), ``db copy`` (a server's data from one store to another) and ``ratings rebuild``."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import inspect
import sys
from collections.abc import Sequence
from typing import Any

from rules import registry
from rules.core import AI_LEVELS, IllegalAction


def _options(game_id: str, pairs: Sequence[str], variant: str | None) -> dict[str, str]:
    """``--option k=v`` pairs, and ``--variant V`` as the value of the game's first option."""
    game = registry.get(game_id)
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"parley: --option takes name=value, not '{pair}'")
        options[key.strip().lower()] = value.strip().lower()
    if variant is not None:
        if not game.info.options:
            raise SystemExit(f"parley: {game.info.title} has no variants")
        options[game.info.options[0].name] = variant.strip().lower()
    try:
        return game.resolve_options(options)
    except IllegalAction as exc:
        raise SystemExit(f"parley: {exc.message}") from None


def _game(game_id: str) -> str:
    try:
        return registry.get(game_id).info.id
    except KeyError as exc:
        raise SystemExit(f"parley: {exc.args[0]}") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="parley", description="Pirate board games for Discord, and offline.")
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    run.add_argument(
        "--shards", default=None, metavar="RANGE", help="serve only these Discord shards, e.g. 0-3 (PARLEY_SHARDS)"
    )
    run.add_argument(
        "--shard-count", type=int, default=None, metavar="N", help="the bot's total shards (PARLEY_SHARD_COUNT)"
    )
    sub.add_parser("sync", help="push the slash commands to Discord (and to PARLEY_DEV_GUILD if set)")
    web = sub.add_parser("web", help="serve the tables' web pages (PARLEY_DB; beside the bot, or several of them)")
    web.add_argument(
        "--port", type=int, default=None, help="listen on this port (PARLEY_WEB_PORT, default 8080; 0: any free one)"
    )
    web.add_argument("--bind", default=None, metavar="ADDRESS", help="listen on this address (PARLEY_WEB_BIND)")

    play = sub.add_parser("play", help="play a table in the terminal against AIs")
    play.add_argument("game", help=f"one of: {', '.join(registry.game_ids())}")
    play.add_argument("--ai", type=int, default=None, help="number of AI seats (default: enough for the minimum)")
    play.add_argument("--level", choices=AI_LEVELS, default="normal", help="AI level")
    play.add_argument("--ai-seconds", type=float, default=None, help="hard only: think time a decision (default 1)")
    play.add_argument("--seed", default=None, help="seed of the deal and of the AIs, for a repeatable game")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    play.add_argument("--variant", default=None, help="the value of the game's first option (e.g. tortuga)")
    play.add_argument("--pictures", default="pictures", help="folder for the pictures (default ./pictures)")

    # the benchmark command's own options follow (see python -m benchmarks --help)
    sub.add_parser("bench", help="run every benchmark and print one table (python -m benchmarks)", add_help=False)

    db = sub.add_parser("db", help="database tools")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    copy = db_sub.add_parser(
        "copy",
        help="copy everything from one store to another (SQLite <-> PostgreSQL), then verify it by replaying every log",
    )
    copy.add_argument("--from", dest="source", required=True, metavar="URL", help="a SQLite path or postgresql://…")
    copy.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="an empty SQLite path or postgresql://…"
    )

    sim = sub.add_parser("simulate", help="AI-only games with a summary")
    sim.add_argument("game", help=f"one of: {', '.join(registry.game_ids())}")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument(
        "--level", default="normal", help="AI level for every seat, or one per seat separated by commas (normal,easy)"
    )
    sim.add_argument("--seed", default="sim")
    sim.add_argument("--ai-seconds", type=float, default=None, help="hard only: think time a decision (default 1)")
    sim.add_argument("--players", type=int, default=None, help="seats (default: the game's minimum)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    sim.add_argument("--variant", default=None)

    ratings = sub.add_parser("ratings", help="skill ratings kept in the database")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser("rebuild", help="recompute every rating from the finished games, in order")
    rebuild.add_argument("--db", default=None, help="the database (default: PARLEY_DB from the settings)")
    return parser


def run_settings(env_file: str, args: argparse.Namespace | None = None) -> Any:
    """The settings of ``parley run``/``sync``: ``env_file`` under the environment, under ``--shards`` and
    ``--shard-count``. Raises ``SettingsError`` with a readable message."""
    import dataclasses

    from bot.infra import settings as settings_mod
    from bot.infra.shards import ShardError, Shards

    settings = settings_mod.load(env_file)
    ranges, count = getattr(args, "shards", None), getattr(args, "shard_count", None)
    if ranges is not None or count is not None:
        # the command line wins over the environment; --shards alone takes the count from the environment,
        # --shard-count alone means every shard of that count
        count = count if count is not None else (settings.shards.count if ranges is not None else None)
        try:
            settings = dataclasses.replace(settings, shards=Shards.of(ranges, count))
        except ShardError as exc:
            raise settings_mod.SettingsError(f"--shards: {exc}.") from None
    return settings


def _discord(command: str, env_file: str, args: argparse.Namespace | None = None) -> int:
    from bot.infra import settings as settings_mod

    try:
        settings = run_settings(env_file, args)
    except settings_mod.SettingsError as exc:
        print(f"parley: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        print("parley: DISCORD_TOKEN is not set. Put your bot token in .env (see .env.example).", file=sys.stderr)
        return 2
    # imported only here so `parley play` and `simulate` work without touching discord.py
    from bot.transports.discord import client

    result: Any = getattr(client, command)(settings)
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    return int(result or 0)


def _web(args: argparse.Namespace) -> int:
    from bot.infra import settings as settings_mod

    try:
        settings = settings_mod.load(args.env_file)
        if args.port is not None and not 0 <= args.port <= 65535:
            raise settings_mod.SettingsError(f"--port must be a port number from 1 to 65535 (0: any free one), not {args.port}.")
    except settings_mod.SettingsError as exc:
        print(f"parley: {exc}", file=sys.stderr)
        return 2
    settings = dataclasses.replace(
        settings,
        web_port=args.port if args.port is not None else settings.web_port,
        web_bind=args.bind if args.bind is not None else settings.web_bind,
    )
    from bot.transports.web import serve  # aiohttp is imported only here and by the Discord transport

    return serve.run(settings)


def _play(args: argparse.Namespace) -> int:
    from bot.host.tables import TableHost
    from bot.infra.store import Store
    from bot.transports.console import play
    from rules.search import DEFAULT_SECONDS

    game_id = _game(args.game)
    game = registry.get(game_id)
    options = _options(game_id, args.option, args.variant)
    ai = args.ai if args.ai is not None else max(1, game.info.min_players - 1)
    if not 1 <= ai + 1 <= game.info.max_players or ai + 1 < game.info.min_players:
        raise SystemExit(
            f"parley: {game.info.title} takes {game.info.min_players} to {game.info.max_players} players;"
            f" with you, --ai must be {game.info.min_players - 1} to {game.info.max_players - 1}"
        )
    # hard AIs search in a worker process, as at a Discord table
    host = TableHost(
        Store(":memory:"),
        ai_seed=args.seed,
        ai_processes=1 if args.level == "hard" else 0,
        ai_seconds=args.ai_seconds or DEFAULT_SECONDS,
    )
    return asyncio.run(
        play(host, game_id, options=options, ai=ai, level=args.level, seed=args.seed, pictures=args.pictures)
    )


def _database_failure(exc: BaseException, *urls: str) -> int | None:
    """A database failure of a one-shot command as one line on stderr, and its exit code; None for anything
    else (a bug keeps its traceback). ``urls``: the databases the command uses, the one that failed first."""
    from bot.infra.store import is_postgres_url
    from bot.infra.store.errors import failure

    postgres = [u for u in urls if is_postgres_url(u)]
    sqlite = [u for u in urls if not is_postgres_url(u)]
    error = None
    for url in postgres[:1] + sqlite[:1]:
        error = error or failure(url, exc)
    if error is None:
        return None
    print(f"parley: {error}", file=sys.stderr)
    return error.exit_code


def _db_copy(args: argparse.Namespace) -> int:
    from bot.infra.store import redact_url
    from bot.infra.store.copy import CopyError, copy_database

    say = lambda line: print(f"parley db copy: {line}", file=sys.stderr)  # noqa: E731
    try:
        report = asyncio.run(copy_database(args.source, args.target, say))
    except CopyError as exc:
        print(f"parley: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        code = _database_failure(exc, args.source, args.target)
        if code is None:
            raise
        return code
    rows = ", ".join(f"{n} {t}" for t, n in report.rows.items())
    print(f"copied {redact_url(args.source)} -> {redact_url(args.target)}: {rows}; {report.replayed} logs replayed")
    for line in report.mismatches:
        print(f"MISMATCH {line}")
    return 0 if report.ok else 1


def _simulate(args: argparse.Namespace) -> int:
    from bot.cli.simulate import simulate

    game_id = _game(args.game)
    levels = [lv.strip().lower() for lv in args.level.split(",") if lv.strip()]
    bad = [lv for lv in levels if lv not in AI_LEVELS]
    if bad or not levels:
        raise SystemExit(f"parley: AI levels are {', '.join(AI_LEVELS)}")
    if args.games < 1:
        raise SystemExit("parley: --games must be at least 1")
    options = _options(game_id, args.option, args.variant)
    try:
        summary = simulate(
            game_id,
            args.games,
            players=args.players,
            levels=levels,
            seed=args.seed,
            options=options,
            bar=sys.stderr,
            ai_seconds=args.ai_seconds,
        )
    except IllegalAction as exc:
        raise SystemExit(f"parley: {exc.message}") from None
    print(summary.text())
    return 1 if summary.errors else 0


def _ratings(args: argparse.Namespace) -> int:
    from bot.host.factory import build_store
    from bot.host.ratings_rebuild import rebuild as rebuild_ratings
    from bot.infra import settings as settings_mod

    try:
        settings = settings_mod.load(args.env_file)
    except settings_mod.SettingsError as exc:
        print(f"parley: {exc}", file=sys.stderr)
        return 2
    if args.db:
        settings = dataclasses.replace(settings, db_path=args.db)

    async def rebuild() -> int:
        store = build_store(settings)
        await store.open(create=False)  # a typo in --db must not create an empty database
        try:
            return await rebuild_ratings(store)
        finally:
            await store.close()

    try:
        rated = asyncio.run(rebuild())
    except Exception as exc:
        code = _database_failure(exc, settings.db_path)
        if code is None:
            raise
        return code
    print(f"Rated {rated} finished games.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "bench":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command == "bench":
            from benchmarks.__main__ import main as bench

            return bench(rest)
        if args.command in ("run", "sync"):
            return _discord(args.command, args.env_file, args)
        if args.command == "play":
            return _play(args)
        if args.command == "web":
            return _web(args)
        if args.command == "ratings":
            return _ratings(args)
        if args.command == "db":
            return _db_copy(args)
        return _simulate(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
