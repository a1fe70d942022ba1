"""Limits over real sockets: floods, slow readers, silent and unauthenticated clients.

The arithmetic runs on fake clocks elsewhere (the token bucket and the flood gauge: the
doctests of scorpion.web.limits; the idle sweep: test_registry.py); here, that the server
applies it to real connections."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.uri import parse_uri

from scorpion_dev.server import Api, Client, ServerProcess


def start_server(tmp_path: Path, limits: dict[str, float]) -> ServerProcess:
    server = ServerProcess(
        tmp_path / "limits.db", env={"SCORPION_LIMITS": orjson.dumps(limits).decode()}
    )
    server.start()
    return server


RATE, BURST = 0.5, 40  # a slow refill: what a burst gets does not depend on how fast it is sent


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[ServerProcess]:
    server = start_server(
        tmp_path,
        {
            "rate": RATE,
            "burst": BURST,
            "flood_refusals": 100,
            "auth_timeout": 1,
            "idle_timeout": 3,
            "max_connections_per_address": 4,
        },
    )
    yield server
    server.stop()


def metric(server: ServerProcess, name: str) -> float:
    text = httpx.get(server.url + "/metrics").text
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found is not None, name
    return float(found.group(1))


async def authed(server: ServerProcess, api: Api, name: str = "Ann") -> Client:
    _, token = await api.new_player(name)
    room = await api.new_room(token)
    client = await Client.connect(server.ws_url, name)
    assert (await client.hello(token, room=room))["type"] == "welcome"
    return client


async def test_flood_is_rate_limited_then_closed(strict: ServerProcess) -> None:
    async with Api(strict.url) as api:
        flooder = await authed(strict, api, "Flo")
        calm = await authed(strict, api, "Cal")
        # A burst of 80 pings: the bucket holds 40, the rest are refused, each answered. The
        # refill while they travel is what the clock allows: at most RATE per second.
        started = time.monotonic()
        for seq in range(1, 81):
            await flooder.send({"type": "ping", "seq": seq})
        answers = [await flooder.answer(seq) for seq in range(1, 81)]
        refilled = RATE * (time.monotonic() - started)
        applied = [a for a in answers if a["type"] == "applied"]
        limited = [a for a in answers if a["type"] == "refused"]
        assert BURST <= len(applied) <= BURST + refilled + 1
        assert all(a["code"] == "rate-limited" for a in limited)
        assert (await calm.call("ping"))["type"] == "applied"  # others are not slowed down
        # (How the bucket refills, on a fake clock: the doctests of scorpion.web.limits.)
        # A sustained flood (100 refusals in a row) closes the socket: 4029.
        for seq in range(100, 400):
            await flooder.send_raw(f'{{"type": "ping", "seq": {seq}}}')
        code, reason = await flooder.closed(timeout=10)
        assert code == 4029 and "flood" in reason
        assert (await calm.call("ping"))["type"] == "applied"
        assert metric(strict, 'scorpion_refused_commands_total{reason="rate-limited"}') >= 100


async def test_a_paced_flood_is_closed_and_mostly_unanswered(tmp_path: Path) -> None:
    """Batches of 100 frames 50 ms apart (the default rate lets one through every 50 ms):
    never 200 refusals in a row, yet at 2,000 refusals a second the socket is closed (4029).
    Past the first refusals of the window they are only counted, not answered."""
    server = start_server(tmp_path, {})  # the defaults: 20/s, bursts of 40, 200 per 10 s
    try:
        async with Api(server.url) as api:
            flooder = await authed(server, api, "Pace")
            calm = await authed(server, api, "Calm")
            seq = 0
            sent = 0

            async def pace() -> None:
                nonlocal seq, sent
                for _ in range(200):  # 20,000 frames at most; the close ends it far sooner
                    for _ in range(100):
                        seq += 1
                        await flooder.send_raw(f'{{"type": "ping", "seq": {seq}}}')
                        sent += 1
                    await asyncio.sleep(0.05)  # the pacing under test, not a wait for the server

            pacer = asyncio.ensure_future(pace())
            code, reason = await flooder.closed(timeout=30)
            pacer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await pacer
            assert code == 4029 and "flood" in reason
            refused = [f for f in flooder.frames if f.get("type") == "refused"]
            assert all(f["code"] == "rate-limited" for f in refused)
            counted = metric(server, 'scorpion_refused_commands_total{reason="rate-limited"}')
            assert counted > 200  # over the flood limit, and only the first 50 answered
            assert len(refused) <= 60  # (a few more while the count leaks, on a slow machine)
            assert sent < 20_000  # closed while pacing, not at the end
            assert (await calm.call("ping"))["type"] == "applied"  # others carry on
    finally:
        server.stop()


async def test_connections_per_address_are_limited(strict: ServerProcess) -> None:
    async with Api(strict.url) as api:
        first = [await authed(strict, api, f"P{i}") for i in range(4)]
        extra = await Client.connect(strict.ws_url)
        code, reason = await extra.closed(timeout=5)
        assert code == 1013 and "retry" in reason
        await first[0].close()
        for _ in range(50):  # its slot is freed once the server has seen it go
            if metric(strict, "scorpion_connections") == 3:
                break
            await asyncio.sleep(0.1)
        again = await authed(strict, api, "Again")
        assert (await again.call("ping"))["type"] == "applied"


async def test_no_hello_and_silence_are_closed(strict: ServerProcess) -> None:
    async with Api(strict.url) as api:
        mute = await Client.connect(strict.ws_url)
        refusal = await mute.recv(timeout=5)
        assert refusal["code"] == "not-authenticated"
        assert (await mute.closed(timeout=5))[0] == 4000
        quiet = await authed(strict, api, "Quiet")
        chatty = await authed(strict, api, "Chatty")
        quiet_closed = asyncio.ensure_future(quiet.closed(timeout=20))
        while not quiet_closed.done():  # bounded by that timeout
            assert (await chatty.call("ping"))["type"] == "applied"  # the app heartbeat
            await asyncio.sleep(0.2)
        code, reason = await quiet_closed
        assert code == 4010 and "ping" in reason
        assert (await chatty.call("ping"))["type"] == "applied"


class SlowReader:
    """A websocket client on a raw socket with a tiny receive buffer that never reads."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(10)
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        response = b""
        while b"\r\n\r\n" not in response:
            response += self.sock.recv(1)  # byte by byte: read nothing past the handshake
        assert b" 101 " in response.split(b"\r\n")[0], response
        self.protocol.receive_data(response)

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            self.sock.sendall(data)

    def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    def close(self) -> None:
        self.sock.close()


