"""Open rooms: a host lists a room; anyone sees it (rule set, racers, state) and may join;
taken off the list by its host or when it closes."""

from __future__ import annotations

import pytest

from scorpion_dev.server import Api, Client, ServerProcess, place_url

pytestmark = pytest.mark.backends  # the listing is kept in the store: every process sees it


async def test_a_listed_room_is_open_to_anyone(server: ServerProcess, api: Api) -> None:
    (_, ada), (_, bo) = await api.new_player("Ada"), await api.new_player("Bo")
    room = await api.new_room(ada, preset="easy", max_players=4, rated=True)
    assert (await api.call("GET", "/api/rooms")).json() == {"rooms": []}
    host = await Client.connect(place_url(server.ws_url, room=room), "ada")
    await host.hello(ada, room=room)
    assert (await host.call("join", **{"as": "player"}))["type"] == "applied"
    listed = await host.call("list", listed=True)
    assert listed["type"] == "applied" and listed["listed"] is True
    rooms = (await api.call("GET", "/api/rooms")).json()["rooms"]
    assert rooms == [
        {"room": room, "link": f"/r/{room}", "preset": "easy", "phase": "lobby", "racers": 1,
         "max_players": 4, "locked": False, "rated": True, "league": False, "host": "Ada",
         "spectators": 0}
    ]  # fmt: skip  # rated: whoever sits down there knows their rating is at stake
    # Anyone may join it: Bo, who has no link but the list.
    guest = await Client.connect(place_url(server.ws_url, room=room), "bo")
    await guest.hello(bo, room=room)
    assert (await guest.call("join", **{"as": "player"}))["type"] == "applied"
    assert (await api.call("GET", "/api/rooms")).json()["rooms"][0]["racers"] == 2
    refused = await guest.call("list", listed=False)
    assert refused["type"] == "refused" and refused["code"] == "not-creator"
    assert (await host.call("list", listed=False))["listed"] is False
    assert (await api.call("GET", "/api/rooms")).json() == {"rooms": []}
    for client in (host, guest):
        await client.close()
