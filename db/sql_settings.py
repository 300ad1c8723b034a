"""The store's SQL of people's and servers' settings, and of the statistics read from the finished games."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from db.models import (
    FinishedGame,
    FinishedSeat,
    GuildSettings,
    UserSettings,
    UserStats,
)

from .sqlbase import (
    _at,
    _load_json_object,
)


class SettingsAndStats:
    """Settings and statistics (`SqlGameStore` is made of this and its other parts)."""

    # Settings

    async def get_user_settings(self, user_id: int) -> UserSettings:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "read_user_settings",
                "SELECT notify, timezone, quiet_start, quiet_end, language FROM user_settings WHERE user_id = ?",
                (user_id,),
            )
        if not rows:
            return UserSettings(user_id)
        row = rows[0]
        return UserSettings(
            user_id,
            notify=row["notify"],
            timezone=row["timezone"],
            quiet_start=row["quiet_start"],
            quiet_end=row["quiet_end"],
            language=row["language"],
        )

    async def set_user_settings(self, settings: UserSettings) -> None:
        if not isinstance(settings, UserSettings):
            raise TypeError(f"set_user_settings takes a UserSettings, not {type(settings).__name__}")
        s = settings
        async with self._write() as tx:
            await tx.execute(
                "write_user_settings",
                "INSERT INTO user_settings (user_id, notify, timezone, quiet_start, quiet_end, language) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, "
                "timezone = excluded.timezone, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
                "language = excluded.language",
                (s.user_id, s.notify, s.timezone, s.quiet_start, s.quiet_end, s.language),
            )

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as tx:
            rows = await tx.fetchall(
                "read_guild_settings",
                "SELECT max_lobbies_per_member, max_games_per_member, lobby_expiry_hours, language "
                "FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            )
        if not rows:
            return GuildSettings(guild_id)
        row = rows[0]
        return GuildSettings(
            guild_id,
            max_lobbies_per_member=row["max_lobbies_per_member"],
            max_games_per_member=row["max_games_per_member"],
            lobby_expiry_hours=float(row["lobby_expiry_hours"]),
            language=row["language"],
        )

    async def set_guild_settings(self, settings: GuildSettings) -> None:
        if not isinstance(settings, GuildSettings):
            raise TypeError(f"set_guild_settings takes a GuildSettings, not {type(settings).__name__}")
        s = settings
        async with self._write() as tx:
            await tx.execute(
                "write_guild_settings",
                "INSERT INTO guild_settings (guild_id, max_lobbies_per_member, max_games_per_member, "
                "lobby_expiry_hours, language) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "max_lobbies_per_member = excluded.max_lobbies_per_member, "
                "max_games_per_member = excluded.max_games_per_member, "
                "lobby_expiry_hours = excluded.lobby_expiry_hours, language = excluded.language",
                (s.guild_id, s.max_lobbies_per_member, s.max_games_per_member, float(s.lobby_expiry_hours), s.language),
            )

    # Statistics

    async def user_stats(self, user_id: int, *, guild_id: int | None = None) -> list[UserStats]:
        where, params = "s.user_id = ?", [user_id]
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(guild_id)
        return await self._stats(where, params, guild_id, order="g.kind")

    async def guild_stats(self, guild_id: int, *, kind: str | None = None) -> list[UserStats]:
        where, params = "g.guild_id = ?", [guild_id]
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(kind)
        return await self._stats(where, params, guild_id, order="wins DESC, average_score DESC, s.user_id")

    async def finished_results(self, guild_id: int, kind: str | None = None) -> list[FinishedGame]:
        where, params = "g.status = 'finished' AND g.guild_id = ?", [guild_id]
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(kind)
        sql = (
            "SELECT g.id AS game_id, g.kind AS kind, g.ended_at AS ended_at, g.config AS config, "
            "s.player_id AS player_id, s.user_id AS user_id, s.cpu_level AS cpu_level, "
            "s.display_name AS display_name, r.team AS team, r.score AS score, r.won AS won "
            "FROM games AS g JOIN seats AS s ON s.game_id = g.id "
            "LEFT JOIN results AS r ON r.game_id = s.game_id AND r.player_id = s.player_id "
            f"WHERE {where} ORDER BY g.ended_at, g.id, s.seat_order"
        )
        async with self._read() as tx:
            rows = await tx.fetchall("finished_results", sql, params)
        games: dict[int, FinishedGame] = {}
        seats: dict[int, list[FinishedSeat]] = {}
        for row in rows:
            game_id = row["game_id"]
            if game_id not in games:
                config = _load_json_object(game_id, "config", row["config"])
                games[game_id] = FinishedGame(game_id, row["kind"], _at(row["ended_at"]), config, ())
            seats.setdefault(game_id, []).append(
                FinishedSeat(
                    player_id=row["player_id"],
                    user_id=row["user_id"],
                    cpu_level=row["cpu_level"],
                    display_name=row["display_name"],
                    team=row["team"],
                    score=row["score"],
                    won=bool(row["won"]),
                )
            )
        return [dataclasses.replace(game, seats=tuple(seats[game_id])) for game_id, game in games.items()]

    async def _stats(self, where: str, params: Sequence[Any], guild_id: int | None, *, order: str) -> list[UserStats]:
        sql = (
            "SELECT s.user_id AS user_id, g.kind AS kind, COUNT(*) AS games_played, SUM(r.won) AS wins, "
            "AVG(r.score) AS average_score, MAX(r.score) AS best_score "
            "FROM results AS r "
            "JOIN seats AS s ON s.game_id = r.game_id AND s.player_id = r.player_id "
            "JOIN games AS g ON g.id = r.game_id "
            # a former player (below zero: someone who asked to be forgotten) has no statistics
            f"WHERE g.status = 'finished' AND s.user_id IS NOT NULL AND s.user_id > 0 AND {where} "
            f"GROUP BY s.user_id, g.kind ORDER BY {order}"
        )
        async with self._read() as tx:
            rows = await tx.fetchall("stats", sql, params)
        return [
            UserStats(
                user_id=row["user_id"],
                kind=row["kind"],
                guild_id=guild_id,
                games_played=int(row["games_played"]),
                wins=int(row["wins"]),
                average_score=float(row["average_score"]),
                best_score=row["best_score"],
            )
            for row in rows
        ]
