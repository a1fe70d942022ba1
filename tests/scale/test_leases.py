"""Leases and fencing tokens on the real PostgreSQL: one owner at a time, and a write with
a token that is no longer current is refused by the database, whole."""

from __future__ import annotations

import asyncio

import pytest

from scorpion.cluster import Leases
from scorpion.store import AppendLog, Fence, Fenced, OpenRoom, StoreError
from scorpion.store.postgres import PostgresStore
from scorpion_dev.postgres import PostgresCluster


async def test_one_owner_then_a_takeover_fences_the_old_one(postgres: PostgresCluster) -> None:
    url = postgres.new_database()
    a, b = Leases(url, ttl=0.5), Leases(url, ttl=0.5)
    store = PostgresStore(url)
    await store.open()
    try:
        assert await a.open("host:8001") != await b.open("host:8002")
        assert not a.restarted and not b.restarted
        first = await a.take("room1")
        assert first is not None and await b.take("room1") is None
        assert await b.owner("room1") == (a.node, True)
        await store.write([Fence("room1", first), OpenRoom("room1", None, {})])
        assert await a.renew({"room1": first}) == {"room1"}

        for _ in range(50):  # a stops renewing (paused): its lease runs out
            if await b.moved({"room1": a.node}):
                break
            await asyncio.sleep(0.05)
        second = await b.take("room1")
        assert second is not None and second > first  # fencing tokens only grow

        # a wakes up: its write is refused whole (the log entry is not kept), b's goes in.
        with pytest.raises(Fenced):
            await store.write([Fence("room1", first), AppendLog("room1", {"t": "late"})])
        await store.write([Fence("room1", second), AppendLog("room1", {"t": "b"})])
        assert await store.room_log("room1") == [{"t": "b"}]
        assert await a.renew({"room1": first}) == set()  # a learns it lost the room
        # A current token but no such open room: refused for that, not as fenced.
        other = await b.take("room2")
        assert other is not None
        with pytest.raises(StoreError, match="no open room") as refused:
            await store.write([Fence("room2", other), AppendLog("room2", {"t": "b"})])
        assert not isinstance(refused.value, Fenced)

        await b.release({"room1": second})
        assert await a.take("room1") is not None  # released: taken at once
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_live_owners_name_each_held_place_and_skip_the_rest(
    postgres: PostgresCluster,
) -> None:
    # What a split daily's summary asks first: which process holds each shard of the day.
    url = postgres.new_database()
    a, b = Leases(url, ttl=0.5), Leases(url, ttl=30.0)
    try:
        await a.open("host:8001")
        await b.open("host:8002")
        shards = [f"daily:2026-12-01:{n}" for n in range(4)]
        assert await a.take(shards[0]) is not None
        assert await b.take(shards[1]) is not None
        held = await b.take(shards[2])
        assert held is not None
        await b.release({shards[2]: held})  # released: nobody holds it
        assert await a.live_owners(shards) in (
            {shards[0]: a.node, shards[1]: b.node},
            {shards[1]: b.node},  # a's short lease ran out already (a busy machine)
        )
        for _ in range(50):  # a stops renewing: its shard is nobody's once the lease runs out
            if shards[0] not in await b.live_owners(shards):
                break
            await asyncio.sleep(0.05)
        assert await b.live_owners(shards) == {shards[1]: b.node}
    finally:
        await a.close()
        await b.close()


async def test_a_process_at_an_address_seen_before_is_a_restart(postgres: PostgresCluster) -> None:
    # What hand-back needs to know: whose places the others may have taken meanwhile.
    url = postgres.new_database()
    first, other, again = Leases(url), Leases(url), Leases(url)
    try:
        await first.open("host:8001")
        await other.open("host:8002")
        await first.close()
        node = await again.open("host:8001")
        assert (first.restarted, other.restarted, again.restarted) == (False, False, True)
        assert node not in (first.node, other.node)  # a new node number all the same
    finally:
        await other.close()
        await again.close()
