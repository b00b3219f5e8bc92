"""Buttons and the action picker.

Every component is a ``DynamicItem`` whose custom id carries the table id and the state number it was drawn
for, so it keeps working after a restart (no view is held in memory) and a click on an out-of-date board or
picker is refused politely instead of acting. The picker is built generically from ``host.choices``: one
select menu per group of actions (at most 25 options each), up to four menus a page, Prev/Next between
pages, and a group too big for one menu becomes a menu of ranges that opens a second level. Only the page shown is
labelled (docs/architecture.md#5-transports); a pick may play several steps (``Choice.then``).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import discord

from bot.host.outputs import escape_name
from bot.host.reactions import offer_digest
from bot.host.tables import Caller, Choice, Outputs, TableHost, TableSummary
from bot.transports.discord.interact import caller_for, clip, defer, reply_files, say
from bot.transports.discord.seatlink import with_seat_link
from rules import registry

if TYPE_CHECKING:
    from bot.transports.discord.delivery import Delivery

log = logging.getLogger("parley.discord")

MENU_SIZE = 25  # Discord's limit of options in one select menu
MENUS_PER_PAGE = 4  # the fifth row holds the page buttons
STALE = "This board is out of date — the game has moved on. Use the newest board post, or `/table status`."
#: a pick or a page this picker never offered (a tampered client): refused with the picker as it is now
NOT_OFFERED = "That is not one of the choices this picker offered; here are your choices now."
#: buttons under a board post at most: Discord's 25 components, less the post's own three and "Let it stand"
MAX_OFFER_BUTTONS = 20
_RUN = re.compile(r"r(\d{1,6})-(\d{1,6})")


# -- the picker's layout, a pure function of the choices ---------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One option of a menu: an action (``a<index>``) or a range of a big group (``r<start>-<end>``)."""

    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True)
class Menu:
    """One select menu: its title and the values it offers (``a<index>``, ``r<start>-<end>``), a pure function of
    the choices; its entries (labels and descriptions) are worked out only when a page shows it."""

    title: str
    values: tuple[str, ...]
    choices: list[Choice] = field(repr=False, compare=False)
    #: a range's title where the game names its second level (``ride NE › 2–4 mi``), by value
    names: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entry(value) for value in self.values)

    def _entry(self, value: str) -> Entry:
        choices = self.choices
        if value.startswith("a"):
            return _action_entry(choices, int(value[1:]))
        start, end = (int(x) for x in value[1:].split("-"))
        first, last = choices[start].label, choices[end].label
        name = self.names.get(value, "")
        return Entry(
            _short(name or f"{first} … {last}"),
            value,
            _short(f"{end - start + 1} choices" + (f": {first} … {last}" if name else "")),
        )


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _action_entry(choices: list[Choice], index: int) -> Entry:
    choice = choices[index]
    # what a card does, when the game says (Discord shows it under the label); else the text /play takes
    description = choice.description or (choice.action if choice.label != choice.action else None)
    return Entry(_short(choice.label), f"a{index}", _short(description) if description else None)


