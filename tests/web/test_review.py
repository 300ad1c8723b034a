"""The post-game review on the board (issue #31): once a game is over, the board's "Review" section shows the
decisions that cost a person most, in the reader's language, with Discord's own words (cogs/reviews.py) and its
picture (drawn in the pictures' review lane, kept); pending until then, worked out once however often it is asked.
A seated person sees their own review, a watcher every person's, a computer none; another game's session none."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import random
import threading
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from cogs import pictures, reviews
from engine import Game
from engine.ai.review import Review
from i18n import messages as M
from i18n import translate
from tests.e2e.play import start_game
from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import Page
from tests.web.test_access import NAMELESS
from web import auth
from web.view import plain

pytestmark = pytest.mark.e2e

WAIT = 120.0  # the review is worked out in a thread of the test's process, behind everything else
SCREENS = "/tmp/webreview-screens"


async def until(condition, what: str):
    """Wait until `await condition()` is truthy (it fails after WAIT seconds); returns it."""

    async def check():
        while not (found := await condition()):
            await asyncio.sleep(0.05)
        return found

    try:
        return await asyncio.wait_for(check(), WAIT)
    except TimeoutError:
        raise AssertionError(f"never: {what}") from None


def http_for(board, *users: int, games: tuple[int, ...] = (), lang: str = "en") -> aiohttp.ClientSession:
    """A browser's requests with a session for `users` (in `games` only, as a link gives; else a local person's)."""
    session = auth.Session()
    for user in users:
        if not games:
            session = session.with_user(user)
        for game in games:
            session = session.with_user(user, game)
    jar = aiohttp.CookieJar(unsafe=True)
    if users:
        jar.update_cookies({auth.COOKIE: session.cookie(board.secret)})
    return aiohttp.ClientSession(base_url=board.url, cookie_jar=jar, headers={"Accept-Language": lang})


async def finish(service, gid: int, seed: int):
    """Every person's move chosen at random (random players make mistakes a review finds) until the game is over;
    the computers play their own. Returns the finished record."""
    rng = random.Random(seed)
    while True:
        await service.idle()
        rec = await service.games.get(gid)
        if rec.game.is_over:
            return rec
        d = rec.game.decision()
        seat = rec.seat_of(d.player)
        if seat.is_computer:
            continue
        await service.play(gid, seat.user_id, rng.choice(rec.game.legal_actions()), expected_version=rec.version)


async def local_table(local, people: int, computers: int, seed: int = 1) -> tuple[int, list[int]]:
    """A local Kingdomino table of `people` persons (each their own browser) and `computers` random computers,
    started with a seeded deal; returns its id and the persons' ids in seat order."""
    board = local.board
    local.service.seeds = random.Random(seed)
    async with aiohttp.ClientSession(base_url=board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as host:
        body = {"kind": "kingdomino", "players": people + computers, "computers": computers, "level": "random"}
        async with host.post("/api/games", json=body) as r:
            gid = (await r.json())["id"]
        for _ in range(people - 1):
            async with aiohttp.ClientSession(base_url=board.url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as guest:
                rec = await local.service.games.get(gid)
                async with guest.post(f"/api/games/{gid}/join", json={"version": rec.version}) as r:
                    assert (await r.json())["ok"]
        if people > 1:
            rec = await local.service.games.get(gid)
            async with host.post(f"/api/games/{gid}/start", json={"version": rec.version}) as r:
                assert (await r.json())["ok"]
    rec = await local.service.games.get(gid)
    return gid, [s.user_id for s in rec.seats if s.user_id is not None]


async def get_review(http: aiohttp.ClientSession, gid: int) -> tuple[int, dict]:
    async with http.get(f"/api/games/{gid}/review") as r:
        return r.status, await r.json()


async def ready_answer(http, gid: int) -> dict | None:
    status, answer = await get_review(http, gid)
    assert status == 200 and answer["status"] in ("pending", "ready"), answer
    return answer if answer["status"] == "ready" else None


def S(name: str, lang: str = "en") -> str:
    return translate(lang, getattr(M, name))


def check_lines(rec, player: str, entry: dict, lang: str) -> None:
    """The entry names the player's costliest decisions as Discord words them, each a real decision of that game
    with a better move that was legal at that moment."""
    game = rec.game
    review = Review.from_dict(json.loads(pictures.current().cache.remembered(reviews.review_key(rec, game))))
    worst = review.worst(player, 3)
    assert entry["lines"] == [plain(reviews.item_line(game, item, lang)) for item in worst]
    for item in worst:
        assert game.log[item.index] == (player, item.played), "a real decision of that game"
        position = Game.replay(game.config, game.seed, game.log[: item.index])
        assert position.decision().player == player and position.round == item.round
        assert item.better in position.legal_actions() and item.better != item.played
        position.apply(item.better, by=player)  # the engine takes it
    if worst:
        assert entry["alt"] == plain(reviews.picture_alt(rec, game, review, player, lang))
        assert entry["picture"] and entry["width"] == 780


async def test_pending_then_ready_worked_out_once_whoever_asks(local, monkeypatch):
    """Two people and a computer: the review is pending (said so) while it is worked out, however often it is asked
    and by whom, and the search runs once; then each person sees their own decisions, a watcher both people's, in
    their language, and nobody sees a review of the computer."""
    release = threading.Event()
    searches = []
    real = pictures.review_data

    def held(*args):
        searches.append(args)
        assert release.wait(WAIT), "the test let it go"
        return real(*args)

    monkeypatch.setattr(pictures, "review_data", held)
    gid, (alice, bob) = await local_table(local, people=2, computers=1)
    rec = await finish(local.service, gid, seed=4)
    cpu = next(s.player_id for s in rec.seats if s.is_computer)
    async with (
        http_for(local.board, alice) as a,
        http_for(local.board, bob, lang="ro") as b,
        http_for(local.board) as watcher,
    ):
        status, first = await get_review(a, gid)
        assert status == 200 and first == {"status": "pending", "text": translate("en", M.WEB_REVIEW_WORKING)}
        await until(lambda: asyncio.sleep(0, searches), "the review at work")
        for http in (a, b, watcher, a, b):
            status, again = await get_review(http, gid)
            assert status == 200 and again["status"] == "pending"
        assert len(searches) == 1, "one search for the game, whoever asks and however often"
        release.set()

        mine = await until(lambda: ready_answer(a, gid), "Alice's review ready")
        assert [e["player"] for e in mine["players"]] == [str(alice)], "a seated person: their own"
        assert mine["intro"] == plain(translate("en", M.REVIEW_YOURS_TITLE))
        check_lines(rec, str(alice), mine["players"][0], "en")
        theirs = await until(lambda: ready_answer(b, gid), "Bob's review ready")
        assert [e["player"] for e in theirs["players"]] == [str(bob)]
        check_lines(rec, str(bob), theirs["players"][0], "ro")
        everyone = await until(lambda: ready_answer(watcher, gid), "the watcher's review ready")
        assert [e["player"] for e in everyone["players"]] == [str(alice), str(bob)], "a watcher: every person's"
        assert everyone["intro"] == plain(translate("en", M.REVIEW_TITLE))
        assert cpu not in str(everyone), "a computer gets no review"
        assert len(searches) == 1, "still the one search"

        # The pictures: a person's own, for them and for a watcher; another person's refused to a seated one.
        entry = next(e for e in everyone["players"] if e["picture"])
        async with watcher.get(f"/{entry['picture']}") as r:
            assert r.status == 200 and r.content_type == "image/png"
            assert Image.open(io.BytesIO(await r.read())).width == 780
        seated = a if entry["player"] == str(bob) else b
        async with seated.get(f"/api/games/{gid}/review/{entry['player']}.png") as r:
            assert r.status == 403 and not (await r.json())["ok"]
        async with watcher.get(f"/api/games/{gid}/review/{cpu.split(':')[-1]}.png") as r:
            assert r.status in (403, 404), "nobody's picture by a computer's number"


async def test_a_game_in_play_has_no_review_yet(local):
    gid, (alice,) = await local_table(local, people=1, computers=1)
    async with http_for(local.board, alice) as a:
        status, answer = await get_review(a, gid)
        assert status == 409 and answer["error"] == translate("en", M.REVIEW_NOT_OVER)
    assert pictures.current().counts["review"] == 0, "nothing started"


@pytest.fixture
def local_settings(local_settings, request):
    """The board's settings; `@pytest.mark.parametrize("local_settings", [1], indirect=True)`: picture workers."""
    return dataclasses.replace(local_settings, picture_workers=getattr(request, "param", 0))


@pytest.mark.parametrize("local_settings", [0, 1], indirect=True, ids=["threads", "workers"])
async def test_a_local_game_starts_its_review_at_its_end_in_the_review_lane(local, local_settings, monkeypatch):
    """Like the bot after Discord's final table: the end of a local game starts its review in the review lane (its
    own process when there are picture workers, as `make run` has), with nobody asking; the board then reads it
    from the cache: no search, no drawing again."""
    pool = pictures.current()
    if local_settings.picture_workers:
        assert pool.workers == 1 and pool.reviews_at_end, "the bot's way: the review lane's own process"
    else:
        monkeypatch.setattr(pool, "reviews_at_end", True)  # the tests' threads, as tests/e2e/test_review.py does
    gid, (alice,) = await local_table(local, people=1, computers=1)
    rec = await finish(local.service, gid, seed=2)
    await until(lambda: reviews.review_of(rec, rec.game, compute=False), "the review, with nobody asking")
    await pool.background_done()  # its pictures, in the game's language, drawn too
    assert pool.counts["review"] >= 2, "worked out and drawn in the review lane"
    if local_settings.picture_workers:
        assert pool.review.pool is not None and pool.stats["in_threads"] == 0, "in the review lane's process"
    done = pool.counts["review"]
    async with http_for(local.board, alice) as a:
        answer = await until(lambda: ready_answer(a, gid), "the board's answer")
    assert [e["player"] for e in answer["players"]] == [str(alice)]
    assert pool.counts["review"] == done, "read from the cache: nothing worked out or drawn again"


async def test_a_review_that_could_not_be_made_is_tried_again_later_then_given_up(local, monkeypatch):
    """The review's work fails (a worker died, say): the board says it could not be made and when it will be tried
    again; asked after that, it is started again and, if it works, shown; after ATTEMPTS failures, for good."""
    from web import review as board_review

    fails = {"left": 1}
    tried = []  # each attempt's game seed
    real = pictures.review_data

    def failing(config, seed, *args):
        tried.append(seed)
        if fails["left"] > 0:
            fails["left"] -= 1
            raise RuntimeError("the review's worker died")
        return real(config, seed, *args)

    monkeypatch.setattr(pictures, "review_data", failing)
    now = [1000.0]
    local.board.reviews.clock = lambda: now[0]
    retry = board_review.RETRY_AFTER

    async def ended(http, gid):  # the answer once the attempt under way has ended
        status, answer = await get_review(http, gid)
        assert status == 200 and answer["status"] in ("pending", "failed", "ready"), answer
        return answer if answer["status"] != "pending" else None

    gid, (alice,) = await local_table(local, people=1, computers=1)
    rec = await finish(local.service, gid, seed=2)
    async with http_for(local.board, alice) as a:
        failed = await until(lambda: ended(a, gid), "the first attempt's end")
        assert failed == {"status": "failed", "text": S("REVIEW_NOT_MADE"), "retry": retry}
        now[0] += retry / 2
        assert (await get_review(a, gid))[1] == {**failed, "retry": retry / 2}, "not yet: nothing started"
        assert tried == [rec.game.seed]
        now[0] += retry / 2
        assert (await get_review(a, gid))[1]["status"] == "pending", "started again"
        ready = await until(lambda: ended(a, gid), "the second attempt's review")
        assert ready["status"] == "ready" and [e["player"] for e in ready["players"]] == [str(alice)]
        assert tried == [rec.game.seed] * 2

    # Another game whose review never works out: started ATTEMPTS times in all, then no more.
    fails["left"] = 99
    gid2, (bob,) = await local_table(local, people=1, computers=1, seed=3)
    rec2 = await finish(local.service, gid2, seed=3)
    async with http_for(local.board, bob) as b:
        for attempt in range(1, board_review.ATTEMPTS + 1):
            answer = await until(lambda: ended(b, gid2), f"attempt {attempt}'s end")
            assert answer["status"] == "failed"
            assert answer["retry"] == (retry if attempt < board_review.ATTEMPTS else None), (attempt, answer)
            now[0] += retry
        assert (await get_review(b, gid2))[1]["retry"] is None
    assert tried.count(rec2.game.seed) == board_review.ATTEMPTS, "given up: nothing started any more"


# -- on the page ----------------------------------------------------------------------------------------------------
PICTURE_SHOWN = """() => { const i = document.querySelector('#review img.review-pic');
  return !!i && i.complete && i.naturalWidth === 780; }"""


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
async def test_the_board_shows_the_review_of_a_finished_game(local, browser, phone):
    """A person opens their finished game: the Review section says it is coming, then shows their costliest
    decisions in words and their picture, scaled to the screen, described for screen readers, with no console
    error."""
    gid, (alice,) = await local_table(local, people=1, computers=1)
    rec = await finish(local.service, gid, seed=3)
    shots = Path(SCREENS)
    shots.mkdir(parents=True, exist_ok=True)
    name = "phone" if phone else "desktop"
    context = await browser.new_context(**(PHONE if phone else DESKTOP), locale="en-US")
    cookie = auth.Session((alice,)).cookie(local.board.secret)
    await context.add_cookies([{"name": auth.COOKIE, "value": cookie, "url": local.board.url}])
    try:
        page = Page(await context.new_page())
        await page.goto(f"{local.board.url}?game={gid}")
        await page.wait_turn("over")
        note = page.page.locator("#review[aria-busy=true] #review-note")
        if await note.count():  # still being worked out (it may be ready already on a quick machine)
            assert await note.inner_text() in (S("WEB_REVIEW_WORKING"), S("WEB_REVIEW_DRAWING"))
            await page.page.screenshot(path=str(shots / f"pending-{name}.png"))
        await page.page.wait_for_function(PICTURE_SHOWN, timeout=WAIT * 1000)
        assert await page.page.get_attribute("#review", "data-status") == "ready"
        assert await page.page.get_attribute("#review", "aria-busy") is None
        part = page.page.locator(f"#review .review-player[data-player='{alice}']")
        lines = await part.locator(".review-lines li").all_inner_texts()
        entry = {"lines": lines, "alt": await part.locator("img").get_attribute("alt"), "picture": True, "width": 780}
        check_lines(rec, str(alice), entry, "en")
        assert lines, "random moves cost points"
        assert await page.page.locator("#review .review-player").count() == 1, "a seated person: their own"
        width = PHONE["viewport"]["width"] if phone else DESKTOP["viewport"]["width"]
        shown = await page.page.evaluate("() => document.querySelector('#review img').getBoundingClientRect().width")
        assert shown <= min(width, 780), "the picture fits the screen"
        assert await page.page.evaluate("() => document.documentElement.scrollWidth") <= width, "no sideways scroll"
        assert await page.page.evaluate(NAMELESS) == []
        await page.page.locator("#review").scroll_into_view_if_needed()
        await page.page.screenshot(path=str(shots / f"review-{name}.png"))
        await page.page.locator("#review").screenshot(path=str(shots / f"review-section-{name}.png"))
        assert not page.errors, page.errors
    finally:
        await context.close()


# -- beside Discord ---------------------------------------------------------------------------------------------------
async def test_a_discord_games_review_on_the_board_is_the_channels_and_no_other_games(fake, bot):
    """Alice and Bob finish a game in Discord: on the board, Alice sees her own review, Carol (watching, no seat)
    both, in the very words the channel's review message says; a session of Alice's other game sees nothing of
    this one, and a seated person gets no other person's picture."""
    bot.service.seeds = random.Random(3)
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    channel = fake.channel("kingdomino").id
    first = (await bot.store.get_active_game(channel)).id
    rng = random.Random(3)
    while (rec := await bot.store.get_active_game(channel)) is not None:
        await bot.service.play(rec.id, int(rec.game.decision().player), rng.choice(rec.game.legal_actions()))
    await start_game(fake, fake.alice, "general", [fake.bob], game="kingdomino", players=2)
    second = (await bot.store.get_active_game(fake.channel("general").id)).id
    alice, bob, carol = fake.alice.id, fake.bob.id, fake.carol.id
    board = bot.board
    async with http_for(board, alice, games=(second,)) as elsewhere:
        status, answer = await get_review(elsewhere, first)
        assert status == 403 and answer["error"] == translate("en", M.WEB_NOT_YOURS)
        async with elsewhere.get(f"/api/games/{first}/review/{alice}.png") as r:
            assert r.status == 403 and r.content_type == "application/json"
    assert pictures.current().counts["review"] == 0, "a refused request starts nothing"
    async with http_for(board, alice, games=(first,)) as a, http_for(board, carol, games=(first,)) as watcher:
        mine = await until(lambda: ready_answer(a, first), "Alice's review")
        assert [e["player"] for e in mine["players"]] == [str(alice)]
        everyone = await until(lambda: ready_answer(watcher, first), "the watcher's review")
        assert [e["player"] for e in everyone["players"]] == [str(alice), str(bob)]
        title = translate("en", M.REVIEW_TITLE)
        posts = await fake.wait_until(
            lambda: [m for m in fake.messages_in("kingdomino") if m.content.startswith(title)], timeout=WAIT
        )
        rec = await bot.store.get_game(first)
        for entry in everyone["players"]:
            check_lines(rec, entry["player"], entry, "en")
            assert all(line in posts[0].content for line in entry["lines"]), "the channel's own words"
        assert sum(bool(e["lines"]) for e in everyone["players"]), "random moves cost points"
        entry = next(e for e in everyone["players"] if e["picture"])
        async with watcher.get(f"/{entry['picture']}") as r:
            assert r.status == 200 and Image.open(io.BytesIO(await r.read())).width == 780
        seated = http_for(board, bob if entry["player"] == str(alice) else alice, games=(first,))
        async with seated, seated.get(f"/api/games/{first}/review/{entry['player']}.png") as r:
            assert r.status == 403 and (await r.json())["error"] == translate("en", M.WEB_REVIEW_NOT_YOURS)
