"""The forwarding side of several processes: sockets whose place another process owns.

A socket's hello, commands and close go to the place's owner over Redis (the hub);
the owner's frames come back through the hub. A socket forwarded to an owner that died
(its Redis channel has no subscriber), lost its lease, or cannot be reached (Redis
away) is told to reconnect: its next hello finds the place's owner again, or takes the
place over (docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import itertools
import logging

import orjson

from scorpion.cluster import Leases
from scorpion.hub.redis import RedisHub
from scorpion.race import Player as RacePlayer
from scorpion.race.outputs import Message
from scorpion.race.protocol import GOING_AWAY, TRY_AGAIN

from .registry import Registry

log = logging.getLogger("scorpion.cluster")

MOVED = "room moved: reconnect"
ASK_TIMEOUT = 2.0  # seconds to wait for another process's answer


class Unreachable(Exception):
    """The place's owner cannot be reached now (Redis away) nor taken over in time."""


class Forwarder:
    def __init__(self, hub: RedisHub, leases: Leases, connections: Registry) -> None:
        self.hub, self.leases, self.connections = hub, leases, connections
        self.forwarded: dict[int, tuple[int, str]] = {}  # local conn: (owner node, place)
        self._asks: dict[int, asyncio.Future[Message | None]] = {}
        self._ask_ids = itertools.count(1)

    async def ask(self, node: int, place: str) -> Message | None:
        """A place's summary, asked of its owner ``node``."""
        ask_id = next(self._ask_ids)
        future: asyncio.Future[Message | None] = asyncio.get_running_loop().create_future()
        self._asks[ask_id] = future
        body = orjson.dumps({"id": ask_id, "node": self.leases.node, "place": place})
        try:
            if not self.hub.request(node, b"Q", body):
                raise Unreachable("redis is unavailable")
            return await asyncio.wait_for(future, ASK_TIMEOUT)
        except TimeoutError:
            raise Unreachable(f"the owner of {place!r} did not answer") from None
        finally:
            self._asks.pop(ask_id, None)

    def answered(self, body: bytes) -> None:
        """The answer to :meth:`ask`, from the owner."""
        answer = orjson.loads(body)
        future = self._asks.pop(int(answer["id"]), None)
        if future is not None and not future.done():
            future.set_result(answer["state"])

    def hello(self, conn: int, node: int, place: str, player: RacePlayer, hello: object) -> None:
        self.forwarded[conn] = (node, place)
        # The owner decides the daily's ranked attempt: it needs the links read here.
        who = [
            player.id,
            player.name,
            sorted(player.linked),
            player.created,
            sorted(player.ranked_linked),
        ]
        body = orjson.dumps({"conn": conn, "place": place, "player": who, "hello": hello})
        if not self.hub.request(node, b"H", body):
            self.connections.close(conn, TRY_AGAIN, "server busy: retry shortly")

    def command(self, conn: int, text: str) -> bool:
        """Send a command of a forwarded socket to its owner; False: not forwarded."""
        target = self.forwarded.get(conn)
        if target is None:
            return False
        if not self.hub.request(target[0], b"M", b"%d\n" % conn + text.encode()):
            self.connections.close(conn, TRY_AGAIN, "server busy: retry shortly")
        return True

    def bye(self, conn: int) -> bool:
        """A forwarded socket closed: tell its owner; False: not forwarded."""
        target = self.forwarded.pop(conn, None)
        if target is None:
            return False
        self.hub.request(target[0], b"D", b"%d" % conn)
        return True

    async def watch(self) -> None:
        """Sockets forwarded to a dead owner, or for a place that moved, reconnect."""
        for rounds in itertools.count():
            await asyncio.sleep(0.25)
            if not self.forwarded:
                continue
            try:
                nodes = {node for node, _ in self.forwarded.values()}
                alive = {node: await self.hub.alive(node) for node in nodes} if self.hub.up else {}
                if not alive or None in alive.values():  # Redis away: no owner is known dead
                    for conn in list(self.forwarded):
                        self.connections.close(conn, TRY_AGAIN, "redis unavailable: retry shortly")
                    continue
                owners = {place: node for node, place in self.forwarded.values()}
                moved = await self.leases.moved(owners) if rounds % 2 else set()
            except Exception:
                log.exception("cannot check the owners of forwarded sockets")
                continue
            dead = {node for node, up in alive.items() if not up}
            for conn, (node, place) in list(self.forwarded.items()):
                if node in dead or place in moved:
                    self.connections.close(conn, GOING_AWAY, MOVED)
