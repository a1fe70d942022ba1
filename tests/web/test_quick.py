"""The quick race over real HTTP and sockets: the queue, a room formed of four strangers
racing a fair winnable deal, and every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from scorpion_dev.server import Api, Client, ServerProcess, place_url, start_race

pytestmark = pytest.mark.backends  # the queue lives in the store: SQLite and PostgreSQL


async def players(api: Api, n: int) -> list[tuple[str, str]]:
    return [await api.new_player(f"Racer {i}") for i in range(n)]


async def join(api: Api, token: str, preset: str = "classic") -> tuple[int, Any]:
    r = await api.call("POST", "/api/quick", token, {"preset": preset})
    return r.status_code, r.json()


async def test_four_strangers_are_placed_in_a_fair_room_and_race(
    server: ServerProcess, api: Api
) -> None:
    people = await players(api, 4)
    for i, (_, token) in enumerate(people[:3]):
        code, status = await join(api, token)
        assert code == 200 and status["queued"] and status["room"] is None
        assert status["waiting"] == i + 1 and status["preset"] == "classic"
    code, status = await join(api, people[3][1])  # the fourth forms the room at once
    assert code == 200 and status["room"] and status["link"] == f"/r/{status['room']}"
    room = status["room"]
    for _, token in people[:3]:  # the others find it when they next ask
        r = await api.call("GET", "/api/quick", token)
        assert r.status_code == 200 and r.json()["room"] == room
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert summary["quick_race"] is True
    assert (summary["settings"]["undo"], summary["settings"]["hints"]) == ("fair", False)
    assert summary["settings"]["auto"] is False and summary["settings"]["deal"] == "winnable"
    clients = []
    for pid, token in people:
        client = await Client.connect(place_url(server.ws_url, room=room), pid)
        welcome = await client.hello(token, room=room)
        assert welcome["you"]["role"] == "player"  # seated on arrival: nobody presses Start
        clients.append(client)
    for client in clients:
        countdown = await client.expect(lambda f: f.get("event") == "countdown", timeout=30)
        assert sorted(countdown["players"]) == sorted(pid for pid, _ in people)
        await client.expect(lambda f: f.get("event") == "start", timeout=10)
    refused = await clients[0].call("hint")
    assert refused["type"] == "refused" and refused["code"] == "hints-not-allowed"
    # Racing: no second queue meanwhile.
    code, body = await join(api, people[0][1], "easy")
    assert code == 409 and body["error"]["code"] == "in-race"
    for client in clients:
        await client.close()


async def test_queue_status_leave_and_refusals(api: Api) -> None:
    (_, ada), (_, bo) = await players(api, 2)
    code, status = await join(api, ada, "easy")
    assert code == 200 and (status["waiting"], status["room"]) == (1, None)
    assert (status["room_size"], status["min_racers"]) == (4, 2)
    code, body = await join(api, ada, "classic")  # one queue at a time
    assert code == 409 and body["error"]["code"] == "already-queued"
    assert body["error"]["status"]["preset"] == "easy"
    code, status = await join(api, ada, "easy")  # again (a second tab): no change
    assert code == 200 and status["waiting"] == 1
    code, status = await join(api, bo, "easy")
    assert code == 200 and status["waiting"] == 2  # waits for more, or the short wait
    r = await api.call("DELETE", "/api/quick", ada)
    assert r.status_code == 200 and r.json() == {"queued": False}
    r = await api.call("GET", "/api/quick", bo)
    assert r.json()["waiting"] == 1
    r = await api.call("GET", "/api/quick", ada)
    assert r.json() == {"queued": False}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"preset": "chess"}, "unknown-preset"),
        ({"preset": 3}, "bad-field"),
        ({"preset": "classic", "rated": False}, "bad-field"),
    ],
)
async def test_bad_requests_change_nothing(api: Api, body: dict[str, Any], code: str) -> None:
    _, token = await api.new_player("Ada")
    r = await api.call("POST", "/api/quick", token, body)
    assert r.status_code == 400 and r.json()["error"]["code"] == code
    assert (await api.call("GET", "/api/quick", token)).json() == {"queued": False}
    assert (await api.call("GET", "/api/quick")).status_code == 401


async def test_a_quick_race_is_rated_once_and_the_results_show_it(
    server: ServerProcess, api: Api
) -> None:
    people = await players(api, 4)
    for _, token in people:
        code, status = await join(api, token, "easy")
        assert code == 200
    room = status["room"]
    clients = []
    for pid, token in people:
        client = await Client.connect(place_url(server.ws_url, room=room), pid)
        await client.hello(token, room=room)
        clients.append(client)
    for client in clients:
        await client.expect(lambda f: f.get("event") == "start", timeout=30)
    for client in clients[:3]:  # three give up; the last one leaves: all last, tied
        assert (await client.call("give-up"))["type"] == "applied"
    assert (await clients[3].call("leave"))["type"] == "applied"
    rated = await clients[0].expect(lambda f: f.get("event") == "rated", timeout=30)
    ratings = rated["ratings"]
    assert rated["round"] == 1 and sorted(ratings) == sorted(pid for pid, _ in people)
    for change in ratings.values():
        assert change["before"] == 1000 and change["races"] == 1 and change["provisional"]
        assert change["change"] == change["after"] - change["before"]
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert summary["ratings"] == ratings  # a reload shows them too
    mine = (await api.call("GET", f"/api/players/{people[0][0]}/ratings")).json()
    assert mine["ratings"]["easy"]["races"] == 1 and mine["ratings"]["easy"]["provisional"]
    assert [(h["room"], h["round"]) for h in mine["history"]] == [(room, 1)]
    board = (await api.call("GET", "/api/ratings/easy")).json()
    assert board == {"preset": "easy", "min_races": 10, "rows": []}  # 10 races to be listed
    assert (await api.call("GET", "/api/ratings/chess")).status_code == 404
    # A rematch among the same strangers is not rated (a friends' round).
    assert (await clients[0].call("rematch", round=1))["type"] == "applied"
    for client in clients:
        await client.close()


async def test_a_friends_room_race_and_the_queue_are_one_race_at_a_time(
    server: ServerProcess, api: Api
) -> None:
    """Racing in a friends' room: the queue refuses; a waiting player whose room race
    starts (another tab) leaves the queue; once their game is over they may queue."""
    _, waiting = await api.new_player("Waiter")
    code, status = await join(api, waiting)
    assert code == 200 and status["queued"]
    _, racers, tokens = await start_race(server, api, ["Ada", "Bo"], deal=7)
    code, body = await join(api, tokens["Ada"], "easy")
    assert code == 409 and body["error"]["code"] == "in-race"
    assert "racing in a room" in body["error"]["message"]
    racing = (await api.call("GET", "/api/quick", tokens["Ada"])).json()
    assert (racing["queued"], racing["left"]) == (False, "in-race")
    # A queued player sits down in a friends' room in another tab; its race starts.
    code, status = await join(api, tokens["Ada"], "classic")
    assert code == 409  # still racing
    assert (await racers["Ada"].client.call("give-up"))["type"] == "applied"
    code, status = await join(api, tokens["Ada"])  # her game is over: she may queue
    assert code == 200 and status["queued"] and status["waiting"] == 2
    room2 = await api.new_room(tokens["Bo"], deal=9)
    ada = await Client.connect(place_url(server.ws_url, room=room2), "Ada 2")
    await ada.hello(tokens["Ada"], room=room2)
    bo = await Client.connect(place_url(server.ws_url, room=room2), "Bo 2")
    await bo.hello(tokens["Bo"], room=room2)
    for client in (ada, bo):
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
        assert (await client.call("ready"))["type"] == "applied"
    assert (await bo.call("start"))["type"] == "applied"
    await ada.expect(lambda f: f.get("event") == "countdown", timeout=10)
    left = (await api.call("GET", "/api/quick", tokens["Ada"])).json()
    assert left["queued"] is False and left["left"] == "in-race" and left["message"]
    waiter = (await api.call("GET", "/api/quick", waiting)).json()
    assert waiter["queued"] and waiter["waiting"] == 1 and waiter["room"] is None
    for client in (ada, bo, *(r.client for r in racers.values())):
        await client.close()
