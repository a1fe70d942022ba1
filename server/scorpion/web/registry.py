"""The open websockets of this process: by id, counted per client address, swept when silent.

>>> registry = Registry(max_connections=2, max_per_address=1)
>>> registry.admits("1.2.3.4"), registry.count
(True, 0)
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Collection

from scorpion.race.protocol import IDLE

from .connection import Connection


class Registry:
    """Every open connection, by id; how many each client address holds."""

    def __init__(self, max_connections: int, max_per_address: int) -> None:
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.by_id: dict[int, Connection] = {}
        self.per_address: Counter[str] = Counter()
        self._ids = itertools.count(1)
        self.base = 0  # with several processes: this node's number in the high bits (hub)

    @property
    def count(self) -> int:
        return len(self.by_id)

    def new_id(self) -> int:
        return self.base | next(self._ids)

    def admits(self, address: str) -> bool:
        """Whether a new socket from ``address`` (its key: :func:`.limits.address_key`, an
        IPv6 /64 counts as one address) stays within the limits."""
        return (
            len(self.by_id) < self.max_connections
            and self.per_address[address] < self.max_per_address
        )

    def add(self, conn: Connection, address: str) -> None:
        self.by_id[conn.id] = conn
        self.per_address[address] += 1

    def remove(self, conn: Connection, address: str) -> None:
        self.by_id.pop(conn.id, None)
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]

    def close(self, conn_id: int, code: int, reason: str) -> None:
        conn = self.by_id.get(conn_id)
        if conn is not None:
            conn.close(code, reason)

    def close_player(self, player_id: str, code: int, reason: str) -> None:
        for conn in list(self.by_id.values()):
            if conn.player == player_id:
                conn.close(code, reason)

    def close_tokens(self, token_hashes: Collection[bytes], code: int, reason: str) -> None:
        """Close the sockets that said hello with one of these (signed-out) tokens."""
        for conn in list(self.by_id.values()):
            if conn.token in token_hashes:
                conn.close(code, reason)

    async def close_all(self, code: int, reason: str, timeout: float) -> None:
        conns = list(self.by_id.values())
        for conn in conns:
            conn.close(code, reason)
        if conns:
            await asyncio.gather(*(c.wait_closed(timeout) for c in conns), return_exceptions=True)

    def close_silent(self, idle: float, now: float | None = None) -> int:
        """Close the sockets silent for ``idle`` seconds (clients send ``ping``); how many."""
        cutoff = (time.monotonic() if now is None else now) - idle
        closed = 0
        for conn in list(self.by_id.values()):
            if conn.last_seen <= cutoff and not conn.closing:
                conn.close(IDLE, f"silent for {idle:.0f} s: send ping")
                closed += 1
        return closed

    async def sweep(self, idle: float) -> None:
        """Run :meth:`close_silent` whenever the earliest silent socket falls due."""
        while True:
            now = time.monotonic()
            self.close_silent(idle, now)
            seen = [c.last_seen for c in self.by_id.values() if not c.closing]
            await asyncio.sleep(sweep_delay(seen, now, idle))


def sweep_delay(last_seen: list[float], now: float, idle: float) -> float:
    """Seconds until the next idle sweep: when the earliest silent socket reaches ``idle``,
    but at most ``idle`` and at least a second (a quarter of ``idle`` when it is shorter),
    so a sweep over every socket runs at most once a second.

    >>> sweep_delay([100.0], 130.0, 60.0)  # due at 160
    30.0
    >>> sweep_delay([], 130.0, 60.0), sweep_delay([129.9], 190.0, 60.0)
    (60.0, 1.0)
    >>> sweep_delay([10.0], 10.5, 1.0)
    0.5
    """
    floor = min(1.0, idle / 4)
    due = min(last_seen, default=now) + idle
    return max(floor, min(idle, due - now))
