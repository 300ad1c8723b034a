"""Persistence: games, their seats, their action log and their results, kept in SQLite (aiosqlite) or
PostgreSQL (asyncpg).

The bot talks to a `GameStore`; `open_store` gives the one the settings ask for. Nothing outside this package writes
SQL.
"""

from __future__ import annotations

from db.engine_state import StateDecoder, decode_engine_state, results_from_game
from db.errors import (
    ActiveGameExists,
    CorruptGame,
    GameNotFound,
    SchemaTooNew,
    SeatConflict,
    StaleVersion,
    StoreBusy,
    StoreError,
    StoreUnavailable,
    WrongStatus,
)
from db.factory import open_store
from db.models import (
    ACTIVE_STATUSES,
    CANCEL_REASONS,
    CPU_LEVELS,
    END_REASONS,
    ActionRecord,
    FinishedGame,
    FinishedSeat,
    GameRecord,
    GameStatus,
    GameSummary,
    GuildSettings,
    Seat,
    SeatResult,
    TurnTimer,
    UserSettings,
    UserStats,
)
from db.sqlite import SqliteGameStore
from db.store import KEEP, GameStore

__all__ = [
    "ACTIVE_STATUSES",
    "CANCEL_REASONS",
    "CPU_LEVELS",
    "END_REASONS",
    "KEEP",
    "ActionRecord",
    "ActiveGameExists",
    "CorruptGame",
    "FinishedGame",
    "FinishedSeat",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "GuildSettings",
    "SchemaTooNew",
    "Seat",
    "SeatConflict",
    "SeatResult",
    "SqliteGameStore",
    "StaleVersion",
    "StateDecoder",
    "StoreBusy",
    "StoreError",
    "StoreUnavailable",
    "TurnTimer",
    "UserSettings",
    "UserStats",
    "WrongStatus",
    "decode_engine_state",
    "open_store",
    "results_from_game",
]
