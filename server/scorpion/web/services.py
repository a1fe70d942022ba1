"""The composition root: everything one server process holds, built and started here.

One :class:`Services` per app (tests start several apps in one process). The
pieces: the store, the referee (race logic, no I/O), the bridge (persist, then
send), the search pool, the daily deals, the open connections, tokens, rate limits
and metrics.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Collection
from typing import TYPE_CHECKING

from scorpion.hub import Hub, LocalHub
from scorpion.hub.redis import NODE_SHIFT, RedisHub
from scorpion.race import Player as RacePlayer
from scorpion.race import Referee, RoomConfig, SearchAnswer
from scorpion.race.outputs import Message
from scorpion.race.protocol import BAD_TOKEN, GOING_AWAY, SERVER_ERROR, date_of, shard_numbers
from scorpion.race.records import RoundFinished
from scorpion.race.search_queue import ShareLimits
from scorpion.store import Account, Store, StoreError
from scorpion.tasks import bounded, cancel_all

from . import collector
from .analyses import Analyses
from .auth import Tokens
from .bridge import Bridge
from .cluster import Cluster
from .config import Settings
from .dailies import DailyDeals, on_loop_fallback
from .devices import DeviceLimits
from .leagues import Leagues
from .limits import KeyedBuckets
from .metrics import Metrics
from .queue_racing import QueueOnRace
from .ratings import Ratings
from .registry import Registry
from .restore import close_idle_daily_logs, restore
from .retention import purge_forever
from .searches import SearchPool

if TYPE_CHECKING:
    from scorpion.store.postgres_mode import ModeLock

log = logging.getLogger("scorpion.web")
SIGNED_OUT = "signed out: this device's token was revoked"  # the close reason (4001)


class Services:
    def __init__(self, settings: Settings, store: Store, referee: Referee | None = None) -> None:
        limits = settings.limits
        secret = settings.secret.encode()
        self.settings = settings
        self.store = store
        self.metrics = Metrics()
        self.referee = referee or Referee(
            secret=secret,
            config=RoomConfig(
                grace=settings.grace,
                idle_close=settings.room_idle_close,
                daily_shards=settings.shards,
                deal_wait=limits.deal_wait,
            ),
            daily_deal=on_loop_fallback(secret),
        )
        shard_numbers(settings.shards)  # found now (a few ms each), not by a first request
        self.connections = Registry(limits.max_connections, limits.max_connections_per_address)
        redis_hub = RedisHub(settings.redis, self.connections.close) if settings.redis else None
        self.hub: Hub = LocalHub() if redis_hub is None else redis_hub  # (a hub has a len)
        self.tokens = Tokens(store)
        share = ShareLimits(
            per_player=limits.searches_per_player,
            per_address=limits.searches_per_address,
            max_queued=limits.search_queue,
            max_wait=limits.search_wait,
        )
        self.searches = SearchPool(self.searched, self.referee.search_wanted, limits=share)
        self.analyses = Analyses(store)
        self.bridge = Bridge(
            self.referee,
            store,
            self.hub,
            self.metrics,
            close=self.connections.close if redis_hub is None else redis_hub.close,
            search=self.searches.submit,
            failed=self.reload_later,
            finished=self.analyses.finished,
        )
        self.ratings = Ratings(store, self.referee, self.bridge.run)
        self.leagues = Leagues(store, self.referee, self.bridge.run)
        self.bridge.round_finished = self._round_finished
        self.unqueue = QueueOnRace(store)  # one race at a time: a room's racers leave the queue
        self.bridge.round_started = self.unqueue.started
        self.dailies = DailyDeals(self.referee, store, secret, settings.daily_search, limits)
        self.cluster: Cluster | None = None  # one of several processes (docs/scaling.md)
        if redis_hub is not None:
            self.cluster = Cluster(
                db=settings.db.url,
                store=store,
                referee=self.referee,
                bridge=self.bridge,
                dailies=self.dailies,
                connections=self.connections,
                hub=redis_hub,
                player_changed=self._player_changed,
                address=f"{socket.gethostname()}:{settings.port}",
                ttl=settings.lease_ttl,
            )
            self.bridge.fence = self.cluster.fence
            self.metrics.redis_up.set_function(lambda: float(redis_hub.up))
            self.metrics.places_owned.set_function(
                lambda: len(self.cluster.held) if self.cluster else 0
            )
            self.metrics.forwarded_sockets.set_function(
                lambda: len(self.cluster.forwarder.forwarded) if self.cluster else 0
            )
            self.metrics.redis_configured.set(1)
            self._count_cluster(redis_hub, self.cluster)
        self.new_players = KeyedBuckets(
            limits.new_players_per_minute / 60, limits.new_players_burst
        )
        self.new_rooms = KeyedBuckets(limits.rooms_per_hour / 3600, limits.rooms_burst)
        self.devices = DeviceLimits()  # codes tried per address, made per player
        # On PostgreSQL: this process's hold on the database, alone or in a cluster.
        self.mode: ModeLock | None = None
        if settings.db.kind == "postgresql":
            from scorpion.store.postgres_mode import ModeLock  # asyncpg: only when used

            self.mode = ModeLock(settings.db.url, cluster=self.cluster is not None)
        self.ready = False
        self.closing = False
        self.reloading: set[str] = set()  # places (rooms, dailies, practices) being rebuilt
        self._tasks: list[asyncio.Task[None]] = []
        self.metrics.connections.set_function(lambda: self.connections.count)
        self.metrics.rooms.set_function(lambda: len(self.referee.rooms))
        self.metrics.daily_players.set_function(
            lambda: sum(len(daily.core.members) for daily in self.referee.dailies.values())
        )
        self.metrics.commits.set_function(lambda: self.store.commits)
        self.metrics.counted.read["scorpion_fenced_writes"] = lambda: self.store.fenced_writes
        self.metrics.search_queue.set_function(
            lambda: self.searches.queue.waiting + self.searches.running
        )
        self.searches.timed = self.metrics.search_seconds.observe
        self.metrics.analysis_queue.set_function(
            lambda: len(self.analyses.order) + len(self.analyses.running)
        )

    def _count_cluster(self, hub: RedisHub, cluster: Cluster) -> None:
        """The counters of metrics.COUNTED that the hub and the cluster keep."""
        read = self.metrics.counted.read
        read["scorpion_redis_published"] = lambda: hub.published
        read["scorpion_redis_received"] = lambda: hub.received
        read["scorpion_redis_errors"] = lambda: hub.errors
        read["scorpion_redis_dropped"] = lambda: hub.dropped
        read["scorpion_forwarded_frames"] = lambda: hub.forwarded_frames
        read["scorpion_lease_takeovers"] = lambda: cluster.leases.takeovers
        read["scorpion_lease_renew_failures"] = lambda: cluster.renew_failures
        read["scorpion_leases_lost"] = lambda: cluster.leases_lost
        read["scorpion_places_handed_back"] = lambda: cluster.handed_back

    async def start(self) -> None:
        """Start in the background: /readyz answers "not ready" while the store waits for
        its database (PostgreSQL may come up after us) and the logs are replayed."""
        task = asyncio.create_task(self._start(), name="scorpion-start")
        task.add_done_callback(_exit_if_failed)
        self._tasks.append(task)

    async def _start(self) -> None:
        try:
            await self.store.open()
        except StoreError as exc:  # the setting to fix, then why (the password hidden)
            raise StoreError(f"--db/SCORPION_DB ({self.settings.db}): {exc}") from None
        jobs = []
        if self.mode is not None:  # before any place is loaded: refused, the start fails
            from scorpion.store.postgres_worker import PostgresWorker

            await self.mode.take()
            if isinstance(self.store, PostgresWorker):
                self.store.mode = self.mode
            jobs.append(("hold", self._hold(self.mode)))
        if self.cluster is None:
            await restore(self.store, self.referee, self.dailies, self.bridge)
        else:  # each place is replayed by the process that takes it (web/cluster.py)
            self.connections.base = await self.cluster.open() << NODE_SHIFT
            jobs += [(name, loop()) for name, loop in self.cluster.loops().items()]
        shortcuts = self.settings.shortcuts == "on"
        if shortcuts:
            collector.settle(self.metrics.gc_pauses)
        else:
            log.info("shortcuts off: /ws routed by Starlette, every frame's send awaited, "
                     "CPython's collector as it comes, uvicorn's own HTTP protocol")  # fmt: skip
        self.searches.start()
        self.analyses.start()
        for name, job in (
            *jobs,
            ("timers", self.bridge.timers()),
            ("sweep", self.connections.sweep(self.settings.limits.idle_timeout)),
            ("maintain", self._maintain()),
            ("dailies", self.dailies.prepare_ahead()),
            ("loop-lag", self.metrics.watch_event_loop()),
            *([("gc", collector.collect())] if shortcuts else []),
        ):
            self._tasks.append(asyncio.create_task(job, name=f"scorpion-{name}"))
        if self.settings.retention_days:
            purge = purge_forever(self.store, self.settings.retention_days)
            self._tasks.append(asyncio.create_task(purge, name="scorpion-retention"))
        self.ready = True
        log.info("ready: %d rooms in memory", len(self.referee.rooms))

    async def stop(self) -> None:
        """Graceful shutdown: close every socket with 1001, write what is pending, close."""
        self.closing = True
        self.ready = False
        wait = self.settings.shutdown_timeout
        await bounded("closing sockets", self.close_all(), wait + 1, log)
        await bounded("writing what is pending", self.bridge.drain(), wait, log)
        await bounded("background tasks", cancel_all(self._tasks), wait, log)
        self._tasks.clear()
        await bounded("searches", self.searches.close(), wait, log)
        await bounded("analyses", self.analyses.close(), wait, log)
        await bounded("daily deals", self.dailies.close(), wait, log)
        if self.cluster is not None:
            await bounded("leases", self.cluster.close(), wait, log)
        await bounded("store", self.store.close(), wait, log)
        if self.mode is not None:  # after the last write
            await bounded("database lock", self.mode.close(), wait, log)

    @staticmethod
    async def _hold(mode: ModeLock) -> None:
        """Keep the database lock; stop the process if another one took it meanwhile."""
        from scorpion.store.postgres_mode import ModeRefused

        try:
            await mode.watch()
        except ModeRefused as exc:
            log.critical("the server stops: %s", exc)
            os._exit(1)

    async def close_all(self) -> None:
        await self.connections.close_all(
            GOING_AWAY, "server shutting down: reconnect", self.settings.shutdown_timeout
        )

    def player_changed(
        self, player_id: str, deleted: bool = False, revoked: Collection[bytes] = ()
    ) -> None:
        """A player was renamed, deleted or signed out somewhere (``revoked``: the token
        hashes): no process keeps the old name or token, nor a socket of a revoked token."""
        self._player_changed(player_id, deleted, revoked)
        if self.cluster is not None:
            self.cluster.tell_player_changed(player_id, deleted, revoked)

    def _player_changed(
        self, player_id: str, deleted: bool, revoked: Collection[bytes] = ()
    ) -> None:
        self.tokens.forget_player(player_id)
        if deleted:
            self.connections.close_player(player_id, BAD_TOKEN, "player deleted")
            self.referee.forget_player(player_id)  # off the leaderboards held in memory
        if revoked:
            self.connections.close_tokens(set(revoked), BAD_TOKEN, SIGNED_OUT)

    def degraded(self) -> list[str]:
        """What does not work fully now though the process serves (for /readyz)."""
        return ["redis"] if self.cluster is not None and not self.cluster.hub.up else []

    async def summary(self, place: str) -> Message | None:
        """A room's or a daily's (``daily:<date>``) summary, from whichever process owns it;
        None when there is no such room. Raises cluster.Unreachable when it cannot be asked."""
        if self.cluster is not None:
            return await self.cluster.summary(place)
        date = date_of(place)
        if date is None:
            return self.referee.room_summary(place, time.time())
        return self.referee.daily_summary(date, time.time())

    def _round_finished(self, record: RoundFinished) -> None:
        """A round's results were committed: rate it (a rated room or quick race) and keep
        its league points (a league room)."""
        self.ratings.finished(record)
        self.leagues.finished(record)

    def reload_later(self, keys: set[str]) -> None:
        """Rooms, dailies and practices whose records the store did not keep: out of the
        referee now (their sockets told to reconnect), back from their logs as soon as the
        store answers. Hellos for them meanwhile are asked to retry (:attr:`reloading`)."""
        if self.cluster is not None:  # given up: the next hello takes it over from its log
            self.cluster.give_up(keys)
            return
        keys = keys - self.reloading
        if not keys:
            return
        self.reloading |= keys
        for key in keys:
            for conn in self.referee.forget(key):
                self.connections.close(conn, SERVER_ERROR, "server error: not saved, reconnect")
        self._tasks.append(asyncio.create_task(self._reload(keys), name="scorpion-reload"))

    async def _reload(self, keys: set[str]) -> None:
        delay = 0.5
        while True:
            try:
                await restore(self.store, self.referee, self.dailies, self.bridge, only=keys)
                break
            except Exception:
                log.exception("could not reload %s from the store; retrying", sorted(keys))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
        log.info("reloaded %s from the store", sorted(keys))
        self.reloading -= keys

    async def searched(self, answer: SearchAnswer) -> None:
        """A search ended: its answer goes to the referee like any input."""
        await self.bridge.run(self.referee.searched(answer, time.time()))

    async def _maintain(self) -> None:
        """Hourly: close the logs of dailies nobody played for days."""
        while True:
            await asyncio.sleep(3600)
            try:
                closed = await close_idle_daily_logs(self.store, time.time())
                if closed:
                    log.info("closed %d idle daily logs", closed)
            except Exception:
                log.exception("maintenance failed")

    @staticmethod
    def race_player(player: Account) -> RacePlayer:
        return RacePlayer(player.id, player.name, created=player.created)

    async def daily_player(self, player: Account, day: str) -> RacePlayer:
        """The player with the players linked to them (a shared device): a daily counts
        one ranked attempt a day per linked group. With the day split in shards, the linked
        players' ranked attempts are read from the store (they may be on other shards)."""
        linked = await self.store.linked_players(player.id)
        ranked: set[str] = set()
        if self.referee.config.daily_shards > 1:
            for other in sorted(linked):
                if await self.store.daily_attempt(day, other) is not None:
                    ranked.add(other)
        return RacePlayer(player.id, player.name, linked, player.created, frozenset(ranked))


def _exit_if_failed(task: asyncio.Task[None]) -> None:
    """A start that failed (a database that refuses us, a bad schema) ends the process, as
    a failed startup would: like kill -9, it loses nothing committed."""
    if not task.cancelled() and task.exception() is not None:
        log.critical("the server cannot start: %s", task.exception())
        os._exit(1)
