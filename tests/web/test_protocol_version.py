"""The welcome carries the protocol version, so an old page knows to reload."""

from __future__ import annotations

import re
from pathlib import Path

from scorpion.race.protocol import PROTOCOL_VERSION
from scorpion_dev.server import Api, Client, ServerProcess

SOCKET_JS = Path(__file__).resolve().parents[2] / "client" / "js" / "socket.js"


def test_the_client_speaks_the_servers_version() -> None:
    found = re.search(r"export const PROTOCOL = (\d+);", SOCKET_JS.read_text())
    assert found is not None and int(found.group(1)) == PROTOCOL_VERSION


async def test_welcome_names_the_protocol_version(server: ServerProcess, api: Api) -> None:
    _, token = await api.new_player("Pat")
    room = await api.new_room(token)
    client = await Client.connect(server.ws_url)
    try:
        welcome = await client.hello(token, room=room)
        assert welcome["type"] == "welcome" and welcome["protocol"] == PROTOCOL_VERSION
    finally:
        await client.close()
    client = await Client.connect(server.ws_url)
    try:
        welcome = await client.hello(
            token, daily=(await api.call("GET", "/api/daily")).json()["date"]
        )
        assert welcome["type"] == "welcome" and welcome["protocol"] == PROTOCOL_VERSION
    finally:
        await client.close()
