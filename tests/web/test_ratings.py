"""Rated friends' rooms over a real server: unrated unless the host turns rating on; then
each round is rated once per rule set, a leaver loses as the last."""

from __future__ import annotations

import pytest

from scorpion_dev.server import Api, ServerProcess, start_race, this_rounds_board

pytestmark = pytest.mark.backends  # ratings live in the store: SQLite and PostgreSQL


async def test_a_friends_room_is_rated_once_its_host_turns_rating_on(
    server: ServerProcess, api: Api
) -> None:
    # time_limit 1: Bo is still playing when the clock runs out, Ada gave up (last).
    room, racers, _ = await start_race(server, api, ["Ada", "Bo"], deal=7, time_limit=1)
    ada, bo = racers["Ada"], racers["Bo"]
    assert (await ada.client.call("give-up"))["type"] == "applied"
    await bo.client.expect(lambda f: f.get("event") == "results", timeout=15)
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert summary["settings"]["rated"] is False and summary["ratings"] is None
    # Back to the lobby: the host rates the room from the next round on.
    assert (await bo.client.call("rating", rated=True))["code"] == "not-creator"
    assert (await ada.client.call("rematch", round=1))["type"] == "applied"
    answer = await ada.client.call("rating", rated=True)
    assert answer["type"] == "applied" and answer["rated"] is True
    await bo.client.expect(lambda f: f.get("event") == "rating" and f["rated"] is True)
    for racer in (ada, bo):
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await ada.client.call("start"))["type"] == "applied"
    assert (await ada.client.call("rating", rated=False))["code"] == "not-in-lobby"
    # Both race (a move each), then Ada gives up: only racing moves a rating up, and only
    # against racers who raced (docs/rules.md, "Ratings").
    for racer in (ada, bo):
        view = await this_rounds_board(racer.client, 2)
        moved = await racer.client.call("move", move=view["view"]["legal"][0])
        assert moved["type"] == "applied", moved
    assert (await ada.client.call("give-up"))["type"] == "applied"
    rated = await bo.client.expect(lambda f: f.get("event") == "rated", timeout=15)
    assert rated["round"] == 2
    changes = rated["ratings"]
    assert changes[bo.id]["change"] > 0 > changes[ada.id]["change"]  # Ada left: last
    assert all(c["before"] == 1000 and c["races"] == 1 for c in changes.values())
    mine = (await api.call("GET", f"/api/players/{ada.id}/ratings")).json()
    assert [(h["room"], h["round"], h["place"]) for h in mine["history"]] == [(room, 2, 2)]
    assert mine["ratings"]["classic"]["races"] == 1  # round 1 was unrated; round 2 once
    for racer in (ada, bo):
        await racer.client.close()


async def test_a_rated_room_or_a_league_never_deals_a_number_its_host_chose(api: Api) -> None:
    # Whoever picks a deal's number may know its face-down cards (an earlier race's results
    # show it; the engine deals it anywhere): no rating and no league points on it.
    _, token = await api.new_player("Ada")
    for stake in ("rated", "league"):
        answer = await api.call("POST", "/api/rooms", token, {"deal": 7, stake: True})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == "bad-settings"
        assert "nobody chose" in answer.json()["error"]["message"]
    answer = await api.call("POST", "/api/rooms", token, {"deal": "winnable", "rated": True})
    assert answer.status_code == 201
