"""SQLite on one worker thread, with group commit.

The event loop never touches the database: every call runs on a single dedicated
thread. Writes that arrive while a commit is in progress are queued and committed
together in the next transaction (group commit), so thousands of players moving at
once cost a few commits per second rather than one each; each write still resolves
only after its transaction has committed. A write that fails is rolled back to its
own savepoint and fails alone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from . import lock
from .base import DuplicateError, StoreError
from .schema import MIGRATIONS, PRAGMAS, VERSION

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]


class SQLiteWorker:
    """Opens, migrates and closes the database; runs reads and group-committed writes."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._pending: list[tuple[Op, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for tests and metrics)
        self._lock: lock.InstanceLock | None = None

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        if self.path != ":memory:":
            self._lock = lock.hold(self.path)  # one process per file
            lock.create_private(self.path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scorpion-store")
        try:
            await self._call(self._connect)
        except BaseException:
            await self.close()
            raise

    def _connect(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        for pragma in PRAGMAS:
            conn.execute(pragma)
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current > VERSION:
            raise StoreError(f"database {self.path} has schema {current}, newer than {VERSION}")
        for version in range(current + 1, VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version={version}")
            conn.execute("COMMIT")
        self._conn = conn

    async def close(self) -> None:
        """Commit what is queued, then close. Safe to call twice."""
        if self._executor is None:
            return
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self._call(self._disconnect)
        self._executor.shutdown(wait=True)
        self._executor = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    async def ping(self) -> bool:
        try:
            return bool(await self._read(lambda c: c.execute("SELECT 1").fetchone()[0] == 1))
        except (sqlite3.Error, StoreError):
            return False

    # -------------------------------------------------------------- plumbing
    async def _call(self, fn: Callable[[], T]) -> T:
        if self._executor is None:
            raise StoreError("the store is not open")
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the store is not open")
        return self._conn

    async def _read(self, op: Callable[[sqlite3.Connection], T]) -> T:
        return await self._call(lambda: op(self._db()))

    async def _write(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Queue ``op`` for the next group commit; return its result once committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="scorpion-store-flush")
        return await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                results = await self._call(lambda b=batch: self._commit(b))  # type: ignore[misc]
            except BaseException as exc:  # the whole transaction failed: fail every write in it
                for _, future in batch:
                    if not future.done():
                        future.set_exception(StoreError(f"commit failed: {exc}"))
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for (_, future), (ok, value) in zip(batch, results, strict=True):
                if future.done():
                    continue  # its caller went away; the write is committed all the same
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)

    def _commit(self, batch: list[tuple[Op, asyncio.Future[Any]]]) -> list[tuple[bool, Any]]:
        conn = self._db()
        results: list[tuple[bool, Any]] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for op, _ in batch:
                conn.execute("SAVEPOINT op")
                try:
                    results.append((True, op(conn)))
                    conn.execute("RELEASE op")
                except sqlite3.IntegrityError as exc:
                    conn.execute("ROLLBACK TO op")
                    conn.execute("RELEASE op")
                    results.append((False, DuplicateError(str(exc))))
                except (sqlite3.Error, ValueError) as exc:
                    conn.execute("ROLLBACK TO op")
                    conn.execute("RELEASE op")
                    error = exc if isinstance(exc, StoreError) else StoreError(str(exc))
                    results.append((False, error))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self.commits += 1
        return results
