"""A process that restarts under the same name takes back at once the claims it held when it died."""

from datetime import UTC, datetime, timedelta

from db.models import TurnTimer

from .conftest import playing_game


async def test_release_claims_of_an_owner_frees_its_tables_and_timers(store):
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    game = await playing_game(store, channel_id=7)
    other = await playing_game(store, channel_id=8)
    await store.set_turn_timer(game.id, TurnTimer(now - timedelta(minutes=1), None))
    assert await store.claim_table_post(game.id, game.version, "host:shards=0", 120, now)
    assert await store.claim_table_post(other.id, other.version, "host:shards=1", 120, now)
    assert [g.id for g in await store.claim_due(now, "host:shards=0", 300)] == [game.id]
    # While the leases live, nobody else may take them.
    assert not await store.claim_table_post(game.id, game.version, "elsewhere", 120, now)
    assert await store.claim_due(now, "elsewhere", 300) == []
    # The same name, restarted, drops what it held (two claims), and only that.
    assert await store.release_claims_of("host:shards=0") == 2
    assert await store.claim_table_post(game.id, game.version, "host:shards=0", 120, now)
    assert [g.id for g in await store.claim_due(now, "host:shards=0", 300)] == [game.id]
    assert not await store.claim_table_post(other.id, other.version, "host:shards=0", 120, now), "not another's"
    assert await store.release_claims_of("nobody") == 0
