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
one slice per turn of the event loop and a gap apart, so a command never waits behind
more than one slice, and the loop goes idle between slices: the store's thread gets the
interpreter lock at once instead of after a 5 ms switch interval each time it wants it
(without the gap, a write during a fan-out waited behind every slice). The gap paces
the fan-out at ``rate`` frames a second, but never over more than ``spread`` seconds
(:meth:`LocalHub.gap`): a daily's update every 2 s handed out as fast as the loop
could kept the machine's cores busy with it, nginx and the readers in one burst, and the
players' answers (each a few round trips to the store, a turn of the loop each) waited
behind it: with 3,000 daily sockets on 3 processes the players' p99 was 46-77 ms, paced
13-14 ms, for the same CPU (``benchmarks/load --phases daily``). Each connection still
gets its frames in the order they were sent: a frame for a connection that a fan-out has
not reached yet first hands it the fan-out's frame.
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from .base import Hub, Subscriber

SLICE_SIZE: Final = 100  # frames handed out per turn of the loop (~2.5 ms with their writes)
SLICE_GAP: Final = 0.002  # seconds between slices, at least
FAN_OUT_RATE: Final = 5000.0  # frames a second a fan-out is paced at (a slice each 20 ms) ...
FAN_OUT_SPREAD: Final = 1.0  # ... unless that takes longer than this many seconds


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

    def __init__(
        self,
        slice_size: int = SLICE_SIZE,
        slice_gap: float = SLICE_GAP,
        rate: float = FAN_OUT_RATE,
        spread: float = FAN_OUT_SPREAD,
    ) -> None:
        self._subscribers: dict[int, Subscriber] = {}
        self.slice_size = slice_size
        self.slice_gap = slice_gap
        self.rate = rate
        self.spread = spread
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

    def gap(self, conns: int) -> float:
        """Seconds between two slices of a fan-out to ``conns`` connections: paced at
        :attr:`rate` frames a second, but over :attr:`spread` seconds at most, so a
        crowd's update every 2 s never falls behind the next one.

        >>> hub = LocalHub()
        >>> hub.gap(150), hub.gap(3_300), hub.gap(10_000), hub.gap(100_000)
        (0.02, 0.02, 0.01, 0.002)
        """
        slices = math.ceil(conns / self.slice_size)
        return max(self.slice_gap, min(self.slice_size / self.rate, self.spread / slices))

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
            gap = self.gap(len(self._fan_outs[0].conns))
            asyncio.get_running_loop().call_later(gap, self._next_slice)

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
