"""Schema steps written once for both stores (2 on; a new step goes here unless it cannot),
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
- ``{bytes}``, ``{bool}``: ``BLOB`` and ``INTEGER`` (0 or 1) in SQLite, ``BYTEA`` and
  ``BOOLEAN`` in PostgreSQL; ``{is_true}`` after a boolean column in a condition
  (SQLite's ``= 1``).
- ``{serial}``: a key numbered in the order rows are written: SQLite's ``INTEGER
  PRIMARY KEY AUTOINCREMENT``, PostgreSQL's ``BIGINT GENERATED ALWAYS AS IDENTITY``.

Step 1 stays in each store's schema module (its tables' first words differ more).

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
    bytes: str
    bool: str
    is_true: str
    serial: str

    def render(self, step: str) -> str:
        return step.format(
            float=self.float,
            add_column=self.add_column,
            keyed=self.keyed,
            bytes=self.bytes,
            bool=self.bool,
            is_true=self.is_true,
            serial=self.serial,
        )


SQLITE: Final = Dialect(
    float="REAL",
    add_column="ADD COLUMN",
    keyed=" WITHOUT ROWID",
    bytes="BLOB",
    bool="INTEGER",
    is_true=" = 1",
    serial="INTEGER PRIMARY KEY AUTOINCREMENT",
)
POSTGRESQL: Final = Dialect(
    float="DOUBLE PRECISION",
    add_column="ADD COLUMN IF NOT EXISTS",
    keyed="",
    bytes="BYTEA",
    bool="BOOLEAN",
    is_true="",
    serial="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
)

# Each day's daily deal, once found: a restart must not search again (it takes a while)
# nor find another deal (if the solver changed). Secret: it gives every hidden card.
STEP_2: Final = """
CREATE TABLE IF NOT EXISTS dailies (
    day TEXT PRIMARY KEY,
    deal TEXT NOT NULL,
    verified {bool} NOT NULL,
    created {float} NOT NULL
){keyed};
"""

# One ranked daily game per player and day, enforced by the database (a second process
# on the same database, or a bug, cannot record two).
STEP_3: Final = """
CREATE UNIQUE INDEX IF NOT EXISTS games_one_ranked_daily ON games (daily, player_id)
    WHERE ranked{is_true} AND daily IS NOT NULL;
"""

# A player on several devices, recovery codes and name reports (store/queries.py).
# Codes and tokens are kept only as SHA-256 hashes. Reports have no foreign keys: the
# operator keeps them after the players are gone.
STEP_4: Final = """
CREATE TABLE IF NOT EXISTS device_tokens (
    token_hash {bytes} PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created {float} NOT NULL
){keyed};
CREATE INDEX IF NOT EXISTS device_tokens_player ON device_tokens (player_id);
CREATE TABLE IF NOT EXISTS device_codes (
    code_hash {bytes} PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    expires {float} NOT NULL
){keyed};
CREATE TABLE IF NOT EXISTS recovery_codes (
    player_id TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    code_hash {bytes} NOT NULL UNIQUE,
    created {float} NOT NULL
){keyed};
CREATE TABLE IF NOT EXISTS name_reports (
    id {serial},
    room_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    name TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    created {float} NOT NULL
);
"""

# The devices a player was made, claimed or recovered on: players sharing one are linked
# (one ranked daily a day per linked group, race/daily.py). Only an HMAC of the browser's
# device id is kept (web/devices.py), never the id itself, nor an address.
STEP_5: Final = """
CREATE TABLE IF NOT EXISTS player_devices (
    player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    device_hash {bytes} NOT NULL,
    PRIMARY KEY (player_id, device_hash)
){keyed};
CREATE INDEX IF NOT EXISTS player_devices_device ON player_devices (device_hash, player_id);
"""

# The help a game used (hints asked, moves played by Auto): clean and assisted results are
# counted apart in the statistics.
STEP_6: Final = """
ALTER TABLE games {add_column} hints INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games {add_column} autos INTEGER NOT NULL DEFAULT 0;
"""

# A round's games, for its replay (the room's log is gone once the room closes).
STEP_7: Final = """
CREATE INDEX IF NOT EXISTS games_room ON games (room_id) WHERE room_id IS NOT NULL;
"""

# Each finished game's analysis by the solver (web/analyses.py), computed once: the
# verdict after every action and the turning point, as JSON. It goes with its game.
STEP_8: Final = """
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    analysis TEXT NOT NULL,
    created {float} NOT NULL
){keyed};
"""

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

# Every step from 2 on, in order (step n at index n - 2): the schema's VERSION follows.
STEPS: Final = (STEP_2, STEP_3, STEP_4, STEP_5, STEP_6, STEP_7, STEP_8, STEP_9, STEP_10, STEP_11)
