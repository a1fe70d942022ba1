"""How this server runs every room and daily: one object instead of loose parameters.

>>> RoomConfig(grace=30.0).grace
30.0
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field


def random_deal() -> int:
    """A deal number from the whole 64-bit range (docs/deals.md)."""
    return secrets.randbits(64)


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """``grace``: seconds a disconnected player keeps a seat; ``keep_events``: room events
    kept for reconnects; ``idle_close``: seconds an empty room in its lobby or results
    lives on; ``progress_interval``: seconds between a room's ``progress`` events (changes
    within it go out together); ``deal_source``: random deal numbers (tests pass their own);
    ``deal_wait``: seconds a winnable-only room waits for its deal search before it deals
    an unverified deal (and says so); ``daily_shards``: places a day's daily is split in."""

    grace: float = 60.0
    keep_events: int = 50
    idle_close: float = 3600.0
    progress_interval: float = 0.1
    deal_source: Callable[[], int] = field(default=random_deal)
    deal_wait: float = 20.0  # under the search pool's own wait (search_wait, 30 s)
    # A day's daily is split in this many places by a hash of the player (docs/scaling.md,
    # "A million daily players"); one process holds every shard, so 1 changes nothing there.
    daily_shards: int = 1
