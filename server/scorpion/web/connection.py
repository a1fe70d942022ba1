"""One websocket connection: a bounded send queue drained by a writer task while it holds frames.

Nothing ever waits on a client: :meth:`Connection.deliver` only enqueues. A client
that reads too slowly fills its queue and is dropped (close code 4008, counted in
metrics); it can reconnect and catch up with ``last_version``. The socket of a
dropped client that reads nothing at all is freed by uvicorn's ping timeout.

Most sockets are idle most of the time (a crowd watching a daily, a lobby), so an idle
connection holds no queue and no task. A frame for a connection with nothing waiting is
sent at once: uvicorn's sans-I/O websockets hand it to the transport's buffer without
waiting, so most frames need no task at all. Only a send that has to wait (another
websocket implementation, flow control) makes a queue and a writer task, which ends,
dropping the queue, once it has sent the last frame. One writer at a time keeps the
frames in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from types import CoroutineType
from typing import Any, Final

import orjson
from starlette.types import Message
from starlette.websockets import WebSocket

from scorpion.race.protocol import GOING_AWAY, TOO_SLOW

from .config import Limits
from .limits import FloodGauge, TokenBucket
from .metrics import Metrics

log = logging.getLogger("scorpion.web")


_CLOSE: Final = ""  # the sentinel frame: a real frame is never empty


def encode(message: object) -> str:
    return orjson.dumps(message).decode()


class _Resumed:
    """A coroutine that waited outside any task, handed on to one: awaiting this runs the
    rest of it exactly as ``yield from`` would (the task sees the future it waits on)."""

    __slots__ = ("coro", "pending")

    def __init__(self, coro: Coroutine[Any, Any, None], pending: object) -> None:
        self.coro, self.pending = coro, pending

    def __await__(self) -> Generator[Any, Any, None]:
        value = self.pending
        while True:
            try:
                received = yield value
            except BaseException as exc:  # cancelled while waiting: the coroutine decides
                try:
                    value = self.coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    value = self.coro.send(received)
                except StopIteration:
                    return


async def _awaited(awaitable: Awaitable[None]) -> None:
    await awaitable


class Connection:
    """A connection's outgoing side and its limits. ``id`` is the race layer's ConnId."""

    __slots__ = (
        "_context",
        "_frames",
        "_reason",
        "_send",
        "_send_text",
        "_writer",
        "bucket",
        "close_code",
        "flood",
        "id",
        "inline",
        "last_seen",
        "limit",
        "metrics",
        "on_drop",
        "player",
        "token",
        "written",
        "ws",
    )

    def __init__(
        self,
        conn_id: int,
        ws: WebSocket,
        send: Callable[[Message], Awaitable[None]],
        limits: Limits,
        metrics: Metrics,
        on_drop: Callable[[Connection], None] | None = None,
        *,
        inline: bool = True,
        send_text: Callable[[str], bool] | None = None,
    ) -> None:
        self.id = conn_id
        # Send a frame at once when nothing waits (stepping uvicorn's send by hand); False
        # (shortcuts off): every frame goes through the writer task, awaited plainly.
        self.inline = inline
        self.ws = ws
        # Frames go to the ASGI send ``ws`` was made with (see ws_endpoint); the close
        # goes through ``ws``.
        self._send = send
        # The socket's own writer of a text frame (web/ws_protocol.py), tried first by an
        # inline send: False when it would have to wait, and ``send`` is taken.
        self._send_text = send_text
        self.metrics = metrics
        self.on_drop = on_drop
        self.limit = limits.send_queue  # frames waiting at most (the one being sent aside)
        self._frames: deque[str] | None = None  # waiting for the writer; None when none
        self._writer: asyncio.Task[None] | None = None  # runs only while frames wait
        # The creator's log context (request and connection ids): the writer runs in it
        # wherever the frame came from (deliver() runs in the task of whoever made it).
        self._context = contextvars.copy_context()
        self.bucket = TokenBucket(limits.rate, limits.burst)
        self.flood: FloodGauge | None = None  # made at its first rate-limited command
        self.last_seen = time.monotonic()
        self.player: str | None = None
        self.token: bytes | None = None  # the hash of the hello's token: a sign-out closes it
        # Done once its last command's records are written and its answer sent (web/ws.py
        # applies the next one after that); None when that command was answered at once.
        self.written: asyncio.Future[None] | None = None
        self.close_code: int | None = None  # set once closing has begun
        self._reason = ""

    @property
    def closing(self) -> bool:
        return self.close_code is not None

    @property
    def queued(self) -> int:
        """Frames waiting to be sent (the one being sent aside)."""
        return len(self._frames) if self._frames is not None else 0

    def deliver(self, frame: str) -> bool:
        """Queue an encoded frame; drop the connection when its queue is full."""
        if self.close_code is not None:
            return False
        if self.queued >= self.limit:
            self.metrics.send_drops.inc()
            log.warning("dropping slow connection %s (send queue full)", self.id)
            self.abort(TOO_SLOW, "too slow: send queue overflow")
            if self.on_drop is not None:
                self.on_drop(self)
            return False
        self._enqueue(frame)
        return True

    def send(self, message: object) -> bool:
        return self.deliver(encode(message))

    def close(self, code: int, reason: str = "") -> None:
        """Close after the frames already queued have been sent."""
        if self.close_code is not None:
            return
        self.close_code = code
        self._reason = reason
        if self.queued >= self.limit:
            self.abort(code, reason)
        else:
            self._enqueue(_CLOSE)

    def abort(self, code: int, reason: str = "") -> None:
        """Close now, dropping whatever is still queued."""
        self.close_code = code
        if self._writer is not None:
            self._writer.cancel()
        self._frames = None
        self._writer = self._task(self._close(code, reason), "ws-close")

    def _enqueue(self, frame: str) -> None:
        if self._writer is None and frame is not _CLOSE and self.inline:
            rest = self._context.run(self._send_now, frame)  # logged as this connection's
            if rest is None:
                return
            self._frames = deque()  # what comes meanwhile waits behind the rest
            self._writer = self._task(self._write_loop(rest), "ws-writer")
            return
        if self._frames is None:
            self._frames = deque()
        self._frames.append(frame)
        if self._writer is None:
            self._writer = self._task(self._write_loop(), "ws-writer")

    def _send_now(self, frame: str) -> _Resumed | None:
        """Send ``frame`` now; what is left of the send if it has to wait, else None."""
        if self._send_text is not None and self._send_text(frame):
            self.metrics.frames_sent.inc()
            return None
        sending = self._send({"type": "websocket.send", "text": frame})
        # uvicorn's send is a coroutine, stepped here by hand; any other awaitable is
        # wrapped in one.
        send = sending if isinstance(sending, CoroutineType) else _awaited(sending)
        try:
            pending = send.send(None)
        except StopIteration:
            self.metrics.frames_sent.inc()
            return None
        except Exception:  # the client went away: the reader sees the disconnect
            return None
        return _Resumed(send, pending)

    def _task(self, coro: Coroutine[object, object, None], name: str) -> asyncio.Task[None]:
        return asyncio.create_task(coro, name=f"{name}-{self.id}", context=self._context)

    async def _write_loop(self, rest: _Resumed | None = None) -> None:
        frames = self._frames
        try:
            if rest is not None:
                await rest
                self.metrics.frames_sent.inc()
            while frames:
                frame = frames.popleft()
                if frame is _CLOSE:
                    break
                await self._send({"type": "websocket.send", "text": frame})
                self.metrics.frames_sent.inc()
            else:  # all sent: an idle connection keeps neither the queue nor this task
                self._frames = self._writer = None
                return
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
        if self._writer is None:
            return
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)

    def stop(self) -> None:
        """Forget the writer when the socket is gone (called once the reader has ended)."""
        if self.close_code is None:
            self.close_code = GOING_AWAY
        if self._writer is not None:
            self._writer.cancel()
        self._frames = None
