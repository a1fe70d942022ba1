"""Ghosts over real HTTP: a ranked result's timeline, for today's daily only once your own
ranked attempt has ended, for a past day's to anyone; and a ghost race (an attempt played
after that) never changes the leaderboard."""

from __future__ import annotations

import datetime as dt

import pytest

from scorpion.race.daily import closes_at
from scorpion_dev.server import Api, Client, ServerProcess
from support.sql import past_daily_results

pytestmark = pytest.mark.backends


def day(days_ago: int) -> str:
    return (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days_ago)).isoformat()


async def board(api: Api, date: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = (
        await api.call("GET", f"/api/daily/{date}/leaderboard?limit=50")
    ).json()["rows"]
    return rows


async def test_todays_ghosts_wait_for_your_ranked_attempt(server: ServerProcess, api: Api) -> None:
    today = day(0)
    ann_id, ann_token = await api.new_player("Ann")
    _bob_id, bob_token = await api.new_player("Bob")
    ann = await Client.connect(server.ws_url, "ann")
    assert (await ann.hello(ann_token, daily=today))["type"] == "welcome"
    assert (await ann.call("start"))["ranked"] is True
    path = f"/api/ghosts/daily/{today}/{ann_id}"
    for token in (ann_token, bob_token):  # still playing; never played: a ghost would help
        r = await api.call("GET", path, token)
        assert r.status_code == 403, r.text
        error = r.json()["error"]
        assert error["code"] == "ghosts-after-your-attempt"
        assert error["opens_at"] == closes_at(today)
    r = await api.call("GET", path)
    assert (r.status_code, r.json()["error"]["code"]) == (401, "not-authenticated")
    assert (await ann.call("deal"))["type"] == "applied"
    assert (await ann.call("give-up"))["type"] == "applied"
    before = await board(api, today)
    r = await api.call("GET", path, ann_token)  # her own, now that it has ended
    assert r.status_code == 200, r.text
    ghost = r.json()
    assert (ghost["name"], ghost["rank"], ghost["status"]) == ("Ann", 1, "gave-up")
    # 0:00, the deal, the give-up: runs and score as they were.
    assert [point[1:] for point in ghost["timeline"]] == [[0, 0], [0, 0], [0, 0]]
    times = [point[0] for point in ghost["timeline"]]
    assert times[0] == 0 and times == sorted(times) and times[-1] == ghost["elapsed"]
    keys = {"date", "player", "name", "rank", "status", "elapsed", "runs", "score", "timeline"}
    assert set(ghost) == keys  # numbers only: no deal, no board, no move
    assert (await api.call("GET", path, bob_token)).status_code == 403
    # Her ghost race: the next attempt is unranked, and the leaderboard stays as it was.
    again = await ann.call("start")
    assert again["type"] == "applied" and again["ranked"] is False
    assert (await ann.call("give-up"))["type"] == "applied"
    assert await board(api, today) == before
    await ann.close()


async def test_a_past_days_ghosts_are_anyones(
    server: ServerProcess, api: Api, database: str
) -> None:
    past = day(5)
    players = [await api.new_player(n) for n in ("Cy", "Di")]
    games = [
        (pid, 30.0 + i, i, [["deal", 12.5], ["give-up", 30.0 + i]])
        for i, (pid, _) in enumerate(players)
    ]
    await past_daily_results(database, past, 7, games)
    di = players[1][0]
    ghost = (await api.call("GET", f"/api/ghosts/daily/{past}/{di}")).json()  # no token
    assert (ghost["name"], ghost["rank"], ghost["elapsed"]) == ("Di", 2, 31.0)
    assert [p[0] for p in ghost["timeline"]] == [0.0, 12.5, 31.0]
    r = await api.call("GET", f"/api/ghosts/daily/{past}/p_nobody")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "no-result")
    r = await api.call("GET", f"/api/ghosts/daily/{day(-1)}/{di}")
    assert (r.status_code, r.json()["error"]["code"]) == (404, "unknown-day")
    # A ghost race on that day: unranked, the leaderboard unchanged.
    before = await board(api, past)
    eve_id, eve_token = await api.new_player("Eve")
    eve = await Client.connect(server.ws_url, "eve")
    assert (await eve.hello(eve_token, daily=past))["type"] == "welcome"
    assert (await eve.call("start"))["ranked"] is False
    assert (await eve.call("give-up"))["type"] == "applied"
    after = await board(api, past)
    assert after == before and eve_id not in {row["player"] for row in after}
    await eve.close()
