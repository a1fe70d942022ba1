"""Constants of the wire protocol that the race and web layers share (docs/protocol.md,
section 7, lists the close codes).

>>> daily_key("2026-12-01"), date_of(daily_key("2026-12-01")), date_of("k3J9xQ")
('daily:2026-12-01', '2026-12-01', None)
>>> shard_key("2026-12-01", 757), date_of("daily:2026-12-01:757")
('daily:2026-12-01:757', '2026-12-01')
>>> shard_of_key("daily:2026-12-01:757")
757
>>> shard_of_key("daily:2026-12-01"), shard_of_key("k3J9xQ")
(None, None)
>>> practice_key("p_81d2"), practice_player(practice_key("p_81d2")), practice_player("k3J9xQ")
('practice:p_81d2', 'p_81d2', None)
>>> game_id("daily:2026-12-01", 2, "p_1"), parse_game_id("daily:2026-12-01:2:p_1")
('daily:2026-12-01:2:p_1', ('daily:2026-12-01', 2, 'p_1'))
"""

from __future__ import annotations

import hashlib
import zlib
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
    """The date of a daily's key (``daily:<date>`` or a shard's ``daily:<date>:<shard>``),
    None for a room id."""
    return key[len(DAILY_PREFIX) :].split(":", 1)[0] if key.startswith(DAILY_PREFIX) else None


# A day's daily may be split in shards (docs/scaling.md, "A million daily players"): each
# shard is a place of its own (its lease, its log, its routing key) holding the attempts of
# the players the hash gives it. With one shard the key is the day's own, as before shards.
#
# A shard's number (in its key and in the sockets' routing hint ``shard=<n>``) is chosen for
# the proxy, so that the shards split evenly over the processes: nginx's plain ``hash
# $arg_shard`` (deploy/nginx.conf) sends a key to server number ``route_hash(key) % N`` of
# its N (equal weights). The shard at index i is numbered by the first integer after the
# previous shard's number whose route_hash is i modulo ROUTE_MODULUS, so it goes to server
# i mod N for every N dividing 2520 (1 to 10, 12, 14, 15, 18, 20, ...): each process gets
# shards/N of them, and with them (the players' hash being even) its share of the players.
ROUTE_MODULUS: Final = 2520
_numbers: list[int] = []  # the shards' numbers by index, found once (about 2 ms each)


def route_hash(key: str) -> int:
    """The hash nginx's ``hash`` directive (without ``consistent``) takes of a key: bits
    16-30 of its CRC-32 (ngx_http_upstream_hash_module); its server is this modulo the
    number of servers. Keys ``str(shard_number(i))`` give i modulo ROUTE_MODULUS.

    >>> route_hash("757") % ROUTE_MODULUS, shard_number(1)
    (1, 757)
    """
    return (zlib.crc32(key.encode()) >> 16) & 0x7FFF


def shard_number(index: int) -> int:
    """The number of the shard at ``index`` (0, 1, ...): the same for any count of shards
    above ``index``, on every process and every day."""
    while len(_numbers) <= index:
        number = _numbers[-1] + 1 if _numbers else 0
        while route_hash(str(number)) % ROUTE_MODULUS != len(_numbers) % ROUTE_MODULUS:
            number += 1
        _numbers.append(number)
    return _numbers[index]


def shard_numbers(shards: int) -> list[int]:
    """The numbers of a day's ``shards`` shards, by index ([0] when the day is not split).

    >>> shard_numbers(1), shard_numbers(3)
    ([0], [71, 757, 3652])
    """
    return [shard_number(i) for i in range(shards)] if shards > 1 else [0]


def shard_of(player_id: str, shards: int) -> int:
    """The number of the shard of a day's daily that holds ``player_id``'s attempts (the
    same every day, on every process: a stable hash, not Python's salted one).

    >>> shard_of("p_81d2", 1), shard_of("p_81d2", 8) in shard_numbers(8)
    (0, True)
    """
    if shards <= 1:
        return 0
    digest = hashlib.blake2b(player_id.encode(), digest_size=8).digest()
    return shard_number(int.from_bytes(digest, "big") % shards)


def shard_key(date: str, shard: int, shards: int = 2) -> str:
    """The place (lease, log, routing key) of the shard numbered ``shard`` of a day's daily;
    the day's own key when the daily is not split (``shards`` 1)."""
    return daily_key(date) if shards <= 1 else f"{daily_key(date)}:{shard}"


def player_daily_key(date: str, player_id: str, shards: int) -> str:
    """The place holding ``player_id``'s attempts at the daily of ``date``.

    >>> player_daily_key("2026-12-01", "p_1", 1)
    'daily:2026-12-01'
    """
    return shard_key(date, shard_of(player_id, shards), shards)


def shard_of_key(key: str) -> int | None:
    """The shard number a daily shard's key names; None for a whole day's key or anything else."""
    if not key.startswith(DAILY_PREFIX):
        return None
    _, _, shard = key[len(DAILY_PREFIX) :].partition(":")
    return int(shard) if shard.isdigit() else None


PRACTICE_PREFIX: Final = "practice:"  # a player's practice: its log, records and search tickets


def practice_key(player_id: str) -> str:
    """The key of a player's practice (one per player, whatever the preset)."""
    return PRACTICE_PREFIX + player_id


def practice_player(key: str) -> str | None:
    """The player of a practice's key, None for anything else."""
    return key[len(PRACTICE_PREFIX) :] if key.startswith(PRACTICE_PREFIX) else None


def game_id(place: str, number: int, player: str) -> str:
    """The id of one player's game of one round (or daily attempt, or practice game) in
    a place: stable across restarts, the key of its stored record."""
    return f"{place}:{number}:{player}"


def parse_game_id(gid: str) -> tuple[str, int, str]:
    """The place, number and player a :func:`game_id` names; ValueError for anything else."""
    place, number, player = gid.rsplit(":", 2)
    return place, int(number), player
