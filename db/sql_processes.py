"""The store's SQL that lets several processes share the games: tables to post again, claims and leases on a table's
post and on due timers, notifications claimed and sent, and a member's games counted."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from db.models import (
    GameSummary,
    PendingNotification,
)

from .sqlbase import (
    _ACTIVE_SQL,
    _DUE,
    _DUE_AT,
    _GAME_COLUMNS,
    NOTIFICATION_ATTEMPTS,
    _check_owner,
    _marks,
    lease_end,
    to_ms,
)


class Processes:
    """What the processes claim and count (`SqlGameStore` is made of this and its other parts)."""

    # Several processes

    async def stale_tables(self, *, limit: int = 100) -> list[GameSummary]:
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE (status = 'playing' "
            "AND (table_version IS NULL OR table_version < version)) "
            "OR (status = 'finished' AND table_version IS NOT NULL AND table_version < version) "
            "ORDER BY updated_at, id LIMIT ?"
        )
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (limit,))

    async def claim_table_post(
        self, game_id: int, version: int, owner: str, lease_seconds: float, now: datetime
    ) -> bool:
        _check_owner(owner)
        at = to_ms(now) or 0
        until = lease_end(at, lease_seconds)
        async with self._write() as tx:
            await self._require_game(tx, game_id)
            won = await tx.fetchall(
                "claim_table",
                "INSERT INTO table_claims (game_id, version, owner, lease_until) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, version) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until "
                "WHERE table_claims.lease_until <= ? RETURNING game_id",
                (game_id, version, owner, until, at),
            )
            if won:  # claims of older versions are settled: a newer table replaces theirs
                await tx.execute(
                    "forget_claims", "DELETE FROM table_claims WHERE game_id = ? AND version < ?", (game_id, version)
                )
            return bool(won)

    async def release_claims_of(self, owner: str) -> int:
        async with self._write() as tx:
            tables = await tx.fetchall(
                "release_owner_tables", "DELETE FROM table_claims WHERE owner = ? RETURNING game_id", (owner,)
            )
            timers = await tx.fetchall(
                "release_owner_timers",
                "UPDATE games SET timer_owner = NULL, timer_claim_until = NULL WHERE timer_owner = ? RETURNING id",
                (owner,),
            )
            notes = await tx.fetchall(
                "release_owner_notifications",
                "UPDATE notifications SET lease_until = 0 WHERE owner = ? AND sent_at IS NULL RETURNING game_id",
                (owner,),
            )
            return len(tables) + len(timers) + len(notes)

    async def release_table_post(self, game_id: int, version: int, owner: str) -> bool:
        async with self._write() as tx:
            rows = await tx.fetchall(
                "release_table",
                "DELETE FROM table_claims WHERE game_id = ? AND version = ? AND owner = ? RETURNING game_id",
                (game_id, version, owner),
            )
            return bool(rows)

    async def claim_due(self, now: datetime, owner: str, lease_seconds: float, limit: int = 50) -> list[GameSummary]:
        _check_owner(owner)
        at = to_ms(now) or 0
        until = lease_end(at, lease_seconds)
        free = "(timer_claim_until IS NULL OR timer_claim_until <= ?)"
        sql = (
            # the choice is made once, in a materialised CTE: as a subquery PostgreSQL may run it again for each row
            # it updates, and skip the rows it just claimed (so more than `limit` would be taken)
            f"WITH chosen AS MATERIALIZED (SELECT id FROM games WHERE {_DUE} AND {free} "
            f"ORDER BY {_DUE_AT}, id LIMIT ?{{lock}}) "
            "UPDATE games SET timer_owner = ?, timer_claim_until = ? WHERE id IN (SELECT id FROM chosen) "
            "RETURNING id"
        )
        params = (at, at, at, limit, owner, until)
        async with self._write() as tx:
            rows = await tx.fetchall("claim_due", sql.format(lock=self._skip_locked), params)
            if not rows and self._wait_locked:
                # Every due row was locked: by other claimers, or by a move or a table post being written. Wait for
                # them (SQLite's writers wait too), then take those still free. Holding no claimed row yet, this
                # wait cannot close a cycle with another claimer.
                rows = await tx.fetchall("claim_due_wait", sql.format(lock=self._wait_locked), params)
            ids = [row["id"] for row in rows]
            if not ids:
                return []
            found = f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ({_marks(ids)}) ORDER BY {_DUE_AT}, id"
            return await self._load_summaries(tx, found, ids)

    async def release_claim(self, game_id: int, owner: str) -> bool:
        async with self._write() as tx:
            released = await tx.execute(
                "release_claim",
                "UPDATE games SET timer_owner = NULL, timer_claim_until = NULL WHERE id = ? AND timer_owner = ?",
                (game_id, owner),
            )
            if not released:
                await self._require_game(tx, game_id)
            return bool(released)

    async def claim_notification(
        self,
        game_id: int,
        turn_key: int,
        user_id: int,
        kind: str,
        *,
        owner: str = "",
        lease_seconds: float = 300.0,
        sent: bool = False,
    ) -> bool:
        if not kind:
            raise ValueError("a notification kind is a non-empty string such as 'turn' or 'reminder'")
        now = self._now_ms()
        until = lease_end(now, lease_seconds)
        async with self._write() as tx:
            await self._require_game(tx, game_id)
            rows = await tx.fetchall(
                "claim_notification",
                "INSERT INTO notifications "
                "(game_id, turn_key, kind, user_id, claimed_at, owner, lease_until, sent_at, attempts) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (game_id, turn_key, kind) DO UPDATE SET "
                "owner = excluded.owner, lease_until = excluded.lease_until, claimed_at = excluded.claimed_at, "
                "sent_at = excluded.sent_at, attempts = notifications.attempts + 1 WHERE notifications.sent_at IS NULL "
                f"AND notifications.lease_until <= ? AND notifications.attempts < {NOTIFICATION_ATTEMPTS} "
                "RETURNING game_id",
                (game_id, turn_key, kind, user_id, now, owner, None if sent else until, now if sent else None, now),
            )
            return bool(rows)

    async def notification_sent(
        self, game_id: int, turn_key: int, kind: str, *, message: tuple[int, int] | None = None
    ) -> bool:
        channel_id, message_id = message if message is not None else (None, None)
        async with self._write() as tx:
            rows = await tx.fetchall(
                "notification_sent",
                "UPDATE notifications SET sent_at = ?, lease_until = NULL, message_channel_id = ?, message_id = ? "
                "WHERE game_id = ? AND turn_key = ? AND kind = ? RETURNING game_id",
                (self._now_ms(), channel_id, message_id, game_id, turn_key, kind),
            )
            return bool(rows)

    async def notification_messages(self, game_id: int, *, other_than: int | None = None) -> list[tuple[int, int]]:
        sql = "SELECT message_channel_id, message_id FROM notifications WHERE game_id = ? AND message_id IS NOT NULL"
        params: list[Any] = [game_id]
        if other_than is not None:
            sql += " AND turn_key <> ?"
            params.append(other_than)
        async with self._read() as tx:
            rows = await tx.fetchall("notification_messages", sql + " ORDER BY turn_key, kind", params)
        return [(int(r["message_channel_id"]), int(r["message_id"])) for r in rows]

    async def forget_notification_messages(self, game_id: int, message_ids: Collection[int]) -> int:
        if not message_ids:
            return 0
        ids = list(message_ids)
        async with self._write() as tx:
            return await tx.execute(
                "forget_messages",
                "UPDATE notifications SET message_channel_id = NULL, message_id = NULL "
                f"WHERE game_id = ? AND message_id IN ({_marks(ids)})",
                [game_id, *ids],
            )

    async def unsent_notifications(self, limit: int = 50) -> list[PendingNotification]:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "unsent_notifications",
                "SELECT game_id, turn_key, kind, user_id FROM notifications WHERE sent_at IS NULL "
                f"AND lease_until <= ? AND attempts < {NOTIFICATION_ATTEMPTS} "
                "ORDER BY claimed_at, game_id, turn_key, kind LIMIT ?",
                (self._now_ms(), limit),
            )
        return [PendingNotification(r["game_id"], r["turn_key"], r["kind"], r["user_id"]) for r in rows]

    # Members

    async def count_lobbies_hosted(self, guild_id: int, user_id: int) -> int:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "count_lobbies",
                "SELECT COUNT(*) FROM games WHERE status = 'lobby' AND guild_id = ? AND host_user_id = ?",
                (guild_id, user_id),
            )
        return int(rows[0][0])

    async def count_active_games_of(self, guild_id: int, user_id: int) -> int:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "count_games",
                f"SELECT COUNT(*) FROM games WHERE status IN {_ACTIVE_SQL} AND guild_id = ? "
                "AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
                (guild_id, user_id),
            )
        return int(rows[0][0])

    async def active_games_of(self, user_id: int, guild_id: int | None = None) -> list[GameSummary]:
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN {_ACTIVE_SQL} "
            "AND id IN (SELECT game_id FROM seats WHERE user_id = ?)"
        )
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        async with self._read() as tx:
            return await self._load_summaries(tx, sql + " ORDER BY updated_at DESC, id DESC", params)

    async def expired_lobbies(self, updated_before: datetime) -> list[GameSummary]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'lobby' AND updated_at < ? ORDER BY updated_at, id"
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (to_ms(updated_before),))
