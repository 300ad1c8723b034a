"""Fixtures of the web board's tests: the board without Discord (`local`), Debian's Chromium driven by Playwright
(`browser`), pages that record their console errors (`open_page`), and the fake Discord's fixtures for the tests of
the board beside a Discord table.

Chromium is /usr/bin/chromium (the apt package `chromium`; `.ci/run` installs it). Without it the browser tests are
skipped on a developer's machine and fail under CI (CI=true): they must run there."""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from db import open_store
from settings import Settings

# The fake Discord and the real bot (tests/e2e): `fake`, `bot`, `harness`, ... for the tests that need Discord.
from tests.e2e.conftest import (  # noqa: F401
    backend,
    bot,
    bot_extensions,
    bot_factory,
    database_url,
    fake,
    harness,
    pytest_runtest_makereport,
)
from tests.web.driver import CHROMIUM, CHROMIUM_ARGS, RECORD_FRAMES, Page

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


def _chromium_or_skip() -> None:
    if Path(CHROMIUM).is_file() and shutil.which(CHROMIUM):
        return
    message = f"{CHROMIUM} is missing: apt-get install chromium"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message + " (CI must run the browser tests; .ci/run installs it)")
    pytest.skip(message)


REVIEW_EFFORT = (0.01, 4)
HINT_EFFORT = (
    0.01,
    3,
    3,
)  # hard's budget, playouts, other moves compared (tests/ai/test_hint.py tests the hint)  # tiny, as in tests/e2e/test_review.py: the review is the same code at any effort


@pytest.fixture(autouse=True)
def tiny_reviews(monkeypatch) -> None:
    """A local game's end starts its post-game review (hard's search over every decision: at the real effort most of
    a whole game's CPU in these tests, which look at the board, not at the review's strength: tests/ai/test_review.py
    does). tests/web/test_review.py checks what the board shows of it."""
    from cogs import reviews
    from web import hints

    monkeypatch.setattr(reviews, "EFFORT", REVIEW_EFFORT)
    monkeypatch.setattr(hints, "EFFORT", HINT_EFFORT)  # a hint is the same code at any effort


@pytest.fixture
async def browser() -> AsyncIterator:
    _chromium_or_skip()
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        chromium = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


def board_settings(tmp_path: Path, **extra) -> Settings:
    """The settings of a local board (no token) on a free port, its database in `tmp_path`; `extra`: other settings."""
    return Settings(
        token="",
        database_path=tmp_path / "board.sqlite3",
        dev_guild_id=None,
        log_level=logging.INFO,
        web_port=0,
        **extra,
    )


@pytest.fixture
def local_settings(tmp_path: Path) -> Settings:
    return board_settings(tmp_path)


@pytest.fixture
async def local(local_settings: Settings) -> AsyncIterator:
    """The bot without Discord: the game service with a null poster, the board on a free port, the timers."""
    async with running_board(local_settings, None, timer_period=0.5) as board_bot:
        yield board_bot


@asynccontextmanager
async def running_board(settings: Settings, store_url: str | None, **options) -> AsyncIterator:
    """A local board (the bot without Discord) on `settings` and its store (SQLite, or the PostgreSQL `store_url`),
    both closed at the end; `options`: `start_local`'s."""
    from web.local import start_local

    store = await open_store(settings.database_path, store_url)
    board_bot = await start_local(settings, store, **options)
    try:
        yield board_bot
    finally:
        await board_bot.close()
        await store.close()


@pytest.fixture
async def open_page(browser) -> AsyncIterator[Callable]:
    """`await open_page(url, phone=True)` -> a driver.Page in a new browser context (its own cookies). At teardown
    the test fails if any page logged a console error or threw."""
    pages: list[Page] = []
    contexts = []

    async def make(url: str, *, phone: bool = True, lang: str = "en-US") -> Page:
        context = await browser.new_context(**(PHONE if phone else DESKTOP), locale=lang)
        contexts.append(context)
        page = Page(await context.new_page())
        await page.page.add_init_script(RECORD_FRAMES)
        pages.append(page)
        await page.goto(url)
        return page

    yield make
    errors = [e for p in pages for e in p.errors]
    for context in contexts:
        await context.close()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def bot_settings(tmp_path: Path, database_url: str | None) -> Settings:  # noqa: F811 - the e2e fixture
    """The e2e bot's settings (tests/e2e/conftest.py) with its board on a free port."""
    return Settings(
        token="fake-token",
        database_path=tmp_path / "test.sqlite3",
        dev_guild_id=None,
        log_level=logging.INFO,
        database_url=database_url,
        web_port=0,
    )
