"""Where the win slipped away: each finished game analysed once, in worker processes.

A game row finishing (a race round's or a daily attempt's ``GameResult`` committed)
queues its analysis in the background; asking for a game's analysis over HTTP queues
it too when it is missing (a practice game, one dropped from a full queue, one of
another process's), and the player's own game jumps the queue. Workers are separate
processes at idle priority (:mod:`.analysis_worker`), one by default, so the event
loop keeps its core; the answer is stored (``SaveAnalysis``), so it survives a
restart and any server process can serve it.

>>> order = JobOrder(limit=2)
>>> order.add("a"), order.add("b"), order.add("c")  # full: "c" waits to be asked for
(True, True, False)
>>> order.add("c", urgent=True)  # the player's own: "b", the newest, makes way
True
>>> [order.pop(), order.pop(), order.pop()]
['c', 'a', None]
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import time
from collections import deque
from typing import Any, Final

from scorpion.race.protocol import practice_player
from scorpion.store import SaveAnalysis, Store, StoreError
from scorpion.tasks import cancel_all

from .analysis_worker import AnalysisJob
from .searches import Worker

log = logging.getLogger("scorpion.web")

WORKER_MODULE: Final = "scorpion.web.analysis_worker"
WORKERS: Final = 1  # the searches for live players have the other spare core
MAX_QUEUED: Final = 2000


class JobOrder:
    """The waiting game ids: the requesters' own first, then the others in the order
    they came. At most ``limit`` wait; a background job that does not fit is dropped
    (it is queued again when someone asks for it)."""

    def __init__(self, limit: int = MAX_QUEUED) -> None:
        self.limit = limit
        self.urgent: deque[str] = deque()
        self.background: deque[str] = deque()
        self.waiting: set[str] = set()
        self.dropped = 0

    def __len__(self) -> int:
        return len(self.waiting)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.waiting

    def add(self, game_id: str, *, urgent: bool = False) -> bool:
        """Queue a game (again: no-op, or moved up if now urgent); False if it did not fit."""
        if urgent:
            if game_id in self.urgent:
                return True
            if game_id in self.waiting:
                self.background.remove(game_id)  # the requester's own jumps the queue
            elif len(self) >= self.limit:
                if not self.background:
                    return False
                self.waiting.discard(self.background.pop())  # the newest makes way
                self.dropped += 1
            self.urgent.append(game_id)
            self.waiting.add(game_id)
            return True
        if game_id in self.waiting:
            return True
        if len(self) >= self.limit:
            self.dropped += 1
            return False
        self.background.append(game_id)
        self.waiting.add(game_id)
        return True

    def pop(self) -> str | None:
        """The next game to analyse, or None."""
        queue = self.urgent or self.background
        if not queue:
            return None
        game_id = queue.popleft()
        self.waiting.discard(game_id)
        return game_id


class Analyses:
    """The analysis queue and its worker processes, for one server process."""

    def __init__(
        self, store: Store, *, workers: int = WORKERS, max_queued: int = MAX_QUEUED
    ) -> None:
        self.store = store
        self.workers = workers
        self.order = JobOrder(max_queued)
        self.running: set[str] = set()
        self.failed: set[str] = set()  # did not replay or a worker died: not retried
        self.done = 0
        self.seconds = 0.0  # total time analysing
        self._more = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._serve(), name=f"scorpion-analysis-{i}")
            for i in range(self.workers)
        ]

    async def close(self) -> None:
        """Stop every worker (an analysis still running is dropped: asked again later)."""
        await cancel_all(self._tasks)
        self._tasks.clear()

    def finished(self, game_id: str) -> None:
        """A game row was committed finished: analyse it in the background. Practice games
        are analysed only when asked for (there are many, and nobody else plays them)."""
        if practice_player(game_id.rsplit(":", 2)[0]) is None:
            self.ask(game_id)

    def ask(self, game_id: str, *, urgent: bool = False) -> bool:
        """Queue a game unless it is waiting or running; False if the queue is full."""
        if game_id in self.running or game_id in self.failed:
            return True
        queued = self.order.add(game_id, urgent=urgent)
        self._more.set()
        return queued

    def status(self, game_id: str) -> str | None:
        """'queued', 'running', 'failed' or None (not known here)."""
        if game_id in self.running:
            return "running"
        if game_id in self.order:
            return "queued"
        return "failed" if game_id in self.failed else None

    async def _next(self) -> str:
        while (game_id := self.order.pop()) is None:
            self._more.clear()
            await self._more.wait()
        return game_id

    async def _serve(self) -> None:
        worker: Worker | None = None
        try:
            while True:
                game_id = await self._next()
                self.running.add(game_id)
                started = time.monotonic()
                try:
                    worker = await self._analyse(game_id, worker)
                except StoreError:
                    log.exception("could not analyse %s: the store failed", game_id)
                finally:
                    self.running.discard(game_id)
                    self.seconds += time.monotonic() - started
        finally:
            if worker is not None:
                await worker.stop()

    async def _analyse(self, game_id: str, worker: Worker | None) -> Worker | None:
        """Analyse one game unless it is stored already; the worker to use next."""
        if await self.store.analysis(game_id) is not None:
            return worker
        saved = await self.store.game(game_id)
        if saved is None or saved.result is None:
            return worker  # gone (deleted), or not finished: nothing to say yet
        job = AnalysisJob(game_id, saved.preset, saved.deal, tuple(saved.actions))
        try:
            worker = worker or await Worker.start(WORKER_MODULE)
            answer: dict[str, Any] = await worker.exchange(job)
        except (OSError, EOFError, asyncio.IncompleteReadError, pickle.UnpicklingError):
            log.exception("an analysis worker failed on %s; starting another", game_id)
            if worker is not None:
                await worker.stop()
            self.failed.add(game_id)
            return None
        if "error" in answer:
            log.warning("could not analyse %s: %s", game_id, answer["error"])
            self.failed.add(game_id)
            return worker
        await self.store.write([SaveAnalysis(game_id, answer, time.time())])
        self.done += 1
        return worker