def menus_for(choices: list[Choice]) -> list[Menu]:
    """Menus in the order of ``choices`` (the host's ``menu_order``: each menu and second level contiguous). Reads
    each choice's menu only: labels are read for the menus a page shows (:attr:`Menu.entries`)."""
    groups: dict[str, list[int]] = {}
    for index, choice in enumerate(choices):
        groups.setdefault(choice.menu, []).append(index)
    menus: list[Menu] = []
    for group, indices in groups.items():
        if len(indices) <= MENU_SIZE:
            menus.append(Menu(group, tuple(f"a{i}" for i in indices), choices))
            continue
        # Second level: the game's own second-level names (a direction's distances) where it gives them,
        # each cut into runs of 25; the menu offers the runs.
        runs: list[tuple[str, list[int]]] = []
        for index in indices:
            name = choices[index].submenu
            if runs and runs[-1][0] == name and len(runs[-1][1]) < MENU_SIZE:
                runs[-1][1].append(index)
            else:
                runs.append((name, [index]))
        totals: dict[str, int] = {}
        for name, _ in runs:
            totals[name] = totals.get(name, 0) + 1
        values: list[str] = []
        names: dict[str, str] = {}
        parts: dict[str, int] = {}
        for name, run in runs:
            if len(run) == 1:
                # a second level holding one action costs a click for nothing: the action stands in its place
                values.append(f"a{run[0]}")
                continue
            value = f"r{run[0]}-{run[-1]}"
            values.append(value)
            if name:
                # a second-level name cut into runs of 25 says which part each run is, so no two entries read alike
                parts[name] = parts.get(name, 0) + 1
                names[value] = name + (f" ({parts[name]} of {totals[name]})" if totals[name] > 1 else "")
        for part in range(0, len(values), MENU_SIZE):
            menus.append(Menu(group, tuple(values[part : part + MENU_SIZE]), choices, names))
    return menus


def fingerprint(choices: list[Choice]) -> str:
    """A short digest of the offered actions in order: the menus' values index them, so a pick made on an older
    picker still means what its player saw as long as the digest of their current choices is the same."""
    text = "\n".join(" ".join((c.action, *c.then)) for c in choices)
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:8]


