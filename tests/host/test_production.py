"""The production host: pictures drawn in worker processes that are replaced when they die, replays of bounded
memory posted after the result, and finished tables that keep only what they need."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.host import index
from bot.host.factory import build_host
from bot.host.posts import NO_BOARD, NO_HAND
from bot.host.tables import TableHost
from bot.infra.replay import gif
from bot.infra.settings import Settings, SettingsError, default_render_processes, load
from bot.infra.workers import WorkerPool
from tests.host import workers_child
from tests.host.conftest import ANA, BEN, CHANNEL, GUILD, Caller, Clock, Published, running
from tests.host.test_play import play_to_end

ROOT = Path(__file__).resolve().parents[2]


def test_the_render_processes_setting_defaults_to_one_per_core() -> None:
    assert load(None, {}).render_processes == default_render_processes() >= 1
    assert load(None, {"PARLEY_RENDER_PROCESSES": "3"}).render_processes == 3
    assert load(None, {"PARLEY_RENDER_PROCESSES": "0"}).render_processes == 0
    for bad in ("-1", "two", "1000"):
        with pytest.raises(SettingsError, match="PARLEY_RENDER_PROCESSES"):
            load(None, {"PARLEY_RENDER_PROCESSES": bad})


def test_parley_run_serves_the_factory_host_which_draws_in_worker_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.transports.discord import client

    built: list[TableHost] = []

    class Stop(Exception):
        pass

    class Bot:
        def __init__(self, host: TableHost, **_: object) -> None:
            built.append(host)
            raise Stop

    monkeypatch.setattr(client, "ParleyBot", Bot)
    monkeypatch.setattr(client, "configure_logging", lambda settings: None)
    settings = load(None, {"DISCORD_TOKEN": "x", "PARLEY_DB": str(tmp_path / "db.sqlite3")})
    with pytest.raises(Stop):
        client.run(settings)
    [host] = built
    assert host.pictures.processes == default_render_processes() and host.pictures.pool is not None
    assert host.store.db.path == str(tmp_path / "db.sqlite3")


async def production(tmp_path: Path, processes: int, renderer: object, **options: object) -> TableHost:
    host = build_host(
        Settings(db_path=str(tmp_path / "db.sqlite3"), render_processes=processes),
        renderer=renderer,
        clock=Clock(),
        ai_seed="test",
        **options,
    )
    await host.start()
    await host.pictures.warm()
    return host


async def test_pictures_are_drawn_in_the_worker_processes(tmp_path: Path) -> None:
    host = await production(tmp_path, 2, workers_child.worker_pid)
    try:
        out = await running(host, BEN, ready=False)
        drawn_in = {int(p.image) for p in out.public if p.image} | {int(p.image) for _, p in out.private if p.image}
        assert drawn_in and drawn_in <= set(host.pictures.worker_pids()) and os.getpid() not in drawn_in
    finally:
        await host.close()
    assert host.pictures.worker_pids() == []


async def test_a_killed_render_worker_is_replaced_and_the_next_move_has_its_picture(tmp_path: Path) -> None:
    host = await production(tmp_path, 1, workers_child.tiny)
    try:
        await running(host, BEN)
        [old] = host.pictures.worker_pids()
        os.kill(old, signal.SIGKILL)
        await asyncio.sleep(0.2)
        out = await host.play(ANA, "mark")
        assert out.ok
        boards = [p for p in out.public if p.board_key and not p.edit_only]
        assert boards and all(p.image == workers_child.TINY_PNG for p in boards)
        assert all(NO_BOARD not in p.text for p in boards)
        [new] = host.pictures.worker_pids()
        assert new != old and host.pictures.pool is not None and host.pictures.pool.replaced == 1
    finally:
        await host.close()


async def test_a_worker_that_dies_while_drawing_is_replaced_and_the_picture_drawn_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    marker = tmp_path / "died"
    host = await production(tmp_path, 1, workers_child.DiesOnce(str(marker)))
    try:
        out = await running(host, BEN)
        assert marker.exists()  # a worker did die on the first picture ...
        boards = [p for p in out.public if p.board_key and not p.edit_only]
        assert boards and all(p.image == workers_child.TINY_PNG for p in boards)  # ... and no picture is missing
        assert host.pictures.pool is not None and host.pictures.pool.replaced == 1
        assert "retrying the job" in caplog.text
    finally:
        await host.close()


async def test_a_picture_that_kills_every_worker_is_posted_without_it_and_the_post_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    host = await production(tmp_path, 1, workers_child.always_dies)
    try:
        out = await running(host, BEN, ready=False)
        board = next(p for p in out.public if p.board_key and not p.edit_only)
        assert board.image is None and NO_BOARD in board.text
        assert "died during a job again" in caplog.text and "picture failed" in caplog.text
        hands = [p for _, p in out.private if p.filename == "hand.png"]
        assert hands and all(p.image is None and NO_HAND in p.text for p in hands)
        # the move's batch was tried twice, then each picture alone twice, each time killing (and replacing) the
        # worker drawing it
        assert host.pictures.pool is not None and host.pictures.pool.replaced == 2 + 2 * (1 + len(hands))
        await host.pictures.warm()
        [_] = host.pictures.worker_pids()  # a worker is back, ready for the next picture
    finally:
        await host.close()


def test_a_replay_of_a_long_game_stays_under_its_memory_bound() -> None:
    """The replay as a render worker builds it (the game replayed, 60 frames drawn and encoded), in a fresh
    process: the growth of its resident set at the peak, for the games with the largest boards."""
    for game_id in ("buccaneer", "treasure_island"):
        done = subprocess.run(
            [sys.executable, "-m", "tests.host.workers_child", "replay-memory", game_id],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        r = json.loads(done.stdout.strip().splitlines()[-1])
        assert r["moves"] > 500 and r["frames"] > 50, r
        assert r["peak_mb"] <= 60, r


def test_the_replay_gif_shows_each_board_and_merges_identical_ones() -> None:
    """Written frame by frame (only the changed rectangle each time), the GIF still shows every board as it
    was drawn, and a board identical to the one before only lengthens that one's time on screen."""
    squares = [("#204080", 0), ("#204080", 0), ("#204080", 10), ("#30a050", 15)]
    pngs = []
    for colour, x in squares:
        img = Image.new("RGB", (40, 30), "#f0e0c0")
        img.paste(Image.new("RGB", (10, 10), colour), (x, 5))
        out = io.BytesIO()
        img.save(out, format="PNG")
        pngs.append(out.getvalue())
    shown = Image.open(io.BytesIO(gif(pngs.__getitem__, len(pngs), frame_ms=100, last_ms=900)))
    assert shown.n_frames == 3
    for k, (board, duration) in enumerate([(0, 200), (2, 100), (3, 900)]):
        shown.seek(k)
        source = Image.open(io.BytesIO(pngs[board])).convert("RGB")
        assert ImageChops.difference(shown.convert("RGB"), source).getbbox() is None, k
        assert shown.info["duration"] == duration


