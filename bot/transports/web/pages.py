"""The HTML of every page, rendered on the server from a snapshot's cards (the pages work without JavaScript; a
little plain script, :file:`static/live.js` and :file:`static/replay.js`, makes them live and steppable).

Everything a player or a game wrote (names, narration, the fine print) is escaped here; the few Markdown marks the
host's texts use (``**bold**``, ``-#`` small print, ``code``) become tags after escaping. No inline script or style:
the Content-Security-Policy (:mod:`bot.transports.web.guard`) forbids both.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STATIC = Path(__file__).with_name("static")
#: the static files served, with their media types
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}


def _digest(name: str) -> str:
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]


#: a static file's address carries a digest of its content, so browsers may keep it for a year
VERSIONS = {p.name: _digest(p.name) for p in STATIC.iterdir() if p.suffix in STATIC_TYPES}


def static(name: str) -> str:
    return f"/static/{name}?v={VERSIONS[name]}"


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def md(line: str) -> str:
    """One line of the host's text as HTML: escaped, then its bold, code and small print marked."""
    small = line.startswith("-# ")
    text = esc(line[3:] if small else line)
    text = _CODE.sub(r"<code>\1</code>", _BOLD.sub(r"<strong>\1</strong>", text))
    return f'<small class="fine">{text}</small>' if small else text


def lines_html(lines: Iterable[str], tag: str = "p") -> str:
    return "".join(f"<{tag}>{md(line)}</{tag}>" for line in lines)


@dataclass(frozen=True)
class Meta:
    """What a shared link previews with (Discord, chat apps): never given for a private page."""

    title: str
    description: str
    url: str
    image: str | None


def page(title: str, body: str, *, kind: str, data: dict[str, str] | None = None, meta: Meta | None = None,
         scripts: tuple[str, ...] = (), header: str = "") -> str:
    """A whole page: the head (styles, icon, and for public pages the link preview), a header bar, ``body``."""
    og = ""
    if meta is not None:
        og = "".join(
            f'<meta property="{k}" content="{esc(v)}">'
            for k, v in (
                ("og:site_name", "Parley"),
                ("og:type", "website"),
                ("og:title", meta.title),
                ("og:description", meta.description),
                ("og:url", meta.url),
            )
        )
        if meta.image:
            og += (
                f'<meta property="og:image" content="{esc(meta.image)}">'
                '<meta property="og:image:type" content="image/png">'
                '<meta property="og:image:width" content="1100"><meta property="og:image:height" content="700">'
                f'<meta property="og:image:alt" content="{esc(meta.title)}">'
                '<meta name="twitter:card" content="summary_large_image">'
                f'<meta name="description" content="{esc(meta.description)}">'
            )
    attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in (data or {}).items())
    js = "".join(f'<script src="{static(s)}" defer></script>' for s in scripts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="dark light"><meta name="robots" content="noindex, nofollow">'
        f"<title>{esc(title)}</title>"
        f'<link rel="stylesheet" href="{static("parley.css")}">'
        f'<link rel="icon" href="{static("parley.svg")}" type="image/svg+xml">{og}{js}</head>'
        f'<body class="{kind}"{attrs}><header class="bar"><a class="brand" href="/">'
        f'<img src="{static("parley.svg")}" alt="" width="28" height="28"><span>Parley</span></a>{header}</header>'
        f"{body}<footer>Parley hosts pirate board games in Discord. This page shows only what every player at the"
        " table may see.</footer></body></html>"
    )


def _status(card: dict[str, Any]) -> str:
    return (
        f'<span class="game">{esc(card["title"])}</span>'
        f'<span id="status" class="pill {esc(card["status"])}">{esc(card["status_text"])}</span>'
    )


def _seats(card: dict[str, Any], mine: int | None = None) -> str:
    items = []
    for s in card["seats"]:
        cls = " ".join(c for c in ("acting" if s["acting"] else "", "you" if s["n"] == mine else "") if c)
        mark = '<span class="turn" aria-label="to act">▶</span>' if s["acting"] else ""
        ai = '<span class="tag">AI</span>' if s["ai"] else ""
        you = '<span class="tag you">you</span>' if s["n"] == mine else ""
        items.append(
            f'<li class="{cls}" data-seat="{s["n"]}">{mark}<span class="name">{esc(s["name"])}</span>{ai}{you}</li>'
        )
    return f'<ul id="seats" class="seats">{"".join(items)}</ul>'


