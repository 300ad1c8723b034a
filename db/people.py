"""The store's SQL about people and upkeep, shared by both databases like `db.sql`'s: everything kept about one person
(`person_data`), forgetting them (`forget_player` game by game, then `erase_person`), the leases that say which bot
processes use the database, and the servers the bot was removed from.

`PeopleSql` is `SqlGameStore` with these methods; the backends (`db.sqlite`, `db.postgres`) build on it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from db.errors import GameNotFound, SeatConflict, WrongStatus
from db.models import (
    ActionRecord,
    GameStatus,
    GameSummary,
    Lease,
    NotificationRecord,
    PersonData,
    PersonSeat,
    Seat,
    SeatResult,
    TurnTimer,
    UserSettings,
)
from db.sql import SqlGameStore
from db.sqlbase import (
    _GAME_COLUMNS,
    Transaction,
    _at,
    _check_seat_values,
    _finish_columns,
    _timer_columns,
    dumps,
    from_ms,
    lease_end,
    seat_of_row,
    to_ms,
)
from db.store import KEEP, Keep

_ENDED = (GameStatus.FINISHED, GameStatus.CANCELLED)
_ALL_STATUSES = frozenset(GameStatus)


class PeopleSql(SqlGameStore):
    """See `db.store.GameStore` for what each method does."""

    # -- what the store keeps about a person ----------------------------------------------------------------------
    async def person_data(self, user_id: int) -> PersonData:
        player = str(user_id)
        async with self._read() as tx:
            settings = await self._settings_row(tx, user_id)
            seat_rows = await tx.fetchall(
                "person_seats",
                "SELECT g.id AS game_id, g.guild_id AS guild_id, g.channel_id AS channel_id, g.kind AS kind, "
                "g.status AS status, g.created_at AS created_at, g.ended_at AS ended_at, s.seat_order AS seat_order, "
                "s.player_id AS player_id, s.user_id AS user_id, s.display_name AS display_name, s.colour AS colour, "
                "s.cpu_level AS cpu_level, r.score AS score, r.won AS won, r.team AS team, r.breakdown AS breakdown "
                "FROM seats AS s JOIN games AS g ON g.id = s.game_id "
                "LEFT JOIN results AS r ON r.game_id = s.game_id AND r.player_id = s.player_id "
                "WHERE s.user_id = ? ORDER BY g.created_at, g.id",
                (user_id,),
            )
            action_rows = await tx.fetchall(
                "person_actions",
                "SELECT game_id, seq, player_id, user_id, action, created_at, undone FROM actions "
                "WHERE user_id = ? OR player_id = ? ORDER BY game_id, seq",
                (user_id, player),
            )
            hosted = await tx.fetchall(
                "person_hosted", "SELECT id FROM games WHERE host_user_id = ? ORDER BY id", (user_id,)
            )
            note_rows = await tx.fetchall(
                "person_notifications",
                "SELECT game_id, turn_key, kind, claimed_at, sent_at, message_channel_id, message_id "
                "FROM notifications WHERE user_id = ? ORDER BY game_id, turn_key, kind",
                (user_id,),
            )
        return PersonData(
            user_id=user_id,
            settings=settings,
            seats=tuple(_person_seat(row) for row in seat_rows),
            actions=tuple(_action(row) for row in action_rows),
            hosted=tuple(int(row["id"]) for row in hosted),
            notifications=tuple(_notification(row) for row in note_rows),
        )

    async def _settings_row(self, tx: Transaction, user_id: int) -> UserSettings | None:
        rows = await tx.fetchall(
            "read_user_settings",
            "SELECT notify, timezone, quiet_start, quiet_end, language FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return UserSettings(user_id, r["notify"], r["timezone"], r["quiet_start"], r["quiet_end"], r["language"])

    async def games_of_person(self, user_id: int) -> list[GameSummary]:
        sql = (
            f"SELECT {_GAME_COLUMNS} FROM games WHERE host_user_id = ? "
            "OR id IN (SELECT game_id FROM seats WHERE user_id = ?) ORDER BY created_at, id"
        )
        async with self._read() as tx:
            return await self._load_summaries(tx, sql, (user_id, user_id))

    # -- forgetting a person --------------------------------------------------------------------------------------
    async def forget_player(
        self,
        game_id: int,
        expected_version: int,
        *,
        user_id: int,
        replacement: Seat | None,
        host_user_id: int | Keep = KEEP,
        config: Mapping[str, Any] | Keep = KEEP,
        state: Mapping[str, Any] | Keep = KEEP,
        timer: TurnTimer | None = None,
        cancel: bool = False,
    ) -> int:
        if replacement is not None:
            _check_seat_values(replacement)
        changes: dict[str, Any] = {}
        if host_user_id is not KEEP:
            changes["host_user_id"] = host_user_id
        if config is not KEEP:
            changes["config"] = dumps(config)
        if state is not KEEP:
            changes["state"] = dumps(state)
        if timer is not None:
            changes |= _timer_columns(timer)
        now = self._now_ms()
        async with self._write() as tx:
            rows = await tx.fetchall(
                "check_game", "SELECT status, version, table_version FROM games WHERE id = ?", (game_id,)
            )
            if not rows:
                raise GameNotFound(game_id)
            status, table_version = rows[0]["status"], rows[0]["table_version"]
            if cancel:
                if status != GameStatus.LOBBY:
                    raise WrongStatus(game_id, status, [GameStatus.LOBBY.value])
                changes |= _finish_columns(now) | {"status": GameStatus.CANCELLED.value, "end_reason": "cancelled"}
            elif status in _ENDED and table_version is not None and table_version == expected_version:
                # the table on screen still shows the game as it ended: no repair pass posts it again
                changes["table_version"] = expected_version + 1
            version = await self._bump(tx, game_id, expected_version, _ALL_STATUSES, changes, now=now)
            await self._replace_seat(tx, game_id, user_id, replacement)
            return version

    async def _replace_seat(self, tx: Transaction, game_id: int, user_id: int, replacement: Seat | None) -> None:
        """The person's seat becomes `replacement` (None: it goes, the seats after it move up), and their results and
        moves follow it."""
        seats = (await self._read_seats(tx, [game_id])).get(game_id, ())
        mine = next((s for s in seats if s.user_id == user_id), None)
        if mine is None:
            return
        results = await tx.fetchall(
            "read_results",
            "SELECT player_id, score, won, team, breakdown FROM results WHERE game_id = ?",
            (game_id,),
        )
        if replacement is None and (results or await self._has_actions(tx, game_id, mine.player_id)):
            raise SeatConflict(game_id, f"player {mine.player_id} has played here: their seat cannot just go")
        kept = [replacement if s is mine else s for s in seats]
        await tx.execute("delete_results", "DELETE FROM results WHERE game_id = ?", (game_id,))
        await self._write_seats(tx, game_id, [s for s in kept if s is not None])
        if replacement is None:
            return
        new = replacement.player_id
        if results:
            renamed = [
                (game_id, new if r["player_id"] == mine.player_id else r["player_id"], *_result_values(r))
                for r in results
            ]
            await tx.executemany(
                "insert_results",
                "INSERT INTO results (game_id, player_id, score, won, team, breakdown) VALUES (?, ?, ?, ?, ?, ?)",
                renamed,
            )
        await tx.execute(
            "rename_actions",
            "UPDATE actions SET player_id = ?, user_id = CASE WHEN user_id IS NULL THEN NULL ELSE CAST(? AS BIGINT) END "
            "WHERE game_id = ? AND player_id = ?",
            (new, replacement.user_id, game_id, mine.player_id),
        )
        await tx.execute(
            "rename_actor",
            "UPDATE actions SET user_id = ? WHERE game_id = ? AND user_id = ?",
            (replacement.user_id, game_id, user_id),
        )

    async def _has_actions(self, tx: Transaction, game_id: int, player_id: str) -> bool:
        rows = await tx.fetchall(
            "read_actions", "SELECT 1 FROM actions WHERE game_id = ? AND player_id = ? LIMIT 1", (game_id, player_id)
        )
        return bool(rows)

    async def erase_person(self, user_id: int) -> int:
        async with self._write() as tx:
            settings = await tx.execute("erase_settings", "DELETE FROM user_settings WHERE user_id = ?", (user_id,))
            notes = await tx.execute("erase_notifications", "DELETE FROM notifications WHERE user_id = ?", (user_id,))
            return settings + notes

    # -- leases: which processes use the database -----------------------------------------------------------------
    async def take_lease(self, name: str, owner: str, lease_seconds: float) -> bool:
        if not name or not owner:
            raise ValueError("a lease has a name and an owner (non-empty strings)")
        now = self._now_ms()
        until = lease_end(now, lease_seconds)
        async with self._write() as tx:
            rows = await tx.fetchall(
                "take_lease",
                "INSERT INTO leases (name, owner, lease_until, taken_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until, "
                "taken_at = CASE WHEN leases.owner = excluded.owner AND leases.lease_until > ? "
                "THEN leases.taken_at ELSE excluded.taken_at END "
                "WHERE leases.owner = excluded.owner OR leases.lease_until <= ? RETURNING name",
                (name, owner, until, now, now, now),
            )
            return bool(rows)

    async def drop_lease(self, name: str, owner: str) -> bool:
        async with self._write() as tx:
            return bool(
                await tx.execute("drop_lease", "DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))
            )

    async def live_leases(self, prefix: str = "") -> list[Lease]:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "live_leases",
                "SELECT name, owner, lease_until, taken_at FROM leases WHERE lease_until > ? "
                "AND substr(name, 1, ?) = ? ORDER BY name",
                (self._now_ms(), len(prefix), prefix),
            )
        return [Lease(r["name"], r["owner"], _at(r["lease_until"]), _at(r["taken_at"])) for r in rows]

    # -- servers the bot left -------------------------------------------------------------------------------------
    async def guild_left(self, guild_id: int, at: datetime) -> None:
        async with self._write() as tx:
            await tx.execute(
                "guild_left",
                "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, to_ms(at)),
            )

    async def guild_returned(self, guild_id: int) -> bool:
        async with self._write() as tx:
            return bool(
                await tx.execute("guild_returned", "DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))
            )

    async def departed_guilds(self, left_before: datetime) -> list[int]:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "departed_guilds",
                "SELECT guild_id FROM guild_departures WHERE left_at < ? ORDER BY left_at, guild_id",
                (to_ms(left_before),),
            )
        return [int(r["guild_id"]) for r in rows]

    async def delete_game(self, game_id: int) -> bool:
        async with self._write() as tx:
            # results hang on the seats, the rest on the game: the cascades take them
            return bool(await tx.execute("delete_game", "DELETE FROM games WHERE id = ?", (game_id,)))

    async def forget_guild(self, guild_id: int) -> int:
        async with self._write() as tx:
            games = await tx.fetchall("count_games", "SELECT COUNT(*) FROM games WHERE guild_id = ?", (guild_id,))
            if int(games[0][0]):
                raise ValueError(f"guild {guild_id} still has {int(games[0][0])} games: delete them first")
            settings = await tx.execute("forget_guild", "DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
            left = await tx.execute("forget_departure", "DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))
            return settings + left


def _result_values(row: Any) -> tuple[Any, ...]:
    return row["score"], row["won"], row["team"], row["breakdown"]


def _person_seat(row: Any) -> PersonSeat:
    seat = seat_of_row(row)
    result = None
    if row["score"] is not None:
        breakdown = None if row["breakdown"] is None else json.loads(row["breakdown"])
        result = SeatResult(row["player_id"], int(row["score"]), bool(row["won"]), row["team"], breakdown)
    return PersonSeat(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        status=GameStatus(row["status"]),
        created_at=_at(row["created_at"]),
        ended_at=from_ms(row["ended_at"]),
        seat=seat,
        result=result,
    )


def _action(row: Any) -> ActionRecord:
    return ActionRecord(
        game_id=row["game_id"],
        seq=row["seq"],
        player_id=row["player_id"],
        user_id=row["user_id"],
        action=json.loads(row["action"]),
        created_at=_at(row["created_at"]),
        undone=bool(row["undone"]),
    )


def _notification(row: Any) -> NotificationRecord:
    message = None
    if row["message_id"] is not None:
        message = (int(row["message_channel_id"]), int(row["message_id"]))
    return NotificationRecord(
        game_id=row["game_id"],
        turn_key=row["turn_key"],
        kind=row["kind"],
        claimed_at=_at(row["claimed_at"]),
        sent_at=from_ms(row["sent_at"]),
        message=message,
    )


__all__ = ["PeopleSql"]
