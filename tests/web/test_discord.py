"""The board beside a Discord table (the fake Discord of tests/fakediscord): a move made in Discord reaches an open
board, and a move made on the board is the same move as one made in Discord (its log, its table in the channel)."""

from __future__ import annotations

import random

import pytest

from tests.e2e.play import latest_table, play_turn, start_game
from web import auth

pytestmark = pytest.mark.e2e


async def _game(fake, bot):
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    return await bot.store.get_active_game(fake.channel("kingdomino").id)


async def _shows(page, version: int) -> None:
    await page.page.wait_for_function(
        "(v) => +document.querySelector('main').dataset.version === v", arg=version, timeout=60_000
    )


async def test_a_move_made_in_discord_shows_on_an_open_board(fake, bot, open_page):
    rec = await _game(fake, bot)
    watcher = await open_page(f"{bot.board.url}join/{auth.link_token(bot.board.secret, fake.carol.id, rec.id)}")
    await _shows(watcher, rec.version)
    assert await watcher.turn() == "wait", "a watcher with no seat gets no controls"
    people = {str(fake.alice.id): fake.alice, str(fake.bob.id): fake.bob}
    for _ in range(3):  # three turns in Discord, each one on the board as soon as it is saved
        d = (await bot.store.get_active_game(rec.channel_id)).game.decision()
        await play_turn(fake, people[d.player], "kingdomino", random.Random(1))
        now = await bot.store.get_active_game(rec.channel_id)
        await _shows(watcher, now.version)
    log = await watcher.page.text_content("#log")  # a phone keeps the log folded (issue #45): its text, shown or not
    assert "chose domino" in log


async def test_a_move_made_on_the_board_is_a_discord_move(fake, bot, open_page):
    rec = await _game(fake, bot)
    d = rec.game.decision()
    user = fake.alice if d.player == str(fake.alice.id) else fake.bob
    other = fake.bob if user is fake.alice else fake.alice
    tables = len([m for m in fake.messages_in("kingdomino") if m.attachments])
    # Each person opens the board through the signed link the bot hands them.
    page = await open_page(f"{bot.board.url}join/{auth.link_token(bot.board.secret, user.id, rec.id)}")
    assert page.page.url.endswith(f"?game={rec.id}")
    assert await page.wait_turn() == "first_claim"
    them = await open_page(f"{bot.board.url}join/{auth.link_token(bot.board.secret, other.id, rec.id)}")
    await _shows(them, rec.version)
    assert await them.turn() == "wait" and await them.count(".dom.legal") == 0
    claimed = await page.page.get_attribute(".dom.legal", "data-domino")
    await page.tap(".dom.legal")
    # The same move as from Discord: in the game's log under the person's id, and the table posted in the channel
    # when the turn passes to the other player.
    await fake.wait_until(lambda: len([m for m in fake.messages_in("kingdomino") if m.attachments]) > tables)
    actions = await bot.store.get_actions(rec.id)
    assert actions[0].user_id == user.id and actions[0].action == {"type": "claim", "domino": claimed}
    assert "chose domino" in latest_table(fake, "kingdomino").content
    now = await bot.store.get_game(rec.id)
    await _shows(them, now.version)


async def test_a_forged_or_expired_link_is_refused(fake, bot, open_page):
    rec = await _game(fake, bot)
    forged = auth.link_token(b"not the board's secret" * 2, fake.alice.id, rec.id)
    expired = auth.link_token(bot.board.secret, fake.alice.id, rec.id, seconds=-1)
    for token in (forged, expired, "nonsense"):
        page = await open_page(f"{bot.board.url}join/{token}")
        assert "expired or is not valid" in await page.page.inner_text("body")
        page.errors.clear()  # the refusal's 403 is a console error by design


async def test_a_link_opens_its_own_game_only(fake, bot, open_page):
    """A link lets its person watch and act in its game only; their other games stay closed to that browser until
    they follow that game's own link (a leaked link opens one game, not all of them)."""
    first = await _game(fake, bot)
    await start_game(fake, fake.alice, "general", [fake.bob], game="kingdomino", players=2)
    second = await bot.store.get_active_game(fake.channel("general").id)
    d = second.game.decision()
    user = fake.alice if d.player == str(fake.alice.id) else fake.bob
    page = await open_page(f"{bot.board.url}join/{auth.link_token(bot.board.secret, user.id, first.id)}")
    await page.goto(f"{bot.board.url}?game={second.id}")
    await page.page.wait_for_function("() => !document.getElementById('toast').hidden")
    assert "not open to you" in await page.toast()
    answer = await page.page.evaluate(
        "async ([g, v]) => (await fetch(`api/games/${g}/act`, {method: 'POST', headers: {'Content-Type': "
        "'application/json'}, body: JSON.stringify({version: v, action: {type: 'skip'}})})).json()",
        [second.id, second.version],
    )
    assert answer["ok"] is False and "no seat" in answer["error"]
    page.errors.clear()  # the refused stream and state are console errors by design
    await page.goto(f"{bot.board.url}join/{auth.link_token(bot.board.secret, user.id, second.id)}")
    assert await page.wait_turn() == "first_claim", "its own link opens it"


async def test_a_personal_link_opens_in_the_first_browser_only(fake, bot, open_page):
    """A link the bot hands a person (it may travel in a screenshot or a proxy's log) opens their seat in the first
    browser that opens it, and again there; a second browser is told to ask for a new one and acts for nobody."""
    rec = await _game(fake, bot)
    d = rec.game.decision()
    user = fake.alice if d.player == str(fake.alice.id) else fake.bob
    link = f"{bot.board.url}join/{auth.link_token(bot.board.secret, user.id, rec.id)}"
    first = await open_page(link)
    assert await first.wait_turn() == "first_claim"
    await first.page.goto(link)  # the same browser again: still theirs
    assert await first.wait_turn() == "first_claim"
    second = await open_page(link)
    assert "opened in another browser" in await second.page.inner_text("body")
    assert "/play board" in await second.page.inner_text("body")
    second.errors.clear()  # the refusal is a 403 page: the browser logs it
    response = await second.page.context.request.get(f"{bot.board.url}api/games/{rec.id}")
    assert response.status == 403, "the second browser may not even watch"
