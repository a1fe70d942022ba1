"""Prometheus metrics in a registry owned by the app (so tests can run several apps)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry(auto_describe=True)
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
        # Writes are grouped: commits grow slower than moves under load.
        self.commits = Gauge("scorpion_store_commits", "Store transactions committed", registry=r)
        self.http_errors = Counter(
            "scorpion_http_errors", "HTTP requests answered with an error", ["status"], registry=r
        )

        # Several processes (docs/scaling.md); 0 with one process.
        self.redis_up = Gauge("scorpion_redis_up", "1 while Redis answers (fan-out)", registry=r)
        self.places_owned = Gauge(
            "scorpion_places_owned", "Rooms and dailies this process holds a lease on", registry=r
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)
