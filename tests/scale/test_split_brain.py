"""One way of using a PostgreSQL database at a time (scorpion.store.postgres_mode): a
process without --redis never starts beside a cluster, nor a cluster process beside it,
and a lone process whose hold on the database is lost stops acting."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from websockets.exceptions import ConnectionClosed

from scorpion.store.postgres_mode import MODE_LOCK, ModeLock
from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import Api, ServerProcess, start_race
from scorpion_dev.services import RedisServer

from .conftest import Cluster, app_process

DEAL = 4242


@pytest.fixture
def lone(postgres: PostgresCluster, tmp_path: Path) -> Iterator[ServerProcess]:
    """A process without --redis on a fresh database, started (stopped at the end if it
    still runs)."""
    server = ServerProcess(postgres.new_database(), log_path=tmp_path / "lone.log")
    server.start()
    try:
        yield server
    finally:
        if server.running:
            server.stop()


def refused(server: ServerProcess) -> str:
    """Start ``server``, which must exit non-zero before it is ready: its log."""
    with pytest.raises(RuntimeError, match="scorpion serve exited 1"):
        server.start()
    assert not server.running
    return server.log()


async def test_a_process_without_redis_does_not_start_beside_a_cluster(
    cluster: Cluster, api: Api, tmp_path: Path
) -> None:
    _, racers, _ = await start_race(cluster, api, ["Ann", "Bob"], DEAL)
    answer = await racers["Ann"].act("move", move=racers["Ann"].pick())
    assert answer["type"] == "applied"
    # The misconfigured fourth process (SCORPION_REDIS misspelled, say) on the same database.
    lone = ServerProcess(cluster.database, log_path=tmp_path / "lone.log")
    said = refused(lone)
    assert (
        "another Scorpion process uses this database with --redis (several processes share "
        "it); start this one with --redis (SCORPION_REDIS) too"
    ) in said
    assert "ready:" not in said and "Traceback" not in said  # no room was loaded
    # The cluster plays on, alone on its rooms.
    answer = await racers["Bob"].act("move", move=racers["Bob"].pick())
    assert answer["type"] == "applied"
    for racer in racers.values():
        await racer.client.close()


async def test_a_cluster_process_does_not_start_beside_a_lone_process(
    lone: ServerProcess, redis: RedisServer, tmp_path: Path
) -> None:
    database = str(lone.db)
    said = refused(app_process(database, redis, tmp_path, 0))
    assert (
        "another Scorpion process uses this database without --redis; there can be one "
        "such process per database: stop it first, or run every process with --redis"
    ) in said
    # Nor a second lone one.
    said = refused(ServerProcess(database, log_path=tmp_path / "second.log"))
    assert "another Scorpion process uses this database without --redis" in said
    assert lone.running
    lone.stop()
    # Once it stopped, the cluster's processes start.
    clustered = app_process(database, redis, tmp_path, 1)
    clustered.start()
    clustered.stop()


async def lock_holders(conn: asyncpg.Connection) -> list[int]:
    rows = await conn.fetch(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        MODE_LOCK,
    )
    return [int(r[0]) for r in rows]


async def test_a_lone_process_that_lost_its_hold_stops_acting(lone: ServerProcess) -> None:
    database = str(lone.db)
    conn = await asyncpg.connect(database)
    try:
        async with Api(lone.url) as api:
            room_id, racers, _ = await start_race(lone, api, ["Ann", "Bob"], DEAL)
        ann = racers["Ann"]
        assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
        logged = await conn.fetchval("SELECT count(*) FROM room_log WHERE room_id = $1", room_id)
        # Its lock connection ends (a network fault, an administrator) and a cluster process
        # takes the database at once, before the lone process can take it again.
        [holder] = await lock_holders(conn)
        await conn.fetchval("SELECT pg_terminate_backend($1)", holder)
        # Queued now, granted as soon as that session ends: before the lone process retries.
        await conn.execute("SELECT pg_advisory_lock_shared($1)", MODE_LOCK)
        cluster_process = ModeLock(database, cluster=True)  # what --redis takes at start
        await cluster_process.take()
        try:
            answer = await ann.act("move", move=ann.pick())
        except ConnectionClosed:
            answer = {"type": "closed"}
        assert answer["type"] != "applied", answer
        # It stops: it cannot know what the other process did meanwhile.
        code = await asyncio.to_thread(lone.proc.wait, 20)  # type: ignore[union-attr]
        assert code == 1
        said = lone.log()
        assert "the server stops: another Scorpion process uses this database with --redis" in said
        # The move, if it reached the process before it stopped, was refused by the
        # database (a fenced write: one warning line).
        if "not written" in said:
            assert "records not written: another process holds the database now" in said
        assert "Traceback" not in said and " ERROR " not in said
        assert (
            await conn.fetchval("SELECT count(*) FROM room_log WHERE room_id = $1", room_id)
            == logged
        )
        await cluster_process.close()
    finally:
        await conn.close()


async def test_a_lone_process_whose_lock_connection_ends_takes_it_again_and_plays_on(
    lone: ServerProcess,
) -> None:
    conn = await asyncpg.connect(str(lone.db))
    try:
        async with Api(lone.url) as api:
            _, racers, _ = await start_race(lone, api, ["Ann", "Bob"], DEAL)
        [holder] = await lock_holders(conn)
        await conn.fetchval("SELECT pg_terminate_backend($1)", holder)
        for _ in range(200):  # until it holds the lock again, on a new connection (20 s)
            holders = await lock_holders(conn)
            if holders and holders != [holder]:
                break
            await asyncio.sleep(0.1)
        assert holders and holders != [holder], lone.log()
        ann = racers["Ann"]
        assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
        for _ in range(200):  # the line follows the lock (the log is written after): 20 s
            if "the database lock is held again" in lone.log():
                break
            await asyncio.sleep(0.1)
        assert lone.running and "the database lock is held again" in lone.log()
        for racer in racers.values():
            await racer.client.close()
    finally:
        await conn.close()