def _moves(moves: list[dict[str, Any]]) -> str:
    items = "".join(
        f'<li data-n="{m["n"]}"><span class="mn">{m["n"]}</span><div class="ml">{lines_html(m["lines"])}</div></li>'
        for m in reversed(moves)
    )
    return f'<ol id="moves" class="moves">{items}</ol>'


def _board(card: dict[str, Any], img_id: str = "board", src: str | None = None, alt: str = "") -> str:
    src = src if src is not None else card["board"]
    if not src:
        return f'<figure class="board empty" id="{img_id}-box"><p>{esc(card["note"] or "No board yet.")}</p></figure>'
    alt = alt or f"The {card['title']} board after move {card['n']}"
    return (
        f'<figure class="board"><img id="{img_id}" src="{esc(src)}" alt="{esc(alt)}" width="1100" height="700">'
        "</figure>"
    )


def _state_block(card: dict[str, Any]) -> str:
    prompt = f'<p id="prompt" class="prompt"{"" if card["prompt"] else " hidden"}>{md(card["prompt"])}</p>'
    result = f'<div id="result" class="result"{"" if card["result"] else " hidden"}>{lines_html(card["result"])}</div>'
    note = f'<p id="note" class="note"{"" if card["note"] else " hidden"}>{esc(card["note"])}</p>'
    return prompt + result + note


def table_page(card: dict[str, Any], moves: list[dict[str, Any]], base: str, events: str, meta: Meta) -> str:
    """The live table page: board, whose turn and what is owed, seats, the fine print, the latest moves."""
    hidden = "" if card["n"] else " hidden"
    replay = (
        f'<p class="replay-link" id="replay"{hidden}><a class="button" href="{esc(base)}/replay">'
        "Step through the game ▸</a></p>"
    )
    body = (
        '<main class="layout">'
        f'<section class="main-col">{_state_block(card)}{_board(card)}{replay}</section>'
        '<aside class="side">'
        f'<section class="card"><h2>Seats</h2>{_seats(card)}</section>'
        f'<section class="card fine"{"" if card["caption"] else " hidden"} id="caption-box"><h2>On the table</h2>'
        f'<div id="caption">{lines_html(card["caption"])}</div></section>'
        f'<section class="card"><h2>Moves <span id="live" class="live" hidden>● live</span></h2>{_moves(moves)}'
        "</section>"
        f'<section class="card meta"><p>Options: {esc(card["options"] or "none")}</p></section>'
        "</aside></main>"
    )
    title = f'{card["title"]} · {card["status_text"]} · Parley'
    data = {"events": events, "n": str(card["n"])}
    return page(title, body, kind="table-page", data=data, meta=meta, scripts=("live.js",), header=_status(card))


def seat_page(card: dict[str, Any], mine: dict[str, Any], moves: list[dict[str, Any]], events: str) -> str:
    """A player's private page: their own picture and hand, the public board, seats and moves. No link preview."""
    turn = f"Your move: {mine['owed']}." if mine["owes"] else ""
    # the table's own prompt would say the same as "Your move" when this seat owes: it shows only otherwise
    public = dict(card, prompt="" if mine["owes"] else card["prompt"])
    body = (
        '<main class="layout">'
        '<section class="main-col">'
        f'<p id="yourturn" class="prompt mine"{"" if turn else " hidden"}>{esc(turn)}</p>'
        + _board(card, "mine", mine["picture"], "Your private view")
        + f'<section class="card private"><h2>Your seat</h2><p id="you" class="you">{esc(mine["you"])}</p>'
        f'<div id="summary">{lines_html(mine["summary"])}</div><div id="fine" '
        f'class="fine">{lines_html(mine["fine"])}</div>'
        "</section></section>"
        '<aside class="side">'
        f'<section class="card table-card"><h2>The table</h2>{_state_block(public)}{_board(card)}</section>'
        f'<section class="card"><h2>Seats</h2>{_seats(card, mine["seat"])}</section>'
        '<section class="card"><h2>Moves <span id="live" class="live" hidden>● '
        f'live</span></h2>{_moves(moves)}</section>'
        "<p class=\"private-note\">This page is yours alone: it shows your seat's secrets. Don't share its address or "
        "a screenshot. Leaving the table closes it.</p>"
        "</aside></main>"
    )
    data = {"events": events, "n": str(card["n"])}
    return page(f"Your seat · {card['title']} · Parley", body, kind="seat-page", data=data, scripts=("live.js",),
                header=_status(card))


