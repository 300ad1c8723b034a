"""Several bot processes on one database: which table is stale, who posts it, who handles a due timer, which
notification goes out; each job done once while its claimant lives, and taken over when it died."""

import asyncio
from datetime import timedelta

import pytest

from db import GameNotFound, TurnTimer
from db.models import PendingNotification

from .conftest import fake_state, new_game, playing_game


async def move(store, record, turn: int) -> int:
    return await store.save_move(
        record.id,
        (await store.get_game(record.id)).version,
        state=fake_state(turn),
        action={},
        player_id="1",
        user_id=1,
    )


# The table message


async def test_table_version_is_remembered_and_stale_tables_listed(store):
    lobby = await new_game(store, channel_id=1)
    game = await playing_game(store, channel_id=2)
    assert game.table_version is None
    assert [g.id for g in await store.stale_tables()] == [game.id]  # lobbies are not listed

    await store.set_table_message(game.id, 2, 900, shown_version=game.version)
    shown = await store.get_game(game.id)
    assert (shown.table_channel_id, shown.table_message_id, shown.table_version) == (2, 900, game.version)
    assert shown.version == game.version  # bookkeeping does not move the game
    assert await store.stale_tables() == []

    version = await move(store, game, 1)
    stale = await store.stale_tables()
    assert [(g.id, g.table_version, g.version) for g in stale] == [(game.id, game.version, version)]
    await store.set_table_message(game.id, 2, 901)  # no version told: unknown, so stale
    assert [g.id for g in await store.stale_tables()] == [game.id]
    await store.set_table_message(game.id, 2, 901, shown_version=version)
    assert await store.stale_tables() == []
    await store.cancel_game(game.id)
    await store.cancel_game(lobby.id)
    assert await store.stale_tables() == []


async def test_stale_tables_respects_the_limit(store):
    for channel in range(5):
        await playing_game(store, channel_id=channel)
    assert len(await store.stale_tables(limit=3)) == 3


async def test_one_claimant_posts_a_table_until_its_lease_runs_out(store, clock):
    game = await playing_game(store)
    now = clock.now
    assert await store.claim_table_post(game.id, game.version, "bot-a", 30, now)
    assert not await store.claim_table_post(game.id, game.version, "bot-b", 30, now)
    assert not await store.claim_table_post(game.id, game.version, "bot-a", 30, now + timedelta(seconds=29))
    # another version is another job
    assert await store.claim_table_post(game.id, game.version + 1, "bot-b", 30, now)
    # bot-a died: its lease runs out and the job can be taken again
    assert await store.claim_table_post(game.id, game.version, "bot-c", 30, now + timedelta(seconds=30))
    assert not await store.claim_table_post(game.id, game.version, "bot-a", 30, now + timedelta(seconds=31))
    with pytest.raises(GameNotFound):
        await store.claim_table_post(9999, 1, "bot-a", 30, now)


@pytest.mark.parametrize(("owner", "lease"), [("", 30), ("bot", 0), ("bot", -1), ("bot", float("nan"))])
async def test_bad_claims_are_refused(owner, lease, store, clock, backend):
    game = await playing_game(store)
    before = await backend.dump()
    with pytest.raises(ValueError):
        await store.claim_table_post(game.id, game.version, owner, lease, clock.now)
    with pytest.raises(ValueError):
        await store.claim_due(clock.now, owner, lease)
    assert await backend.dump() == before


@pytest.mark.parametrize("lease", [0, -1, float("nan"), float("inf"), True, "30"])
async def test_every_lease_refuses_what_is_not_a_number_of_seconds_and_changes_nothing(lease, store, clock, backend):
    """A table post, the due games, a notification and a process's lease are all timed the same way (`lease_end`):
    each refuses a lease of 0, a negative one, NaN, infinity, a bool or a string, saying so, and writes nothing."""
    game = await playing_game(store)
    before = await backend.dump()
    refused = [
        lambda: store.claim_table_post(game.id, game.version, "bot", lease, clock.now),
        lambda: store.claim_due(clock.now, "bot", lease),
        lambda: store.claim_notification(game.id, 3, 1, "turn", owner="bot", lease_seconds=lease),
        lambda: store.take_lease("board", "bot", lease),
    ]
    for attempt in refused:
        with pytest.raises(ValueError, match="lease_seconds must be a number of seconds above 0"):
            await attempt()
    assert await backend.dump() == before


async def test_many_processes_racing_for_one_table_post_one_wins(open_store, clock):
    stores = [await open_store(), await open_store(), await open_store()]
    game = await playing_game(stores[0])
    outcomes = await asyncio.gather(
        *(stores[n % 3].claim_table_post(game.id, game.version, f"bot-{n}", 30, clock.now) for n in range(12))
    )
    assert outcomes.count(True) == 1


# Due timers


async def timed_game(store, clock, channel_id: int, *, reminder_in: float | None, deadline_in: float | None):
    game = await new_game(store, channel_id=channel_id)
    timer = TurnTimer(
        None if reminder_in is None else clock.now + timedelta(minutes=reminder_in),
        None if deadline_in is None else clock.now + timedelta(minutes=deadline_in),
    )
    await store.start_game(game.id, game.version, config={}, state=fake_state(), timer=timer)
    return game.id


