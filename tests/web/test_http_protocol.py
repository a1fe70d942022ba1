"""The app without nginx in front, over raw sockets: request heads bounded in size and time,
bodies in time, silent connections closed (scorpion.web.http_protocol)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from scorpion_dev.server import Client, ServerProcess

# Short deadlines, so that the test does not wait long (what is asserted is the closing).
LIMITS = {"head_timeout": 1, "body_timeout": 1, "auth_timeout": 3}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        tmp_path / "h.db",
        args=("--limits", orjson.dumps(LIMITS).decode()),
        log_path=tmp_path / "server.log",
    )
    proc.start()
    yield proc
    proc.stop()


async def talk(server: ServerProcess, *parts: bytes, timeout: float = 15.0) -> bytes:
    """Send ``parts`` on a new connection (stopping quietly if the server closes it) and
    read until the server closes it; everything read. Bounded by ``timeout``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)

    async def send() -> None:
        with contextlib.suppress(ConnectionError):
            for part in parts:
                writer.write(part)
                await writer.drain()

    sending = asyncio.ensure_future(send())
    try:
        return await asyncio.wait_for(reader.read(-1), timeout)  # -1: until EOF
    finally:
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await sending
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


def status_and_error(answer: bytes) -> tuple[int, str | None]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    code = orjson.loads(body)["error"]["code"] if body.startswith(b"{") else None
    return status, code


def chunks(total: int, size: int = 1 << 16) -> list[bytes]:
    return [b"a" * size] * (total // size)


async def test_a_huge_head_is_refused_with_431(server: ServerProcess) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: "
    answer = await talk(server, head, *chunks(4 << 20), b"\r\n\r\n")  # 4 MB in one header
    assert status_and_error(answer) == (431, "headers-too-large")
    answer = await talk(server, b"GET /healthz?", *chunks(1 << 20), b" HTTP/1.1\r\n\r\n")
    assert status_and_error(answer) == (431, "headers-too-large")
    many = b"".join(b"X-%d: %s\r\n" % (i, b"b" * 100) for i in range(200))  # 21 KB in all
    answer = await talk(server, b"GET /healthz HTTP/1.1\r\nHost: a\r\n" + many + b"\r\n")
    assert status_and_error(answer) == (431, "headers-too-large")
    # Within the bound (15 KB): served, and closed when asked.
    fine = b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\nX-Big: %s\r\n\r\n"
    answer = await talk(server, fine % (b"c" * 15_000))
    assert answer.startswith(b"HTTP/1.1 200 ") and answer.endswith(b'{"ok":true}')


async def test_unfinished_bodies_are_answered_and_closed(server: ServerProcess) -> None:
    """Ten requests announcing 20 MB and sending 1 MB of it: each answered 413 (or 401
    where no body is read) and closed; none is kept waiting for the rest."""
    length = b"POST /api/players HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
    by_length = length + b"Content-Length: 20971520\r\n\r\n"
    chunked = length + b"Transfer-Encoding: chunked\r\n\r\n1400000\r\n"  # one 20 MB chunk
    unread = b"POST /api/rooms HTTP/1.1\r\nHost: a\r\nContent-Length: 20971520\r\n\r\n"
    heads = [by_length] * 4 + [chunked] * 4 + [unread] * 2
    answers = await asyncio.gather(*(talk(server, head, *chunks(1 << 20)) for head in heads))
    statuses = [status_and_error(answer) for answer in answers]
    assert statuses == [(413, "too-large")] * 8 + [(401, "not-authenticated")] * 2


async def test_slow_and_silent_connections_are_closed(server: ServerProcess) -> None:
    # Silent from the start: closed without a word.
    assert await talk(server) == b""

    # A head a byte at a time (the pace is the attack's, not a wait for the server): 408.
    async def trickle() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(b"GET /healthz HTTP/1.1\r\nX-Slow: ")
        read = asyncio.ensure_future(reader.read(-1))
        with contextlib.suppress(ConnectionError):
            for _ in range(150):  # 15 s at most; the deadline is 1 s
                if read.done():
                    break
                writer.write(b"x")
                await writer.drain()
                await asyncio.sleep(0.1)
        answer = await asyncio.wait_for(read, 15)
        writer.close()
        return answer

    assert status_and_error(await trickle()) == (408, "timeout")
    # A body that stops: closed (the app waiting for it sees the client gone, and logs no
    # error for it).
    stops = b"POST /api/players HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
    assert await talk(server, stops + b"Content-Length: 100\r\n\r\n{") == b""
    # Idle after an answer (keep-alive): closed too.
    answer = await talk(server, b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 ")
    assert "Exception in ASGI application" not in server.log()


async def test_a_websocket_outlives_the_http_deadlines(server: ServerProcess) -> None:
    """Past the head deadline (1 s) the socket is still open: the hello timeout (3 s) is
    what closes one that says nothing."""
    client = await Client.connect(server.ws_url)
    refusal = await client.recv(timeout=10)
    assert refusal["code"] == "not-authenticated"
    assert (await client.closed(timeout=10))[0] == 4000
