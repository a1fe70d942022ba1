"""Faults with three processes: an owner paused past its lease, Redis restarted,
PostgreSQL restarted. Nothing acknowledged is lost in any of them."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from typing import Any

import httpx

from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import Api, Client, Replica, ServerProcess, last_version

from .conftest import Cluster

DEAL = 4242


async def race_on(
    owner: ServerProcess, sockets: dict[str, ServerProcess], api: Api
) -> tuple[str, dict[str, Replica], dict[str, str]]:
    """A race owned by the process of the first socket (its hello takes the new room), the
    room created through ``owner``; each racer's socket on the process given."""
    ids, tokens = {}, {}
    for name in sockets:
        ids[name], tokens[name] = await api.new_player(name)
    creator = next(iter(sockets))
    async with Api(owner.url) as direct:
        room = await direct.new_room(tokens[creator], deal=DEAL, time_limit=600)
    racers: dict[str, Replica] = {}
    for name, server in sockets.items():
        client = await Client.connect(server.ws_url, name)
        assert (await client.hello(tokens[name], room=room))["type"] == "welcome"
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
        racers[name] = Replica(client, ids[name], DEAL)
    for racer in racers.values():
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await racers[creator].client.call("start"))["type"] == "applied"
    for racer in racers.values():
        await racer.client.expect(lambda f: f.get("event") == "start")
    return room, racers, tokens


async def owner_and_forwarded(
    s0: ServerProcess, s1: ServerProcess, api: Api
) -> tuple[str, tuple[Replica, Replica], dict[str, str]]:
    """A race owned by s0: Ann's socket on s0, Bob's on s1 (forwarded); a move each."""
    room, racers, tokens = await race_on(s0, {"Ann": s0, "Bob": s1}, api)
    for racer in racers.values():
        await move(racer)
    return room, (racers["Ann"], racers["Bob"]), tokens


async def move(racer: Replica) -> None:
    answer = await racer.act("move", move=racer.pick())
    assert answer["type"] == "applied", answer


async def back(racer: Replica, server: ServerProcess, token: str, room: str) -> dict[str, Any]:
    """Reconnect with last_version; the board is exactly the last acknowledged one."""
    client = await Client.connect(server.ws_url, racer.client.name)
    welcome = await client.hello(token, room=room, last_version=last_version(racer.client))
    assert welcome["type"] == "welcome", welcome
    assert welcome["view"] == racer.own_view()
    client.seq = welcome["last_seq"]
    racer.client = client
    return welcome


async def readyz(server: ServerProcess) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        answer: dict[str, Any] = (await http.get(server.url + "/readyz")).json()
        return answer


