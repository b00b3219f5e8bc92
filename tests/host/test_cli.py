"""The command line: console play scripted via stdin, simulate's summary, settings and the token."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.cli.main import main
from bot.cli.simulate import simulate
from bot.host.tables import TableHost
from bot.infra import settings as settings_mod
from bot.infra.logs import SafeRecords
from bot.infra.store import Store
from bot.transports.console import play
from tests.host.conftest import RecordingRenderer

ROOT = Path(__file__).resolve().parents[2]


def scripted(lines: list[str]) -> Callable[[], Awaitable[str | None]]:
    feed = iter(lines)

    async def read() -> str | None:
        return next(feed, None)

    return read


async def test_console_plays_a_toy_game_to_the_end(tmp_path: Path) -> None:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer())
    # "1" alone is not an action: the console maps it to move 1 of the last `moves` list, so re-list each time
    script = ["help", "moves", "hand", "board", "nonsense", "99"] + [x for _ in range(200) for x in ("moves", "1")]
    code = await play(
        host,
        "toy",
        options={"length": "short"},
        ai=1,
        level="easy",
        seed="s1",
        pictures=tmp_path,
        out=out,
        read=scripted(script),
    )
    text = out.getvalue()
    assert code == 0
    assert "moves" in text and "undo" in text  # help
    assert "1. ready" in text
    assert "! " in text  # the refusal of `nonsense`
    assert "Game over" in text and "[picture]" in text
    (folder,) = tmp_path.iterdir()
    pictures = sorted(folder.iterdir())
    assert pictures and pictures[0].name == "001.png" and any(p.suffix == ".gif" for p in pictures)
    assert "[private]" in text


async def test_console_prints_private_posts_only_for_the_human_seat(tmp_path: Path) -> None:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer())
    await play(
        host, "toy", options={}, ai=2, level="normal", seed="s2", pictures=tmp_path, out=out, read=scripted(["quit"])
    )
    text = out.getvalue()
    assert text.count("[private]") == 1 and "abandoned" in text


async def test_console_quits_cleanly_at_end_of_input(tmp_path: Path) -> None:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer())
    code = await play(
        host, "toy", options={}, ai=1, level="normal", seed="s", pictures=tmp_path, out=out, read=scripted([])
    )
    assert code == 0 and "End of input" in out.getvalue()


def _run(args: list[str], stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=env, timeout=120
    )


def test_parley_play_cartagena_through_stdin(tmp_path: Path) -> None:
    proc = _run(["play", "cartagena", "--seed", "7", "--variant", "tortuga"], "moves\n1\nhand\nboard\nquit\n", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Played" in proc.stdout
    (folder,) = (tmp_path / "pictures").iterdir()
    assert re.fullmatch(r"cartagena-\d{4}-\d\d-\d\d-\d{6}", folder.name), folder.name
    assert f"[picture] pictures/{folder.name}/001.png" in proc.stdout
    assert (folder / "001.png").read_bytes()[:4] == b"\x89PNG"


def test_parley_play_refuses_bad_arguments(tmp_path: Path) -> None:
    assert _run(["play", "nosuchgame"], "", tmp_path).returncode != 0
    bad = _run(["play", "cartagena", "--variant", "atlantis"], "", tmp_path)
    assert bad.returncode != 0 and "jamaica" in bad.stderr
    assert _run(["play", "cartagena", "--ai", "9"], "", tmp_path).returncode != 0


def test_simulate_summary_counts_wins_lengths_and_errors() -> None:
    summary = simulate("toy", 20, players=3, levels=["normal", "easy"], seed="x", bar=None)
    assert summary.games == 20 and len(summary.lengths) == 20 and not summary.errors
    assert sum(summary.wins) + summary.no_winner == pytest.approx(20)
    text = summary.text()
    assert "wins per seat" in text and "seat 3 (normal)" in text and "mean length" in text


def test_simulate_reports_errors_and_the_cli_exits_non_zero(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from tests.host.toygame import game as toygame

    def broken(*args: object) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(toygame.ToyGame, "ai_choose", broken)
    code = main(["simulate", "toy", "--games", "3"])
    captured = capsys.readouterr()
    assert code == 1 and "errors: 3" in captured.out and "RuntimeError" in captured.out
    assert "3/3" in captured.err  # the progress bar


def test_parley_simulate_cartagena(tmp_path: Path) -> None:
    proc = _run(["simulate", "cartagena", "--games", "4", "--players", "3", "--seed", "1"], "", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "wins per seat" in proc.stdout and "errors: 0" in proc.stdout and "4/4" in proc.stderr


def test_settings_from_env_file_with_environment_winning(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc.def\nPARLEY_DB=x.db\nPARLEY_DEV_GUILD=123\nPARLEY_LOG_LEVEL=debug\n")
    s = settings_mod.load(env, environ={"PARLEY_DB": "y.db"})
    assert (s.token, s.db_path, s.dev_guild, s.log_level) == ("abc.def", "y.db", 123, "DEBUG")
    assert "abc.def" not in repr(s) and "abc.def" not in str(s)
    with pytest.raises(settings_mod.SettingsError):
        settings_mod.load(None, environ={"PARLEY_DEV_GUILD": "general"})
    empty = settings_mod.load(tmp_path / "missing.env", environ={})
    assert (empty.token, empty.db_path, empty.dev_guild) == ("", "parley.sqlite3", None)


def test_the_token_is_redacted_from_logs() -> None:
    record = logging.LogRecord("parley.x", logging.INFO, __file__, 1, "login with %s failed", ("tok.en.123",), None)
    assert SafeRecords("tok.en.123").filter(record)
    assert record.getMessage() == "login with [token] failed"


def test_parley_run_without_a_token_gives_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN" in proc.stderr


async def test_console_exits_non_zero_after_an_internal_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.host.toygame import game as toygame

    real_apply = toygame.ToyGame.apply

    def broken(self: toygame.ToyGame, state: dict, seat: int, action: str) -> object:
        if action == "mark":
            raise RuntimeError("engine bug")
        return real_apply(self, state, seat, action)

    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer())
    monkeypatch.setattr(toygame.ToyGame, "apply", broken)
    code = await play(
        host,
        "toy",
        options={},
        ai=1,
        level="normal",
        seed="s",
        pictures=tmp_path,
        out=out,
        read=scripted(["ready", "mark", "quit"]),
    )
    assert code == 1 and "Something went wrong" in out.getvalue() and "engine bug" not in out.getvalue()


async def test_console_moves_are_grouped_like_the_picker_and_a_menu_is_listed_on_request(tmp_path: Path) -> None:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer(cheap=True))
    script = ["moves", "moves ride n 0-2", "moves nothing-like-this", "quit"]
    await play(
        host, "treasure_island", options={}, ai=2, level="easy", seed="s3", pictures=tmp_path, out=out,
        read=scripted(script),
    )
    text = out.getvalue()
    assert len(text.splitlines()) < 300, len(text.splitlines())  # not ~2,500 lines
    assert "menus; type 'moves <menu>'" in text
    assert "ride › N 0–2 mi:" in text and "   1. ride " in text  # one second level, numbered under its heading
    assert "! No move starts with" in text


async def test_console_prints_private_news_with_the_move_that_caused_it(tmp_path: Path) -> None:
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer(cheap=True))
    # the third draw ends the turn: the AI's whole turn follows in the same answer
    script = ["ready", "draw", "draw", "draw", "quit"]
    await play(host, "toy", options={}, ai=1, level="easy", seed="s3", pictures=tmp_path, out=out,
               read=scripted(script))
    text = out.getvalue()
    last = text.rindex("You drew ")
    ai_turn = text.index("(Blue) played")
    assert last < ai_turn, text[-1500:]  # the news, then the AI's turn (not after it)


async def test_console_moves_say_what_a_card_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rules import registry

    game = registry.get("toy")
    monkeypatch.setattr(game, "describe", lambda view, action: "adds its value to the pile" if action.startswith(
        "play") else "", raising=False)
    out = io.StringIO()
    host = TableHost(Store(":memory:"), ai_seed="c", renderer=RecordingRenderer(cheap=True))
    await play(host, "toy", options={}, ai=1, level="easy", seed="s3", pictures=tmp_path, out=out,
               read=scripted(["ready", "moves", "quit"]))
    lines = [line for line in out.getvalue().splitlines() if ". play " in line]
    assert lines and all(line.endswith(" — adds its value to the pile") for line in lines)