def page_count(menus: list[Menu]) -> int:
    return max(1, -(-len(menus) // MENUS_PER_PAGE))


def picker_view(table_id: int, state_no: int, choices: list[Choice], page: int = 0) -> discord.ui.View:
    """One page of the picker: its select menus plus Prev/Next when there are several pages."""
    menus = menus_for(choices)
    pages = page_count(menus)
    page = min(max(page, 0), pages - 1)
    view = discord.ui.View(timeout=None)
    first = page * MENUS_PER_PAGE
    digest = fingerprint(choices)
    for slot, menu in enumerate(menus[first : first + MENUS_PER_PAGE]):
        view.add_item(PickSelect(table_id, state_no, page, first + slot, menu, row=slot, digest=digest))
    if pages > 1:
        view.add_item(PageButton(table_id, state_no, page - 1, "◀ Prev", disabled=page == 0))
        view.add_item(PageButton(table_id, state_no, page + 1, "Next ▶", disabled=page >= pages - 1))
    return view


def run_view(table_id: int, state_no: int, choices: list[Choice], page: int, start: int, end: int) -> discord.ui.View:
    """The second level: one menu with the actions ``start..end`` of a big group, and a way back."""
    group = " ".join(filter(None, (choices[start].menu, choices[start].submenu)))
    menu = Menu(group, tuple(f"a{i}" for i in range(start, end + 1)), choices)
    view = discord.ui.View(timeout=None)
    view.add_item(PickSelect(table_id, state_no, page, 0, menu, row=0, digest=fingerprint(choices), run=start))
    view.add_item(PageButton(table_id, state_no, page, "◀ Back"))
    return view


def offered_values(choices: list[Choice], slot: int, run: int | None = None) -> set[str]:
    """The values the picker drawn from ``choices`` offered in its menu number ``slot``, or, for a second level,
    in the run of actions starting at index ``run`` that its parent menu offered: a pick is checked against these,
    so a tampered value is refused, never read. Reads the menus' values only, never a label."""
    menus = menus_for(choices)
    if run is None:
        return set(menus[slot].values) if 0 <= slot < len(menus) else set()
    for menu in menus:
        for value in menu.values:
            bounds = _RUN.fullmatch(value)
            if bounds is not None and int(bounds[1]) == run:
                return {f"a{i}" for i in range(run, int(bounds[2]) + 1)}
    return set()


def picker_text(summary: TableSummary | None, note: str = "", user_id: int | None = None, owed: str = "") -> str:
    head = f"{note}\n" if note else ""
    game = registry.get(summary.game_id).info.title if summary is not None else "the game"
    if summary is not None and user_id is not None and not _owes(summary, user_id):
        # a seat that owes nothing sees only its optional actions (a challenge)
        return clip(f"{head}**Not your turn in {game}, but this is open to you** — pick it below (or use `/play`).")
    duty = f": {owed}" if owed else ""  # what the game says this seat owes (Game.owed)
    return clip(f"{head}**Your move in {game}{duty}** — pick an action below (or type it with `/play`).")


def _owes(summary: TableSummary, user_id: int) -> bool:
    return any(s.user_id == user_id and s.ai_level is None and s.seat in summary.to_act for s in summary.seats)


def board_view(
    table_id: int,
    state_no: int,
    optional: list[tuple[str, str]] | None = None,
    *,
    turn: bool = True,
    decline: bool = False,
    web: tuple[str, str] | None = None,
) -> discord.ui.View:
    """The buttons under a board post: "Take your turn" (when someone must act), "My hand" and "Zoom" (a close-up);
    while seats that owe nothing may still act (a challenge), a button per such action and, if an AI waits for
    them, "Let it stand"; and with the web pages on, ``web``: a link to the table's page ("Watch")."""
    view = discord.ui.View(timeout=None)
    if turn:
        view.add_item(TurnButton(table_id, state_no))
    view.add_item(HandButton(table_id, state_no))
    view.add_item(ZoomButton(table_id, state_no))
    offer = list(optional or [])
    digest = offer_digest(offer)
    # each button carries only its index into the offer and the offer's digest (a bigger offer stays in the picker)
    for index, (_, label) in enumerate(offer[:MAX_OFFER_BUTTONS]):
        view.add_item(OfferButton(table_id, state_no, index, digest, label))
    if decline:
        view.add_item(StandButton(table_id, state_no))
    _web_link(view, web)
    return view


def zoom_view(table_id: int, state_no: int, web: tuple[str, str] | None = None) -> discord.ui.View:
    """The button under a board post nobody has to act on (a closed turn, the final board): a close-up; and with
    the web pages on, ``web``: a link to the table's page or its replay."""
    view = discord.ui.View(timeout=None)
    view.add_item(ZoomButton(table_id, state_no))
    _web_link(view, web)
    return view


def _web_link(view: discord.ui.View, web: tuple[str, str] | None) -> None:
    """A link button, ``(label, url)``: it opens the page in the browser, nothing reaches the bot."""
    if web is not None:
        view.add_item(discord.ui.Button(label=web[0], url=web[1], emoji="🌐"))


# -- shared checks ------------------------------------------------------------------------------------------
def _parts(interaction: discord.Interaction) -> tuple[TableHost, Delivery]:
    client: Any = interaction.client
    return client.host, client.delivery


def _current(host: TableHost, interaction: discord.Interaction, table_id: int, state_no: int) -> TableSummary | None:
    """The channel's table when the component still describes it, else None (stale)."""
    summary = host.table_for(interaction.channel_id or 0)
    if summary is None or summary.table_id != table_id or summary.status != "running":
        return None
    if summary.state_no != state_no:
        return None
    return summary


def waiting_text(summary: TableSummary | None, user_id: int | None = None) -> str:
    """Why the caller has nothing to pick: the game is over, they hold no seat (a spectator, or a player who
    left), or whom the table waits for."""
    if summary is not None and summary.status == "finished":
        return "The game is over — the summary is in the channel."
    if summary is None or summary.status != "running":
        return "There is no game running at this table."
    names = [escape_name(seat.name) for seat in summary.seats if seat.seat in summary.to_act]
    waiting = f"waiting for {', '.join(names)}" if names else "nobody has to act right now"
    if user_id is not None and not any(s.user_id == user_id and s.ai_level is None for s in summary.seats):
        return f"You have no seat at this table, so there is nothing for you to play — {waiting}."
    if not names:
        return "Nothing to do for you right now."
    return f"It's not your move — {waiting}."


async def _offer_picker(interaction: discord.Interaction, host: TableHost, caller: Caller, note: str = "") -> None:
    """Answer with a fresh picker for whatever the caller owes now (or say who we wait for)."""
    # The menus' values index the choices, so they must come from the state whose number the custom ids carry:
    # read the state number on both sides of the (awaited) choices and retry if a move slipped in between.
    for _ in range(3):
        summary = host.table_for(caller.channel_id)
        choices = await host.choices(caller, joined=True)
        again = host.table_for(caller.channel_id)
        if summary is None or again is None or again.state_no == summary.state_no:
            break
    if not choices or summary is None:
        waiting = waiting_text(summary, caller.user_id)
        text = f"{note}\n{waiting}" if note else waiting
        await _show(interaction, text, None)
        return
    await _show(
        interaction,
        picker_text(summary, note, caller.user_id, host.owed_for(caller)),
        picker_view(summary.table_id, summary.state_no, choices),
    )


async def _show(interaction: discord.Interaction, text: str, view: discord.ui.View | None) -> None:
    """Put the picker in the ephemeral message: a new one for a board button, an edit for the picker itself."""
    kwargs: dict[str, Any] = {"content": clip(text), "view": view}
    if (
        interaction.type is discord.InteractionType.component
        and interaction.message is not None
        and interaction.message.flags.ephemeral
    ):
        await interaction.edit_original_response(**kwargs)
    elif view is None:
        await say(interaction, text)
    else:
        await interaction.followup.send(clip(text), view=view, ephemeral=True)


# -- the components -----------------------------------------------------------------------------------------
class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parley:turn:(?P<t>\d+):(?P<s>\d+)"):
    """The "Take your turn" button: opens the ephemeral picker for the clicking player."""

    def __init__(self, table_id: int, state_no: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take your turn",
                style=discord.ButtonStyle.primary,
                emoji="🎲",
                custom_id=f"parley:turn:{table_id}:{state_no}",
            )
        )
        self.table_id = table_id
        self.state_no = state_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> TurnButton:
        return cls(int(match["t"]), int(match["s"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await defer(interaction)
        host, _ = _parts(interaction)
        try:
            if _current(host, interaction, self.table_id, self.state_no) is None:
                await say(interaction, STALE)
                return
            caller = await caller_for(interaction, host)
            await _offer_picker(interaction, host, caller)
        except Exception:
            log.exception("the turn button failed")
            await say(interaction, "Something went wrong on my side; `/play` still works.")


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parley:hand:(?P<t>\d+):(?P<s>\d+)"):
    """The "My hand" button: the caller's private view, ephemeral (always the current one, so never stale)."""

    def __init__(self, table_id: int, state_no: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.secondary,
                emoji="🃏",
                custom_id=f"parley:hand:{table_id}:{state_no}",
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> HandButton:
        return cls(int(match["t"]), int(match["s"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show_to_caller(
            interaction,
            "hand",
            # a My hand pressed in a DM (none carries one today) finds the player's table as /hand there does
            lambda host, caller: _hand_with_link(interaction, host, caller),
            "try `/hand`",
        )


class ZoomButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parley:zoom:(?P<t>\d+):(?P<s>\d+)"):
    """The "Zoom" button: an ephemeral full-resolution close-up of the current board around the last move (or,
    before any move, the caller's own pieces), from the public view only. Always the current board, never stale."""

    def __init__(self, table_id: int, state_no: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Zoom",
                style=discord.ButtonStyle.secondary,
                emoji="🔍",
                custom_id=f"parley:zoom:{table_id}:{state_no}",
            )
        )

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> ZoomButton:
        return cls(int(match["t"]), int(match["s"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show_to_caller(
            interaction, "zoom", lambda host, caller: host.zoom(caller), "the board post still shows everything"
        )


async def _hand_with_link(interaction: discord.Interaction, host: TableHost, caller: Caller) -> Outputs:
    """The caller's private view, with a link to their seat page when the tables have web pages."""
    out = await (host.hand(caller) if caller.guild_id else host.hand_from_dm(caller))
    _, delivery = _parts(interaction)
    return await with_seat_link(delivery.web_links, caller, out)


async def _show_to_caller(
    interaction: discord.Interaction,
    what: str,
    ask: Callable[[TableHost, Caller], Awaitable[Outputs]],
    instead: str,
) -> None:
    """A button that only shows the caller something (My hand, Zoom): the host's answer to ``ask``, ephemeral,
    with its picture; ``instead`` says what to do if it fails."""
    await defer(interaction)
    host, _ = _parts(interaction)
    try:
        caller = await caller_for(interaction, host)
        out = await ask(host, caller)
        await say(interaction, out.reply, files=reply_files(out))
    except Exception:
        log.exception("the %s button failed", what)
        await say(interaction, f"Something went wrong on my side; {instead}.")


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"parley:pick:(?P<t>\d+):(?P<s>\d+):(?P<p>\d+):(?P<k>\d+)(?::(?P<h>[0-9a-f]{8}))?(?::r(?P<r>\d+))?",
):
    """One menu of the picker. Picking an action plays it; picking a range opens the second level.

    Its custom id carries the :func:`fingerprint` of the choices it was drawn from (pickers posted before it
    existed have none): in a simultaneous phase another player's decision moves the table on, and a pick from
    a picker drawn just before still stands if the player's own choices are unchanged (the host checks that
    the player has not acted since). It also says which menu it is: number ``slot`` of the picker, or the
    second level of the run starting at action ``run``; a pick must be one of the values that menu offered
    (:func:`offered_values`)."""

    def __init__(
        self,
        table_id: int,
        state_no: int,
        page: int,
        slot: int,
        menu: Menu | None = None,
        row: int = 0,
        digest: str = "",
        run: int | None = None,
    ) -> None:
        entries = menu.entries if menu is not None else (Entry("…", "a0"),)
        title = menu.title if menu is not None else "actions"
        tail = (f":{digest}" if digest else "") + (f":r{run}" if run is not None else "")
        super().__init__(
            discord.ui.Select(
                custom_id=f"parley:pick:{table_id}:{state_no}:{page}:{slot}{tail}",
                placeholder=_short(f"{title} ({len(entries)})", 150),
                options=[
                    discord.SelectOption(label=e.label, value=e.value, description=e.description) for e in entries
                ],
                row=row,
            )
        )
        self.table_id = table_id
        self.state_no = state_no
        self.page = page
        self.slot = slot
        self.digest = digest
        self.run = run

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any) -> PickSelect:
        run = None if match["r"] is None else int(match["r"])
        return cls(int(match["t"]), int(match["s"]), int(match["p"]), int(match["k"]), digest=match["h"] or "", run=run)

    async def callback(self, interaction: discord.Interaction) -> None:
        host, delivery = _parts(interaction)
        await interaction.response.defer()
        try:
            await self._pick(interaction, host, delivery)
        except Exception:
            log.exception("the picker failed")
            await say(interaction, "Something went wrong on my side; `/table status` shows the current board.")

    def _same_choices(self, host: TableHost, interaction: discord.Interaction, choices: list[Choice]) -> bool:
        """The table moved on, but the player's options are exactly the ones this picker shows."""
        summary = host.table_for(interaction.channel_id or 0)
        return (
            bool(self.digest and choices)
            and summary is not None
            and summary.table_id == self.table_id
            and summary.status == "running"
            and fingerprint(choices) == self.digest
        )

    async def _pick(self, interaction: discord.Interaction, host: TableHost, delivery: Delivery) -> None:
        caller = await caller_for(interaction, host)
        values = (interaction.data or {}).get("values")  # type: ignore[union-attr]
        value = values[0] if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str) else ""
        choices = await host.choices(caller, joined=True)
        if _current(host, interaction, self.table_id, self.state_no) is None and not self._same_choices(
            host, interaction, choices
        ):
            await _offer_picker(interaction, host, caller, note=STALE)
            return
        if value not in offered_values(choices, self.slot, self.run):
            # only a value this very menu offered is read: anything else (a tampered client) is refused as such
            await _offer_picker(interaction, host, caller, note=NOT_OFFERED)
            return
        run = _RUN.fullmatch(value)
        if run is not None:
            start, end = int(run[1]), int(run[2])
            view = run_view(self.table_id, self.state_no, choices, self.page, start, end)
            owed = host.owed_for(caller)
            await _show(
                interaction, picker_text(host.table_for(caller.channel_id), user_id=caller.user_id, owed=owed), view
            )
            return
        index = int(value[1:])
        choice = choices[index]
        out = await host.play(caller, choice.action, state_no=self.state_no, then=choice.then, picked=True)
        if not out.ok:
            await _offer_picker(interaction, host, caller, note=out.reply)
            return
        await delivery.deliver(out, interaction.channel_id)
        note = out.reply or f"Played: {choice.label}"
        await _offer_picker(interaction, host, caller, note=note)


async def _board_call(
    interaction: discord.Interaction,
    table_id: int,
    state_no: int,
    call: Callable[[TableHost, Caller], Awaitable[Outputs]],
    failure: str,
) -> None:
    """A board button that acts at once: refused as stale on an old board, else the host's answer to the presser
    (ephemeral) and its posts to the channel."""
    await defer(interaction)
    host, delivery = _parts(interaction)
    try:
        if _current(host, interaction, table_id, state_no) is None:
            await say(interaction, STALE)
            return
        out = await call(host, await caller_for(interaction, host))
        if out.ok:
            await delivery.deliver(out, interaction.channel_id)
        await say(interaction, out.reply)
    except Exception:
        log.exception("a board button failed")
        await say(interaction, failure)


class OfferButton(
    discord.ui.DynamicItem[discord.ui.Button],
    # lenient on purpose: whatever index or digest a forged id carries, the host answers it (and refuses it)
    template=r"parley:offer:(?P<t>\d+):(?P<s>\d+):(?P<i>\d+):(?P<h>[^:]*)",
):
    """An optional action open to seats that owe nothing (a Buccaneer challenge), on the board post while it lasts:
    anyone may press it, and the host plays it for a seat that may take it or says who may. Its custom id is only
    an index into what the board offered and that offer's digest (:func:`bot.host.reactions.offer_digest`): the host
    reads the action from its own offer, so a forged id can name nothing else."""

    def __init__(self, table_id: int, state_no: int, index: int, digest: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=_short(label or "Act", 80),
                style=discord.ButtonStyle.danger,
                custom_id=f"parley:offer:{table_id}:{state_no}:{index}:{digest}",
            )
        )
        self.table_id = table_id
        self.state_no = state_no
        self.index = index
        self.digest = digest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> OfferButton:
        return cls(int(match["t"]), int(match["s"]), int(match["i"]), match["h"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _board_call(
            interaction,
            self.table_id,
            self.state_no,
            lambda host, caller: host.react(caller, self.index, state_no=self.state_no, digest=self.digest),
            "Something went wrong on my side; `/play` still works.",
        )


class ReactButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"parley:react:(?P<t>\d+):(?P<s>\d+):(?P<a>.+)"
):
    """An optional action's button on a board posted before :class:`OfferButton` (its custom id names the action):
    the host plays the action only if the board offers it now, and refuses anything else the same way."""

    def __init__(self, table_id: int, state_no: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Act", style=discord.ButtonStyle.danger, custom_id=f"parley:react:{table_id}:{state_no}:{action}"
            )
        )
        self.table_id = table_id
        self.state_no = state_no
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> ReactButton:
        return cls(int(match["t"]), int(match["s"]), match["a"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _board_call(
            interaction,
            self.table_id,
            self.state_no,
            lambda host, caller: host.react(caller, self.action, state_no=self.state_no),
            "Something went wrong on my side; `/play` still works.",
        )


class StandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parley:stand:(?P<t>\d+):(?P<s>\d+)"):
    """"Let it stand": the presser will not take the optional actions open to them, so an AI seat waiting for
    people's reactions may go on as soon as nobody else is left to decide."""

    def __init__(self, table_id: int, state_no: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Let it stand",
                style=discord.ButtonStyle.secondary,
                custom_id=f"parley:stand:{table_id}:{state_no}",
            )
        )
        self.table_id = table_id
        self.state_no = state_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> StandButton:
        return cls(int(match["t"]), int(match["s"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _board_call(
            interaction,
            self.table_id,
            self.state_no,
            lambda host, caller: host.let_stand(caller, state_no=self.state_no),
            "Something went wrong on my side; the game goes on by itself shortly.",
        )


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"parley:page:(?P<t>\d+):(?P<s>\d+):(?P<p>-?\d+)"):
    """Prev / Next / Back in the picker: redraws the picker at another page."""

    def __init__(self, table_id: int, state_no: int, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"parley:page:{table_id}:{state_no}:{page}",
                disabled=disabled,
                row=4,
            )
        )
        self.table_id = table_id
        self.state_no = state_no
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> PageButton:
        return cls(int(match["t"]), int(match["s"]), int(match["p"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host, _ = _parts(interaction)
        await interaction.response.defer()
        try:
            caller = await caller_for(interaction, host)
            summary = _current(host, interaction, self.table_id, self.state_no)
            if summary is None:
                await _offer_picker(interaction, host, caller, note=STALE)
                return
            choices = await host.choices(caller, joined=True)
            if not choices:
                await _show(interaction, waiting_text(summary, caller.user_id), None)
                return
            if not 0 <= self.page < page_count(menus_for(choices)):
                await _offer_picker(interaction, host, caller, note=NOT_OFFERED)  # a page no picker offered
                return
            await _show(
                interaction,
                picker_text(summary, user_id=caller.user_id, owed=host.owed_for(caller)),
                picker_view(self.table_id, self.state_no, choices, self.page),
            )
        except Exception:
            log.exception("the picker page button failed")
            await say(interaction, "Something went wrong on my side; `/play` still works.")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    TurnButton,
    HandButton,
    ZoomButton,
    PickSelect,
    PageButton,
    OfferButton,
    ReactButton,
    StandButton,
)

#: the answer to a component whose custom id none of :data:`DYNAMIC_ITEMS` reads (a forged or mangled id): said
#: instead of Discord's bare "This interaction failed", the same whatever the id holds
UNKNOWN_COMPONENT = "I don't know that button or menu — use the buttons of the newest board post, or `/table status`."


def known_component(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component interaction to one of the bot's items: its custom id fits an item's
    template and the message carries a component of that type with that id (discord.py drops any other)."""
    data: Any = interaction.data or {}
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or interaction.message is None:
        return False
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS):
        return False
    view = discord.ui.View.from_message(interaction.message, timeout=None)
    return any(
        getattr(c, "custom_id", None) == custom_id and c.type.value == kind for c in view.walk_children()
    )


async def answer_unknown_component(interaction: discord.Interaction) -> None:
    """Every component interaction arrives here too (``on_interaction``): one that no item reads gets a polite
    ephemeral line, since nothing else would answer it."""
    if interaction.type is not discord.InteractionType.component or known_component(interaction):
        return
    # the id is the sender's: it is never logged nor echoed
    log.info("answered a component interaction no item reads")
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(UNKNOWN_COMPONENT, ephemeral=True)
    except discord.HTTPException:
        pass  # the interaction expired: nobody is left to tell
