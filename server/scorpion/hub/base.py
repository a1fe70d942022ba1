"""The hub's interface: fan-out of ready-encoded frames to connections by id.

The race layer addresses its messages to connection ids (``Send(conns, message)``);
the web layer encodes each message once and hands the frame to the hub, which
delivers it to every connection it names. Delivery never waits for a client:
:meth:`Subscriber.deliver` only enqueues (or drops a slow client), so one slow
reader never delays the room. A Redis hub would route ids owned by other processes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Subscriber(Protocol):
    def deliver(self, frame: str) -> bool:
        """Queue one encoded frame without waiting; False when it could not be queued."""
        ...


class Hub(Protocol):
    def attach(self, conn_id: int, subscriber: Subscriber) -> None: ...
    def detach(self, conn_id: int) -> None: ...
    def send(self, conns: Iterable[int], frame: str) -> int:
        """Deliver ``frame`` to each connection in ``conns`` (to many, over the next few
        turns of the event loop; each connection's frames stay in the order sent);
        return how many took it."""
        ...

    def __len__(self) -> int: ...
