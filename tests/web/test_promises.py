"""Promises of docs/http-api.md and docs/protocol.md, each checked on a real server."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from scorpion_dev.server import Api, Client, ServerProcess, start_race

from .test_race import cards_in


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with a one-second idle timeout and two new players per address at most."""
    limits = {"idle_timeout": 1, "new_players_burst": 2, "new_players_per_minute": 0.01}
    server = ServerProcess(
        tmp_path / "tight.db", env={"SCORPION_LIMITS": orjson.dumps(limits).decode()}
    )
    server.start()
    yield server
    server.stop()


async def test_api_errors_are_not_cached(server: ServerProcess, api: Api) -> None:
    answers = [
        await api.call("GET", "/api/nowhere"),
        await api.call("GET", "/api/me"),
        await api.call("GET", "/api/me", "not-a-token"),
        await api.call("GET", "/api/daily/2999-01-01"),
        await api.call("POST", "/api/players", body=[1]),
    ]
    assert [r.status_code for r in answers] == [404, 401, 401, 404, 400]
    for r in answers:
        assert r.headers["cache-control"] == "no-store", r.request.url
        assert r.json()["error"]["code"]


async def test_my_games_show_the_live_log_to_their_player_only(
    server: ServerProcess, api: Api
) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], 4242)
    ann = racers["Ann"]
    for _ in range(3):
        assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
    games = (await api.call("GET", "/api/me/games", tokens["Ann"])).json()["games"]
    assert len(games) == 1 and games[0]["room"] == room and games[0]["deal"] is None
    assert (games[0]["status"], games[0]["moves"]) == ("playing", 3)
    assert [a for a, _ in games[0]["actions"]] == [a for a, _ in ann.game.log]
    one = (await api.call("GET", f"/api/me/games/{games[0]['id']}", tokens["Ann"])).json()
    assert one["game"]["actions"] == games[0]["actions"]
    # Nobody else gets Ann's game, and no public answer names a card of it.
    other = await api.call("GET", f"/api/me/games/{games[0]['id']}", tokens["Bob"])
    assert other.status_code == 404
    bob_games = (await api.call("GET", "/api/me/games", tokens["Bob"])).json()["games"]
    assert [(g["moves"], g["actions"]) for g in bob_games] == [(0, [])]
    public = [
        (await api.call("GET", f"/api/rooms/{room}")).json(),
        (await api.call("GET", f"/api/players/{ann.id}/stats")).json(),
        (await api.call("GET", "/api/daily", tokens["Bob"])).json(),
    ]
    assert not cards_in(public) and "actions" not in str(public)

    # A daily attempt being played: the same.
    day = dt.datetime.now(dt.UTC).date().isoformat()
    daily = await Client.connect(server.ws_url, "ann-daily")
    assert (await daily.hello(tokens["Ann"], daily=day))["type"] == "welcome"
    assert (await daily.call("start"))["type"] == "applied"
    assert (await daily.call("move", move="deal"))["type"] == "applied"
    games = (await api.call("GET", "/api/me/games", tokens["Ann"])).json()["games"]
    mine = [g for g in games if g["daily"] == day]
    assert [(g["status"], g["moves"], [a for a, _ in g["actions"]]) for g in mine] == [
        ("playing", 1, ["deal"])
    ]
    for client in (daily, *(r.client for r in racers.values())):
        await client.close()


async def test_a_spoofed_forwarded_for_does_not_change_the_client_address(
    tight: ServerProcess,
) -> None:
    async with Api(tight.url) as api:
        codes = []
        for i in range(3):
            r = await api.http.post(
                "/api/players", json={"name": f"P{i}"}, headers={"X-Forwarded-For": f"10.0.0.{i}"}
            )
            codes.append(r.status_code)
        # Two per address: the third is refused, whatever address the header claims.
        assert codes == [201, 201, 429]


