"""The fake's Activities (tests/fakediscord/activity.py): LAUNCH_ACTIVITY, the OAuth2 code exchange, and Discord's
client frame answering the real Embedded App SDK in Chromium. The bot here is the harness bot (no game cogs)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import shutil
import socket
import ssl
import struct
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from discord.ext import commands

from tests.e2e.test_harness import bot_extensions, bot_factory  # noqa: F401  (the harness bot's fixtures)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activity import ActivityClient, ActivityProxy

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "web" / "sdk" / "node_modules" / "@discord" / "embedded-app-sdk" / "output"
CHROMIUM = os.environ.get("KD_CHROMIUM", "/usr/bin/chromium")


async def test_launch_activity_is_refused_when_the_app_has_no_activity(fake: FakeDiscord, bot: commands.Bot, harness):
    fake.activities.enabled = False
    await fake.slash(fake.alice, "kingdomino", "harness", "activity")
    violations = fake.take_violations()
    assert [v.kind for v in violations] == ["bad response"]
    assert "no Activity" in str(violations[0])
    assert fake.activities.launches == []
    harness.take_logged_errors()  # discord.py raised the 400 in the command


async def test_launch_activity_opens_an_instance_for_the_person_in_the_channel(fake: FakeDiscord, bot: commands.Bot):
    fake.activities.enabled = True
    await fake.slash(fake.bob, "kingdomino", "harness", "activity")
    [launch] = fake.activities.launches
    assert (launch.user, launch.channel, launch.guild_id) == (fake.bob, fake.kingdomino, fake.guild_id)
    assert bot.get_cog("HarnessCog").launched == launch.instance_id  # discord.py read the activity_instance back
    assert "launched its Activity for bob" in fake.transcript()
    # Discord's OpenAPI description (discord/discord-api-spec, LaunchActivityInteractionCallbackRequest): an object
    # whose only property is `type`, 12; its answer (LaunchActivityInteractionCallbackResponse) has `activity_instance`.
    [callback] = [r for r in fake.requests if r.path.endswith("/callback")]
    assert callback.json == {"type": 12}


async def token_request(fake: FakeDiscord, form: dict[str, str], *, basic: tuple[str, str] | None = None):
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if basic is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
    async with (
        aiohttp.ClientSession() as http,
        http.post(fake.base_url + "/api/v10/oauth2/token", data=form, headers=headers) as r,
    ):
        return r.status, await r.json()


async def me(fake: FakeDiscord, token: str):
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession() as http, http.get(fake.base_url + "/api/v10/users/@me", headers=headers) as r:
        return r.status, await r.json()


async def test_an_authorization_code_is_exchanged_once_by_the_application_for_its_person(fake: FakeDiscord):
    app, secret = str(fake.application_id), fake.activities.client_secret
    code = fake.activities.issue_code(fake.carol)
    form = {"grant_type": "authorization_code", "code": code, "client_id": app, "client_secret": secret}

    assert await token_request(fake, {**form, "client_secret": "wrong"}) == (401, {"error": "invalid_client"})
    status, token = await token_request(fake, form)
    assert status == 200 and token["token_type"] == "Bearer" and token["scope"] == "identify"
    status, again = await token_request(fake, form)  # a code is good once
    assert (status, again["error"]) == (400, "invalid_grant")

    status, user = await me(fake, token["access_token"])
    assert (status, user["id"], user["username"]) == (200, str(fake.carol.id), "carol")
    assert (await me(fake, "forged"))[0] == 401

    other = fake.activities.issue_code(fake.dave, client_id=fake.application_id + 1)  # a code for another app
    status, body = await token_request(fake, {**form, "code": other})
    assert (status, body["error"]) == (400, "invalid_grant")
    basic = fake.activities.issue_code(fake.dave)  # the client's credentials as HTTP Basic auth work too
    status, body = await token_request(fake, {"grant_type": "authorization_code", "code": basic}, basic=(app, secret))
    assert status == 200 and (await me(fake, body["access_token"]))[1]["username"] == "dave"


APP_PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><p id="who">…</p>
<script type="module">
import { DiscordSDK } from "./sdk/index.mjs";
const sdk = new DiscordSDK("__APP__", { disableConsoleLogOverride: true });
const who = document.getElementById("who");
try {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({ client_id: "__APP__", response_type: "code", state: "",
                                                   prompt: "none", scope: ["identify"] });
  const r = await fetch("./api/token", { method: "POST", body: JSON.stringify({ code }) });
  const { access_token, id } = await r.json();
  const auth = await sdk.commands.authenticate({ access_token });
  const channel = await sdk.commands.getChannel({ channel_id: sdk.channelId });
  who.dataset.server = id; who.dataset.sdk = auth.user.id; who.dataset.channel = channel.id;
  who.dataset.instance = sdk.instanceId;
  try { await sdk.commands.authenticate({ access_token: "forged" }); who.dataset.forged = "accepted"; }
  catch (e) { who.dataset.forged = "refused"; }
  who.textContent = "ready";
} catch (e) { who.textContent = "failed: " + (e && e.message || e); }
</script></body></html>"""


