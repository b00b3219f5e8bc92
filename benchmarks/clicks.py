"""Clicks per turn through Discord's buttons (issue 28), over one whole seeded game of each game.

The real bot (discord.py, our cogs and views) against simcord's simulated Discord, over the production table host on
a SQLite file; every seat a person (three where the game allows, two in Martinique) who plays by buttons only, as
on a phone: "Take your turn" under the board post opens the picker, then one click per menu pick, per second-level
range and per page button, until the move they want is played. Each seat wants what the easy AI would choose from
its own view; when a pick of the picker plays several steps at once (a Buccaneer move: direction, distance and what
follows), the seat picks the one whose steps are the ones the easy AI would take in turn (or, if none is, the
first whose first step is). A turn is a run of decisions by one person, until someone else must act; the picker
stays open between the decisions of a turn (it redraws itself), so opening it costs one click per turn.

Printed per game as it ends: turns, clicks, clicks per turn (the mean and the most in one turn) and picks (menu
picks that played something). Pictures are stood in for by a tiny PNG; the figures are counts, not times.

    python -m benchmarks.clicks [--games buccaneer,cartagena] [--seed S] [--seeds N] [--option buccaneer:round_limit=50]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from PIL import Image
from simcord.results import ResponseMessage

from bot.host.tables import Caller, Choice, TableHost
from bot.infra.store import Store
from bot.transports.discord.client import ParleyBot
from rules import registry

GUILD_ID = 0x10000000 << 22  # the bot syncs its commands to it as its development guild
MAX_CLICKS = 40_000  # a game that takes more has gone wrong
#: a turn's picker: at most this many clicks before the benchmark gives up on finding the wanted move there
MAX_CLICKS_PER_DECISION = 30


def _tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (20, 60, 120)).save(out, format="PNG")
    return out.getvalue()


TINY_PNG = _tiny_png()


def tiny_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    return TINY_PNG


@dataclass
class Result:
    game_id: str
    seed: str
    turns: list[int] = field(default_factory=list)  # clicks of each turn
    decisions: int = 0  # picks that played something
    actions: int = 0  # actions the game committed for those picks
    finished: bool = False
    seconds: float = 0.0

    @property
    def clicks(self) -> int:
        return sum(self.turns)

    def per_turn(self) -> float:
        return self.clicks / max(1, len(self.turns))


def _selects(message: ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 3]


def _buttons(message: ResponseMessage) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 2]


def _answer(result: simcord.InteractionResult) -> ResponseMessage:
    message = result.response or (result.followups[0] if result.followups else None)
    assert message is not None, "the interaction got no answer"
    return message


class Table:
    """One channel of the simulated server with its players, and the bot's view of its table."""

    def __init__(self, env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]) -> None:
        self.env = env
        self.channel = channel
        self.members = members

    @property
    def host(self) -> TableHost:
        return self.env.bot.host  # type: ignore[no-any-return, attr-defined]

    def summary(self) -> Any:
        return self.host.table_for(self.channel.id)

    def refresh(self, message: ResponseMessage) -> ResponseMessage:
        return ResponseMessage(self.env, self.env.backend.get_message(message.channel_id, message.id))

    def board(self) -> discord.Message:
        """The newest channel post with a "Take your turn" button for the current state."""
        s = self.summary()
        want = f"parley:turn:{s.table_id}:{s.state_no}"
        for message in reversed(self.channel.history()):
            for row in message.components:
                for item in getattr(row, "children", []):
                    if getattr(item, "custom_id", None) == want:
                        return message
        raise AssertionError(f"no board post for state {s.state_no}")

    def actor(self) -> tuple[simcord.MemberActor, int]:
        """The first person the table waits for, and their seat."""
        s = self.summary()
        for n in s.to_act:
            seat = s.seats[n]
            if seat.ai_level is None and seat.user_id is not None:
                return next(m for m in self.members if m.id == seat.user_id), n
        raise AssertionError("nobody to act")


def wanted_steps(game: Any, state: Any, seat: int, rnd: random.Random, depth: int = 4) -> list[str]:
    """What the easy AI would play from ``seat``'s view, and then (while the same seat still owes a decision and the
    step revealed nothing: the game may take it back) what it would play next, up to ``depth`` steps."""
    steps: list[str] = []
    for _ in range(depth):
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        action = game.ai_choose(game.view(state, seat), seat, legal, "easy", rnd)
        steps.append(action)
        if not game.undoable(state, seat, action):
            break
        state, _ = game.apply(state, seat, action)
        if seat not in game.to_act(state):
            break
    return steps


def best_choice(choices: list[Choice], steps: list[str]) -> int:
    """The index of the pick that plays the most of ``steps`` in order (a plain action, or several steps at once)."""
    best, best_len = -1, 0
    for i, c in enumerate(choices):
        played = [c.action, *getattr(c, "then", ())]
        n = 0
        while n < len(played) and n < len(steps) and played[n] == steps[n]:
            n += 1
        if n == len(played) and n > best_len:
            best, best_len = i, n
        elif best < 0 and n > 0:
            best = i  # the first that starts right, if none plays only wanted steps
    return best


