"""How evenly nginx splits a day's daily shards over the app processes: counts, not timings.

    .venv/bin/python benchmarks/shard_split.py [--players 60000] [--port-sets 200]

For 2 to 6 processes, the largest process's share of the day's players over the even
share (1.00 is even; the goal is at most 1.20), players spread over the shards by their
hash (``shard_of``):

- ``consistent``: nginx's ``hash $key consistent`` (ketama: 160 points per server on a
  ring, each placed by the CRC-32 of "host\\0port" and the previous point, a key going to
  the first point at or after its CRC-32), over random sets of loopback ports as the
  tests and benchmarks draw them, the shard keys as before (``<date><shard index>``):
  the median over the port sets, and how many of them exceed 1.2;
- ``plain``: nginx's ``hash $arg_shard`` (bits 16-30 of the CRC-32, modulo the servers)
  of the shards' numbers (race/protocol.py): the same for every set of ports.

The ring's model was checked against nginx 1.22 (200 keys, 3 servers: the same server
for each); tests/race/test_protocol.py checks the plain hash's.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import random
import statistics
import struct
import zlib

from scorpion.race.protocol import route_hash, shard_numbers

DAY = "2026-12-01"


def ring(servers: list[str]) -> tuple[list[int], list[int]]:
    """nginx's ketama points (sorted) and the server of each."""
    points = []
    for index, server in enumerate(servers):
        host, port = server.rsplit(":", 1)
        base = host.encode() + b"\0" + port.encode()
        previous = 0
        for _ in range(160):
            previous = zlib.crc32(base + struct.pack("<I", previous))
            points.append((previous, index))
    points.sort()
    return [p for p, _ in points], [s for _, s in points]


def on_ring(points: tuple[list[int], list[int]], key: str) -> int:
    hashes, servers = points
    at = bisect.bisect_left(hashes, zlib.crc32(key.encode()))
    return servers[at % len(hashes)]


def worst(counts: list[int]) -> float:
    """The largest count over the even one."""
    return max(counts) * len(counts) / sum(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60_000)
    parser.add_argument("--port-sets", type=int, default=200)
    parser.add_argument("--shards", default="12,48,60,240")
    args = parser.parse_args()
    players = [
        hashlib.blake2b(str(n).encode(), digest_size=8).digest() for n in range(args.players)
    ]
    draw = random.Random(29)
    print(f"{args.players} players; the largest process's share over the even share")
    print(f"{'shards':>6} {'processes':>9} {'consistent (median, sets > 1.2)':>32} {'plain':>6}")
    for shards in map(int, args.shards.split(",")):
        per_shard = [0] * shards  # players per shard index (shard_of's hash, modulo)
        for digest in players:
            per_shard[int.from_bytes(digest, "big") % shards] += 1
        numbers = shard_numbers(shards)
        for processes in range(2, 7):
            ring_worst = []
            for _ in range(args.port_sets):
                ports = draw.sample(range(32768, 61000), processes)
                points = ring([f"127.0.0.1:{p}" for p in ports])
                counts = [0] * processes
                for index, count in enumerate(per_shard):
                    counts[on_ring(points, f"{DAY}{index}")] += count
                ring_worst.append(worst(counts))
            plain = [0] * processes
            for index, count in enumerate(per_shard):
                plain[route_hash(str(numbers[index])) % processes] += count
            over = sum(1 for w in ring_worst if w > 1.2)
            print(
                f"{shards:>6} {processes:>9} "
                f"{statistics.median(ring_worst):>21.2f}, {over:>4}/{args.port_sets:<4} "
                f"{worst(plain):>6.2f}"
            )


if __name__ == "__main__":
    main()
