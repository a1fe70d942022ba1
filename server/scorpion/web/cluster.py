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
from collections.abc import Callable, Collection, Mapping
from typing import Any

import orjson

from scorpion.cluster import Leases
from scorpion.hub.redis import EVERY_NODE, RedisHub
from scorpion.race import Player as RacePlayer
from scorpion.race import Referee, Send, refused, seq_of
from scorpion.race.daily import utc_date
from scorpion.race.daily_feed import PLAYING_EVERY, merge_playing
from scorpion.race.outputs import Message
from scorpion.race.protocol import (
    GOING_AWAY,
    daily_key,
    date_of,
    practice_key,
    practice_player,
    shard_key,
    shard_numbers,
    shard_of_key,
)
from scorpion.store import Fence, Store
from scorpion.tasks import cancel_all

from .bridge import Bridge
from .dailies import DailyDeals
from .forwarding import MOVED, Forwarder, Unreachable
from .registry import Registry
from .restore import replay

log = logging.getLogger("scorpion.cluster")
BOARD_ROWS = 1_000_000  # a split daily's leaderboard is read whole: ranks count everyone
HAND_BACK_EVERY = 5.0  # seconds between two requests to hand one place back
# After a process joins, the others hand back the places they took over from logs this much
# later: over nginx's fail_timeout (10 s), during which nginx still skips a process that
# refused connections while it was away.
JOIN_SETTLE = 12.0
PART = ":part"  # a summary ask for ``daily:<date>:part``: this process's "playing now" part


