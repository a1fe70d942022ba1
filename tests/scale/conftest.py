"""Three ``scorpion serve`` processes on one PostgreSQL database and one redis-server,
behind nginx (round robin): what tests/scale runs against.

The redis-server and the PostgreSQL cluster are shared by the session; each test gets
a fresh database, fresh processes and a fresh nginx.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import Api, ServerProcess
from scorpion_dev.services import Nginx, RedisServer

PROCESSES = 3
LEASE_TTL = 2.0


@dataclass
class Cluster:
    servers: list[ServerProcess]
    nginx: Nginx
    redis: RedisServer
    database: str

    @property
    def url(self) -> str:
        return self.nginx.url

    @property
    def ws_url(self) -> str:
        return self.nginx.ws_url

    @property
    def db(self) -> str:  # as ServerProcess's: tests read the database behind the servers
        return self.database

    def logs(self) -> str:
        return "\n".join(f"--- server {i}\n{s.log()}" for i, s in enumerate(self.servers))

    # ServerProcess's kill and start, for the tests of one server that crash it: all three.
    def kill(self) -> None:
        for server in self.servers:
            server.kill()

    def start(self) -> None:
        for server in self.servers:
            server.start()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    if not Path("/usr/bin/redis-server").exists():
        pytest.fail("redis-server is not installed (.ci/run installs it)")
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.remove()


@pytest.fixture
def redis(redis_server: RedisServer) -> Iterator[RedisServer]:
    """The session's redis-server, which the test may stop: running again afterwards."""
    try:
        yield redis_server
    finally:
        if redis_server.proc is None or redis_server.proc.poll() is not None:
            redis_server.start()


def app_process(database: str, redis: RedisServer, tmp_path: Path, i: int) -> ServerProcess:
    return ServerProcess(
        database,
        args=("--grace", "60", "--redis", redis.url, "--lease-ttl", str(LEASE_TTL)),
        log_path=tmp_path / f"server{i}.log",
    )


@pytest.fixture
def cluster(tmp_path: Path, postgres: PostgresCluster, redis: RedisServer) -> Iterator[Cluster]:
    database = postgres.new_database()
    servers = [app_process(database, redis, tmp_path, i) for i in range(PROCESSES)]
    nginx = Nginx([s.port for s in servers])
    try:
        for server in servers:
            server.start()
        nginx.start()
        yield Cluster(servers, nginx, redis, database)
    finally:
        nginx.remove()
        for server in servers:
            if server.running:
                server.stop()


@pytest.fixture
def server(cluster: Cluster) -> Cluster:
    """The tests written for one server (tests/web) run against the three processes: every
    socket and request goes through nginx, so it may land on any of them."""
    return cluster


@pytest.fixture
async def api(cluster: Cluster) -> AsyncIterator[Api]:
    async with Api(cluster.url) as client:
        yield client
