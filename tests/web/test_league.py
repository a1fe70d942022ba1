"""A league among friends over a real server: points per round by place, kept once, a
week's table and all time's, across a rematch and a restart of the server."""

from __future__ import annotations

import time
from typing import Any

import pytest

from scorpion.race.league import iso_week
from support.server import Api, Client, ServerProcess, place_url, start_race

pytestmark = pytest.mark.backends  # the points live in the store: SQLite and PostgreSQL


def table(body: dict[str, Any], which: str) -> list[tuple[str, int, int]]:
    return [(r["name"], r["points"], r["rounds"]) for r in body[which]]


async def test_a_league_keeps_points_per_round_across_a_rematch_and_a_restart(
    server: ServerProcess, api: Api
) -> None:
    # time_limit 1: whoever is still playing when it runs out places above who gave up.
    room, racers, tokens = await start_race(
        server, api, ["Ada", "Bo"], deal=7, time_limit=1, league=True
    )
    ada, bo = racers["Ada"], racers["Bo"]
    assert (await ada.client.call("give-up"))["type"] == "applied"
    league = await bo.client.expect(lambda f: f.get("event") == "league", timeout=15)
    assert league["round"] == 1 and league["points"] == {bo.id: 10, ada.id: 7}
    body = (await api.call("GET", f"/api/rooms/{room}/league")).json()
    assert body["league"] is True and body["week"] == iso_week(time.time())
    assert body["points"] == [10, 7, 5, 4, 3, 2, 1]
    assert table(body, "week_table") == [("Bo", 10, 1), ("Ada", 7, 1)]
    assert table(body, "all_time") == table(body, "week_table")
    # A rematch: Bo gives up this time.
    assert (await ada.client.call("rematch", round=1))["type"] == "applied"
    for racer in (ada, bo):
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await ada.client.call("start"))["type"] == "applied"
    await ada.client.expect(lambda f: f.get("event") == "start", timeout=10)
    assert (await bo.client.call("give-up"))["type"] == "applied"
    second = await ada.client.expect(
        lambda f: f.get("event") == "league" and f["round"] == 2, timeout=15
    )
    assert second["round"] == 2 and second["points"] == {ada.id: 10, bo.id: 7}
    for racer in (ada, bo):
        await racer.client.close()
    server.stop()  # kept: a restarted server has the same tables and the same room
    server.start()
    body = (await api.call("GET", f"/api/rooms/{room}/league")).json()
    assert table(body, "all_time") == [("Ada", 17, 2), ("Bo", 17, 2)]
    assert [r["rank"] for r in body["all_time"]] == [1, 1]  # equal points, one win each
    assert body["league"] is True
    old = (await api.call("GET", f"/api/rooms/{room}/league?week=2020-W01")).json()
    assert old["week_table"] == [] and table(old, "all_time") == table(body, "all_time")
    bad = await api.call("GET", f"/api/rooms/{room}/league?week=soon")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad-week"
    assert (await api.call("GET", "/api/rooms/nosuchroom/league")).status_code == 404
    client = await Client.connect(place_url(server.ws_url, room=room), "Ada again")
    welcome = await client.hello(tokens["Ada"], room=room)  # the same link, the same league
    assert welcome["state"]["settings"]["league"] is True
    await client.close()
