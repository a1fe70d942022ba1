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
    OpenRoom,
    Player,
    Reveal,
    Room,
    SaveDaily,
    SaveGame,
    SaveReport,
    Store,
    StoreError,
    Write,
)
from .sqlite import SQLiteStore

__all__ = [
    "JSON",
    "AppendLog",
    "ClaimDaily",
    "CloseRoom",
    "DuplicateError",
    "GameRecord",
    "OpenRoom",
    "Player",
    "Reveal",
    "Room",
    "SQLiteStore",
    "SaveDaily",
    "SaveGame",
    "SaveReport",
    "Store",
    "StoreError",
    "Write",
]
