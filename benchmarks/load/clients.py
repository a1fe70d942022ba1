"""Clients speaking docs/protocol.md and docs/http-api.md, timing every answer.

A :class:`Conn` is one websocket. Each command it sends is timed from writing it to
reading its ``applied`` or ``refused`` (one :class:`Sample`); a reader task reads
every frame, so a slow consumer of frames shows up as latency, as in a browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

Frame = dict[str, Any]


@dataclass(slots=True)
class Sample:
    """One command: when it was due (wall clock; written then, or late on a busy machine),
    its latency from its writing (None: no answer)."""

    group: str
    sent: float
    latency: float | None = None
    refused: str = ""


@dataclass(slots=True)
class Pending:
    """A command written and not answered yet."""

    started: float  # perf_counter
    sample: Sample | None
    answer: asyncio.Future[Frame] | None
    kind: str
    fields: dict[str, Any]


@dataclass(slots=True)
class Record:
    """What one client process saw: the samples and the trouble."""

    samples: list[Sample] = field(default_factory=list)
    dropped: list[tuple[str, int]] = field(default_factory=list)  # (group, close code)
    send_lag: list[float] = field(default_factory=list)  # paced sends: actual - scheduled
    extra: list[dict[str, Any]] = field(default_factory=list)  # what a role reports besides


class Conn:
    """One websocket; ``command`` sends and times, ``call`` also waits for the answer."""

    def __init__(self, url: str, token: str, record: Record, group: str) -> None:
        self.url = url
        self.token = token
        self.record = record
        self.group = group
        self.ws: ClientConnection | None = None
        self.seq = 0
        self.version = 0
        self.round = 0  # of the last start event
        self.welcome: Frame = {}
        self.pending: dict[int, Pending] = {}
        self.waiters: list[tuple[Callable[[Frame], bool], asyncio.Future[Frame]]] = []
        self.reader: asyncio.Task[None] | None = None
        self.reconnecting: asyncio.Task[None] | None = None
        self.closing = False
        self.closed: asyncio.Event = asyncio.Event()
        self.up: asyncio.Event = asyncio.Event()  # open and welcomed
        self.frames = 0
        self.shard: int | None = None  # a split daily's shard, named in the socket's hint
        self.hello: dict[str, Any] = {}
        self.resume_until = 0.0  # reconnect after a drop until then (wall clock)
        self.resumed = 0  # reconnections that got a welcome
        self.answers: list[Frame] = []  # applied answers, kept when asked (kill -9 check)
        self.keep_answers = False
        self.welcomed = False  # this socket got its welcome (a drop then starts a reconnect)
        self.dropped_at: float | None = None  # wall clock of a drop not followed by an answer
        self.back_after: list[float] = []  # seconds from each drop to the next applied answer
        self.welcome_after: list[float] = []  # ... to the welcome back (the board shown again)

    async def open(
        self,
        timeout: float = 60.0,
        read: bool = True,
        sock: Any = None,
        resuming: bool = False,
        shard: int | None = None,
        **hello: Any,
    ) -> Frame:
        """Connect and say ``hello``; the ``welcome`` (a refusal raises). ``shard``: the
        player's shard of a split daily (``daily_shard``), named in the hint."""
        self.closed.clear()
        self.hello = hello
        if shard is not None:
            self.shard = shard
        # The place as the URL's routing hint, as the browser client does (docs/protocol.md).
        hint = {key: hello[key] for key in ("room", "daily") if key in hello}
        if "daily" in hint and self.shard is not None:
            hint["shard"] = str(self.shard)
        self.ws = await asyncio.wait_for(
            connect(
                f"{self.url}?{urlencode(hint)}" if hint else self.url,
                compression=None,
                open_timeout=timeout,
                max_size=2**22,
                sock=sock,
                max_queue=1 if not read else 16,
                ping_interval=None,  # as a browser: it answers the server's pings, sends none
            ),
            timeout,
        )
        await self.ws.send(orjson.dumps({"type": "hello", "token": self.token, **hello}).decode())
        if not read:  # a reader that never reads: nothing takes frames off the socket
            return {}
        self.reader = asyncio.create_task(self._read())
        frame = await self.wait(lambda f: f["type"] in ("welcome", "refused"), timeout)
        if frame["type"] != "welcome":
            raise RuntimeError(f"hello refused: {frame}")
        self.welcome = frame
        self.version = frame["version"]
        # A player's seqs go on across sockets in one place (docs/protocol.md, last_seq):
        # a new socket starting again at 1 would be answered from, or refused by, the past.
        self.seq = max(self.seq, frame.get("last_seq") or 0)
        self.welcomed = True
        if not resuming:
            self.up.set()
        return frame

    async def reconnect(self) -> None:
        """After a drop: hello again with ``last_version`` until ``resume_until``, then
        resend every unanswered command with its original seq."""
        while time.time() < self.resume_until:
            try:
                hello = {**self.hello, "last_version": self.version}
                await self.open(timeout=5.0, resuming=True, **hello)
            except (OSError, RuntimeError, TimeoutError, ConnectionClosed, InvalidHandshake):
                await asyncio.sleep(0.2)
                continue
            self.resumed += 1
            if self.dropped_at is not None:
                self.welcome_after.append(time.time() - self.dropped_at)
            # the unanswered ones first, in order: new commands wait for ``up``
            with contextlib.suppress(ConnectionClosed):  # dropped again: a new reconnect runs
                for seq, pending in sorted(self.pending.items()):
                    await self.resend(seq, pending.kind, **pending.fields)
                self.up.set()
            return

    async def command(
        self, kind: str, timed: bool = True, due: float | None = None, **fields: Any
    ) -> int:
        """Write a command with the next seq; its answer is timed into the record.

        ``due``: when an open loop meant to write it, so that its window is the one it was
        due in even when the writer runs late.
        """
        self.seq += 1
        await self._send(self.seq, kind, timed, None, fields, due)
        return self.seq

    async def call(
        self, kind: str, timeout: float = 60.0, timed: bool = False, **fields: Any
    ) -> Frame:
        """Send a command and wait for its answer."""
        self.seq += 1
        answer: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
        await self._send(self.seq, kind, timed, answer, fields)
        return await asyncio.wait_for(answer, timeout)

    async def resend(self, seq: int, kind: str, **fields: Any) -> None:
        """Send again a command that had no answer, with its original seq."""
        assert self.ws is not None
        await self.ws.send(orjson.dumps({"type": kind, "seq": seq, **fields}).decode())

    async def _send(
        self,
        seq: int,
        kind: str,
        timed: bool,
        answer: asyncio.Future[Frame] | None,
        fields: Any,
        due: float | None = None,
    ) -> None:
        assert self.ws is not None
        sample = Sample(self.group, time.time() if due is None else due) if timed else None
        if sample is not None:
            self.record.samples.append(sample)
        self.pending[seq] = Pending(time.perf_counter(), sample, answer, kind, fields)
        await self.ws.send(orjson.dumps({"type": kind, "seq": seq, **fields}).decode())

    def wait(self, match: Callable[[Frame], bool], timeout: float = 60.0) -> Any:
        """A frame to come that ``match`` accepts (awaitable, bounded in time)."""
        future: asyncio.Future[Frame] = asyncio.get_running_loop().create_future()
        self.waiters.append((match, future))
        return asyncio.wait_for(future, timeout)

    def event(self, name: str, timeout: float = 60.0) -> Any:
        return self.wait(lambda f: f["type"] == "event" and f["event"] == name, timeout)

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                self.frames += 1
                self._dispatch(orjson.loads(text))
        except ConnectionClosed:
            pass
        finally:
            self.up.clear()
            welcomed, self.welcomed = self.welcomed, False
            if not self.closing:
                self.record.dropped.append((self.group, self.ws.close_code or 0))
                if self.dropped_at is None:
                    self.dropped_at = time.time()
            waiting = [p.answer for p in self.pending.values()] + [f for _, f in self.waiters]
            for future in waiting:
                if future is not None and not future.done():
                    future.set_exception(ConnectionError("socket closed"))
            self.waiters = []
            # A socket of a reconnection dropped before its welcome: that reconnection
            # tries again (closing here stopped the player for good: "never back").
            retrying = self.reconnecting is not None and not self.reconnecting.done()
            if welcomed and not self.closing and time.time() < self.resume_until:
                self.reconnecting = asyncio.create_task(self.reconnect())
            elif not retrying:
                self.closed.set()

    def _dispatch(self, frame: Frame) -> None:
        kind = frame["type"]
        if kind in ("applied", "refused") and frame.get("seq") in self.pending:
            pending = self.pending.pop(frame["seq"])
            if pending.sample is not None:
                pending.sample.latency = time.perf_counter() - pending.started
                if kind == "refused":
                    pending.sample.refused = frame["code"]
            if pending.answer is not None and not pending.answer.done():
                pending.answer.set_result(frame)
            if self.keep_answers and kind == "applied":
                self.answers.append({**frame, "sent": pending.kind})
            if kind == "applied" and self.dropped_at is not None:  # moving again
                self.back_after.append(time.time() - self.dropped_at)
                self.dropped_at = None
        elif kind == "event":
            self.version = frame["v"]
            if frame["event"] == "start":
                self.round = frame["round"]
        if self.waiters:
            for match, future in list(self.waiters):
                if not future.done() and match(frame):
                    future.set_result(frame)
            self.waiters = [(m, f) for m, f in self.waiters if not f.done()]

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5.0)
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5.0)


