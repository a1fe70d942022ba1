"""uvicorn's sans-I/O websocket protocol, leaving no garbage cycle behind when it closes,
and writing a text frame without a coroutine.

websockets' :class:`~websockets.server.ServerProtocol` parses with a generator that holds
the protocol (``parser``), and after the connection ends that generator stays suspended
for good: a reference cycle, which keeps the protocol, its buffers and whatever the last
frames held alive until a collection finds it. With web/collector.py freezing what lives
past a second, that is the next *major* collection, an hour away: a process that sees
sockets come and go grew by some 15 MB an hour (benchmarks/results/soak.md). Closing the
generator when the connection is lost ends the cycle; reference counting then frees the
connection's objects at once.

Every command's answer and every room event is a text frame: uvicorn's ``send`` makes each
one a coroutine, an ASGI message, websockets' ``Frame`` object and its serialisation, for a
header of two to ten bytes. :meth:`ClosingWebSockets.send_text_now` writes the same bytes
directly when uvicorn's ``send`` would not wait; the app finds it in the scope's extensions
(:data:`SEND_TEXT`).

A shortcut (``--shortcuts off`` runs uvicorn's own class); tests/web/test_ws_protocol.py
pins what it relies on.
"""

from __future__ import annotations

import struct

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

SEND_TEXT = "scorpion.send_text"  # the scope extension: send_text_now of the socket
_TEXT = 0x81  # FIN and the text opcode (RFC 6455, 5.2); a server's frames are not masked


def text_frame(data: bytes) -> bytes:
    """A whole, unmasked text frame carrying ``data`` (UTF-8).

    >>> text_frame(b"hi")
    b'\\x81\\x02hi'
    >>> text_frame(b"x" * 126)[:4], len(text_frame(b"x" * 70000)) - 70000
    (b'\\x81~\\x00~', 10)
    """
    n = len(data)
    if n < 126:
        return bytes((_TEXT, n)) + data
    if n < 1 << 16:
        return struct.pack("!BBH", _TEXT, 126, n) + data
    return struct.pack("!BBQ", _TEXT, 127, n) + data


class ClosingWebSockets(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if not self.close_sent:  # upgrading: the app gets the scope made for it
            self.scope["extensions"][SEND_TEXT] = self.send_text_now  # type: ignore[assignment]

    def send_text_now(self, text: str) -> bool:
        """Write ``text`` as one text frame now, as uvicorn's ``send`` would; False, writing
        nothing, when its ``send`` would wait (flow control), fail or refuse (not accepted
        yet, closing, gone): the caller then takes ``send``."""
        if not (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
            and not self.transport.is_closing()
        ):
            return False
        # websockets' protocol keeps no state of the data frames it sends unfragmented, and
        # uvicorn hands whatever it makes to the transport at once: nothing can interleave.
        self.transport.write(text_frame(text.encode()))
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing is parsed after this: the parser is done (receive_data and receive_eof
        # are only called from data_received). The exception it stopped on, if any, holds
        # its frames, which hold the protocol: dropped too.
        self.conn.parser.close()
        self.conn.parser_exc = None
        scope = getattr(self, "scope", None)  # set when an upgrade began
        if scope is not None:
            scope["extensions"].pop(SEND_TEXT, None)  # it holds this protocol: a cycle
