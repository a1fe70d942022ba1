"""Persistence behind one small interface: a SQLite file by default.

>>> from scorpion.store import SQLiteStore
>>> SQLiteStore(":memory:").path
':memory:'
"""

from .base import (
    JSON,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    DuplicateError,
    GameRecord,
    LeaderboardEntry,
    OpenRoom,
    Player,
    PresetStats,
    Room,
    SaveGame,
    Store,
    StoreError,
    Write,
)
from .sqlite import SQLiteStore
from .stats import preset_stats, ranking_key

__all__ = [
    "JSON",
    "AppendLog",
    "ClaimDaily",
    "CloseRoom",
    "DuplicateError",
    "GameRecord",
    "LeaderboardEntry",
    "OpenRoom",
    "Player",
    "PresetStats",
    "Room",
    "SQLiteStore",
    "SaveGame",
    "Store",
    "StoreError",
    "Write",
    "preset_stats",
    "ranking_key",
]
