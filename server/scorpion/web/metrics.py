"""Prometheus metrics in a registry owned by the app (so tests can run several apps)."""

from __future__ import annotations

import asyncio
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.process_collector import ProcessCollector

# Seconds: from a millisecond (a commit on a quiet server) to seconds (a disk in trouble).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SEARCH_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)
LOOP_LAG_EVERY = 0.5  # seconds between two event-loop lag samples


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes...
        self.connections = Gauge("scorpion_connections", "Open websocket connections", registry=r)
        self.rooms = Gauge("scorpion_rooms", "Rooms held in memory", registry=r)
        # A counter: moves per second is rate(scorpion_moves_total[1m]).
        self.moves = Counter(
            "scorpion_moves", "Moves applied (persisted and acknowledged)", registry=r
        )
        self.commands = Counter("scorpion_commands", "Websocket commands received", registry=r)
        self.refused = Counter(
            "scorpion_refused_commands", "Commands refused", ["reason"], registry=r
        )
        self.send_drops = Counter(
            "scorpion_send_queue_drops", "Connections dropped for a full send queue", registry=r
        )
        self.frames_sent = Counter("scorpion_frames_sent", "Websocket frames sent", registry=r)
        self.quick_rooms = Counter(
            "scorpion_quick_rooms", "Quick race rooms the queue formed", registry=r
        )
        # Writes are grouped: commits grow slower than moves under load.
        self.commits = Gauge("scorpion_store_commits", "Store transactions committed", registry=r)
        self.http_errors = Counter(
            "scorpion_http_errors", "HTTP requests answered with an error", ["status"], registry=r
        )
        self.ack_seconds = Histogram(
            "scorpion_ack_seconds",
            "From a websocket command received to its answer queued (written first)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.store_write_seconds = Histogram(
            "scorpion_store_write_seconds",
            "From a batch of records handed to the store to its commit",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.loop_lag = Gauge(
            "scorpion_event_loop_lag_seconds",
            "How late the event loop ran a timer, last sample (every 0.5 s)",
            registry=r,
        )
        # The search pool (hints, Auto, winnable deals): Services sets the queue gauge
        # (searches waiting or running) and the pool observes each search's time.
        self.search_queue = Gauge(
            "scorpion_search_queue", "Deal searches waiting or running", registry=r
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

    def render(self) -> bytes:
        return generate_latest(self.registry)

    async def watch_event_loop(self) -> None:
        """Sample the event loop's lag for ever: a busy loop delays every player."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(LOOP_LAG_EVERY)
            self.loop_lag.set(max(0.0, time.perf_counter() - started - LOOP_LAG_EVERY))
