"""uvicorn's sans-I/O websocket protocol, leaving no garbage cycle behind when it closes.

websockets' :class:`~websockets.server.ServerProtocol` parses with a generator that holds
the protocol (``parser``), and after the connection ends that generator stays suspended
for good: a reference cycle, which keeps the protocol, its buffers and whatever the last
frames held alive until a collection finds it. With web/collector.py freezing what lives
past a second, that is the next *major* collection, an hour away: a process that sees
sockets come and go grew by some 15 MB an hour (benchmarks/results/soak.md). Closing the
generator when the connection is lost ends the cycle; reference counting then frees the
connection's objects at once.

A shortcut (``--shortcuts off`` runs uvicorn's own class); tests/web/test_ws_protocol.py
pins what it relies on.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class ClosingWebSockets(WebSocketsSansIOProtocol):
    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing is parsed after this: the parser is done (receive_data and receive_eof
        # are only called from data_received). The exception it stopped on, if any, holds
        # its frames, which hold the protocol: dropped too.
        self.conn.parser.close()
        self.conn.parser_exc = None
