"""The hub's interface: fan-out of ready-encoded frames to the subscribers of a topic.

A topic is a string such as ``room:ab12`` (everyone in a room) or
``room:ab12:follow:p7`` (spectators following one player). Publishing never waits
for a subscriber: :meth:`Subscriber.deliver` only enqueues (or drops a slow client),
so one slow reader never delays the room.
"""

from __future__ import annotations

from typing import Protocol


class Subscriber(Protocol):
    def deliver(self, frame: str) -> bool:
        """Queue one encoded frame without waiting; False when it could not be queued."""
        ...


class Hub(Protocol):
    def subscribe(self, topic: str, subscriber: Subscriber) -> None: ...
    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None: ...
    def unsubscribe_all(self, subscriber: Subscriber) -> None: ...
    def publish(self, topic: str, frame: str) -> int:
        """Deliver ``frame`` to every subscriber of ``topic``; return how many took it."""
        ...

    def count(self, topic: str) -> int: ...
