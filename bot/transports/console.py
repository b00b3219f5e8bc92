"""The terminal transport: one human seat at a table driven by the same :class:`TableHost` as Discord.

The player types the same action texts as ``/play`` (or the number of a move from ``moves``). The host writes for
Discord; this transport lays its outputs out for a terminal (bot/transports/terminal_text.py turns markup and the
names of Discord's controls into plain text and terminal commands):

- a turn's board is told once: each step prints only the narration lines not printed yet, then the prompt, so
  nothing stale stands above it; the status lines under the picture (its caption) once per turn;
- the human seat's own moves are told in the second person ("You play…": ``TableHost.second_person``);
- pictures go to a folder of their own for each run, ``<pictures>/<game>-<date>-<time>/NNN.png``, their paths
  printed; only the human seat's private posts are printed;
- Ctrl-C ends the game like Ctrl-D (end of input): the table is ended and the program exits cleanly.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TextIO

from bot.host.api import Caller, Choice, Outputs, Post
from bot.host.outputs import fold_repeats
from bot.host.tables import TableHost
from bot.transports.terminal_text import for_terminal
from rules import registry

#: ``moves`` numbers the moves one by one up to this many; beyond, it names the menus and their counts
MOVES_LISTED = 40

#: the console's fixed identities: one server, one channel, one human
GUILD, CHANNEL, USER = 1, 1, 1

#: the host's board header and the head of a DM ("**Cartagena** · table 1 · move 4", "**Cartagena** (table 1) — …")
_HEADER = re.compile(r"^\*\*(?P<title>[^*\n]+)\*\* · table \d+ · move (?P<n>\d+)", re.MULTILINE)
_DM_HEAD = re.compile(r"^\*\*[^*\n]+\*\* \(table \d+\) — [^\n]*\n")
_AT_MOVE = re.compile(r"\bat move (\d+)\b")
#: the host's confirmation of a move (bot.host.play.confirmation): the label chosen, then the action's text small
_PLAYED = re.compile(r"^Played: (?P<label>[^\n]*)\n-# `(?P<action>[^`\n]*)`$")
#: a repeat folded by the host ("… (×2)"), unfolded to compare a board's lines with those already printed
_FOLDED = re.compile(r"^(.*) \(×(\d+)\)$")

UNDONE = "Your last action was taken back."


def help_text(game_id: str, choices: list[Choice], optional: list[tuple[str, str]]) -> str:
    """The commands, with examples from the game at hand: its own moves and menus as they are now."""
    game = registry.get(game_id)
    title = game.info.title
    example = f" (e.g. `{choices[0].action}`)" if choices else ""
    menu = next((f"{c.menu} {c.submenu}" for c in choices if c.submenu), choices[0].menu if choices else "")
    rows = [
        ("<move>", f"play a move, typed as `moves` lists it{example}"),
        ("<number>", "play move number N of your last `moves` list"),
        ("moves", "your legal moves, numbered and grouped by menu"),
        ("moves <m>", f"only the moves of one menu (e.g. `moves {menu}`)" if menu else "only the moves of one menu"),
        ("hand", "your private view, and its picture"),
        ("board", "the board and its status lines again, and its picture"),
        ("zoom", "a close-up of the board around the last move"),
        ("undo", f"take back your last action, where {title} allows it"),
    ]
    if optional:
        offered = " or ".join(f"`{action}`" for action, _ in optional)
        rows.append(("stand", f"let the last move stand instead of {offered}"))
    rows += [("history", "the moves so far"), ("rules", f"the rules of {title}")]
    if game.info.cards:
        rows.append(("cards", f"{title}'s cards and what each does"))
    rows += [("help", "this list"), ("quit", "end the game (Ctrl-D or Ctrl-C too)")]
    return f"Commands ({title}):\n" + "\n".join(f"  {cmd:<10} {what}" for cmd, what in rows)


def _norm(text: str) -> str:
    return text.lower().replace("–", "-")  # a terminal types "0-2 mi" for the picker's "0–2 mi"


def listing(choices: list[Choice], query: str = "") -> tuple[list[str], list[str]]:
    """What ``moves <query>`` shows: the actions it numbers (empty when it numbers none) and its lines.

    The moves are grouped as the picker groups them, numbered under their menus when few; else each menu with its
    second-level names and counts. One menu too long to number is told by how its moves start, so that
    ``moves <start>`` numbers a part of it."""
    if not choices:
        return [], ["You owe no move right now."]
    q = _norm(query)
    picked = [c for c in choices if not q or _norm(" ".join(filter(None, (c.menu, c.submenu)))).startswith(q)]
    picked = picked or [c for c in choices if _norm(c.action).startswith(q)]
    if not picked:
        return [], [f"! No move starts with `{query}`. Type `moves` for the menus."]
    if len(picked) <= MOVES_LISTED:
        lines: list[str] = []
        heading = None
        for i, c in enumerate(picked, 1):
            group = " › ".join(filter(None, (c.menu, c.submenu)))
            if group != heading:
                heading = group
                lines.append(f"{group}:")
            label = f"  ({c.label})" if c.label != c.action else ""
            effect = f" — {c.description}" if c.description else ""  # what a card does (Game.describe)
            lines.append(f"{i:4d}. {c.action}{label}{effect}")
        return [c.action for c in picked], lines
    menus: dict[str, dict[str, int]] = {}
    for c in picked:
        parts = menus.setdefault(c.menu, {})
        parts[c.submenu] = parts.get(c.submenu, 0) + 1
    if len({c.group for c in picked}) == 1:
        # one menu, no level below: how its moves start ("bury 2.5,…"), each start numbering a part of it
        starts: dict[str, int] = {}
        for c in picked:
            start = re.split(r"[ ,](?=[^ ,]*$)", c.action)[0]
            starts[start] = starts.get(start, 0) + 1
        if 1 < len(starts) <= MOVES_LISTED * 2:
            shown = ", ".join(f"{start}… ({n})" for start, n in starts.items())
            return [], [
                f"{len(picked)} moves under {picked[0].group}; type `moves <start>` to number those that start so"
                f" (e.g. `moves {next(iter(starts))}`), or type a move:",
                f"  {shown}",
            ]
    lines = [f"{len(picked)} moves in {len(menus)} menus; type `moves <menu>` to list one, or type a move:"]
    for menu, parts in menus.items():
        named = [f"{name} ({n})" for name, n in parts.items() if name]
        shown = ", ".join(named[:12]) + (f", … {len(named) - 12} more" if len(named) > 12 else "")
        lines.append(f"  {menu} ({sum(parts.values())})" + (f": {shown}" if shown else ""))
    return [], lines


def new_lines(told: list[str], lines: list[str]) -> list[str]:
    """The lines of a board not printed yet: ``lines`` after their longest start that ends ``told`` (a turn's
    narration only grows, though the host keeps only its newest lines)."""
    for k in range(min(len(told), len(lines)), 0, -1):
        if told[-k:] == lines[:k]:
            return lines[k:]
    return lines


def _unfolded(lines: Iterable[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        m = _FOLDED.match(line)
        out.extend([m.group(1)] * int(m.group(2)) if m else [line])
    return out


class Console:
    """Prints outputs, saves pictures, reads commands. ``read`` returns a line, or None at end of input."""

    def __init__(
        self,
        host: TableHost,
        *,
        pictures: str | Path = "pictures",
        out: TextIO | None = None,
        read: Callable[[], Awaitable[str | None]] | None = None,
        name: str = "You",
    ) -> None:
        self.host = host
        self.pictures = Path(pictures)
        self.folder: Path | None = None  # this run's own folder, made at the first picture
        self.out = out or sys.stdout
        self.read = read or StdinLines()
        self.caller = Caller(GUILD, CHANNEL, USER, name, moderator=True, admin=True)
        host.second_person.add(USER)  # one reader: their own moves are told to them as "You play…"
        self.game_id = ""
        self.count = 0
        self.listed: list[str] = []  # the actions the last `moves` numbered, and what it was asked for
        self.query = ""
        self.undos = 0  # each undo is a move of the log that takes one back: the counter shows neither
        self.told: dict[str, list[str]] = {}  # board key -> the narration lines of that turn printed so far
        self.status_shown: set[str] = set()  # board keys whose status lines were printed
        self.header_move: int | None = None
        self.offered: list[tuple[str, str]] = []  # what the newest board lets the player do without owing a move
        self._last: tuple[bytes, Path] | None = None
        self._stop = asyncio.Event()
        self._busy = False
        self._reading = False
        self._said = ""  # the last line printed
        self._task: asyncio.Task[object] | None = None
        host.publish = self._published

    async def _published(self, out: Outputs) -> None:
        """What the host does between commands (timers, an AI that waited for a challenge, background work) is
        shown as it happens; at the input prompt, on lines of its own and followed by the prompt again."""
        waiting = self._reading and isinstance(self.read, StdinLines)
        if waiting:
            self.say("")
        self.show(out)
        if waiting:
            assert isinstance(self.read, StdinLines)
            self.read.prompt_again()

    def say(self, text: str = "") -> None:
        self._said = text
        print(for_terminal(text, {USER: "you"}), file=self.out, flush=True)

    def _move(self, n: int) -> int:
        """The move counter as the player counts: an undo neither counts nor leaves the move it took back counted."""
        return n - 2 * self.undos

    def _headers(self, text: str) -> str:
        """The host's move numbers as the player counts them (:meth:`_move`), its confirmation on one line."""
        played = _PLAYED.match(text)
        if played:
            label, action = played.group("label"), played.group("action")
            # the action's own text, to type it next time, unless the label already begins with it
            return f"Played: {label}" + ("" if label.startswith(action) else f" (`{action}`)")
        text = _HEADER.sub(lambda m: f"{m.group('title')} · move {self._move(int(m.group('n')))}", text)
        return _AT_MOVE.sub(lambda m: f"at move {self._move(int(m.group(1)))}", text)

    def _folder(self) -> Path:
        """This run's pictures folder, ``<game>-<date>-<time>`` (``-2``, ``-3``… when that name is taken):
        never an earlier run's, so no picture of another game is overwritten."""
        if self.folder is None:
            stem = f"{self.game_id or 'parley'}-{datetime.now():%Y-%m-%d-%H%M%S}"
            self.pictures.mkdir(parents=True, exist_ok=True)
            for n in range(1, 10_000):
                folder = self.pictures / (stem if n == 1 else f"{stem}-{n}")
                try:
                    folder.mkdir()
                except FileExistsError:
                    continue
                self.folder = folder
                break
            else:
                raise FileExistsError(f"no free pictures folder named {stem}")
        return self.folder

    def _save(self, data: bytes, filename: str) -> Path | None:
        """The picture's file, or None when it is the one saved just before (a closed turn and the next one)."""
        if self._last is not None and self._last[0] == data:
            return None
        self.count += 1
        suffix = Path(filename).suffix or ".png"
        path = self._folder() / f"{self.count:03d}{suffix}"
        path.write_bytes(data)
        self._last = (data, path)
        return path

    def _picture(self, data: bytes | None, filename: str) -> None:
        path = self._save(data, filename) if data is not None else None
        if path is not None:
            self.say(f"  [picture] {path}")

    def show(self, out: Outputs) -> None:
        if out.reply_file is not None:
            self.say(self._headers(out.reply_file[1]))  # a terminal has room for the whole text the reply only begins
        elif out.reply:
            self.say(("" if out.ok else "! ") + self._headers(out.reply))
        if out.reply_image is not None:
            self._picture(out.reply_image, "view.png")
        mine = [post for user, post in out.private if user == self.caller.user_id]
        boards = [i for i, post in enumerate(out.public) if post.parts is not None and not post.edit_only]
        trailing = [p for p in mine if p.after is None or p.after >= len(out.public)]
        # the prompt is the last thing printed: news after every post comes before it when the newest board is last
        if boards and all(post.edit_only for post in out.public[boards[-1] + 1 :]):
            trailing, before_owed = [], trailing
        else:
            before_owed = []
        for i, post in enumerate(out.public):
            news = [p for p in mine if p.after == i]  # printed with the move that caused it
            if post.edit_only or post.parts is None:
                self._private(news)
                if not post.edit_only:  # (an edit of the lobby post further up: the terminal has none)
                    self.say("")
                    self.say(post.text)
                    self._picture(post.image, post.filename)
                continue
            # news of a move in a turn already under way comes just after the move's line, within its board
            going_on = (post.board_key or "") in self.told
            if not going_on:
                self._private(news)
            self._board(post, last=i == boards[-1])
            if going_on:
                self._private(news)
            if i == boards[-1]:
                self._private(before_owed)
                self._owed(post)
        self._private(trailing)
        out.delivered()

    def _board(self, post: Post, *, last: bool) -> None:
        """A board post as the terminal tells it: only the lines of its turn not printed yet (with the game and
        the move when a turn starts), and its picture when it is a new one."""
        parts = post.parts
        assert parts is not None
        key = post.board_key or ""
        told = self.told.get(key)
        lines = _unfolded(parts.lines)
        fresh = new_lines(told or [], lines)
        self.told[key] = lines
        move = self._move(parts.move)
        # a new turn starts with the game and the move, but the same move just after a closed turn needs no second
        if told is None and (fresh or last) and move != self.header_move:
            self.say("")
            self.say(f"{parts.title} · move {move}")
            self.header_move = move
        elif told is None and fresh:
            self.say("")
        for line in fold_repeats(fresh):
            self.say(line)
        self._picture(post.image, post.filename)

    def _owed(self, post: Post) -> None:
        """The newest board's end: its status lines once per turn, then what is owed now, right above the input
        prompt (an older board's prompt is stale: it is never printed)."""
        parts = post.parts
        assert parts is not None
        key = post.board_key or ""
        caption = parts.caption.strip("\n")
        if key not in self.status_shown and caption:
            self.status_shown.add(key)
            if not self._said.startswith(f"{parts.title} · move "):
                self.say("")
            self.say(caption)
        for line in parts.owed:
            self.say(line)
        self.offered = list(post.optional)
        if post.optional:
            offered = " or ".join(f"`{action}`" for action, _ in post.optional)
            self.say(f"Type {offered}" + (", or `stand` to let the move stand." if post.decline else "."))

    def _private(self, posts: Iterable[Post]) -> None:
        for post in posts:
            self.say("")
            self.say("[private] " + _DM_HEAD.sub("", post.text, count=1))
            self._picture(post.image, post.filename)

    async def setup(self, game_id: str, options: dict[str, str], ai: int, level: str, seed: str | None) -> bool:
        self.game_id = game_id
        steps: list[Callable[[], Awaitable[Outputs]]] = [
            lambda: self.host.open(self.caller, game_id, options, seed=seed)
        ]
        steps += [lambda: self.host.ai_add(self.caller, level) for _ in range(ai)]
        steps.append(lambda: self.host.start_table(self.caller))
        folder = self._folder()
        for step in steps:
            out = await step()
            if not out.ok:
                self.show(out)
                if not any(folder.iterdir()):
                    folder.rmdir()
                return False
            if step is steps[0]:
                self.say(f"Pictures of this game are saved in {folder}/.")
                self.say("Type `help` for commands, `moves` for your legal moves.")
        self.show(out)
        return True

    def running(self) -> bool:
        table = self.host.table_for(CHANNEL)
        return table is not None and table.status == "running"

    async def command(self, line: str) -> bool:
        """Handle one typed line; False when the player quits."""
        text = line.strip()
        word = " ".join(text.lower().split())
        if not text:
            return True
        if word in ("quit", "exit"):
            self.show(await self.host.end(self.caller))
            return False
        if word == "help":
            self.say(help_text(self.game_id, await self.host.choices(self.caller), self.offered))
        elif word == "moves" or word.startswith("moves "):
            query = text[len("moves") :].strip()
            actions, lines = listing(await self.host.choices(self.caller), query)
            for out_line in lines:
                self.say(out_line)
            if actions:
                self.listed, self.query = actions, query
        elif word == "hand":
            self.show(await self.host.hand(self.caller))
        elif word == "board":
            self.show(await self.host.status(self.caller))
        elif word == "zoom":
            self.show(await self.host.zoom(self.caller))
        elif word == "undo" and not any(c.action == "undo" for c in await self.host.choices(self.caller)):
            # (a game whose own `undo` is a move, Buccaneer's plan, plays it as one)
            out = await self.host.undo(self.caller)
            if out.ok and out.reply == UNDONE:
                self.undos += 1
            self.show(out)
        elif word == "stand":
            self.show(await self.host.let_stand(self.caller))
        elif word == "history":
            self.show(await self.host.history(self.caller))
        elif word in ("rules", "rules cards", "cards"):
            section = "cards" if "cards" in word else "rules"
            self.show(await self.host.rules(self.game_id or None, section))
        elif text.isdigit():
            await self._numbered(int(text))
        else:
            self.show(await self.host.play(self.caller, text))
        return True

    async def _numbered(self, n: int) -> None:
        """Move ``n`` of the last ``moves`` list, if that list still holds: after a move of anyone's, the list is
        made again and, if it changed, shown anew rather than a number played that now means another move."""
        if not self.listed:
            self.say("! Type `moves` first: a number picks a move from its list.")
            return
        actions, lines = listing(await self.host.choices(self.caller), self.query)
        if actions != self.listed:
            self.listed = actions
            if not actions:
                self.say("! The moves changed since your last list: type `moves`.")
                return
            self.say("! The moves changed since your last list; here they are now (type the number again):")
            for line in lines:
                self.say(line)
            return
        if not 1 <= n <= len(actions):
            self.say(f"! Choose a number from 1 to {len(actions)}, or type the move.")
            return
        self.show(await self.host.play(self.caller, actions[n - 1]))

    def interrupt(self) -> None:
        """Ctrl-C: the game ends as at the end of input, once the command under way (an AI thinking) is done; a
        second Ctrl-C while it still runs stops at once."""
        if self._busy and self._stop.is_set() and self._task is not None:
            self._task.cancel()
        elif self._busy:
            self.say("")
            self.say("Stopping once this move is done (Ctrl-C again to stop now).")
        self._stop.set()

    async def _next_line(self) -> str | None:
        """The next typed line; None at end of input or on Ctrl-C."""
        if self._stop.is_set():
            return None
        reading = asyncio.ensure_future(self.read())
        stopping = asyncio.ensure_future(self._stop.wait())
        self._reading = True
        try:
            done, _ = await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._reading = False
        stopping.cancel()
        if reading in done:
            return reading.result()
        reading.cancel()
        return None

    async def loop(self) -> None:
        while self.running():
            line = await self._next_line()
            if line is not None:
                self._busy = True
                try:
                    going_on = await self.command(line)
                finally:
                    self._busy = False
                if not going_on:
                    return
                if not self._stop.is_set():
                    continue
            self.say("")
            self.say("Interrupted; ending the table." if self._stop.is_set() else "End of input; ending the table.")
            self.show(await self.host.end(self.caller))
            return


