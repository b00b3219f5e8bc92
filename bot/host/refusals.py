"""A refusal in the table's voice: one sentence of why, then one short list of what is allowed.

The list is taken from the caller's choices in the picker's order (``menu_order``), the same order ``moves`` and
autocomplete use. The actions nearest what was typed come first: those sharing the most leading words with it, else
the longest start letter for letter (``forwardstartpistol``), else the verb closest in spelling; when nothing is
near, none. Up to five of them are named; more are given as the first (how they are typed) and a count. Then every
other menu once: a small one action by action, a big one by its first action and a count. No action is named twice, and
a menu of thousands (Buccaneer's ride targets) is never sampled: it is counted, or narrowed by the words typed.
"""

from __future__ import annotations

import difflib
import re

from bot.host.api import Choice
from bot.host.outputs import clip, defang

#: the actions nearest what was typed are named one by one up to this many; more are counted
SHOWN = 5
#: what else is named after them: each action of a menu this small, else the menu with its count
SMALL_MENU = 8
OTHER_ITEMS = 10

# An engine's message often ends with its own list of allowed actions ("…; choose one of: a, b, c."). The host
# names what is allowed itself, once, so the engine's list is cut off at its introducing phrase.
_ENGINE_LIST = re.compile(
    r"(?:[;:.,]\s*|\s+[-–—]\s*)(?:please\s+)?(?:choose one of|choose from|try one of|try|allowed|you can play|"
    r"show one of|pick one of|say e\.g\.|say|e\.g\.|for example)(?=[\s:`]).*$",
    re.IGNORECASE | re.DOTALL,
)


def why(message: str) -> str:
    """The engine's reason as one sentence: made safe to send, its own list of allowed actions cut off."""
    text = defang(message).strip()
    cut = _ENGINE_LIST.sub("", text).strip()
    text = cut or text
    # one sentence: up to the first full stop that ends a sentence (not one inside `go 2.5` or a quoted action)
    match = re.search(r"(?<=[a-z0-9)`'\"])[.!?](?=\s+[A-Z])", text)
    if match:
        text = text[: match.end()]
    if text and text[-1] not in ".!?)`":
        text += "."
    return text


def _words(text: str) -> list[str]:
    return text.lower().split()


def nearest(choices: list[Choice], typed: str) -> tuple[list[Choice], str]:
    """The choices nearest to ``typed``, in the order given, and the words they share with it (the verb at
    least): the longest run of leading words typed that some action starts with; else the verb closest in
    spelling to the typed one. Empty when nothing is near."""
    words = _words(typed)
    for k in range(len(words), 0, -1):
        hits = [c for c in choices if _words(c.action)[:k] == words[:k]]
        if hits:
            return hits, " ".join(words[:k])
    # typed without spaces or with a slip: the actions sharing the longest start with it, letters only
    squashed = _squash(typed)
    best = max((_common(_squash(c.action), squashed) for c in choices), default=0)
    if best >= 3:
        hits = [c for c in choices if _common(_squash(c.action), squashed) == best]
        return hits, _shared_words(hits)
    verbs = list(dict.fromkeys(_words(c.action)[0] for c in choices if c.action.strip()))
    close = difflib.get_close_matches(words[0], verbs, n=1, cutoff=0.6) if words else []
    if close:
        return [c for c in choices if _words(c.action)[:1] == close], close[0]
    return [], ""


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _shared_words(choices: list[Choice]) -> str:
    """The leading words every one of ``choices`` shares (at least the first one's verb)."""
    first = _words(choices[0].action)
    k = len(first)
    for c in choices[1:]:
        words = _words(c.action)
        k = min(k, _common_words(first, words))
    return " ".join(first[: max(k, 1)])


def _common_words(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def allowed(choices: list[Choice], typed: str = "") -> str:
    """One short list of what is allowed, nearest to ``typed`` first; "" if nothing is."""
    if not choices:
        return ""
    hits, prefix = nearest(choices, typed)
    if len(hits) <= SHOWN:
        items = [f"`{c.action}`" for c in hits]
    else:
        # many near ones (every target of the typed verb): how one is typed and how many there are, never a sample
        items = [f"`{hits[0].action}` and {len(hits) - 1} more `{prefix or _shared_words(hits)} …`"]
    shown = {c.action for c in hits}
    menus: dict[str, list[Choice]] = {}
    for c in choices:
        if c.action not in shown:
            menus.setdefault(c.menu, []).append(c)
    # a small menu is named action by action, a big one by its first action (how it is typed) and a count
    others = [
        item
        for menu, cs in menus.items()
        for item in (
            [f"`{c.action}`" for c in cs]
            if len(cs) <= SMALL_MENU
            else [f"`{cs[0].action}` and {len(cs) - 1} more `{menu} …`"]
        )
    ]
    if len(others) > OTHER_ITEMS:
        others = [*others[:OTHER_ITEMS], f"{len(others) - OTHER_ITEMS} more"]
    if not items:
        return "You can play: " + ", ".join(others) + "."
    text = "You can play: " + ", ".join(items)
    if others:
        text += "; or " + ", ".join(others)
    return text + "."


def refusal(message: str, choices: list[Choice], typed: str = "") -> str:
    """The whole refusal: the engine's reason (one sentence) and, on its own line, what is allowed."""
    reason = why(message)
    listed = allowed(choices, typed)
    return clip(f"{reason}\n{listed}" if listed else reason)
