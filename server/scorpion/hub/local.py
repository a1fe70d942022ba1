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

A frame for many connections (a daily's crowd) is handed out in slices of ``slice_size``,
one slice per turn of the event loop and ``slice_gap`` seconds apart, so a command never
waits behind more than one slice, and the loop goes idle between slices: the store's
thread gets the interpreter lock at once instead of after a 5 ms switch interval each
time it wants it (without the gap, a write during a fan-out waited behind every slice).
Each connection still gets its frames in the order they were sent: a frame for a
connection that a fan-out has not reached yet first hands it the fan-out's frame.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from .base import Hub, Subscriber

SLICE_SIZE: Final = 100  # frames handed out per turn of the loop (~2.5 ms with their writes)
SLICE_GAP: Final = 0.002  # seconds between slices (9,000 sockets: 90 slices, about 0.4 s)


class FanOut:
    """One frame on its way to many connections, a slice at a time."""

    __slots__ = ("conns", "frame", "position", "waiting")

    def __init__(self, conns: list[int], frame: str) -> None:
        self.conns = conns
        self.frame = frame
        self.position = 0  # conns before it were handed the frame (or skipped)
        self.waiting = set(conns)  # not handed the frame yet

    def take(self, conn_id: int) -> bool:
        """Whether ``conn_id`` still waits for this frame (it will be handed it now)."""
        if conn_id in self.waiting:
            self.waiting.discard(conn_id)
            return True
        return False


class LocalHub:
    """Fan-out within one process (the default)."""

    def __init__(self, slice_size: int = SLICE_SIZE, slice_gap: float = SLICE_GAP) -> None:
        self._subscribers: dict[int, Subscriber] = {}
        self.slice_size = slice_size
        self.slice_gap = slice_gap
        self._fan_outs: deque[FanOut] = deque()  # in the order they were sent

    def attach(self, conn_id: int, subscriber: Subscriber) -> None:
        self._subscribers[conn_id] = subscriber

    def detach(self, conn_id: int) -> None:
        self._subscribers.pop(conn_id, None)

    def send(self, conns: Iterable[int], frame: str) -> int:
        """Deliver ``frame`` to ``conns``: at once, or (many of them, in an event loop) in
        slices from the next turns on; returns how many took it or were found to take it."""
        conns = list(conns)
        if len(conns) > self.slice_size and self._loop_running():
            fan_out = FanOut(conns, frame)
            self._fan_outs.append(fan_out)
            if len(self._fan_outs) == 1:
                asyncio.get_running_loop().call_soon(self._next_slice)
            return sum(1 for conn_id in conns if conn_id in self._subscribers)
        delivered = 0
        for conn_id in conns:
            if self._deliver(conn_id, frame):
                delivered += 1
        return delivered

    def _deliver(self, conn_id: int, frame: str) -> bool:
        subscriber = self._subscribers.get(conn_id)
        if subscriber is None:
            return False
        for fan_out in self._fan_outs:  # earlier frames this connection waits for go first
            if fan_out.take(conn_id):
                subscriber.deliver(fan_out.frame)
        return subscriber.deliver(frame)

    def _next_slice(self) -> None:
        """Hand the oldest fan-out's frame to its next slice; come back after the gap if
        more."""
        fan_out = self._fan_outs[0]
        end = min(fan_out.position + self.slice_size, len(fan_out.conns))
        for conn_id in fan_out.conns[fan_out.position : end]:
            if fan_out.take(conn_id):
                subscriber = self._subscribers.get(conn_id)
                if subscriber is not None:
                    subscriber.deliver(fan_out.frame)
        fan_out.position = end
        if end == len(fan_out.conns):
            self._fan_outs.popleft()
        if self._fan_outs:
            asyncio.get_running_loop().call_later(self.slice_gap, self._next_slice)

    @property
    def fanning_out(self) -> int:
        """Frames still on their way to part of their connections."""
        return len(self._fan_outs)

    @staticmethod
    def _loop_running() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain call): deliver at once
            return False
        return True

    def __len__(self) -> int:
        return len(self._subscribers)


if TYPE_CHECKING:  # mypy checks that LocalHub implements the Hub interface
    _conforms: Hub = LocalHub()
