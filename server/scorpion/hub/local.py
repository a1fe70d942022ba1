"""The in-process hub: a dict of topics to sets of subscribers.

>>> class Inbox:
...     def __init__(self) -> None:
...         self.frames: list[str] = []
...     def deliver(self, frame: str) -> bool:
...         self.frames.append(frame)
...         return True
>>> hub, a, b = LocalHub(), Inbox(), Inbox()
>>> hub.subscribe("room:1", a); hub.subscribe("room:1", b); hub.subscribe("room:2", b)
>>> hub.publish("room:1", "hello"), hub.publish("room:3", "nobody")
(2, 0)
>>> hub.unsubscribe_all(b)
>>> hub.publish("room:2", "gone"), a.frames, b.frames
(0, ['hello'], ['hello'])
"""

from __future__ import annotations

from .base import Subscriber


class LocalHub:
    """Fan-out within one process (the default; a Redis hub would share topics between hosts)."""

    def __init__(self) -> None:
        self._topics: dict[str, set[Subscriber]] = {}
        self._by_subscriber: dict[Subscriber, set[str]] = {}

    def subscribe(self, topic: str, subscriber: Subscriber) -> None:
        self._topics.setdefault(topic, set()).add(subscriber)
        self._by_subscriber.setdefault(subscriber, set()).add(topic)

    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None:
        members = self._topics.get(topic)
        if members is not None:
            members.discard(subscriber)
            if not members:
                del self._topics[topic]
        topics = self._by_subscriber.get(subscriber)
        if topics is not None:
            topics.discard(topic)
            if not topics:
                del self._by_subscriber[subscriber]

    def unsubscribe_all(self, subscriber: Subscriber) -> None:
        for topic in list(self._by_subscriber.get(subscriber, ())):
            self.unsubscribe(topic, subscriber)

    def publish(self, topic: str, frame: str) -> int:
        # A copy: delivering may drop a slow subscriber, which unsubscribes it.
        return sum(s.deliver(frame) for s in list(self._topics.get(topic, ())))

    def count(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))

    def topics(self, subscriber: Subscriber) -> set[str]:
        return set(self._by_subscriber.get(subscriber, ()))
