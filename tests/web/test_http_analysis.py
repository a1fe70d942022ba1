"""GET /api/games/{id}/analysis over a real server: who may see it when, pending, stored."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import Any

from scorpion.engine import Game
from scorpion.solver import solve
from scorpion_dev.server import Api, Client, ServerProcess, start_race

DEAL = 3  # classic deal 3 is winnable


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


async def analysed(api: Api, game_id: str, token: str | None = None) -> dict[str, Any]:
    """Ask until the analysis is done (the documented way: ``pending``, ask again later)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = await api.call("GET", f"/api/games/{game_id}/analysis", token)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] != "pending":
            assert body["status"] == "done", body
            return body
        await asyncio.sleep(0.1)  # what a polite client does between two asks
    raise AssertionError(f"no analysis of {game_id} within 60 s")


async def my_games(api: Api, token: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = (await api.call("GET", "/api/me/games", token)).json()["games"]
    return games


async def test_a_race_game_is_analysed_once_its_results_are_out(
    server: ServerProcess, api: Api
) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
    ann, bob = racers["Ann"], racers["Bob"]
    line = solve(Game.new(DEAL, "classic")).line
    for move in line[:2]:
        assert (await ann.act("move", move=move))["type"] == "applied"
    assert (await ann.act("give-up"))["type"] == "applied"
    ann_game = f"{room}:1:{ann.id}"
    url = f"/api/games/{ann_game}/analysis"
    early = await api.call("GET", url, tokens["Ann"])  # Bob still races on the same deal
    assert (early.status_code, early.json()["error"]["code"]) == (403, "analysis-not-yet")
    missing = await api.call("GET", f"/api/games/{room}:1:nobody/analysis")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "unknown-game")
    assert (await bob.act("give-up"))["type"] == "applied"
    await ann.client.expect(lambda f: f.get("event") == "results")

    body = await analysed(api, ann_game)  # anyone may see it now, no token needed
    analysis = body["analysis"]
    assert analysis["outcome"] == "slipped"
    assert analysis["verdicts"] == ["winnable", "winnable", "lost"]  # one per action
    assert analysis["turning_point"] == {"index": 2, "move": "give-up", "kept": line[2]}

    server.stop()  # stored: a restarted server answers at once
    server.start()
    r = await api.call("GET", url)
    assert r.json() == {"game": ann_game, "status": "done", "analysis": analysis}


async def test_todays_daily_is_refused_and_a_past_days_allowed(
    server: ServerProcess, api: Api
) -> None:
    _, token = await api.new_player("Ann")
    day = today()
    client = await Client.connect(server.ws_url, "ann")
    await client.hello(token, daily=day)
    assert (await client.call("start"))["ranked"] is True
    assert (await client.call("give-up"))["type"] == "applied"
    (game,) = await my_games(api, token)
    r = await api.call("GET", f"/api/games/{game['id']}/analysis", token)  # even her own
    assert (r.status_code, r.json()["error"]["code"]) == (403, "analysis-not-yet")
    assert "day closes" in r.json()["error"]["message"]

    # Two days back: closed whatever the hour (yesterday's day closes at 01:00 UTC).
    yesterday = (dt.date.fromisoformat(day) - dt.timedelta(days=2)).isoformat()
    old = await Client.connect(server.ws_url, "old")
    await old.hello(token, daily=yesterday)
    assert (await old.call("start"))["ranked"] is False
    past = next(g for g in await my_games(api, token) if g["daily"] == yesterday)
    unfinished = await api.call("GET", f"/api/games/{past['id']}/analysis", token)
    refusal = (unfinished.status_code, unfinished.json()["error"]["code"])
    assert refusal == (409, "game-not-finished")
    assert (await old.call("give-up"))["type"] == "applied"
    body = await analysed(api, past["id"], token)
    assert body["analysis"]["verdicts"] == ["lost"]  # the give-up
    assert body["analysis"]["outcome"] in ("slipped", "never-winnable", "undecided")
