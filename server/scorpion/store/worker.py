"""SQLite on one worker thread, with group commit (:mod:`scorpion.store.group`).

The event loop never touches the database: every call runs on a single dedicated
thread. A write that fails is rolled back to its own savepoint and fails alone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import quote

from . import lock
from .base import DuplicateError, NewerSchema, StoreError, StoreUnavailable
from .group import GroupCommit, Outcome
from .schema import MIGRATIONS, PRAGMAS, VERSION

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]


class SQLiteWorker(GroupCommit):
    """Opens, migrates and closes the database; runs reads and group-committed writes."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        """``read_only``: only reads, beside the server that holds the file (an operator's
        command); the file must exist at the current schema version."""
        super().__init__()
        self.path = str(path)
        self.read_only = read_only
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._lock: lock.InstanceLock | None = None

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        if self.read_only:
            if not Path(self.path).is_file():
                raise StoreError(f"no database at {self.path}")
        elif self.path != ":memory:":
            self._lock = lock.hold(self.path)  # one process per file
            lock.create_private(self.path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scorpion-store")
        try:
            await self._call(self._connect)
        except BaseException:
            await self.close()
            raise

    def _connect(self) -> None:
        if self.read_only:
            self._conn = self._connect_read_only()
            return
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        for pragma in PRAGMAS:
            conn.execute(pragma)
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current > VERSION:
            raise NewerSchema(f"the database {self.path}", current, VERSION)
        for version in range(current + 1, VERSION + 1):
            conn.execute("BEGIN IMMEDIATE")
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version={version}")
            conn.execute("COMMIT")
        self._conn = conn

    def _connect_read_only(self) -> sqlite3.Connection:
        uri = f"file:{quote(self.path)}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=5000")
            current = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from None
        if current != VERSION:
            conn.close()
            raise StoreError(
                f"database {self.path} has schema {current}, not {VERSION}: "
                "start the server of this version on it first"
            )
        return conn

    async def close(self) -> None:
        """Commit what is queued, then close. Safe to call twice."""
        if self._executor is None:
            return
        await self._drain()
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
            raise StoreUnavailable("the store is not open")
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreUnavailable("the store is not open")
        return self._conn

    async def _read(self, op: Callable[[sqlite3.Connection], T]) -> T:
        return await self._call(lambda: op(self._db()))

    @staticmethod
    def _among(column: str, values: list[str]) -> tuple[str, tuple[object, ...]]:
        return f"{column} IN ({', '.join('?' * len(values))})", tuple(values)

    async def _rows(self, sql: str, *args: object) -> list[Any]:
        """The rows of one read (:class:`~.reads.SharedReads`' primitive)."""
        return await self._read(lambda c: c.execute(sql, args).fetchall())

    async def _write(self, op: Callable[[sqlite3.Connection], T]) -> T:
        """Queue ``op`` for the next group commit; return its result once committed."""
        return cast(T, await self._queue(op))

    async def _commit_batch(self, ops: list[Op]) -> list[Outcome]:
        return await self._call(lambda: self._commit(ops))

    def _commit(self, ops: list[Op]) -> list[Outcome]:
        """Every op in one transaction; if one fails, again with a savepoint each (as the
        PostgreSQL worker does): two statements fewer per op in the common case."""
        conn = self._db()
        conn.execute("BEGIN IMMEDIATE")
        try:
            results = self._apply(conn, ops)
            conn.execute("COMMIT")
            return results
        except (sqlite3.Error, ValueError):
            conn.execute("ROLLBACK")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return self._commit_each(ops)

    def _apply(self, conn: sqlite3.Connection, ops: list[Op]) -> list[Outcome]:
        """Every op, in order, in the open transaction (any error: the caller rolls back)."""
        return [(True, op(conn)) for op in ops]

    def _commit_each(self, ops: list[Op]) -> list[Outcome]:
        conn = self._db()
        results: list[Outcome] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for op in ops:
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
        return results
