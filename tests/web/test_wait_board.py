"""No silence while the computer players wait (issue 46): after a person's move that can still be taken back, the
computers wait (`computer_delay`, from the local board's settings: set here) and the board says so, counting down,
with "Play now" (Discord's "Computers, play now") and, for the mover, Undo; Play now lets them play at once, an
Undo meanwhile keeps them from playing."""

from __future__ import annotations

import random

import pytest

from settings import Settings
from tests.web.conftest import board_settings
from tests.web.driver import play_step
from tests.web.shots import both_sizes, laid_out
from tests.web.test_games import open_table

pytestmark = pytest.mark.e2e

DELAY = 40.0  # seconds: long enough that only Play now (or an undo) ends the wait in these tests


@pytest.fixture
def local_settings(tmp_path) -> Settings:
    return board_settings(tmp_path, computer_delay=DELAY)


SECONDS = (
    "() => { const t = document.getElementById('wait-left').textContent.match(/(\\d+) s/); return t ? +t[1] : null; }"
)


async def until_waiting(local, page, gid: int, rng: random.Random) -> int:
    """The person plays (taps) until a move of theirs leaves the computers waiting; returns the version it made."""
    for _ in range(60):
        await page.wait_turn()
        await play_step(page, rng)
        if local.service.waiting(gid) is not None:
            await page.page.wait_for_selector("#wait")
            return await page.version()
    raise AssertionError("no move of the person's left the computers waiting")


async def test_the_board_counts_down_the_computers_wait_and_plays_now(local, open_page, tmp_path):
    assert local.service.computer_delay == DELAY
    page = await open_page(local.board.url)
    gid = await open_table(page, "kingdomino", 2, 1)
    rng = random.Random(3)
    version = await until_waiting(local, page, gid, rng)
    first = await page.page.evaluate(SECONDS)
    assert first is not None and 0 < first <= DELAY
    assert "The computer players play in" in await page.page.inner_text("#wait")
    assert "you can still take your move back" in await page.page.inner_text("#wait")
    assert await page.count("#play-now") == 1 and await page.count("#undo") == 1
    await page.page.wait_for_function(f"() => ({SECONDS})() < {first}")  # it counts down
    await laid_out(page.page)
    await both_sizes(page.page, tmp_path, "countdown")
    # Undo meanwhile: the computer never played, the person is back at their choice.
    actions = len(await local.service.store.get_actions(gid, include_undone=False))
    await page.tap("#undo")
    await page.page.wait_for_function("() => !document.getElementById('wait')")
    await page.wait_turn()
    assert local.service.waiting(gid) is None
    assert len(await local.service.store.get_actions(gid, include_undone=False)) < actions
    # Again, and this time Play now: the computer plays at once.
    version = await until_waiting(local, page, gid, rng)
    before = len(await local.service.store.get_actions(gid, include_undone=False))
    await page.tap("#play-now")
    await page.wait_version_after(version)
    await page.page.wait_for_function("() => !document.getElementById('wait')")
    rec = await local.service.games.get(gid)
    played = (await local.service.store.get_actions(gid, include_undone=False))[before:]
    assert rec.version > version and local.service.waiting(gid) is None
    assert any(a.player_id.startswith("cpu:") for a in played), "the computer played"
    assert not await page.toast()
