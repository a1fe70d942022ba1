"""client/js/roomstate.js agrees with the server: a room's recorded event stream, replayed
through the client's reducer in Chromium from a spectator's first snapshot, gives the room
the server describes to a newcomer at the end.

The stream comes from a real room over real sockets: seats taken and given up, ready, a
host's toggles (lock, list, hand the host on), a follower, a racer's socket lost and back,
a race with moves, give-ups and results, a rematch, and a second race under way. Each
event kind the room sent is checked to have been replayed (the test fails on a new event
kind nobody looked at, and on any field where the two disagree).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from scorpion_dev.server import Api, Client, Replica, ServerProcess, place_url

from .conftest import PageFactory

pytestmark = pytest.mark.browser

DEAL = 20261129
# What a newcomer's snapshot and the replay are compared on: what the views read.
ROOM_FIELDS = ("id", "creator", "host", "locked", "listed", "settings", "phase", "round",
               "players", "spectators", "results", "deal", "quickRace", "quick")  # fmt: skip
PLAYER_FIELDS = ("id", "name", "ready", "connected", "status", "runs", "score", "moves",
                 "turned", "hints", "autos", "clean", "ordered", "rank")  # fmt: skip


async def record_a_room(server: ServerProcess) -> dict[str, Any]:
    """Play a room through; a spectator records everything from its first welcome."""
    async with Api(server.url) as api:
        ids, tokens = {}, {}
        for name in ("Hal", "Bea", "Cal", "Wes", "Neo"):
            ids[name], tokens[name] = await api.new_player(name)
        room = await api.new_room(tokens["Hal"], deal=DEAL, undo="full")
        url = place_url(server.ws_url, room=room)

        async def enter(name: str, role: str) -> Client:
            client = await Client.connect(url, name)
            welcome = await client.hello(tokens[name], room=room)
            assert welcome["type"] == "welcome"
            client.seq = welcome["last_seq"]  # a new socket goes on with the player's seqs
            if role:
                assert (await client.call("join", **{"as": role}))["type"] == "applied"
            return client

        watcher = await Client.connect(url, "Wes")
        first = await watcher.hello(tokens["Wes"], room=room)
        hal = await enter("Hal", "player")
        bea = await enter("Bea", "player")
        cal = await enter("Cal", "player")
        assert (await watcher.call("join", **{"as": "spectator"}))["type"] == "applied"
        assert (await cal.call("leave"))["type"] == "applied"
        assert (await cal.call("join", **{"as": "player"}))["type"] == "applied"
        for command, fields in (("lock", {"locked": True}), ("lock", {"locked": False}),
                                ("list", {"listed": True})):  # fmt: skip
            assert (await hal.call(command, **fields))["type"] == "applied", command
        for client in (hal, bea, cal):
            assert (await client.call("ready"))["type"] == "applied"
        assert (await hal.call("start"))["type"] == "applied"
        await watcher.expect(lambda f: f.get("event") == "start")
        assert (await watcher.call("follow", player=ids["Hal"]))["type"] == "applied"
        racer = Replica(hal, ids["Hal"], DEAL, undo="full")
        for _ in range(6):
            assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
        await bea.close()  # a socket lost: presence, then back within the grace
        await watcher.expect(lambda f: f.get("event") == "presence")
        bea = await enter("Bea", "")
        for client in (hal, bea, cal):
            assert (await client.call("give-up"))["type"] == "applied"
        results = await watcher.expect(lambda f: f.get("event") == "results")
        assert (await hal.call("rematch", round=results["round"]))["type"] == "applied"
        assert (await hal.call("hand-host", player=ids["Bea"]))["type"] == "applied"
        for client in (bea, cal):
            assert (await client.call("ready"))["type"] == "applied"
        assert (await bea.call("start"))["type"] == "applied"
        await watcher.expect(lambda f: f.get("event") == "start" and f.get("round") == 2)
        assert (await cal.call("deal"))["type"] == "applied"
        await watcher.expect(lambda f: f.get("event") == "progress")
        newcomer = await Client.connect(url, "Neo")
        last = await newcomer.hello(tokens["Neo"], room=room)
        # The newcomer's arrival is the last event the watcher needs.
        await watcher.expect(
            lambda f: f.get("event") == "joined" and f["player"]["id"] == ids["Neo"]
        )
        events = [f for f in watcher.frames if f.get("type") == "event"]
        assert all(f["v"] <= last["version"] for f in events)
        for client in (hal, bea, cal, watcher, newcomer):
            await client.close()
        return {"first": first, "events": events, "last": last}


def recorded(server: ServerProcess) -> dict[str, Any]:
    # In a thread of its own: Playwright's sync API owns this thread's event loop.
    out: dict[str, Any] = {}

    def run() -> None:
        out["room"] = asyncio.run(record_a_room(server))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    assert "room" in out, "the room was not played through"
    return out["room"]


def test_the_reducer_replays_a_room_to_the_servers_snapshot(
    server: ServerProcess, new_page: PageFactory
) -> None:
    room = recorded(server)
    kinds = {e["event"] for e in room["events"]}
    for kind in ("joined", "left", "ready", "presence", "countdown", "start", "progress",
                 "results", "rematch", "host", "locked", "listed"):  # fmt: skip
        assert kind in kinds, f"the scenario sent no {kind!r} event"
    page = new_page(1366, 768)
    page.goto(server.url + "/#/rules")
    replayed, described = page.evaluate(
        """async ({ first, events, last }) => {
          const { fromSnapshot, applyEvent } = await import("/js/roomstate.js");
          const now = last.state.now ?? 0;
          let room = fromSnapshot(first.state, now);
          for (const ev of events) room = applyEvent(room, ev, now);
          return [room, fromSnapshot(last.state, now)];
        }""",
        room,
    )
    ours, theirs = pick(replayed), pick(described)
    differ = {k: (ours[k], theirs[k]) for k in ROOM_FIELDS if ours[k] != theirs[k]}
    assert not differ, f"replayed != the server's snapshot: {differ}"


def pick(room: dict[str, Any]) -> dict[str, Any]:
    out = {k: room.get(k) for k in ROOM_FIELDS}
    out["players"] = sorted(
        ({k: p.get(k) for k in PLAYER_FIELDS} for p in room["players"]), key=lambda p: p["id"]
    )
    out["spectators"] = sorted(room["spectators"], key=lambda s: s["id"])
    return out
