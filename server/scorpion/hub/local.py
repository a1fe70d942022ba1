"""The in-process hub: connection ids to their subscribers.

>>> class Inbox:
...     def __init__(self) -> None:
...         self.frames: list[str] = []
...     def deliver(self, frame: str) -> bool:
...         self.frames.append(frame)
...         return True
>>> hub, a, b = LocalHub(), Inbox(), Inbox()
>>> hub.attach(1, a); hub.attach(2, b)
>>> hub.send((1, 2), "hello"), hub.send((3,), "nobody")
(2, 0)
>>> hub.detach(2); hub.detach(2)
>>> hub.send((1, 2), "again"), a.frames, b.frames, len(hub)
(1, ['hello', 'again'], ['hello'], 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .base import Hub, Subscriber


class LocalHub:
    """Fan-out within one process (the default)."""

    def __init__(self) -> None:
        self._subscribers: dict[int, Subscriber] = {}

    def attach(self, conn_id: int, subscriber: Subscriber) -> None:
        self._subscribers[conn_id] = subscriber

    def detach(self, conn_id: int) -> None:
        self._subscribers.pop(conn_id, None)

    def send(self, conns: Iterable[int], frame: str) -> int:
        delivered = 0
        for conn_id in conns:
            subscriber = self._subscribers.get(conn_id)
            if subscriber is not None and subscriber.deliver(frame):
                delivered += 1
        return delivered

    def __len__(self) -> int:
        return len(self._subscribers)


if TYPE_CHECKING:  # mypy checks that LocalHub implements the Hub interface
    _conforms: Hub = LocalHub()
