"""The faulty clients and the fault checks: a reader that never reads, the kill -9 records."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import httpx
import orjson
from websockets.exceptions import ConnectionClosed

from .clients import Conn, Record, new_player


async def never_reader(
    http: httpx.AsyncClient, spec: dict[str, Any], racer: Conn, record: Record
) -> Conn:
    """A spectator following a racer that never reads (a 4 KB receive buffer)."""
    _, token = await new_player(http, "never reads")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    host, port = spec["http"].removeprefix("http://").split(":")
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    conn = Conn(spec["url"], token, record, "reader")
    await conn.open(read=False, sock=sock, room=racer.welcome["room"])
    assert conn.ws is not None
    await conn.ws.send(
        orjson.dumps({"type": "follow", "seq": 1, "player": racer.welcome["you"]["id"]}).decode()
    )
    return conn


async def drain_reader(conn: Conn) -> dict[str, Any]:
    """Read what the never-reading socket was sent, until the server's close (bounded)."""
    assert conn.ws is not None
    frames = 0
    with contextlib.suppress(TimeoutError, ConnectionClosed):
        for _ in range(100_000):
            await asyncio.wait_for(conn.ws.recv(), 2.0)
            frames += 1
    conn.closing = True
    return {"frames": frames, "closed": conn.ws.close_code}


async def check_records(http: httpx.AsyncClient, conns: list[Conn]) -> dict[str, Any]:
    """Every acknowledged move, deal and undo is in the player's game record, in order.

    Games are recorded with their actions when their round ends: every racer gives up
    first, then the records are read (waiting a bounded time for the rounds to close).
    """

    async def give_up(conn: Conn) -> None:
        with contextlib.suppress(ConnectionError, TimeoutError, ConnectionClosed):
            await conn.call("give-up", timeout=30)

    await asyncio.gather(*(give_up(conn) for conn in conns))
    acked = lost = players_off = unfinished = 0
    for conn in conns:
        expected = [
            answer.get("move", answer["sent"]) if answer["sent"] == "move" else answer["sent"]
            for answer in sorted(conn.answers, key=lambda a: a["seq"])
            if answer["sent"] in ("move", "deal", "undo")
        ]
        game = await ended_game(http, conn)
        logged = [action[0] for action in game["actions"]] if game else []
        if logged[-1:] == ["give-up"]:
            logged.pop()
        acked += len(expected)
        missing = len(expected) - sum(1 for a, b in zip(expected, logged, strict=False) if a == b)
        lost += missing
        players_off += bool(missing) or logged != expected
        unfinished += game is None
    return {
        "acked_actions": acked,
        "lost": lost,
        "players_off": players_off,
        "unfinished": unfinished,
        "resumed": sum(c.resumed for c in conns),
    }


def same_place(game: dict[str, Any], conn: Conn) -> bool:
    """The game (``GET /api/me/games``) is of the place the socket plays: its room, or its
    day's daily."""
    if "daily" in conn.hello:
        return bool(game.get("daily") == conn.hello["daily"])
    return bool(game["room"] == conn.welcome["room"])


async def ended_game(http: httpx.AsyncClient, conn: Conn) -> dict[str, Any] | None:
    """The racer's game in its room once recorded as ended (None after 20 s). A server
    still restarting (a loaded machine) is asked again."""
    for _ in range(100):
        try:
            answer = await http.get(
                "/api/me/games", headers={"Authorization": f"Bearer {conn.token}"}
            )
        except httpx.TransportError:
            await asyncio.sleep(0.2)
            continue
        answer.raise_for_status()
        for game in answer.json()["games"]:
            if same_place(game, conn) and game["status"] != "playing":
                return dict(game)
        await asyncio.sleep(0.2)
    return None
