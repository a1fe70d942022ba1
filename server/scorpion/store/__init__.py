"""Persistence behind one small interface: a SQLite file by default, or PostgreSQL.

>>> open_store("data/scorpion.db").path
'data/scorpion.db'
>>> type(open_store("postgresql://scorpion@localhost/scorpion")).__name__
'PostgresStore'
>>> open_store("mysql://localhost/x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scorpion.store.base.StoreError: unsupported database URL 'mysql://localhost/x': use ...
"""

from __future__ import annotations

from pathlib import Path

from .base import (
    JSON,
    LINK_ROUNDS,
    MAX_LINKED,
    Account,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    DeviceToken,
    DuplicateError,
    Fence,
    Fenced,
    ListRoom,
    OpenRoom,
    Reveal,
    SaveAnalysis,
    SaveDaily,
    SavedGame,
    SaveGame,
    SaveReport,
    Store,
    StoreError,
    StoreUnavailable,
    Write,
)
from .sqlite import SQLiteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(location: str | Path) -> bool:
    """A URL (``scheme://...``) rather than a SQLite file path."""
    return "://" in str(location)


def open_store(location: str | Path) -> Store:
    """The store for a database setting: a postgresql:// URL or a SQLite file path.

    Nothing is connected yet: the caller awaits ``open()``.
    """
    text = str(location)
    if text.startswith(POSTGRES_SCHEMES):
        from .postgres import PostgresStore  # asyncpg is imported only when it is used

        return PostgresStore(text)
    if is_database_url(text):
        raise StoreError(
            f"unsupported database URL {text!r}: use postgresql://... or a SQLite file path"
        )
    return SQLiteStore(location)


__all__ = [
    "JSON",
    "LINK_ROUNDS",
    "MAX_LINKED",
    "Account",
    "AppendLog",
    "ClaimDaily",
    "CloseRoom",
    "DeviceToken",
    "DuplicateError",
    "Fence",
    "Fenced",
    "ListRoom",
    "OpenRoom",
    "Reveal",
    "SQLiteStore",
    "SaveAnalysis",
    "SaveDaily",
    "SaveGame",
    "SaveReport",
    "SavedGame",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Write",
    "is_database_url",
    "open_store",
]
