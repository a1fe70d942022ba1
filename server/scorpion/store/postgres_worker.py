"""PostgreSQL through an asyncpg connection pool, with group commit and reconnects.

Reads take any pooled connection. Writes are group-committed
(:mod:`scorpion.store.group`) on one connection at a time. A write that fails (a
unique key, a closed room) is rolled back alone: the batch is run again with a
savepoint around each write.

The database may be unreachable: :meth:`PostgresWorker.open` waits for it; a write
whose transaction failed before COMMIT was sent is tried again on a new connection
for up to ``retry_for`` seconds (nothing of it was kept), then fails with
:class:`StoreUnavailable`. A connection lost during COMMIT leaves the outcome unknown:
that write fails (the client is told to reconnect), never acknowledged falsely.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import asyncpg

from .base import DuplicateError, Fenced, NewerSchema, StoreError, StoreUnavailable
from .group import GroupCommit, Outcome
from .postgres_connect import DatabaseRefused, host_of, lasting
from .postgres_mode import FENCED, ModeLock
from .postgres_schema import META, MIGRATIONS, VERSION
from .sql import pg

log = logging.getLogger("scorpion.store")

T = TypeVar("T")
if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Conn = PoolConnectionProxy[asyncpg.Record]  # a pooled connection
else:
    Conn = Any
PgOp = Callable[[Conn], Awaitable[Any]]

_TRANSIENT = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
SCHEMA_LOCK = 0x5C0E_0001  # the advisory lock taken while a process migrates


def transient(exc: BaseException) -> bool:
    """Is ``exc`` the database being away (worth a retry), not a refused statement?"""
    if isinstance(exc, asyncpg.InterfaceError):
        return "closed" in str(exc)  # a connection closed under us; other ones are our bugs
    return isinstance(exc, _TRANSIENT)


class PostgresWorker(GroupCommit):
    """Opens, migrates and closes the pool; runs reads and group-committed writes."""

    def __init__(
        self, url: str, pool_size: int = 10, retry_for: float = 15.0, start_wait: float = 60.0
    ) -> None:
        super().__init__()
        self.url = url
        self.pool_size = pool_size
        self.retry_for = retry_for
        self.start_wait = start_wait  # seconds open() waits for a database that is away
        # The process's hold on the database (scorpion.store.postgres_mode): each write
        # transaction checks it first. None: not checked (tools, tests of the store).
        self.mode: ModeLock | None = None
        self._pool: asyncpg.Pool | None = None

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Connect and migrate; while the database cannot be reached, wait and retry for
        up to ``start_wait`` seconds (a supervisor restarts us after that)."""
        delay, deadline = 0.1, time.monotonic() + self.start_wait
        while True:
            try:
                pool = await asyncpg.create_pool(
                    self.url, min_size=1, max_size=self.pool_size, timeout=10.0, reset=_reset
                )
                break
            except Exception as exc:
                cause = lasting(exc, self.url)
                if cause is not None:
                    raise DatabaseRefused(cause) from None
                if not transient(exc):
                    raise StoreError(f"cannot use the database: {exc}") from exc
                where = host_of(self.url)
                if time.monotonic() > deadline:
                    raise StoreUnavailable(
                        f"no PostgreSQL at {where} after {self.start_wait:g} s: {exc}"
                    ) from None
                log.warning("waiting for PostgreSQL at %s: %s", where, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
        try:
            async with pool.acquire() as conn:
                await self._migrate(conn)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool

    @staticmethod
    async def _migrate(conn: Conn) -> None:
        async with conn.transaction():
            # Several processes may start at once on one database: one migrates at a time.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
            await conn.execute(META)
            found = await conn.fetchval("SELECT value FROM meta WHERE key = 'schema'")
            current = int(found or 0)
            if current > VERSION:
                raise NewerSchema("the database", current, VERSION)
            for version in range(current + 1, VERSION + 1):
                await conn.execute(MIGRATIONS[version])
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema', $1) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                str(VERSION),
            )

    async def close(self) -> None:
        """Commit what is queued, then close. Safe to call twice."""
        await self._drain()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    async def ping(self) -> bool:
        try:
            return bool(await self._read(lambda c: c.fetchval("SELECT 1")) == 1)
        except StoreError:
            return False

    # -------------------------------------------------------------- plumbing
    def _live_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreUnavailable("the store is not open")
        return self._pool

    @staticmethod
    def _among(column: str, values: list[str]) -> tuple[str, tuple[object, ...]]:
        return f"{column} = ANY(?::text[])", (values,)

    async def _rows(self, sql: str, *args: object) -> list[Any]:
        """The rows of one read (:class:`~.reads.SharedReads`' primitive): ``sql`` written
        with ``?`` placeholders, numbered for asyncpg (:func:`~.sql.pg`)."""
        return list(await self._read(lambda c: c.fetch(pg(sql), *args)))

    async def _read(self, op: Callable[[Conn], Awaitable[T]]) -> T:
        try:
            async with self._live_pool().acquire(timeout=10.0) as conn:
                return await op(conn)
        except StoreError:
            raise
        except Exception as exc:
            if transient(exc):
                raise StoreUnavailable(f"the database is unavailable: {exc}") from exc
            raise StoreError(str(exc)) from exc

    async def _write(self, op: Callable[[Conn], Awaitable[T]]) -> T:
        """Queue ``op`` for the next group commit; return its result once committed."""
        return cast(T, await self._queue(op))

    async def _commit_batch(self, ops: list[PgOp]) -> list[Outcome]:
        """Commit ``ops``; tried again on a new connection while the database is away."""
        deadline = time.monotonic() + self.retry_for
        delay = 0.05
        while True:
            committing = False
            try:
                async with self._live_pool().acquire(timeout=10.0) as conn:
                    # The transaction, the hold's check and the batch's savepoint in one
                    # round trip.
                    held = self.mode.check() if self.mode is not None else ""
                    try:
                        await conn.execute(f"BEGIN; {held} SAVEPOINT batch")
                        results = await self._run(conn, ops)
                    except BaseException:
                        if not conn.is_closed() and conn.is_in_transaction():
                            await conn.execute("ROLLBACK")
                        raise
                    committing = True
                    await conn.execute("COMMIT")
                return results
            except Exception as exc:
                if getattr(exc, "sqlstate", None) == FENCED:
                    if self.mode is not None:  # it finds out at once, and stops
                        self.mode.lost.set()
                    raise Fenced(str(exc)) from None
                if not transient(exc):
                    raise
                if committing:
                    raise StoreError(f"the outcome of a commit is unknown: {exc}") from exc
                if time.monotonic() > deadline:
                    raise StoreUnavailable(f"the database is unavailable: {exc}") from exc
                log.warning("retrying a commit: %s", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    @staticmethod
    async def _run(conn: Conn, ops: list[PgOp]) -> list[Outcome]:
        """Every op in the open transaction (after its savepoint ``batch``); if one fails,
        again with a savepoint each."""
        try:
            return [(True, await op(conn)) for op in ops]
        except Exception as exc:
            if transient(exc):
                raise
            await conn.execute("ROLLBACK TO SAVEPOINT batch")
        results: list[Outcome] = []
        for op in ops:
            await conn.execute("SAVEPOINT op")
            try:
                results.append((True, await op(conn)))
                await conn.execute("RELEASE SAVEPOINT op")
            except Exception as exc:
                if transient(exc):
                    raise
                await conn.execute("ROLLBACK TO SAVEPOINT op")
                results.append((False, failure(exc)))
        return results


async def _reset(conn: asyncpg.Connection) -> None:
    """Nothing to reset on a connection given back to the pool (asyncpg rolls back an open
    transaction itself first): nothing here sets session state (no LISTEN, session locks or
    SET), so asyncpg's default reset, a round trip on every release, is not needed."""


def failure(exc: Exception) -> StoreError:
    """The StoreError a refused statement becomes."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return DuplicateError(str(exc))
    return StoreError(str(exc))
