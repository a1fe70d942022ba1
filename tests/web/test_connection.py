"""One connection's send side, directly: a bounded queue, a slow reader dropped (4008),
frames sent in order, a close sent after what was queued."""

from __future__ import annotations

import asyncio

from scorpion.web.config import Limits
from scorpion.web.connection import Connection
from scorpion.web.logs import CONN_ID
from scorpion.web.metrics import Metrics


class FakeSocket:
    """Sends wait until the test lets them through, like a client that reads slowly."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.reading = asyncio.Event()

    async def send(self, message: dict[str, str]) -> None:
        """The ASGI send: a data frame."""
        await self.reading.wait()
        self.sent.append(message["text"])

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_frames_go_in_order_and_the_close_after_them() -> None:
    ws = FakeSocket()
    ws.reading.set()
    conn = Connection(1, ws, ws.send, Limits(send_queue=8), Metrics())  # type: ignore[arg-type]
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
    conn = Connection(2, ws, ws.send, Limits(send_queue=4), metrics, lambda c: dropped.append(c.id))  # type: ignore[arg-type]
    # The first is being sent (it waits for the reader); four more fit, the sixth drops.
    accepted = [conn.deliver(f"frame {n}") for n in range(10)]
    assert accepted == [True] * 5 + [False] * 5
    assert conn.close_code == 4008 and dropped == [2]
    await conn.wait_closed(5)
    assert ws.closed is not None and ws.closed[0] == 4008
    assert metrics.registry.get_sample_value("scorpion_send_queue_drops_total") == 1


async def test_an_idle_connection_holds_no_queue_and_no_task() -> None:
    ws = FakeSocket()
    conn = Connection(3, ws, ws.send, Limits(send_queue=8), Metrics())  # type: ignore[arg-type]
    assert conn._frames is None and conn._writer is None and conn.queued == 0
    await conn.wait_closed(5)  # nothing to wait for
    # A burst to a slow reader: one writer sends it all in order, then both go away again.
    for n in range(5):
        assert conn.deliver(f"a{n}")
    writer = conn._writer
    assert writer is not None and conn.queued == 4  # a0 is being sent
    for n in range(3):
        assert conn.deliver(f"b{n}")  # while the writer waits: the same writer, in order
    assert conn._writer is writer
    ws.reading.set()
    await asyncio.wait_for(asyncio.shield(writer), 5)
    assert ws.sent == [f"a{n}" for n in range(5)] + [f"b{n}" for n in range(3)]
    assert conn._frames is None and conn._writer is None
    # The next frame starts a new writer; a close then follows it.
    assert conn.deliver("c")
    conn.close(1001, "bye")
    await conn.wait_closed(5)
    assert ws.sent[-1] == "c" and ws.closed == (1001, "bye")


async def test_a_send_that_need_not_wait_goes_at_once_without_a_task() -> None:
    ws = FakeSocket()
    ws.reading.set()  # a reader keeping up: uvicorn's sends hand frames to the transport
    conn = Connection(6, ws, ws.send, Limits(send_queue=8), Metrics())  # type: ignore[arg-type]
    for n in range(3):
        assert conn.deliver(f"f{n}")
        assert ws.sent[-1] == f"f{n}"  # sent before deliver returned
    assert conn._frames is None and conn._writer is None


async def test_the_sockets_own_writer_is_tried_first_and_send_taken_when_it_declines() -> None:
    """send_text (web/ws_protocol.py) writes while it can; when it declines (flow control)
    the frame takes the ASGI send, and later ones queue behind it, in order."""
    ws = FakeSocket()
    direct: list[str] = []
    open_ = [True]

    def send_text(frame: str) -> bool:
        if open_[0]:
            direct.append(frame)
        return open_[0]

    metrics = Metrics()
    conn = Connection(8, ws, ws.send, Limits(send_queue=8), metrics, send_text=send_text)  # type: ignore[arg-type]
    assert conn.deliver("a") and conn.deliver("b")
    assert direct == ["a", "b"] and ws.sent == [] and conn._writer is None
    open_[0] = False  # paused: the ASGI send waits for the reader
    assert conn.deliver("c") and conn.deliver("d")
    assert conn._writer is not None and ws.sent == []
    ws.reading.set()
    await asyncio.wait_for(asyncio.shield(conn._writer), 5)
    assert ws.sent == ["c", "d"] and direct == ["a", "b"]
    assert metrics.registry.get_sample_value("scorpion_frames_sent_total") == 4


async def test_the_plain_path_sends_every_frame_through_the_writer_in_order() -> None:
    ws = FakeSocket()
    ws.reading.set()
    conn = Connection(7, ws, ws.send, Limits(send_queue=8), Metrics(), inline=False)  # type: ignore[arg-type]
    for n in range(3):
        assert conn.deliver(f"f{n}")
    assert ws.sent == [] and conn._writer is not None  # shortcuts off: nothing sent inline
    await asyncio.wait_for(asyncio.shield(conn._writer), 5)
    assert ws.sent == ["f0", "f1", "f2"] and conn._writer is None and conn._frames is None


async def test_the_queue_bound_counts_waiting_frames_only() -> None:
    ws = FakeSocket()
    conn = Connection(4, ws, ws.send, Limits(send_queue=2), Metrics())  # type: ignore[arg-type]
    assert conn.deliver("one") and conn.deliver("two")
    await asyncio.sleep(0)
    assert conn.queued == 1 and conn.deliver("three")  # "one" is being sent: two wait
    assert not conn.deliver("four") and conn.close_code == 4008
    assert conn._frames is None  # dropped: what waited is gone
    ws.reading.set()
    await conn.wait_closed(5)
    assert ws.closed is not None and ws.closed[0] == 4008


async def test_a_close_with_a_full_queue_closes_at_once() -> None:
    ws = FakeSocket()  # never reads
    conn = Connection(5, ws, ws.send, Limits(send_queue=2), Metrics())  # type: ignore[arg-type]
    assert conn.deliver("one") and conn.deliver("two") and conn.deliver("three")
    conn.close(4010, "silent")
    await conn.wait_closed(5)
    assert ws.closed == (4010, "silent") and ws.sent == []
    conn.stop()
    assert conn._writer is not None and conn._frames is None


async def test_the_writer_runs_in_the_connections_log_context() -> None:
    seen: list[int | None] = []

    class Recording(FakeSocket):
        async def send(self, message: dict[str, str]) -> None:
            seen.append(CONN_ID.get())
            await super().send(message)

    ws = Recording()
    ws.reading.set()
    CONN_ID.set(7)
    conn = Connection(7, ws, ws.send, Limits(send_queue=8), Metrics())  # type: ignore[arg-type]

    async def other_connection() -> None:  # a broadcast made while serving someone else
        CONN_ID.set(8)
        conn.deliver("frame")

    await asyncio.create_task(other_connection())
    conn.close(1000)
    await conn.wait_closed(5)
    assert seen == [7]
