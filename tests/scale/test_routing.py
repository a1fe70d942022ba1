"""nginx routes a place's sockets to its owner (the hash of ``/ws?room=...``), so their
commands cross no Redis; a socket that lands elsewhere anyway is forwarded and plays."""

from __future__ import annotations

import datetime as dt

from scorpion.race.daily import daily_seed
from scorpion.web.config import DAILY_SHARDS
from scorpion_dev.server import Api, Client, Replica, daily_url, metric, place_url, start_race

from .conftest import Cluster

DEAL = 4242


def forwarded(cluster: Cluster) -> float:
    return sum(metric(s, "scorpion_forwarded_commands_total") for s in cluster.servers)


async def test_every_socket_of_a_place_lands_on_its_owner(cluster: Cluster, api: Api) -> None:
    # Rooms created through nginx (on any process, which hands each over), raced by sockets
    # opened as the browser client opens them: the first hello takes the room where the
    # room's hash sends every socket of it.
    for n in range(4):
        names = [f"A{n}", f"B{n}"]
        _, racers, _ = await start_race(cluster.nginx, api, names, DEAL, time_limit=600)
        for racer in racers.values():
            for _ in range(2):
                assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
            await racer.client.close()
    # Two players of today's daily, and a practice opened twice (a reconnect).
    day = dt.datetime.now(dt.UTC).date().isoformat()
    for name in ("Dee", "Eve"):
        player, token = await api.new_player(name)
        url = daily_url(cluster.ws_url, day, player, DAILY_SHARDS)
        client = await Client.connect(url, name)
        assert (await client.hello(token, daily=day))["type"] == "welcome"
        assert (await client.call("start"))["type"] == "applied"
        replica = Replica(client, player, daily_seed(b"test-secret", day))
        assert (await replica.act("move", move=replica.pick()))["type"] == "applied"
        await client.close()
    player, token = await api.new_player("Fay")
    for _ in range(2):
        client = await Client.connect(place_url(cluster.ws_url, practice=player), "Fay")
        assert (await client.hello(token, practice=True))["type"] == "welcome"
        assert (await client.call("ping"))["type"] == "applied"
        await client.close()
    # Eight racers, two daily players, a practice: every command was applied by the
    # process holding its socket.
    assert forwarded(cluster) == 0, cluster.logs()


async def test_a_socket_on_another_process_is_forwarded_and_races(
    cluster: Cluster, api: Api
) -> None:
    ids, tokens = {}, {}
    for name in ("Ann", "Bob"):
        ids[name], tokens[name] = await api.new_player(name)
    room = await api.new_room(tokens["Ann"], deal=DEAL, time_limit=600)
    clients = {"Ann": await Client.connect(place_url(cluster.ws_url, room=room), "Ann")}
    assert (await clients["Ann"].hello(tokens["Ann"], room=room))["type"] == "welcome"
    owners = [s for s in cluster.servers if metric(s, "scorpion_places_owned") > 0]
    assert len(owners) == 1
    elsewhere = next(s for s in cluster.servers if s is not owners[0])
    # Bob's socket skips the proxy: it reaches a process that does not own the room.
    clients["Bob"] = await Client.connect(elsewhere.ws_url, "Bob")
    assert (await clients["Bob"].hello(tokens["Bob"], room=room))["type"] == "welcome"
    racers = {}
    for name, client in clients.items():
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
        racers[name] = Replica(client, ids[name], DEAL)
    for racer in racers.values():
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await racers["Ann"].client.call("start"))["type"] == "applied"
    for racer in racers.values():
        await racer.client.expect(lambda f: f.get("event") == "start")
    for _ in range(3):
        for racer in racers.values():
            assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
    progress = await racers["Ann"].client.progress(ids["Bob"], lambda p: p["moves"] == 3)
    assert progress["status"] == "playing"
    assert metric(elsewhere, "scorpion_forwarded_sockets") == 1
    assert metric(elsewhere, "scorpion_forwarded_commands_total") == 5  # join, ready, moves
    assert metric(owners[0], "scorpion_forwarded_commands_total") == 0