async def pick(t: Table, member: simcord.MemberActor, picker: ResponseMessage, target: int) -> int:
    """Click through the picker to the choice number ``target`` and pick it; returns the clicks made."""
    clicks = 0
    for _ in range(MAX_CLICKS_PER_DECISION):
        picker = t.refresh(picker)
        for menu in _selects(picker):
            values = [o["value"] for o in menu["options"]]
            if f"a{target}" in values:
                await member.select(picker, [f"a{target}"], custom_id=menu["custom_id"])
                return clicks + 1
            for value in values:
                if value.startswith("r"):
                    start, end = (int(x) for x in value[1:].split("-"))
                    if start <= target <= end:
                        await member.select(picker, [value], custom_id=menu["custom_id"])
                        clicks += 1
                        break
            else:
                continue
            break
        else:
            nxt = next((b for b in _buttons(picker) if b.get("label") == "Next ▶" and not b.get("disabled")), None)
            assert nxt is not None, f"choice {target} is on no page of the picker: {picker.content}"
            await member.click(picker, custom_id=nxt["custom_id"])
            clicks += 1
    raise AssertionError(f"choice {target} not reached in {MAX_CLICKS_PER_DECISION} clicks")


async def play_one(
    game_id: str, seed: str, folder: Path, options: dict[str, str] | None = None, decisions: int | None = None
) -> Result:
    """One seeded game played by buttons (its first ``decisions`` picks only, if given: tests)."""
    game = registry.get(game_id)
    players = max(game.info.min_players, min(3, game.info.max_players))
    host = TableHost(Store(str(folder / f"{game_id}-{seed}.sqlite3")), ai_seed=f"clicks:{seed}", renderer=tiny_renderer,
                     replay_frames=2)  # fmt: skip
    bot = ParleyBot(host, dev_guild=GUILD_ID, tick_seconds=3600.0, shard_count=1)
    # timers further off than this (a reminder, an AI's wait for a challenge) are parked on simcord's virtual clock:
    # only people play, so none is needed, and waiting them out in real time would only stretch the run
    env = simcord.Env(bot, settle_timeout=30.0)
    guild = env.create_guild("Pirates", id=GUILD_ID)
    channel = guild.create_text_channel("tavern")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    members = [guild.add_member(env.create_user(f"p{i}"), roles=[mods] if i == 0 else []) for i in range(players)]
    result = Result(game_id, seed)
    await env.start()
    try:
        t = Table(env, channel, members)
        await members[0].slash(channel, "table open " + game_id, **(options or {}))
        for m in members[1:]:
            await m.slash(channel, "table join")
        await members[0].slash(channel, "table start")
        rnd = random.Random(f"clicks:{game_id}:{seed}")
        started = time.perf_counter()
        picker: ResponseMessage | None = None
        owner: simcord.MemberActor | None = None
        while t.summary() is not None and t.summary().status == "running" and result.decisions != decisions:
            assert result.clicks < MAX_CLICKS, f"{game_id}: the game did not end"
            member, seat = t.actor()
            if member is not owner:
                result.turns.append(0)
                picker = None
            if picker is not None:
                picker = t.refresh(picker)
            if picker is None or not _selects(picker) or "Your move" not in picker.content:
                picker = _answer(await member.click(t.board(), label="Take your turn"))
                owner = member
                result.turns[-1] += 1
            caller = Caller(guild.id, channel.id, member.id, member.user.name)
            choices = await host.choices(caller)
            table = host.index.tables[t.summary().table_id]  # a benchmark reads the truth to choose
            steps = wanted_steps(game, table.state, seat, rnd)
            target = best_choice(choices, steps)
            assert target >= 0, f"{game_id}: the picker offers none of {steps}"
            before = t.summary().state_no
            result.turns[-1] += await pick(t, member, picker, target)
            after = t.summary()
            result.decisions += 1
            result.actions += after.state_no - before
        result.finished = t.summary() is not None and t.summary().status == "finished"
        result.seconds = time.perf_counter() - started
    finally:
        await env.shutdown()
        await host.close()
    return result


HEAD = f"{'game':<16} {'seed':<10} {'turns':>6} {'clicks':>7} {'clicks/turn':>11} {'most':>5} {'picks':>6}"


def row(r: Result) -> str:
    return (
        f"{r.game_id:<16} {r.seed:<10} {len(r.turns):>6} {r.clicks:>7} {r.per_turn():>11.2f} "
        f"{max(r.turns, default=0):>5} {r.decisions:>6}" + ("" if r.finished else "  (did not finish)")
    )


async def run(
    games: list[str],
    seeds: list[str],
    log: Any = None,
    options: dict[str, dict[str, str]] | None = None,
    decisions: int | None = None,
) -> list[Result]:
    """Every game of every seed, in turn (with the table ``options`` of its game); ``log`` gets each game's row as
    soon as it is played."""
    results = []
    with tempfile.TemporaryDirectory(prefix="parley-clicks-") as folder:
        for g in games:
            for s in seeds:
                results.append(await play_one(g, s, Path(folder), (options or {}).get(g), decisions))
                if log is not None:
                    log(row(results[-1]))
    return results


def report(results: list[Result]) -> list[str]:
    return [HEAD, *(row(r) for r in results)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(registry.game_ids()))
    parser.add_argument("--seed", default="clicks-1", help="the first seed")
    parser.add_argument("--seeds", type=int, default=1, help="seeded games of each game")
    parser.add_argument("--option", action="append", default=[], help="game:name=value, e.g. buccaneer:round_limit=50")
    args = parser.parse_args(argv)
    options: dict[str, dict[str, str]] = {}
    for item in args.option:
        game_id, _, pair = item.partition(":")
        name, _, value = pair.partition("=")
        options.setdefault(game_id, {})[name] = value
    logging.getLogger("discord").setLevel(logging.WARNING)
    seeds = [args.seed if k == 0 else f"{args.seed}.{k}" for k in range(args.seeds)]
    print(HEAD, flush=True)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    asyncio.run(run(games, seeds, lambda line: print(line, flush=True), options))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
