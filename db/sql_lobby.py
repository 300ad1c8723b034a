"""The store's SQL that changes a game: its lobby (create, options, seats, host), its start, its moves, undo, end
and cancel, and which message shows which version and the turn's timer; each one transaction with the version check."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from db.errors import (
    ActiveGameExists,
    GameNotFound,
    SeatConflict,
)
from db.models import (
    ACTIVE_STATUSES,
    CANCEL_REASONS,
    GameRecord,
    GameStatus,
    Seat,
    SeatResult,
    TurnTimer,
)
from db.store import KEEP, Keep

from .sqlbase import (
    _ACTIVE_SQL,
    _check_kind,
    _check_seat_values,
    _finish_columns,
    _result_rows,
    _timer_columns,
    dumps,
)


class LobbyAndPlay:
    """The writes that change one game (`SqlGameStore` is made of this and its other parts)."""

    # The lobby

    async def create_game(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        host_user_id: int,
        kind: str,
        config: Mapping[str, Any],
        seats: Sequence[Seat] = (),
        seed: int | None = None,
        reminder_hours: float | None = None,
        deadline_hours: float | None = None,
    ) -> GameRecord:
        _check_kind(kind)
        config_json = dumps(config)
        seed = secrets.randbits(62) if seed is None else seed
        now = self._now_ms()
        async with self._write() as tx:
            try:
                async with tx.savepoint():
                    rows = await tx.fetchall(
                        "insert_game",
                        "INSERT INTO games (guild_id, channel_id, host_user_id, kind, status, version, seed, config, "
                        "reminder_hours, deadline_hours, created_at, updated_at) "
                        "VALUES (?, ?, ?, ?, 'lobby', 1, ?, ?, ?, ?, ?, ?) RETURNING id",
                        (
                            guild_id,
                            channel_id,
                            host_user_id,
                            kind,
                            seed,
                            config_json,
                            reminder_hours,
                            deadline_hours,
                            now,
                            now,
                        ),
                    )
            except Exception as error:
                if not self._is_constraint_error(error):
                    raise
                existing = await tx.fetchall(
                    "find_active",
                    f"SELECT id, status FROM games WHERE channel_id = ? AND status IN {_ACTIVE_SQL}",
                    (channel_id,),
                )
                if existing:
                    raise ActiveGameExists(channel_id, existing[0]["id"], existing[0]["status"]) from None
                raise
            game_id = rows[0]["id"]
            await self._write_seats(tx, game_id, seats)
            return await self._load_record(tx, game_id)

    async def set_lobby_options(
        self,
        game_id: int,
        expected_version: int,
        *,
        kind: str | Keep = KEEP,
        config: Mapping[str, Any] | Keep = KEEP,
        reminder_hours: float | Keep | None = KEEP,
        deadline_hours: float | Keep | None = KEEP,
    ) -> GameRecord:
        changes: dict[str, Any] = {}
        if kind is not KEEP:
            _check_kind(kind)
            changes["kind"] = kind
        if config is not KEEP:
            changes["config"] = dumps(config)
        if reminder_hours is not KEEP:
            changes["reminder_hours"] = reminder_hours
        if deadline_hours is not KEEP:
            changes["deadline_hours"] = deadline_hours
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, changes)
            return await self._load_record(tx, game_id)

    async def join_game(self, game_id: int, expected_version: int, seat: Seat) -> GameRecord:
        _check_seat_values(seat)
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            seats = await self._read_seats(tx, [game_id])
            current = seats.get(game_id, ())
            if any(s.player_id == seat.player_id for s in current):
                raise SeatConflict(game_id, f"{seat.display_name} ({seat.player_id}) is already seated")
            await self._write_seats(tx, game_id, (*current, seat))
            return await self._load_record(tx, game_id)

    async def leave_game(self, game_id: int, expected_version: int, player_id: str) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            current = (await self._read_seats(tx, [game_id])).get(game_id, ())
            remaining = [s for s in current if s.player_id != player_id]
            if len(remaining) == len(current):
                raise SeatConflict(game_id, f"player {player_id} is not seated")
            await self._write_seats(tx, game_id, remaining)
            return await self._load_record(tx, game_id)

    async def set_seats(self, game_id: int, expected_version: int, seats: Sequence[Seat]) -> GameRecord:
        for seat in seats:
            _check_seat_values(seat)
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY})
            await self._write_seats(tx, game_id, seats)
            return await self._load_record(tx, game_id)

    async def set_host(self, game_id: int, expected_version: int, host_user_id: int) -> GameRecord:
        async with self._write() as tx:
            await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, {"host_user_id": host_user_id})
            return await self._load_record(tx, game_id)

    # Play

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        config: Mapping[str, Any],
        state: Mapping[str, Any],
        timer: TurnTimer | None = None,
    ) -> int:
        now = self._now_ms()
        changes: dict[str, Any] = {
            "status": GameStatus.PLAYING.value,
            "config": dumps(config),
            "state": dumps(state),
            "started_at": now,
        }
        if timer is not None:
            changes |= _timer_columns(timer)
        async with self._write() as tx:
            return await self._bump(tx, game_id, expected_version, {GameStatus.LOBBY}, changes)

    async def save_move(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: Mapping[str, Any],
        action: Mapping[str, Any],
        player_id: str | None,
        user_id: int | None,
        timer: TurnTimer | None = None,
        results: Sequence[SeatResult] | None = None,
    ) -> int:
        now = self._now_ms()
        changes: dict[str, Any] = {"state": dumps(state)}
        if results is not None:
            changes |= _finish_columns(now)
            result_rows = _result_rows(game_id, results)
        elif timer is not None:
            changes |= _timer_columns(timer)
        action_json = dumps(action)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            # the game's row is locked by the update above, so no other writer takes the same number
            rows = await tx.fetchall(
                "next_seq", "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            )
            await tx.execute(
                "insert_action",
                "INSERT INTO actions (game_id, seq, player_id, user_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, int(rows[0][0]), player_id, user_id, action_json, now),
            )
            if results is not None:
                await self._insert_results(tx, game_id, result_rows)
            return version

    async def undo_last_action(
        self,
        game_id: int,
        expected_version: int,
        *,
        seq: int,
        state: Mapping[str, Any],
        timer: TurnTimer | None = None,
    ) -> int:
        changes: dict[str, Any] = {"state": dumps(state)}
        if timer is not None:
            changes |= _timer_columns(timer)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes)
            rows = await tx.fetchall(
                "last_action", "SELECT MAX(seq) FROM actions WHERE game_id = ? AND undone = 0", (game_id,)
            )
            last = rows[0][0]
            if last is None or last != seq:
                found = "it has none" if last is None else f"the last is action {last}"
                raise ValueError(f"game #{game_id}: action {seq} is not the last action not undone ({found})")
            await tx.execute(
                "undo_action", "UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, seq)
            )
            return version

    async def finish_game(
        self, game_id: int, expected_version: int, *, state: Mapping[str, Any], results: Sequence[SeatResult]
    ) -> int:
        now = self._now_ms()
        changes = {"state": dumps(state)} | _finish_columns(now)
        result_rows = _result_rows(game_id, results)
        async with self._write() as tx:
            version = await self._bump(tx, game_id, expected_version, {GameStatus.PLAYING}, changes, now=now)
            await self._insert_results(tx, game_id, result_rows)
            return version

    async def cancel_game(self, game_id: int, expected_version: int | None = None, *, reason: str = "cancelled") -> int:
        if reason not in CANCEL_REASONS:
            raise ValueError(f"reason must be one of {', '.join(CANCEL_REASONS)}, not {reason!r}")
        now = self._now_ms()
        changes = _finish_columns(now) | {"status": GameStatus.CANCELLED.value, "end_reason": reason}
        async with self._write() as tx:
            return await self._bump(tx, game_id, expected_version, ACTIVE_STATUSES, changes, now=now)

    # Bookkeeping

    async def set_table_message(
        self, game_id: int, channel_id: int | None, message_id: int | None, *, shown_version: int | None = None
    ) -> None:
        async with self._write() as tx:
            changed = await tx.execute(
                "update_game",
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, table_version = ? WHERE id = ?",
                (channel_id, message_id, shown_version, game_id),
            )
            if not changed:
                raise GameNotFound(game_id)

    async def set_turn_timer(self, game_id: int, timer: TurnTimer, *, expected_version: int | None = None) -> None:
        columns = _timer_columns(timer)
        sql = "UPDATE games SET next_reminder_at = ?, deadline_at = ? WHERE id = ? AND status = 'playing'"
        params: list[Any] = [columns["next_reminder_at"], columns["deadline_at"], game_id]
        if expected_version is not None:
            sql += " AND version = ?"
            params.append(expected_version)
        async with self._write() as tx:
            if not await tx.execute("update_game", sql, params):
                await self._explain_refusal(tx, game_id, expected_version, {GameStatus.PLAYING})
