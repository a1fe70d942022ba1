"""A league among friends over a real server: points per round by place, kept once, a
week's table and all time's, across a rematch and a restart of the server."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest

from scorpion.race.league import iso_week, points_for
from scorpion_dev.server import Api, Client, ServerProcess, place_url, this_rounds_board

pytestmark = pytest.mark.backends  # the points live in the store: SQLite and PostgreSQL


@dataclass
class Racer:
    client: Client
    id: str


async def league_race(
    server: ServerProcess, api: Api, names: list[str]
) -> tuple[str, dict[str, Racer], dict[str, str]]:
    """A league room (a random deal, time limit 1 minute) its racers have started."""
    tokens: dict[str, str] = {}
    ids: dict[str, str] = {}
    racers: dict[str, Racer] = {}
    for name in names:
        ids[name], tokens[name] = await api.new_player(name)
    room = await api.new_room(tokens[names[0]], time_limit=1, league=True)
    for name in names:
        client = await Client.connect(place_url(server.ws_url, room=room), name)
        await client.hello(tokens[name], room=room)
        assert (await client.call("join", **{"as": "player"}))["type"] == "applied"
        racers[name] = Racer(client, ids[name])
    for racer in racers.values():
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await racers[names[0]].client.call("start"))["type"] == "applied"
    return room, racers, tokens


async def both_race(round_: int, *racers: Racer) -> None:
    """A move each: a round scores only among racers who raced (docs/rules.md)."""
    for racer in racers:
        view = await this_rounds_board(racer.client, round_)
        moved = await racer.client.call("move", move=view["view"]["legal"][0])
        assert moved["type"] == "applied", moved


def table(body: dict[str, Any], which: str) -> list[tuple[str, int, int]]:
    return [(r["name"], r["points"], r["rounds"]) for r in body[which]]


async def test_a_league_keeps_points_per_round_across_a_rematch_and_a_restart(
    server: ServerProcess, api: Api
) -> None:
    # A league deals a deal nobody chose (random here); time_limit 1: whoever is still
    # playing when it runs out places above who gave up.
    room, racers, tokens = await league_race(server, api, ["Ada", "Bo"])
    ada, bo = racers["Ada"], racers["Bo"]
    await both_race(1, ada, bo)
    assert (await ada.client.call("give-up"))["type"] == "applied"
    results = await bo.client.expect(lambda f: f.get("event") == "results", timeout=15)
    points = {e["player"]: points_for(e["rank"]) for e in results["ranking"]}  # by place
    league = await bo.client.expect(lambda f: f.get("event") == "league-points", timeout=15)
    assert league["round"] == 1 and league["points"] == points
    body = (await api.call("GET", f"/api/rooms/{room}/league")).json()
    assert body["league"] is True and body["week"] == iso_week(time.time())
    assert body["points"] == [10, 7, 5, 4, 3, 2, 1]
    names = {ada.id: "Ada", bo.id: "Bo"}
    expected = sorted(((names[p], n, 1) for p, n in points.items()), key=lambda r: -r[1])
    if points[ada.id] == points[bo.id]:  # a tie: by wins, then by name
        expected.sort(key=lambda r: (-r[1], r[0]))
    assert table(body, "week_table") == expected
    assert table(body, "all_time") == table(body, "week_table")
    # A rematch: Bo gives up this time.
    assert (await ada.client.call("rematch", round=1))["type"] == "applied"
    for racer in (ada, bo):
        assert (await racer.client.call("ready"))["type"] == "applied"
    assert (await ada.client.call("start"))["type"] == "applied"
    await both_race(2, ada, bo)
    assert (await bo.client.call("give-up"))["type"] == "applied"
    results = await ada.client.expect(
        lambda f: f.get("event") == "results" and f["round"] == 2, timeout=15
    )
    second_points = {e["player"]: points_for(e["rank"]) for e in results["ranking"]}
    second = await ada.client.expect(
        lambda f: f.get("event") == "league-points" and f["round"] == 2, timeout=15
    )
    assert second["points"] == second_points
    total = {p: points[p] + second_points[p] for p in points}
    for racer in (ada, bo):
        await racer.client.close()
    server.stop()  # kept: a restarted server has the same tables and the same room
    server.start()
    body = (await api.call("GET", f"/api/rooms/{room}/league")).json()
    assert {r["name"]: (r["points"], r["rounds"]) for r in body["all_time"]} == {
        "Ada": (total[ada.id], 2),
        "Bo": (total[bo.id], 2),
    }
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