@contextlib.asynccontextmanager
async def app_server(fake: FakeDiscord):
    """A minimal Activity: its page, the SDK served from the pinned npm package, and the code exchange done by the
    server (with the app's secret) followed by `users/@me`: who the player is comes from Discord."""
    seen: list[str] = []

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=APP_PAGE.replace("__APP__", str(fake.application_id)), content_type="text/html")

    async def token(request: web.Request) -> web.Response:
        code = (await request.json())["code"]
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "client_id": str(fake.application_id),
            "client_secret": fake.activities.client_secret,
        }
        async with aiohttp.ClientSession() as http:
            async with http.post(fake.base_url + "/api/v10/oauth2/token", data=form) as r:
                access = (await r.json())["access_token"]
            async with http.get(
                fake.base_url + "/api/v10/users/@me", headers={"Authorization": f"Bearer {access}"}
            ) as r:
                user = await r.json()
        seen.append(user["id"])
        return web.json_response({"access_token": access, "id": user["id"]})

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_post("/api/token", token)
    app.router.add_static("/sdk", SDK)
    async with serving(app) as base_url:
        yield base_url, seen


@contextlib.asynccontextmanager
async def serving(app: web.Application):
    """`app` served on a free local port: yields its base URL."""
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def chromium_args() -> list[str]:
    return [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
    ]


async def test_the_client_frame_runs_the_real_sdk_through_handshake_authorize_and_authenticate(
    fake: FakeDiscord, bot: commands.Bot
):
    missing = shutil.which(CHROMIUM) is None or not SDK.is_dir()
    if missing and os.environ.get("CI") != "true":  # a developer's machine may lack them; CI must have both
        pytest.skip("needs Debian's chromium and `npm ci --prefix web/sdk` (make test installs both)")
    from playwright.async_api import async_playwright

    fake.activities.enabled = True
    await fake.slash(fake.bob, "kingdomino", "harness", "activity")
    [launch] = fake.activities.launches
    async with app_server(fake) as (base, seen), async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=chromium_args())
        try:
            context = await browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
            client = ActivityClient(fake, base)
            await client.attach(context)
            page = await context.new_page()
            await page.goto(client.frame_url(launch))
            who = page.frame_locator("iframe#app").locator("#who")
            await who.filter(has_text="ready").wait_for(timeout=30_000)
            data = {k: await who.get_attribute(f"data-{k}") for k in ("server", "sdk", "channel", "instance", "forged")}
            rpc = await page.evaluate("window.rpc")
        finally:
            await browser.close()
    assert data == {
        "server": str(fake.bob.id),  # the app's server learnt the player from Discord
        "sdk": str(fake.bob.id),
        "channel": str(fake.kingdomino.id),
        "instance": launch.instance_id,
        "forged": "refused",
    }
    assert seen == [str(fake.bob.id)]
    assert [op for op, _ in rpc][:1] == [0]  # the SDK's handshake came first
    assert [c for _, c in rpc if c in ("AUTHORIZE", "AUTHENTICATE", "GET_CHANNEL")][:3] == [
        "AUTHORIZE",
        "AUTHENTICATE",
        "GET_CHANNEL",
    ]
    assert all(url.startswith(client.app_origin) for url in client.proxied)
    assert fake.activities.exchanges[-1]["client_id"] == str(fake.application_id)


async def test_the_proxy_lets_a_page_that_went_away_go_quietly(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    # A board's request whose page has gone (its stream closed as it navigates, its browser closing) before the app
    # answers: the proxy has nobody to answer, and says nothing (an error logged here failed a whole-game test).
    arrived, release = asyncio.Event(), asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        arrived.set()
        await release.wait()
        return web.Response(text="too late")

    app = web.Application()
    app.router.add_get("/slow", slow)
    async with serving(app) as base_url:
        proxy = ActivityProxy(fake, base_url, tmp_path)
        await proxy.start()
        try:
            client_tls = ssl.create_default_context()
            client_tls.check_hostname, client_tls.verify_mode = False, ssl.CERT_NONE
            _, writer = await asyncio.open_connection("127.0.0.1", proxy.port, ssl=client_tls)
            writer.write(f"GET /.proxy/slow HTTP/1.1\r\nHost: {proxy.host}\r\n\r\n".encode())
            await writer.drain()
            await fake.wait_until(arrived.is_set, what="the request at the app")
            # The page goes away at once while the app is still working on its answer (a reset, as a closed tab's).
            writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            writer.transport.abort()
            connections = proxy._runner.server.connections  # type: ignore[union-attr]
            await fake.wait_until(
                lambda: all(c.transport is None for c in connections), what="the proxy seeing it gone"
            )
            release.set()
            await fake.wait_until(lambda: proxy.finished, what="the proxy done with the request")
        finally:
            await proxy.stop()
    assert proxy.finished == [f"https://{proxy.host}/.proxy/slow"]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
