"""scorpion.store.postgres_mode: one lone process or a cluster per database, and writes
refused once the hold is lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from scorpion.store import Fenced, OpenRoom
from scorpion.store.postgres import PostgresStore
from scorpion.store.postgres_mode import (
    ALONE_HOLDS,
    CLUSTER_HOLDS,
    MODE_LOCK,
    ModeLock,
    ModeRefused,
)
from support.postgres import PostgresCluster


@pytest.fixture
async def url(postgres: PostgresCluster) -> AsyncIterator[str]:
    url = postgres.new_database()
    store = PostgresStore(url)
    await store.open()  # the schema (meta) exists before a lock is taken, as in Services
    await store.close()
    yield url


async def test_one_lone_process_or_any_number_of_cluster_processes(url: str) -> None:
    lone = ModeLock(url, cluster=False)
    await lone.take()
    for other, said in ((ModeLock(url, cluster=False), ALONE_HOLDS),
                        (ModeLock(url, cluster=True), ALONE_HOLDS)):  # fmt: skip
        with pytest.raises(ModeRefused) as caught:
            await other.take()
        assert str(caught.value) == said
    await lone.close()
    members = [ModeLock(url, cluster=True) for _ in range(3)]
    for member in members:
        await member.take()
    with pytest.raises(ModeRefused) as caught:
        await ModeLock(url, cluster=False).take()
    assert str(caught.value) == CLUSTER_HOLDS
    for member in members:
        await member.close()


async def test_each_database_has_its_own_lock(url: str, postgres: PostgresCluster) -> None:
    other = postgres.new_database()
    store = PostgresStore(other)
    await store.open()
    await store.close()
    locks = [ModeLock(url, cluster=False), ModeLock(other, cluster=False)]
    for lock in locks:
        await lock.take()  # two lone processes on two databases of one server
    for lock in locks:
        await lock.close()


async def test_a_write_after_the_hold_is_lost_is_refused(url: str) -> None:
    store = PostgresStore(url, retry_for=0.5)  # a refused write waits that long for a retake
    await store.open()
    store.mode = lone = ModeLock(url, cluster=False)
    await lone.take()
    await store.write([OpenRoom("r1", "ann", {})])
    conn = await asyncpg.connect(url)
    try:
        await conn.fetchval("SELECT pg_terminate_backend($1)", lone.pid)
        for _ in range(200):  # until the server has ended that session (20 s at most)
            if not await conn.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND "
                "database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                MODE_LOCK,
            ):
                break
            await asyncio.sleep(0.1)
        with pytest.raises(Fenced, match="no longer holds the database"):
            await store.write([OpenRoom("r2", "ann", {})])
        assert await conn.fetchval("SELECT count(*) FROM rooms WHERE id = 'r2'") == 0
    finally:
        await conn.close()
        await lone.close()
        await store.close()
