"""The log filter (bot/infra/logs.py) on the kinds of record the libraries write: a library's payloads are withheld by
shape, tokens are scrubbed from every line (tracebacks included), and Parley's own lines stay whole. The whole
game at DEBUG is tests/discord/test_log_secrets.py."""

from __future__ import annotations

import logging

from bot.infra.logs import SafeRecords

TOKEN = "MTA4NjQ1NzQ3NDQ1MTY4NzQ1Ng.GxYz12.abcdefghijklmnopqrstuvwxyz0123"  # the shape of a bot token


def shown(name: str, msg: object, *args: object, exc: BaseException | None = None) -> str:
    record = logging.LogRecord(name, logging.DEBUG, __file__, 1, msg, args or None, None)
    if exc is not None:
        try:
            raise exc
        except BaseException as raised:  # noqa: BLE001 - the record carries it
            record.exc_info = (type(raised), raised, raised.__traceback__)
    assert SafeRecords("configured-secret").filter(record)
    return logging.Formatter().format(record)


def test_a_librarys_request_keeps_its_method_route_and_status_but_not_its_body_or_token() -> None:
    body = '{"content": "You draw key, hat", "flags": 64}'
    url = "https://discord.com/api/v10/webhooks/4243/aW50ZXJhY3Rpb246MTIzNDU2Nzg5"
    line = shown("discord.http", "%s %s with %s has returned %s", "POST", url, body, 200)
    assert line == (
        f"POST https://discord.com/api/v10/webhooks/4243/[token] with <text withheld: {len(body)} chars> has returned "
        "200"
    )


def test_gateway_events_are_named_never_shown() -> None:
    event = {"op": 0, "t": "INTERACTION_CREATE", "s": 7, "d": {"token": "abc", "data": {"options": ["key"]}}}
    assert shown("discord.gateway", "For Shard ID %s: WebSocket Event: %s", 0, event) == (
        "For Shard ID 0: WebSocket Event: <gateway op 0 INTERACTION_CREATE>"
    )
    assert shown("discord.gateway", "Received %s", {"op": 11}) == "Received <gateway op 11>"
    assert shown("aiohttp.client", "data %s", ["a", "b"]) == "data <2 items withheld>"
    assert shown("discord.state", "a payload", {"content": "secret"}) == "a payload <arguments withheld>"
    assert shown("discord.state", {"content": "secret"}) == "<1 fields withheld>"


def test_tokens_are_scrubbed_from_every_line_and_traceback_whoever_logs_it() -> None:
    assert "[token]" in shown("parley.discord", "configured-secret")
    assert TOKEN not in shown("discord.client", "logging in with %s", TOKEN)
    assert shown("parley.x", "headers %s", f"Authorization: Bot {TOKEN}") == "headers Authorization: Bot [token]"
    line = shown("parley.discord", "command failed", exc=RuntimeError(f"https://x/interactions/1/{TOKEN}/callback"))
    assert "Traceback" in line and TOKEN not in line and "/interactions/1/[token]/callback" in line
    assert shown("discord.webhook", "%s", "{'token': 'abcdef123456'}") == "<text withheld: 25 chars>"
    assert shown("parley.discord", "saw {'token': 'abcdef123456'}") == "saw {'token': '[token]'}"


def test_parleys_own_lines_and_a_librarys_small_values_stay_readable() -> None:
    assert shown("parley.tables", "table %s finished (%s)", 12, "cartagena") == "table 12 finished (cartagena)"
    assert shown("discord.client", "Dispatching event %s", "interaction") == "Dispatching event interaction"
    assert shown("discord.gateway", "Shard ID %s has sent the IDENTIFY payload.", 0) == (
        "Shard ID 0 has sent the IDENTIFY payload."
    )
    assert shown("discord.gateway", "closed with %s", ConnectionResetError("peer said secret")) == (
        "closed with ConnectionResetError"
    )
