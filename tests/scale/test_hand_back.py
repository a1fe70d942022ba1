"""Hand-back: a place that moved while the process its hash names was away goes back to
that process once it is back (real processes behind nginx on PostgreSQL and Redis); the
racers reconnect by themselves, as the browser client does, and lose no acknowledged move."""

from __future__ import annotations

import asyncio
import time

from websockets.exceptions import ConnectionClosed, InvalidStatus

from scorpion_dev.failover import lease_owner
from scorpion_dev.server import Api, Client, Replica, last_version, metric, place_url, start_race

from .conftest import Cluster

DEAL = 4242


async def reconnect(racer: Replica, token: str, ws_url: str, room: str) -> Client:
    """What the client does after a 1001: reconnect through the proxy with the last
    version it saw, until welcomed; the board must be exactly its acknowledged one."""
    seen = last_version(racer.client)
    deadline = time.monotonic() + 20
    while True:
        try:
            client = await Client.connect(place_url(ws_url, room=room), racer.client.name, 5)
            welcome = await client.hello(token, room=room, last_version=seen)
            if welcome["type"] == "welcome":
                break
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        assert time.monotonic() < deadline, "not welcomed back"
        await asyncio.sleep(0.1)  # the client's own back-off between attempts
    assert welcome["view"] == racer.own_view()
    client.seq = welcome["last_seq"]
    racer.client = client
    return client


async def watch_and_come_home(
    cluster: Cluster, api: Api, racers: dict[str, Replica], tokens: dict[str, str], room: str
) -> None:
    """A new socket of the room through the proxy (forwarded, so the keeper is asked to
    hand the room back); then each racer, told 1001, reconnects through the proxy and moves."""
    watcher = await Client.connect(place_url(cluster.ws_url, room=room), "watcher")
    _, viewer_token = await api.new_player("Vi")
    assert (await watcher.hello(viewer_token, room=room))["type"] == "welcome"
    for name, racer in racers.items():
        assert (await racer.client.closed())[0] == 1001
        await reconnect(racer, tokens[name], cluster.ws_url, room)
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"


async def test_a_place_goes_back_to_its_process_when_it_is_back(cluster: Cluster, api: Api) -> None:
    room, racers, tokens = await start_race(cluster.nginx, api, ["Ann", "Bob"], DEAL)
    for racer in racers.values():
        for _ in range(2):
            assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    home = next(s for s in cluster.servers if metric(s, "scorpion_places_owned") > 0)
    # The room's process stops (a deploy): it hands the room over first (so a racer's
    # reconnection is not forwarded back to it), and they reconnect to the next on the ring.
    home.stop()
    assert "stopping: places handed over: 1" in home.log()
    for name, racer in racers.items():
        assert (await racer.client.closed())[0] == 1001
        await reconnect(racer, tokens[name], cluster.ws_url, room)
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    keeper = next(s for s in cluster.servers if s.running and metric(s, "scorpion_places_owned"))
    assert keeper is not home
    # It is back: the hash names it again. A new socket of the room lands there, is
    # forwarded, and the keeper is asked to hand the room back: it closes its sockets
    # (1001) once no command is in flight and releases the lease.
    home.start()
    await watch_and_come_home(cluster, api, racers, tokens, room)
    assert metric(keeper, "scorpion_places_handed_back_total") == 1
    # Every socket of the room is on its owner, the process the hash names: none forwarded.
    owner = await lease_owner(cluster.database, room)
    assert metric(home, "scorpion_places_owned") >= 1 and owner is not None
    assert all(metric(s, "scorpion_forwarded_sockets") == 0 for s in cluster.servers)
    progress = await racers["Ann"].client.progress(
        racers["Bob"].id, lambda p: p["moves"] == 4, timeout=10
    )
    assert progress["status"] == "playing"


async def test_a_place_taken_while_the_proxy_skipped_its_process_goes_back(
    cluster: Cluster, api: Api
) -> None:
    """nginx skips a process for fail_timeout (10 s) after it refused a connection, so a
    place may be taken over elsewhere after its process is back up: it goes back too, at
    the first socket the hash sends to its process."""
    room, racers, tokens = await start_race(cluster.nginx, api, ["Ann", "Bob"], DEAL)
    for racer in racers.values():
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    home = next(s for s in cluster.servers if metric(s, "scorpion_places_owned") > 0)
    home.stop()
    for racer in racers.values():
        assert (await racer.client.closed())[0] == 1001
    home.start()
    # Back up, but the racers' reconnections reach another process (as through a proxy
    # still skipping it): that one takes the room over from its log.
    keeper = next(s for s in cluster.servers if s is not home)
    for name, racer in racers.items():
        await reconnect(racer, tokens[name], keeper.ws_url, room)
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    assert metric(keeper, "scorpion_places_owned") == 1
    # A new socket through the proxy lands on the process the hash names: forwarded, and
    # the keeper asked to hand the room back, which it does though it took it after the
    # home process started.
    await watch_and_come_home(cluster, api, racers, tokens, room)
    assert metric(keeper, "scorpion_places_handed_back_total") == 1
    assert (await lease_owner(cluster.database, room)) is not None
    assert metric(home, "scorpion_places_owned") == 1
    assert all(metric(s, "scorpion_forwarded_sockets") == 0 for s in cluster.servers)
