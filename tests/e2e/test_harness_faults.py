"""Faults the fake Discord injects (rate limits, server errors, slow answers, refused and dropped uploads, dropped
connections), seen through the real discord.py client, and never blamed on the bot."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.e2e.test_harness import bot_extensions, bot_factory  # noqa: F401  (the harness bot, without the cogs)
from tests.fakediscord import BotRunner, FakeDiscord, RecordedRequest
from tests.fakediscord import wire as fake_server
from tests.fakediscord.faults import FaultInjector

pytestmark = pytest.mark.e2e

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def _channel(bot: commands.Bot, fake: FakeDiscord) -> discord.TextChannel:
    channel = bot.get_channel(fake.kingdomino.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_rate_limit_with_bucket_headers_is_waited_out(fake: FakeDiscord, bot: commands.Bot) -> None:
    fake.faults.rate_limit("POST", MESSAGES, retry_after=0.15, bucket="abcd1234")
    loop = asyncio.get_running_loop()
    started = loop.time()
    await _channel(bot, fake).send("after the limit")
    assert loop.time() - started >= 0.15
    first, second = fake.requests_to("POST", r"/messages$")
    assert (first.status, first.fault, second.status, second.fault) == (429, "rate limit", 200, None)
    assert bot.http._bucket_hashes["POST /channels/{channel_id}/messages"] == "abcd1234"  # it read the headers
    assert fake.last_message("kingdomino").content == "after the limit"
    assert fake.faults.summary() == {"injected": 1, "recovered": 1, "by_kind": {"rate limit": 1}}
    [entry] = fake.faults.injected
    assert entry.request is first and entry.recovered and "429 (retry after 0.15 s)" in str(entry)
    await _channel(bot, fake).send("no more faults")  # the rule fired its one time
    assert fake.requests_to("POST", r"/messages$")[-1].status == 200


async def test_global_rate_limit_pauses_every_route(fake: FakeDiscord, bot: commands.Bot) -> None:
    fake.faults.global_rate_limit("GET", "/channels/{channel_id}/messages/{message_id}", retry_after=0.3)
    channel = _channel(bot, fake)
    sent = await channel.send("hello")
    fetching = asyncio.create_task(channel.fetch_message(sent.id))
    await fake.wait_until(lambda: not bot.http._global_over.is_set(), what="discord.py to pause every route")
    other = await channel.send("meanwhile")  # another route: held until the global limit is over
    assert (await fetching).content == "hello" and other.content == "meanwhile"
    limited = next(r for r in fake.requests if r.fault == "global rate limit")
    meanwhile = next(r for r in fake.requests_to("POST", r"/messages$") if r.json["content"] == "meanwhile")
    assert meanwhile.at >= limited.at + 0.3
    assert fake.faults.counts["global rate limit"] == 1 and fake.faults.injected[0].recovered


async def test_server_errors_are_retried_or_raised(fake: FakeDiscord, harness: BotRunner) -> None:
    bot = harness.bot
    assert bot is not None
    channel = _channel(bot, fake)
    fake.faults.server_error("POST", MESSAGES, status=503)  # discord.py's HTTP client does not retry a 503
    with pytest.raises(discord.DiscordServerError) as caught:
        await channel.send("lost")
    assert caught.value.status == 503
    assert fake.messages_in("kingdomino") == []
    # The webhook adapter retries every 5xx (after 1 s): the reply arrives, and it is not late for Discord.
    fake.faults.server_error("POST", CALLBACK, status=502)
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    assert reply.content == "pong, alice"
    assert [r.status for r in fake.requests_to("POST", r"/callback$")] == [502, 200]
    assert fake.faults.summary()["by_kind"] == {"server error": 2}
    assert fake.faults.summary()["recovered"] == 1  # the 503 on the channel was not retried
    assert fake.take_violations() == []


async def test_a_fault_that_makes_the_answer_late_is_not_the_bots(
    fake: FakeDiscord, bot: commands.Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fake_server, "RESPONSE_DEADLINE", 0.6)
    fake.faults.rate_limit("POST", CALLBACK, retry_after=0.7)
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    assert reply.content == "pong, alice"  # arrived 0.7 s after the bot's attempt, past the (shortened) deadline
    fake.faults.slow("POST", CALLBACK, delay=0.7, applied=False)
    reply = await fake.slash(fake.bob, "kingdomino", "harness", "ping")
    assert reply.content == "pong, bob"
    assert reply.interaction.faulted
    assert fake.violations == [] and fake.excused == []
    assert [e.kind for e in fake.faults.injected] == ["rate limit", "slow"]


async def test_slow_answer_past_the_clients_patience(fake: FakeDiscord, bot: commands.Bot) -> None:
    fake.faults.slow("POST", MESSAGES, delay=3.0)  # carried out at once, answered late (later than any stall here)
    sending = asyncio.create_task(_channel(bot, fake).send("slowly"))
    await fake.wait_until(lambda: fake.messages_in("kingdomino"), what="the message")
    assert not sending.done()  # Discord posted it; the bot is still waiting for the answer
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(sending, 0.1)  # a client that gives up sees a failure, yet the message exists
    assert fake.last_message("kingdomino").content == "slowly"
    await fake.settle()


async def test_refused_and_dropped_uploads(fake: FakeDiscord, bot: commands.Bot) -> None:
    channel = _channel(bot, fake)
    fake.faults.refuse_upload("POST", MESSAGES)
    await channel.send("text only goes through")  # not an upload: the rule waits for one
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert (caught.value.status, caught.value.code) == (413, 40005)
    fake.faults.drop_upload()  # any route
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert [m.content for m in fake.messages_in("kingdomino")] == ["text only goes through"]
    dropped = fake.requests_to("POST", r"/messages$")[-1]
    assert dropped.dropped and "connection dropped" in str(dropped)
    await channel.send("board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert fake.faults.summary() == {"injected": 2, "recovered": 2, "by_kind": {"refuse upload": 1, "drop": 1}}
    assert fake.faults.report() == "faults injected: 2 (drop 1, refuse upload 1); recovered: 2"
    fake.faults.refuse_upload(times=None)
    fake.faults.clear()  # rules gone, the log stays
    await channel.send("board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert [e.kind for e in fake.faults.take_log()] == ["refuse upload", "drop"] and fake.faults.injected == []


async def test_drop_the_connection_and_stop_the_bot_at_that_request(fake: FakeDiscord, harness: BotRunner) -> None:
    hits: list[RecordedRequest] = []

    async def crash(request: RecordedRequest) -> None:
        hits.append(request)
        await harness.stop()  # the bot process dies while its request hangs

    fake.faults.drop_connection("POST", MESSAGES, nth=2, on_hit=crash)
    channel = _channel(harness.bot, fake)  # type: ignore[arg-type]
    await channel.send("first")  # the first matching request passes
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "post")  # defers, then posts: the 2nd
    await fake.wait_until(lambda: hits and hits[0].dropped, what="the bot to be stopped")
    assert harness.bot is None
    assert [m.content for m in fake.messages_in("kingdomino")] == ["first"]  # the board was never posted
    assert hits[0].dropped and hits[0].files[0].filename == "board.png"
    assert reply.message.loading  # the user still sees "thinking..."
    harness.take_logged_errors()  # whatever the dying command logged
    await harness.start()
    assert (await fake.slash(fake.bob, "kingdomino", "harness", "ping")).content == "pong, bob"


async def test_a_dropped_interaction_answer_is_not_a_missing_answer(fake: FakeDiscord, harness: BotRunner) -> None:
    fake.faults.drop_connection("POST", CALLBACK)  # before the fake carries it out
    reply = await fake.slash(fake.alice, "kingdomino", "harness", "ping")
    assert reply.response_type is None
    fake.faults.drop_connection("POST", CALLBACK, applied=True)  # carried out, the answer is lost
    reply = await fake.slash(fake.bob, "kingdomino", "harness", "ping")
    assert reply.content == "pong, bob"
    await fake.wait_until(lambda: len(harness.logged_errors) == 2, what="both commands to fail")
    assert all("ServerDisconnectedError" in e for e in harness.take_logged_errors())
    assert fake.violations == []


def test_seeded_faults_repeat() -> None:
    def run(seed: int) -> list[int]:
        faults = FaultInjector()
        faults.seed(seed)
        faults.server_error(status=502, probability=0.3, times=None)
        hit = []
        for i in range(50):
            request = RecordedRequest(i, "GET", f"/channels/{i}", {}, None, [], {}, 0.0)
            if faults.pick(request) is not None:
                hit.append(i)
        return hit

    assert run(7) == run(7) and run(7) != run(8)
    assert 5 < len(run(7)) < 25


def test_route_templates_and_counting() -> None:
    faults = FaultInjector()
    rule = faults.drop_connection("post", MESSAGES, nth=3)

    def request(method: str, path: str) -> RecordedRequest:
        return RecordedRequest(0, method, path, {}, None, [], {}, 0.0)

    assert faults.pick(request("POST", "/channels/1/messages/2")) is None  # not this route
    assert faults.pick(request("GET", "/channels/1/messages")) is None  # not this method
    picked = [faults.pick(request("POST", f"/channels/{i}/messages")) for i in range(5)]
    assert picked == [None, None, rule, None, None] and rule.exhausted


async def test_seeded_faults_everywhere_are_recovered(fake: FakeDiscord, bot: commands.Bot) -> None:
    fake.faults.seed(3)
    fake.faults.rate_limit(retry_after=0.01, probability=0.3, times=None)  # any method, any route
    for name in ("alice", "bob", "carol", "dave"):
        assert (await fake.slash(name, "kingdomino", "harness", "ping")).content == f"pong, {name}"
        await _channel(bot, fake).send(f"hello {name}")
    summary = fake.faults.summary()
    assert summary["injected"] > 0 and summary["recovered"] == summary["injected"], summary
    assert fake.violations == [] and fake.excused == []
    assert [m.content for m in fake.messages_in("kingdomino")][-1] == "hello dave"
    assert all(e.request is not None and e.request.status == 429 for e in fake.faults.injected)


async def test_a_failing_on_hit_is_reported_and_the_connection_still_drops(
    fake: FakeDiscord, bot: commands.Bot
) -> None:
    fake.faults.drop_connection("POST", MESSAGES, on_hit=lambda: 1 / 0)  # no argument: called without the request
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await _channel(bot, fake).send("lost")
    [error] = fake.internal_errors
    assert "on_hit of connection dropped on POST /channels/{channel_id}/messages failed" in error
    assert "ZeroDivisionError" in error
    fake.internal_errors.clear()


async def test_rate_limit_headers_as_discord_sends_them(fake: FakeDiscord) -> None:
    fake.faults.rate_limit("GET", "/users/@me", retry_after=1.5, bucket="b1")
    fake.faults.global_rate_limit("GET", "/users/@me", retry_after=0.25)
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as response:
            assert response.status == 429 and await response.json() == {
                "message": "You are being rate limited.",
                "retry_after": 1.5,
                "global": False,
            }
            headers = response.headers
            assert (headers["X-RateLimit-Bucket"], headers["X-RateLimit-Remaining"]) == ("b1", "0")
            assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Reset-After"] == "1.500"
            assert float(headers["X-RateLimit-Reset"]) > 1e9 and headers["Retry-After"] == "2"
            assert headers["Via"] and headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
        async with session.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as response:
            assert response.status == 429 and (await response.json())["global"] is True
            assert (
                response.headers["X-RateLimit-Global"] == "true" and response.headers["X-RateLimit-Scope"] == "global"
            )
            assert "X-RateLimit-Bucket" not in response.headers
        async with session.get(f"{fake.base_url}/api/v10/users/@me", headers=auth) as response:
            assert response.status == 200
