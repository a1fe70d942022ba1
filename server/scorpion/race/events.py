"""A room's versioned events: the version only grows; the last few are kept for reconnects.

>>> log = EventLog(keep=2)
>>> [log.append({"event": name})["v"] for name in ("a", "b", "c")]
[1, 2, 3]
>>> [e["event"] for e in log.since(1) or []], log.since(0)
(['b', 'c'], None)
"""

from __future__ import annotations

from collections import deque
from typing import Final, TypeAlias, cast

from .messages import EventFrame, Playing
from .room_events import RoomEvent

DEFAULT_KEEP: Final = 50

Event: TypeAlias = RoomEvent | Playing
"""An event's own fields (a room's, or the daily's ``playing``): the log stamps it
(:class:`~.messages.EventFrame`)."""


class EventLog:
    """Room events as wire messages (``type: event`` with version ``v``).

    ``base`` sets the version before the first event: a restored room starts past any
    version the previous process could have sent (see ``recovery.restore_room``), so a client's
    ``last_version`` from before a restart is never mistaken for a recent one.
    """

    def __init__(self, keep: int = DEFAULT_KEEP, base: int = 0) -> None:
        self.version = base
        self._base = base
        self._events: deque[EventFrame] = deque(maxlen=keep)

    def append(self, event: Event) -> EventFrame:
        """Stamp ``event`` with the next version and keep it; return the wire message."""
        self.version += 1
        # The head first, then the event's fields (their types checked where it was built).
        message = cast(EventFrame, {"type": "event", "v": self.version, **event})
        self._events.append(message)
        return message

    def since(self, version: int) -> list[EventFrame] | None:
        """Every event after ``version``, or None when they are no longer all kept."""
        if version == self.version:
            return []
        if version > self.version or version < self._base:
            return None
        oldest = self._events[0]["v"] if self._events else self.version + 1
        if version + 1 < oldest:
            return None
        return [e for e in self._events if e["v"] > version]
