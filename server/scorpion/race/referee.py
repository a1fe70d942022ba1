"""The referee: every room and daily of one process, fed with messages and the clock.

This is the one object the web layer drives (sans-I/O, like the websockets
library: no sockets, no asyncio, no store). Every method returns a list of
:mod:`outputs <scorpion.race.outputs>`: persist the ``Persist`` records of the list
first (one transaction), then perform its ``Send`` and ``Close`` in order.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from .outputs import ConnId, Output
from .players import Player
from .records import Record
from .settings import RoomSettings


class Referee:
    """All rooms and dailies of one process.

    ``secret`` derives the daily deals; ``grace`` is how long a disconnected player
    keeps a seat; ``deal_source`` gives random deal numbers (tests pass a fixed one).
    """

    def __init__(
        self,
        *,
        secret: bytes,
        grace: float = 60.0,
        keep_events: int = 50,
        idle_close: float = 3600.0,
        deal_source: Callable[[], int] | None = None,
    ) -> None:
        self.secret = secret
        self.grace = grace
        self.keep_events = keep_events
        self.idle_close = idle_close
        self.deal_source = deal_source or (lambda: secrets.randbits(64))

    def create_room(
        self, room_id: str, creator: Player, settings: RoomSettings, now: float
    ) -> list[Output]:
        """Open a room (HTTP "create a room"); outputs hold its ``RoomOpened`` record."""
        raise NotImplementedError

    def hello(self, conn: ConnId, player: Player, message: object, now: float) -> list[Output]:
        """Attach a new connection whose hello token the web layer resolved to ``player``."""
        raise NotImplementedError

    def receive(self, conn: ConnId, message: object, now: float) -> list[Output]:
        """A decoded JSON message from an attached connection."""
        raise NotImplementedError

    def disconnect(self, conn: ConnId, now: float) -> list[Output]:
        """The connection closed (for any reason); its seat is kept for the grace period."""
        raise NotImplementedError

    def tick(self, now: float) -> list[Output]:
        """Advance every timer due by ``now`` (countdowns, time limits, grace, idle rooms)."""
        raise NotImplementedError

    def next_deadline(self) -> float | None:
        """The earliest time ``tick`` has something to do, or None."""
        raise NotImplementedError

    def restore(self, records: Iterable[Record], now: float) -> list[Output]:
        """Rebuild rooms and dailies from stored records (in the order written)."""
        raise NotImplementedError

    def room_summary(self, room_id: str, now: float) -> dict[str, object] | None:
        """The room's public snapshot (protocol section 5), None for an unknown room."""
        raise NotImplementedError
