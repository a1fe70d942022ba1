"""Prometheus metrics in a registry owned by the app (so tests can run several apps)."""

from __future__ import annotations

import asyncio
import bisect
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

# Seconds: from a millisecond (a commit on a quiet server) to seconds (a disk in trouble).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SEARCH_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
LOOP_LAG_EVERY = 0.5  # seconds between two event-loop lag samples
# The statuses the app answers errors with, and refusals any command can meet: their
# counters are exported at 0 from the start, so rate() and alerts see them before the first.
HTTP_ERROR_STATUSES = (400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503)
COMMON_REFUSALS = ("bad-json", "bad-field", "rate-limited", "busy", "server-error")
# Counters kept as plain numbers by what counts them (the Redis hub, the leases, the
# store): name, help. Each reads 0 until Services binds it (always 0 with one process).
COUNTED = {
    "scorpion_redis_published": "Messages published to Redis (frames, requests, closes)",
    "scorpion_redis_received": "Messages received from Redis",
    "scorpion_redis_errors": "Redis failures: a publish batch failed or the subscription was lost",
    "scorpion_redis_dropped": "Messages not sent because Redis was away or the queue full",
    "scorpion_lease_takeovers": "Places taken over from an expired lease (a dead or paused owner)",
    "scorpion_lease_renew_failures": "Lease renewals that failed (PostgreSQL did not answer)",
    "scorpion_leases_lost": "Leases found taken over by another process at renewal",
    "scorpion_places_handed_back": "Places given back to the process the proxy's hash names",
    "scorpion_fenced_writes": "Writes refused because another process holds the place's lease",
    "scorpion_forwarded_frames": "Frames from another process delivered to sockets here",
}


class Counted(Collector):
    """The :data:`COUNTED` counters, read from their owners at each scrape."""

    def __init__(self) -> None:
        self.read: dict[str, Callable[[], float]] = {name: lambda: 0.0 for name in COUNTED}

    def collect(self) -> Iterator[Metric]:
        for name, doc in COUNTED.items():
            yield CounterMetricFamily(name, doc, value=self.read[name]())


class Tally:
    """A counter counted per command or per frame: a plain number, read at each scrape
    (prometheus_client's ``inc`` takes a lock, about a microsecond; the event loop's
    thread is the only one counting these)."""

    __slots__ = ("doc", "name", "value")

    def __init__(self, name: str, doc: str) -> None:
        self.name, self.doc, self.value = name, doc, 0.0

    def inc(self, amount: float = 1.0) -> None:
        self.value += amount


class Spread:
    """A histogram observed per command, as a plain count by bucket (see :class:`Tally`).

    >>> s = Spread("t", "", (0.1, 1.0))
    >>> for v in (0.05, 0.1, 0.5, 3.0):
    ...     s.observe(v)
    >>> s.counts, round(s.total, 2)
    ([2, 1, 1], 3.65)
    """

    __slots__ = ("bounds", "counts", "doc", "name", "total")

    def __init__(self, name: str, doc: str, bounds: tuple[float, ...]) -> None:
        self.name, self.doc, self.bounds = name, doc, bounds
        self.counts = [0] * (len(bounds) + 1)  # the last: above every bound
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1  # le: a bound counts in
        self.total += value

    def family(self) -> HistogramMetricFamily:
        cumulative, buckets = 0, []
        for bound, count in zip((*map(str, self.bounds), "+Inf"), self.counts, strict=True):
            cumulative += count
            buckets.append((bound, float(cumulative)))
        return HistogramMetricFamily(self.name, self.doc, buckets=buckets, sum_value=self.total)