async def until(check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "not reached in time"
        await asyncio.sleep(0.1)


async def metric(server: ServerProcess, name: str) -> float:
    async with httpx.AsyncClient() as http:
        text = (await http.get(server.url + "/metrics")).text
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found is not None, name
    return float(found.group(1))


async def test_a_paused_owner_is_fenced_and_its_sockets_reconnect(
    cluster: Cluster, api: Api
) -> None:
    s0, s1, _ = cluster.servers
    room, (ann, bob), tokens = await owner_and_forwarded(s0, s1, api)
    # Bob's socket is forwarded from s1 to s0 over Redis: both count it.
    assert await metric(s1, "scorpion_redis_configured") == 1
    assert await metric(s1, "scorpion_forwarded_sockets") == 1
    assert await metric(s1, "scorpion_redis_published_total") >= 1  # his hello and move
    assert await metric(s0, "scorpion_redis_received_total") >= 1
    assert await metric(s1, "scorpion_forwarded_frames_total") >= 2  # welcome, applied
    assert await metric(s0, "scorpion_places_owned") >= 1
    assert await metric(s1, "scorpion_lease_takeovers_total") == 0
    assert s0.proc is not None
    os.kill(s0.proc.pid, signal.SIGSTOP)
    try:
        # Ann's move reaches the paused owner's socket; nothing can answer it now.
        pending = await ann.client.command("move", move=ann.pick())
        # Bob's process sees the lease run out and tells him to reconnect; his hello takes
        # the room over (a new fencing token) and he plays on.
        code, _ = await bob.client.closed(timeout=15)
        assert code == 1001
        await back(bob, s1, tokens["Bob"], room)
        await move(bob)
    finally:
        os.kill(s0.proc.pid, signal.SIGCONT)
    # The owner wakes up: its lease is gone, its write (if it tried one) refused by the
    # token; Ann's move is never acknowledged and her socket is told to reconnect.
    code, _ = await ann.client.closed(timeout=15)
    assert code in (1001, 1011)
    assert not any(
        f.get("seq") == pending and f.get("type") == "applied" for f in ann.client.frames
    )
    assert "lost the lease" in s0.log() or "owned elsewhere" in s0.log()
    await back(ann, s1, tokens["Ann"], room)
    await move(ann)
    # s1 took the room from a lease that ran out; s0 found it lost, or its write fenced.
    assert await metric(s1, "scorpion_lease_takeovers_total") >= 1
    lost = await metric(s0, "scorpion_leases_lost_total")
    assert lost + await metric(s0, "scorpion_fenced_writes_total") >= 1


async def test_redis_restarted_degrades_only_what_crosses_processes(
    cluster: Cluster, api: Api
) -> None:
    s0, s1, _ = cluster.servers
    room, (ann, bob), tokens = await owner_and_forwarded(s0, s1, api)
    cluster.redis.stop()
    try:
        await until(lambda: _degraded(s0, True))
        metrics = httpx.get(s0.url + "/metrics").text
        assert "scorpion_redis_up 0.0" in metrics
        # Bob's socket, forwarded over Redis, is told to retry later...
        assert (await bob.client.closed(timeout=15))[0] == 1013
        retry = await Client.connect(s1.ws_url, "bob")
        refused = await retry.hello(tokens["Bob"], room=room)
        assert refused["type"] == "refused" and (await retry.closed())[0] == 1013
        # ...while Ann, on the room's owner, keeps playing: moves acknowledged (written).
        await move(ann)
        await move(ann)
    finally:
        cluster.redis.start()
    await until(lambda: _degraded(s0, False))
    await until(lambda: _degraded(s1, False))
    await back(bob, s1, tokens["Bob"], room)
    await move(bob)
    progress = await ann.client.progress(bob.id, lambda p: p["moves"] == 2)
    assert progress["status"] == "playing"


async def _degraded(server: ServerProcess, expected: bool) -> bool:
    return ("redis" in (await readyz(server)).get("degraded", [])) == expected


async def test_postgresql_restarted_under_load_loses_nothing_acknowledged(
    cluster: Cluster, api: Api, stoppable_postgres: PostgresCluster
) -> None:
    s0, s1, s2 = cluster.servers
    room, racers, tokens = await race_on(s0, {"Ann": s0, "Bob": s1, "Cy": s2}, api)
    for racer in racers.values():
        await move(racer)
    stoppable_postgres.stop()
    try:
        # Every racer tries a move while the database is down: it is acknowledged only if
        # it was written (when the database came back in time), never falsely.
        pending = {
            name: await r.client.command("move", move=r.pick()) for name, r in racers.items()
        }
    finally:
        stoppable_postgres.start()
    for name, racer in racers.items():
        answer = await _answer_or_close(racer.client, pending[name])
        if answer is not None and answer["type"] == "applied":
            racer.apply(answer["move"])
            assert answer["view"] == racer.own_view()
    # Everyone comes back (through the first process) to exactly their acknowledged board, plays on.
    for name, racer in racers.items():
        await _rejoin(cluster, racer, tokens[name], room)
        await move(racer)


async def _answer_or_close(client: Client, seq: int) -> dict[str, Any] | None:
    """The answer to ``seq``, or None when the socket closed first."""
    from websockets.exceptions import ConnectionClosed

    try:
        return await client.answer(seq, timeout=30)
    except ConnectionClosed:
        return None


async def _rejoin(cluster: Cluster, racer: Replica, token: str, room: str) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            await racer.client.close()
            await back(racer, cluster.servers[0], token, room)
            return
        except AssertionError:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
