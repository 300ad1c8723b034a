"""Bots in separate OS processes against one fake Discord: two processes, one shard each, a kill at an exact
request, a restart, and the errors each process logged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.fakediscord import BotProcess, FakeDiscord

pytestmark = pytest.mark.e2e

FACTORY = "tests.fakediscord.subprocess_bot:example_bot"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


async def test_two_processes_one_shard_each(fake: FakeDiscord, bot_processes: Callable[..., BotProcess]) -> None:
    fake.shard_count = 2
    north = await fake.add_guild("North", shard=(0, 2))
    south = await fake.add_guild("South", shard=(1, 2))
    extensions = ["tests.e2e.harness_cog"]
    first = bot_processes(
        FACTORY, env={"SHARD_IDS": "0", "SHARD_COUNT": "2"}, extensions=extensions, sync_commands=True
    )
    second = bot_processes(FACTORY, env={"SHARD_IDS": "1", "SHARD_COUNT": "2"}, extensions=extensions)
    await first.start()
    await second.start()
    assert (first.ready_info["shards"], second.ready_info["shards"]) == ([0], [1])
    assert north.id in first.ready_info["guilds"] and south.id in second.ready_info["guilds"]  # type: ignore[operator]
    assert fake.connected_shards == [0, 1] and first.pid != second.pid

    assert (await fake.slash(fake.alice, north.channels["kingdomino"], "harness", "ping")).content == "pong, alice"
    assert (await fake.slash(fake.bob, south.channels["kingdomino"], "harness", "ping")).content == "pong, bob"

    # Kill the second process at exactly its answer to carol: the fake holds the request until it is dead.
    fake.faults.drop_connection("POST", CALLBACK, on_hit=second.kill)
    reply = await fake.slash(fake.carol, south.channels["general"], "harness", "ping")
    assert reply.response_type is None and not second.running
    assert fake.requests_to("POST", r"/callback$")[-1].dropped
    assert fake.take_violations() == []  # the crash is the test's doing
    await second.restart()  # a new process: a new session for shard 1
    assert second.starts == 2 and fake.session(1).identify["shard"] == [1, 2]
    assert (await fake.slash(fake.carol, south.channels["general"], "harness", "ping")).content == "pong, carol"
    assert fake.session(0).connected and fake.session(0).resumes == 0  # the first process never noticed

    # Errors each process logs are collected.
    await fake.slash(fake.dave, north.channels["kingdomino"], "harness", "long")
    [violation] = fake.take_violations()
    assert violation.kind == "limit"
    await fake.wait_until(lambda: first.logged_errors, what="the error log line")
    assert "Invalid Form Body" in first.take_logged_errors()[0]
    assert second.logged_errors == []
    codes = (await first.stop(), await second.stop())
    assert codes == (0, 0) and first.logged_errors == [] and second.logged_errors == []
    assert not fake.connected
