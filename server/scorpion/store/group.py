"""Group commit, shared by both backends: writes that arrive while a transaction is being
committed wait and are committed together in the next one.

Thousands of players moving at once then cost a few commits per second rather than one
each, and each write still resolves only after its transaction has committed. A write
that fails alone (a unique key, a closed room) fails only its caller.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .base import Fenced, StoreError

Outcome = tuple[bool, Any]  # (True, result) or (False, the StoreError to raise)
ONE = -1  # a waiter of one op: its result, or its error raised


class GroupCommit:
    """Queues writes (opaque to this class) for one flusher at a time."""

    def __init__(self) -> None:
        self._pending: list[Any] = []  # the ops of the next commit, in order
        # Who waits for them: (its first op's index, its ops' count or ONE, its future).
        self._waiting: list[tuple[int, int, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for tests and metrics)
        self.fenced_writes = 0  # writes refused by their place's lease token (a metric)

    async def _commit_batch(self, ops: list[Any]) -> list[Outcome]:
        """Apply ``ops`` in one transaction and commit; one outcome per op, in order."""
        raise NotImplementedError

    def _enqueue(self, ops: list[Any], count: int) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((len(self._pending), count, future))
        self._pending.extend(ops)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="scorpion-store-flush")
        return future

    async def _queue(self, op: Any) -> Any:
        """Queue ``op`` for the next group commit; its result once committed."""
        return await self._enqueue([op], ONE)

    async def _queue_each(self, ops: list[Any]) -> list[Outcome]:
        """Queue ``ops`` for the next group commit, each standing alone as :meth:`_queue`'s
        would; their outcomes once committed (one future for all: a caller with many)."""
        if not ops:
            return []
        outcomes: list[Outcome] = await self._enqueue(ops, len(ops))
        return outcomes

    async def _drain(self) -> None:
        """Wait until everything queued is committed (or failed)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        while self._pending:
            ops, waiting = self._pending, self._waiting
            self._pending, self._waiting = [], []
            try:
                results = await self._commit_batch(ops)
            except BaseException as exc:  # the whole transaction failed: fail every write in it
                error = exc if isinstance(exc, StoreError) else StoreError(f"commit failed: {exc}")
                for _, _, future in waiting:
                    if not future.done():
                        future.set_exception(error)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            self.commits += 1
            self.fenced_writes += sum(not ok and isinstance(v, Fenced) for ok, v in results)
            for first, count, future in waiting:
                if future.done():
                    continue  # its caller went away; the write is committed all the same
                if count != ONE:
                    future.set_result(results[first : first + count])
                    continue
                ok, value = results[first]
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
