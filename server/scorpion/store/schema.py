"""The SQLite schema. Bump VERSION and add a step to MIGRATIONS to change it: written once
for both stores in schema_steps.py (as steps 9 on are), here only what SQLite alone needs."""

from __future__ import annotations

from typing import Final

from .schema_steps import SQLITE, STEPS

# Deal numbers go up to 2**64-1, past SQLite's signed 64-bit INTEGER: they are stored as TEXT.
SCHEMA_V1: Final = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    token_hash BLOB NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    creator TEXT,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    closed REAL
);
CREATE INDEX IF NOT EXISTS rooms_open ON rooms (closed) WHERE closed IS NULL;
-- One log for every room, in the order written: a restart replays the open rooms' entries
-- in that order.
CREATE TABLE IF NOT EXISTS room_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS room_log_room ON room_log (room_id, id);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    room_id TEXT,
    daily TEXT,
    ranked INTEGER NOT NULL DEFAULT 0,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    elapsed REAL,
    score INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    turned INTEGER NOT NULL DEFAULT 0,
    actions TEXT NOT NULL DEFAULT '[]',
    -- 1 once the deal number may be shown: a live race's deal gives away every hidden card
    revealed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_player ON games (player_id, started);
CREATE INDEX IF NOT EXISTS games_daily ON games (daily, ranked) WHERE daily IS NOT NULL;
CREATE TABLE IF NOT EXISTS daily_attempts (
    day TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (day, player_id)
) WITHOUT ROWID;
"""

# Steps 2 on: written once for both stores (schema_steps.py).
VERSION: Final = 11  # the last step (len(STEPS) + 1)
MIGRATIONS: Final[dict[int, str]] = {
    1: SCHEMA_V1,
    **{number: SQLITE.render(step) for number, step in enumerate(STEPS, start=2)},
}

PRAGMAS: Final = (
    # WAL with synchronous=NORMAL: a committed transaction survives the process being
    # killed (kill -9); only an OS crash or power loss can lose the last commits.
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