class StdinLines:
    """Lines typed on standard input, read by a daemon thread: a pending read never keeps the program from
    exiting (Ctrl-C would otherwise wait for Enter, as a worker thread blocked in ``readline`` is joined at exit)."""

    def __init__(self, stream: TextIO | None = None, prompt: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self.prompt = prompt or sys.stdout
        self.queue: asyncio.Queue[str | None] | None = None

    async def __call__(self) -> str | None:
        if self.queue is None:
            self.queue = asyncio.Queue()
            loop = asyncio.get_running_loop()
            threading.Thread(target=self._pump, args=(loop, self.queue), name="parley-stdin", daemon=True).start()
        self.prompt_again()
        return await self.queue.get()

    def prompt_again(self) -> None:
        print("> ", end="", flush=True, file=self.prompt)

    def _pump(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
        while True:
            line = self.stream.readline()
            try:
                loop.call_soon_threadsafe(queue.put_nowait, line or None)
            except RuntimeError:
                return  # the event loop is closed: the game is over
            if not line:
                return


async def play(
    host: TableHost,
    game_id: str,
    *,
    options: dict[str, str],
    ai: int,
    level: str,
    seed: str | None,
    pictures: str | Path = "pictures",
    out: TextIO | None = None,
    read: Callable[[], Awaitable[str | None]] | None = None,
) -> int:
    """A whole offline game; the exit code (1 when the host hit an internal error, 2 on a setup refusal, 130 when
    a second Ctrl-C stopped a move under way). Reading standard input (no ``read``), Ctrl-C ends the game."""
    console = Console(host, pictures=pictures, out=out, read=read)
    console._task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    catching = read is None and threading.current_thread() is threading.main_thread()
    if catching:
        loop.add_signal_handler(signal.SIGINT, console.interrupt)
    await host.start()
    try:
        console._busy = True
        if not await console.setup(game_id, options, ai, level, seed):
            return 2
        console._busy = False
        await console.loop()
        await host.idle()  # the replay of the game just played
    except asyncio.CancelledError:
        if not console._stop.is_set() or console._task is None:
            raise
        console._task.uncancel()
        console.say("")
        console.say("Stopped.")
        return 130
    finally:
        if catching:
            loop.remove_signal_handler(signal.SIGINT)
        await host.close()
    return 1 if host.internal_errors else 0
