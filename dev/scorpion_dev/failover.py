"""Kill -9 the process that owns a race and today's daily, in the middle of play.

Used by tests/scale/test_failover.py (nothing acknowledged is lost, everyone plays on)
and benchmarks/failover.py (how long after the kill each player could move again).
Each round: two racers in a room created on the target process and one daily player,
all with acknowledged moves; the target is killed; each player waits for its socket
to end, reconnects through nginx with ``last_version``, checks that the welcome's
board is exactly its last acknowledged one, and plays a move.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from websockets.exceptions import ConnectionClosed, InvalidStatus

from scorpion.race.daily import daily_seed
from scorpion.race.protocol import player_daily_key, practice_key
from scorpion.web.config import DAILY_SHARDS

from .server import Api, Client, Replica, ServerProcess, last_version, place_url

DEAL = 4242
MOVES = 3  # acknowledged moves of each player before the kill


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


@dataclass
class Player:
    name: str
    token: str
    replica: Replica
    place: dict[str, Any]  # the hello's room or daily
    resumed_after: float | None = None  # seconds from the kill to the move applied again
    welcomes: list[dict[str, Any]] = field(default_factory=list)


async def lease_owner(database: str, place: str) -> int | None:
    conn = await asyncpg.connect(database)
    try:
        owner = await conn.fetchval(
            "SELECT owner FROM leases WHERE place = $1 AND expires > clock_timestamp()", place
        )
    finally:
        await conn.close()
    return None if owner is None else int(owner)


async def node_of(server: ServerProcess, api: Api, database: str, tag: str) -> int:
    """The node number of a process: the owner of a practice opened there first."""
    player, token = await api.new_player(f"probe{tag}")
    client = await Client.connect(server.ws_url, "probe")
    try:
        assert (await client.hello(token, practice=True))["type"] == "welcome"
        # Read while the socket is open: an empty practice is dropped (its lease let go)
        # once its last socket closes.
        owner = await lease_owner(database, practice_key(player))
    finally:
        await client.close()
    assert owner is not None
    return owner


async def play(player: Player, count: int) -> None:
    for _ in range(count):
        answer = await player.replica.act("move", move=player.replica.pick())
        assert answer["type"] == "applied", answer


async def prepare(
    servers: list[ServerProcess], ws_url: str, api: Api, database: str, tag: str
) -> tuple[ServerProcess, list[Player]]:
    """A race and a daily attempt owned by one process (the target), moves acknowledged."""
    nodes = {await node_of(s, api, database, f"{tag}.{i}"): s for i, s in enumerate(servers)}
    day = today()
    # The daily player's shard of the day (the daily is split: docs/scaling.md).
    daily_id, daily_token = await api.new_player(f"Dee{tag}")
    shard = player_daily_key(day, daily_id, DAILY_SHARDS)
    owner = await lease_owner(database, shard)
    target = nodes.get(owner, servers[0]) if owner is not None else servers[0]
    players: list[Player] = []

    # The daily player says hello to the target itself (so it owns the shard if nobody does).
    client = await Client.connect(place_url(target.ws_url, daily=day), "daily")
    assert (await client.hello(daily_token, daily=day))["type"] == "welcome"
    dee = Player("daily", daily_token, Replica(client, daily_id, daily_seed(b"test-secret", day)),
                 {"daily": day})  # fmt: skip
    assert (await client.call("start"))["type"] == "applied"
    players.append(dee)
    assert await lease_owner(database, shard) == next(n for n, s in nodes.items() if s is target)

    # A race owned by the target: Ann's socket, the room's first, opens there; Bob's goes
    # through nginx without a routing hint (round robin: maybe another process, then
    # forwarded; with the hint, that process would have the room handed back to it).
    ids, tokens = {}, {}
    for name in ("Ann", "Bob"):
        ids[name], tokens[name] = await api.new_player(f"{name}{tag}")
    room = await api.new_room(tokens["Ann"], deal=DEAL, time_limit=600)
    for name, url in (("Ann", target.ws_url), ("Bob", ws_url)):
        client = await Client.connect(url, name)
        assert (await client.hello(tokens[name], room=room))["type"] == "welcome"
        joined = await client.answer(await client.command("join", **{"as": "player"}))
        assert joined["type"] == "applied", joined
        players.append(Player(name, tokens[name], Replica(client, ids[name], DEAL), {"room": room}))
    for racer in players[1:]:
        assert (await racer.replica.client.call("ready"))["type"] == "applied"
    assert (await players[1].replica.client.call("start"))["type"] == "applied"
    for racer in players[1:]:
        await racer.replica.client.expect(lambda f: f.get("event") == "start", timeout=10)
    await asyncio.gather(*(play(p, MOVES) for p in players))
    return target, players


async def resume(player: Player, ws_url: str, killed_at: float, timeout: float = 30.0) -> None:
    """Wait for the socket to end, reconnect until welcomed, check the board, move."""
    await player.replica.client.closed(timeout=timeout)
    seen = last_version(player.replica.client)
    deadline = killed_at + timeout
    welcome: dict[str, Any] | None = None
    for _ in range(1000):
        try:
            client = await Client.connect(place_url(ws_url, **player.place), player.name, 5)
            welcome = await client.hello(player.token, last_version=seen, **player.place)
            if welcome["type"] == "welcome":
                break
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        assert time.monotonic() < deadline, f"{player.name} not welcomed back: {welcome}"
        await asyncio.sleep(0.1)
    assert welcome is not None and welcome["type"] == "welcome"
    player.welcomes.append(welcome)
    # Nothing acknowledged is lost: exactly the board of the last applied move.
    assert welcome["view"] == player.replica.own_view(), player.name
    client.seq = welcome["last_seq"]
    player.replica.client = client
    answer = await player.replica.act("move", move=player.replica.pick())
    assert answer["type"] == "applied", answer
    player.resumed_after = time.monotonic() - killed_at


async def kill_round(
    servers: list[ServerProcess], ws_url: str, api: Api, database: str, tag: str
) -> tuple[ServerProcess, list[Player]]:
    """One round: prepare, kill -9 the target, every player resumes. The target stays down."""
    target, players = await prepare(servers, ws_url, api, database, tag)
    killed_at = time.monotonic()
    target.kill()
    await asyncio.gather(*(resume(p, ws_url, killed_at) for p in players))
    for player in players:
        await player.replica.client.close()
    return target, players
