"""Replays over real HTTP: a round's before and after its results, a daily's before its day
closes (today) and after (a past day): the top 10 open to everyone, the rest to their own
player. The closing moment itself is tested with a fake clock in tests/race."""

from __future__ import annotations

import datetime as dt

import pytest

from scorpion.race.daily import closes_at
from scorpion_dev.server import Api, Client, ServerProcess, start_race
from support.sql import script

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL

DEAL = 7


def day(days_ago: int) -> str:
    return (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days_ago)).isoformat()


async def test_a_rounds_replay_opens_with_its_results(server: ServerProcess, api: Api) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
    ann, bob = racers["Ann"], racers["Bob"]
    moves = []
    for _ in range(2):
        move = ann.pick()
        assert (await ann.act("move", move=move))["type"] == "applied"
        moves.append(ann.game.log[-1][0])
    assert (await ann.act("give-up"))["type"] == "applied"
    path = f"/api/replays/room/{room}/1"
    early = await api.call("GET", path, tokens["Ann"])  # Bob still races: not even to Ann
    assert early.status_code == 403 and early.json()["error"]["code"] == "not-finished"
    assert str(DEAL) not in early.text
    assert (await bob.act("give-up"))["type"] == "applied"
    await bob.client.expect(lambda f: f.get("event") == "results")
    r = await api.call("GET", path)  # open to anyone with the link, no token needed
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["kind"] == "room" and replay["room"] == room and replay["round"] == 1
    assert replay["deal"] == str(DEAL) and replay["preset"] == "classic"
    names = {p["name"]: p for p in replay["racers"]}
    assert set(names) == {"Ann", "Bob"} and names["Ann"]["status"] == "gave-up"
    assert len(replay["start"]) == 2 and replay["end"] >= names["Ann"]["elapsed"]
    ann_index = [p["name"] for p in replay["racers"]].index("Ann")
    ann_actions = [s[2] for s in replay["steps"] if s[1] == ann_index]
    assert ann_actions == [*moves, "give-up"]
    assert r.headers["cache-control"] == "no-store"
    assert r.headers["content-encoding"] == "gzip"  # httpx asks for it, and unzips it
    assert "default-src 'self'" in r.headers["content-security-policy"]
    # Built once, kept: asked again it is the same; a new name shows at once.
    assert (await api.call("GET", path)).json() == replay
    await api.call("PATCH", "/api/me", tokens["Ann"], {"name": "Annie"})
    renamed = (await api.call("GET", path)).json()
    assert {p["name"] for p in renamed["racers"]} == {"Annie", "Bob"}
    plain = await api.http.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json() == renamed
    for bad, status, code in [
        (f"/api/replays/room/{room}/2", 404, "unknown-replay"),
        (f"/api/replays/room/{room}/x", 400, "bad-field"),
        ("/api/replays/room/nowhere/1", 404, "unknown-replay"),
    ]:
        r = await api.call("GET", bad)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), bad
    for client in (ann.client, bob.client):
        await client.close()


async def test_todays_daily_replay_waits_for_the_day_to_close(
    server: ServerProcess, api: Api
) -> None:
    today = day(0)
    ann_id, ann_token = await api.new_player("Ann")
    client = await Client.connect(server.ws_url, "ann")
    assert (await client.hello(ann_token, daily=today))["type"] == "welcome"
    started = await client.call("start")
    assert started["ranked"] is True
    assert (await client.call("give-up"))["type"] == "applied"
    for token in (ann_token, None):  # not even to her own player
        r = await api.call("GET", f"/api/replays/daily/{today}/{ann_id}", token)
        assert r.status_code == 403, r.text
        error = r.json()["error"]
        assert error["code"] == "day-not-closed" and error["opens_at"] == closes_at(today)
        assert "deal" not in r.text
    # Nothing is read before that: an attempt that does not exist answers the same.
    r = await api.call("GET", f"/api/replays/daily/{today}/p_nobody/5")
    assert r.json()["error"]["code"] == "day-not-closed"
    tomorrow = day(-1)
    r = await api.call("GET", f"/api/replays/daily/{tomorrow}/{ann_id}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown-day")
    await client.close()


