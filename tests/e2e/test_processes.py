"""Two bot processes, one shard each, sharing one PostgreSQL database, against one fake Discord.

Games in a guild of each shard are played by clicks; clicks race on the same game; a click races the deadline that
the timer loop of one of the processes plays; a process is killed (SIGKILL) while it posts a table and restarted, and
its game goes on; a reminder that both timer loops see due is sent once. At the end each game's state is its action
log replayed, and no action is logged twice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from db import open_store
from db.models import TurnTimer
from engine import Game, GameConfig, action_from_dict
from tests.e2e.play import TURN, latest_table, play_turn, start_game
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.model import FakeChannel, FakeUser

pytestmark = pytest.mark.e2e

FACTORY = "tests.e2e.process_bot:build"
TIMER_PERIOD = 0.5  # seconds; 60 in production (cogs.admin.TIMER_PERIOD_SECONDS)
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
MESSAGES = "/channels/{channel_id}/messages"
STALE_WORDS = "The table changed"
REMINDER_WORDS = "reminder: it's your turn"


def _people(*users: FakeUser) -> dict[str, FakeUser]:
    return {str(u.id): u for u in users}


async def _active(store, channel: FakeChannel):
    rec = await store.get_active_game(channel.id)
    assert rec is not None and rec.game is not None, f"no game in play in {channel.label}"
    return rec


async def _panel(fake: FakeDiscord, user: FakeUser, channel: FakeChannel):
    reply = await fake.click(user, latest_table(fake, channel), TURN)
    panel = await reply.wait_message()
    assert panel.ephemeral and (panel.buttons or panel.selects), panel.content
    return panel


async def _play(
    fake: FakeDiscord, store, channel: FakeChannel, people: dict[str, FakeUser], rng: random.Random, turns: int | None
) -> int:
    """Play `turns` turns (None: to the end) by clicks, whoever the store says must act. Returns the turns played."""
    played = 0
    while turns is None or played < turns:
        assert played < 200, "the game did not end"
        rec = await store.get_active_game(channel.id)
        if rec is None:
            return played
        await play_turn(fake, people[rec.game.decision().player], channel, rng)
        played += 1
    return played


async def _two_clicks_at_once(fake: FakeDiscord, store, channel: FakeChannel, people: dict[str, FakeUser]) -> None:
    """The player to act opens two panels and clicks the same button on both at once: one move, one refusal."""
    rec = await _active(store, channel)
    player = people[rec.game.decision().player]
    first, second = await _panel(fake, player, channel), await _panel(fake, player, channel)
    target = first.buttons[0]["custom_id"]
    assert target == second.buttons[0]["custom_id"]
    replies = await asyncio.gather(fake.click(player, first, target), fake.click(player, second, target))
    await fake.wait_until(lambda: any(m.content for r in replies for m in r.followups), what="a refusal")
    after = await _active(store, channel)
    assert after.version == rec.version + 1, "exactly one of the two clicks was applied"
    assert len(await store.get_actions(rec.id)) == len(rec.game.log) + 1
    texts = [m.content for r in replies for m in r.followups]
    assert sum(STALE_WORDS in t for t in texts) == 1, texts


async def _within(fake: FakeDiscord, predicate: Callable[[], object], seconds: float) -> bool:
    try:
        await fake.wait_until(predicate, timeout=seconds)
    except AssertionError:
        return False
    return True


def _tables(fake: FakeDiscord, channel: FakeChannel) -> list:
    return [m for m in fake.messages_in(channel) if any(a.filename == "table.png" for a in m.attachments)]


def _reminders(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    return [m.content for m in fake.messages_in(channel) if REMINDER_WORDS in m.content]


async def _check_log(store, game_id: int) -> int:
    """The game's stored state is its action log replayed from the seed; each action is logged once. Returns the
    number of actions."""
    rec = await store.get_game(game_id)
    logged = await store.get_actions(game_id)
    assert [a.seq for a in logged] == list(range(1, len(logged) + 1)), "the log's numbers have no gap or repeat"
    actions = [a for a in logged if not a.undone]
    replay = Game.new(GameConfig.from_dict(rec.config), rec.seed)
    for entry in actions:
        replay.apply(action_from_dict(entry.action), by=entry.player_id)
    assert len(rec.game.log) == len(actions), "every move of the game is in the log, once"
    assert replay.to_dict() == rec.game.to_dict(), f"game {game_id}: the stored state is not its log replayed"
    return len(actions)


async def test_two_processes_one_database(
    pg_url: str, fake: FakeDiscord, bot_processes: Callable[..., BotProcess], tmp_path: Path
) -> None:
    # pg_url first: its database is dropped after the processes have stopped (fixtures end in reverse order).
    fake.shard_count = 2
    north = await fake.add_guild("North", shard=(0, 2))
    south = await fake.add_guild("South", shard=(1, 2))
    n_channel, s_channel = north.channels["kingdomino"], south.channels["kingdomino"]
    common = {"SHARD_COUNT": "2", "DATABASE_URL": pg_url, "KD_TIMER_PERIOD_SECONDS": str(TIMER_PERIOD)}
    first = bot_processes(
        FACTORY, env={**common, "SHARD_IDS": "0", "KD_SEEDS": "north"}, sync_commands=True, name="shard-0"
    )
    second = bot_processes(FACTORY, env={**common, "SHARD_IDS": "1", "KD_SEEDS": "south"}, name="shard-1")
    await first.start()  # one after the other: the first migrates the database
    await second.start()
    assert (first.ready_info["shards"], second.ready_info["shards"]) == ([0], [1])
    assert north.id in first.ready_info["guilds"] and south.id in second.ready_info["guilds"]  # type: ignore[operator]

    store = await open_store(tmp_path / "unused.sqlite3", pg_url)  # the test's own look at the shared database
    try:
        await _scenario(fake, store, first, second, n_channel, s_channel)
        assert (await first.stop(), await second.stop()) == (0, 0), "both close cleanly"
    except BaseException:
        for process in (first, second):  # shown with the failure
            print(f"--- output of {process.name} (pid {process.pid}):", *process.output[-60:], sep="\n")
        raise
    finally:
        await store.close()


async def _scenario(fake, store, first, second, n_channel, s_channel) -> None:
    north_people = _people(fake.alice, fake.bob)
    south_people = _people(fake.carol, fake.dave)
    rng_n, rng_s = random.Random(1), random.Random(2)

    # Games in both guilds, each answered by its shard's process; the same people play in both.
    await asyncio.gather(
        start_game(fake, fake.alice, n_channel, [fake.bob], game="kingdomino", players=2),
        start_game(fake, fake.carol, s_channel, [fake.dave], game="queendomino", players=2),
    )
    north_id, south_id = (await _active(store, n_channel)).id, (await _active(store, s_channel)).id

    # Two clicks at once on the same button, in each guild, both guilds at once.
    await asyncio.gather(
        _two_clicks_at_once(fake, store, n_channel, north_people),
        _two_clicks_at_once(fake, store, s_channel, south_people),
    )
    await asyncio.gather(
        _play(fake, store, n_channel, north_people, rng_n, 3), _play(fake, store, s_channel, south_people, rng_s, 3)
    )

    # A click races the deadline across processes: the click's answer to Discord is held 6 s, meanwhile the timer
    # loop of one of the processes (both run it every TIMER_PERIOD) plays the absent player's turn; then the click,
    # drawn at the old version, is refused.
    rec = await _active(store, n_channel)
    player = north_people[rec.game.decision().player]
    panel = await _panel(fake, player, n_channel)
    fake.faults.slow("POST", CALLBACK, delay=6.0, applied=True)
    if panel.buttons:  # a claim
        reply = await fake.click(player, panel, panel.buttons[0]["custom_id"])
    else:  # a placement: its first cell
        select = panel.selects[0]
        reply = await fake.select(player, panel, select["custom_id"], [select["options"][0]["value"]])
    now = datetime.now(UTC)
    await store.set_turn_timer(rec.id, TurnTimer(None, now - timedelta(minutes=1)), expected_version=rec.version)
    await fake.wait_until(lambda: "time ran out" in latest_table(fake, n_channel).content, what="the deadline played")
    [refusal] = await reply.wait_followups(1)
    assert STALE_WORDS in refusal.content and refusal.ephemeral, refusal.content
    after = await _active(store, n_channel)
    assert after.version > rec.version
    assert [a.user_id for a in (await store.get_actions(rec.id))[len(rec.game.log) :]] == [None] * (
        len(after.game.log) - len(rec.game.log)
    ), "only the computer played for the absent player: the click changed nothing"

    # The second process dies (SIGKILL) at the moment it posts South's next table: after the move is saved.
    fake.faults.drop_connection("POST", MESSAGES, on_hit=second.kill)
    table_before = latest_table(fake, s_channel)
    before = await _active(store, s_channel)
    mover = before.game.decision().player
    turn = asyncio.create_task(play_turn(fake, south_people[mover], s_channel, rng_s))
    await fake.wait_until(lambda: not second.running and fake.faults.injected, timeout=60, what="the kill")
    turn.cancel()
    await asyncio.gather(turn, return_exceptions=True)
    fake.take_violations()  # the dead process's unanswered panel is the test's doing
    saved = await _active(store, s_channel)
    assert saved.version > before.version, "the move was saved"
    if saved.game.decision().player == mover:
        # The post that was cut came mid-turn: a repair pass must not post the table again mid-turn (the repair
        # leaves alone a game changed in the last seconds).
        raise AssertionError("a table was posted again in South mid-turn by a repair pass")
    await second.restart(kill=True)
    assert second.starts == 2 and second.ready_info["shards"] == [1]
    # The table of the saved move should now be posted by a repair pass (the restarted process's start-up pass, or
    # either process's next one), with the ping of the player to act.
    # The restarted process takes back the claims it held when it was killed (its name in the store is stable for
    # its shards) and posts the table at once, with the ping of the player to act.
    to_act = saved.game.decision().player
    if not await _within(
        fake,
        lambda: (
            latest_table(fake, s_channel).id != table_before.id
            and f"<@{to_act}>" in latest_table(fake, s_channel).content
        ),
        8 * TIMER_PERIOD,
    ):
        raise AssertionError("after a SIGKILL mid-post the table is not posted again until the 120 s claim runs out")
    # The game goes on with the new process: the recorded table (the last one posted) still opens the panel.
    await _play(fake, store, s_channel, south_people, rng_s, 2)
    assert (await _active(store, s_channel)).version > saved.version

    # A reminder due while both processes run their timer loops is sent once.
    rec = await _active(store, n_channel)
    await store.set_turn_timer(
        rec.id, TurnTimer(datetime.now(UTC) - timedelta(minutes=1), None), expected_version=rec.version
    )
    await fake.wait_until(lambda: _reminders(fake, n_channel), what="the reminder")
    await asyncio.sleep(6 * TIMER_PERIOD)  # several passes of both loops
    reminders = _reminders(fake, n_channel)
    assert len(reminders) == 1, reminders
    assert f"<@{rec.game.decision().player}>" in reminders[0]

    # Both games to their end, at once.
    await asyncio.gather(
        _play(fake, store, n_channel, north_people, rng_n, None),
        _play(fake, store, s_channel, south_people, rng_s, None),
    )
    for channel, game_id in ((n_channel, north_id), (s_channel, south_id)):
        final = await store.get_game(game_id)
        assert final.status == "finished" and final.game.is_over
        await fake.wait_until(lambda c=channel: "win" in latest_table(fake, c).content, timeout=30, what="the end")
        assert await _check_log(store, game_id) == len(final.game.log)
    # Nothing failed in North: every table there follows a move (a repair pass has nothing to post again).
    # No table is posted again mid-turn by either process's repair pass (a game changed in the last seconds is still
    # being shown by whoever moved).
    again = [m.content for m in _tables(fake, n_channel) if "The table again" in m.content]
    if again:
        raise AssertionError(f"{len(again)} table(s) posted again mid-turn by the other process's repair pass")
    assert first.starts == 1 and first.running and second.running
