"""The web settings (``PARLEY_WEB_PORT``, ``PARLEY_WEB_BIND``, ``PARLEY_WEB_URL``) and ``parley web``'s command line:
a value Parley cannot use is one line and exit code 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli.main import main
from bot.infra import settings


def test_web_settings_are_read_and_checked() -> None:
    got = settings.load(None, {"PARLEY_WEB_PORT": "8080", "PARLEY_WEB_URL": "https://parley.example/", "PARLEY_WEB_BIND": "0.0.0.0"})
    assert (got.web_port, got.web_url, got.web_bind) == (8080, "https://parley.example", "0.0.0.0")
    plain = settings.load(None, {})
    assert (plain.web_port, plain.web_url, plain.web_bind) == (None, "", "127.0.0.1")
    for name, value in [
        ("PARLEY_WEB_PORT", "80a"),
        ("PARLEY_WEB_PORT", "70000"),
        ("PARLEY_WEB_PORT", "0"),
        ("PARLEY_WEB_URL", "parley.example"),
        ("PARLEY_WEB_URL", "ftp://parley.example"),
        ("PARLEY_WEB_URL", "https://parley.example/?x=1"),
        ("PARLEY_WEB_URL", "https://"),
    ]:
        with pytest.raises(settings.SettingsError, match=name):
            settings.load(None, {name: value})
    assert "web_url='https://parley.example'" in repr(got)


def test_parley_web_refuses_bad_values_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARLEY_DB", str(tmp_path / "parley.sqlite3"))
    assert main(["--env-file", str(tmp_path / "none.env"), "web", "--port", "70000"]) == 2
    assert capsys.readouterr().err.strip() == "parley: --port must be a port number from 1 to 65535 (0: any free one), not 70000."
    monkeypatch.setenv("PARLEY_WEB_URL", "parley.example")
    assert main(["--env-file", str(tmp_path / "none.env"), "web"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("parley: PARLEY_WEB_URL must be") and "Traceback" not in err


def test_parley_web_on_a_taken_port_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    monkeypatch.setenv("PARLEY_DB", str(tmp_path / "parley.sqlite3"))
    monkeypatch.setenv("PARLEY_RENDER_PROCESSES", "0")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["--env-file", str(tmp_path / "none.env"), "web", "--port", str(port)]) == 2
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("parley:") or "Traceback" in line]
    assert said == [f"parley: cannot serve the pages on 127.0.0.1:{port} (Address already in use)."]
