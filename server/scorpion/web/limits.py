"""A token bucket: the per-connection command rate limit; the key of a client address.

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


class KeyedBuckets:
    """One token bucket per key (a client address, a player), forgetting idle keys.

    >>> buckets = KeyedBuckets(rate=0.0, burst=2)
    >>> [buckets.take("a") for _ in range(3)] + [buckets.take("b")]
    [True, True, False, True]
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