async def test_the_replay_is_published_after_the_result_was_delivered(host: TableHost) -> None:
    published = Published(host)
    await running(host, BEN, ais=1)
    last = (await play_to_end(host, ANA, BEN))[-1]
    assert any(p.filename == "final.png" for p in last.public)
    await asyncio.sleep(0.5)  # the replay is drawn by now (six toy frames), but the result is not delivered yet
    assert published.outs == []
    replay = await published.replay_after(last)
    assert replay.image is not None and replay.image[:3] == b"GIF"


async def test_a_finished_table_drops_its_caches(host: TableHost, monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[None] = []
    monkeypatch.setattr("bot.host.index.trim_heap", lambda: trims.append(None))
    await running(host, BEN, ais=1)
    summary = host.table_for(CHANNEL)
    assert summary is not None
    table = host.index.tables[summary.table_id]  # noqa: SLF001 - the test looks inside
    assert await host.choices(ANA)
    assert table.choices_for is not None
    await play_to_end(host, ANA, BEN)
    assert table.status == "finished"
    assert table.choices_for is None and table.undo_stack == [] and table.turn_lines == [] and table.acted == {}
    assert trims == [None]  # and the allocator gives the freed pages back
    assert host.table_for(CHANNEL).status == "finished"  # still answers the channel's buttons


async def test_only_the_most_recent_finished_tables_stay_in_memory_the_rest_come_back_from_the_store(
    host: TableHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index, "FINISHED_KEPT", 2)
    channels = [CHANNEL, CHANNEL + 1, CHANNEL + 2]
    for channel in channels:
        ana = Caller(GUILD, channel, ANA.user_id, "Ana", moderator=True)
        assert (await host.open(ana, "toy", {})).ok
        assert (await host.join(Caller(GUILD, channel, BEN.user_id, "Ben"))).ok
        assert (await host.end(ana)).ok
    assert host.table_for(channels[0]) is None  # forgotten: the oldest of three
    assert [host.table_for(c).status for c in channels[1:]] == ["abandoned", "abandoned"]
    assert len([t for t in host.index.tables.values() if t.status == "abandoned"]) == 2  # noqa: SLF001
    # a late DM failure about the forgotten table: it is reloaded from the store and the player is told
    out = await host.dm_failed(channels[0], BEN.user_id)
    assert out.ok and "couldn't send you a direct message" in out.public[0].text
    assert host.table_for(channels[0]).status == "abandoned"
    assert host.table_for(channels[1]) is None  # the least recently used one made room


async def test_a_worker_grown_past_its_bound_is_replaced_by_a_fresh_one() -> None:
    pool = WorkerPool(1, recycle_bytes=1)  # every worker is "too big" after its first job
    try:
        first = await pool.run(os.getpid)
        second = await pool.run(os.getpid)
        assert first != second and pool.recycled >= 1 and pool.replaced == 0
    finally:
        pool.shutdown()
