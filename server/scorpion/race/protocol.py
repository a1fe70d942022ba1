"""Constants of the wire protocol that the race and web layers share (docs/protocol.md,
section 7, lists the close codes).

>>> daily_key("2026-12-01"), date_of(daily_key("2026-12-01")), date_of("k3J9xQ")
('daily:2026-12-01', '2026-12-01', None)
>>> practice_key("p_81d2"), practice_player(practice_key("p_81d2")), practice_player("k3J9xQ")
('practice:p_81d2', 'p_81d2', None)
"""

from __future__ import annotations

from typing import Final

# The protocol's version, sent in every welcome. Raise it with any change a browser already
# holding the old client could not follow: an older client then tells its player to reload
# (so long caching of the client's files never strands anyone on an old client).
PROTOCOL_VERSION: Final = 2

# Websocket close codes: the standard ones we use, and ours in the private 4000-4999 range.
GOING_AWAY: Final = 1001  # the server is shutting down: reconnect
TOO_BIG: Final = 1009  # a frame over the hard size limit
SERVER_ERROR: Final = 1011  # not saved: reconnect and resync
TRY_AGAIN: Final = 1013  # server busy or restarting: retry shortly
PROTOCOL: Final = 4000  # a bad hello, or no hello in time
BAD_TOKEN: Final = 4001  # unknown token (or the player was deleted)
UNKNOWN_ROOM: Final = 4004  # no such room, or no such daily date
TOO_SLOW: Final = 4008  # the send queue overflowed: the client reads too slowly
IDLE: Final = 4010  # silent for too long: clients send ping
FLOOD: Final = 4029  # commands refused too often (scorpion.web.limits.FloodGauge)

DAILY_PREFIX: Final = "daily:"  # a daily's key: its log, its records, its search tickets


def daily_key(date: str) -> str:
    """The key of the daily of ``date`` (YYYY-MM-DD)."""
    return DAILY_PREFIX + date


def date_of(key: str) -> str | None:
    """The date of a daily's key, None for a room id."""
    return key[len(DAILY_PREFIX) :] if key.startswith(DAILY_PREFIX) else None


PRACTICE_PREFIX: Final = "practice:"  # a player's practice: its log, records and search tickets


def practice_key(player_id: str) -> str:
    """The key of a player's practice (one per player, whatever the preset)."""
    return PRACTICE_PREFIX + player_id


def practice_player(key: str) -> str | None:
    """The player of a practice's key, None for anything else."""
    return key[len(PRACTICE_PREFIX) :] if key.startswith(PRACTICE_PREFIX) else None