async def test_a_silent_socket_is_closed_after_the_idle_timeout(tight: ServerProcess) -> None:
    async with Api(tight.url) as api:
        _, token = await api.new_player("Quiet")
        room = await api.new_room(token)
    quiet = await Client.connect(tight.ws_url, "quiet")
    sent = time.monotonic()  # before the server saw the hello: the idle clock starts later
    assert (await quiet.hello(token, room=room))["type"] == "welcome"
    code, reason = await quiet.closed(timeout=20)  # a bound, not the limit under test
    assert code == 4010 and "ping" in reason
    assert time.monotonic() - sent >= 1.0  # never before the idle timeout


async def test_daily_days_follow_the_websocket_rule(server: ServerProcess, api: Api) -> None:
    today = dt.datetime.now(dt.UTC).date()
    _, token = await api.new_player("Ann")
    for days, status in [(-1, 404), (0, 200), (300, 200), (366, 200), (367, 404), (400, 404)]:
        day = (today - dt.timedelta(days=days)).isoformat()
        r = await api.call("GET", f"/api/daily/{day}")
        assert r.status_code == status, (day, r.text)
        client = await Client.connect(server.ws_url)
        answer = await client.hello(token, daily=day)
        assert (answer["type"] == "welcome") == (status == 200), (day, answer)
        await client.close()
    for text in ("2026-2-1", "20261129", "tomorrow", "2026-02-30"):
        r = await api.call("GET", f"/api/daily/{text}")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown-day"), text


async def test_an_invisible_name_is_refused(server: ServerProcess, api: Api) -> None:
    _, token = await api.new_player("Ann")
    for name in ["\u200b", "\u200b\u200d\ufeff", " \u3164 ", "\u2800", "\u0301"]:
        r = await api.call("POST", "/api/players", body={"name": name})
        assert (r.status_code, r.json()["error"]["code"]) == (400, "bad-name"), repr(name)
        r = await api.call("PATCH", "/api/me", token, {"name": name})
        assert (r.status_code, r.json()["error"]["code"]) == (400, "bad-name"), repr(name)
    assert (await api.call("GET", "/api/me", token)).json()["player"]["name"] == "Ann"
    for name in ["A\u200bda", "Ada\u2060", "A\u00adda", "Ada\U000e0041", "\u061cAda", "A\u200dB"]:
        r = await api.call("POST", "/api/players", body={"name": name})
        assert (r.status_code, r.json()["error"]["code"]) == (400, "bad-name"), repr(name)
        assert "invisible or format characters" in r.json()["error"]["message"]
    # A joiner inside an emoji sequence is kept (woman technologist, heart on fire).
    for name in ["Ada \U0001f469\u200d\U0001f4bb", "\u2764\ufe0f\u200d\U0001f525"]:
        r = await api.call("POST", "/api/players", body={"name": name})
        assert r.status_code == 201 and r.json()["player"]["name"] == name


async def test_three_adas_cannot_share_one_lobby(server: ServerProcess, api: Api) -> None:
    """Latin "Ada", "Ada" with a zero-width space, "Ada" with a Cyrillic а: one lobby shows
    one of them; the others are refused ``name-taken`` (their names look the same)."""
    _, ada = await api.new_player("Ada")
    _, cyrillic = await api.new_player("Ad\u0430")
    zero_width = await api.call("POST", "/api/players", body={"name": "A\u200bda"})
    assert zero_width.status_code == 400  # refused before any room
    room = await api.new_room(ada)
    first = await Client.connect(server.ws_url, "ada")
    assert (await first.hello(ada, room=room))["type"] == "welcome"
    twin = await Client.connect(server.ws_url, "twin")
    refusal = await twin.hello(cyrillic, room=room)
    assert refusal["type"] == "refused" and refusal["code"] == "name-taken"
    assert "looks the same as another racer's name" in refusal["message"]
    assert (await twin.closed())[0] == 4000
    assert (await first.call("join", **{"as": "player"}))["type"] == "applied"
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert [p["name"] for p in summary["players"]] == ["Ada"] and summary["spectators"] == 0
    await first.close()