async def test_claim_due_takes_due_games_once_and_after_the_lease_again(store, clock):
    overdue = await timed_game(store, clock, 1, reminder_in=-10, deadline_in=60)
    due_now = await timed_game(store, clock, 2, reminder_in=None, deadline_in=0)
    later = await timed_game(store, clock, 3, reminder_in=5, deadline_in=60)
    now = clock.now
    assert [g.id for g in await store.due_games(now)] == [overdue, due_now]

    claimed = await store.claim_due(now, "bot-a", 60)
    assert [g.id for g in claimed] == [overdue, due_now]
    assert await store.claim_due(now, "bot-b", 60) == []
    assert [g.id for g in await store.due_games(now)] == [overdue, due_now]  # due_games ignores claims

    assert await store.release_claim(overdue, "bot-a")
    assert not await store.release_claim(due_now, "bot-b")  # not bot-b's
    assert [g.id for g in await store.claim_due(now, "bot-b", 60)] == [overdue]
    # bot-a dies holding due_now; after its lease, anyone may take it, and `later` has come due meanwhile
    after = now + timedelta(seconds=60)
    assert [g.id for g in await store.claim_due(after, "bot-c", 600)] == [overdue, due_now]
    assert [g.id for g in await store.claim_due(now + timedelta(minutes=5), "bot-d", 60)] == [later]
    with pytest.raises(GameNotFound):
        await store.release_claim(9999, "bot-a")


async def test_claim_due_leaves_lobbies_and_ended_games_alone_and_respects_the_limit(store, clock):
    ids = [await timed_game(store, clock, channel, reminder_in=-channel, deadline_in=None) for channel in range(1, 5)]
    await store.cancel_game(ids[0])
    await new_game(store, channel_id=99)
    claimed = await store.claim_due(clock.now, "bot-a", 60, limit=2)
    assert [g.id for g in claimed] == [ids[3], ids[2]]  # most overdue first
    assert [g.id for g in await store.claim_due(clock.now, "bot-a", 60)] == [ids[1]]


async def test_concurrent_claimers_never_get_the_same_game(open_store, clock):
    stores = [await open_store() for _ in range(3)]
    ids = {await timed_game(stores[0], clock, channel, reminder_in=-1, deadline_in=None) for channel in range(30)}
    claims = await asyncio.gather(*(stores[n % 3].claim_due(clock.now, f"bot-{n}", 60, limit=4) for n in range(12)))
    taken = [g.id for claim in claims for g in claim]
    assert len(taken) == len(set(taken))  # nobody got a game twice
    assert set(taken) == ids  # and 12 claimers of up to 4 took all 30


# Notifications


async def test_a_notification_is_claimed_once(store, open_store):
    game = await playing_game(store)
    other = await open_store()
    assert await store.claim_notification(game.id, 3, 1, "turn")
    assert not await other.claim_notification(game.id, 3, 1, "turn")
    assert not await store.claim_notification(game.id, 3, 2, "turn")  # once per game, turn and kind
    assert await store.claim_notification(game.id, 3, 1, "reminder")
    assert await store.claim_notification(game.id, 4, 1, "turn")
    with pytest.raises(GameNotFound):
        await store.claim_notification(9999, 1, 1, "turn")
    with pytest.raises(ValueError):
        await store.claim_notification(game.id, 5, 1, "")


async def test_racing_notifiers_send_once(open_store):
    stores = [await open_store(), await open_store()]
    game = await playing_game(stores[0])
    outcomes = await asyncio.gather(*(stores[n % 2].claim_notification(game.id, 1, 1, "dm") for n in range(10)))
    assert outcomes.count(True) == 1


async def test_a_notification_claim_is_a_lease_taken_again_once(store, open_store, clock):
    game = await playing_game(store)
    other = await open_store()
    assert await store.claim_notification(game.id, 3, 1, "turn", owner="bot-a", lease_seconds=60)
    assert await store.unsent_notifications() == [], "the lease still holds"
    clock.advance(seconds=59)
    assert not await other.claim_notification(game.id, 3, 1, "turn", owner="bot-b", lease_seconds=60)
    # bot-a died while sending: once its lease ran out, the repair pass sees it and may claim it again, once.
    clock.advance(seconds=2)
    assert await other.unsent_notifications() == [PendingNotification(game.id, 3, "turn", 1)]
    assert await other.claim_notification(game.id, 3, 1, "turn", owner="bot-b", lease_seconds=60)
    assert await store.unsent_notifications() == []
    clock.advance(seconds=120)
    assert await store.unsent_notifications() == [], "two claims in all: a second crash does not repeat it again"
    assert not await store.claim_notification(game.id, 3, 1, "turn", owner="bot-a", lease_seconds=60)
    # Marked sent: never again, whatever the time.
    assert await store.claim_notification(game.id, 4, 1, "turn", owner="bot-a", lease_seconds=60)
    assert await store.notification_sent(game.id, 4, "turn")
    clock.advance(hours=1)
    assert not await other.claim_notification(game.id, 4, 1, "turn", owner="bot-b", lease_seconds=60)
    assert await store.unsent_notifications() == []
    assert not await store.notification_sent(game.id, 5, "turn"), "never claimed"
    with pytest.raises(ValueError, match="lease_seconds"):
        await store.claim_notification(game.id, 6, 1, "turn", owner="bot-a", lease_seconds=0)


