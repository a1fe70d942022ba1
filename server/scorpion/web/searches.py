"""Searches run in worker processes, never on the event loop.

The race layer asks for a search as an output (scorpion.race.searches) and takes
its answer as an input. :class:`SearchPool` runs requests in a bounded pool of
worker processes (cores minus one, at least one, so the event loop keeps a core;
each runs :func:`scorpion.web.search_worker.main`, which it owns and can kill).

The pool holds at most ``max_queued`` waiting requests; beyond that a request
is answered :class:`~scorpion.race.SearchFailed` at once (the player is told the
server is busy). A request whose answer is no longer wanted when a worker frees
up (its game moved on) is skipped.
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

from scorpion.race import SearchAnswer, SearchFailed, SearchRequest, SearchTicket
from scorpion.tasks import cancel_all

from . import logs
from .search_worker import HEADER, frame

log = logging.getLogger("scorpion.web")


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
        max_queued: int = 64,
    ) -> None:
        self.answered = answered
        self.wanted = wanted
        self.workers = workers or default_workers()
        self.max_queued = max_queued
        self.queue: asyncio.Queue[SearchRequest] = asyncio.Queue()
        self.running = 0
        self.done = 0
        self.skipped = 0  # dropped before they ran: their answer was no longer wanted
        self.refused = 0  # answered busy: the queue was full
        self.seconds = 0.0  # total time searching
        self.timed: Callable[[float], None] = lambda seconds: None  # each search's time
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._serve(), name=f"scorpion-search-{i}")
            for i in range(self.workers)
        ]

    def submit(self, request: SearchRequest) -> None:
        """Queue a request (never waits); a full queue answers it ``SearchFailed`` at once."""
        if self.queue.qsize() >= self.max_queued:
            self.refused += 1
            task = asyncio.create_task(self.answered(SearchFailed(request.ticket, "busy")))
            task.add_done_callback(_log_failure)
            return
        self.queue.put_nowait(request)

    async def _serve(self) -> None:
        worker: Worker | None = None
        try:
            while True:
                request = await self.queue.get()
                if not self.wanted(request.ticket):
                    self.skipped += 1
                    continue
                self.running += 1
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
                    self.running -= 1
                    self.seconds += time.monotonic() - started
                    self.timed(time.monotonic() - started)
                self.done += 1
                try:
                    await self.answered(answer)
                except Exception:
                    log.exception("could not deliver the answer of %r", request.ticket)
        finally:
            if worker is not None:
                await worker.stop()

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
