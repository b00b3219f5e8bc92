"""Flagon's action text: reading what a person types (``parse``: squares upper-case, everything else lower-case)
and the words a picker shows for an action (``label``, ``group``, ``describe``)."""

from __future__ import annotations

import re
from typing import Any

from rules.core import IllegalAction, normalize_text
from rules.flagon.cards import CARD, CHAR_NAME, DRAGON


def parse(text: str) -> str:
    action = normalize_text(text)
    if not action:
        raise IllegalAction("bad_syntax", "Type an action, for example `plan monk step`, `to H5` or `skip`.")
    return re.sub(r"\b([a-o])(\d{1,2})\b", lambda m: m.group(1).upper() + m.group(2), action)


#: how a destination step moves the character, by card (docs/games/flagon.md#characters-and-cards)
_TO_VERB = {"step": "walk", "move": "walk", "dash": "walk", "shadow-step": "teleport", "shadow-dash": "teleport"}
#: what a target step's square holds that the card acts on, by card
_AT_THING = {"push-table": "table", "heave": "table", "pull-rug": "rug"}


def dragon_lock(view: dict[str, Any], char_id: str, card: str) -> str:
    """Why a Dragon card cannot work now, or "": locked until its character picks up the Flagon
    (docs/games/flagon.md#dragon-cards). Revealed while locked it fizzles, so every listing says so."""
    if DRAGON.get(char_id) != card:
        return ""
    char = next((c for c in view.get("chars") or [] if c.get("id") == char_id), None)
    if char is None or char.get("dragon") != "locked":
        return ""
    return f"locked until the {CHAR_NAME[char_id]} picks up the Flagon: revealed now, it fizzles"


def label(view: dict[str, Any], action: str) -> str:
    """The option itself, said once: a card's name and time (its effect is the description), a square with what
    stands on it; the card being played out is the picker's heading (``owed``), not repeated here."""
    words = action.split()
    if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
        name, time, _ = CARD[words[2]]
        locked = " · Dragon, locked" if dragon_lock(view, words[1], words[2]) else ""
        return f"{name} (time {time}){locked}"
    if words[0] == "pick" and len(words) == 2:
        return CHAR_NAME.get(words[1], action)
    pend = view.get("pending") or {}
    card = pend.get("card")
    if words[0] == "to" and len(words) == 2:
        here = _char_pos(view, pend.get("char"))
        if words[1] == here:
            return f"stay on {words[1]}"
        verb = _TO_VERB.get(card or "", "land")
        return f"{verb} to {words[1]}" if verb != "land" else f"land on {words[1]}"
    if words[0] == "at" and len(words) == 2:
        return f"{_thing_at(view, words[1], _AT_THING.get(card or ''))} on {words[1]}"
    if words[0] in ("aim", "shove", "face", "enter", "start") and len(words) == 2:
        return f"{words[0]} {words[1].upper()}" if words[0] in ("aim", "shove", "face") else action
    if words[0] == "take" and len(words) == 3:
        return f"take the {words[1]} on {words[2]}"
    if words[0] == "drop":
        held = _held_kind(view, pend.get("char"))
        return f"drop the {held}" if held else action
    if words[0] == "skip" and card:
        return "skip (no effect; the card's time is spent)"
    return action


def _char_pos(view: dict[str, Any], idx: Any) -> str | None:
    chars = view.get("chars") or []
    return chars[idx].get("pos") if isinstance(idx, int) and 0 <= idx < len(chars) else None


def _held_kind(view: dict[str, Any], idx: Any) -> str:
    chars = view.get("chars") or []
    held = chars[idx].get("held") if isinstance(idx, int) and 0 <= idx < len(chars) else None
    found = next((o for o in view.get("objects") or [] if o.get("id") == held), None)
    return found["kind"] if found else ""


def _thing_at(view: dict[str, Any], sq: str, kind: str | None) -> str:
    """What a target square holds, as a picker names it: a character, else the object the card wants there."""
    if kind is None:
        char = next((c for c in view.get("chars") or [] if c.get("pos") == sq and c.get("name")), None)
        if char is not None:
            return f"the {char['name']}"
    for o in view.get("objects") or []:
        if o.get("gone") or (kind is not None and o.get("kind") != kind):
            continue
        if sq == o.get("sq") or sq in (o.get("sqs") or []):
            return f"the {o['kind']}"
    return "the square"


def group(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if words[0] == "to" and len(words) == 2:
        # Dash and Shadow Dash can offer more than a menu holds: one menu per row
        return f"to row {words[1][1:]}"
    return words[0]


def describe(view: dict[str, Any], action: str) -> str:
    """What a card does (the picker's option description), never its name again: the label names it."""
    words = action.split()
    if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
        effect = CARD[words[2]][2]
        if dragon_lock(view, words[1], words[2]):
            return f"Fizzles until the {CHAR_NAME[words[1]]} picks up the Flagon. {effect}"[:100]
        return effect[:100]
    pend = view.get("pending") or {}
    if pend.get("card") in CARD and words[0] in ("to", "at", "aim", "shove", "skip", "face", "take", "drop"):
        return CARD[pend["card"]][2][:100]  # the card being played out, whose name the heading gives
    return ""
