"""One process holds every shard of a split daily (``--daily-shards``; no other set-up):
each player's attempts go to their shard's log, and a crash and restart replays them all."""

from __future__ import annotations

import datetime as dt

from scorpion.race.daily import daily_seed
from scorpion.race.protocol import player_daily_key
from scorpion_dev.server import Api, Client, Replica, ServerProcess, daily_url
from support.sql import query

SHARDS = 4
SERVER_ARGS = ("--daily-shards", str(SHARDS))  # the ``server`` fixture's (tests/conftest.py)


async def test_one_process_keeps_each_shards_log_and_restores_them(
    server: ServerProcess, api: Api
) -> None:
    day = dt.datetime.now(dt.UTC).date().isoformat()
    deal = daily_seed(b"test-secret", day)
    players: dict[str, tuple[str, str]] = {}  # shard key: (player id, token)
    for n in range(40):  # players until two shards have one each
        player, token = await api.new_player(f"S{n}")
        players.setdefault(player_daily_key(day, player, SHARDS), (player, token))
        if len(players) == 2:
            break
    assert len(players) == 2
    racers: list[tuple[Replica, str]] = []
    for player, token in players.values():
        me = (await api.call("GET", "/api/me", token)).json()["player"]
        assert daily_url("ws://x/ws", day, player, SHARDS).endswith(f"shard={me['daily_shard']}")
        client = await Client.connect(daily_url(server.ws_url, day, player, SHARDS), player)
        assert (await client.hello(token, daily=day))["type"] == "welcome"
        assert (await client.call("start"))["ranked"] is True
        racer = Replica(client, player, deal)
        for _ in range(2):
            assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
        racers.append((racer, token))
    playing = await racers[0][0].client.expect(
        lambda f: f.get("event") == "playing" and f["playing"]["count"] == 2
    )
    assert {p["player"] for p in playing["playing"]["top"]} == {r.id for r, _ in racers}
    logs = await query(server.db, "SELECT DISTINCT room_id FROM room_log")
    assert {row[0] for row in logs} == set(players)  # one log per shard played
    # A crash: the restart replays every shard's log into the one process.
    server.kill()
    server.start()
    for racer, token in racers:
        racer.client = await Client.connect(daily_url(server.ws_url, day, racer.id, SHARDS))
        welcome = await racer.client.hello(token, daily=day)
        assert welcome["view"] == racer.own_view()
        assert welcome["state"]["attempt"]["ranked"] is True
        racer.client.seq = welcome["last_seq"]
        assert (await racer.act("give-up"))["type"] == "applied"
    again = await racers[0][0].client.call("start")
    assert (again["ranked"], again["attempt"]) == (False, 2)
    board = (await api.call("GET", f"/api/daily/{day}")).json()["leaderboard"]
    assert board["size"] == 2
