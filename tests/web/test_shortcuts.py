"""The speed shortcuts that lean on library internals, and the plain path beside them.

Each shortcut (docs/architecture.md, "Shortcuts") is checked here against the versions
the lock pins (deploy/requirements.lock, which ``make`` installs as constraints): the
contract it relies on still holds. With ``--shortcuts off`` the server takes the plain
path (Starlette's routing for /ws, every frame through an awaited send, CPython's own
collector, uvicorn's own HTTP protocol); a whole race with its fair-play checks runs on
it too, so the switch is a way out that works.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import re
from pathlib import Path
from types import CoroutineType
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect

from scorpion_dev.server import ServerProcess, free_port

from .test_race import (
    test_full_race_three_players_two_spectators,
    test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned,
)

LOCK = Path(__file__).resolve().parents[2] / "deploy" / "requirements.lock"

# The race tests again, on a server with the shortcuts off (SERVER_ARGS below).
__all__ = [
    "test_full_race_three_players_two_spectators",
    "test_uneven_race_followers_learn_no_card_a_playing_racer_has_not_turned",
]


SERVER_ARGS = ("--shortcuts", "off")  # the ``server`` fixture's (tests/conftest.py)


def test_the_server_takes_the_plain_path(server: ServerProcess) -> None:
    assert "shortcuts off" in server.log_path.read_text()


def locked(package: str) -> str:
    found = re.search(rf"^{package}==(\S+)$", LOCK.read_text(), re.MULTILINE)
    assert found, f"{package} is not in {LOCK.name}"
    return found.group(1)


@pytest.mark.parametrize("package", ["uvicorn", "starlette", "websockets", "httptools"])
def test_the_contracts_are_checked_on_the_locked_versions(package: str) -> None:
    # An upgrade changes the lock (deploy/lock_requirements.py) and reruns these contracts.
    assert importlib.metadata.version(package) == locked(package)


async def test_uvicorn_sansio_send_is_a_coroutine_that_finishes_in_one_step() -> None:
    """web/connection.py sends a frame by stepping uvicorn's send once, without a task:
    that needs a coroutine that ends at its first step while the transport takes bytes."""
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        sending = send({"type": "websocket.send", "text": "stepped"})
        seen["coroutine"] = isinstance(sending, CoroutineType)
        try:
            sending.send(None)
        except StopIteration:
            seen["one step"] = True
        else:
            seen["one step"] = False
            await sending
        await receive()  # the client's close

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws="websockets-sansio",
                            log_level="warning", lifespan="on")  # fmt: skip
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        for _ in range(100):  # bounded: the server starts within 10 s
            if server.started:
                break
            await asyncio.sleep(0.1)
        async with connect(f"ws://127.0.0.1:{port}/") as ws:
            assert await asyncio.wait_for(ws.recv(), 10) == "stepped"
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 10)
    assert seen == {"coroutine": True, "one step": True}
