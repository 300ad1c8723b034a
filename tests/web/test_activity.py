"""The board inside Discord (an Activity), in Chromium through the fake Discord's client frame (tests/fakediscord/
activity.py) with the real pinned SDK the bot serves: launched from the table's button, signed in through Discord,
on the channel's game, played to the end by taps at a phone's size while the table follows in the channel; watchers,
refusals, the personal links where there is no Activity, the App Launcher's Entry Point command, and the recorded
bodies checked against Discord's OpenAPI description."""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pytest

from db.models import GameStatus
from settings import Settings
from tests.e2e.play import latest_table, open_lobby, start_game
from tests.fakediscord import spec
from tests.fakediscord.activity import CODE_LIFETIME, ActivityClient, ActivityProxy
from tests.web.conftest import DESKTOP, PHONE, _chromium_or_skip
from tests.web.driver import CHROMIUM, CHROMIUM_ARGS, STEP_TIMEOUT_MS, Page, play_step, play_to_end
from web import auth

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("KD_SHOTS")  # a directory: the screenshots are kept there to look at


@pytest.fixture
def bot_settings(bot_settings: Settings, fake) -> Settings:
    """The board's bot (tests/web/conftest.py) with the Activity's sign-in (the fake's client secret) and a public
    address for links."""
    return dataclasses.replace(
        bot_settings,
        activity="auto",
        public_url="https://board.example.org/",
        discord_client_secret=fake.activities.client_secret,
    )


class FramePage(Page):
    """The board inside the client frame's iframe: the driver's helpers on the Activity's frame."""

    def __init__(self, outer, frame) -> None:
        self.outer, self.page = outer, frame  # the frame: set once Discord's client has loaded it
        self.errors: list[str] = []
        self.taps = 0
        self.asked: list[str] = []  # every URL the Activity's own frame asked for
        outer.on("request", lambda r: self.asked.append(r.url) if r.frame.parent_frame is not None else None)
        outer.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        outer.on("pageerror", lambda e: self.errors.append(str(e)))

    async def tap(self, selector: str) -> None:
        await self.page.locator(selector).first.tap(timeout=STEP_TIMEOUT_MS)
        self.taps += 1


SETTLED = """() => { const m = document.querySelector('main'); if (m && m.dataset.version) return true;
  const s = document.getElementById('activity-status'); return !!s && !s.textContent.startsWith('Connecting'); }"""


@pytest.fixture
async def discord_client(fake, bot, tmp_path) -> AsyncIterator[Callable]:
    """`await discord_client(launch, user=None, phone=True)` -> (Discord's proxy, a FramePage showing the board
    once the page has a game drawn or has said why not). Chromium reaches the Activity's origin through the fake's
    streaming proxy (the board's live updates pass as they come)."""
    _chromium_or_skip()
    from playwright.async_api import async_playwright

    proxy = ActivityProxy(fake, bot.board.url, tmp_path)
    await proxy.start()
    contexts = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *proxy.chromium_args()])

        async def make(launch, *, user=None, phone: bool = True):
            context = await browser.new_context(**(PHONE if phone else DESKTOP), locale="en-US")
            contexts.append(context)
            client = ActivityClient(fake, bot.board.url)
            await client.attach(context, proxy=False)
            outer = await context.new_page()
            page = FramePage(outer, None)
            await outer.goto(client.frame_url(launch, user=user, platform="mobile" if phone else "desktop"))
            frame = await (await outer.wait_for_selector("iframe#app")).content_frame()
            page.page = frame
            try:
                await frame.wait_for_function(SETTLED, timeout=STEP_TIMEOUT_MS)
            except Exception as error:
                said = await frame.evaluate("() => document.body.innerText")
                raise AssertionError(f"the Activity never showed a board: {said!r}; {page.errors}") from error
            return proxy, page

        try:
            yield make
        finally:
            for context in contexts:
                await context.close()
            await browser.close()
            await proxy.stop()


async def launched(fake, user, channel: str = "kingdomino"):
    """`user` clicks "Open the board" on the channel's table: the bot answers LAUNCH_ACTIVITY."""
    before = len(fake.activities.launches)
    table = await fake.wait_until(
        lambda: next((m for m in reversed(fake.messages_in(channel)) if "Open the board" in m.button_labels), None),
        what="a table with its Open the board button",
    )
    reply = await fake.click(user, table, "Open the board")
    await fake.wait_until(lambda: reply.response_type is not None, what="the answer to Open the board")
    assert reply.response_type == 12, reply
    assert len(fake.activities.launches) == before + 1
    return fake.activities.launches[-1]


def callback_bodies(fake, type_: int) -> list:
    return [r.json for r in fake.requests if r.path.endswith("/callback") and (r.json or {}).get("type") == type_]


