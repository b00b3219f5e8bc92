"""The command runner (bot/host/commands.py): each table command's preconditions, checked in the declared order
before its body runs, and every command of the front guarded."""

from __future__ import annotations

import inspect
from pathlib import Path

from bot.host.api import Outputs
from bot.host.commands import NO_GAME, command
from bot.host.index import TableIndex
from bot.host.table import Table
from bot.host.tables import TableHost
from bot.infra.store import SeatRow, Store
from tests.host.conftest import ANA, BEN, CHANNEL, GUILD


class Front:
    """The smallest host a command runs on: its tables and its error count."""

    def __init__(self, store: Store) -> None:
        self.index = TableIndex(store, lambda: 0.0)
        self.internal_errors = 0
        self.ran: list[tuple[str, bool]] = []

    @command(host="end", lobby="already_started")
    async def run_it(self, caller: object, t: Table) -> Outputs:
        self.ran.append(("run_it", t.lock.locked()))
        return Outputs(reply="ran")

    @command(missing=NO_GAME, running=True, in_lobby="still_in_lobby", lock=False)
    async def peek(self, caller: object, t: Table) -> Outputs:
        self.ran.append(("peek", t.lock.locked()))
        return Outputs(reply="peeked")

    @command()
    async def broken(self, caller: object, t: Table) -> Outputs:
        raise RuntimeError("a secret action")


def _table(status: str) -> Table:
    return Table(1, GUILD, CHANNEL, "toy", status, ANA.user_id, {}, "s", "a", [SeatRow(0, ANA.user_id, "Ana", None)], 0.0)


async def test_the_runner_checks_the_table_then_the_right_then_the_lobby_under_the_lock(tmp_path: Path) -> None:
    front = Front(Store(str(tmp_path / "unused.sqlite3")))
    assert (await front.run_it(ANA)).reply == "There is no table in this channel."
    front.index.add(_table("running"))
    assert (await front.run_it(BEN)).reply == "Only the table's host or a moderator can end the table."
    assert (await front.run_it(ANA)).reply == "This game has already started."
    front.index.tables[1].status = "lobby"
    assert (await front.run_it(ANA)).reply == "ran"
    assert front.ran == [("run_it", True)]


async def test_a_command_for_a_running_game_says_when_the_table_is_still_in_its_lobby(tmp_path: Path) -> None:
    front = Front(Store(str(tmp_path / "unused.sqlite3")))
    assert (await front.peek(BEN)).reply == "No game is running in this channel."
    front.index.add(_table("lobby"))
    assert (await front.peek(BEN)).reply == "No game is running in this channel. The table is still in its lobby."


async def test_a_failing_body_is_a_polite_refusal_and_an_error_counted(tmp_path: Path) -> None:
    front = Front(Store(str(tmp_path / "unused.sqlite3")))
    front.index.add(_table("lobby"))
    out = await front.broken(ANA)
    assert not out.ok and "secret" not in out.reply and front.internal_errors == 1


def test_every_command_of_the_front_is_guarded() -> None:
    # a coroutine of the front that answers a caller with Outputs goes through the runner or ``guarded``, so an
    # unexpected error always becomes a polite refusal
    unguarded = [
        name
        for name, method in vars(TableHost).items()
        if inspect.iscoroutinefunction(method)
        and "Outputs" in str(inspect.signature(method).return_annotation)
        and "list" not in str(inspect.signature(method).return_annotation)
        and not hasattr(method, "__wrapped__")
        and name != "start"
    ]
    assert unguarded == []
