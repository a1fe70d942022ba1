"""Everything one server process holds: store, referee, hub, connections, metrics.

One :class:`Services` per app (tests start several apps in one process).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import Counter, OrderedDict

from scorpion.hub import LocalHub
from scorpion.race import DailyStarted, GameResult, Record, Referee, record_from_dict
from scorpion.race import Player as RacePlayer
from scorpion.store import Player, Store

from .auth import token_hash
from .bridge import Bridge
from .config import Settings
from .connection import GOING_AWAY, IDLE, Connection
from .dailies import DailyDeals, on_loop_fallback
from .limits import KeyedBuckets
from .metrics import Metrics
from .records import DAILY_PREFIX
from .retention import purge_forever

log = logging.getLogger("scorpion.web")

DAILY_LOG_DAYS = 2  # daily logs idle this long are closed (game records and results stay)
TOKEN_CACHE = 10_000


class Services:
    def __init__(self, settings: Settings, store: Store, referee: Referee | None = None) -> None:
        self.settings = settings
        self.store = store
        self.metrics = Metrics()
        self.hub = LocalHub()
        secret = settings.secret.encode()
        self.referee = referee or Referee(
            secret=secret, grace=settings.grace, daily_deal=on_loop_fallback(secret)
        )
        self.bridge = Bridge(self.referee, store, self.hub, self.metrics, self.close_conn)
        self.dailies = DailyDeals(self.referee, store, secret, settings.daily_search)
        self.connections: dict[int, Connection] = {}
        self.per_address: Counter[str] = Counter()  # open websockets per client address
        self._ids = itertools.count(1)
        self._tokens: OrderedDict[bytes, Player] = OrderedDict()
        self._tasks: list[asyncio.Task[None]] = []
        self.ready = False
        self.closing = False
        limits = settings.limits
        self.new_players = KeyedBuckets(
            limits.new_players_per_minute / 60, limits.new_players_burst
        )
        self.new_rooms = KeyedBuckets(limits.rooms_per_hour / 3600, limits.rooms_burst)
        self.metrics.connections.set_function(lambda: len(self.connections))
        self.metrics.rooms.set_function(lambda: _count(self.referee, "room_count"))
        self.metrics.commits.set_function(lambda: _count(self.store, "commits"))

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        await self.store.open()
        await self.restore()
        self._tasks.append(asyncio.create_task(self.bridge.timers(), name="scorpion-timers"))
        self._tasks.append(asyncio.create_task(self._sweep(), name="scorpion-sweep"))
        self._tasks.append(asyncio.create_task(self._maintain(), name="scorpion-maintain"))
        self._tasks.append(
            asyncio.create_task(self.metrics.watch_event_loop(), name="scorpion-loop-lag")
        )
        if self.settings.retention_days:
            purge = purge_forever(self.store, self.settings.retention_days)
            self._tasks.append(asyncio.create_task(purge, name="scorpion-retention"))
        self._tasks.append(
            asyncio.create_task(self.dailies.prepare_ahead(), name="scorpion-dailies")
        )
        self.ready = True
        log.info("ready: %d rooms in memory", _count(self.referee, "room_count"))

    async def restore(self) -> None:
        """Rebuild rooms and dailies from the store's logs (after a restart or a crash)."""
        now = time.time()
        await self.store.close_rooms_before(DAILY_PREFIX, now - DAILY_LOG_DAYS * 86400)
        records: list[Record] = []
        for room, entry in await self.store.open_room_logs():
            try:
                records.append(record_from_dict(entry))
            except (ValueError, KeyError, TypeError, AssertionError):
                log.error("skipping a bad log entry of room %s: %r", room, entry)
        self.bridge.writer.learn(records)
        # The dailies being played must be installed first (their deals come from the store).
        recorded: dict[str, int | None] = {}
        for record in records:
            if isinstance(record, DailyStarted):
                recorded[record.date] = record.deal
            elif isinstance(record, GameResult) and record.room.startswith(DAILY_PREFIX):
                recorded.setdefault(record.room.removeprefix(DAILY_PREFIX), record.deal)
        for date, deal in recorded.items():
            await self.dailies.ensure(date, deal)
        if records:
            log.info("restoring %d records", len(records))
            await self.bridge.run(self.referee.restore(records, now))
            for error in getattr(self.referee, "restore_errors", []):
                log.error("restore: %s", error)

    async def stop(self) -> None:
        """Graceful shutdown: close every socket with 1001, write what is pending, close."""
        self.closing = True
        self.ready = False
        await self.close_all(GOING_AWAY, "server shutting down: reconnect")
        await self.bridge.drain()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        self.dailies.close()
        await self.store.close()

    async def close_all(self, code: int, reason: str) -> None:
        conns = list(self.connections.values())
        for conn in conns:
            conn.close(code, reason)
        if conns:
            await asyncio.gather(
                *(c.wait_closed(self.settings.shutdown_timeout) for c in conns),
                return_exceptions=True,
            )

    async def _maintain(self) -> None:
        """Hourly: close the logs of dailies idle for DAILY_LOG_DAYS (restarts replay less)."""
        while True:
            await asyncio.sleep(3600)
            try:
                cutoff = time.time() - DAILY_LOG_DAYS * 86400
                closed = await self.store.close_rooms_before(DAILY_PREFIX, cutoff)
                if closed:
                    log.info("closed %d idle daily logs", closed)
            except Exception:
                log.exception("maintenance failed")

    async def _sweep(self) -> None:
        """Close sockets that stopped talking (browsers send no pings: clients send ``ping``)."""
        idle = self.settings.limits.idle_timeout
        while True:
            await asyncio.sleep(min(idle / 4, 15.0))
            cutoff = time.monotonic() - idle
            for conn in list(self.connections.values()):
                if conn.last_seen < cutoff and not conn.closing:
                    conn.close(IDLE, f"silent for {idle:.0f} s: send ping")

    # ----------------------------------------------------------- connections
    def new_conn_id(self) -> int:
        return next(self._ids)

    def close_conn(self, conn_id: int, code: int, reason: str) -> None:
        conn = self.connections.get(conn_id)
        if conn is not None:
            conn.close(code, reason)

    # -------------------------------------------------------------- identity
    async def player_for(self, token: str | None) -> Player | None:
        if not token:
            return None
        key = token_hash(token)
        player = self._tokens.get(key)
        if player is not None:
            self._tokens.move_to_end(key)
            return player
        player = await self.store.player_by_token(key)
        if player is not None:
            self._tokens[key] = player
            while len(self._tokens) > TOKEN_CACHE:
                self._tokens.popitem(last=False)
        return player

    def remember(self, token: str, player: Player) -> None:
        self._tokens[token_hash(token)] = player

    def forget_player(self, player_id: str) -> None:
        for key in [k for k, p in self._tokens.items() if p.id == player_id]:
            del self._tokens[key]

    @staticmethod
    def race_player(player: Player) -> RacePlayer:
        return RacePlayer(player.id, player.name)


def _count(source: object, name: str) -> float:
    try:
        return float(getattr(source, name))
    except (AttributeError, NotImplementedError, TypeError):
        return 0.0
