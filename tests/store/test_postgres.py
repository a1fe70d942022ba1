"""What only the PostgreSQL store does: migrations under concurrency, a kept secret,
waiting for the database at start and riding out a restart without losing a write."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from scorpion.store import AppendLog, OpenRoom, StoreUnavailable
from scorpion.store.base import NewerSchema
from scorpion.store.postgres import PostgresStore, kept_secret
from scorpion.store.postgres_connect import DatabaseRefused
from scorpion.store.postgres_schema import META, SCHEMA_V1, VERSION
from scorpion_dev.postgres import PostgresCluster, free_port


@pytest.fixture
def url(postgres: PostgresCluster) -> str:
    return postgres.new_database()


@pytest.fixture
async def store(url: str) -> AsyncIterator[PostgresStore]:
    s = PostgresStore(url)
    await s.open()
    yield s
    await s.close()


async def logged(caplog: pytest.LogCaptureFixture, text: str) -> None:
    """Wait until the store logs ``text`` (bounded: 20 s)."""
    for _ in range(2000):
        if any(text in r.getMessage() for r in caplog.records):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never logged {text!r}")


async def test_processes_starting_together_migrate_once(postgres: PostgresCluster) -> None:
    url = postgres.new_database()
    stores = [PostgresStore(url) for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    assert postgres.psql("SELECT value FROM meta WHERE key = 'schema'", url) == str(VERSION)
    for s in stores:
        await s.close()


async def test_a_version_1_database_is_migrated(postgres: PostgresCluster) -> None:
    url = postgres.new_database()
    postgres.psql(f"{META}; {SCHEMA_V1}; INSERT INTO meta VALUES ('schema', '1');"
                  "INSERT INTO players VALUES ('p', '\\x00', 'Old', 1)", url)  # fmt: skip
    store = PostgresStore(url)
    await store.open()
    old = await store.player("p")
    assert old is not None and old.name == "Old"
    assert await store.daily_deal("2026-11-29") is None  # version 2's table exists
    await store.close()
    postgres.psql("UPDATE meta SET value = '99' WHERE key = 'schema'", url)
    with pytest.raises(NewerSchema, match=r"newer than this server's .*roll forward"):
        await PostgresStore(url).open()


async def test_the_first_secret_is_kept_for_every_process(url: str) -> None:
    assert await kept_secret(url, "first") == "first"
    assert await kept_secret(url, "second") == "first"


async def test_open_waits_a_bounded_time_then_says_where_it_looked() -> None:
    url = f"postgresql://race:hush@127.0.0.1:{free_port()}/race"  # nothing listens there
    store = PostgresStore(url, start_wait=0.3)
    with pytest.raises(StoreUnavailable) as caught:
        await store.open()
    said = str(caught.value)
    assert said.startswith(f"no PostgreSQL at {url.split('@')[1].split('/')[0]} after 0.3 s: ")
    assert "hush" not in said and "\n" not in said


async def test_a_password_refused_or_an_unknown_host_is_not_waited_for(
    postgres: PostgresCluster,
) -> None:
    url = postgres.password_user("pw_store", "right")
    wrong = url.replace("://pw_store@", "://pw_store:wrong@")
    with pytest.raises(DatabaseRefused, match='password authentication failed for user "pw_store"'):
        await PostgresStore(wrong).open()  # at once, not after start_wait (60 s)
    with pytest.raises(DatabaseRefused, match=r"the host 'db\.invalid' is unknown"):
        await PostgresStore("postgresql://race:wrong@db.invalid/race").open()
    right = PostgresStore(url.replace("://pw_store@", "://pw_store:right@"))
    await right.open()
    assert await right.ping()
    await right.close()


async def test_open_waits_for_the_database(
    stoppable_postgres: PostgresCluster, url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "scorpion.store")
    stoppable_postgres.stop()
    store = PostgresStore(url)
    opening = asyncio.create_task(store.open())
    await logged(caplog, "waiting for PostgreSQL")
    assert not opening.done() and not await store.ping()
    await asyncio.to_thread(stoppable_postgres.start)
    await opening
    assert await store.ping()
    await store.close()


async def test_a_write_during_a_restart_is_committed_once_the_database_is_back(
    stoppable_postgres: PostgresCluster, store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "scorpion.store")
    await store.write([OpenRoom("r", None, {}), AppendLog("r", {"n": 1})])
    await asyncio.to_thread(stoppable_postgres.stop)
    assert not await store.ping()
    with pytest.raises(StoreUnavailable):
        await store.open_room_logs()  # reads do not wait: the web answers 503
    writing = asyncio.create_task(store.write([AppendLog("r", {"n": 2})]))
    await logged(caplog, "retrying a commit")
    assert not writing.done()  # not acknowledged while the database is away
    await asyncio.to_thread(stoppable_postgres.start)
    await writing
    assert await store.open_room_logs() == [("r", {"n": 1}), ("r", {"n": 2})]


async def test_a_long_outage_fails_the_write_and_keeps_nothing_of_it(
    stoppable_postgres: PostgresCluster, url: str
) -> None:
    store = PostgresStore(url, retry_for=0.2)
    await store.open()
    await store.write([OpenRoom("r", None, {})])
    await asyncio.to_thread(stoppable_postgres.stop)
    with pytest.raises(StoreUnavailable):
        await store.write([AppendLog("r", {"n": 1})])
    await asyncio.to_thread(stoppable_postgres.start)
    await store.write([AppendLog("r", {"n": 2})])
    assert await store.open_room_logs() == [("r", {"n": 2})]
    await store.close()
