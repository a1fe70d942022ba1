"""The server's log: one format, the events an operator needs, and never a secret."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

from scorpion.engine import Game
from scorpion_dev.server import Api, Client, ServerProcess, start_race

DEAL = 4242
LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR) +\S+")


async def test_a_whole_race_in_debug_logs_shows_no_token(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data" / "scorpion.db", args=("--log-level", "debug"))
    server.start()
    unknown = secrets.token_urlsafe(32)
    try:
        async with Api(server.url) as api:
            room, racers, tokens = await start_race(server, api, ["Ann", "Bo"], DEAL)
            for racer in racers.values():
                assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
                assert (await racer.act("give-up"))["type"] == "applied"
            renamed = await api.call("PATCH", "/api/me", tokens["Ann"], {"name": "Annie"})
            assert renamed.status_code == 200
            assert (await api.call("GET", "/api/me/games", tokens["Bo"])).status_code == 200
            stranger = await Client.connect(server.ws_url)  # a refused handshake
            assert (await stranger.hello(unknown, room=room))["type"] == "refused"
            assert (await stranger.closed())[0] == 4001
            for racer in racers.values():
                await racer.client.close()
    finally:
        server.stop()
    text = server.log_path.read_text()
    for token in [*tokens.values(), unknown]:
        assert token not in text
    assert "authorization" not in text.lower()
    assert '"hello"' not in text and "'hello'" not in text
    lines = text.splitlines()
    assert all(LINE.match(line) for line in lines if not line.startswith((" ", "Traceback")))
    for event in (
        "starting on http://127.0.0.1",
        "ready:",
        f"room {room} opened",
        '"POST /api/players" 201',
        "websocket /ws accepted",
        "websocket /ws closed by server: 4001 bad token",
        "shutting down",
        "scorpion stopped",
    ):
        assert event in text, event
    # Request and connection ids: the refused socket's lines share its request id.
    refused = next(line for line in lines if "closed by server: 4001" in line)
    assert re.search(r"\[r\d+ c\d+\]", refused), refused


async def test_json_lines_with_a_setting(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data" / "scorpion.db", args=("--log-format", "json"))
    server.start()
    try:
        async with Api(server.url) as api:
            await api.new_player("Ann")
    finally:
        server.stop()
    records = [json.loads(line) for line in server.log_path.read_text().splitlines()]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    loggers = {r["logger"] for r in records}
    assert {"scorpion.web", "scorpion.access", "uvicorn.error"} <= loggers  # one format for all
    created = next(r for r in records if "POST /api/players" in r["message"])
    assert created["request"].startswith("r")


async def test_practice_and_its_search_worker_log_json_lines_one_per_socket(
    tmp_path: Path,
) -> None:
    """A practice played with a hint (a search worker process) on a JSON log: every line
    is JSON (the worker's too: no raw RuntimeWarning), the practice's log is not "opened"
    on each command, and a socket makes one line."""
    server = ServerProcess(tmp_path / "data" / "scorpion.db", args=("--log-format", "json"))
    server.start()
    try:
        async with Api(server.url) as api:
            player_id, token = await api.new_player("Pia")
        ws = await Client.connect(server.ws_url, "pia")
        assert (await ws.hello(token, practice=True))["type"] == "welcome"
        dealt = await ws.call("new-deal", preset="normal")
        game = Game.new(int(dealt["deal"]), "normal")
        for _ in range(3):
            move = game.legal_moves()[0]
            assert (await ws.call("move", move=str(move)))["type"] == "applied"
            game.play(move)
        hint = await ws.call("hint", timeout=60)  # answered by a search worker process
        assert hint["type"] == "applied" and hint["hints"], hint
        await ws.close()
        await ws.closed()
    finally:
        server.stop()
    text = server.log_path.read_text()
    assert "RuntimeWarning" not in text
    records = [json.loads(line) for line in text.splitlines()]  # every line is JSON
    messages = [r["message"] for r in records]
    assert not [m for m in messages if f"practice:{player_id}" in m], messages
    socket_request = next(r["request"] for r in records if "websocket /ws" in r["message"])
    socket_lines = [r for r in records if r.get("request") == socket_request]
    assert len(socket_lines) == 1, socket_lines
    assert re.fullmatch(
        r"127\.0\.0\.1 websocket /ws closed by client: 1000 after \d+\.\d s",
        socket_lines[0]["message"],
    )
