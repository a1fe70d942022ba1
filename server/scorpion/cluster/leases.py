"""Leases in PostgreSQL: one owning process per place, with a fencing token.

A place is a room id or ``daily:<date>`` (the key of its log). Its row in ``leases``
names the owning process (a node number), the fencing token and when the lease
expires, by PostgreSQL's clock (one clock for every process). Tokens come from a
sequence: strictly increasing and durable. Every store write of a place carries its
token (``scorpion.store.Fence``) and is refused once another process took the place
over; a takeover locks the row, so it waits for a write in flight, while renewals never
wait for writes (docs/scaling.md).

The leases use their own small connection pool: a renewal never waits behind the
store's group commit.
"""

from __future__ import annotations

from typing import Final

import asyncpg

SCHEMA: Final = """
CREATE SEQUENCE IF NOT EXISTS scorpion_nodes;
CREATE SEQUENCE IF NOT EXISTS scorpion_lease_tokens;
CREATE TABLE IF NOT EXISTS leases (
    place TEXT PRIMARY KEY,
    owner BIGINT NOT NULL,
    token BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS cluster_nodes (
    address TEXT PRIMARY KEY,
    node BIGINT NOT NULL,
    started TIMESTAMPTZ NOT NULL
);
"""
SCHEMA_LOCK: Final = 0x5C0E_0002  # taken while a process creates the tables

_TAKE: Final = """
INSERT INTO leases AS l (place, owner, token, expires)
VALUES ($1, $2, nextval('scorpion_lease_tokens'), clock_timestamp() + make_interval(secs => $3))
ON CONFLICT (place) DO UPDATE
    SET owner = excluded.owner, token = excluded.token, expires = excluded.expires
    WHERE l.expires < clock_timestamp()
RETURNING token
"""
_RENEW: Final = """
UPDATE leases l SET expires = clock_timestamp() + make_interval(secs => $3)
FROM unnest($1::text[], $2::bigint[]) AS u(place, token)
WHERE l.place = u.place AND l.token = u.token
RETURNING l.place
"""


class Leases:
    """This process's view of the lease table: take, renew, release, look up."""

    def __init__(self, url: str, ttl: float = 2.0) -> None:
        self.url = url
        self.ttl = ttl
        self.node = 0  # this process's number, given by :meth:`open`
        self.takeovers = 0  # places taken from an expired lease, not a released one (a metric)
        self.restarted = False  # a process of the same address ran on this database before
        self._pool: asyncpg.Pool | None = None

    async def open(self, address: str) -> int:
        """Connect, create the tables if missing and draw this process's node number;
        ``address`` (host and port, where the proxy reaches it) says whether it is a
        restart of one that ran before (:attr:`restarted`): whose places others took."""
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=3, timeout=10.0)
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", SCHEMA_LOCK)
            await conn.execute(SCHEMA)
            self.node = int(await conn.fetchval("SELECT nextval('scorpion_nodes')"))
            before = await conn.fetchval(
                "SELECT node FROM cluster_nodes WHERE address = $1 FOR UPDATE", address
            )
            await conn.execute(
                "INSERT INTO cluster_nodes (address, node, started) "
                "VALUES ($1, $2, clock_timestamp()) ON CONFLICT (address) "
                "DO UPDATE SET node = excluded.node, started = excluded.started",
                address,
                self.node,
            )
        self.restarted = before is not None
        return self.node

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def _live(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("leases are not open")
        return self._pool

    async def take(self, place: str) -> int | None:
        """Take ``place`` if nobody holds a live lease on it: the new token, else None.

        The row is locked FOR UPDATE first: that waits for every write of the place still
        in flight (each holds it FOR KEY SHARE), so what they wrote is in the log the new
        owner reads next, and any later write of the old owner is refused.
        """
        async with self._live().acquire() as conn, conn.transaction():
            held = await conn.fetchval("SELECT 1 FROM leases WHERE place = $1 FOR UPDATE", place)
            token = await conn.fetchval(_TAKE, place, self.node, self.ttl)
        if token is None:
            return None
        # A released lease is deleted: a row still there ran out (its owner died or paused).
        self.takeovers += held is not None
        return int(token)

    async def owner(self, place: str) -> tuple[int, bool] | None:
        """(owner node, lease still live) of ``place``, or None when nobody ever took it."""
        row = await self._live().fetchrow(
            "SELECT owner, expires > clock_timestamp() FROM leases WHERE place = $1", place
        )
        return None if row is None else (int(row[0]), bool(row[1]))

    async def live_owners(self, places: list[str]) -> dict[str, int]:
        """The owner node of each of ``places`` whose lease is live (one query: the shards
        of a day's daily, say); a place nobody holds is missing from the answer."""
        rows = await self._live().fetch(
            "SELECT place, owner FROM leases "
            "WHERE place = ANY($1::text[]) AND expires > clock_timestamp()",
            places,
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def renew(self, held: dict[str, int]) -> set[str]:
        """Extend the leases of ``held`` (place: token) whose token is current; the places
        kept. A place missing from the answer was taken over: it must be dropped."""
        if not held:
            return set()
        places = sorted(held)  # one order for every statement that locks several rows
        tokens = [held[p] for p in places]
        rows = await self._live().fetch(_RENEW, places, tokens, self.ttl)
        return {str(r[0]) for r in rows}

    async def release(self, held: dict[str, int]) -> None:
        """Give places up now (a closed room, a graceful stop): others may take them at once."""
        if held:
            await self._live().execute(
                "DELETE FROM leases l USING unnest($1::text[], $2::bigint[]) AS u(place, token) "
                "WHERE l.place = u.place AND l.token = u.token",
                list(held),
                list(held.values()),
            )

    async def moved(self, owners: dict[str, int]) -> set[str]:
        """The places of ``owners`` (place: the node we forward to) whose lease that node no
        longer holds live: its sockets must reconnect to reach the new owner."""
        if not owners:
            return set()
        rows = await self._live().fetch(
            "SELECT u.place FROM unnest($1::text[], $2::bigint[]) AS u(place, owner) "
            "LEFT JOIN leases l ON l.place = u.place "
            "WHERE l.place IS NULL OR l.owner <> u.owner OR l.expires < clock_timestamp()",
            list(owners),
            list(owners.values()),
        )
        return {str(r[0]) for r in rows}
