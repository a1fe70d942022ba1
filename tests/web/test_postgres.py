"""The server on PostgreSQL: processes sharing one database, the database down at start
and restarted in the middle of a race."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from scorpion.race.daily import daily_seed
from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import Api, Client, Replica, ServerProcess, start_race

DEAL = 4242


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """Servers a test starts; stopped at the end."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        if server.running:
            server.kill()


async def start_daily(server: ServerProcess, day: str) -> tuple[str, Client, dict[str, Any]]:
    """A new player on ``server`` starts today's daily: (player id, client, answer)."""
    async with Api(server.url) as api:
        player_id, token = await api.new_player("Pat")
    client = await Client.connect(server.ws_url, "pat")
    assert (await client.hello(token, daily=day))["type"] == "welcome"
    return player_id, client, await client.call("start")


async def test_processes_in_turn_on_one_database_serve_the_same_daily(
    postgres: PostgresCluster, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    url = postgres.new_database()
    # No secret given: the first process keeps one in the database, the next ones read it.
    # Without --redis one process at a time: a second one beside it is refused
    # (tests/scale/test_split_brain.py).
    servers += [ServerProcess(url, secret=None, log_path=tmp_path / f"s{i}.log") for i in range(3)]
    day = today()
    views = []
    for server in servers:
        server.start()
        _, client, started = await start_daily(server, day)
        assert started["type"] == "applied" and started["ranked"] is True
        views.append(started["view"])
        await client.close()
        server.stop()
    assert views[0] == views[1] == views[2]
    # The deal they serve is the day's saved one, derived from the database's secret.
    secret = postgres.psql("SELECT value FROM meta WHERE key = 'secret'", url)
    deal = int(postgres.psql(f"SELECT deal FROM dailies WHERE day = '{day}'", url))
    assert deal == daily_seed(secret.encode(), day)
    assert views[0] == Replica(client, "", deal).views[-1]


async def test_one_ranked_attempt_per_day_across_processes(
    postgres: PostgresCluster, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    """A player's second start, on the next process (the first killed -9), resumes the
    ranked attempt or is refused: one ranked game is kept."""
    url = postgres.new_database()
    servers += [ServerProcess(url, log_path=tmp_path / f"s{i}.log") for i in range(2)]
    day = today()
    answers = []
    token = ""
    player_id = ""
    for server in servers:
        server.start()
        if not token:
            async with Api(server.url) as api:
                player_id, token = await api.new_player("Pat")
        client = await Client.connect(server.ws_url, "pat")
        assert (await client.hello(token, daily=day))["type"] == "welcome"
        try:
            answers.append(await client.call("start"))
        except ConnectionClosed:
            answers.append({"type": "closed", "code": client.ws.close_code})
        server.kill()
    assert answers[0]["type"] == "applied" and answers[0]["ranked"] is True
    if answers[1]["type"] == "applied" and answers[1]["ranked"]:  # the same attempt, resumed
        assert answers[1]["view"] == answers[0]["view"]
    ranked = postgres.psql(f"SELECT count(*) FROM games WHERE player_id = '{player_id}' "
                           f"AND daily = '{day}' AND ranked", url)  # fmt: skip
    assert ranked == "1"


async def test_database_down_at_start_the_server_waits_not_ready(
    stoppable_postgres: PostgresCluster, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    url = stoppable_postgres.new_database()
    await asyncio.to_thread(stoppable_postgres.stop)
    server = ServerProcess(url, log_path=tmp_path / "server.log")
    servers.append(server)
    starting = asyncio.create_task(asyncio.to_thread(server.start, 60.0))
    async with httpx.AsyncClient(base_url=server.url, timeout=5.0) as http:
        ready = None
        for _ in range(3000):  # until the server listens (at most a minute)
            try:
                ready = await http.get("/readyz")
                break
            except httpx.TransportError:
                await asyncio.sleep(0.02)
        assert ready is not None, server.log()
        assert ready.status_code == 503 and ready.json()["error"]["code"] == "not-ready"
        created = await http.post("/api/players", json={"name": "Early"})
        assert created.status_code == 503 and created.json()["error"]["code"] == "unavailable"
        early = await Client.connect(server.ws_url)
        code, _ = await early.closed()
        assert code == 1013  # try again later
        assert not starting.done()
        await asyncio.to_thread(stoppable_postgres.start)
        await starting
        assert (await http.get("/readyz")).json() == {"ready": True}
        assert (await http.post("/api/players", json={"name": "Later"})).status_code == 201


async def play(racer: Replica, count: int) -> None:
    for _ in range(count):
        answer = await racer.act("move", move=racer.pick())
        assert answer["type"] == "applied", answer


async def test_database_restarted_mid_race_nothing_acknowledged_is_lost(
    stoppable_postgres: PostgresCluster, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    server = ServerProcess(
        stoppable_postgres.new_database(), args=("--grace", "60"), log_path=tmp_path / "server.log"
    )
    servers.append(server)
    server.start()
    async with Api(server.url) as api:
        room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
        ann = racers["Ann"]
        await play(ann, 2)
        await asyncio.to_thread(stoppable_postgres.stop)
        move = ann.pick()
        seq = await ann.client.command("move", move=move)
        assert (await api.call("GET", "/readyz")).status_code == 503
        await asyncio.to_thread(stoppable_postgres.start)
        try:
            answer: dict[str, Any] = await ann.client.answer(seq, timeout=30.0)
        except ConnectionClosed:  # the outcome was unknown: the client is told to reconnect
            answer = {"type": "closed"}
        assert answer["type"] in ("applied", "closed"), answer
        if answer["type"] == "applied":  # written once the database was back
            ann.apply(move)
            assert answer["view"] == ann.own_view()
        else:
            ann.client = await Client.connect(server.ws_url, "ann")
            welcome = await ann.client.hello(tokens["Ann"], room=room)
            ann.client.seq = welcome["last_seq"]
            if welcome["view"] != ann.own_view():
                ann.apply(move)
                assert welcome["view"] == ann.own_view()
        await play(ann, 2)  # play resumes

        # Every acknowledged move is in the database: a kill -9 and restart keeps them.
        server.kill()
        server.start()
        ann.client = await Client.connect(server.ws_url, "ann")
        welcome = await ann.client.hello(tokens["Ann"], room=room)
        assert welcome["type"] == "welcome" and welcome["view"] == ann.own_view()


async def test_a_database_that_refuses_us_ends_the_start_with_a_clear_message(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    missing = postgres.url("no_such_database")
    server = ServerProcess(missing, log_path=tmp_path / "server.log")
    with pytest.raises(RuntimeError) as caught:
        await asyncio.to_thread(server.start)
    assert not server.running
    # Before it listens, one line naming the setting (the flag here) and the cause.
    assert (f"scorpion serve: --db ({missing}): "
            'database "no_such_database" does not exist\n') in str(caught.value)  # fmt: skip
    assert "Traceback" not in server.log()


async def test_a_secret_from_the_environment_is_used_not_kept(
    postgres: PostgresCluster, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    url = postgres.new_database()
    env = {"SCORPION_SECRET": "from-the-environment"}
    servers.append(ServerProcess(url, secret=None, env=env, log_path=tmp_path / "server.log"))
    servers[0].start()
    day = today()
    _, client, started = await start_daily(servers[0], day)
    assert started["type"] == "applied"
    await client.close()
    deal = int(postgres.psql(f"SELECT deal FROM dailies WHERE day = '{day}'", url))
    assert deal == daily_seed(b"from-the-environment", day)
    assert postgres.psql("SELECT count(*) FROM meta WHERE key = 'secret'", url) == "0"
