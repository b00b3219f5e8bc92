"""Plain-text pieces of the host's messages, built only from public events and views (or, for private
messages, from the one seat's own view)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rules.core import Event, Game, Outcome

#: board posts show at most this many narration lines of the current turn (the oldest are dropped)
MAX_TURN_LINES = 15
#: Discord's message limit is 2000 characters; keep a margin for mentions the transport adds
MAX_TEXT = 1900


def seat_label(game: Game, seat: int, view: dict[str, Any] | None = None) -> str:
    """The seat as people see it: the game's current name for it (colour, home port, characters) from the public
    ``view`` when one is given, else its fixed name, else ``seat N`` (1-based)."""
    if view is not None:
        name = game.seat_name(view, seat)
        if name:
            return name
    names = game.info.seat_names
    return names[seat] if seat < len(names) else f"seat {seat + 1}"


def player_label(player: str, seat_name: str) -> str:
    """One name per seat, everywhere: the player's name and the game's name for the seat, "Ana (Red)"."""
    return f"{player} ({seat_name})" if seat_name else player


def engine_names(game: Game, views: list[dict[str, Any]], seat: int) -> list[str]:
    """The names an engine may give ``seat`` at the start of a line: its current and previous seat names, its
    fixed name, and "Seat N" (before a Buccaneer seat has a port), longest first so "Seat 1" never eats "Seat 10"."""
    found = {game.seat_name(v, seat) for v in views}
    names = game.info.seat_names
    if seat < len(names):
        found.add(names[seat])
    found |= {f"Seat {seat + 1}", f"seat {seat + 1}"}
    return sorted((n for n in found if n), key=len, reverse=True)


def narrate(
    game: Game,
    views: list[dict[str, Any]],
    events: list[Event],
    who: Callable[[int], str],
    player: Callable[[int], str],
    prefix: str = "",
    you: Callable[[int], bool] | None = None,
) -> list[str]:
    """The channel's lines for one move, each naming its true actor.

    A line whose ``actor`` is a seat is that seat's player's doing: a leading engine name of the seat ("Red
    plays…", "Seat 1 takes Bristol…") becomes the seat's one name, ``who(seat)`` ("Ana (Red) plays…"), or the bare
    ``player(seat)`` when the engine used a placeholder and the rest of the line already says the seat's name
    ("Ana picks the Monk for the Gulls", not "Ana (Gulls) picks the Monk for the Gulls"); a line not starting with it is prefixed with it. Automatic
    steps (actor "game") and lines naming their own subject (actor None) are told as they are, never credited to
    whoever set them off. ``views`` are the public views before and after the move (the seat's names in both).
    A step with no public line (a secret choice, one step of a bigger decision) adds nothing: the engine tells the
    whole decision once it is made, so the channel never reads a vague "X acted."

    ``you(seat)`` true: the line is told to that seat's own player, in the second person ("You play skull…", "You
    have planned for the Wizard."), as a transport with a single reader (the terminal) wants; see
    :func:`second_person`. A channel has many readers, so Discord never asks for it.
    """
    lines: list[str] = []
    for e in events:
        if not e.public:
            continue
        text = e.public
        if isinstance(e.actor, int) and not isinstance(e.actor, bool):
            # one of several pieces the seat plays ("Olivier Levasseur searches…"): "Cy (Olivier Levasseur) searches…"
            pieces = [p for p in re.split(r" & |, ", game.seat_name(views[0], e.actor)) if p]
            piece = next((p for p in pieces if len(pieces) > 1 and re.match(rf"{re.escape(p)}\b", text)), None)
            addressed = you is not None and you(e.actor)
            if piece is not None:
                rest = text[len(piece) :]
                if addressed:
                    lines.append(prefix + player_label(YOU, piece) + second_person(rest))
                else:
                    lines.append(prefix + player_label(player(e.actor), piece) + rest)
                continue
            for name in engine_names(game, views, e.actor):
                rest = text[len(name) :]
                if text.startswith(name) and (not rest or not rest[0].isalnum()):
                    if addressed:
                        text = _you_subject(rest)
                        break
                    # a placeholder ("Seat 4") whose seat's real name the line says anyway: just the player
                    seat_name = game.seat_name(views[0], e.actor)
                    parts = [p for p in re.split(r" & |, ", seat_name) if p] if name != seat_name else []
                    said = any(re.search(rf"\b{re.escape(p)}\b", rest) for p in parts)
                    text = (player(e.actor) if said else who(e.actor)) + rest
                    break
            else:
                text = f"{who(e.actor)}: {text}"
        lines.append(prefix + text)
    return lines


#: the subject of a line told to the seat's own player (:func:`narrate` with ``you``)
YOU = "You"
#: third-person forms whose second person is not the bare word without its -s
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}
#: short words that may stand between the subject and its verb ("Ana at Marseilles gives …", "Bo also takes …")
_BEFORE_VERB = {"at", "in", "on", "from", "also", "now", "then", "still", "again", "just", "finally"}
#: verbs an engine joins to the first one with "and" or a comma ("moves a pirate back and draws 1 card", "gives R1,
#: gets pearl"): only these are turned there, since a card named after the verb ("Treasure and recruits") must not be
_JOINED_VERBS = {
    "board", "buy", "claim", "dig", "discard", "draw", "end", "face", "find", "gallop", "get", "give", "hand", "keep",
    "land", "leave", "lose", "move", "pass", "pay", "place", "play", "point", "put", "receive", "reveal", "run",
    "sail", "search", "sell", "show", "stay", "strike", "swap", "take", "turn", "unload", "wait", "win",
}  # fmt: skip
#: the seat's own possessive pronouns, said to its player
_OWN = {"his": "your", "its": "your", "their": "your", "His": "Your", "Its": "Your", "Their": "Your"}


def _base_form(word: str) -> str | None:
    """The second person of a third-person singular verb ("plays" → "play", "passes" → "pass", "buries" →
    "bury", "has" → "have"), or None when ``word`` is not one."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) < 3 or not re.fullmatch(r"[a-z]+s", word) or word.endswith("ss"):
        return None
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", word):
        return word[:-2]
    return word[:-1]


def second_person(rest: str) -> str:
    """The rest of a line whose subject was a seat, its verbs and pronouns turned to the second person for that
    seat's player: " plays skull: …" → " play skull: …", " has planned for the Wizard." → " have planned …",
    " moves a pirate back 21 → 18 and draws 1 card." → " move … and draw 1 card.", " ends its turn" → " end your
    turn". Only the first sentence's verbs are the seat's; a later sentence has its own subject."""
    end = re.search(r"[.!?;](?:\s|$)", rest)
    head, tail = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
    words = re.split(r"(\s+)", head)
    first = True
    depth = 0
    for i, word in enumerate(words):
        if not word or word.isspace():
            continue
        depth += word.count("(") - word.count(")")
        if depth > 0 or word.endswith(")"):
            continue  # "(Anne Bonny)", "(free move)": a name or a note before the verb
        bare = word.rstrip(",:")
        if first:
            base = _base_form(bare)
            if base is not None:
                words[i] = base + word[len(bare) :]
                first = False
            elif bare in _BEFORE_VERB or bare[:1].isupper():
                continue  # "at Marseilles gives": still before the verb
            else:
                first = False  # "cannot act", "sailed": no present-tense verb to turn here
            continue
        before = "".join(words[:i]).rstrip()
        base = _base_form(bare)
        if base in _JOINED_VERBS and (before.endswith(",") or before.endswith(" and")):
            words[i] = base + word[len(bare) :]
    text = "".join(words) + tail
    return re.sub(r"\b(?:his|its|their|His|Its|Their)\b", lambda m: _OWN[m.group(0)], text)


def _you_subject(rest: str) -> str:
    """A line told to the seat's own player: "You play …", or "Your sixth pirate boards …" for "Red's sixth …"."""
    if rest.startswith("'s "):
        return "Your" + rest[2:]
    return YOU + second_person(rest)


def fold_repeats(lines: list[str]) -> list[str]:
    """Consecutive identical lines told once with a count: the same line in a row ("Bo has planned for the Monk.", a
    card after the other) is one line, "… (×2)", so a post never says the same thing twice."""
    out: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        count += 1
        if i + 1 < len(lines) and lines[i + 1] == line:
            continue
        out.append(line if count == 1 else f"{line} (×{count})")
        count = 0
    return out


def private_news(events: list[Event], mover: int, chosen_by_player: bool) -> dict[int, list[str]]:
    """Each seat's private news from one move's events: every private line, except the mover's echoes when its
    player chose the move (a private-only event whose actor is the mover: "You chose S3", a choice it already
    knows). A seat's DM is built from these lines only, so other seats' public moves never send one."""
    news: dict[int, list[str]] = {}
    for e in events:
        for s, line in e.private.items():
            seat = int(s)
            if chosen_by_player and seat == mover and e.actor == mover and e.public is None:
                continue
            news.setdefault(seat, []).append(line)
    return news


def fmt_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(fmt_value(v) for v in value) if value else "none"
    if isinstance(value, dict):
        if _is_multiset(value):
            # a multiset such as a hand of cards: {"key": 2, "hat": 1}
            return ", ".join(f"{k} ×{v}" for k, v in value.items() if v) or "none"
        return "; ".join(f"{k}: {fmt_value(v)}" for k, v in value.items()) or "none"
    return str(value)


def private_part(public_view: dict[str, Any], seat_view: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view adds to the public one (its hand, hints, secret map), by path.

    Nested dicts are compared key by key so only the secret leaves remain (``hands 0 cards``, not every
    seat's public card count).
    """
    found: dict[str, Any] = {}

    def walk(pub: Any, mine: Any, path: tuple[str, ...]) -> None:
        if isinstance(pub, dict) and isinstance(mine, dict):
            for key, value in mine.items():
                if key not in pub:
                    found[" ".join((*path, str(key)))] = value
                elif pub[key] != value:
                    walk(pub[key], value, (*path, str(key)))
        else:
            found[" ".join(path)] = mine

    walk(public_view, seat_view, ())
    return found


#: a private summary shows at most this many lines of at most this many characters
MAX_PRIVATE_LINES = 20
MAX_PRIVATE_LINE = 200
#: keys that only say whose view it is
_WHO_KEYS = ("seat", "viewer", "me", "you", "idx")


def _texts(value: Any) -> list[str]:
    """Human summaries a game put in its view under a ``text`` key, anywhere."""
    if isinstance(value, dict):
        found = [value["text"]] if isinstance(value.get("text"), str) else []
        return found + [t for k, v in value.items() if k != "text" for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def private_text(public_view: dict[str, Any], seat_view: dict[str, Any]) -> str:
    """A readable summary of what only this seat knows: the game's own ``text`` summaries where it gives
    them, else one line per secret field (empty fields and "whose view" markers left out)."""
    part = private_part(public_view, seat_view)
    texts = _texts(part)
    if texts:
        return "\n".join(t[:MAX_PRIVATE_LINE] for t in texts[:MAX_PRIVATE_LINES])
    lines: list[str] = []

    def emit(path: str, value: Any) -> None:
        key = path.split(" ")[-1]
        if value in (None, "", [], {}) or (key in _WHO_KEYS and isinstance(value, int)):
            return
        # numeric path parts are seat numbers; the reader only ever sees their own
        parts = [p for p in path.split(" ") if not p.isdigit() and p != "private"]
        label = " ".join(parts).replace("_", " ") or "secret"
        line = f"**{label}**: {fmt_value(value)}"
        lines.append(line if len(line) <= MAX_PRIVATE_LINE else line[: MAX_PRIVATE_LINE - 1] + "…")

    for path, value in part.items():
        if isinstance(value, dict) and not _is_multiset(value):
            for key, inner in value.items():
                emit(f"{path} {key}", inner)
        else:
            emit(path, value)
    return "\n".join(lines[:MAX_PRIVATE_LINES])


def _is_multiset(value: dict[str, Any]) -> bool:
    return bool(value) and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values())


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Keep the end of a long text (the newest lines matter most), marking the cut."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 40:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:
        return text[: limit - 1] + "…"
    dropped = len(lines) - len(kept)
    return "\n".join([f"… ({dropped} earlier lines)"] + list(reversed(kept)))


def outcome_text(game: Game, outcome: Outcome, who: list[str], you: Sequence[int] = ()) -> str:
    """The end-of-game summary: winner(s), reason and scores, one line per seat; a winner among ``you`` (told in
    the second person: :func:`narrate`) wins as "You"."""
    if outcome.winners:
        names = " and ".join(YOU if s in you else who[s] for s in outcome.winners)
        plural = len(outcome.winners) > 1 or outcome.winners[0] in you
        head = f"🏆 **{names}** {'win' if plural else 'wins'} ({outcome.reason})."
    else:
        head = f"The game ended without a winner ({outcome.reason})."
    lines = [head]
    order = list(outcome.ranking) if outcome.ranking else list(range(len(who)))
    for place, seat in enumerate(order, 1):
        score = "" if outcome.scores is None else f" — {outcome.scores[seat]:g}"
        lines.append(f"{place}. {who[seat]}{score}")
    return "\n".join(lines)


def duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds >= 3600:
        h, m = divmod(seconds // 60, 60)
        return f"{h} h {m} min" if m else f"{h} h"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


#: a typed action longer than this is refused before parsing (the longest real one is ~30 characters), so a
#: refusal never quotes a huge input back
MAX_ACTION_CHARS = 200
_MENTION = re.compile(r"@(?:everyone|here)|<(?:@[!&]?|#)\d+>")


def defang(text: str) -> str:
    """A message that may quote what a user typed, made safe to send: control and format characters and
    unpaired surrogates dropped (newlines kept), and mentions broken with a zero-width space so a quoted
    ``@everyone`` or ``<@id>`` can never ping anyone, whatever the transport's mention settings."""
    text = "".join(ch for ch in text if ch == "\n" or ch.isprintable())
    return _MENTION.sub(lambda m: m.group(0).replace("@", "@\u200b").replace("<#", "<#\u200b"), text)


#: a name shown is cut to this many characters
MAX_NAME = 64
#: characters that are markdown anywhere in a line (a backslash before them shows them as they are), and ``<``,
#: which opens every mention, channel link, custom emoji and timestamp
_MARKUP = re.compile(r"([\\*_~`|\[\]<])")
#: markdown only at the start of a line (a heading, subtext, a quote, a list): a name may begin a line
_LINE_START = re.compile(r"^(#|>|-|\+|\d+(?=[.)]))")


def escape_name(name: str) -> str:
    """A display name as it must appear in a message: shown exactly as written, never as markdown (bold, spoilers,
    headings, links) or as a mention, whatever the transport's mention settings. Markdown characters get a
    backslash, ``@everyone``/``@here`` a zero-width space, control characters and line breaks go; a name longer
    than any Discord allows is cut."""
    name = " ".join(defang(str(name).replace("\n", " ")).split()) or "?"
    if len(name) > MAX_NAME:  # Discord's names are at most 32 characters: a longer one is not a name
        name = name[: MAX_NAME - 1] + "…"
    name = _MARKUP.sub(r"\\\1", name)
    return _LINE_START.sub(lambda m: "\\" + m.group(0) if not m.group(0)[0].isdigit() else m.group(0) + "\\", name)


def quote(text: str, limit: int = 60) -> str:
    """User text quoted back in a reply (an unknown game id, say): defanged and cut short."""
    text = defang(str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"

