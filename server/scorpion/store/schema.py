"""The SQLite schema. Bump VERSION and add a step to MIGRATIONS to change it: written once
for both stores in schema_steps.py (as steps 9 on are), here only what SQLite alone needs."""

from __future__ import annotations

from typing import Final

from .schema_steps import SQLITE, STEP_9, STEP_10, STEP_11

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

# Each day's daily deal, once found: a restart must not search again (it takes a while)
# nor find another deal (if the solver changed). Secret: it gives every hidden card.
SCHEMA_V2: Final = """
CREATE TABLE IF NOT EXISTS dailies (
    day TEXT PRIMARY KEY,
    deal TEXT NOT NULL,
    verified INTEGER NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""

# One ranked daily game per player and day, enforced by the database (a second process
# on the same database, or a bug, cannot record two).
SCHEMA_V3: Final = """
CREATE UNIQUE INDEX IF NOT EXISTS games_one_ranked_daily ON games (daily, player_id)
    WHERE ranked = 1 AND daily IS NOT NULL;
"""

# A player on several devices, recovery codes and name reports (store/sqlite_devices.py).
# Codes and tokens are kept only as SHA-256 hashes. Reports have no foreign keys: the
# operator keeps them after the players are gone.
SCHEMA_V4: Final = """
CREATE TABLE IF NOT EXISTS device_tokens (
    token_hash BLOB PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS device_tokens_player ON device_tokens (player_id);
CREATE TABLE IF NOT EXISTS device_codes (
    code_hash BLOB PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS recovery_codes (
    player_id TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    code_hash BLOB NOT NULL UNIQUE,
    created REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS name_reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    name TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL
);
"""

# The devices a player was made, claimed or recovered on: players sharing one are linked
# (one ranked daily a day per linked group, race/daily.py). Only an HMAC of the browser's
# device id is kept (web/devices.py), never the id itself, nor an address.
SCHEMA_V5: Final = """
CREATE TABLE IF NOT EXISTS player_devices (
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    device_hash BLOB NOT NULL,
    PRIMARY KEY (player_id, device_hash)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS player_devices_device ON player_devices (device_hash, player_id);
"""

# The help a game used (hints asked, moves played by Auto): clean and assisted results are
# counted apart in the statistics.
SCHEMA_V6: Final = """
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN autos INTEGER NOT NULL DEFAULT 0;
"""

# A round's games, for its replay (the room's log is gone once the room closes).
SCHEMA_V7: Final = """
CREATE INDEX IF NOT EXISTS games_room ON games (room_id) WHERE room_id IS NOT NULL;
"""

# Each finished game's analysis by the solver (web/analyses.py), computed once: the
# verdict after every action and the turning point, as JSON. It goes with its game.
SCHEMA_V8: Final = """
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    analysis TEXT NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
"""

# Steps 9 on: written once for both stores (schema_steps.py).
SCHEMA_V9: Final = SQLITE.render(STEP_9)
SCHEMA_V10: Final = SQLITE.render(STEP_10)
SCHEMA_V11: Final = SQLITE.render(STEP_11)

VERSION: Final = 11
MIGRATIONS: Final[dict[int, str]] = {
    1: SCHEMA_V1,
    2: SCHEMA_V2,
    3: SCHEMA_V3,
    4: SCHEMA_V4,
    5: SCHEMA_V5,
    6: SCHEMA_V6,
    7: SCHEMA_V7,
    8: SCHEMA_V8,
    9: SCHEMA_V9,
    10: SCHEMA_V10,
    11: SCHEMA_V11,
}

PRAGMAS: Final = (
    # WAL with synchronous=NORMAL: a committed transaction survives the process being
    # killed (kill -9); only an OS crash or power loss can lose the last commits.
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
