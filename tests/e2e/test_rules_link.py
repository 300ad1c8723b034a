"""/rules in Discord (issue #46): the short summary as before and, when the board has a public address, a link button
to the whole rules on the board: the channel's table (its game, variants, players) in the reader's language. The
link is followed to the real board, which serves that page. Without a public address nothing new is said."""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from i18n import messages as M
from i18n import term, translate
from settings import Settings
from tests.e2e.play import start_game

pytestmark = pytest.mark.e2e

PUBLIC = "https://board.example.org/"


@pytest.fixture
def bot_settings(bot_settings: Settings) -> Settings:
    """The bot with its board on a free port, behind a public address."""
    return dataclasses.replace(bot_settings, web_port=0, public_url=PUBLIC)


def rules_button(message) -> dict:
    [link] = [b for b in message.buttons if b.get("style") == 5]
    return link


async def test_rules_link_to_the_channels_table_in_the_readers_language(fake, bot):
    fake.alice.locale = "cs"
    await start_game(fake, fake.bob, "kingdomino", [fake.carol], game="queendomino", players=2, harmony=True)
    message = await (await fake.slash(fake.alice, "kingdomino", "rules")).wait_message()
    assert message.ephemeral and message.content == translate("cs", M.RULES_QUEENDOMINO)
    link = rules_button(message)
    assert link["label"] == translate("cs", M.RULES_LINK_BUTTON)
    url = urlsplit(link["url"])
    assert link["url"].startswith(PUBLIC + "rules?")
    query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
    assert query == {"game": "queendomino", "variants": "harmony", "players": "2", "lang": "cs"}
    # The board behind that address serves the page: the table's rules, in Czech.
    async with aiohttp.ClientSession() as http, http.get(bot.board.url + "rules?" + url.query) as r:
        assert r.status == 200
        page = await r.text()
    assert '<html lang="cs"' in page
    assert translate("cs", M.RULES_TURN_Q["tax"]) in page  # Queendomino's knights
    assert term("cs", "harmony") in page and 'id="variant-harmony"' in page and "variant-dynasty" not in page
    assert not fake.take_violations()


async def test_rules_of_a_game_asked_for_by_name_link_to_that_game(fake, bot):
    message = await (await fake.slash(fake.bob, "general", "rules", options={"game": "royal-wedding"})).wait_message()
    assert message.content == translate("en", M.RULES_QUEENDOMINO) + "\n" + translate("en", M.RULES_ROYAL_WEDDING)
    assert rules_button(message)["url"] == PUBLIC + "rules?game=royal-wedding&lang=en"


async def test_without_a_public_address_rules_say_nothing_new(fake, bot):
    bot.service.board = dataclasses.replace(bot.service.board, public_url=None)
    message = await (await fake.slash(fake.bob, "general", "rules")).wait_message()
    assert message.content == translate("en", M.RULES_KINGDOMINO)
    assert message.buttons == []
