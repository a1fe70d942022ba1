"""One way of using a PostgreSQL database at a time: one process alone, or a cluster.

A process without ``--redis`` acts on every place it loads; processes with it share the
places by leases (docs/scaling.md). Both kinds on one database would apply moves to the
same place twice (split brain), so each process holds the advisory lock ``MODE_LOCK``
for its whole life, on a connection of its own: exclusive alone, shared in a cluster.
PostgreSQL grants it to one lone process or to any number of cluster processes, never
to both kinds; the other kind is refused at start with a message naming the setting.

The lock goes with its connection, so the database also keeps who holds it: the row
``mode_holder`` of ``meta``, a token (``alone 7``, ``cluster 8``) that changes each
time the lock changes hands: each lone process draws a new one, cluster processes keep
the cluster's. Every write transaction of the store first checks, in the same round trip
as its BEGIN, that the row still holds this process's token (reading it ``FOR SHARE``:
the holder's update waits for the writes checked before it). A process whose lock
connection was lost therefore writes on while nobody took the lock (nothing to fence),
and has every write refused (:class:`~.base.Fenced`) from the moment another process
took it; it then stops, since what it holds in memory may be stale (a restart replays
the logs). It takes its lock again as soon as the database answers.
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
FUNCTION_LOCK: Final = 0x5C0E_0004  # taken while a process (re)creates the check
FENCED: Final = "SCFEN"  # the SQLSTATE of a write refused by the check

# The check each write transaction runs first (a function: planned once per session).
CHECK_FUNCTION: Final = f"""
CREATE OR REPLACE FUNCTION scorpion_holds(expected text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM meta WHERE key = 'mode_holder' AND value = expected
                   FOR SHARE) THEN
        RAISE EXCEPTION 'another process holds the database now (this one: %)', expected
            USING ERRCODE = '{FENCED}';
    END IF;
END $$
"""

ALONE_HOLDS: Final = (
    "another Scorpion process uses this database without --redis; there can be one such "
    "process per database: stop it first, or run every process with --redis (SCORPION_REDIS)"
)
CLUSTER_HOLDS: Final = (
    "another Scorpion process uses this database with --redis (several processes share "
    "it); start this one with --redis (SCORPION_REDIS) too"
)
TAKEN_MEANWHILE: Final = (
    "another Scorpion process took this database while this one had lost its lock: "
    "stopping (a restart replays the logs)"
)


class ModeRefused(InUseError):
    """The database is used the other way (one process alone, or a cluster)."""


class ModeLock:
    """This process's hold on the database, alone (``cluster`` False) or in a cluster."""

    def __init__(self, url: str, cluster: bool) -> None:
        self.url = url
        self.cluster = cluster
        self.token = ""  # the holder token of this process ("" until taken)
        self.pid = 0  # the backend holding the lock (0: none now)
        self._old_pid = 0  # the one that held it before it was lost
        self._conn: asyncpg.Connection | None = None
        self.lost = asyncio.Event()

    def check(self) -> str:
        """The SQL run at the start of each write transaction: it fails with SQLSTATE
        :data:`FENCED` once another process took the database."""
        return f"SELECT scorpion_holds('{self.token}');" if self.token else ""

    async def take(self) -> None:
        """Take the lock, or raise :class:`ModeRefused` saying which way the database is
        used. Taken again after a loss: :class:`ModeRefused` too when another process took
        it meanwhile. Other errors (the database away) are raised as they are."""
        conn = await asyncpg.connect(self.url, timeout=10.0)
        try:
            shared = "_shared" if self.cluster else ""
            if not await conn.fetchval(f"SELECT pg_try_advisory_lock{shared}($1)", MODE_LOCK):
                await self._end_our_old_session(conn)
                cluster_holds = not self.cluster and await conn.fetchval(
                    "SELECT pg_try_advisory_lock_shared($1)", MODE_LOCK
                )
                raise ModeRefused(CLUSTER_HOLDS if cluster_holds else ALONE_HOLDS)
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", FUNCTION_LOCK)
                await conn.execute(CHECK_FUNCTION)
                await self._hold(conn)
        except BaseException:
            conn.terminate()  # the session's locks go with it
            raise
        conn.add_termination_listener(lambda _: self.lost.set())
        self._conn, self.pid = conn, conn.get_server_pid()
        self.lost.clear()

    async def _hold(self, conn: asyncpg.Connection) -> None:
        """Make the holder row name this process (in the lock's transaction). Its update
        waits for writes still checking the previous holder's token."""
        found = await conn.fetchval("SELECT value FROM meta WHERE key = 'mode_holder' FOR UPDATE")
        if self.token:  # taken again: nobody may have held it meanwhile
            if found != self.token:
                raise ModeRefused(TAKEN_MEANWHILE)
            return
        if self.cluster and found and found.startswith("cluster "):
            self.token = found  # the cluster's processes share one token
            return
        number = int(found.split()[1]) + 1 if found else 1
        self.token = f"{'cluster' if self.cluster else 'alone'} {number}"
        await conn.execute(
            "INSERT INTO meta (key, value) VALUES ('mode_holder', $1) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            self.token,
        )

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
            self._old_pid, self.pid, self._conn = self.pid, 0, None
            log.warning("lost the database lock's connection: taking it again")
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
