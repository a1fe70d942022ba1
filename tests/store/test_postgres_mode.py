"""scorpion.store.postgres_mode: one lone process or a cluster per database, and writes
refused once the hold is lost."""

from __future__ import annotations

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
from scorpion_dev.postgres import PostgresCluster


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


async def test_writes_are_refused_once_another_process_took_the_database(url: str) -> None:
    store = PostgresStore(url)
    await store.open()
    store.mode = lone = ModeLock(url, cluster=False)
    await lone.take()
    await store.write([OpenRoom("r1", "ann", {})])
    conn = await asyncpg.connect(url)
    try:
        # Its lock connection ends: nobody took the database yet, so it writes on.
        await conn.fetchval("SELECT pg_terminate_backend($1)", lone.pid)
        await conn.execute("SELECT pg_advisory_lock($1)", MODE_LOCK)  # once that one ended
        await conn.execute("SELECT pg_advisory_unlock($1)", MODE_LOCK)
        await store.write([OpenRoom("r2", "ann", {})])
        # Another lone process takes it: from then on every write of the first is refused.
        other = ModeLock(url, cluster=False)
        await other.take()
        assert other.token != lone.token
        with pytest.raises(Fenced, match="another process holds the database now"):
            await store.write([OpenRoom("r3", "ann", {})])
        rooms = await conn.fetchval("SELECT string_agg(id, ',' ORDER BY id) FROM rooms")
        assert rooms == "r1,r2"
        # Taken again, the lock is refused to the first one: it must stop.
        with pytest.raises(ModeRefused):
            await lone.take()
        await other.close()
        with pytest.raises(ModeRefused, match="took this database while this one had lost"):
            await lone.take()
    finally:
        await conn.close()
        await lone.close()
        await store.close()
