"""Flagon's action text: reading what a person types (``parse``: squares upper-case, everything else lower-case)
and the words a picker shows for an action (``label``, ``group``, ``describe``)."""

from __future__ import annotations

import re
from typing import Any

from rules.core import IllegalAction, normalize_text
from rules.flagon.cards import CARD, CHAR_NAME, card_name


def parse(text: str) -> str:
    action = normalize_text(text)
    if not action:
        raise IllegalAction("bad_syntax", "Type an action, for example `plan monk step`, `to H5` or `skip`.")
    return re.sub(r"\b([a-o])(\d{1,2})\b", lambda m: m.group(1).upper() + m.group(2), action)


def label(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
        name, time, text = CARD[words[2]]
        return f"{name} ({time}): {text}"
    if words[0] == "pick" and len(words) == 2:
        return CHAR_NAME.get(words[1], action)
    pend = view.get("pending") or {}
    if pend.get("card") and words[0] in ("to", "at", "aim", "shove", "skip"):
        return f"{card_name(pend['card'])}: {action}"
    return action

def group(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if words[0] == "to" and len(words) == 2:
        # Dash and Shadow Dash can offer more than a menu holds: one menu per row
        return f"to row {words[1][1:]}"
    return words[0]


def describe(view: dict[str, Any], action: str) -> str:
    words = action.split()
    if words[0] == "plan" and len(words) == 3 and words[2] in CARD:
        name, time, text = CARD[words[2]]
        return f"{name} (time {time}): {text}"[:100]
    pend = view.get("pending") or {}
    if pend.get("card") in CARD and words[0] in ("to", "at", "aim", "shove", "skip", "face", "take"):
        name, time, text = CARD[pend["card"]]
        return f"{name}: {text}"[:100]
    return ""
