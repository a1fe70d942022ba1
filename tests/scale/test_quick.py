"""The quick race on three processes (one PostgreSQL database, redis, nginx): one queue that
every process sees, a room formed of players who joined on different processes, their race
over real sockets, and waiting players kept when a process dies."""

from __future__ import annotations

from scorpion_dev.server import Api, Client, place_url
from web.test_quick import test_four_strangers_are_placed_in_a_fair_room_and_race

from .conftest import Cluster

__all__ = ["test_four_strangers_are_placed_in_a_fair_room_and_race"]


async def test_one_queue_across_processes_and_a_process_dying(cluster: Cluster) -> None:
    s0, s1, s2 = cluster.servers
    apis = [Api(s.url) for s in (s0, s1, s2)]
    try:
        people = [await apis[0].new_player(f"Racer {i}") for i in range(4)]
        # Two wait on s1; s1 dies; they are still waiting, as the other processes see.
        for _, token in people[:2]:
            r = await apis[1].call("POST", "/api/quick", token, {"preset": "classic"})
            assert r.status_code == 200 and r.json()["room"] is None
        s1.kill()
        r = await apis[2].call("GET", "/api/quick", people[0][1])
        assert r.status_code == 200 and r.json()["waiting"] == 2 and r.json()["room"] is None
        # The third joins on s2, the fourth on s0: the room forms there, for all four.
        r = await apis[2].call("POST", "/api/quick", people[2][1], {"preset": "classic"})
        assert r.json()["waiting"] == 3
        r = await apis[0].call("POST", "/api/quick", people[3][1], {"preset": "classic"})
        room = r.json()["room"]
        assert room
        for _, token in people[:3]:
            assert (await apis[2].call("GET", "/api/quick", token)).json()["room"] == room
        clients = []
        for pid, token in people:  # through nginx: the room's owner serves every socket
            client = await Client.connect(place_url(cluster.ws_url, room=room), pid)
            welcome = await client.hello(token, room=room)
            assert welcome["type"] == "welcome" and welcome["you"]["role"] == "player"
            clients.append(client)
        for client in clients:
            start = await client.expect(lambda f: f.get("event") == "start", timeout=30)
            assert sorted(start["players"]) == sorted(pid for pid, _ in people)
        for client in clients:
            await client.close()
    finally:
        for api in apis:
            await api.__aexit__()
