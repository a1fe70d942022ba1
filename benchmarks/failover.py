"""Failover time: kill -9 the process owning a race and today's daily, 10 times.

Three ``scorpion serve`` processes on one PostgreSQL cluster and one redis-server, behind
nginx, all started here in temporary folders (scorpion_dev). Each round (as
tests/scale/test_failover.py): two racers and one daily player with acknowledged moves,
the owner killed, every player reconnects through nginx with last_version and moves
again; the figure is the time from the kill to that move's ``applied``. The killed
process is restarted before the next round. Run::

    .venv/bin/python benchmarks/failover.py --rounds 10
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

from scorpion_dev.failover import kill_round
from scorpion_dev.postgres import PostgresCluster, postgres_bin
from scorpion_dev.server import Api, ServerProcess
from scorpion_dev.services import Nginx, RedisServer, stop_everything


async def run(rounds: int, ttl: float, processes: int) -> None:
    bin_dir = postgres_bin()
    assert bin_dir is not None, "PostgreSQL is not installed"
    postgres, redis = PostgresCluster(bin_dir), RedisServer()
    logs = Path(tempfile.mkdtemp(prefix="scorpion-failover-"))
    servers: list[ServerProcess] = []
    nginx: Nginx | None = None
    try:
        postgres.init()
        redis.start()
        database = postgres.new_database()
        args = ("--redis", redis.url, "--lease-ttl", str(ttl))
        servers = [ServerProcess(database, args=args, log_path=logs / f"s{i}.log")
                   for i in range(processes)]  # fmt: skip
        for server in servers:
            server.start()
        nginx = Nginx([s.port for s in servers])
        nginx.start()
        every: list[float] = []
        async with Api(nginx.url) as api:
            for n in range(rounds):
                target, players = await kill_round(servers, nginx.ws_url, api, database, str(n))
                times = [p.resumed_after for p in players if p.resumed_after is not None]
                every.extend(times)
                listed = ", ".join(f"{t:.2f}" for t in sorted(times))
                print(f"round {n + 1}: killed :{target.port}; moving again after {listed} s")
                target.start()
        print(f"{len(every)} players over {rounds} kills (lease ttl {ttl} s): "
              f"median {statistics.median(every):.2f} s, worst {max(every):.2f} s")  # fmt: skip
    finally:
        stop_everything(nginx, servers, redis, postgres)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--ttl", type=float, default=2.0, help="lease ttl (seconds)")
    parser.add_argument("--processes", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.ttl, args.processes))


if __name__ == "__main__":
    main()
