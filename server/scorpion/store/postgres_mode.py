"""One way of using a PostgreSQL database at a time: one process alone, or a cluster.

A process without ``--redis`` acts on every place it loads; processes with it share the
places by leases (docs/scaling.md). Both kinds on one database would apply moves to the
same place twice (split brain), so each process holds the advisory lock ``MODE_LOCK``
for its whole life, on a connection of its own: exclusive alone, shared in a cluster.
PostgreSQL grants it to one lone process or to any number of cluster processes, never
to both kinds; the other kind is refused at start with a message naming the setting.

The lock goes with its connection. So that a process whose lock connection was lost
cannot act beside one that took the lock since, every write transaction of the store
first checks, in the same round trip as its BEGIN, that the lock connection still holds
the lock (:meth:`ModeLock.check`). A refused write waits while the process takes the
lock again (the store's ``retry_for``), then fails as :class:`~.base.Fenced` and the
usual path of a failed write (sockets told to reconnect, places rebuilt from their logs)
follows. Each such check holds ``WRITES_LOCK`` shared until its commit, and a process
that takes ``MODE_LOCK`` takes ``WRITES_LOCK`` exclusive once: that waits for the
writes checked before the lock changed hands. A process that takes its lock again after
losing it stops when another process used the database meanwhile (its memory may be
stale: a restart replays the logs).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Final

import asyncpg

from .lock import InUseError

log = logging.getLogger("scorpion.store")

MODE_LOCK: Final = 0x5C0E_0003  # held for life: exclusive alone, shared in a cluster
WRITES_LOCK: Final = 0x5C0E_0004  # held shared by each write transaction's check
FENCED: Final = "SCFEN"  # the SQLSTATE of a write refused by the check

ALONE_HOLDS: Final = (
    "another Scorpion process uses this database without --redis; there can be one such "
    "process per database: stop it first, or run every process with --redis (SCORPION_REDIS)"
)
CLUSTER_HOLDS: Final = (
    "another Scorpion process uses this database with --redis (several processes share "
    "it); start this one with --redis (SCORPION_REDIS) too"
)


class ModeRefused(InUseError):
    """The database is used the other way (one process alone, or a cluster)."""


class ModeLock:
    """This process's hold on the database, alone (``cluster`` False) or in a cluster."""

    def __init__(self, url: str, cluster: bool) -> None:
        self.url = url
        self.cluster = cluster
        self.pid = 0  # the backend holding the lock (0: none now)
        self._old_pid = 0  # the one that held it before it was lost
        self._conn: asyncpg.Connection | None = None
        self._epochs: tuple[int, int] | None = None  # (alone, cluster) takes seen at ours
        self.lost = asyncio.Event()

    def check(self) -> str:
        """The SQL run at the start of each write transaction: it fails with SQLSTATE
        :data:`FENCED` unless this process's lock connection still holds the lock."""
        return (
            "DO $$ BEGIN PERFORM pg_advisory_xact_lock_shared("
            f"{WRITES_LOCK}); IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = "
            f"'advisory' AND classid = 0 AND objid = {MODE_LOCK} AND objsubid = 1 AND pid = "
            f"{int(self.pid)} AND granted) THEN RAISE EXCEPTION 'this process no longer holds "
            f"the database' USING ERRCODE = '{FENCED}'; END IF; END $$;"
        )

    async def take(self) -> None:
        """Take the lock, or raise :class:`ModeRefused` saying which way the database is
        used. Taken again after a loss: :class:`ModeRefused` too when another process took
        it meanwhile. Other errors (the database away) are raised as they are."""
        conn = await asyncpg.connect(self.url, timeout=10.0)
        try:
            kind = "shared" if self.cluster else ""
            sql = f"SELECT pg_try_advisory_lock{'_' + kind if kind else ''}($1)"
            if not await conn.fetchval(sql, MODE_LOCK):
                await self._end_our_old_session(conn)
                cluster_holds = not self.cluster and await conn.fetchval(
                    "SELECT pg_try_advisory_lock_shared($1)", MODE_LOCK
                )
                raise ModeRefused(CLUSTER_HOLDS if cluster_holds else ALONE_HOLDS)
            # Writes checked by processes of the other kind before we held it end first.
            await conn.execute(
                "SELECT pg_advisory_lock($1); SELECT pg_advisory_unlock($1)".replace(
                    "$1", str(WRITES_LOCK)
                )
            )
            await self._count_take(conn)
        except BaseException:
            conn.terminate()  # the session's locks go with it
            raise
        conn.add_termination_listener(lambda _: self.lost.set())
        self._conn, self.pid = conn, conn.get_server_pid()
        self.lost.clear()

    async def _end_our_old_session(self, conn: asyncpg.Connection) -> None:
        """A lost connection may live on in the server for a while, still holding our
        lock: end it, and try again (a RuntimeError: retried by :meth:`watch`)."""
        holders = await conn.fetchval(
            "SELECT array_agg(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 "
            "AND objid = $1 AND objsubid = 1 AND granted AND database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database())",
            MODE_LOCK,
        )
        if self._old_pid and set(holders or ()) == {self._old_pid}:
            await conn.fetchval("SELECT pg_terminate_backend($1)", self._old_pid)
            raise RuntimeError(f"ended this process's old lock connection (pid {self._old_pid})")

    async def _count_take(self, conn: asyncpg.Connection) -> None:
        """Count the takes of each kind (in meta): one taken again checks that nobody who
        could have acted beside it took the lock while it was lost."""
        rows = await conn.fetch(
            "SELECT key, value FROM meta WHERE key IN ('mode_alone', 'mode_cluster')"
        )
        found = {str(r[0]): int(r[1]) for r in rows}
        now = (found.get("mode_alone", 0), found.get("mode_cluster", 0))
        seen = self._epochs
        if seen is not None and (now[0] != seen[0] or (not self.cluster and now[1] != seen[1])):
            raise ModeRefused(
                "another Scorpion process used this database while this one had lost its "
                "lock: stopping (a restart replays the logs)"
            )
        key = "mode_cluster" if self.cluster else "mode_alone"
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, '1') ON CONFLICT (key) "
            "DO UPDATE SET value = (meta.value::bigint + 1)::text",
            key,
        )
        self._epochs = (now[0] + (not self.cluster), now[1] + self.cluster)

    async def held(self, timeout: float = 5.0) -> bool:
        """Whether the lock's connection still answers (the lock lives with it)."""
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            await asyncio.wait_for(conn.fetchval("SELECT 1"), timeout)
        except Exception:
            conn.terminate()
            return False
        return True

    async def watch(self, interval: float = 1.0) -> None:
        """Notice a lost lock connection (at once, or by a ping every ``interval``) and
        take the lock again as soon as the database answers; raises :class:`ModeRefused`
        when another process took it meanwhile (this process must stop)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.lost.wait(), interval)
            self.lost.clear()  # set by the connection's end, or by a write refused
            if await self.held():
                continue
            # Every write is refused from now on (no backend of ours matches pid 0).
            self._old_pid, self.pid, self._conn = self.pid, 0, None
            log.warning("lost the database lock's connection: writes refused until retaken")
            delay = 0.1
            while True:
                try:
                    await self.take()
                    log.info("the database lock is held again")
                    break
                except ModeRefused:
                    raise
                except Exception as exc:
                    log.warning("cannot take the database lock again yet: %s", exc)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)

    async def close(self) -> None:
        conn, self._conn, self.pid = self._conn, None, 0
        if conn is not None and not conn.is_closed():
            await conn.close()
