"""The host's texts as a terminal shows them: Discord's markup taken out, and the words that name Discord's
controls (buttons under the board, slash commands, DMs) turned into the terminal's own commands.

The host writes for Discord (bot/host/outputs.py): bold, subtext, inline code, escaped names, mentions. A terminal
prints characters as they are, so every text the terminal transport prints goes through :func:`for_terminal`.
"""

from __future__ import annotations

import re
from datetime import datetime

#: Discord's controls and where the terminal has them, in the order they are tried (longest phrases first)
_WORDINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        # "may `challenge` (the **Challenge** button under the board)": the command is named already
        (r"\s*\(the \**Challenge\** button under the board\)", ""),
        (r"the \**Challenge\** button under the board", "`challenge`"),
        (r"[Uu]se /hand or the “My hand” button to see your private view here\.", "Type `hand` to see your private view."),
        (r"the 🃏 My hand button", "`hand`"),
        (r"Your DM picture", "Your private picture (`hand`)"),
        (r"`/table status` shows the board", "`board` shows it"),
        (r"`?/table status`?", "`board`"),
        (r"`?/table history`?", "`history`"),
        (r"`?/table end`?", "`quit`"),
        (r"`?/hand`?", "`hand`"),
        (r"`?/rules`?", "`rules`"),
        (r"`/play ([^`]+)`", r"`\1`"),
        (r"\bDMs\b", "private messages"),
        (r"\bDM\b", "private message"),
        (r"\bthe board post\b", "the board"),
        (r"\b(?:in|to|from) this channel\b", "here"),
        (r"\bthe channel\b", "the table"),
    )
)

#: inline code and code blocks: their text is shown in quotes and never read as markup
_CODE = re.compile(r"```(?:[a-z]*\n)?(.*?)```|`([^`\n]+)`", re.DOTALL)
_SUBTEXT = re.compile(r"^-# ?", re.MULTILINE)
_HEADING = re.compile(r"^#{1,3} ", re.MULTILINE)
_QUOTE = re.compile(r"^>>?>? ", re.MULTILINE)
_PAIRED = re.compile(r"\*\*(.+?)\*\*|__(.+?)__|~~(.+?)~~|\|\|(.+?)\|\|", re.DOTALL)
_ITALIC = re.compile(r"(?<![\w*\\])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&\d+>")
_CHANNEL = re.compile(r"<#\u200b?\d+>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_EMOJI = re.compile(r"<a?(:\w+:)\d+>")
#: a backslash that keeps Discord from reading a character as markup (bot.host.outputs.escape_name)
_ESCAPED = re.compile(r"\\([\\*_~`|\[\]<>#+\-.)])")


def _markup(text: str, users: dict[int, str]) -> str:
    """Markup out of text that holds no code."""
    text = text.replace("\u200b", "")  # bot.host.outputs.defang breaks mentions with it: nothing to break here
    text = _SUBTEXT.sub("", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _LINK.sub(r"\1 (\2)", text)
    text = _USER.sub(lambda m: users.get(int(m.group(1)), "someone"), text)
    text = _ROLE.sub("the host role", text)
    text = _CHANNEL.sub("this table", text)
    text = _TIMESTAMP.sub(lambda m: datetime.fromtimestamp(int(m.group(1))).strftime("%Y-%m-%d %H:%M"), text)
    text = _EMOJI.sub(r"\1", text)
    while True:
        stripped = _PAIRED.sub(lambda m: next(g for g in m.groups() if g is not None), text)
        stripped = _ITALIC.sub(r"\1", stripped)
        if stripped == text:
            break
        text = stripped
    return _ESCAPED.sub(r"\1", text)


def for_terminal(text: str, users: dict[int, str] | None = None) -> str:
    """``text`` as the terminal prints it: Discord's controls named as terminal commands, no markup, and code
    (an action, a command) in single quotes. ``users`` names the users a mention may call."""
    for pattern, replacement in _WORDINGS:
        text = pattern.sub(replacement, text)
    users = users or {}
    out: list[str] = []
    last = 0
    for m in _CODE.finditer(text):
        out.append(_markup(text[last : m.start()], users))
        block, inline = m.group(1), m.group(2)
        out.append(block.rstrip("\n") if block is not None else f"'{inline}'")
        last = m.end()
    out.append(_markup(text[last:], users))
    return "".join(out)
