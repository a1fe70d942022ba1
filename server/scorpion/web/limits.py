"""A token bucket: the per-connection command rate limit.

>>> clock = [0.0]
>>> bucket = TokenBucket(rate=2, burst=3, clock=lambda: clock[0])
>>> [bucket.take() for _ in range(4)]
[True, True, True, False]
>>> clock[0] = 1.0
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()

    def take(self, cost: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def give_back(self, cost: float = 1.0) -> None:
        """Return what :meth:`take` took for something that then did not happen."""
        self.tokens = min(self.burst, self.tokens + cost)


class KeyedBuckets:
    """One token bucket per key (a client address, a player), forgetting idle keys.

    >>> buckets = KeyedBuckets(rate=0.0, burst=2)
    >>> [buckets.take("a") for _ in range(3)] + [buckets.take("b")]
    [True, True, False, True]
    >>> buckets.give_back("a"); buckets.take("a")
    True
    """

    def __init__(self, rate: float, burst: float, max_keys: int = 50_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._buckets.clear()  # crude but bounded: a flood of keys only resets limits
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.take()

    def give_back(self, key: str) -> None:
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.give_back()