async def test_a_notification_claimed_as_sent_is_never_sent_again(store, open_store, clock):
    game = await playing_game(store)
    assert await store.claim_notification(game.id, 3, 1, "turn", owner="bot-a", sent=True)
    clock.advance(hours=1)
    assert await store.unsent_notifications() == []
    assert not await (await open_store()).claim_notification(game.id, 3, 1, "turn", owner="bot-b")
    assert await store.release_claims_of("bot-a") == 0, "nothing held"


async def test_the_direct_messages_of_a_game_are_listed_until_forgotten(store, open_store):
    game = await playing_game(store)
    other = await playing_game(store, channel_id=99)
    for turn, message in ((1, 501), (2, 502)):
        assert await store.claim_notification(game.id, turn, 1, "turn", owner="bot-a")
        assert await store.notification_sent(game.id, turn, "turn", message=(77, message))
    assert await store.claim_notification(game.id, 2, 1, "reminder x", owner="bot-a")
    assert await store.notification_sent(game.id, 2, "reminder x")  # no message: nothing to take off
    assert await store.claim_notification(other.id, 1, 1, "turn", owner="bot-a")
    assert await store.notification_sent(other.id, 1, "turn", message=(78, 601))
    reader = await open_store()  # what another process (or this one, restarted) sees
    assert await reader.notification_messages(game.id) == [(77, 501), (77, 502)]
    assert await reader.notification_messages(game.id, other_than=2) == [(77, 501)]
    assert await reader.forget_notification_messages(game.id, [501]) == 1
    assert await store.notification_messages(game.id) == [(77, 502)]
    assert await store.forget_notification_messages(game.id, [601]) == 0, "another game's message stays"
    assert await store.notification_messages(other.id) == [(78, 601)]
    assert await store.forget_notification_messages(game.id, []) == 0


async def test_a_restarted_process_drops_its_notification_leases(store):
    game = await playing_game(store)
    assert await store.claim_notification(game.id, 7, 1, "turn", owner="host:shards=0", lease_seconds=300)
    assert await store.claim_notification(game.id, 8, 1, "turn", owner="host:shards=0", lease_seconds=300)
    assert await store.notification_sent(game.id, 8, "turn")
    assert await store.claim_notification(game.id, 9, 1, "turn", owner="elsewhere", lease_seconds=300)
    assert await store.release_claims_of("host:shards=0") == 1, "only its unsent claim"
    assert await store.unsent_notifications() == [PendingNotification(game.id, 7, "turn", 1)]
    assert await store.claim_notification(game.id, 7, 1, "turn", owner="host:shards=0", lease_seconds=300)


async def test_claim_due_takes_no_more_than_the_limit_when_games_are_equally_due(store, clock):
    # found by test_same_behaviour: PostgreSQL ran the choosing subquery again and took a second game
    for channel in range(3):
        await timed_game(store, clock, channel, reminder_in=0, deadline_in=None)
    assert len(await store.claim_due(clock.now, "bot-a", 60, limit=1)) == 1
    assert len(await store.claim_due(clock.now, "bot-b", 60, limit=1)) == 1
    assert len(await store.claim_due(clock.now, "bot-c", 60, limit=5)) == 1


async def test_a_released_table_post_can_be_claimed_again_at_once(store, clock):
    game = await playing_game(store)
    assert await store.claim_table_post(game.id, game.version, "bot-a", 30, clock.now)
    assert not await store.release_table_post(game.id, game.version, "bot-b")  # not bot-b's to give up
    assert not await store.claim_table_post(game.id, game.version, "bot-b", 30, clock.now)
    assert await store.release_table_post(game.id, game.version, "bot-a")  # the post failed
    assert not await store.release_table_post(game.id, game.version, "bot-a")
    assert await store.claim_table_post(game.id, game.version, "bot-b", 30, clock.now)


async def test_claim_due_waits_for_a_game_being_written_instead_of_passing_it_over(store, backend, clock):
    # found by the end-to-end tests on PostgreSQL: SKIP LOCKED alone passed over a game whose table was being posted
    from .test_atomicity import hold_write_lock

    game_id = await timed_game(store, clock, 1, reminder_in=-1, deadline_in=None)

    async def claim_while_locked():
        async with hold_write_lock(backend, game_id):
            claim = asyncio.create_task(store.claim_due(clock.now, "bot-a", 60))
            await asyncio.sleep(0.3)
            assert not claim.done()  # it waits, as SQLite's writers do
        return await claim

    assert [g.id for g in await claim_while_locked()] == [game_id]
