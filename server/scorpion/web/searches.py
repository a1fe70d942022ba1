"""Searches run in worker processes, never on the event loop.

The race layer asks for a search as an output (scorpion.race.searches) and takes
its answer as an input. :class:`SearchPool` runs requests in a bounded pool of
worker processes (cores minus one, at least one, so the event loop keeps a core;
each runs :func:`scorpion.web.search_worker.main`, which it owns and can kill).

Which request runs next is the fair share of :class:`scorpion.race.search_queue.SearchQueue`:
in turn by client address and player, a few held by each, a bounded number waiting, none
waiting longer than ``max_wait``. A request it refuses, pushes out or expires is answered
:class:`~scorpion.race.SearchFailed` (the player is told the server is busy). A request
whose answer is no longer wanted when a worker frees up (its game moved on) is skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from scorpion.race import RaceError, SearchAnswer, SearchFailed, SearchRequest, SearchTicket
from scorpion.race.search_queue import SearchQueue, ShareLimits, Waiting
from scorpion.tasks import cancel_all

from . import logs
from .search_worker import HEADER, frame

log = logging.getLogger("scorpion.web")

MAX_ADDRESSES = 100_000  # players' last addresses kept (then forgotten at once: bounded)


def default_workers() -> int:
    """Cores minus one, at least one: the event loop keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


Answered = Callable[[SearchAnswer], Coroutine[object, object, None]]


class SearchPool:
    """A bounded pool of search workers feeding answers back through ``answered``."""

    def __init__(
        self,
        answered: Answered,
        wanted: Callable[[SearchTicket], bool],
        *,
        workers: int | None = None,
        limits: ShareLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.answered = answered
        self.wanted = wanted
        self.workers = workers or default_workers()
        self.queue: SearchQueue[SearchRequest] = SearchQueue(limits)
        self.clock = clock
        self.addresses: dict[str, str] = {}  # player -> the client address they last came from
        self.done = 0
        self.skipped = 0  # dropped before they ran: their answer was no longer wanted
        self.refused = 0  # answered busy: over a share, pushed out or waited too long
        self.seconds = 0.0  # total time searching
        self.timed: Callable[[float], None] = lambda seconds: None  # each search's time
        self._work = asyncio.Event()  # something new waits, or its deadline moved
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def running(self) -> int:
        return self.queue.running

    @property
    def started(self) -> bool:
        return bool(self._tasks)

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._serve(), name=f"scorpion-search-{i}")
            for i in range(self.workers)
        ]
        self._tasks.append(asyncio.create_task(self._expire(), name="scorpion-search-expiry"))

    def note_address(self, player: str, address: str) -> None:
        """The client address ``player`` connected from: their searches count against it."""
        if len(self.addresses) >= MAX_ADDRESSES and player not in self.addresses:
            self.addresses.clear()  # crude but bounded: the per-player share still holds
        self.addresses[player] = address

    def submit(self, request: SearchRequest, address: str | None = None) -> bool:
        """Queue a request (never waits); one refused is answered ``SearchFailed`` at once
        (False).
        ``address``: the asker's client address (default: where the player last came from;
        a player never seen here, e.g. forwarded from another process, is their own)."""
        player = request.ticket.player
        if address is None:
            address = self.addresses.get(player, f"player:{player}")
        try:
            pushed_out = self.queue.push(request, player, address, self.clock())
        except RaceError as exc:
            self._fail(request, exc.message)
            return False
        for other in pushed_out:
            self._fail(other, "pushed out of a full queue")
        self._work.set()
        return True

    def _fail(self, request: SearchRequest, reason: str) -> None:
        self.refused += 1
        task = asyncio.create_task(self.answered(SearchFailed(request.ticket, f"busy: {reason}")))
        task.add_done_callback(_log_failure)

    async def _next(self) -> Waiting[SearchRequest]:
        while True:
            found = self.queue.pop(self.clock())
            if found is not None:
                return found
            self._work.clear()
            await self._work.wait()

    async def _expire(self) -> None:
        """Answer ``busy`` the requests that waited too long (the workers were all busy)."""
        while True:
            for request in self.queue.expire(self.clock()):
                self._fail(request, "waited too long for a worker")
            due = self.queue.next_expiry()
            self._work.clear()
            with contextlib.suppress(TimeoutError):
                timeout = None if due is None else max(0.0, due - self.clock())
                await asyncio.wait_for(self._work.wait(), timeout)

    async def _serve(self) -> None:
        worker: Worker | None = None
        try:
            while True:
                found = await self._next()
                try:
                    worker, answer = await self._run(worker, found.item)
                finally:
                    self.queue.done(found)  # its worker is free before its answer goes out
                if answer is not None:
                    await self._answer(answer)
        finally:
            if worker is not None:
                await worker.stop()

    async def _run(
        self, worker: Worker | None, request: SearchRequest
    ) -> tuple[Worker | None, SearchAnswer | None]:
        """Run one request on ``worker`` (started if need be); the worker to use next, and
        the answer (None: nobody wanted it any more)."""
        if not self.wanted(request.ticket):
            self.skipped += 1
            return worker, None
        started = time.monotonic()
        answer: SearchAnswer
        try:
            worker = worker or await Worker.start()
            answer = await worker.ask(request)
        except (OSError, EOFError, asyncio.IncompleteReadError, pickle.UnpicklingError):
            log.exception("a search worker failed; starting another")
            if worker is not None:
                await worker.stop()
            worker = None
            answer = SearchFailed(request.ticket, "worker failed")
        finally:
            self.seconds += time.monotonic() - started
            self.timed(time.monotonic() - started)
        self.done += 1
        return worker, answer

    async def _answer(self, answer: SearchAnswer) -> None:
        try:
            await self.answered(answer)
        except Exception:
            log.exception("could not deliver the answer of %r", answer.ticket)

    async def close(self) -> None:
        """Stop every worker (a search still running is dropped)."""
        await cancel_all(self._tasks)
        self._tasks.clear()


class Worker:
    """One worker process and its pipes; one request at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, module: str = "scorpion.web.search_worker") -> Worker:
        # "-c import ...", not "-m": runpy warns (a raw RuntimeWarning line on stderr) when
        # the package it imports first has imported the module. The worker logs in the
        # server's level and format (its stderr is the server's).
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            f"import {module} as worker; worker.main()",
            *logs.worker_args(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def ask(self, request: SearchRequest) -> SearchAnswer:
        answer: SearchAnswer = await self.exchange(request)
        return answer

    async def exchange(self, request: object) -> Any:
        """Send one pickled request, wait for its pickled answer."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(frame(pickle.dumps(request)))
        await stdin.drain()
        size = HEADER.unpack(await stdout.readexactly(HEADER.size))[0]
        return pickle.loads(await stdout.readexactly(size))

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def stop(self) -> None:
        """Kill the process and reap it."""
        self.kill()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), 5.0)


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("could not answer a refused search", exc_info=task.exception())