def hinted_place(query: Mapping[str, str], shards: int) -> str | None:
    """The place a socket's routing hint names (docs/protocol.md section 1), None without.

    >>> hinted_place({"daily": "2026-12-01", "shard": "757"}, 12), hinted_place({}, 12)
    ('daily:2026-12-01:757', None)
    """
    if query.get("room"):
        return query["room"]
    if query.get("practice"):
        return practice_key(query["practice"])
    day, shard = query.get("daily"), query.get("shard", "")
    if not day:
        return None
    return shard_key(day, int(shard), shards) if shard.isdigit() else shard_key(day, 0, 1)


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
        address: str,
        ttl: float = 2.0,
    ) -> None:
        self.leases = Leases(db, ttl)
        self.address = address  # host:port, as the proxy reaches this process
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
        self.handed_back = 0  # places given back to the process the proxy's hash names
        self._asked_back: dict[str, float] = {}  # place: when its hand-back was last asked
        # Places taken over here from a log (their owner stopped, died or handed them over):
        # perhaps not where the proxy's hash puts them; handed back when a process joins,
        # or when the process the hash names asks for one (a socket of it landed there).
        self.adopted: dict[str, float] = {}  # place: when it was taken (time.time())
        self.taken_at: dict[str, float] = {}  # every place held: when this process took it
        # Shards of today's daily taken here for a summary, not for a socket the proxy sent
        # here: handed back whenever the process the hash names asks for them.
        self.unrouted: set[str] = set()
        self.started_at = time.time()  # told with a hand-back request
        self.join_settle = JOIN_SETTLE

    @property
    def node(self) -> int:
        return self.leases.node

    # ------------------------------------------------------------------ lifecycle
    async def open(self) -> int:
        """Draw a node number, subscribe to its channel (waiting a little for Redis)."""
        node = await self.leases.open(self.address)
        self.started_at = time.time()
        self.hub.node = node
        await self.hub.start()
        for _ in range(40):  # bounded: a process may start while Redis is away (degraded)
            if self.hub.up:
                break
            await asyncio.sleep(0.05)
        # Tell the others: the places they took while this process was away go back.
        self.hub.request(EVERY_NODE, b"J", orjson.dumps({"node": node, **self._started()}))
        return node

    def loops(self) -> dict[str, Callable[[], Any]]:
        loops = {"renew": self._renew, "watch": self.forwarder.watch}
        if self.referee.config.daily_shards > 1:
            loops["day-shards"] = self._day_shards
        return loops

    async def leave(self) -> None:
        """Stopping: hand every place over at once, as :meth:`hand_back` does one (dropped,
        writes settled, leases released), before the rest of the stop. Until its lease is
        released a place's reconnecting sockets would find it still owned here and be
        forwarded back to this process, to be moved again when it finally lets go."""
        places = dict(self.held)
        for place in places:
            self.drop(place)
        await self.bridge.settled()
        try:
            await self.leases.release(places)
        except Exception as exc:  # they run out by themselves (ttl)
            log.warning("could not release %d leases: %s", len(places), exc)
            return
        log.info("stopping: places handed over: %d", len(places))

    async def close(self) -> None:
        """Give every place up (others take them at once), then disconnect."""
        await cancel_all(list(self._jobs))  # a hand-back waiting out a join, a forwarded ask
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
        self.taken_at[room_id] = time.time()

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
        # When the socket asked, not when the take-over ended: a busy process, or a dead
        # owner's lease running out, can end it after the process the hash names is back,
        # and hand-back would then take the place for one routed here with that one up.
        asked = time.time()
        # One hello at a time per place takes it over; the lock is dropped with its last user.
        lock, users = self._locks.get(place, (asyncio.Lock(), 0))
        self._locks[place] = (lock, users + 1)
        try:
            async with lock:
                return await self._route(place, asked, time.monotonic() + self.leases.ttl + 1.0)
        finally:
            lock, users = self._locks[place]
            if users == 1:
                del self._locks[place]
            else:
                self._locks[place] = (lock, users - 1)

    async def _route(self, place: str, asked: float, deadline: float) -> int | None:
        while True:
            if place in self.held:
                return None
            token = await self.leases.take(place)
            if token is not None:
                self.taken_at[place] = asked
                await self._load(place, token, asked)
                return None
            found = await self.leases.owner(place)
            if found is not None and found[1] and found[0] != self.node:
                alive = await self.hub.alive(found[0]) if self.hub.up else None
                if alive is None:
                    raise Unreachable("redis is unavailable")
                if alive:
                    return found[0]
            if time.monotonic() > deadline:
                raise Unreachable(f"{place!r} could not be reached nor taken over")
            await asyncio.sleep(0.1)

    async def _load(self, place: str, token: int, asked: float) -> None:
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
                self.adopted[place] = asked
                log.info("took %s over (token %d, %d log entries)", place, token, len(entries))
        except BaseException:
            self.held.pop(place, None)
            raise
        finally:
            self._loading.discard(place)

    def drop(self, place: str) -> None:
        """Forget a place owned elsewhere now; its sockets (here or forwarded) reconnect."""
        self.held.pop(place, None)
        self.adopted.pop(place, None)
        self.taken_at.pop(place, None)
        self.unrouted.discard(place)
        for conn in self.referee.forget(place):
            self.hub.close(conn, GOING_AWAY, MOVED)

    # ------------------------------------------------------------------ hand-back
    def ask_back(self, place: str, owner: int) -> None:
        """A socket the proxy's hash sent here names a place another process owns (it took
        the place while this one was away): ask the owner to hand it back (at most every
        HAND_BACK_EVERY seconds per place), so its sockets need not stay forwarded."""
        now = time.monotonic()
        if now - self._asked_back.get(place, -HAND_BACK_EVERY) < HAND_BACK_EVERY:
            return
        self._asked_back = {p: t for p, t in self._asked_back.items() if now - t < 60}
        self._asked_back[place] = now
        asked = {"place": place, "node": self.node, **self._started()}
        self.hub.request(owner, b"B", orjson.dumps(asked))

    async def hand_back(self, place: str) -> bool:
        """Give ``place`` up at a safe moment: dropped from the referee first (no command of
        it is applied after this; its sockets, here and forwarded, reconnect through the
        proxy), then every write already queued is committed, then the lease is released,
        so the next owner's take (which waits for writes in flight, and whose new token
        fences this process) reads a log holding every acknowledged move."""
        token = self.held.get(place)
        if token is None or place in self._loading:
            return False
        self.drop(place)
        await self.bridge.settled()
        await self.leases.release({place: token})
        self.handed_back += 1
        log.info("handed %s back (token %d)", place, token)
        return True

    def _started(self) -> dict[str, Any]:
        """What a join or a hand-back request tells of this process: since when it runs,
        and whether it is a restart (then others may hold places it held before)."""
        return {"since": self.started_at, "restarted": self.leases.restarted}

    def away_until(self, told: Mapping[str, Any]) -> float:
        """Until when the process that sent ``told`` (its :meth:`_started`) counts as away:
        its start, or for a restart ``join_settle`` later, since the proxy still skips a
        process for its ``fail_timeout`` (10 s with nginx) after it refused connections
        while down: a place of it first asked for then was taken elsewhere, and is its.
        Not so in a cluster starting together, which holds nothing yet: a quick race's
        room made then stays where its racers play."""
        since = float(told.get("since", time.time()))
        return since + self.join_settle if told.get("restarted") else since

    async def joined(self, node: int, away_until: float) -> None:
        """Another process started (:meth:`away_until`, by its clock): after ``join_settle``
        seconds, hand back every place taken over here from a log while it was away, one at
        a time; their sockets reconnect through the proxy, whose hash sends each to the
        process it names (the one that joined, for its places; here again, at the cost of a
        reconnect, for a place it names here). Places taken later were routed with it up,
        so they stay: its start, not when its message arrived here (late on a busy
        process), is what counts."""
        await asyncio.sleep(self.join_settle)
        for place, taken in sorted(self.adopted.items()):
            if taken < away_until and self.adopted.get(place) == taken and self.hub.up:
                await self.hand_back(place)

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
            for gone in [p for p in self.taken_at if p not in self.held]:  # closed, failed
                self.taken_at.pop(gone, None)
                self.adopted.pop(gone, None)

    def shard_days(self) -> set[str]:
        """The days of which this process holds a shard of the daily."""
        return {str(date_of(p)) for p in self.held if shard_of_key(p) is not None}

    async def _day_shards(self) -> None:
        """What spans a split daily (docs/scaling.md): every PLAYING_EVERY, each process
        holding shards of a day tells every process its part of "playing now" (over Redis,
        one message per process and day) and reads the day's leaderboard from the store
        (each ranked result is committed before it is announced), so every shard's
        ``playing`` events, ranks and ``rank`` frames count the whole day."""
        while True:
            await asyncio.sleep(PLAYING_EVERY)
            for date in sorted(self.shard_days()):
                daily = self.referee.dailies.get(date)
                if daily is None:
                    continue
                part = {"date": date, "node": self.node, "part": daily.feed.playing_part()}
                self.hub.request(EVERY_NODE, b"L", orjson.dumps(part))
                try:
                    entries = await self.store.daily_entries(date, BOARD_ROWS)
                except Exception as exc:  # the next round tries again; play goes on
                    log.warning("could not read the leaderboard of %s: %s", date, exc)
                    continue
                self.referee.hear_board(date, entries)
            await self.bridge.run([])  # the timers wake for the events now due

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
            # [id, name, linked, created, ranked_linked]; older processes send fewer.
            pid, name, *more = hello["player"]
            linked, created, ranked_linked = (*more, [], None, [])[:3]
            player = RacePlayer(pid, name, frozenset(linked), created, frozenset(ranked_linked))
            outputs = self.referee.hello(conn, player, hello["hello"], now)
        elif kind == b"P":
            changed = orjson.loads(body)
            revoked = [bytes.fromhex(h) for h in changed.get("revoked", ())]
            self.player_changed(str(changed["player"]), bool(changed["deleted"]), revoked)
            outputs = []  # a deleted player leaves the dailies' boards: wake their timers
        elif kind == b"L":  # another process's part of a split daily's "playing now"
            told = orjson.loads(body)
            if int(told["node"]) != self.node:
                self.referee.hear_playing(str(told["date"]), str(told["node"]), told["part"], now)
            outputs = []
        elif kind == b"J":  # a process started: the places taken meanwhile go back
            joined = orjson.loads(body)
            node = int(joined["node"])
            if node != self.node:
                await self.joined(node, self.away_until(joined))
            return
        elif kind == b"B":  # hand a place back to the process the proxy's hash names
            asked = orjson.loads(body)
            place = str(asked["place"])
            # Only a place taken while the asker was away: one taken since then was routed
            # with it up (a room first asked for by a request the proxy does not route by
            # place, say) and stays where it is, its sockets forwarded, as before hand-back.
            if place in self.unrouted or self.taken_at.get(place, now) < self.away_until(asked):
                await self.hand_back(place)
            return
        elif kind == b"Q":
            ask = orjson.loads(body)
            place = str(ask["place"])
            if place.endswith(PART):
                state = self.playing_part(str(date_of(place)))
            else:
                state = self.summary_here(place, now) if place in self.held else None
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

    def playing_part(self, date: str) -> Message | None:
        """ "Playing now" of the shards of a day's daily held here (None: none held)."""
        daily = self.referee.dailies.get(date)
        if daily is None or date not in self.shard_days():
            return None
        return dict(daily.feed.playing_part())  # as JSON to another process

    async def day_summary(self, date: str) -> Message | None:
        """A split daily's summary: this process's, with "playing now" merged afresh from
        the part of every process holding shards of the day (asked over Redis, as an
        unsplit daily's summary is asked of its owner), so a request right after a move or
        a finish counts it wherever its shard lives, not one ``playing`` round later. A
        shard of today nobody holds (its players not back since a restart) is taken here,
        so that its attempts going on count; it goes back to the process the proxy's hash
        names at its first socket there (hand-back)."""
        now = time.time()
        shards = self.referee.config.daily_shards
        keys = [shard_key(date, shard, shards) for shard in shard_numbers(shards)]
        owners = await self.leases.live_owners(keys)
        for key in keys if date == utc_date(now) else []:
            if key not in owners and key not in self.held:
                node = await self.route(key)
                if node is None:
                    self.unrouted.add(key)
                else:
                    owners[key] = node
        state = self.summary_here(daily_key(date), now)
        if state is None:
            return None
        nodes = sorted({node for key, node in owners.items() if key not in self.held})
        asked = [self.forwarder.ask(node, daily_key(date) + PART) for node in nodes]
        parts = await asyncio.gather(*asked, return_exceptions=True)
        own = self.playing_part(date)
        found = [part for part in (own, *parts) if isinstance(part, dict)]
        if len(found) < len(parts) + (own is not None):  # an owner unreachable or gone now
            return state  # the parts heard last (at most a few seconds old)
        state["playing"] = merge_playing(found)
        return state

    async def summary(self, place: str) -> Message | None:
        """A place's summary from its owner (this process or, over Redis, another). A daily
        nobody holds is not taken for it (``GET /api/daily`` is not routed by the proxy: the
        daily's sockets are): nobody plays it now, and this process knows its deal. A split
        daily's is gathered from its shards' owners (:meth:`day_summary`)."""
        date, split = date_of(place), self.referee.config.daily_shards > 1
        if date is not None and split and shard_of_key(place) is None:
            return await self.day_summary(date)
        if date_of(place) is not None and place not in self.held:
            found = await self.leases.owner(place)
            if found is None or not found[1]:
                return self.summary_here(place, time.time())
        node = await self.route(place)
        if node is None:
            return self.summary_here(place, time.time())
        return await self.forwarder.ask(node, place)
