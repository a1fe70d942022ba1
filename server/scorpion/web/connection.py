"""One websocket connection: a bounded send queue drained by its own writer task.

Nothing ever waits on a client: :meth:`Connection.deliver` only enqueues. A client
that reads too slowly fills its queue and is dropped (close code 4008, counted in
metrics); it can reconnect and catch up with ``last_version``. The socket of a
dropped client that reads nothing at all is freed by uvicorn's ping timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final

import orjson
from starlette.websockets import WebSocket

from scorpion.race.protocol import GOING_AWAY, TOO_SLOW

from .config import Limits
from .limits import TokenBucket
from .metrics import Metrics

log = logging.getLogger("scorpion.web")


_CLOSE: Final = ""  # the sentinel frame: a real frame is never empty


def encode(message: object) -> str:
    return orjson.dumps(message).decode()


class Connection:
    """A connection's outgoing side and its limits. ``id`` is the race layer's ConnId."""

    __slots__ = (
        "_queue",
        "_reason",
        "_writer",
        "bucket",
        "close_code",
        "id",
        "last_seen",
        "metrics",
        "on_drop",
        "player",
        "refusals",
        "room",
        "ws",
    )

    def __init__(
        self,
        conn_id: int,
        ws: WebSocket,
        limits: Limits,
        metrics: Metrics,
        on_drop: Callable[[Connection], None] | None = None,
    ) -> None:
        self.id = conn_id
        self.ws = ws
        self.metrics = metrics
        self.on_drop = on_drop
        self._queue: asyncio.Queue[str] = asyncio.Queue(limits.send_queue)
        self.bucket = TokenBucket(limits.rate, limits.burst)
        self.refusals = 0  # rate-limited commands in a row
        self.last_seen = time.monotonic()
        self.player: str | None = None
        self.room: str | None = None
        self.close_code: int | None = None  # set once closing has begun
        self._reason = ""
        self._writer = asyncio.create_task(self._write_loop(), name=f"ws-writer-{conn_id}")

    @property
    def closing(self) -> bool:
        return self.close_code is not None

    def deliver(self, frame: str) -> bool:
        """Queue an encoded frame; drop the connection when its queue is full."""
        if self.close_code is not None:
            return False
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.metrics.send_drops.inc()
            log.warning("dropping slow connection %s (send queue full)", self.id)
            self.abort(TOO_SLOW, "too slow: send queue overflow")
            if self.on_drop is not None:
                self.on_drop(self)
            return False
        return True

    def send(self, message: object) -> bool:
        return self.deliver(encode(message))

    def close(self, code: int, reason: str = "") -> None:
        """Close after the frames already queued have been sent."""
        if self.close_code is not None:
            return
        self.close_code = code
        self._reason = reason
        try:
            self._queue.put_nowait(_CLOSE)
        except asyncio.QueueFull:
            self.abort(code, reason)

    def abort(self, code: int, reason: str = "") -> None:
        """Close now, dropping whatever is still queued."""
        self.close_code = code
        self._writer.cancel()
        while not self._queue.empty():
            self._queue.get_nowait()
        self._writer = asyncio.create_task(self._close(code, reason), name=f"ws-close-{self.id}")

    async def _write_loop(self) -> None:
        try:
            while True:
                frame = await self._queue.get()
                if frame is _CLOSE:
                    break
                await self.ws.send_text(frame)
                self.metrics.frames_sent.inc()
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away: the reader sees the disconnect
            return
        await self._close(self.close_code or GOING_AWAY, self._reason)

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            # A client that reads nothing can hold a close forever: bound it.
            await asyncio.wait_for(self.ws.close(code, reason[:120]), 5.0)

    async def wait_closed(self, timeout: float) -> None:
        """Wait for the writer to finish (after :meth:`close`), at most ``timeout`` seconds."""
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)

    def stop(self) -> None:
        """Forget the writer when the socket is gone (called once the reader has ended)."""
        if self.close_code is None:
            self.close_code = GOING_AWAY
        self._writer.cancel()
