"""Pictures drawn in worker processes (PICTURE_WORKERS), as the bot runs by default outside the tests: a whole game
with its panels, tables, score sheet, replay and chart, then what happens when a picture fails or a worker dies."""

from __future__ import annotations

import dataclasses
import io
import logging
import multiprocessing
import os

import pytest
from PIL import Image

from cogs import pictures
from render import render_table
from render.__main__ import demo_config, play_demo
from tests.e2e.play import latest_table, play_game, start_game

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_settings(bot_settings):
    return dataclasses.replace(bot_settings, picture_workers=1)


async def test_a_whole_game_with_every_picture_drawn_in_a_worker_process(fake, bot):
    pool = pictures.current()
    assert pool.workers == 1
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="queendomino", players=2)
    await play_game(fake, bot, "kingdomino", {str(u.id): u for u in (fake.alice, fake.bob)}, seed=5)
    final = latest_table(fake, "kingdomino")
    names = {a.filename for a in final.attachments}
    assert {"scores.png", "chart.png"} <= names and any(n.endswith(".gif") for n in names)
    for attachment in final.attachments:
        assert attachment.image().size[0] >= 400
    tables = [m for m in fake.messages_in("kingdomino") if any(a.filename == "table.png" for a in m.attachments)]
    assert len(tables) >= 5
    # every picture of the game (tables, the turn panels' pictures, the end) came out of the worker
    assert pool.stats["drawn"] > len(tables) and pool.stats["in_threads"] == 0
    assert pool.stats["failed"] == 0 and pool.stats["restarts"] == 0


def _broken(*args, **kwargs) -> bytes:
    raise ValueError("a picture that cannot be drawn")


def _dies_in_a_worker(game, *args, **kwargs) -> bytes:
    if multiprocessing.parent_process() is not None:
        os._exit(3)  # the worker process dies mid-picture
    return render_table(game, *args, **kwargs)


async def test_a_failing_picture_is_none_and_logged_once_with_the_workers_traceback(caplog):
    pool = pictures.PicturePool(1)
    try:
        with caplog.at_level(logging.WARNING, logger="cogs.pictures"):
            assert await pool.draw(_broken) is None
            assert await pool.draw(_broken) is None
        errors = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(errors) == 1 and "a picture that cannot be drawn" in errors[0].getMessage()
        assert "Traceback" in errors[0].getMessage()
        assert any("again" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
        assert pool.stats == {"drawn": 0, "failed": 2, "restarts": 0, "in_threads": 0}
    finally:
        pool.close()


async def test_a_worker_that_dies_is_replaced_and_its_picture_drawn_in_a_thread(caplog):
    game = play_demo(demo_config("kingdomino", 2, False, []), 4)
    pool = pictures.PicturePool(1)
    try:
        with caplog.at_level(logging.WARNING, logger="cogs.pictures"):
            png = await pool.draw(_dies_in_a_worker, game, None)
        assert png == render_table(game, None)  # drawn after all, in a thread of this process
        assert pool.stats["restarts"] == 1 and pool.stats["in_threads"] == 1
        assert any("died" in r.getMessage() for r in caplog.records)
        # the next picture goes to a new worker, and is the same picture
        assert await pool.draw(render_table, game, None) == png
        assert pool.stats["drawn"] == 1
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG"
    finally:
        pool.close()
