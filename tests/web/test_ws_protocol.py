"""A websocket's objects are freed by reference counting when it closes (its protocols:
scorpion.web.ws_protocol and the upgrade's, scorpion.web.http_protocol), with uvicorn in
this process and real websocket clients.

The garbage collector is off while the sockets live and end: whatever is still alive after
they are gone would have waited for a collection (in the server, with web/collector.py,
for the hourly major one)."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.asyncio.client import connect

from scorpion.web.config import Limits
from scorpion.web.http_protocol import bounded_http
from scorpion.web.ws_protocol import SEND_TEXT, ClosingWebSockets
from scorpion_dev.server import free_port

SOCKETS = 6


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def echo(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message.get("text") or ""})


def recording(ws: type, http: type) -> tuple[type, type, list[weakref.ref[object]]]:
    """``ws`` and ``http``, remembering a weak reference to each connection's HTTP protocol
    (the upgrade's) and websockets' protocol (uvicorn's websocket protocol holds it)."""
    made: list[weakref.ref[object]] = []

    class RecordingWebSockets(ws):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self.conn))

    class RecordingHttp(http):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self))

    return RecordingWebSockets, RecordingHttp, made


@contextlib.asynccontextmanager
async def serving(ws: type, http: type, app: Any = echo) -> AsyncIterator[uvicorn.Server]:
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), ws=ws, http=http,
                            lifespan="off", log_level="warning")  # fmt: skip
    server = uvicorn.Server(config)
    serve = asyncio.create_task(server.serve())
    for _ in range(500):  # bounded: 5 s
        if server.started:
            break
        await asyncio.sleep(0.01)
    assert server.started
    try:
        yield server
    finally:
        server.should_exit = True
        await asyncio.wait_for(serve, 10)


async def live_and_end(server: uvicorn.Server) -> None:
    """Sockets that talk, then end: half closed properly, half cut (the TCP connection
    aborted, as a phone losing its network does)."""
    url = f"ws://127.0.0.1:{server.config.port}/"
    for index in range(SOCKETS):
        client = await connect(url)
        await client.send("hello")
        assert await asyncio.wait_for(client.recv(), 5) == "hello"
        if index % 2:
            client.transport.abort()
        else:
            await client.close()
    for _ in range(500):  # bounded: 5 s for the server to see every socket end
        if not server.server_state.connections and not server.server_state.tasks:
            break
        await asyncio.sleep(0.01)
    assert not server.server_state.connections
    for _ in range(10):
        await asyncio.sleep(0)  # the callbacks the ends scheduled


@pytest.mark.usefixtures("collector_off")
async def test_a_closed_websocket_leaves_nothing_for_the_collector() -> None:
    ws, http, made = recording(ClosingWebSockets, bounded_http(Limits()))
    async with serving(ws, http) as server:
        await live_and_end(server)
        assert len(made) == 2 * SOCKETS
        assert [ref() for ref in made] == [None] * len(made)


@pytest.mark.usefixtures("collector_off")
async def test_uvicorns_own_protocol_leaves_cycles() -> None:
    """The contract: with the versions in the lock, uvicorn's classes leave every closed
    connection to the collector (if this fails, the shortcuts are no longer needed)."""
    ws, http, made = recording(WebSocketsSansIOProtocol, HttpToolsProtocol)
    async with serving(ws, http) as server:
        await live_and_end(server)
        assert len(made) == 2 * SOCKETS
        assert all(ref() is not None for ref in made)


# Around each boundary of a frame's length field (RFC 6455, 5.2: 7 bits, 16, 64).
SIZES = (0, 1, 125, 126, 127, 65535, 65536, 70000)


async def test_text_frames_written_directly_reach_a_real_client_whole_and_in_order() -> None:
    """Each command's text, sent back twice: written directly, then through uvicorn's send
    (which must not be disturbed by the direct writes), byte lengths at the boundaries."""
    written: list[bool] = []

    async def twice(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        send_text = scope["extensions"][SEND_TEXT]
        while (message := await receive())["type"] != "websocket.disconnect":
            written.append(send_text(message["text"]))
            await send({"type": "websocket.send", "text": message["text"]})

    texts = ["x" * n for n in SIZES] + ["é♠" * 30000, '{"type": "view"}']
    async with (
        serving(ClosingWebSockets, bounded_http(Limits()), twice) as server,
        connect(f"ws://127.0.0.1:{server.config.port}/", max_size=None) as client,
    ):
        for text in texts:
            await client.send(text)
        got = [await asyncio.wait_for(client.recv(), 5) for _ in range(2 * len(texts))]
    assert got == [t for text in texts for t in (text, text)]
    assert written == [True] * len(texts)


async def test_a_direct_write_refuses_what_uvicorns_send_would_wait_for_or_refuse() -> None:
    """Paused by flow control (send would wait), then closed (send would refuse): False,
    and nothing written; after resume_writing, True again."""
    answers: list[bool] = []

    async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        await receive()
        send_text = scope["extensions"][SEND_TEXT]
        answers.append(send_text("before accept"))
        await send({"type": "websocket.accept"})
        protocol = send_text.__self__
        protocol.pause_writing()
        answers.append(send_text("paused"))
        protocol.resume_writing()
        answers.append(send_text("resumed"))
        await send({"type": "websocket.close", "code": 4000})
        answers.append(send_text("closed"))

    async with (
        serving(ClosingWebSockets, bounded_http(Limits()), app) as server,
        connect(f"ws://127.0.0.1:{server.config.port}/") as client,
    ):
        assert await asyncio.wait_for(client.recv(), 5) == "resumed"
        await asyncio.wait_for(client.wait_closed(), 5)
        assert client.close_code == 4000
    assert answers == [False, False, True, False]
