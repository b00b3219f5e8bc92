"""What a log line may hold: never a token, never a player's private text, at any level.

Parley's own log lines name tables, games and types, never a secret (``parley.*``). The libraries under it are
not so careful, above all at DEBUG: discord.py's ``discord.http`` logs every request's URL (an interaction's
token is part of its webhook URL) and body (the text of a DM, a picker's hand-based options), and
``discord.gateway`` logs every event it receives whole (an interaction's token, what a player typed). So every
record passes :class:`SafeRecords` on its way to the handler:

- a library's record keeps its message but not its arguments' contents: a number, a flag or a short word stays
  (a status code, a shard id, an event name); a gateway payload becomes its opcode and event name; a request
  body, a dict, a list, long or structured text becomes a note of its size (``<text withheld: 812 chars>``);
- every line, Parley's and the libraries', tracebacks included, is scrubbed of the bot token, of tokens in
  interaction and webhook URLs, of ``token`` fields and ``Authorization`` values.

A library's arguments are judged by their shape, not by knowing each of its log calls: a new library version
that logs a new payload is withheld all the same.
"""

from __future__ import annotations

import enum
import logging
import re
import sys
from collections.abc import Mapping
from typing import Any

#: the loggers whose lines are written as they are (only scrubbed): Parley's own
OURS = "parley"
#: a library's text argument longer than this, or spanning lines, or shaped like JSON, is withheld
SHORT = 80
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?\s'\"]+")
_TOKEN_FIELD = re.compile(r"""(["']?(?:token|access_token)["']?\s*[:=]\s*["']?)[^"',}\s]+""", re.I)
_AUTHORIZATION = re.compile(r"((?:Bot|Bearer)\s+)[A-Za-z0-9._\-]{20,}")
#: the shape of a Discord bot token (user id in base64, a timestamp, an HMAC), whichever token it is
_BOT_TOKEN = re.compile(r"\b[A-Za-z\d_\-]{20,}\.[A-Za-z\d_\-]{5,}\.[A-Za-z\d_\-]{20,}\b")


class SafeRecords(logging.Filter):
    """Makes every record safe to write (see the module's docstring). ``secrets``: exact strings to replace by
    ``[token]`` wherever they appear (the bot token of the settings)."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        ours = record.name == OURS or record.name.startswith(OURS + ".")
        text = record.getMessage() if ours else _library_message(record)
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
        if record.stack_info:
            text += "\n" + record.stack_info
        record.msg, record.args = self.scrub(text), None
        record.exc_info = record.exc_text = record.stack_info = None
        return True

    def scrub(self, text: str) -> str:
        """``text`` without any token this filter knows or recognises."""
        for secret in self.secrets:
            text = text.replace(secret, "[token]")
        text = _URL_TOKEN.sub(r"\1[token]", text)
        text = _TOKEN_FIELD.sub(r"\1[token]", text)
        text = _AUTHORIZATION.sub(r"\1[token]", text)
        return _BOT_TOKEN.sub("[token]", text)


def _library_message(record: logging.LogRecord) -> str:
    """A library's message with each argument reduced to what is safe to keep."""
    if not isinstance(record.msg, str):
        return safe_value(record.msg)
    if not record.args:
        return record.msg
    # logging turns a lone mapping argument into ``args`` itself (for "%(name)s" formats)
    args = record.args
    try:
        if isinstance(args, Mapping):
            if "%(" in record.msg:
                return record.msg % {k: safe_value(v) for k, v in args.items()}
            args = (args,)
        return record.msg % tuple(safe_value(a) for a in args)
    except (TypeError, ValueError, KeyError):
        return f"{record.msg} <arguments withheld>"


def safe_value(value: Any) -> str:
    """What of one log argument may be written: small scalars as they are, the rest described, not shown."""
    if value is None or isinstance(value, bool | int | float | enum.Enum):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes withheld>"
    if isinstance(value, BaseException):
        return type(value).__name__
    if isinstance(value, Mapping):
        if "op" in value:  # a gateway payload: what kind of event, never its data
            event = f" {value['t']}" if isinstance(value.get("t"), str) else ""
            return f"<gateway op {value['op']}{event}>"
        return f"<{len(value)} fields withheld>"
    if isinstance(value, list | tuple | set | frozenset):
        return f"<{len(value)} items withheld>"
    text = str(value) if _is_url(value) else value if isinstance(value, str) else None
    if text is None:
        return f"<{type(value).__name__}>"
    if _is_url(value) or (len(text) <= SHORT and "\n" not in text and not text.lstrip().startswith(("{", "["))):
        return text
    return f"<text withheld: {len(text)} chars>"


def _is_url(value: Any) -> bool:
    if type(value).__name__ == "URL":  # yarl.URL, as aiohttp and discord.py pass it
        return True
    return isinstance(value, str) and value.startswith(("http://", "https://", "ws://", "wss://")) and " " not in value


def configure(level: str, *secrets: str) -> None:
    """Readable logs on stderr at ``level``, every record made safe by :class:`SafeRecords`."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S"))
    handler.addFilter(SafeRecords(*secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
