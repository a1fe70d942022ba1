"""Schema steps written once for both stores (9 on; a new step goes here unless it cannot),
each store's words filled in.

A step's text names the few places where SQLite and PostgreSQL differ, and
:meth:`Dialect.render` fills them in:

- ``{float}``: a float column: ``REAL`` in SQLite, ``DOUBLE PRECISION`` in PostgreSQL
  (its ``REAL`` is 4 bytes).
- ``{add_column}``: SQLite has no ``ADD COLUMN IF NOT EXISTS`` (its step runs once, in
  the transaction that bumps the version); PostgreSQL's may run again after a crash
  between the step and the version.
- ``{keyed}``: after a table whose rows are found by their primary key alone: SQLite's
  ``WITHOUT ROWID`` (the key is the table); nothing in PostgreSQL.

``INSERT ... SELECT ... WHERE true ON CONFLICT``: SQLite needs the ``WHERE`` to read the
``ON CONFLICT`` as the upsert's, PostgreSQL takes it as it is.

>>> POSTGRESQL.render("x {float}{keyed};")
'x DOUBLE PRECISION;'
>>> SQLITE.render("x {float}{keyed};")
'x REAL WITHOUT ROWID;'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Dialect:
    float: str
    add_column: str
    keyed: str

    def render(self, step: str) -> str:
        return step.format(float=self.float, add_column=self.add_column, keyed=self.keyed)


SQLITE: Final = Dialect(float="REAL", add_column="ADD COLUMN", keyed=" WITHOUT ROWID")
POSTGRESQL: Final = Dialect(
    float="DOUBLE PRECISION", add_column="ADD COLUMN IF NOT EXISTS", keyed=""
)

# Every token in device_tokens, each with how it was made ('new-player', 'device-code',
# 'recovery-code'; 'unknown' for the tokens given to other devices before this version),
# the browser family it was made on and when it was last used: a player lists and signs
# out their devices (web/http_signins.py). players.token_hash stays (a revoked first token
# is overwritten there with a hash no token has).
STEP_9: Final = """
ALTER TABLE device_tokens {add_column} how TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE device_tokens {add_column} agent TEXT NOT NULL DEFAULT '';
ALTER TABLE device_tokens {add_column} last_seen {float};
INSERT INTO device_tokens (token_hash, player_id, created, how)
    SELECT token_hash, id, created, 'new-player' FROM players WHERE true
    ON CONFLICT DO NOTHING;
"""

# The quick race (race/quick.py): one row per player waiting for strangers (every process
# sees the same queue), and ratings per rule set (race/rating.py): each player's current
# rating, and each rated round's change per player, written once (the key is the round).
# ``rooms.listed``: when the host listed the room among the open rooms (NULL: not listed).
STEP_10: Final = """
CREATE TABLE IF NOT EXISTS quick_queue (
    player_id TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    preset TEXT NOT NULL,
    joined {float} NOT NULL,
    seen {float} NOT NULL,
    room_id TEXT,
    formed {float}
){keyed};
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    preset TEXT NOT NULL,
    mu {float} NOT NULL,
    sigma {float} NOT NULL,
    races INTEGER NOT NULL,
    updated {float} NOT NULL,
    PRIMARY KEY (player_id, preset)
){keyed};
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (preset, races);
CREATE TABLE IF NOT EXISTS rating_changes (
    room_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    preset TEXT NOT NULL,
    place INTEGER NOT NULL,
    mu_before {float} NOT NULL,
    sigma_before {float} NOT NULL,
    mu_after {float} NOT NULL,
    sigma_after {float} NOT NULL,
    created {float} NOT NULL,
    PRIMARY KEY (room_id, round, player_id)
){keyed};
CREATE INDEX IF NOT EXISTS rating_changes_player ON rating_changes (player_id, created);
ALTER TABLE rooms {add_column} listed {float};
CREATE INDEX IF NOT EXISTS rooms_listed ON rooms (listed)
    WHERE listed IS NOT NULL AND closed IS NULL;
"""

# A league among friends (race/league.py): each league round's points per racer, written
# once (the key is the round); ``week`` is the ISO week (UTC) the round finished in, so a
# week's table and the all-time table are sums over these rows.
STEP_11: Final = """
CREATE TABLE IF NOT EXISTS league_points (
    room_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    place INTEGER NOT NULL,
    points INTEGER NOT NULL,
    week TEXT NOT NULL,
    created {float} NOT NULL,
    PRIMARY KEY (room_id, round, player_id)
){keyed};
CREATE INDEX IF NOT EXISTS league_points_week ON league_points (room_id, week);
"""