async def shot(page: FramePage, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        await page.outer.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


async def test_a_whole_game_inside_discord_by_taps_on_a_phone(fake, bot, discord_client):
    fake.activities.enabled = True  # the application has an Activity (its flags say EMBEDDED)
    lobby = await open_lobby(fake, fake.alice, "kingdomino", game="kingdomino", players=2, computers=1)
    await (await fake.click(fake.alice, lobby, "Start")).wait_message()  # the computer may move first: no settle
    launch = await launched(fake, fake.alice)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    assert (launch.user, launch.channel) == (fake.alice, fake.channel("kingdomino"))
    [body] = callback_bodies(fake, 12)
    assert spec.problems("LaunchActivityInteractionCallbackRequest", body) == []

    proxy, page = await discord_client(launch)
    assert await page.version() >= 0, await page.page.inner_text("body")
    assert f"#{rec.id}" in await page.page.inner_text("#title"), "the board of the channel's game"
    # The SDK's handshake, then authorize and authenticate; the code exchanged by the bot with the app's secret.
    rpc = [c for op, c in await page.outer.evaluate("window.rpc") if op == 1 and c]
    assert rpc.index("AUTHORIZE") < rpc.index("AUTHENTICATE")
    [exchange] = fake.activities.exchanges
    assert set(exchange) == {"grant_type", "code", "client_id", "client_secret"}  # Discord's OAuth2 documentation
    assert exchange["grant_type"] == "authorization_code" and exchange["client_id"] == str(fake.application_id)
    instance_reads = [r for r in fake.requests if "/activity-instances/" in r.path]
    assert instance_reads and instance_reads[-1].headers["Authorization"].startswith("Bot ")
    assert page.asked and all(url.startswith(proxy.app_origin + "/") for url in page.asked), page.asked
    assert any(url.endswith("/static/sdk/index.mjs") for url in proxy.proxied), "the SDK the bot serves"
    await shot(page, "activity-phone-start")

    rng = random.Random(2)
    for _ in range(3):  # a few steps, then close Discord's frame
        await page.wait_turn()
        await play_step(page, rng)
    await page.outer.close()
    _, page = await discord_client(launch)  # open again: their turn is there
    kind = await page.wait_turn()
    assert kind in ("place", "claim", "first_claim", "over")
    await shot(page, "activity-phone-reopened")

    await play_to_end(page, seed=3)
    await shot(page, "activity-phone-over")
    done = await bot.store.get_game(rec.id)
    assert done.status == GameStatus.FINISHED
    mine = [a for a in await bot.store.get_actions(rec.id) if a.user_id == fake.alice.id]
    assert {"place", "claim"} <= {a.action["type"] for a in mine}
    # The channel's table followed the game to its end.
    await fake.wait_until(lambda: "is over" in latest_table(fake, "kingdomino").content, what="the final table")


async def test_a_member_without_a_seat_watches_and_cannot_act(fake, bot, discord_client):
    fake.activities.enabled = True
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    launch = await launched(fake, fake.alice)
    _, page = await discord_client(launch, user=fake.carol)  # carol joins the Activity in the channel
    assert await page.version() == rec.version
    assert await page.turn() == "wait" and await page.count(".dom.legal") == 0
    assert "watching" in await page.page.inner_text("#main")
    # Her own board session (as the page got it: a code from Discord for her, in this instance) acts for nobody.
    place = {"instance_id": launch.instance_id, "channel_id": str(launch.channel.id)}
    _, signed = await post_token(bot, {"code": fake.activities.issue_code(fake.carol), **place})
    d = rec.game.decision()
    move = {"version": rec.version, "action": {"type": "claim", "domino": rec.game.legal_actions()[0].domino}}
    headers = {"X-Board-Session": signed["session"]}
    url = f"{bot.board.url}api/games/{rec.id}/act"
    async with aiohttp.ClientSession() as http, http.post(url, json=move, headers=headers) as r:
        answer = await r.json()
    assert answer["ok"] is False and "no seat" in answer["error"], (d.player, answer)
    assert (await bot.store.get_game(rec.id)).version == rec.version, "nothing changed"
    await shot(page, "activity-phone-watcher")
    # `/play board` opens it the same way, for anyone in the channel.
    reply = await fake.slash(fake.dave, "kingdomino", "play", "board")
    await fake.wait_until(lambda: reply.response_type is not None, what="the answer to /play board")
    assert reply.response_type == 12 and fake.activities.launches[-1].user == fake.dave


async def post_token(bot, body: dict, headers: dict | None = None) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.post(bot.board.url + "api/token", json=body, headers=headers) as r:
        return r.status, await r.json()


async def test_forged_expired_and_foreign_codes_and_pages_outside_discord_are_refused(fake, bot, open_page):
    fake.activities.enabled = True
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    launch = await launched(fake, fake.alice)
    place = {"instance_id": launch.instance_id, "channel_id": str(launch.channel.id)}

    status, body = await post_token(bot, {"code": "forged", **place})
    assert (status, body["error"]) == (403, "Discord did not confirm who you are: close the board and open it again.")
    expired = fake.activities.issue_code(fake.alice)
    fake.activities.codes[expired].issued_at -= CODE_LIFETIME + 1
    assert (await post_token(bot, {"code": expired, **place}))[0] == 403
    foreign = fake.activities.issue_code(fake.alice, client_id=fake.application_id + 1)  # another application's
    assert (await post_token(bot, {"code": foreign, **place}))[0] == 403
    # A good code, but the page's instance or channel is not where Discord runs the Activity, or the person is
    # not in it: refused.
    for code_user, where in (
        (fake.alice, {**place, "instance_id": "i-forged"}),
        (fake.alice, {**place, "channel_id": str(fake.channel("general").id)}),
        (fake.dave, place),
    ):
        status, body = await post_token(bot, {"code": fake.activities.issue_code(code_user), **where})
        assert status == 403 and "does not show this board" in body["error"], body
    status, body = await post_token(bot, {"code": 5, **place})
    assert status == 400
    status, body = await post_token(bot, {"code": fake.activities.issue_code(fake.alice), **place})
    assert status == 200 and body["game"] == rec.id and body["access_token"]
    assert auth.read_scoped(bot.board.secret, body["session"], "a").for_game(rec.id) == (fake.alice.id,)

    # Outside Discord: no session, no board; a forged session header, a stream without its token: refused.
    page = await open_page(f"{bot.board.url}?game={rec.id}")
    await page.page.wait_for_function("() => !document.getElementById('toast').hidden")
    assert "not open to you" in await page.toast()
    page.errors.clear()  # the refusals are console errors by design
    async with aiohttp.ClientSession() as http:
        forged = auth.activity_session(b"another secret" * 3, fake.alice.id, rec.id)
        async with http.get(f"{bot.board.url}api/games/{rec.id}", headers={"X-Board-Session": forged}) as r:
            assert r.status == 403
        good = {"X-Board-Session": body["session"]}
        async with http.get(f"{bot.board.url}api/games/{rec.id}", headers=good) as r:
            assert r.status == 200 and (await r.json())["id"] == rec.id
        async with http.get(f"{bot.board.url}api/games/{rec.id}/events") as r:
            assert r.status == 403
        async with http.get(f"{bot.board.url}api/games/{rec.id}/stream", headers=good) as r:
            token = (await r.json())["token"]
        async with http.get(f"{bot.board.url}api/games/{rec.id}/events?s={token}") as r:
            assert r.status == 200 and (await r.content.readline()).startswith(b"id: ")


def link_of(bot, message) -> str:
    [button] = [b for b in message.buttons if b.get("style") == 5]
    url = button["url"]
    assert url.startswith("https://board.example.org/join/")
    return bot.board.url + url.removeprefix("https://board.example.org/")


async def test_without_an_activity_a_personal_link_scoped_to_game_and_seat(fake, bot, open_page):
    fake.activities.enabled = False  # no Activity: a personal link to the public address
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    d = rec.game.decision()
    player = fake.alice if d.player == str(fake.alice.id) else fake.bob
    reply = await fake.click(player, latest_table(fake, "kingdomino"), "Open the board")
    message = await reply.wait_message()
    assert message.ephemeral and "15 minutes" in message.content and fake.activities.launches == []
    page = await open_page(link_of(bot, message))
    assert await page.wait_turn() == "first_claim", "their own seat"

    watch = await (await fake.click(fake.carol, latest_table(fake, "kingdomino"), "Open the board")).wait_message()
    watcher = await open_page(link_of(bot, watch))
    await watcher.page.wait_for_function("() => document.querySelector('main').dataset.version")
    assert await watcher.turn() == "wait"

    await start_game(fake, fake.carol, "general", [fake.dave], game="kingdomino", players=2)
    other_game = await bot.store.get_active_game(fake.channel("general").id)
    secret = bot.board.secret
    other_seat = 1 - next(i for i, s in enumerate(rec.seats) if s.user_id == player.id)
    refused = {
        "expired": auth.link_token(secret, player.id, rec.id, seat=1 - other_seat, seconds=-1),
        "another seat": auth.link_token(secret, player.id, rec.id, seat=other_seat),
        "another game": auth.link_token(secret, player.id, other_game.id, seat=0),
        "forged": auth.link_token(b"not the board's secret" * 2, player.id, rec.id, seat=1 - other_seat),
    }
    for why, token in refused.items():
        page = await open_page(f"{bot.board.url}join/{token}")
        assert "expired or is not valid" in await page.page.inner_text("body"), why
        page.errors.clear()
    # The game ends (cancelled here): its links no longer open it.
    await bot.store.cancel_game(rec.id, reason="cancelled")
    page = await open_page(link_of(bot, message))
    assert "game is over" in await page.page.inner_text("body")
    page.errors.clear()


async def test_without_activity_or_public_address_the_answer_says_so(fake, bot):
    fake.activities.enabled = False
    bot.service.board = dataclasses.replace(bot.service.board, public_url=None)  # PUBLIC_URL not set
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    message = await (await fake.slash(fake.alice, "kingdomino", "play", "board")).wait_message()
    assert message.ephemeral and "not set up for this server" in message.content
    assert not [b for b in message.buttons if b.get("style") == 5]


async def test_the_entry_point_command_opens_the_board_from_the_app_launcher(fake, bot, discord_client):
    fake.activities.enabled = True
    before = len(fake.requests)
    await bot.tree.sync()
    [put] = [r for r in fake.requests[before:] if r.method == "PUT" and r.path.endswith("/commands")]
    [entry] = [c for c in put.json if c.get("type") == 4]
    assert spec.problems("ApplicationCommandCreateRequest", entry) == []
    assert entry["handler"] == 2  # DISCORD_LAUNCH_ACTIVITY
    assert "/play" in fake.transcript() or any(c["name"] == "play" for c in fake.global_commands)
    await bot.tree.sync()  # again: the Entry Point command stays (Discord refuses a sync that drops it)
    assert not fake.take_violations()

    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    launch = fake.activities.launch_from_app_launcher(fake.bob, fake.channel("kingdomino"))
    _, page = await discord_client(launch, phone=False)
    assert f"#{rec.id}" in await page.page.inner_text("#title")
    d = rec.game.decision()
    assert await page.turn() == ("first_claim" if d.player == str(fake.bob.id) else "wait")
    await shot(page, "activity-desktop")
    instance = [r for r in fake.requests if "/activity-instances/" in r.path][-1]
    answer = await fake_instance(fake, instance.path)
    assert spec.problems("EmbeddedActivityInstance", answer) == []
    # Launched in a channel without a game: the page says how to start one.
    elsewhere = fake.activities.launch_from_app_launcher(fake.carol, fake.channel("general"))
    _, page = await discord_client(elsewhere)
    assert "no game in this channel yet" in await page.page.inner_text("#main")


async def fake_instance(fake, path: str) -> dict:
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession() as http, http.get(fake.base_url + "/api/v10" + path, headers=headers) as r:
        return await r.json()


async def test_forged_codes_cost_the_board_a_few_calls_to_discord_not_one_each(fake, bot):
    """A flood of sign-ins with forged codes: each address, and each Activity instance, gets a few a minute before the
    board calls Discord's token endpoint again; the others are answered 429 without a call."""
    fake.activities.enabled = True
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2)
    launch = await launched(fake, fake.alice)
    place = {"instance_id": launch.instance_id, "channel_id": str(launch.channel.id)}
    before = len(fake.activities.exchanges)
    statuses = [(await post_token(bot, {"code": f"forged-{n}", **place}))[0] for n in range(30)]
    calls = len(fake.activities.exchanges) - before
    assert statuses.count(403) == calls <= 10 and statuses.count(429) == 30 - calls, statuses
    # Another instance from the same address: the address's own allowance is spent too.
    other = {"instance_id": "i-elsewhere", "channel_id": str(launch.channel.id)}
    assert (await post_token(bot, {"code": "forged-x", **other}))[0] == 429
    assert len(fake.activities.exchanges) - before == calls, "no call to Discord for the refused ones"


async def test_the_rules_open_inside_discord_and_lead_back_to_the_table(fake, bot, discord_client):
    """Issue #46: the header's Rules inside the Activity (under Discord's proxy prefix): the table's rules in one tap,
    then the page's link back reopens the board on the same game (the Activity's query kept, signed in again)."""
    fake.activities.enabled = True
    await start_game(fake, fake.alice, "kingdomino", [fake.bob], game="kingdomino", players=2, harmony=True)
    rec = await bot.store.get_active_game(fake.channel("kingdomino").id)
    launch = await launched(fake, fake.alice)
    _, page = await discord_client(launch)
    assert f"#{rec.id}" in await page.page.inner_text("#title")
    await page.tap("#rules")
    await page.page.wait_for_selector("#summary", timeout=STEP_TIMEOUT_MS)
    assert "game=kingdomino" in page.page.url and "variants=harmony" in page.page.url and "players=2" in page.page.url
    assert await page.page.locator("#variant-harmony").count() == 1
    await page.tap("#home")
    await page.page.wait_for_function(SETTLED, timeout=STEP_TIMEOUT_MS)
    assert f"#{rec.id}" in await page.page.inner_text("#title")
    assert not page.errors, page.errors
