"""A token bucket: the per-connection command rate limit; the flood gauge that closes a
connection refused too often; the key of a client address.

>>> clock = [0.0]
>>> bucket = TokenBucket(rate=2, burst=3, clock=lambda: clock[0])
>>> [bucket.take() for _ in range(4)]
[True, True, True, False]
>>> clock[0] = 1.0
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable
from typing import Literal


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


Verdict = Literal["answer", "count", "flood"]


class FloodGauge:
    """How flooded one connection is: its rate-limited frames as a leaky count, one added
    per refusal, ``limit / window`` leaking away a second. Past ``limit``: a flood (the
    connection is closed); so refusals at more than ``limit`` per ``window`` close it however
    they are paced (a count "in a row" is reset by every frame let through). Only the
    refusals up to ``answered`` are answered: past that they are only counted, which costs
    next to nothing. An honest client, refused now and then, stays near zero.

    >>> gauge = FloodGauge(limit=4, window=2.0, answered=2, now=0.0)
    >>> [gauge.refuse(0.0) for _ in range(5)]
    ['answer', 'answer', 'count', 'count', 'flood']
    >>> paced = FloodGauge(limit=4, window=2.0, answered=2, now=0.0)  # 2 leak away a second
    >>> [paced.refuse(t / 2) for t in range(8)]  # one refusal every 0.5 s: never a flood
    ['answer', 'answer', 'answer', 'answer', 'answer', 'answer', 'answer', 'answer']
    >>> [paced.refuse(4.0 + t / 8) for t in range(6)]  # one every 1/8 s: a flood in a second
    ['answer', 'answer', 'count', 'count', 'count', 'flood']
    """

    __slots__ = ("answered", "leak", "level", "limit", "stamp")

    def __init__(self, limit: float, window: float, answered: float, now: float) -> None:
        self.limit, self.answered, self.leak = limit, answered, limit / window
        self.level = 0.0
        self.stamp = now

    def refuse(self, now: float) -> Verdict:
        """Count one refusal at ``now``: answer it, only count it, or close (a flood)."""
        self.level = max(0.0, self.level - (now - self.stamp) * self.leak) + 1.0
        self.stamp = now
        if self.level > self.limit:
            return "flood"
        return "answer" if self.level <= self.answered else "count"


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


@functools.lru_cache(maxsize=4096)
def address_key(host: str) -> str:
    """What every per-address limit counts a client address as: an IPv4 address itself,
    an IPv6 address by its /64 (one subscriber usually gets a whole /64, so counting each
    address would let one of them take any number of budgets), an IPv4-mapped IPv6
    address as its IPv4 address. Anything else (no address) is kept as it is.

    >>> address_key("203.0.113.7")
    '203.0.113.7'
    >>> address_key("2001:db8:1:2::1"), address_key("2001:DB8:1:2:ffff:ffff:ffff:ffff")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> address_key("2001:db8:1:3::1")
    '2001:db8:1:3::/64'
    >>> address_key("::ffff:203.0.113.7"), address_key("fe80::1%eth0")
    ('203.0.113.7', 'fe80::/64')
    >>> address_key("?")
    '?'
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)
