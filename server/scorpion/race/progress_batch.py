"""Which racers' progress waits to be announced, and when it may be.

A room announces progress at most once per ``interval``: the first change after a
quiet spell goes out at once, later changes within the interval wait and go out
together in one ``progress`` event when it ends. However fast racers move, each
member of a room gets at most ``1 / interval`` progress frames per second.

>>> batch = ProgressBatch(0.1)
>>> batch.changed("a", now=10.0)  # quiet until now: announce at once
True
>>> batch.take(10.0)
['a']
>>> batch.changed("b", now=10.03), batch.changed("a", now=10.05), batch.deadline()
(False, False, 10.1)
>>> batch.due(10.09), batch.due(10.1)
(False, True)
>>> batch.take(10.1), batch.deadline()
(['b', 'a'], None)
"""

from __future__ import annotations


class ProgressBatch:
    """Racer ids whose progress changed since the last announcement, in order of change."""

    __slots__ = ("_last", "interval", "waiting")

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.waiting: dict[str, None] = {}  # an ordered set
        self._last = float("-inf")  # when the last announcement went out

    def changed(self, player_id: str, now: float) -> bool:
        """Note a change; True when it may be announced now (with whatever waits)."""
        self.waiting[player_id] = None
        return now >= self._last + self.interval

    def due(self, now: float) -> bool:
        return bool(self.waiting) and now >= self._last + self.interval

    def deadline(self) -> float | None:
        """When what waits may go out, or None when nothing waits."""
        return self._last + self.interval if self.waiting else None

    def take(self, now: float | None) -> list[str]:
        """The waiting ids, to announce now; ``now`` None: announced early, ahead of
        another event (the interval keeps running from the last announcement)."""
        ids = list(self.waiting)
        self.waiting.clear()
        if now is not None and ids:
            self._last = now
        return ids
