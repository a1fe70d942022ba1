"""Your history over real HTTP: your games newest first with their replays, your records,
and the daily calendar, agreeing with the statistics and the daily's streak."""

from __future__ import annotations

import datetime as dt

import pytest

from scorpion.race.daily import closes_at
from scorpion.race.history import STREAK_COUNTS
from scorpion_dev.server import Api, Client, ServerProcess, start_race
from support.sql import script

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL


def day(days_ago: int) -> str:
    return (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=days_ago)).isoformat()


async def test_history_records_and_calendar_agree_with_the_stats_and_the_daily(
    server: ServerProcess, api: Api, database: str
) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], 7)
    ann, bob = racers["Ann"], racers["Bob"]
    token = tokens["Ann"]
    assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
    assert (await ann.act("give-up"))["type"] == "applied"
    assert (await bob.act("give-up"))["type"] == "applied"
    await ann.client.expect(lambda f: f.get("event") == "results")
    today = day(0)
    daily = await Client.connect(server.ws_url, "ann-daily")
    assert (await daily.hello(token, daily=today))["type"] == "welcome"
    assert (await daily.call("start"))["ranked"] is True
    assert (await daily.call("give-up"))["type"] == "applied"
    # Two past games behind the server's back: a clean ranked daily won three days ago, and
    # a quicker race won with a hint (not a personal best: help was used).
    past = day(3)
    true = "TRUE" if "://" in database else "1"
    await script(
        database,
        "INSERT INTO games (id, player_id, daily, ranked, preset, rules, deal, started, "
        "finished, result, elapsed, revealed) VALUES "
        f"('daily:{past}:1:{ann.id}', '{ann.id}', '{past}', {true}, 'classic', "
        f"'{{\"preset\": \"classic\"}}', '9', 1.0, 124.4, 'won', 123.4, {true});"
        "INSERT INTO games (id, player_id, room_id, preset, rules, deal, started, finished, "
        "result, elapsed, hints, revealed) VALUES "
        f"('zzroom:1:{ann.id}', '{ann.id}', 'zzroom', 'classic', '{{\"preset\": \"classic\"}}', "
        f"'9', 2.0, 52.0, 'won', 50.0, 1, {true})",
    )

    # The games, newest first, paged; each with its replay (or when it opens).
    first = (await api.call("GET", "/api/me/history?limit=2", token)).json()
    assert [g["kind"] for g in first["games"]] == ["daily", "race"]
    todays, race = first["games"]
    assert todays["daily"] == today and todays["status"] == "gave-up" and todays["ranked"]
    assert todays["replay"] is None and todays["replay_opens_at"] == closes_at(today)
    assert race["room"] == room and race["round"] == 1 and race["clean"] is True
    assert race["replay"] == f"/replay/room/{room}/1"
    opened = await api.call("GET", race["replay"].replace("/replay/", "/api/replays/", 1))
    assert opened.status_code == 200  # the page's path names the API's
    assert "deal" not in todays and "actions" not in todays
    rest = (await api.call("GET", f"/api/me/history?before={first['next']}", token)).json()
    assert [g["id"] for g in rest["games"]] == [f"zzroom:1:{ann.id}", f"daily:{past}:1:{ann.id}"]
    assistedrace, pastdaily = rest["games"]
    assert assistedrace["clean"] is False and assistedrace["hints"] == 1
    assert pastdaily["replay"] == f"/replay/daily/{past}/{ann.id}/1"
    assert rest["next"] is None

    # Records: the statistics' counts, best and median over clean wins only.
    records = (await api.call("GET", f"/api/me/records?month={past[:7]}", token)).json()
    stats = (await api.call("GET", f"/api/players/{ann.id}/stats")).json()["stats"]
    (classic,) = records["presets"]
    (stat,) = stats
    assert {k: classic[k] for k in stat} == stat
    assert classic["won"] == 1 and classic["assisted_won"] == 1
    assert classic["best_time"] == classic["median_time"] == 123.4
    assert [(r["status"], r["clean"]) for r in classic["recent"]] == [
        ("won", True), ("won", False), ("gave-up", True), ("gave-up", True),
    ]  # fmt: skip
    # The calendar and the streak, the same as the daily page's.
    calendar = records["daily"]
    assert calendar["month"] == past[:7]
    assert {"date": past, "status": "won", "elapsed": 123.4, "clean": True, "rank": 1,
            "size": 1} in calendar["days"]  # fmt: skip
    if today[:7] == past[:7]:
        assert {"date": today, "status": "gave-up", "elapsed": calendar["days"][-1]["elapsed"],
                "clean": True, "rank": 1, "size": 1} == calendar["days"][-1]  # fmt: skip
    you = (await api.call("GET", "/api/daily", token)).json()["you"]
    assert {k: calendar["streak"][k] for k in ("current", "best")} == you["streak"]
    assert calendar["streak"]["best"] == 1 and calendar["streak"]["counts"] == STREAK_COUNTS

    for path, status, code in [
        ("/api/me/records?month=2026-13", 400, "bad-field"),
        ("/api/me/records?month=26-1", 400, "bad-field"),
        ("/api/me/history?limit=x", 400, "bad-field"),
    ]:
        r = await api.call("GET", path, token)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path
    assert (await api.call("GET", "/api/me/history")).status_code == 401
    for client in (ann.client, bob.client, daily):
        await client.close()
