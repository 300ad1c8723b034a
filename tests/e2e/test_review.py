"""The post-game review (issue #31) through the fake Discord: posted once in the channel after the final table (also
across restarts, worked out once), naming real decisions of the game with better moves that were legal where they
are proposed (checked by replaying the log with the engine); `/look review` answers a player privately and refuses
a game in play and a person who did not play it."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import threading

import pytest
from PIL import Image

from cogs import pictures, reviews
from engine import Game
from engine.ai.review import Review, review_log
from i18n import messages as M
from i18n import translate
from tests.e2e.play import start_game

pytestmark = pytest.mark.e2e
CH = "kingdomino"
EFFORT = (0.01, 4)  # tiny: whole games stay quick (the review is the same code at any effort)
TIMEOUT = 120.0  # the review is worked out in a thread of the test's bot, behind everything else


@pytest.fixture(autouse=True)
def quick_reviews(monkeypatch):
    """Reviews at the end of a game with the tests' threads (the bot's pool has no worker process), at a tiny
    effort; set before the bot starts."""
    monkeypatch.setattr(pictures, "REVIEWS_IN_THREADS", True)
    monkeypatch.setattr(reviews, "EFFORT", EFFORT)


@pytest.fixture
def bot_settings(bot_settings, request):
    """The tests' settings; `@pytest.mark.parametrize("bot_settings", [1], indirect=True)`: picture workers."""
    return dataclasses.replace(bot_settings, picture_workers=getattr(request, "param", 0))


def review_posts(fake) -> list:
    title = translate("en", M.REVIEW_TITLE)
    return [m for m in fake.messages_in(CH) if m.content.startswith(title)]


async def play_to_the_end(fake, bot, seed: int, channel: str = CH) -> int:
    """Alice and Bob play a 2-player Kingdomino game to its end, each move chosen at random (random players make
    mistakes a review finds); returns the game's id."""
    await start_game(fake, fake.alice, channel, [fake.bob], game="kingdomino", players=2)
    rng, game_id = random.Random(seed), None
    while (rec := await bot.store.get_active_game(fake.channel(channel).id)) is not None:
        game_id, d = rec.id, rec.game.decision()
        await bot.service.play(rec.id, int(d.player), rng.choice(rec.game.legal_actions()))
    return game_id


def check_review(fake, rec, post) -> None:
    """The post names the real decisions of the game its review found, each with a better move that was legal at
    that moment; one picture, 780 pixels wide, per player whose decisions cost points."""
    game = rec.game
    config, log = game.config.to_dict(), [(p, a.to_dict()) for p, a in game.log]
    players = reviews.reviewed_players(rec)
    review = Review.from_dict(review_log(config, game.seed, log, players, *EFFORT))
    named = 0
    for player in players:
        for item in review.worst(player, 3):
            assert game.log[item.index] == (player, item.played), "a real decision of that game"
            position = Game.replay(game.config, game.seed, game.log[: item.index])
            assert position.decision().player == player and position.round == item.round
            assert item.better in position.legal_actions() and item.better != item.played
            position.apply(item.better, by=player)  # the engine takes it
            assert reviews.item_line(game, item, "en") in post.content, "its words are in the post"
            named += 1
    assert named, "random players make mistakes"
    assert f"Round {review.worst(players[0], 1)[0].round}:" in post.content
    pngs = [a for a in post.attachments if a.filename.startswith("review-")]
    assert len(pngs) == sum(1 for p in players if review.worst(p, 1))
    assert all(Image.open(io.BytesIO(a.data)).width == 780 for a in pngs)
    assert all(a.description and a.description.startswith(("Alice: ", "Bob: ")) for a in pngs), "whose, in words"


async def test_the_review_is_posted_once_names_real_decisions_and_survives_a_restart(fake, harness, bot):
    game_id = await play_to_the_end(fake, bot, seed=3)
    posts = await fake.wait_until(lambda: review_posts(fake), timeout=TIMEOUT, what="the review in the channel")
    await pictures.current().background_done()
    assert len(review_posts(fake)) == 1, "posted once"
    final = [m for m in fake.messages_in(CH) if any(a.filename == "scores.png" for a in m.attachments)]
    assert final and final[-1].id < posts[0].id, "after the final table and its score sheet"
    rec = await bot.store.get_game(game_id)
    check_review(fake, rec, posts[0])
    assert "<@" in posts[0].content and not posts[0].history, "each player by name"

    # A player looks at their review privately: the same decisions, their picture.
    mine = await (await fake.slash(fake.alice, CH, "look", "review")).wait_message()
    assert mine.ephemeral and mine.content.startswith(translate("en", M.REVIEW_YOURS_TITLE))
    assert [a.filename for a in mine.attachments] == ["review.png"]
    # Someone who did not play gets a clear refusal.
    other = await (await fake.slash(fake.carol, CH, "look", "review")).wait_message()
    assert other.ephemeral and other.content == translate("en", M.REVIEW_NOT_YOURS)

    # After a restart nothing is worked out again, and nothing is posted again.
    new_bot = await harness.restart()
    await fake.wait_until(lambda: new_bot.get_cog("LookCog")._resumed, what="the start-up pass")
    await pictures.current().background_done()
    assert len(review_posts(fake)) == 1
    assert pictures.current().counts["review"] == 0 and pictures.current().counts["kept"] >= 1, "read, not redone"


