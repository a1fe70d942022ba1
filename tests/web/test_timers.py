"""The server's clock drives the referee's deadlines (here: the reconnect grace period over
real sockets), and what a deadline decided is stored: a restart keeps it. What each timer
does, on a fake clock: tests/race/test_timers.py, test_reconnect.py and test_restore.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorpion_dev.server import Api, Client, ServerProcess, start_race


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "quick.db", args=("--grace", "1"))
    server.start()
    yield server
    server.stop()


async def test_a_seat_is_lost_after_the_grace_period(quick: ServerProcess) -> None:
    async with Api(quick.url) as api:
        room, racers, tokens = await start_race(quick, api, ["Ann", "Bob"], 32)
        ann, bob = racers["Ann"], racers["Bob"]
        await ann.act("move", move=ann.pick())
        await ann.client.close()
        left = await bob.client.expect(lambda f: f.get("event") == "left", timeout=15)
        assert left["player"] == ann.id and left["reason"] == "seat-lost"
        back = await Client.connect(quick.ws_url, "ann")
        welcome = await back.hello(tokens["Ann"], room=room)
        assert welcome["you"]["role"] == "spectator"  # too late: she watches now
        assert (await back.call("move", move="deal"))["type"] == "refused"
        # Bob races on, alone; a restart keeps the lost seat lost.
        assert (await bob.act("move", move=bob.pick()))["type"] == "applied"
        quick.kill()
        quick.start()
        again = await Client.connect(quick.ws_url, "ann")
        assert (await again.hello(tokens["Ann"], room=room))["you"]["role"] == "spectator"
