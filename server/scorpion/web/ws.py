"""The websocket endpoint /ws: hello first, then commands fed to the referee.

Each connection's frames are handled one at a time: a command's records are
committed before its answer is sent, and before the connection's next frame is
handled. The reader does not wait for that commit in between (web/bridge.py): a
client waits for its answer before its next command, and only one that sends ahead
waits here. Bad frames get a ``refused`` answer and the connection carries on; only
a bad hello, a flood or a slow reader closes it (docs/protocol.md, section 7).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

import orjson
from starlette.types import Receive, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from scorpion.race import RaceError, parse_hello, refused, seq_of
from scorpion.race.protocol import (
    BAD_TOKEN,
    FLOOD,
    PROTOCOL,
    SERVER_ERROR,
    TOO_BIG,
    TRY_AGAIN,
)

from .auth import token_hash
from .cluster import hinted_place
from .connection import Connection
from .dailies import Asker, DailyRefused
from .limits import FloodGauge, address_key
from .logs import CONN_ID
from .services import Services
from .ws_protocol import SEND_TEXT

log = logging.getLogger("scorpion.web")


class Refusal(Exception):
    """A frame that cannot be used: answer ``refused`` and maybe close."""

    def __init__(self, code: str, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.seq = code, message, seq


def decode(svc: Services, message: Mapping[str, Any]) -> object:
    """The JSON value of a websocket.receive message, or Refusal."""
    text = message.get("text")
    if text is None:
        raise Refusal("bad-json", "binary frames are not accepted: send JSON text")
    limit = svc.settings.limits.max_frame
    if len(text) > limit // 4 and len(text.encode()) > limit:
        raise Refusal("too-large", f"a frame holds at most {limit} bytes")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        raise Refusal("bad-json", "the frame is not JSON") from None


def refuse(svc: Services, conn: Connection, exc: Refusal | RaceError) -> None:
    svc.metrics.refused.labels(exc.code).inc()
    conn.send(refused(exc.seq, exc.code, exc.message))


async def ws_route(websocket: WebSocket) -> None:
    """/ws as a plain Starlette route, through Starlette's WebSocket (shortcuts off)."""
    await ws_endpoint(websocket, websocket.receive, websocket.send)


async def ws_endpoint(websocket: WebSocket, receive: Receive, send: Send) -> None:
    """One socket. After the hello its frames are read with ``receive`` and written with
    ``send``, the ASGI callables ``websocket`` was made with (Starlette's WebSocket has
    nothing to check for a data frame: two coroutines less per frame)."""
    svc: Services = websocket.app.state.services
    limits = svc.settings.limits
    address = websocket.client.host if websocket.client else "?"
    key = address_key(address)  # per-address limits and shares count an IPv6 /64 as one
    # Not ready: starting (waiting for the database, restoring the rooms).
    if not svc.ready or svc.closing or not svc.connections.admits(key):
        log.warning("websocket from %s refused: server starting, busy or closing", address)
        await websocket.accept()
        await websocket.close(TRY_AGAIN, "server busy or restarting: retry shortly")
        return
    await websocket.accept()
    conn_id = svc.connections.new_id()
    CONN_ID.set(conn_id)  # in every log line of this connection (and its writer task)
    shortcuts = svc.settings.shortcuts == "on"
    send_text = (websocket.scope.get("extensions") or {}).get(SEND_TEXT) if shortcuts else None
    conn = Connection(
        conn_id, websocket, send, limits, svc.metrics, inline=shortcuts, send_text=send_text
    )
    svc.connections.add(conn, key)
    attached = False
    try:
        attached = await hello(svc, conn, websocket, key)
        while attached:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            conn.last_seen = time.monotonic()
            if not conn.closing:
                await command(svc, conn, message)
    except WebSocketDisconnect:
        pass
    finally:
        svc.connections.remove(conn, key)
        svc.hub.detach(conn.id)
        if attached and not (svc.cluster is not None and svc.cluster.forwarder.bye(conn.id)):
            await svc.bridge.run(svc.referee.disconnect(conn.id, time.time()))
        await conn.wait_closed(0.5)
        conn.stop()


