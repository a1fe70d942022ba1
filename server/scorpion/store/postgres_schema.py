"""The PostgreSQL schema: the SQLite schema's tables and versions in PostgreSQL's types.

The version is kept in ``meta`` (key 'schema'); bump VERSION and add a step to
MIGRATIONS to change it, with the same number as the SQLite step that does the same;
steps 9 on are written once for both (schema_steps.py).
"""

from __future__ import annotations

from typing import Final

from .schema_steps import POSTGRESQL, STEPS

# Deal numbers go up to 2**64-1, past BIGINT: they are stored as TEXT (as in SQLite).
SCHEMA_V1: Final = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    token_hash BYTEA NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    creator TEXT,
    settings TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    closed DOUBLE PRECISION
);
CREATE INDEX IF NOT EXISTS rooms_open ON rooms (created) WHERE closed IS NULL;
-- One log for every room, in the order written: a restart replays the open rooms' entries
-- in that order.
CREATE TABLE IF NOT EXISTS room_log (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    entry TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS room_log_room ON room_log (room_id, id);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    room_id TEXT,
    daily TEXT,
    ranked BOOLEAN NOT NULL DEFAULT FALSE,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    deal TEXT NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION,
    result TEXT,
    elapsed DOUBLE PRECISION,
    score INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    turned INTEGER NOT NULL DEFAULT 0,
    actions TEXT NOT NULL DEFAULT '[]',
    -- true once the deal number may be shown: a live race's deal gives away every hidden card
    revealed BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS games_player ON games (player_id, started);
CREATE INDEX IF NOT EXISTS games_daily ON games (daily, ranked) WHERE daily IS NOT NULL;
CREATE TABLE IF NOT EXISTS daily_attempts (
    day TEXT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    PRIMARY KEY (day, player_id)
);
"""

# Steps 2 on: written once for both stores (schema_steps.py).
VERSION: Final = 11  # the last step (len(STEPS) + 1)
MIGRATIONS: Final[dict[int, str]] = {
    1: SCHEMA_V1,
    **{number: POSTGRESQL.render(step) for number, step in enumerate(STEPS, start=2)},
}

# Created before the version is read: the schema version and the server secret (processes
# sharing a database must derive the same daily deals).
META: Final = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
