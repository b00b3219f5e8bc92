"""One runner for the table commands: each command declares what it needs before its body runs, and
:func:`command` checks it, in this order:

1. the channel's table (its lobby or running table; with ``running``, a running game), else the ``missing``
   refusal (with ``in_lobby`` added when the channel's table has not started);
2. with ``host``, the right to run the table (its host or a moderator), else "Only the table's host or a
   moderator can {host}.";
3. with ``lock`` (the default), the table's lock (which loads a restored table for its first holder), and then,
   re-checked under the lock: with ``lobby``, that the table is still in its lobby, with ``over``, that the game
   still runs, else that refusal.

The body then gets the table as its second argument: ``body(front, caller, table, *args)``. The runner also
turns an unexpected exception into a polite refusal and a log line (:func:`bot.host.api.guarded`)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.host.api import Caller, Outputs, guarded
from bot.host.index import TableIndex
from bot.host.table import Table

NO_TABLE = "There is no table in this channel."
NO_TABLE_OPEN = "There is no table in this channel. Open one with /table open."
NO_GAME = "No game is running in this channel."


class Front(Protocol):
    """What the runner needs of the host it serves: the tables, and the error count :func:`guarded` keeps."""

    index: TableIndex
    internal_errors: int


def may_run(t: Table, caller: Caller) -> bool:
    """Whether the caller may run the table: add AI players, start, end, kick, hand it on."""
    return caller.moderator or caller.user_id == t.host_id


def refused(reply: str) -> Outputs:
    return Outputs(ok=False, reply=reply)


def command(
    *,
    missing: str = NO_TABLE,
    running: bool = False,
    in_lobby: str = "",
    host: str | None = None,
    lock: bool = True,
    lobby: str | None = None,
    over: str | None = None,
) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """The preconditions of a table command (see the module's docstring), checked before its body runs."""

    def wrap(body: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(body)
        async def run(front: Front, caller: Caller, *args: Any, **kwargs: Any) -> Any:
            t = front.index.active(caller.channel_id)
            if t is None or (running and (t.status != "running" or t.state is None)):
                return refused(missing + (in_lobby if t is not None else ""))
            if host is not None and not may_run(t, caller):
                return refused(f"Only the table's host or a moderator can {host}.")
            if not lock:
                return await body(front, caller, t, *args, **kwargs)
            async with t.lock:
                if lobby is not None and t.status != "lobby":
                    return refused(lobby)
                if over is not None and t.status != "running":
                    return refused(over)
                return await body(front, caller, t, *args, **kwargs)

        return guarded(run)

    return wrap