async def hello(svc: Services, conn: Connection, websocket: WebSocket, address: str) -> bool:
    """Read and check the first frame; attach the connection to the referee. False: closed."""
    try:
        message = await asyncio.wait_for(websocket.receive(), svc.settings.limits.auth_timeout)
    except TimeoutError:
        refuse(svc, conn, Refusal("not-authenticated", "send hello first (within seconds)"))
        conn.close(PROTOCOL, "no hello")
        return False
    if message["type"] == "websocket.disconnect":
        return False
    conn.last_seen = time.monotonic()
    try:
        data = decode(svc, message)
        opening = parse_hello(data)
    except (Refusal, RaceError) as exc:
        refuse(svc, conn, exc)
        conn.close(TOO_BIG if exc.code == "too-large" else PROTOCOL, exc.message)
        return False
    assert isinstance(data, dict)
    player = await svc.tokens.player(str(data["token"]))
    if player is None:
        refuse(svc, conn, Refusal("bad-token", "unknown or signed-out token: create a player"))
        conn.close(BAD_TOKEN, "bad token")
        return False
    conn.player, conn.token = player.id, token_hash(str(data["token"]))
    svc.hub.attach(conn.id, conn)
    svc.searches.note_address(player.id, address)  # its searches share the address's turn
    if (
        opening.place_key(player.id, svc.referee.config.daily_shards) in svc.reloading
    ):  # its last writes failed: it comes back from its log shortly
        conn.close(TRY_AGAIN, "being restored: retry shortly")
        return True  # attached: the reader waits for the close
    race_player = svc.race_player(player)
    if data.get("daily") is not None:
        try:  # may wait for the day's deal search
            await svc.dailies.ensure(data["daily"], asker=Asker(player.id, address))
            race_player = await svc.daily_player(player, str(data["daily"]))
        except DailyRefused as exc:  # past days asked too fast, or too many waiting
            refuse(svc, conn, Refusal(exc.code, exc.message))
            conn.close(TRY_AGAIN, f"daily not ready: {exc.code}")
            return True  # attached: the reader waits for the close
        except Exception:
            log.exception("the daily %r could not be prepared", data["daily"])
            refuse(svc, conn, Refusal("server-error", "the daily is not ready: retry shortly"))
            conn.close(SERVER_ERROR, "daily not ready")
            return True  # attached: the reader waits for the close
    if svc.cluster is not None:
        place = opening.place_key(player.id, svc.referee.config.daily_shards)
        try:
            owner = await svc.cluster.route(place)
        except Exception as exc:  # Redis or PostgreSQL away: the client retries shortly
            log.warning("cannot reach the owner of %s: %s", place, exc)
            refuse(svc, conn, Refusal("server-error", "the room cannot be reached: retry shortly"))
            conn.close(TRY_AGAIN, "room unreachable: retry shortly")
            return True
        if owner is not None:  # another process owns the place: forward this socket there
            svc.cluster.forwarder.hello(conn.id, owner, place, race_player, data)
            shards = svc.referee.config.daily_shards
            if hinted_place(websocket.query_params, shards) == place:  # the hash names us
                svc.cluster.ask_back(place, owner)
            return True
    await svc.bridge.run(svc.referee.hello(conn.id, race_player, data, time.time()))
    return True


def rate_limited(svc: Services, conn: Connection, message: Mapping[str, Any]) -> None:
    """A frame over the rate: answered ``rate-limited`` (with its seq), or once the
    connection is refused often only counted, or past the flood limit the socket closed.
    Kept cheap: a flood must not cost the server more than it costs the flooder."""
    limits = svc.settings.limits
    now = time.monotonic()
    if conn.flood is None:
        conn.flood = FloodGauge(
            limits.flood_refusals, limits.flood_window, limits.refusals_answered, now
        )
    verdict = conn.flood.refuse(now)
    svc.metrics.rate_limited.inc()
    if verdict == "answer":
        try:
            data = decode(svc, message)
            seq = seq_of(data) if isinstance(data, dict) else None
        except Refusal:
            seq = None
        conn.send(refused(seq, "rate-limited", "too many commands: slow down"))
    elif verdict == "flood":
        log.warning("closing connection %s of %s: flood", conn.id, conn.player)
        conn.close(FLOOD, "flood: too many commands")


async def command(svc: Services, conn: Connection, message: Mapping[str, Any]) -> None:
    svc.metrics.commands.inc()
    if (written := conn.written) is not None and not written.done():
        # Its last command is not written yet: one at a time, refusals included (they go
        # out at once, and would overtake that command's answer).
        await asyncio.shield(written)
        if conn.closing:  # it was not written: the connection is being closed
            return
    started = time.perf_counter()
    if not conn.bucket.take():  # before decoding: junk frames count against the limit too
        rate_limited(svc, conn, message)
        return
    try:
        data = decode(svc, message)
    except Refusal as exc:
        refuse(svc, conn, exc)
        return
    if svc.cluster is not None and svc.cluster.forwarder.command(conn.id, message["text"]):
        svc.metrics.forwarded_commands.inc()
        return  # its owner answers through the hub
    try:
        outputs = svc.referee.receive(conn.id, data, time.time())
    except Exception:  # a bug in the referee must not take the connection (or others) down
        log.exception("referee.receive failed on %r", data)
        seq = seq_of(data) if isinstance(data, dict) else None
        refuse(svc, conn, Refusal("server-error", "the server could not handle this", seq))
        return
    batch = svc.bridge.submit(outputs, arrived=started)
    conn.written = None if batch is None else batch.done
    if batch is not None and batch.full:  # the store has fallen behind: wait for it
        await asyncio.shield(batch.done)
