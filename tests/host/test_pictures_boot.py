"""The render pool before its workers are ready: a picture is drawn in this process at once (not after the boot);
once a worker is ready pictures go to it again, and what the local drawings cached here is dropped. The pool's
boot is held at a gate (tests/discord/slowboot.py), so this does not depend on how fast the machine is."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from bot.infra import pictures as pictures_mod
from bot.infra.pictures import Pictures
from tests.discord import slowboot


def pid_renderer(game_id: str, view: dict[str, Any], seat: int | None) -> bytes:
    """A "picture" that says which process drew it."""
    return str(os.getpid()).encode()


async def test_pictures_are_drawn_here_until_a_worker_is_ready(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = tmp_path / "gate"
    monkeypatch.setenv(slowboot.GATE, str(gate))
    forgotten: list[int] = []
    monkeypatch.setattr(pictures_mod, "forget_drawings", lambda: forgotten.append(os.getpid()))
    pictures = Pictures(pid_renderer, processes=1)
    assert pictures.pool is not None
    pictures.pool.boot = slowboot.wait_for_gate
    pictures.start()
    try:
        assert await pictures.render("toy", {}, None) == str(os.getpid()).encode()  # here, the worker still booting
        assert not pictures.pool.any_ready() and not forgotten
        gate.touch()
        await pictures.pool.ready()
        [worker] = pictures.pool.pids()
        assert await pictures.render("toy", {}, None) == str(worker).encode()
        assert await pictures.render("toy", {}, None) == str(worker).encode()
        for _ in range(200):  # dropped in the background, by the thread that drew here
            if forgotten:
                break
            await asyncio.sleep(0.01)
        assert forgotten == [os.getpid()]  # the local caches dropped once, in this process
    finally:
        gate.touch()
        pictures.shutdown()