def _icon(path: str) -> str:
    return f'<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="{path}"/></svg>'


#: the replay's step buttons, drawn (a font may lack ⏮ and ⏭)
ICONS = {
    "first": _icon("M6 5h2.5v14H6zM19 5v14L9 12z"),
    "prev": _icon("M17 5v14L6 12z"),
    "next": _icon("M7 5v14l11-7z"),
    "last": _icon("M15.5 5H18v14h-2.5zM5 5v14l10-7z"),
}


def replay_page(
    card: dict[str, Any],
    base: str,
    n: int,
    lines: list[str],
    action: str,
    seat: int | None,
    seat_names: list[tuple[int, str]],
    summary: list[str],
    meta: Meta,
) -> str:
    """The replay viewer at move ``n``: the board, the move's narration, steps as plain links (the script turns
    them into buttons, a scrubber and keys), and once the game is over a choice of whose view to follow."""
    total = card["n"]
    q = f"&seat={seat}" if seat is not None else ""

    def step(label: str, to: int, key: str, title: str, disabled: bool) -> str:
        off = ' aria-disabled="true"' if disabled else ""
        return (
            f'<a class="step" id="step-{key}" href="?n={to}{q}" title="{title}" aria-label="{title}"{off}>{label}</a>'
        )

    controls = (
        f'<div class="stepper"><p id="count" class="count">Move <b id="at">{n}</b> of {total}</p>'
        f'<input id="scrub" class="scrub" type="range" min="0" max="{total}" value="{n}" aria-label="Move" hidden>'
        '<nav class="controls" aria-label="Step through the game">'
        + step(ICONS["first"], 0, "first", "First (Home)", n == 0)
        + step(ICONS["prev"], max(0, n - 1), "prev", "Previous (←)", n == 0)
        + step(ICONS["next"], min(total, n + 1), "next", "Next (→)", n >= total)
        + step(ICONS["last"], total, "last", "Last (End)", n >= total)
        + "</nav></div>"
    )
    src = f"{base}/board/{n}.png" + (f"?seat={seat}" if seat is not None else "")
    views = ""
    if card["over"] and seat_names:
        links = [f'<a href="?n={n}"{" aria-current=page" if seat is None else ""}>Everyone</a>']
        links += [
            f'<a href="?n={n}&seat={s}"{" aria-current=page" if seat == s else ""}>{esc(name)}</a>'
            for s, name in seat_names
        ]
        views = f'<section class="card"><h2>Whose view</h2><p class="views">{" ".join(links)}</p></section>'
    hand = ""
    if seat is not None:
        whose = next((name for s, name in seat_names if s == seat), f"Seat {seat}")
        hand = (
            f'<section class="card private"><h2>{esc(whose)}: private view</h2>'
            f'<div id="summary">{lines_html(summary)}</div></section>'
        )
    said = lines_html(lines) if lines else "<p>The deal.</p>" if n == 0 else ""
    body = (
        '<main class="layout">'
        f'<section class="main-col">{_board(card, "board", src, f"The board after move {n}")}{controls}</section>'
        '<aside class="side">'
        f'<section class="card"><h2>Move <span id="title-n">{n}</span></h2><div id="lines">{said}</div>'
        f'<p id="action" class="action"{"" if action else " hidden"}>{esc(action)}</p></section>'
        f"{hand}{views}"
        f'<p class="back"><a href="{esc(base)}">← Back to the table</a></p>'
        "</aside></main>"
    )
    data = {
        "replay": f"{base}/replay.json" + (f"?seat={seat}" if seat is not None else ""),
        "board": f"{base}/board/",
        "seat": "" if seat is None else str(seat),
        "n": str(n),
        "total": str(total),
    }
    header = _status(card) + '<span class="pill replay">Replay</span>'
    return page(f"Replay · {card['title']} · Parley", body, kind="replay-page", data=data, meta=meta,
                scripts=("replay.js",), header=header)


def message_page(title: str, text: str, *, link: tuple[str, str] | None = None) -> str:
    """A short page that says one thing (a missing table, a link that no longer works, the front page)."""
    more = f'<p><a class="button" href="{esc(link[0])}">{esc(link[1])}</a></p>' if link else ""
    body = f'<main class="message"><section class="card"><h1>{esc(title)}</h1><p>{esc(text)}</p>{more}</section></main>'
    return page(f"{title} · Parley", body, kind="message-page")
