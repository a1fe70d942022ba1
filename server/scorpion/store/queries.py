"""The writes both stores run, one SQL text each (``?`` placeholders: the SQLite store
runs them as they are, the PostgreSQL store through :func:`.sql.pg`), by concept.

What stays with one store is small and named there: PostgreSQL's ``RETURNING`` and
arrays (``= ANY($1)``), its advisory locks and fencing; SQLite's ``IN (?, ...)`` lists.
A statement that checks a row exists (``WHERE EXISTS``) takes that row's key again as
its last argument, so both dialects number it alike.
"""

from __future__ import annotations

from typing import Final

from .rows import (
    CHANGE_COLUMNS,
    GAME_COLUMN_COUNT,
    GAME_COLUMNS,
    GAME_UPDATES,
    QUEUE_COLUMNS,
    REPORT_COLUMNS,
)
from .sql import marks

# ---------------------------------------------------------------- players and devices
NEW_PLAYER: Final = "INSERT INTO players (id, token_hash, name, created) VALUES (?, ?, ?, ?)"
RENAME_PLAYER: Final = "UPDATE players SET name = ? WHERE id = ?"  # (name, player)
# Deleting a player: their games, daily attempts, rooms' creator, then the player (player,).
DELETE_PLAYER: Final = (
    "DELETE FROM games WHERE player_id = ?",
    "DELETE FROM daily_attempts WHERE player_id = ?",
    "UPDATE rooms SET creator = NULL WHERE creator = ?",
    "DELETE FROM players WHERE id = ?",
)
ADD_TOKEN: Final = (  # (token, player, created, how, agent, last seen)
    "INSERT INTO device_tokens (token_hash, player_id, created, how, agent, last_seen) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
TOUCH_TOKEN: Final = "UPDATE device_tokens SET last_seen = ? WHERE token_hash = ?"
DROP_EXPIRED_CODES: Final = "DELETE FROM device_codes WHERE expires <= ?"
ADD_DEVICE_CODE: Final = "INSERT INTO device_codes (code_hash, player_id, expires) VALUES (?, ?, ?)"
# The tokens a recovery code gave (player, how, how): the old code's, on a new code.
TOKENS_GIVEN: Final = "SELECT token_hash FROM device_tokens WHERE player_id = ? AND how IN (?, ?)"
SET_RECOVERY_CODE: Final = (
    "INSERT INTO recovery_codes (player_id, code_hash, created) VALUES (?, ?, ?) "
    "ON CONFLICT (player_id) DO UPDATE SET code_hash = excluded.code_hash, "
    "created = excluded.created"
)
RECOVERY_PLAYER: Final = "SELECT player_id FROM recovery_codes WHERE code_hash = ?"
ADD_PLAYER_DEVICE: Final = (  # (player, device, player)
    "INSERT INTO player_devices (player_id, device_hash) "
    "SELECT ?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) "
    "ON CONFLICT DO NOTHING"
)
SAVE_REPORT: Final = f"INSERT INTO name_reports ({REPORT_COLUMNS}) VALUES ({marks(6)})"

# ------------------------------------------------------------ rooms, games, records
OPEN_ROOM: Final = "INSERT INTO rooms (id, creator, settings, created) VALUES (?, ?, ?, ?)"
REOPEN: Final = " ON CONFLICT (id) DO UPDATE SET closed = NULL, created = excluded.created"
# One insert checked against the room's row by its key: the cost does not grow with the
# log (text, room).
APPEND_LOG: Final = (
    "INSERT INTO room_log (room_id, entry) SELECT id, ? FROM rooms WHERE id = ? AND closed IS NULL"
)
CLOSE_ROOM: Final = (  # (now, room), then (room,)
    "UPDATE rooms SET closed = ? WHERE id = ? AND closed IS NULL",
    "DELETE FROM room_log WHERE room_id = ?",
)
ROOMS_BEFORE: Final = (  # (length of prefix, prefix, created before)
    "SELECT id FROM rooms WHERE closed IS NULL AND substr(id, 1, ?) = ? AND created < ?"
)
LIST_ROOM: Final = "UPDATE rooms SET listed = ? WHERE id = ?"  # (at, room)
SAVE_GAME: Final = (  # (the game's values, player)
    f"INSERT INTO games ({GAME_COLUMNS}) SELECT {marks(GAME_COLUMN_COUNT)} "
    "WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) "
    f"ON CONFLICT (id) DO UPDATE SET {GAME_UPDATES}"
)
SAVE_ANALYSIS: Final = (  # (game, analysis, created, game)
    "INSERT INTO analyses (game_id, analysis, created) SELECT ?, ?, ? "
    "WHERE EXISTS (SELECT 1 FROM games WHERE id = ?) ON CONFLICT DO NOTHING"
)
# Retention (before,): game records ended, rooms closed; then the attempts left without a game.
PURGE: Final = (
    "DELETE FROM games WHERE finished < ?",
    "DELETE FROM rooms WHERE closed < ?",
)
PURGE_ATTEMPTS: Final = "DELETE FROM daily_attempts WHERE game_id NOT IN (SELECT id FROM games)"

# ---------------------------------------------------------------------------- dailies
# A second claim of a player's day, by any process, hits the primary key (day, player,
# game, player).
CLAIM_DAILY: Final = (
    "INSERT INTO daily_attempts (day, player_id, game_id) "
    "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?)"
)
SAVE_DAILY: Final = (  # the first deal saved for a day stays
    "INSERT INTO dailies (day, deal, verified, created) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (day) DO NOTHING"
)

# ------------------------------------------------------- quick race, ratings, leagues
DROP_PLACED: Final = "DELETE FROM quick_queue WHERE formed < ?"
QUEUE_WRITE: Final = (
    f"INSERT INTO quick_queue ({QUEUE_COLUMNS}) VALUES ({marks(7)}) "
    "ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, preset = excluded.preset, "
    "joined = excluded.joined, seen = excluded.seen, room_id = excluded.room_id, "
    "formed = excluded.formed"
)
ROUND_RATED: Final = "SELECT 1 FROM rating_changes WHERE room_id = ? AND round = ? LIMIT 1"
RATE: Final = (  # (player, preset, mu, sigma, updated, player)
    "INSERT INTO ratings (player_id, preset, mu, sigma, races, updated) "
    "SELECT ?, ?, ?, ?, 1, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) "
    "ON CONFLICT (player_id, preset) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, races = ratings.races + 1, updated = excluded.updated"
)
RATING_CHANGE: Final = (  # (the change's columns, player)
    f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) SELECT {marks(10)} "
    "WHERE EXISTS (SELECT 1 FROM players WHERE id = ?)"
)
LEAGUE_ROUND_KEPT: Final = "SELECT 1 FROM league_points WHERE room_id = ? AND round = ? LIMIT 1"
LEAGUE_POINTS: Final = (  # (room, round, player, name, place, points, week, created, player)
    "INSERT INTO league_points (room_id, round, player_id, name, place, points, week, created) "
    f"SELECT {marks(8)} WHERE EXISTS (SELECT 1 FROM players WHERE id = ?)"
)
