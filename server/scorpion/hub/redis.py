"""Fan-out across processes over Redis pub/sub (docs/scaling.md).

Every process (a *node*) subscribes to its own channel ``scorpion:node:<n>`` and to
``scorpion:node:0``, which reaches every node.
Connection ids carry their node in the high bits (:func:`node_of`), so
:meth:`RedisHub.send` delivers a frame to its own sockets directly and publishes it
once per other node holding recipients, already encoded: the owner of a room encodes
a message once, a node that only holds sockets copies bytes. Requests between nodes
(a forwarded hello, command or disconnect, a summary asked of a place's owner) travel
on the same channels and go to ``on_request``.

A channel message is one kind byte and its body: ``F`` lines of recipients' ids
(comma separated) and frames, alternately: deliver; ``C`` [conn, code, reason]: close
a socket; any other kind: a request, its body given to ``on_request`` as it came. The
frames a node sends another within one turn of the event loop (an answer, the room's
event, views) travel as one message. Publishing never waits: it is queued and sent in
pipelined batches by one task, in order. While Redis is away what is queued is dropped
(counted in ``dropped``) and :attr:`RedisHub.up` is False.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from scorpion.tasks import cancel_all

from .base import Hub, Subscriber
from .local import LocalHub

log = logging.getLogger("scorpion.hub")

NODE_SHIFT = 32  # a connection id is node << NODE_SHIFT | the node's own counter
EVERY_NODE = 0  # the channel every node subscribes to besides its own (nodes count from 1)
QUEUE_LIMIT = 100_000  # messages waiting for Redis before new ones are dropped
RequestHandler = Callable[[bytes, bytes], None]  # (kind, body)
Closer = Callable[[int, int, str], None]  # (conn, code, reason) for this node's sockets


def node_of(conn_id: int) -> int:
    """The node holding a connection.

    >>> node_of(3 << NODE_SHIFT | 17), node_of(17)
    (3, 0)
    """
    return conn_id >> NODE_SHIFT


def channel(node: int) -> str:
    return f"scorpion:node:{node}"


def frame_message(parts: list[bytes]) -> bytes:
    r"""One ``F`` message for several frames: their recipients' ids, then the frame, each on
    its own line (a frame is compact JSON: it never holds a newline).

    >>> frame_message([b"5,6", b'{"a":1}', b"7", b'{"b":2}'])
    b'F5,6\n{"a":1}\n7\n{"b":2}'
    """
    return b"F" + b"\n".join(parts)


class RedisHub:
    """The hub of one node among several: local sockets here, the others over Redis."""

    def __init__(self, url: str, close_local: Closer) -> None:
        self.url = url
        self.node = 0  # set before :meth:`start` (drawn from the lease table)
        self.local = LocalHub()
        self.close_local = close_local
        self.on_request: RequestHandler = lambda kind, body: None
        self.up = False
        # Counted for /metrics: messages dropped, published and received; failures.
        self.dropped = self.published = self.received = self.errors = 0
        self.forwarded_frames = 0  # frames from other nodes delivered to sockets here
        self._redis = aioredis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self._queue: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue(QUEUE_LIMIT)
        self._frames: dict[int, list[bytes]] = {}  # frames gathered per node this turn
        self._flush_soon = False
        self._subscribed = False
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------ the Hub interface
    def attach(self, conn_id: int, subscriber: Subscriber) -> None:
        self.local.attach(conn_id, subscriber)

    def detach(self, conn_id: int) -> None:
        self.local.detach(conn_id)

    def __len__(self) -> int:
        return len(self.local)

    def send(self, conns: Iterable[int], frame: str) -> int:
        here: list[int] = []
        elsewhere: dict[int, list[int]] = {}
        for conn in conns:
            node = node_of(conn)
            if node == self.node:
                here.append(conn)
            else:
                elsewhere.setdefault(node, []).append(conn)
        delivered = self.local.send(here, frame) if here else 0
        if elsewhere and self.up:
            encoded = frame.encode()
            for node, ids in elsewhere.items():
                self._frames.setdefault(node, []).extend(
                    (",".join(map(str, ids)).encode(), encoded)
                )
                delivered += len(ids)
            if not self._flush_soon:
                self._flush_soon = True
                asyncio.get_running_loop().call_soon(self._flush_frames)
        elif elsewhere:
            self.dropped += sum(len(ids) for ids in elsewhere.values())
        return delivered

    def _flush_frames(self, node: int | None = None) -> None:
        """Queue the frames gathered for ``node`` (None: every node) as one message each."""
        if node is None:
            self._flush_soon = False
            gathered, self._frames = self._frames, {}
        else:
            parts = self._frames.pop(node, None)
            gathered = {node: parts} if parts else {}
        for to, parts in gathered.items():
            self._queue_message(to, frame_message(parts))

    # ------------------------------------------------------------ across nodes
    def close(self, conn: int, code: int, reason: str) -> None:
        """Close a socket wherever it is."""
        node = node_of(conn)
        if node == self.node:
            self.close_local(conn, code, reason)
        else:
            self.publish(node, b"C" + orjson.dumps([conn, code, reason]))

    def request(self, node: int, kind: bytes, body: bytes) -> bool:
        return self.publish(node, kind + body)

    def publish(self, node: int, message: bytes) -> bool:
        """Queue a message for ``node``'s channel, after the frames gathered for it (a close
        never overtakes the frames before it); False when dropped (Redis away or full)."""
        if node in self._frames:
            self._flush_frames(node)
        return self._queue_message(node, message)

    def _queue_message(self, node: int, message: bytes) -> bool:
        if not self.up:
            self.dropped += 1
            return False
        try:
            self._queue.put_nowait((node, message))
        except asyncio.QueueFull:
            self.dropped += 1
            return False
        return True

    async def alive(self, node: int) -> bool | None:
        """Whether ``node`` is subscribed to its channel (a killed process is not: Redis sees
        its connection close). A paused process still is: leases catch that case. None:
        Redis cannot say (unreachable), which is not the node's death."""
        try:
            counts = await self._redis.pubsub_numsub(channel(node))
        except (RedisError, OSError):
            return None
        return bool(counts and counts[0][1] > 0)

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._subscribe(), name="scorpion-hub-subscribe"),
            asyncio.create_task(self._publish(), name="scorpion-hub-publish"),
            asyncio.create_task(self._watch(), name="scorpion-hub-watch"),
        ]

    async def stop(self) -> None:
        await cancel_all(self._tasks)
        self._tasks.clear()
        with contextlib.suppress(RedisError, OSError):
            await self._redis.aclose()

    async def _watch(self) -> None:
        """``up``: Redis answers a ping and our channel is subscribed (every 0.25 s)."""
        while True:
            try:
                await self._redis.ping()
                self.up = self._subscribed
            except (RedisError, OSError):
                self.up = False
            await asyncio.sleep(0.25)

    async def _subscribe(self) -> None:
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node), channel(EVERY_NODE))
                self._subscribed = True
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._dispatch(message["data"])
            except (RedisError, OSError) as exc:
                self._subscribed = self.up = False
                self.errors += 1
                log.warning("redis subscription lost: %s", exc)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(0.25)

    def _dispatch(self, data: bytes) -> None:
        kind, body = data[:1], data[1:]
        self.received += 1
        try:
            if kind == b"F":
                lines = body.split(b"\n")
                for ids, frame in zip(lines[::2], lines[1::2], strict=True):
                    conns = [int(i) for i in ids.split(b",")]
                    self.forwarded_frames += self.local.send(conns, frame.decode())
            elif kind == b"C":
                conn, code, reason = orjson.loads(body)
                self.close_local(int(conn), int(code), str(reason))
            else:
                self.on_request(kind, body)
        except Exception:  # one bad message must not end the subscription
            log.exception("bad hub message %r", data[:200])

    async def _publish(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < 500 and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for node, message in batch:
                        pipe.publish(channel(node), message)
                    await pipe.execute()
                self.published += len(batch)
            except (RedisError, OSError) as exc:
                self.dropped += len(batch)
                self.errors += 1
                self.up = False
                log.warning("redis publish failed, %d messages dropped: %s", len(batch), exc)


if TYPE_CHECKING:  # mypy checks that RedisHub implements the Hub interface
    _conforms: Hub = RedisHub("redis://", lambda conn, code, reason: None)
