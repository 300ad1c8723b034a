"""Persistence: games, their seats, their action log and their results, kept in SQLite through aiosqlite.

The bot talks to a `GameStore`; `open_store` gives the SQLite one. Nothing outside this package writes SQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    WrongStatus,
)
from db.models import (
    ACTIVE_STATUSES,
    ActionRecord,
    GameRecord,
    GameStatus,
    GameSummary,
    Seat,
    SeatResult,
    TurnTimer,
    UserStats,
)
from db.sqlite import SqliteGameStore
from db.store import KEEP, GameStore

__all__ = [
    "ACTIVE_STATUSES",
    "KEEP",
    "ActionRecord",
    "ActiveGameExists",
    "CorruptGame",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "GameSummary",
    "SchemaTooNew",
    "Seat",
    "SeatConflict",
    "SeatResult",
    "SqliteGameStore",
    "StaleVersion",
    "StateDecoder",
    "StoreBusy",
    "StoreError",
    "TurnTimer",
    "UserStats",
    "WrongStatus",
    "decode_engine_state",
    "open_store",
    "results_from_game",
]


async def open_store(path: str | Path, **options: Any) -> GameStore:
    """Open the game store at `path` (a SQLite file), creating and migrating it as needed.
    `options` go to `SqliteGameStore.open`."""
    return await SqliteGameStore.open(path, **options)