class Plain(Collector):
    """The :class:`Tally` and :class:`Spread` metrics, exported at each scrape."""

    def __init__(self, *metrics: Tally | Spread) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        for m in self.metrics:
            if isinstance(m, Tally):
                yield CounterMetricFamily(m.name, m.doc, value=m.value)
            else:
                yield m.family()


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes...
        self.connections = Gauge("scorpion_connections", "Open websocket connections", registry=r)
        self.rooms = Gauge("scorpion_rooms", "Rooms held in memory", registry=r)
        self.daily_players = Gauge(
            "scorpion_daily_players",
            "Players the dailies hold in memory (one per player and day, for the day)",
            registry=r,
        )
        # A counter: moves per second is rate(scorpion_moves_total[1m]).
        self.moves = Tally("scorpion_moves", "Moves applied (persisted and acknowledged)")
        self.commands = Tally("scorpion_commands", "Websocket commands received")
        self.refused = Counter(
            "scorpion_refused_commands", "Commands refused", ["reason"], registry=r
        )
        # Bound once: a flood counts its refusals here (labels() costs 3 us, inc() 1).
        self.rate_limited = self.refused.labels("rate-limited")
        self.send_drops = Counter(
            "scorpion_send_queue_drops", "Connections dropped for a full send queue", registry=r
        )
        self.frames_sent = Tally("scorpion_frames_sent", "Websocket frames sent")
        self.quick_rooms = Counter(
            "scorpion_quick_rooms", "Quick race rooms the queue formed", registry=r
        )
        # Writes are grouped: commits grow slower than moves under load.
        self.commits = Gauge("scorpion_store_commits", "Store transactions committed", registry=r)
        self.http_errors = Counter(
            "scorpion_http_errors", "HTTP requests answered with an error", ["status"], registry=r
        )
        for status in HTTP_ERROR_STATUSES:
            self.http_errors.labels(str(status))
        for reason in COMMON_REFUSALS:
            self.refused.labels(reason)
        # By route template (web/http_metrics.py): a bounded set of label values.
        self.http_requests = Counter(
            "scorpion_http_requests",
            "HTTP requests answered, by route template, method and status class",
            ["route", "method", "status"],
            registry=r,
        )
        self.http_seconds = Histogram(
            "scorpion_http_request_seconds",
            "From an HTTP request received to its answer's last byte sent",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.ack_seconds = Spread(
            "scorpion_ack_seconds",
            "From a websocket command received to its answer queued (written first)",
            LATENCY_BUCKETS,
        )
        self.store_write_seconds = Spread(
            "scorpion_store_write_seconds",
            "From a batch of records handed to the store to its commit",
            LATENCY_BUCKETS,
        )
        self.loop_lag = Gauge(
            "scorpion_event_loop_lag_seconds",
            "How late the event loop ran a timer, last sample (every 0.5 s)",
            registry=r,
        )
        # The search pool (hints, Auto, winnable deals): Services sets the queue gauge
        # (searches waiting or running) and the pool observes each search's time.
        self.search_queue = Gauge(
            "scorpion_search_queue",
            "Solver searches (hints, Auto, winnable deals) waiting or running",
            registry=r,
        )
        self.analysis_queue = Gauge(
            "scorpion_analysis_queue", "Game analyses waiting or running", registry=r
        )
        self.search_seconds = Histogram(
            "scorpion_search_seconds",
            "Time of one solver search in a worker (hint, Auto, winnable deal)",
            buckets=SEARCH_BUCKETS,
            registry=r,
        )

        # Several processes (docs/scaling.md); 0 with one process.
        self.redis_up = Gauge("scorpion_redis_up", "1 while Redis answers (fan-out)", registry=r)
        self.redis_configured = Gauge(
            "scorpion_redis_configured", "1 when one of several processes (--redis)", registry=r
        )
        self.places_owned = Gauge(
            "scorpion_places_owned",
            "Rooms, dailies and practices this process holds a lease on",
            registry=r,
        )
        # A socket not on its place's owner (the proxy did not route it there: a takeover,
        # a client without the routing hint) costs Redis messages per command.
        self.forwarded_sockets = Gauge(
            "scorpion_forwarded_sockets", "Sockets forwarded to another process", registry=r
        )
        self.forwarded_commands = Counter(
            "scorpion_forwarded_commands", "Commands forwarded to another process", registry=r
        )
        # Observed by web/collector.py's hook, in whichever thread collects.
        self.gc_pauses = Spread(
            "scorpion_gc_pause_seconds",
            "Garbage collector pauses, every collection (young, middle-aged and major)",
            GC_BUCKETS,
        )
        self.counted = Counted()
        r.register(self.counted)
        plain = (self.moves, self.commands, self.frames_sent, self.ack_seconds,
                 self.store_write_seconds, self.gc_pauses)  # fmt: skip
        r.register(Plain(*plain))

    def render(self) -> bytes:
        return generate_latest(self.registry)

    async def watch_event_loop(self) -> None:
        """Sample the event loop's lag for ever: a busy loop delays every player."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(LOOP_LAG_EVERY)
            self.loop_lag.set(max(0.0, time.perf_counter() - started - LOOP_LAG_EVERY))
