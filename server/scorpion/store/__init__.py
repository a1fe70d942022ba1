"""Persistence behind one small interface: a SQLite file by default.

>>> from scorpion.store import SQLiteStore
>>> SQLiteStore(":memory:").path
':memory:'
"""

from .base import (
    JSON,
    DuplicateError,
    GameRecord,
    LeaderboardEntry,
    Player,
    PresetStats,
    Room,
    Store,
    StoreError,
)
from .sqlite import SQLiteStore
from .stats import preset_stats, ranking_key

__all__ = [
    "JSON",
    "DuplicateError",
    "GameRecord",
    "LeaderboardEntry",
    "Player",
    "PresetStats",
    "Room",
    "SQLiteStore",
    "Store",
    "StoreError",
    "preset_stats",
    "ranking_key",
]