async def post(http: httpx.AsyncClient, path: str, body: Any, token: str = "") -> Any:
    """POST JSON, retried (3 tries) when a kept-alive connection was closed under us."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for attempt in range(3):
        try:
            answer = await http.post(path, json=body, headers=headers)
        except httpx.TransportError:
            if attempt == 2:
                raise
            continue
        answer.raise_for_status()
        return answer.json()


async def new_player(http: httpx.AsyncClient, name: str) -> tuple[str, str]:
    """POST /api/players: the player's (id, token)."""
    body = await post(http, "/api/players", {"name": name})
    SHARDS[body["player"]["id"]] = int(body["player"].get("daily_shard", 0))
    return body["player"]["id"], body["token"]


SHARDS: dict[str, int] = {}  # player id: their shard of a split daily, as the server said


async def new_room(http: httpx.AsyncClient, token: str, settings: dict[str, Any]) -> str:
    """POST /api/rooms: the room id."""
    room: str = (await post(http, "/api/rooms", settings, token))["room"]
    return room


async def gather_bounded(jobs: list[Any], at_once: int = 50) -> list[Any]:
    """Run coroutines with at most ``at_once`` in flight (connection setup)."""
    gate = asyncio.Semaphore(at_once)

    async def one(job: Any) -> Any:
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(job) for job in jobs)))


async def answered(conns: list[Conn], deadline: float) -> None:
    """Until every command written on these sockets is answered, or the deadline."""
    while time.time() < deadline and any(conn.pending for conn in conns):
        await asyncio.sleep(0.05)


async def sleep_until(wall: float) -> None:
    delay = wall - time.time()
    if delay > 0:
        await asyncio.sleep(delay)
