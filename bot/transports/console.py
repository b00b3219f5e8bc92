"""The terminal transport: one human seat at a table driven by the same :class:`TableHost` as Discord.

The player types the same action texts as ``/play`` (or the number of a move from ``moves``). Pictures are
written to ``<pictures>/<table>/NNN.png`` and their paths printed. Only the human seat's private posts are
printed; the public text comes from the host, which builds it from public events and views only.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import TextIO

from bot.host.tables import Caller, Choice, Outputs, Post, TableHost

HELP = """Commands:
  <action>   play an action, typed like /play takes it (e.g. one from `moves`)
  <number>   play move number N from the last `moves` list
  moves      your legal moves, grouped as the picker groups them
  moves <m>  the moves of one menu (`moves ride`, `moves ride N 0–2 mi`)
  hand       your private view (and its picture)
  board      the public board (and its picture)
  zoom       a close-up of the board around the last move
  undo       take back your last action, when it revealed nothing
  stand      let the last move stand (an AI waiting in case you challenge it goes on)
  history    the moves so far
  rules      a summary of the rules
  cards      the game's cards and what each does
  help       this list
  quit       leave (the table is ended)"""

#: ``moves`` numbers the moves one by one up to this many; beyond, it names the menus and their counts
MOVES_LISTED = 40

#: the console's fixed identities: one server, one channel, one human
GUILD, CHANNEL, USER = 1, 1, 1


def _plain(text: str) -> str:
    return text.replace("**", "")


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
        self.out = out or sys.stdout
        self.read = read or _stdin_line
        self.caller = Caller(GUILD, CHANNEL, USER, name, moderator=True, admin=True)
        self.count = 0
        self.last_moves: list[str] = []
        self._last: tuple[bytes, Path] | None = None
        host.publish = self._published

    async def _published(self, out: Outputs) -> None:
        """What the host does between commands (timers, background work) is shown as it happens."""
        self.show(out)

    def say(self, text: str = "") -> None:
        print(_plain(text), file=self.out, flush=True)

    def _save(self, table_id: int | None, data: bytes, filename: str) -> Path:
        if self._last is not None and self._last[0] == data:
            return self._last[1]  # the same board again (a closed turn and the next one): one file
        self.count += 1
        folder = self.pictures / str(table_id if table_id is not None else "misc")
        folder.mkdir(parents=True, exist_ok=True)
        suffix = Path(filename).suffix or ".png"
        path = folder / f"{self.count:03d}{suffix}"
        path.write_bytes(data)
        self._last = (data, path)
        return path

    def _post(self, post: Post, tag: str = "") -> None:
        self.say(f"{tag}{post.text}")
        if post.image is not None:
            self.say(f"  [picture] {self._save(post.table_id, post.image, post.filename)}")

    def show(self, out: Outputs) -> None:
        if out.reply_file is not None:
            self.say(out.reply_file[1])  # a terminal has room for the whole text the reply only begins
        elif out.reply:
            self.say(("" if out.ok else "! ") + out.reply)
        if out.reply_image is not None:
            table = self.host.table_for(CHANNEL)
            self.say(f"  [picture] {self._save(table.table_id if table else None, out.reply_image, 'view.png')}")
        mine = [post for user, post in out.private if user == self.caller.user_id]
        for i, post in enumerate(out.public):
            self._private(p for p in mine if p.after == i)  # news printed with the move that caused it
            if post.edit_only:
                continue  # an edit of an earlier message (the lobby post): the terminal shows what happens as it does
            self.say("")
            self._post(post)
        self._private(p for p in mine if p.after is None or p.after >= len(out.public))
        out.delivered()

    def _private(self, posts: Iterable[Post]) -> None:
        for post in posts:
            self.say("")
            self._post(post, "[private] ")

    async def setup(self, game_id: str, options: dict[str, str], ai: int, level: str, seed: str | None) -> bool:
        steps: list[Callable[[], Awaitable[Outputs]]] = [
            lambda: self.host.open(self.caller, game_id, options, seed=seed)
        ]
        steps += [lambda: self.host.ai_add(self.caller, level) for _ in range(ai)]
        steps.append(lambda: self.host.start_table(self.caller))
        for step in steps:
            out = await step()
            if not out.ok:
                self.show(out)
                return False
        self.show(out)
        return True

    def running(self) -> bool:
        table = self.host.table_for(CHANNEL)
        return table is not None and table.status == "running"

    async def command(self, line: str) -> bool:
        """Handle one typed line; False when the player quits."""
        text = line.strip()
        word = text.lower()
        if not text:
            return True
        if word in ("quit", "exit"):
            self.show(await self.host.end(self.caller))
            return False
        if word == "help":
            self.say(HELP)
        elif word == "moves" or word.startswith("moves "):
            self._moves(await self.host.choices(self.caller), text[len("moves") :].strip())
        elif word == "hand":
            self.show(await self.host.hand(self.caller))
        elif word == "board":
            self.show(await self.host.status(self.caller))
        elif word == "zoom":
            self.show(await self.host.zoom(self.caller))
        elif word == "undo":
            self.show(await self.host.undo(self.caller))
        elif word == "stand":
            self.show(await self.host.let_stand(self.caller))
        elif word == "history":
            self.show(await self.host.history(self.caller))
        elif word in ("rules", "rules cards", "cards"):
            table = self.host.table_for(CHANNEL)
            section = "cards" if "cards" in word else "rules"
            self.show(await self.host.rules(table.game_id if table else None, section))
        else:
            if text.isdigit() and self.last_moves:
                n = int(text)
                if not 1 <= n <= len(self.last_moves):
                    self.say(f"! Choose a number from 1 to {len(self.last_moves)}, or type the move.")
                    return True
                text = self.last_moves[n - 1]
            self.last_moves = []
            self.show(await self.host.play(self.caller, text))
        return True

    def _moves(self, choices: list[Choice], query: str = "") -> None:
        """The legal moves grouped as the picker groups them: numbered under their menus when few, else each menu
        with its second-level names and counts, and ``moves <menu>`` (or ``moves <menu> <part>``) lists one."""
        if not choices:
            self.say("You owe no move right now.")
            return
        def norm(text: str) -> str:
            return text.lower().replace("–", "-")  # a terminal types "0-2 mi" for the picker's "0–2 mi"

        q = norm(query)
        picked = [c for c in choices if not q or norm(" ".join(filter(None, (c.menu, c.submenu)))).startswith(q)]
        picked = picked or [c for c in choices if norm(c.action).startswith(q)]
        if not picked:
            self.say(f"! No move starts with `{query}`. Type `moves` for the menus.")
            return
        if len(picked) <= MOVES_LISTED:
            self.last_moves = [c.action for c in picked]
            heading = None
            for i, c in enumerate(picked, 1):
                group = " › ".join(filter(None, (c.menu, c.submenu)))
                if group != heading:
                    heading = group
                    self.say(f"{group}:")
                label = f"  ({c.label})" if c.label != c.action else ""
                effect = f" — {c.description}" if c.description else ""  # what a card does (Game.describe)
                self.say(f"{i:4d}. {c.action}{label}{effect}")
            return
        menus: dict[str, dict[str, int]] = {}
        for c in picked:
            parts = menus.setdefault(c.menu, {})
            parts[c.submenu] = parts.get(c.submenu, 0) + 1
        self.say(f"{len(picked)} moves in {len(menus)} menus; type `moves <menu>` to list one, or type a move:")
        for menu, parts in menus.items():
            named = [f"{name} ({n})" for name, n in parts.items() if name]
            shown = ", ".join(named[:12]) + (f", … {len(named) - 12} more" if len(named) > 12 else "")
            self.say(f"  {menu} ({sum(parts.values())})" + (f": {shown}" if shown else ""))

    async def loop(self) -> None:
        self.say("Type `help` for commands, `moves` for your legal moves.")
        while self.running():
            line = await self.read()
            if line is None:
                self.say("End of input; ending the table.")
                self.show(await self.host.end(self.caller))
                return
            if not await self.command(line):
                return


async def _stdin_line() -> str | None:
    print("> ", end="", flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    return line if line else None


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
    """A whole offline game; the exit code (1 when the host hit an internal error, 2 on a setup refusal)."""
    await host.start()
    try:
        console = Console(host, pictures=pictures, out=out, read=read)
        if not await console.setup(game_id, options, ai, level, seed):
            return 2
        await console.loop()
        await host.idle()  # the replay of the game just played
    finally:
        await host.close()
    return 1 if host.internal_errors else 0
