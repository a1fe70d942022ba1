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


class GroupCommit:
    """Queues writes (opaque to this class) for one flusher at a time."""

    def __init__(self) -> None:
        self._pending: list[tuple[Any, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for tests and metrics)
        self.fenced_writes = 0  # writes refused by their place's lease token (a metric)

    async def _commit_batch(self, ops: list[Any]) -> list[Outcome]:
        """Apply ``ops`` in one transaction and commit; one outcome per op, in order."""
        raise NotImplementedError

    async def _queue(self, op: Any) -> Any:
        """Queue ``op`` for the next group commit; its result once committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="scorpion-store-flush")
        return await future

    async def _drain(self) -> None:
        """Wait until everything queued is committed (or failed)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                results = await self._commit_batch([op for op, _ in batch])
            except BaseException as exc:  # the whole transaction failed: fail every write in it
                error = exc if isinstance(exc, StoreError) else StoreError(f"commit failed: {exc}")
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            self.commits += 1
            for (_, future), (ok, value) in zip(batch, results, strict=True):
                if future.done():
                    continue  # its caller went away; the write is committed all the same
                if ok:
                    future.set_result(value)
                else:
                    self.fenced_writes += isinstance(value, Fenced)
                    future.set_exception(value)
