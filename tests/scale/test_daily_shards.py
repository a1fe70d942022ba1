"""The day's daily in shards on three processes behind nginx (PostgreSQL, Redis): each
player's sockets reach their shard's owner (the hint names the shard), so a day's players
spread over the processes with nothing forwarded, while "playing now", the leaderboard and
the one ranked attempt per player and day count the whole day."""

from __future__ import annotations

import datetime as dt

import asyncpg

from scorpion.race.daily import daily_seed
from scorpion.race.protocol import player_daily_key, shard_numbers, shard_of_key
from scorpion.web.config import DAILY_SHARDS
from scorpion_dev.server import Api, Client, Replica, daily_url, metric

from .conftest import Cluster

PLAYERS = 24


async def daily_leases(database: str, day: str) -> dict[str, int]:
    """The day's shard leases: shard key -> the node holding it."""
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch(
            "SELECT place, owner FROM leases WHERE place LIKE $1", f"daily:{day}:%"
        )
    finally:
        await conn.close()
    return {str(r["place"]): int(r["owner"]) for r in rows}


async def test_a_days_players_spread_over_the_processes(cluster: Cluster, api: Api) -> None:
    day = dt.datetime.now(dt.UTC).date().isoformat()
    deal = daily_seed(b"test-secret", day)
    racers: list[Replica] = []
    for n in range(PLAYERS):
        player, token = await api.new_player(f"D{n}")
        client = await Client.connect(daily_url(cluster.ws_url, day, player, DAILY_SHARDS), f"D{n}")
        assert (await client.hello(token, daily=day))["type"] == "welcome"
        started = await client.call("start")
        assert started["ranked"] is True, started
        racer = Replica(client, player, deal)
        assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
        racers.append(racer)
    # Every command was applied by the process holding its socket: the shard's owner.
    forwarded = sum(metric(s, "scorpion_forwarded_commands_total") for s in cluster.servers)
    assert forwarded == 0, cluster.logs()
    leases = await daily_leases(cluster.database, day)
    held = {player_daily_key(day, r.id, DAILY_SHARDS) for r in racers}
    assert set(leases) == held and all(shard_of_key(k) is not None for k in held)
    assert len(set(leases.values())) >= 2, leases  # the day is spread over processes
    # nginx sent shard i to server i mod 3 (its plain hash of the numbers the app chose,
    # race/protocol.py): each process holds one residue of the indexes, a different one
    # each, so the day's shards (and players) split evenly.
    index = {number: i for i, number in enumerate(shard_numbers(DAILY_SHARDS))}
    residues: dict[int, set[int]] = {}
    for key, node in leases.items():
        shard = shard_of_key(key)
        assert shard is not None
        residues.setdefault(node, set()).add(index[shard] % len(cluster.servers))
    # nginx's log says why a socket went past the process its hash names (a failed connect).
    assert all(len(r) == 1 for r in residues.values()), (residues, cluster.nginx.log())
    assert len({min(r) for r in residues.values()}) == len(residues), residues
    # The day's page, from whichever process nginx picks, asks every shard's owner at once:
    # every move just acknowledged is counted, not one ``playing`` round later.
    live = (await api.call("GET", f"/api/daily/{day}")).json()
    assert live["playing"]["count"] == PLAYERS
    assert all(entry["moves"] == 1 for entry in live["playing"]["top"])
    # "Playing now" counts every shard's players, on every shard's sockets.
    for racer in (racers[0], racers[-1]):
        await racer.client.expect(
            lambda f: f.get("event") == "playing" and f["playing"]["count"] == PLAYERS,
            timeout=15,
        )
    # Everyone gives up: the leaderboard each socket is told holds the whole day.
    for racer in racers:
        assert (await racer.client.call("give-up"))["type"] == "applied"
    await racers[0].client.expect(
        lambda f: f.get("event") == "playing" and f.get("leaderboard", {}).get("size") == PLAYERS,
        timeout=15,
    )
    # The day's page reads the leaderboard of every shard from the store at once.
    daily = (await api.call("GET", f"/api/daily/{day}")).json()
    assert daily["leaderboard"]["size"] == PLAYERS and daily["playing"]["count"] == 0
    # A second attempt is unranked, and the store kept one ranked game per player.
    again = await racers[0].client.call("start")
    assert (again["ranked"], again["attempt"]) == (False, 2)
    conn = await asyncpg.connect(cluster.database)
    try:
        ranked = await conn.fetchval("SELECT count(*) FROM games WHERE daily = $1 AND ranked", day)
    finally:
        await conn.close()
    assert ranked == PLAYERS
