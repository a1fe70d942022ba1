"""Reconnecting mid-race, kill -9 and restart, graceful shutdown: nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
import signal

import pytest

from scorpion_dev.server import (
    Api,
    Client,
    Replica,
    ServerProcess,
    last_version,
    start_race,
)

pytestmark = pytest.mark.backends  # the store under the server: SQLite and PostgreSQL

DEAL = 4242


async def play(racer: Replica, count: int) -> None:
    for _ in range(count):
        answer = await racer.act("move", move=racer.pick())
        assert answer["type"] == "applied", answer


async def rejoin(
    server: ServerProcess, racer: Replica, token: str, room: str, **hello: object
) -> dict:
    client = await Client.connect(server.ws_url, racer.client.name)
    welcome = await client.hello(token, room=room, **hello)
    assert welcome["type"] == "welcome", welcome
    client.seq = welcome["last_seq"]
    racer.client = client
    return welcome


async def test_reconnect_mid_race_resumes_exactly(server: ServerProcess, api: Api) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
    ann, bob = racers["Ann"], racers["Bob"]
    await play(ann, 3)
    await bob.act("move", move=bob.pick())
    seen = last_version(ann.client)
    last_answer = ann.client.frames[-1] if ann.client.frames[-1].get("type") == "applied" else None
    await ann.client.close()
    presence = await bob.client.expect(
        lambda f: f.get("event") == "presence" and f.get("connected") is False
    )
    assert presence["player"] == ann.id and presence["grace_until"] > 0

    welcome = await rejoin(server, ann, tokens["Ann"], room, last_version=seen)
    assert welcome["you"]["role"] == "player"
    assert welcome["recovered"] is True
    assert all(e["v"] > seen for e in welcome["events"])
    assert welcome["view"] == ann.own_view()  # exactly where she was, undo history included
    assert welcome["view"]["can_undo"] is True
    # A command resent with an answered seq is answered again, never applied twice.
    await ann.client.send({"type": "move", "seq": welcome["last_seq"], "move": "deal"})
    again = await ann.client.answer(welcome["last_seq"])
    if last_answer is not None:
        assert again == last_answer
    assert again["view"]["moves"] == ann.game.moves_made
    await play(ann, 2)
    assert (await ann.act("undo"))["type"] == "applied"
    back = await bob.client.expect(lambda f: f.get("event") == "presence" and f.get("connected"))
    assert back["player"] == ann.id


async def test_kill_9_mid_race_loses_no_acknowledged_move(server: ServerProcess, api: Api) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
    ann, bob = racers["Ann"], racers["Bob"]
    await play(ann, 2)
    await play(bob, 1)
    # Pipeline six moves (each legal after the one before), kill -9 after the third answer.
    plan = Replica(ann.client, ann.id, DEAL)
    for view_action in [a for a, _ in ann.game.log]:
        plan.apply(view_action)
    first = ann.client.seq + 1
    for _ in range(6):
        move = plan.pick()
        plan.apply(move)
        await ann.client.command("move", move=move)
    acked = []
    for seq in range(first, first + 3):
        answer = await ann.client.answer(seq)
        assert answer["type"] == "applied", answer
        acked.append(answer)
    server.kill()
    server.start()

    welcome = await rejoin(server, ann, tokens["Ann"], room, last_version=last_version(ann.client))
    assert welcome["you"]["role"] == "player"
    assert welcome["last_seq"] >= first + 2  # every acknowledged command survived
    moves = welcome["view"]["moves"]
    assert moves >= acked[-1]["view"]["moves"]
    assert welcome["view"] in plan.views  # a position of the planned line, nothing invented
    # Catch the replica up with what the server kept, then play on.
    ann.game, ann.views, ann.seen = plan.game, plan.views, plan.seen
    while ann.game.moves_made > moves:
        ann.game.undo()
    ann.views.append(ann.game.view())
    assert welcome["view"] == ann.own_view()
    await play(ann, 1)
    welcome_bob = await rejoin(server, bob, tokens["Bob"], room)
    assert welcome_bob["view"] == bob.own_view() and welcome_bob["recovered"] is False
    await play(bob, 1)
    summary = (await api.call("GET", f"/api/rooms/{room}")).json()
    assert summary["phase"] == "racing"
    assert {p["id"]: p["moves"] for p in summary["players"]} == {
        ann.id: ann.game.moves_made,
        bob.id: bob.game.moves_made,
    }


async def test_sigterm_closes_sockets_with_1001_and_keeps_everything(
    server: ServerProcess, api: Api
) -> None:
    room, racers, tokens = await start_race(server, api, ["Ann", "Bob"], DEAL)
    ann = racers["Ann"]
    await play(ann, 3)
    spectator = await Client.connect(server.ws_url, "watcher")
    _, watcher_token = await api.new_player("Watcher")
    assert (await spectator.hello(watcher_token, room=room))["type"] == "welcome"
    stopping = asyncio.get_running_loop().run_in_executor(None, server.stop)
    codes = await asyncio.gather(
        *(c.closed(timeout=15) for c in [ann.client, racers["Bob"].client, spectator])
    )
    assert [code for code, _ in codes] == [1001, 1001, 1001], codes
    # uvicorn re-raises SIGTERM once it has shut down cleanly, so the exit status is -15.
    assert await stopping in (0, -signal.SIGTERM)
    assert "Application shutdown complete" in server.log()
    server.start()
    welcome = await rejoin(server, ann, tokens["Ann"], room)
    assert welcome["view"] == ann.own_view()
    await play(ann, 1)