async def test_a_slow_reader_is_dropped_and_others_carry_on(tmp_path: Path) -> None:
    server = start_server(tmp_path, {"rate": 1e6, "burst": 1e6, "send_queue": 16})
    try:
        async with Api(server.url) as api:
            _, token = await api.new_player("Slow")
            room = await api.new_room(token)
            calm = await authed(server, api, "Calm")
            slow = SlowReader(server.port)
            slow.send(orjson.dumps({"type": "hello", "token": token, "room": room}).decode())
            loop = asyncio.get_running_loop()
            deadline = time.monotonic() + 30
            seq = 0
            while metric(server, "scorpion_send_queue_drops_total") < 1:
                assert time.monotonic() < deadline, "the slow reader was never dropped"

                def burst(start: int) -> None:
                    for i in range(start, start + 2000):
                        slow.send(f'{{"type":"ping","seq":{i}}}')

                try:
                    await loop.run_in_executor(None, burst, seq + 1)
                except OSError:
                    break  # the server gave up on us: also a drop
                seq += 2000
                # Meanwhile everyone else is served promptly.
                assert (await calm.call("ping", timeout=5))["type"] == "applied"
            slow.close()
            assert metric(server, "scorpion_send_queue_drops_total") >= 1
            assert (await calm.call("ping"))["type"] == "applied"
            for _ in range(100):  # the dropped connection is forgotten
                if metric(server, "scorpion_connections") == 1:
                    break
                await asyncio.sleep(0.1)
            assert metric(server, "scorpion_connections") == 1
    finally:
        server.stop()
