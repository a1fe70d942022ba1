"""uvicorn's HTTP/1.1 protocol (httptools) with the bounds it lacks, for a server without
nginx in front: a request head of at most ``max_head`` bytes (431), received within
``head_timeout`` seconds, and the rest of its body within ``body_timeout`` seconds.

uvicorn's httptools protocol buffers a request line or header of any size (a 4 MB header,
or 20 MB of one that never ends, is held in memory) and has no timeout before its first
response: a connection that sends nothing, or a head a byte at a time, is kept for ever
(uvicorn #157, #160). The ASGI app cannot help: it sees a request once its head is
complete. So the head's bytes are counted as they arrive, and one deadline per
connection runs while the client owes the server something (the head of its next
request, or the rest of a body). It stops while the app works on a request, and when a
websocket takes the connection over (its own limits apply there).

A refused or stalled request is answered (431, 408) or not, then the connection lingers a
moment, reading and discarding, before it closes: closing with unread data would reset the
connection, and the client might never read the answer.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import httptools
import orjson
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from .config import Limits

LINGER = 2.0  # seconds a refused connection reads and discards before it closes


def refusal(status: int, code: str, message: str) -> bytes:
    r"""A whole response with the API's JSON error shape, closing the connection.

    >>> head, body = refusal(431, "headers-too-large", "at most 1 byte").split(b"\r\n\r\n")
    >>> head.split(b"\r\n")[0], b"connection: close" in head
    (b'HTTP/1.1 431 Request Header Fields Too Large', True)
    >>> body
    b'{"error":{"code":"headers-too-large","message":"at most 1 byte"}}'
    """
    body = orjson.dumps({"error": {"code": code, "message": message}})
    head = (b"content-type: application/json\r\ncontent-length: %d\r\n"
            b"cache-control: no-store\r\nconnection: close\r\n\r\n") % len(body)  # fmt: skip
    return STATUS_LINE[status] + head + body


class HeadTooLarge(Exception):
    """Raised in a parser callback: the head is over ``max_head`` bytes (stops the parser)."""


class BoundedHttp(HttpToolsProtocol):
    """One HTTP connection; :func:`bounded_http` gives the class its ``limits``."""

    limits: ClassVar[Limits] = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_head = True  # where the parser is: in a request head (or before one)
        self.head_bytes = 0  # bytes received while in this head
        self.head_size = 0  # its request target and headers, as parsed
        self.lingering = False  # answered for the last time: discard, then close
        self.deadline: asyncio.TimerHandle | None = None

    # The deadline

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self.deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expired(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.lingering or (self.in_head and not self.head_bytes):  # silent, or idle
            self.transport.close()
            return
        if self.in_head:  # a head begun and not finished: say so
            message = f"the request head did not arrive within {self.limits.head_timeout:g} s"
            self.transport.write(refusal(408, "timeout", message))
        # A head or a body that stopped (the app waiting for that body sees the client
        # gone once the connection closes).
        self._linger()

    def _linger(self) -> None:
        """No more answers on this connection: say so (FIN), read and discard a moment."""
        self.lingering = True
        self.flow.resume_reading()
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._arm(min(LINGER, self.limits.head_timeout))

    def _too_large(self) -> None:
        message = f"the request line and headers hold at most {self.limits.max_head} bytes"
        self.transport.write(refusal(431, "headers-too-large", message))
        self._linger()

    # The protocol

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.limits.head_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # uvicorn's own, but counting the head's bytes and refusing it past max_head (the
        # parser holds an unfinished header in memory).
        if self.lingering:
            return
        if self.in_head:
            self.head_bytes += len(data)
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError:
            if self.head_size > self.limits.max_head:
                self._too_large()
            else:
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            return
        if self.in_head and self.head_bytes > self.limits.max_head:
            self._too_large()

    def _count(self, size: int) -> None:
        self.head_size += size
        if self.head_size > self.limits.max_head:
            raise HeadTooLarge

    def on_message_begin(self) -> None:
        self.head_size = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.in_head = False
        self.head_bytes = 0
        self._arm(self.limits.body_timeout)  # an upgrade disarms it
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self.in_head = True  # what comes next is the next request's head
        if self.cycle is not None and self.cycle.response_complete:
            self._arm(self.limits.head_timeout)  # answered already: the next head is due
        else:
            self._disarm()  # the app may take its time to answer
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing() or self.lingering:
            return
        # Answered before the whole body came (413, 401): the rest is parsed and dropped
        # by uvicorn, under the body's deadline, and the connection stays usable after.
        if self.in_head and self.cycle is not None and self.cycle.response_complete:
            self._arm(self.limits.head_timeout)  # nothing pipelined: the next head is due

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the websocket protocol takes the transport, with its own limits
        super().handle_websocket_upgrade()
        # Done: but the parser holds this protocol's methods, a cycle that would keep the
        # transport (and the websocket protocol) until a collection (web/ws_protocol.py).
        # uvicorn breaks it so when a connection is lost, never called here after an upgrade.
        self.parser = None  # type: ignore[assignment]


def bounded_http(limits: Limits) -> type[BoundedHttp]:
    """The protocol class for uvicorn's ``http=``, with these limits."""
    return type("BoundedHttp", (BoundedHttp,), {"limits": limits})
