"""One runner for the table commands: each command declares what it needs before its body runs, and
:func:`command` checks it, in this order:

1. the channel's table (its lobby or running table; with ``running``, a running game), else the ``missing``
   refusal (with ``in_lobby`` added when the channel's table has not started);
2. with ``host``, the right to run the table (its host or a moderator), else the ``not_host`` refusal naming
   the right (``right:{host}``);
3. with ``lock`` (the default), the table's lock (which loads a restored table for its first holder), and then,
   re-checked under the lock: with ``lobby``, that the table is still in its lobby, with ``over``, that the game
   still runs, else that refusal.

Refusals are named by their codes in :mod:`bot.host.messages`. The body then gets the table as its second argument: ``body(front, caller, table, *args)``. The runner also
turns an unexpected exception into a polite refusal and a log line (:func:`bot.host.api.guarded`)."""

from __future__ import annotations

import functools
import logging
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.host.api import Caller, Outputs
from bot.host.index import TableIndex
from bot.host.messages import refuse, say
from bot.host.table import Table

log = logging.getLogger("parley.tables")

#: the codes of the refusals (bot.host.messages) when the channel lacks the table a command needs
NO_TABLE = "no_table"
NO_TABLE_OPEN = "no_table_open"
NO_GAME = "no_game"


class Front(Protocol):
    """What the runner needs of the host it serves: the tables, and the error count :func:`guarded` keeps."""

    index: TableIndex
    internal_errors: int


def may_run(t: Table, caller: Caller) -> bool:
    """Whether the caller may run the table: add AI players, start, end, kick, hand it on."""
    return caller.moderator or caller.user_id == t.host_id


def guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Turn an unexpected exception into a polite refusal and a log line (type and traceback only: an
    exception message may quote a secret action)."""

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the transport must always get an answer
            self.internal_errors += 1
            log.error(
                "internal error in %s: %s\n%s",
                method.__name__,
                type(exc).__name__,
                "".join(traceback.format_tb(exc.__traceback__)),
            )
            return refuse("internal_error")

    return wrapper


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
                return Outputs(ok=False, reply=say(missing) + (say(in_lobby) if t is not None and in_lobby else ""))
            if host is not None and not may_run(t, caller):
                return refuse("not_host", what=say(f"right:{host}"))
            if not lock:
                return await body(front, caller, t, *args, **kwargs)
            async with t.lock:
                if lobby is not None and t.status != "lobby":
                    return refuse(lobby)
                if over is not None and t.status != "running":
                    return refuse(over)
                return await body(front, caller, t, *args, **kwargs)

        return guarded(run)

    return wrap
