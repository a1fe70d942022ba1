"""The daily challenge over real sockets, with its leaderboard, records and a restart."""

from __future__ import annotations

import datetime as dt

import pytest

from scorpion.race.daily import daily_seed
from scorpion_dev.server import Api, Client, Replica, ServerProcess

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def daily_deal(day: str) -> int:
    """The test server's deal for a day (no winnable search): for the replica only."""
    return daily_seed(b"test-secret", day)


async def test_daily_attempt_leaderboard_records_and_restart(
    server: ServerProcess, api: Api
) -> None:
    day = today()
    deal = daily_deal(day)
    ann_id, ann_token = await api.new_player("Ann")
    bob_id, bob_token = await api.new_player("Bob")
    ann_client = await Client.connect(server.ws_url, "ann")
    welcome = await ann_client.hello(ann_token, daily=day)
    assert welcome["type"] == "welcome" and welcome["you"]["role"] == "player"
    assert welcome["state"]["ranked"] is True and welcome["state"]["attempt"] is None
    assert str(deal) not in str(welcome)
    ann = Replica(ann_client, ann_id, deal)
    started = await ann_client.call("start")
    assert started["type"] == "applied" and started["ranked"] is True
    assert started["view"] == ann.own_view()
    bob_client = await Client.connect(server.ws_url, "bob")
    await bob_client.hello(bob_token, daily=day)
    bob = Replica(bob_client, bob_id, deal)
    assert (await bob_client.call("start"))["ranked"] is True
    for _ in range(3):
        assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
    await bob.act("move", move=bob.pick())
    # Everyone's progress comes aggregated, in the daily's next ``playing`` event.
    playing = await ann_client.expect(
        lambda f: (
            f.get("event") == "playing"
            and any(p["player"] == bob_id and p["moves"] == 1 for p in f["playing"]["top"])
        )
    )
    assert playing["playing"]["count"] == 2 and "view" not in str(playing)
    live = (await api.call("GET", "/api/daily")).json()
    assert live["playing"]["count"] == 2
    assert {p["player"] for p in live["playing"]["top"]} == {ann_id, bob_id}
    assert "deal" not in live and str(deal) not in str(live)

    # Disconnect and resume where she was; a crash and restart keeps it too.
    await ann_client.close()
    server.kill()
    server.start()
    ann.client = await Client.connect(server.ws_url, "ann")
    welcome = await ann.client.hello(ann_token, daily=day)
    assert welcome["view"] == ann.own_view() and welcome["state"]["attempt"]["ranked"] is True
    ann.client.seq = welcome["last_seq"]
    resumed = await ann.client.call("start")
    assert resumed["resumed"] is True and resumed["view"] == ann.own_view()
    assert (await ann.act("hint"))["code"] == "hints-not-allowed"  # ranked: unassisted
    gave_up = await ann.act("give-up")
    assert gave_up["type"] == "applied" and gave_up["rank"]["rank"] == 1  # her row at once

    daily = (await api.call("GET", f"/api/daily/{day}")).json()
    board = daily["leaderboard"]["top"]
    assert [(e["rank"], e["player"], e["status"]) for e in board] == [(1, ann_id, "gave-up")]
    assert board[0]["moves"] == 3 and board[0]["name"] == "Ann"
    assert daily["leaderboard"]["size"] == 1 and daily["playing"]["count"] == 1
    page = (await api.call("GET", f"/api/daily/{day}/leaderboard?around=me", ann_token)).json()
    assert (page["size"], page["offset"], page["you"]["rank"]) == (1, 0, 1)
    assert page["rows"] == board
    mine = (await api.call("GET", "/api/daily", ann_token)).json()["you"]
    assert mine["streak"] == {"current": 0, "best": 0}
    assert mine["ranked"]["status"] == "gave-up" and mine["ranked"]["moves"] == 3
    practice = await ann.client.call("start")
    assert practice["type"] == "applied" and practice["ranked"] is False
    stats = (await api.call("GET", f"/api/players/{ann_id}/stats")).json()["stats"]
    assert [(s["preset"], s["started"], s["lost"]) for s in stats] == [("classic", 2, 1)]
    games = (await api.call("GET", "/api/me/games", ann_token)).json()["games"]
    assert [(g["daily"], g["ranked"], g["status"]) for g in games] == [
        (day, False, "playing"),
        (day, True, "gave-up"),
    ]
    assert all(g["deal"] is None for g in games)  # today's deal stays secret
    game_id = games[1]["id"]
    one = (await api.call("GET", f"/api/me/games/{game_id}", ann_token)).json()["game"]
    assert [a for a, _ in one["actions"]] == [a for a, _ in ann.game.log]
    assert (await api.call("GET", f"/api/me/games/{game_id}", bob_token)).status_code == 404

    # Yesterday is playable, unranked; its page exists (without loading a deal for it).
    yesterday = (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()
    past = (await api.call("GET", f"/api/daily/{yesterday}")).json()
    assert past["today"] is False and past["leaderboard"] == {"size": 0, "top": []}
    old = await Client.connect(server.ws_url, "old")
    await old.hello(bob_token, daily=yesterday)
    assert (await old.call("start"))["ranked"] is False

    # Delete my data: gone from the leaderboard, the token no longer works.
    assert (await api.call("DELETE", "/api/me", ann_token)).status_code == 200
    assert (await ann.client.closed(timeout=10))[0] == 4001
    board = (await api.call("GET", f"/api/daily/{day}")).json()["leaderboard"]
    assert board == {"size": 0, "top": []}
    again = await Client.connect(server.ws_url)
    assert (await again.hello(ann_token, daily=day))["code"] == "bad-token"


async def test_leaderboard_pages_and_your_row(server: ServerProcess, api: Api) -> None:
    day = today()
    players = [await api.new_player(f"P{i}") for i in range(9)]
    for i, (_, token) in enumerate(players):
        client = await Client.connect(server.ws_url, f"p{i}")
        await client.hello(token, daily=day)
        await client.call("start")
        if i % 3 == 0:
            await client.call("move", move="deal")  # a move more than the others
        assert (await client.call("give-up"))["type"] == "applied"
        await client.close()
    url = f"/api/daily/{day}/leaderboard"
    whole = (await api.call("GET", f"{url}?limit=100")).json()
    rows = whole["rows"]
    assert whole["size"] == 9 and whole["offset"] == 0 and len(rows) == 9
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) and len(set(ranks)) < 9  # ties share a rank
    assert {r["player"] for r in rows} == {pid for pid, _ in players}
    page = (await api.call("GET", f"{url}?offset=4&limit=3")).json()
    assert (page["offset"], page["rows"]) == (4, rows[4:7])
    assert (await api.call("GET", url)).json()["rows"] == rows  # 20 rows by default
    summary = (await api.call("GET", f"/api/daily/{day}")).json()["leaderboard"]
    assert summary == {"size": 9, "top": rows}
    pid, token = players[6]
    mine = (await api.call("GET", f"{url}?around=me&limit=3", token)).json()
    assert mine["you"] == next(r for r in rows if r["player"] == pid)
    assert mine["rows"] == rows[mine["offset"] : mine["offset"] + 3] and mine["you"] in mine["rows"]
    _, stranger = await api.new_player("Nobody")
    empty = (await api.call("GET", f"{url}?around=me", stranger)).json()
    assert (empty["rows"], empty["you"], empty["size"]) == ([], None, 9)
    assert (await api.call("GET", f"{url}?around=me")).status_code == 401
    for bad in ["limit=500", "offset=-1", "limit=x", "around=you"]:
        answer = await api.call("GET", f"{url}?{bad}")
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad-field"), bad
    assert (await api.call("GET", "/api/daily/2999-01-01/leaderboard")).status_code == 404