async def test_a_review_the_bot_stopped_before_posting_is_posted_after_the_restart(fake, harness, bot):
    pictures.current().reviews_at_end = False  # as if the bot stopped before the review was worked out
    game_id = await play_to_the_end(fake, bot, seed=5)
    await pictures.current().background_done()
    assert review_posts(fake) == []

    new_bot = await harness.restart()
    posts = await fake.wait_until(lambda: review_posts(fake), timeout=TIMEOUT, what="the review after the restart")
    check_review(fake, await new_bot.store.get_game(game_id), posts[0])
    await pictures.current().background_done()
    new_bot = await harness.restart()
    await fake.wait_until(lambda: new_bot.get_cog("LookCog")._resumed, what="the start-up pass")
    await pictures.current().background_done()
    assert len(review_posts(fake)) == 1, "posted once, whatever the restarts"


async def test_look_review_refuses_a_game_in_play(fake, bot):
    await start_game(fake, fake.alice, CH, [fake.bob], game="kingdomino", players=2)
    answer = await (await fake.slash(fake.alice, CH, "look", "review")).wait_message()
    assert answer.ephemeral and answer.content == translate("en", M.REVIEW_NOT_OVER)
    rec = await bot.store.get_active_game(fake.channel(CH).id)
    assert rec is not None and not rec.game.log, "nothing changed"
    assert json.dumps(rec.game.to_dict())  # the game is still whole


@pytest.mark.parametrize("bot_settings", [1], indirect=True)
async def test_the_review_is_worked_out_in_its_own_worker_process(fake, bot):
    pool = pictures.current()
    assert pool.workers == 1 and pool.reviews_at_end, "the bot's default: reviews at the end, in processes"
    game_id = await play_to_the_end(fake, bot, seed=3)
    posts = await fake.wait_until(lambda: review_posts(fake), timeout=TIMEOUT, what="the review")
    check_review(fake, await bot.store.get_game(game_id), posts[0])
    assert pool.review.pool is not None and pool.counts["review"] >= 2, "worked out and drawn in the review lane"
    assert pool.stats["in_threads"] == 0, "nothing fell back to the bot's own threads"


async def test_a_review_at_work_delays_no_table_of_another_game(fake, bot, monkeypatch):
    """A review that never ends while another game is played: every move of that game is answered and its tables
    are posted; the review is posted once it is let go."""
    release = threading.Event()
    real = pictures.review_data

    def held(*args):
        assert release.wait(TIMEOUT), "the test let it go"
        return real(*args)

    monkeypatch.setattr(pictures, "review_data", held)
    await play_to_the_end(fake, bot, seed=3)
    await fake.wait_until(lambda: pictures.current().review.running == 1, what="the review at work")
    other = fake.channel("general").name
    before = len([m for m in fake.messages_in(other) if any(a.filename == "table.png" for a in m.attachments)])
    await play_to_the_end(fake, bot, seed=4, channel=other)  # a whole game, while the review is at work
    tables = [m for m in fake.messages_in(other) if any(a.filename == "table.png" for a in m.attachments)]
    assert len(tables) - before >= 6 and review_posts(fake) == [] and pictures.current().review.running == 1
    release.set()
    await fake.wait_until(lambda: review_posts(fake), timeout=TIMEOUT, what="the review, let go")
    await pictures.current().background_done()  # the other game's review too, after the first
    assert len(review_posts(fake)) == 1


async def test_look_review_before_the_review_is_made_starts_it_and_says_so(fake, bot):
    pictures.current().reviews_at_end = False  # nothing started at the end: the look starts it
    game_id = await play_to_the_end(fake, bot, seed=5)
    await pictures.current().background_done()
    first = await (await fake.slash(fake.alice, CH, "look", "review")).wait_message()
    assert first.ephemeral and first.content == translate("en", M.REVIEW_WORKING) and not first.attachments
    posts = await fake.wait_until(lambda: review_posts(fake), timeout=TIMEOUT, what="the review it started")
    check_review(fake, await bot.store.get_game(game_id), posts[0])
    await pictures.current().background_done()
    again = await (await fake.slash(fake.alice, CH, "look", "review")).wait_message()
    assert again.content.startswith(translate("en", M.REVIEW_YOURS_TITLE)) and again.attachments
    assert len(review_posts(fake)) == 1