async def test_a_past_days_top_10_are_public_the_rest_private(
    server: ServerProcess, api: Api, database: str
) -> None:
    past = day(3)
    players = [await api.new_player(f"R{i}") for i in range(12)]
    # Twelve ranked attempts of a past day, each given up at its own time; ranked by moves
    # (fewest first), so R0..R9 are the top 10. Written behind the server's back: a past
    # day's attempts cannot be ranked any more.
    rows = []
    for i, (pid, _token) in enumerate(players):
        gid = f"daily:{past}:1:{pid}"
        actions = f'[["give-up", {5.0 + i}]]'
        rows.append(
            "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
            "finished, result, elapsed, moves, actions) VALUES "
            f"('{gid}', '{pid}', '{past}', {'TRUE' if '://' in database else 1}, 'classic', "
            f"'{{\"preset\": \"classic\"}}', '{DEAL}', 1.0, 2.0, 'gave-up', {5.0 + i}, {i}, "
            f"'{actions}');"
            "INSERT INTO daily_attempts (day, player_id, game_id) "
            f"VALUES ('{past}', '{pid}', '{gid}')"
        )
    await script(database, ";".join(rows))
    board = (await api.call("GET", f"/api/daily/{past}/leaderboard?limit=20")).json()
    assert [row["name"] for row in board["rows"]] == [f"R{i}" for i in range(12)]
    tenth, eleventh = players[9], players[10]
    r = await api.call("GET", f"/api/replays/daily/{past}/{tenth[0]}")  # no token: public
    assert r.status_code == 200, r.text
    replay = r.json()
    assert replay["kind"] == "daily" and replay["date"] == past and replay["ranked"] is True
    assert replay["deal"] == str(DEAL) and replay["attempt"] == 1
    assert [s[2] for s in replay["steps"]] == ["give-up"] and replay["racers"][0]["name"] == "R9"
    private = f"/api/replays/daily/{past}/{eleventh[0]}"
    for token in (None, tenth[1]):  # nobody else, signed in or not
        r = await api.call("GET", private, token)
        assert r.status_code == 403 and r.json()["error"]["code"] == "replay-private", r.text
        assert "deal" not in r.text
    r = await api.call("GET", private, eleventh[1])  # its own player
    assert r.status_code == 200 and r.json()["racers"][0]["name"] == "R10"
    r = await api.call("GET", f"{private}/1", eleventh[1])  # the same attempt, by number
    assert r.status_code == 200
    r = await api.call("GET", private, "not-a-token")
    assert r.status_code == 401
    r = await api.call("GET", f"/api/replays/daily/{past}/{eleventh[0]}/2", eleventh[1])
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown-replay")
    r = await api.call("GET", f"/api/replays/daily/{past}/{eleventh[0]}/x")
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad-field")


async def test_an_unranked_attempt_of_a_past_day_is_its_players_once_ended(
    server: ServerProcess, api: Api
) -> None:
    past = day(2)
    ann_id, ann_token = await api.new_player("Ann")
    _bob_id, bob_token = await api.new_player("Bob")
    client = await Client.connect(server.ws_url, "ann")
    assert (await client.hello(ann_token, daily=past))["type"] == "welcome"
    started = await client.call("start")
    assert started["type"] == "applied" and started["ranked"] is False
    path = f"/api/replays/daily/{past}/{ann_id}/{started['attempt']}"
    r = await api.call("GET", path, ann_token)
    assert (r.status_code, r.json()["error"]["code"]) == (409, "still-playing")
    assert (await client.call("deal"))["type"] == "applied"
    assert (await client.call("give-up"))["type"] == "applied"
    r = await api.call("GET", path, ann_token)
    assert r.status_code == 200, r.text
    assert [s[2] for s in r.json()["steps"]] == ["deal", "give-up"]
    assert r.json()["ranked"] is False
    r = await api.call("GET", path, bob_token)
    assert (r.status_code, r.json()["error"]["code"]) == (403, "replay-private")
    await client.close()
