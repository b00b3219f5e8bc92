"""Cartagena's action text: reading what a person types (``parse``), the canonical form, and the words a picker
shows for an action (``label``, ``describe``).

The canonical forms (docs/games/cartagena.md#the-action-language): ``forward <from> <symbol>``, ``back <from>``,
``end`` and ``pass``, where ``<from>`` is ``start``, ``sloop`` or a space number.
"""

from __future__ import annotations

from typing import Any

from rules.cartagena.board import (
    BY_LETTER,
    SLOOP,
    SPACES,
    START,
    SYMBOLS,
    back_target,
    forward_target,
    occupancy_from_view,
    position_name,
    position_word,
)
from rules.core import Action, IllegalAction, normalize_text

SYNTAX_HINT = "say e.g. `forward 12 key`, `forward start skull`, `back 14`, `back sloop`, `end` or `pass`"

#: a decoded action: (kind, position, symbol); position and symbol are None where the kind has none
Decoded = tuple[str, int | None, str | None]


def decode(text: str) -> Decoded:
    """Read an action typed by a person or stored in a log; raises ``bad_syntax``.

    Accepts the canonical forms in any case and spacing, and a symbol's letter for its name."""
    words = normalize_text(text).split()
    if words in (["end"], ["end", "turn"]):
        return ("end", None, None)
    if words == ["pass"]:
        return ("pass", None, None)
    if len(words) == 3 and words[0] == "forward":
        symbol = BY_LETTER.get(words[2], words[2])
        if symbol in SYMBOLS:
            pos = _position(words[1])
            if pos is not None:
                return ("forward", pos, symbol)
    if len(words) == 2 and words[0] == "back":
        pos = _position(words[1])
        if pos is not None:
            return ("back", pos, None)
    raise IllegalAction("bad_syntax", f"'{normalize_text(text)}' is not a Cartagena action; {SYNTAX_HINT}.")


def read(action: Action) -> Decoded:
    """A canonical action (one ``legal_actions`` listed) taken apart without the checks ``decode`` makes."""
    words = action.split(" ")
    if len(words) == 1:
        return (words[0], None, None)
    pos = _position(words[1])
    return (words[0], pos, words[2] if len(words) == 3 else None)


def _position(word: str) -> int | None:
    if word == "start":
        return START
    if word == "sloop":
        return SLOOP
    if word.isdigit() and 1 <= int(word) <= SPACES:
        return int(word)
    return None


def encode(kind: str, pos: int | None = None, symbol: str | None = None) -> Action:
    """The canonical text of a decoded action."""
    if kind == "forward":
        return f"forward {position_word(pos)} {symbol}"
    if kind == "back":
        return f"back {position_word(pos)}"
    return kind


def parse(text: str) -> Action:
    return encode(*decode(text))


def label(view: dict[str, Any], action: Action) -> str:
    """``forward 4 skull → 11``, ``back 20 → 15 (+2)``: the landing square computed from the view."""
    try:
        kind, pos, symbol = decode(action)
    except IllegalAction:
        return action
    if kind == "forward" and pos != SLOOP:
        target = forward_target(view["path"], occupancy_from_view(view), pos, symbol)
        return f"{action} → {position_name(target)}"
    if kind == "back":
        occ = occupancy_from_view(view)
        target = back_target(occ, pos)
        if target is not None:
            return f"{action} → {target} (+{occ[target]})"
    return action


def describe(view: dict[str, Any], action: Action) -> str:
    words = action.split()
    if len(words) == 3 and words[0] == "forward" and words[2] in SYMBOLS:
        return f"{words[2].capitalize()} card: your pirate on {words[1]} runs to the next free {words[2]} space."
    return ""
