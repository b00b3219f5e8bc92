"""The terminal as a first-class table (issue 28): its own pictures folder per run, plain text without Discord's
markup or controls, the player's moves in the second person, `moves` numbers that follow the current list, help for
the game at hand, each turn told once, Ctrl-C like Ctrl-D, and an undo that neither counts nor misreports."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.host.tables import TableHost
from bot.infra.store import Store
from bot.transports.console import play
from bot.transports.terminal_text import for_terminal
from rules import registry
from tests.host.conftest import RecordingRenderer

ROOT = Path(__file__).resolve().parents[2]

#: what a terminal must never print: Discord's markup, and the names of Discord's controls
DISCORD = {
    "bold, underline, strike or spoiler": r"\*\*|__|~~|\|\|",
    "code": r"`",
    "subtext or heading": r"(?m)^(?:-#|#{1,3} )",
    "a mention or channel link": r"<[@#]",
    "a markup escape": r"\\[\\*_~`|<>#\[\]-]",
    "italics": r"(?<![\w*])\*[A-Za-z][^*\n]*\*(?!\w)",
    "a button": r"\bbuttons?\b",
    "a slash command": r"(?<![\w.])/(?:hand|play|table|rules|config|stats)\b",
    "a DM": r"\bDMs?\b",
    "the picker": r"\bpicker\b",
    "the channel": r"\bchannel\b",
}
#: the player's own moves in the third person ("You plays…", "You (Red) takes…")
THIRD_PERSON = re.compile(r"\bYou (?:\([^)]*\) )?(?:plays|has|takes|picks|moves|is|places|draws|ends|shows|wins)\b")


def echoing(lines: list[str], out: io.StringIO) -> Callable[[], Awaitable[str | None]]:
    """A scripted player whose lines show in the transcript after a prompt, as a terminal shows them."""
    feed = iter(lines)

    async def read() -> str | None:
        line = next(feed, None)
        if line is not None:
            out.write(f"> {line}\n")
        return line

    return read


async def transcript(
    game_id: str, script: list[str], tmp_path: Path, *, seed: str = "t1", ai: int = 1, options: dict | None = None
) -> str:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer(cheap=True))
    options = registry.get(game_id).resolve_options(options or {}) if game_id != "toy" else (options or {})
    code = await play(host, game_id, options=options, ai=ai, level="easy", seed=seed, pictures=tmp_path, out=out,
                      read=echoing(script, out))  # fmt: skip
    assert code == 0, out.getvalue()[-2000:]
    return out.getvalue()


def chunks(text: str) -> list[tuple[str, str]]:
    """(typed line, what the terminal printed after it) for every line typed."""
    parts = re.split(r"(?m)^> (.*)\n", text)
    return list(zip(parts[1::2], parts[2::2], strict=True))


async def test_each_run_saves_its_pictures_in_a_folder_of_its_own(tmp_path: Path) -> None:
    first = await transcript("toy", ["ready", "quit"], tmp_path)
    (folder,) = tmp_path.iterdir()
    saved = {p.name: p.read_bytes() for p in folder.iterdir()}
    second = await transcript("toy", ["ready", "draw", "quit"], tmp_path, seed="t2")
    folders = sorted(tmp_path.iterdir())
    assert len(folders) == 2, folders
    for f in folders:
        assert re.fullmatch(r"toy-\d{4}-\d\d-\d\d-\d{6}(?:-\d+)?", f.name), f.name
        assert (f / "001.png").exists()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == saved  # the earlier run's pictures untouched
    other = next(f for f in folders if f != folder)
    assert f"saved in {folder}/" in first and f"saved in {other}/" in second


def test_for_terminal_takes_out_markup_and_names_terminal_commands() -> None:
    assert for_terminal("Played: forward start bottle → 5\n-# `forward start bottle`") == (
        "Played: forward start bottle → 5\n'forward start bottle'"
    )
    assert for_terminal("🏆 **Ana\\_b (Red)** wins") == "🏆 Ana_b (Red) wins"
    assert for_terminal("up to your *sailing strength* (the total)") == "up to your sailing strength (the total)"
    assert for_terminal("||hidden|| <@1> in <#22> ~~old~~ __new__", {1: "you"}) == "hidden you in this table old new"
    assert for_terminal("any opponent may `challenge` (the **Challenge** button under the board) until") == (
        "any opponent may 'challenge' until"
    )
    assert for_terminal("(The board picture could not be drawn this time; `/table status` shows the board.)") == (
        "(The board picture could not be drawn this time; 'board' shows it.)"
    )
    assert for_terminal("Your DM picture crosses out squares.") == "Your private picture ('hand') crosses out squares."
    assert for_terminal("`/hand` shows your view") == "'hand' shows your view"
    assert for_terminal("2 × 3 * 4 and back_from_sloop") == "2 × 3 * 4 and back_from_sloop"


#: a stretch of each game, played by the numbers of `moves` (each game's first menu offers a sensible move first)
GAMES = {
    "cartagena": {},
    "buccaneer": {},
    "flagon": {},
    "martinique": {},
    "treasure_island": {},
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_the_terminal_prints_plain_text_and_tells_your_moves_as_yours(game_id: str, tmp_path: Path) -> None:
    """Everything a player meets in a stretch of each game: help, rules, cards, board, hand, history, a refusal,
    moves by number, then quitting. No Discord markup, no Discord control, no "You plays"."""
    start = ["help", "rules", "cards", "board", "hand", "nonsense", "moves"]
    # Treasure Island's first decision (where to bury) is a menu of thousands: narrow it, as a player would
    narrow = ["moves bury x 12", "moves bury 14,"] if game_id == "treasure_island" else []
    script = start + narrow + ["1"] + ["moves", "1"] * 14 + ["history", "zoom", "quit"]
    text = await transcript(game_id, script, tmp_path, options=GAMES[game_id])
    for what, pattern in DISCORD.items():
        found = re.search(pattern, text)
        assert found is None, f"{what}: …{text[max(0, found.start() - 120) : found.end() + 120]}…"
    assert THIRD_PERSON.search(text) is None, THIRD_PERSON.search(text)
    played = [out for typed, out in chunks(text) if typed.isdigit() and "Played" in out]
    assert len(played) >= 3, text[-3000:]
    assert re.search(r"(?m)^(?:You|Your) ", text), "no move of the player's told in the second person"
    for out in played:
        if "Game over" not in out:
            # nothing stale above the prompt: what the player owes now is the last thing printed
            last = [line for line in out.splitlines() if line.strip()][-1]
            assert last.startswith(("▶", "Type '")), out
    # each turn's narration is told once: no line of it printed again at the next step of the same turn
    days = re.findall(r"(?m)^June \d+: .*'s day.*$", text)
    assert len(days) == len(set(days)), days


async def test_a_turn_is_told_once_with_one_status_block(tmp_path: Path) -> None:
    """Three card plays in one Cartagena turn: each line once, the status lines (the discards) once a turn."""
    text = await transcript("cartagena", ["moves", "1", "moves", "1", "moves", "1", "quit"], tmp_path)
    steps = [out for typed, out in chunks(text) if typed == "1"]
    assert len(steps) == 3
    first = re.search(r"(?m)^You play .*$", steps[0])
    assert first is not None, steps[0]
    assert text.count(first.group(0)) == 1  # not printed again at the second and third steps
    assert all("Discards:" not in out for out in steps[:2]), steps[:2]
    before_turn = text[: text.index("> moves")]
    assert before_turn.count("Discards:") == 1
    # the AI's turn follows the third play, then the player's next turn with its status, once
    assert steps[2].count("Discards:") == 1


async def test_moves_numbers_follow_the_current_list(tmp_path: Path) -> None:
    text = await transcript("toy", ["7", "ready", "moves", "1", "1", "1", "quit"], tmp_path)
    said = dict(chunks(text)[:1])
    assert "Type 'moves' first" in said["7"]
    out = [o for typed, o in chunks(text) if typed == "1"]
    assert "Played: play gem" in out[0]
    # the list changed with the move: the number is not played blind (nor refused), the new list is shown
    assert "The moves changed" in out[1] and "   1. play " in out[1] and "Played" not in out[1]
    assert "Played: play gem" in out[2]
    assert "is not a" not in text


async def test_help_is_for_the_game_at_hand(tmp_path: Path) -> None:
    cartagena = dict(chunks(await transcript("cartagena", ["help", "quit"], tmp_path)))["help"]
    assert "'forward start " in cartagena and "'moves forward'" in cartagena and "Cartagena" in cartagena
    assert "ride" not in cartagena and "mi" not in cartagena.split()
    martinique = dict(chunks(await transcript("martinique", ["help", "quit"], tmp_path)))["help"]
    assert "'place " in martinique and "forward" not in martinique
    assert "cards" not in martinique  # Martinique has no cards to list


async def test_undo_is_not_counted_as_a_move(tmp_path: Path) -> None:
    text = await transcript("toy", ["ready", "undo", "ready", "board", "quit"], tmp_path)
    said = dict(chunks(text))
    assert "You took back your last action." in said["undo"]
    # the AI's ready and the player's: two moves stand, whatever was taken back on the way
    assert re.search(r"(?m)^Toy Gems · move 2$", said["board"]), said["board"]


async def test_undo_after_planning_a_flagon_card_says_what_happened(tmp_path: Path) -> None:
    # pick and place two characters, then plan the first card and try to take it back
    script = ["moves", "1"] * 4 + ["moves", "1", "undo", "quit"]
    said = chunks(await transcript("flagon", script, tmp_path))
    planned, undo = said[-3][1], said[-2][1]
    assert "You have planned for the " in planned, planned
    assert "revealed something" not in undo
    assert "can't be taken back: Flagon lets you take back only some steps" in undo, undo


def test_ctrl_c_ends_the_game_like_ctrl_d(tmp_path: Path) -> None:
    """A real process at its prompt: Ctrl-C ends the table and exits at once, without waiting for Enter."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "cartagena", "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stdin is not None
        seen = b""
        deadline = time.monotonic() + 60
        while not seen.endswith(b"> ") and time.monotonic() < deadline:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        assert seen.endswith(b"> "), seen[-500:]
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=20)  # stdin stays open: nothing is typed after Ctrl-C
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = (seen + rest).decode()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert "Interrupted; ending the table." in out and "abandoned" in out
    assert "Traceback" not in err.decode()
