"""The contract between the table host and its transports (Discord, the terminal): who calls, and what
comes back. Re-exported by :mod:`bot.host.tables`."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Caller:
    """Who is calling, from where. ``moderator`` is computed by the transport (Manage Channels, Manage Server
    or the server's configured host role); ``admin`` (Manage Server) gates ``config``."""

    guild_id: int
    channel_id: int
    user_id: int
    name: str
    moderator: bool = False
    admin: bool = False


@dataclass(frozen=True)
class BoardParts:
    """A board post's text in its parts, for a transport that lays a board out itself (the terminal prints only
    what it has not printed yet): the game, the move number, the turn's narration so far (unclipped, repeats not
    folded), what is owed now (the prompt, and what seats that owe nothing may still do) and the fine print the
    picture leaves to the message (its caption)."""

    title: str
    move: int
    lines: tuple[str, ...]
    owed: tuple[str, ...]
    caption: str


@dataclass
class Post:
    """One message. Posts with the same ``board_key`` replace (edit) the previous board post of that table."""

    text: str
    image: bytes | None = None
    filename: str = "board.png"
    mentions: list[int] = field(default_factory=list)
    buttons: bool = False
    state_no: int | None = None
    board_key: str | None = None
    table_id: int | None = None
    #: optional actions open to seats that owe nothing, ``(action, label)``: a button each (bot.host.reactions)
    optional: list[tuple[str, str]] = field(default_factory=list)
    #: an AI seat waits for those seats: a "Let it stand" button lets it go on
    decline: bool = False
    #: for a DM: how many of the same outputs' public posts come before the news it carries (None: after all)
    after: int | None = None
    #: only edit the earlier post with this ``board_key`` (the lobby post once the game is on); never post anew
    edit_only: bool = False
    #: a board post's text in its parts (None for any other post)
    parts: BoardParts | None = None


@dataclass
class Outputs:
    """What a transport delivers: an ephemeral reply to the caller, public posts to ``channel_id`` in order,
    and private posts (DMs) per user id. The game never waits on a DM."""

    ok: bool = True
    reply: str = ""
    reply_image: bytes | None = None
    #: a text too long for a message, sent to the caller with the reply as a file: (file name, UTF-8 text)
    reply_file: tuple[str, str] | None = None
    #: a board the reply shows the caller (/table status): the transport gives the reply that board's buttons
    reply_board: Post | None = None
    public: list[Post] = field(default_factory=list)
    private: list[tuple[int, Post]] = field(default_factory=list)
    channel_id: int | None = None
    #: ``(table id, seat)`` whose private view the reply shows (``/hand``): a transport may link to its seat page
    seat: tuple[int, int] | None = None
    # set by the transport once the public posts are out: work published after these outputs waits for it
    _posted: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False, compare=False)

    def delivered(self) -> None:
        """The transport calls this once it has delivered the public posts (whether or not each one succeeded)."""
        self._posted.set()

    async def wait_delivered(self, timeout: float) -> bool:
        """Wait until :meth:`delivered` was called, at most ``timeout`` seconds; whether it was."""
        try:
            await asyncio.wait_for(self._posted.wait(), timeout)
        except TimeoutError:
            return False
        return True


@dataclass(frozen=True)
class Choice:
    """One legal action for pickers and autocomplete. ``group`` is the game's picker menu, optionally with a
    second level after " › " (``ride NE › 2–4 mi``)."""

    action: str
    label: str
    group: str
    #: what the action does when it plays or chooses a card (``Game.describe``, at most 100 characters), else ""
    description: str = ""
    #: the same seat's actions a picker's pick plays right after ``action``, each if still legal (``Game.joins``)
    then: tuple[str, ...] = ()

    @property
    def menu(self) -> str:
        return self.group.partition(SUBMENU)[0] or "actions"

    @property
    def submenu(self) -> str:
        return self.group.partition(SUBMENU)[2]


SUBMENU = " › "


class LazyChoice(Choice):
    """A :class:`Choice` whose label and description are worked out when first read, by ``words(action)``: a picker
    reads them only for the options of the page it shows, and a Treasure Island move lists thousands of points to
    show 25 (the action and its menu are known at once: they decide what is offered and where)."""

    # plain attributes here, set once: a picker sorts and splits thousands of choices by menu
    menu: str = ""  # type: ignore[assignment]
    submenu: str = ""  # type: ignore[assignment]

    def __init__(self, action: str, group: str, words: Callable[[str], tuple[str, str]]) -> None:
        menu, _, submenu = group.partition(SUBMENU)
        # frozen: set as the dataclass's own __init__ does, in one go (thousands per picker)
        self.__dict__.update(action=action, group=group, then=(), _words=words, menu=menu or "actions", submenu=submenu)

    def _said(self) -> tuple[str, str]:
        said: tuple[str, str] | None = self.__dict__.get("_said_cache")
        if said is None:
            said = self._words(self.action)
            object.__setattr__(self, "_said_cache", said)
        return said

    @property  # type: ignore[override]
    def label(self) -> str:
        return self._said()[0]

    @property  # type: ignore[override]
    def description(self) -> str:
        return self._said()[1]


@functools.lru_cache(maxsize=256)  # a few dozen distinct submenus, sorted thousands of times per picker
def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that puts "2–4 mi" before "10–12 mi"."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part)


def menu_order(choices: list[Choice]) -> list[Choice]:
    """The choices regrouped so that every menu, and every second level of a menu, is one contiguous run (the
    picker addresses runs by index): menus in the order they first appear among the legal actions, second
    levels in natural order, the legal order kept within each."""
    first: dict[str, int] = {}
    for choice in choices:
        first.setdefault(choice.menu, len(first))
    return sorted(choices, key=lambda c: (first[c.menu], _natural(c.submenu)))


@dataclass(frozen=True)
class SeatInfo:
    """A seat as transports see it. ``ai_level`` is None for a human; a human seat whose player left or was
    kicked is played by an AI (``ai_level`` set) while ``user_id`` keeps the last human for narration."""

    seat: int
    name: str
    user_id: int | None
    ai_level: str | None
    reachable: bool = True


@dataclass(frozen=True)
class TableSummary:
    """A read-only summary of a channel's table for transports (no secret)."""

    table_id: int
    guild_id: int
    channel_id: int
    game_id: str
    status: str  # "lobby" | "running" | "finished" | "abandoned"
    host_id: int
    options: dict[str, str]
    seats: tuple[SeatInfo, ...]
    state_no: int
    to_act: tuple[int, ...]
