"""The daily's shards split evenly over the processes behind nginx: a shard's number is
chosen so that nginx's plain ``hash $arg_shard`` (deploy/nginx.conf) sends shard i to server
i mod N; with the players' own hash, each process holds an even share of the day's players.
(tests/scale/test_daily_shards.py checks the real nginx sends them there.)"""

from __future__ import annotations

import hashlib
import zlib

from scorpion.race.protocol import (
    ROUTE_MODULUS,
    route_hash,
    shard_number,
    shard_numbers,
    shard_of,
)
from scorpion.web.config import DAILY_SHARDS

PLAYERS = [f"p{hashlib.sha256(str(n).encode()).hexdigest()[:8]}" for n in range(60_000)]


def nginx_server(key: str, servers: int) -> int:
    """The server (0-based, in the upstream's order) nginx's ``hash`` without ``consistent``
    picks for ``key`` on its first try, equal weights: ngx_http_upstream_hash_module takes
    bits 16-30 of the key's CRC-32, modulo the servers' total weight."""
    return ((zlib.crc32(key.encode()) >> 16) & 0x7FFF) % servers


def shares(shards: int, processes: int) -> list[float]:
    """Each process's share of PLAYERS, their sockets routed by nginx to their shard."""
    counts = [0] * processes
    for player in PLAYERS:
        counts[nginx_server(str(shard_of(player, shards)), processes)] += 1
    return [c / len(PLAYERS) for c in counts]


def test_route_hash_is_nginx_plain_hash_and_each_number_hashes_to_its_index() -> None:
    assert route_hash("757") == (zlib.crc32(b"757") >> 16) & 0x7FFF
    numbers = shard_numbers(240)
    assert numbers == sorted(set(numbers))  # distinct, increasing
    assert numbers[:DAILY_SHARDS] == shard_numbers(DAILY_SHARDS)  # more shards: the same first
    for index, number in enumerate(numbers):
        assert route_hash(str(number)) % ROUTE_MODULUS == index % ROUTE_MODULUS
        assert shard_number(index) == number


def test_each_process_gets_the_same_number_of_shards() -> None:
    for processes in range(2, 11):
        per_process = [0] * processes
        for index, number in enumerate(shard_numbers(DAILY_SHARDS)):
            server = nginx_server(str(number), processes)
            assert server == index % processes
            per_process[server] += 1
        assert max(per_process) - min(per_process) <= 1, (processes, per_process)
        if DAILY_SHARDS % processes == 0:
            assert set(per_process) == {DAILY_SHARDS // processes}


def test_each_process_holds_an_even_share_of_the_days_players_within_20_percent() -> None:
    for processes in range(2, 7):
        got = shares(DAILY_SHARDS, processes)
        even = 1 / processes
        assert all(0.8 * even <= s <= 1.2 * even for s in got), (processes, got)
        # 60,000 players over 60 shards: the players' hash alone is within 3 %.
        assert all(abs(s - even) <= 0.03 * even for s in got), (processes, got)


def test_every_player_is_on_a_numbered_shard_and_keeps_it() -> None:
    numbers = set(shard_numbers(DAILY_SHARDS))
    on = {shard_of(p, DAILY_SHARDS) for p in PLAYERS}
    assert on == numbers  # every shard holds players, none outside the numbers
    assert all(shard_of(p, 1) == 0 for p in PLAYERS[:100])  # one shard: the day's own key
