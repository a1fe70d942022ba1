"""One connection's send side, directly: a bounded queue, a slow reader dropped (4008),
frames sent in order, a close sent after what was queued."""

from __future__ import annotations

import asyncio

from scorpion.web.config import Limits
from scorpion.web.connection import Connection
from scorpion.web.metrics import Metrics


class FakeSocket:
    """Sends wait until the test lets them through, like a client that reads slowly."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.reading = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_frames_go_in_order_and_the_close_after_them() -> None:
    ws = FakeSocket()
    ws.reading.set()
    conn = Connection(1, ws, Limits(send_queue=8), Metrics())  # type: ignore[arg-type]
    for n in range(3):
        assert conn.send({"n": n})
    conn.close(4000, "bye")
    assert not conn.send({"n": 9})  # closing: nothing more is queued
    await conn.wait_closed(5)
    assert ws.sent == ['{"n":0}', '{"n":1}', '{"n":2}'] and ws.closed == (4000, "bye")


async def test_a_reader_that_never_reads_is_dropped_when_its_queue_is_full() -> None:
    ws = FakeSocket()  # never reads
    metrics = Metrics()
    dropped: list[int] = []
    conn = Connection(2, ws, Limits(send_queue=4), metrics, lambda c: dropped.append(c.id))  # type: ignore[arg-type]
    # No await in between: the writer has taken nothing yet, so four fit, the fifth drops.
    accepted = [conn.deliver(f"frame {n}") for n in range(10)]
    assert accepted == [True] * 4 + [False] * 6
    assert conn.close_code == 4008 and dropped == [2]
    await conn.wait_closed(5)
    assert ws.closed is not None and ws.closed[0] == 4008
    assert metrics.registry.get_sample_value("scorpion_send_queue_drops_total") == 1
