"""Several processes on one PostgreSQL and one Redis: the owner's side (docs/scaling.md).

Each place (a room id, ``daily:<date>`` or ``practice:<player>``) has one owning process
at a time, by a lease with a fencing token (:mod:`scorpion.cluster.leases`). A hello
finds the owner: this process (perhaps taking the place over and replaying its log)
serves it as with one process; otherwise the socket is forwarded (:mod:`.forwarding`)
and this module serves the requests other processes forward here. The owner numbers
the place's events, so a reconnect with ``last_version`` works wherever it lands. Leases are
renewed every ttl/4; a place whose lease was lost is dropped and its sockets reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection
from typing import Any

import orjson

from scorpion.cluster import Leases
from scorpion.hub.redis import EVERY_NODE, RedisHub
from scorpion.race import Player as RacePlayer
from scorpion.race import Referee, Send, refused, seq_of
from scorpion.race.outputs import Message
from scorpion.race.protocol import GOING_AWAY, date_of, practice_player
from scorpion.store import Fence, Store

from .bridge import Bridge
from .dailies import DailyDeals
from .forwarding import MOVED, Forwarder, Unreachable
from .registry import Registry
from .restore import replay

log = logging.getLogger("scorpion.cluster")


class Cluster:
    def __init__(
        self,
        *,
        db: str,
        store: Store,
        referee: Referee,
        bridge: Bridge,
        dailies: DailyDeals,
        connections: Registry,
        hub: RedisHub,
        player_changed: Callable[[str, bool, Collection[bytes]], None],
        ttl: float = 2.0,
    ) -> None:
        self.leases = Leases(db, ttl)
        self.hub = hub
        self.hub.on_request = self._request
        # (player id, deleted, revoked token hashes) told by any process
        self.player_changed = player_changed
        self.store, self.referee, self.bridge = store, referee, bridge
        self.dailies, self.connections = dailies, connections
        self.held: dict[str, int] = {}  # place: fencing token, for the places owned here
        self.forwarder = Forwarder(hub, self.leases, connections)
        self._loading: set[str] = set()
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # place: (lock, its users)
        self._jobs: set[asyncio.Task[None]] = set()
        self.renew_failures = self.leases_lost = 0  # counted for /metrics

    @property
    def node(self) -> int:
        return self.leases.node

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> int:
        """Draw a node number, subscribe to its channel (waiting a little for Redis)."""
        node = await self.leases.open()
        self.hub.node = node
        await self.hub.start()
        for _ in range(40):  # bounded: a process may start while Redis is away (degraded)
            if self.hub.up:
                break
            await asyncio.sleep(0.05)
        return node

    def loops(self) -> dict[str, Callable[[], Any]]:
        return {"renew": self._renew, "watch": self.forwarder.watch}

    async def close(self) -> None:
        """Give every place up (others take them at once), then disconnect."""
        with contextlib.suppress(Exception):
            await self.leases.release(dict(self.held))
        self.held.clear()
        await self.hub.stop()
        await self.leases.close()

    def fence(self, place: str) -> Fence:
        """The fence every write of ``place`` carries (token 0: not ours, always refused)."""
        return Fence(place, self.held.get(place, 0))

    # ------------------------------------------------------------------ ownership
    async def claim(self, room_id: str) -> None:
        """Own a room being created here (a new id: nobody else holds it)."""
        token = await self.leases.take(room_id)
        if token is None:
            raise Unreachable(f"room {room_id!r} is held elsewhere")
        self.held[room_id] = token

    async def hand_over(self, place: str) -> None:
        """Give up a place just made here (a new room, its creation logged): the process the
        proxy routes the room's sockets to (hashing the room id in their URL) takes it from
        its log on the first of them, so they need not be forwarded (docs/scaling.md)."""
        token = self.held.get(place)
        self.drop(place)
        if token is not None:
            try:
                await self.leases.release({place: token})
            except Exception as exc:  # not renewed any more: it runs out within the ttl
                log.warning("could not release %s now: %s", place, exc)

    async def route(self, place: str) -> int | None:
        """None when this process owns ``place`` (taking it over and replaying its log if
        nobody holds it), else the owner's node. Waits at most a lease's ttl for a dead
        owner's lease to run out."""
        # One hello at a time per place takes it over; the lock is dropped with its last user.
        lock, users = self._locks.get(place, (asyncio.Lock(), 0))
        self._locks[place] = (lock, users + 1)
        try:
            async with lock:
                return await self._route(place, time.monotonic() + self.leases.ttl + 1.0)
        finally:
            lock, users = self._locks[place]
            if users == 1:
                del self._locks[place]
            else:
                self._locks[place] = (lock, users - 1)

    async def _route(self, place: str, deadline: float) -> int | None:
        while True:
            if place in self.held:
                return None
            token = await self.leases.take(place)
            if token is not None:
                await self._load(place, token)
                return None
            found = await self.leases.owner(place)
            if found is not None and found[1] and found[0] != self.node:
                if not self.hub.up:
                    raise Unreachable("redis is unavailable")
                if await self.hub.alive(found[0]):
                    return found[0]
            if time.monotonic() > deadline:
                raise Unreachable(f"{place!r} could not be reached nor taken over")
            await asyncio.sleep(0.1)

    async def _load(self, place: str, token: int) -> None:
        """Replay a place just taken over from its log (nothing to replay: a new daily)."""
        self.held[place] = token
        self._loading.add(place)
        try:
            date = date_of(place)
            entries = await self.store.room_log(place)  # type: ignore[attr-defined]
            # What this process knew of a place it did not hold is stale (a daily known
            # from a summary, a practice or room it lost): the log is the truth.
            for conn in self.referee.forget(place):
                self.hub.close(conn, GOING_AWAY, MOVED)
            if date is not None:
                await self.dailies.ensure(date)
            await replay([(place, e) for e in entries], self.referee, self.dailies, self.bridge)
            if not self._exists(place):  # no such open room
                self.held.pop(place, None)
                await self.leases.release({place: token})
            elif entries:
                log.info("took %s over (token %d, %d log entries)", place, token, len(entries))
        except BaseException:
            self.held.pop(place, None)
            raise
        finally:
            self._loading.discard(place)

    def drop(self, place: str) -> None:
        """Forget a place owned elsewhere now; its sockets (here or forwarded) reconnect."""
        self.held.pop(place, None)
        for conn in self.referee.forget(place):
            self.hub.close(conn, GOING_AWAY, MOVED)

    def give_up(self, places: set[str]) -> None:
        """Places whose last writes the store did not keep (memory may be ahead of it, or
        the lease is lost): dropped and released; the next hello, on any process, takes
        them over from their logs."""
        tokens = {p: self.held[p] for p in places if p in self.held}
        for place in places:
            self.drop(place)
        if tokens:
            job = asyncio.create_task(self.leases.release(tokens))
            self._jobs.add(job)
            job.add_done_callback(self._done)

    def _exists(self, place: str) -> bool:
        """Whether a place just loaded is one to serve: a daily or a practice always
        (made on first use), a room when its log opened it and did not close it."""
        return (
            date_of(place) is not None
            or practice_player(place) is not None
            or (place in self.referee.rooms)
        )

    def _in_memory(self, place: str) -> bool:
        date, player = date_of(place), practice_player(place)
        if date is not None:
            return date in self.referee.dailies
        if player is not None:
            return player in self.referee.practices or place in self._loading
        return place in self.referee.rooms or place in self._loading

    async def _renew(self) -> None:
        last_ok, ttl = time.monotonic(), self.leases.ttl
        while True:
            await asyncio.sleep(ttl / 4)
            closed = {p: t for p, t in self.held.items() if not self._in_memory(p)}
            held = {p: t for p, t in self.held.items() if p not in closed}
            try:
                kept = await self.leases.renew(held)
                last_ok = time.monotonic()
                await self.leases.release(closed)
            except Exception as exc:
                self.renew_failures += 1
                if time.monotonic() - last_ok > ttl and self.held:
                    log.error(
                        "leases not renewed for %.1f s (%s): dropping all", self.leases.ttl, exc
                    )
                    for place in list(self.held):
                        self.drop(place)
                continue
            for place in closed:
                if self.held.get(place) == closed[place]:
                    del self.held[place]
            for place, token in held.items():
                if place not in kept and self.held.get(place) == token:
                    self.leases_lost += 1
                    log.warning("lost the lease of %s: dropping it", place)
                    self.drop(place)

    # ------------------------------------------------------------------ owner side
    def _request(self, kind: bytes, body: bytes) -> None:
        """A message from another process (called by the hub's reader: never blocks)."""
        if kind == b"R":
            self.forwarder.answered(body)
            return
        job = asyncio.create_task(self._serve(kind, body))
        self._jobs.add(job)
        job.add_done_callback(self._done)

    def _done(self, job: asyncio.Task[None]) -> None:
        self._jobs.discard(job)
        if not job.cancelled() and job.exception() is not None:
            log.error("a request from another process failed", exc_info=job.exception())

    async def _serve(self, kind: bytes, body: bytes) -> None:
        # Each request is one task: the referee's call and the start of its write happen
        # in one step, so the log keeps the referee's order (see Bridge).
        now = time.time()
        if kind == b"M":
            head, _, text = body.partition(b"\n")
            conn = int(head)
            if conn not in self.referee.places:
                self.hub.close(conn, GOING_AWAY, MOVED)
                return
            data = orjson.loads(text)  # decoded once already by the forwarding process
            try:
                outputs = self.referee.receive(conn, data, now)
            except Exception:  # a bug in the referee must not end the hub's reader
                log.exception("referee.receive failed on a forwarded %r", data)
                seq = seq_of(data) if isinstance(data, dict) else None
                answer = refused(seq, "server-error", "the server could not handle this")
                outputs = [Send((conn,), answer)]
        elif kind == b"D":
            outputs = self.referee.disconnect(int(body), now)
        elif kind == b"H":
            hello = orjson.loads(body)
            conn = int(hello["conn"])
            if hello["place"] not in self.held:
                self.hub.close(conn, GOING_AWAY, MOVED)
                return
            # [id, name, linked, created]; a process of the previous version sends two.
            pid, name, *more = hello["player"]
            linked, created = (*more, [], None)[:2]
            player = RacePlayer(pid, name, frozenset(linked), created)
            outputs = self.referee.hello(conn, player, hello["hello"], now)
        elif kind == b"P":
            changed = orjson.loads(body)
            revoked = [bytes.fromhex(h) for h in changed.get("revoked", ())]
            self.player_changed(str(changed["player"]), bool(changed["deleted"]), revoked)
            outputs = []  # a deleted player leaves the dailies' boards: wake their timers
        elif kind == b"Q":
            ask = orjson.loads(body)
            state = self.summary_here(ask["place"], now) if ask["place"] in self.held else None
            self.hub.request(
                int(ask["node"]), b"R", orjson.dumps({"id": ask["id"], "state": state})
            )
            return
        else:
            log.warning("unknown request kind %r", kind)
            return
        await self.bridge.run(outputs)

    def tell_player_changed(
        self, player_id: str, deleted: bool, revoked: Collection[bytes] = ()
    ) -> None:
        """Every process forgets the player's cached name and tokens (and closes their
        sockets when deleted, or the sockets of the revoked tokens)."""
        changed = {"player": player_id, "deleted": deleted, "revoked": [h.hex() for h in revoked]}
        body = orjson.dumps(changed)
        self.hub.request(EVERY_NODE, b"P", body)

    # ------------------------------------------------------------------ summaries
    def summary_here(self, place: str, now: float) -> Message | None:
        date = date_of(place)
        if date is None:
            return self.referee.room_summary(place, now)
        return self.referee.daily_summary(date, now)

    async def summary(self, place: str) -> Message | None:
        """A place's summary from its owner (this process or, over Redis, another). A daily
        nobody holds is not taken for it (``GET /api/daily`` is not routed by the proxy: the
        daily's sockets are): nobody plays it now, and this process knows its deal."""
        if date_of(place) is not None and place not in self.held:
            found = await self.leases.owner(place)
            if found is None or not found[1]:
                return self.summary_here(place, time.time())
        node = await self.route(place)
        if node is None:
            return self.summary_here(place, time.time())
        return await self.forwarder.ask(node, place)
