"""Every refusal the table host says to a player, and its reminders to act, in one place: a code and its template.

The host's modules say ``say("seat_taken", seat=3, free="1, 2")`` and never hold the words themselves
(``tests/host/test_messages.py`` fails on a refusal written anywhere else in ``bot/host/``). A wording changes
here, once, for every place that uses it; a translation would replace :data:`MESSAGES`. The values are filled in
with :meth:`str.format`, so a template names each one (``{seat}``); a value that quotes a player's input is
defanged by the caller first.

The game's own reasons are the engines' (their ``refuse`` and :mod:`rules.refusals`): "not your turn" is said
once for every game and the host, in the wording of :func:`rules.refusals.not_your_turn`.
"""

from __future__ import annotations

from typing import Any

from bot.host.api import Outputs
from rules import refusals

MESSAGES: dict[str, str] = {
    # -- finding the table (bot.host.commands) -----------------------------------------------------------------
    "no_table": "There is no table in this channel.",
    "no_table_open": "There is no table in this channel. Open one with /table open.",
    "no_game": "No game is running in this channel.",
    "still_in_lobby": " The table is still in its lobby.",
    "not_host": "Only the table's host or a moderator can {what}.",
    # what only the host or a moderator may do, as ``not_host`` names it
    "right:kick": "kick a player",
    "right:unkick": "let a kicked member back",
    "right:hand_on": "hand the table on",
    "right:add_ai": "add AI players",
    "right:remove_ai": "remove AI players",
    "right:start": "start the game",
    "right:end": "end the table",
    "game_over": "This game is over.",
    "already_started": "This game has already started.",
    "remove_ai_in_lobby": "AI seats can only be removed in the lobby; use /table join to take one over.",
    "internal_error": "Something went wrong inside Parley; nothing was lost. The error was logged.",
    # -- opening a table (bot.host.lobby) ----------------------------------------------------------------------
    "no_such_game": "There is no game '{game}'. Games: {games}.",
    "not_options": "Those are not {title} options; pick them from the lists.",
    "open_needs_moderator": "Only moderators or the server's host role may open a table here. Ask one of them.",
    "host_without_seat": "Only moderators may host a table without playing at it; open it with a seat, or ask one of"
    " them.",
    "channel_has_table": "This channel already has a table. Use /table status to see it, or open one in another"
    " channel.",
    # -- seats (bot.host.lobby) --------------------------------------------------------------------------------
    "seat_range": "Seats go from 1 to {seats}.",
    "seat_taken": "Seat {seat} is taken; free seats: {free}.",
    "table_full": "The table is full ({seats} seats).",
    "already_seated": "You already have seat {seat}.",
    "kicked_cannot_join": "You were removed from this table, so you cannot sit at it again while its game runs; a"
    " moderator can let you back with /table unkick.",
    "played_another_seat": "You played {mine} in this game and someone else plays it now; a player never takes"
    " another seat (its hand is not theirs to see), so you can watch.",
    "only_your_old_seat": "You played {mine} in this game, so it is the only seat you may take: another seat's hand"
    " is not yours to see.",
    "seat_not_free": "Seat {seat} is not free. Free seats: {free}.",
    "every_seat_taken": "The game is running and every seat is taken; you can watch.",
    "no_seat": "You have no seat at this table.",
    # -- kicks and hosts (bot.host.lobby) ----------------------------------------------------------------------
    "not_a_member": "That is not a member of this server.",
    "kick_yourself": "You cannot kick yourself; /table leave gives up your seat.",
    "already_kicked": "{who} is already kicked from this table; /table unkick lets them back.",
    "not_kicked": "{who} is not kicked from this table.",
    "moderators_kick": "A moderator kicked {who}; only a moderator can let them back.",
    "already_hosts": "{who} already hosts this table.",
    "kicked_cannot_host": "{who} is kicked from this table; /table unkick first.",
    "host_must_be_seated": "The table can only be handed to a player seated at it.",
    # -- AI seats and the start (bot.host.lobby) ---------------------------------------------------------------
    "ai_levels": "AI levels: {levels}.",
    "ai_seconds": "An AI may think from {low:g} to {high:g} seconds a decision.",
    "add_ai_in_lobby": "AI seats are added in the lobby, before /table start.",
    "no_ai_seat": "There is no AI seat to remove.",
    "too_few_players": "{why} Join, or add an AI with /table ai add.",
    # -- moves (bot.host.turns) --------------------------------------------------------------------------------
    "board_out_of_date": "This board is out of date; here is the current one (move {n}).",
    "no_seat_whose_turn": "You have no seat at this table. It's {names}'s turn.",
    "then": "{why} {then}",
    "too_long": "That is too long to be an action ({n} characters).",
    "not_legal_now": "`{action}` is not a legal action right now.",
    "nothing_to_undo": "There is nothing of yours to undo in this turn.",
    "undo_refused": "Your last action can't be taken back: {title} lets you take back only some steps, and none that"
    " drew a card or showed something hidden.",
    # -- a board's optional actions (bot.host.turns, bot.host.reactions) ---------------------------------------
    "moved_on": "The game has moved on; the newest board post shows what is open now.",
    "not_offered": "That button is not one this board offers; the newest board post shows what is open now.",
    "only_they_may": "Only {names} may {label} now.",
    "moved_on_already": "The game has moved on already.",
    "nothing_to_let_stand": "There is nothing for you to let stand right now.",
    # -- reading a table (bot.host.reading, bot.host.direct) ---------------------------------------------------
    "no_history": "No table has been played in this channel yet.",
    "no_board_to_zoom": "There is no board to zoom into in this channel.",
    "zoom_failed": "I couldn't draw the close-up; the board post still shows everything.",
    "no_game_anywhere": "You have no game running. `/hand` in a table's channel shows your hand there.",
    "served_elsewhere": "I can't read that table from DMs (another Parley process serves its server). Use `/hand` or"
    " the 🃏 My hand button in {channels}.",
    # -- settings (bot.host.guild) -----------------------------------------------------------------------------
    "config_needs_admin": "Only members with Manage Server can change Parley's settings.",
    "host_role": "The host role must be one of this server's roles, or none.",
    "on_or_off": "{setting} is on or off.",
    "turn_limit": "The turn time limit must be from {low} minute to {high:,} minutes ({days} days).",
    "unknown_setting": "Unknown setting '{key}'; settings: {settings}.",
    # -- prompts to act ------------------------------------------------------------------------------------------
    "reminder": "⏳ {name}, it's your turn at the {title} table (table {table}); {left} left.",
    "your_view": "Your seat's private view:",
    "game_begins_view": "The game begins. Your private view:",
}


def say(code: str, **values: Any) -> str:
    """The message ``code`` with its ``values`` filled in."""
    return MESSAGES[code].format(**values)


def refuse(code: str, **values: Any) -> Outputs:
    """A refusal to the caller: the message ``code``, and nothing else happens."""
    return Outputs(ok=False, reply=say(code, **values))


def not_your_turn(names: list[str]) -> str:
    """An action of a seat that owes nothing: the one wording every game and the host use."""
    return refusals.not_your_turn(names).message
