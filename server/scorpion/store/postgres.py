"""The PostgreSQL store: the queries of :class:`~scorpion.store.base.Store` on asyncpg.

The same tables, writes and answers as :mod:`scorpion.store.sqlite`; the pool, group
commit and reconnects are in :mod:`scorpion.store.postgres_worker`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import orjson

from . import queries as Q
from .base import (
    JSON,
    Account,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    Fence,
    Fenced,
    ListRoom,
    OpenRoom,
    Reveal,
    SaveAnalysis,
    SaveDaily,
    SaveGame,
    SaveReport,
    Store,
    StoreError,
    Write,
)
from .postgres_devices import DevicesAndReports, add_token, save_report
from .postgres_quick import QuickAndRatings, list_room
from .postgres_worker import Conn, PgOp, PostgresWorker
from .reads import SharedReads
from .rows import (
    dumps,
    game_values,
    player_from_row,
)
from .sql import pg


def _op(w: Write) -> PgOp:
    """One write as a coroutine on the transaction's connection."""
    if isinstance(w, Fence):
        return lambda c: _check_fence(c, w)
    if isinstance(w, AppendLog):
        room, text = w.room_id, dumps(w.entry)

        async def append(c: Conn) -> None:
            status = await c.execute(pg(Q.APPEND_LOG), text, room)
            if status.endswith(" 0"):
                raise StoreError(f"no open room {room!r}")

        return append
    if isinstance(w, SaveGame):
        values = (*game_values(w.record), w.record.player_id)
        return lambda c: c.execute(pg(Q.SAVE_GAME), *values)
    if isinstance(w, OpenRoom):
        sql = pg(Q.OPEN_ROOM + (Q.REOPEN if w.reopen else ""))
        row = (w.room_id, w.creator, dumps(w.settings), time.time())
        return lambda c: c.execute(sql, *row)
    if isinstance(w, CloseRoom):
        return _close_room(w.room_id, time.time())
    if isinstance(w, ListRoom):
        return list_room(w)
    if isinstance(w, ClaimDaily):
        claim = (w.day, w.player_id, w.game_id, w.player_id)
        return lambda c: c.execute(pg(Q.CLAIM_DAILY), *claim)
    if isinstance(w, SaveDaily):
        daily = (w.day, str(w.deal), w.verified, time.time())
        return lambda c: c.execute(pg(Q.SAVE_DAILY), *daily)
    if isinstance(w, Reveal):
        ids = list(w.game_ids)  # one array (SQLite runs the update once per id)
        return lambda c: c.execute("UPDATE games SET revealed = TRUE WHERE id = ANY($1)", ids)
    if isinstance(w, SaveReport):
        return save_report(w)
    if isinstance(w, SaveAnalysis):
        kept = (w.game_id, dumps(w.analysis), w.created, w.game_id)
        return lambda c: c.execute(pg(Q.SAVE_ANALYSIS), *kept)
    raise StoreError(f"unknown write {w!r}")


async def _check_fence(c: Conn, fence: Fence) -> None:
    # FOR KEY SHARE: a takeover (which locks the row FOR UPDATE) waits until this write
    # commits, so the new owner's read of the log sees it, and a write after the takeover is
    # refused; the owner's renewals (plain UPDATEs) never wait for it.
    found = await c.fetchval("SELECT token FROM leases WHERE place = $1 FOR KEY SHARE", fence.place)
    if found != fence.token:
        raise Fenced(f"{fence.place!r} is owned elsewhere now (token {found}, not {fence.token})")


def _fenced_append(fence: Fence, w: AppendLog) -> PgOp:
    """A fence and the append to its place's log in one statement (one round trip, the
    common write of a move): the lease row is locked as :func:`_check_fence` locks it."""
    text = dumps(w.entry)

    async def append(c: Conn) -> None:
        status = await c.execute(
            "WITH fence AS (SELECT token FROM leases WHERE place = $1 FOR KEY SHARE) "
            "INSERT INTO room_log (room_id, entry) "
            "SELECT id, $2 FROM rooms WHERE id = $1 AND closed IS NULL "
            "AND (SELECT token FROM fence) = $3",
            w.room_id,
            text,
            fence.token,
        )
        if status.endswith(" 0"):  # which of the two refused it
            await _check_fence(c, fence)
            raise StoreError(f"no open room {w.room_id!r}")

    return append


def _ops(writes: Sequence[Write]) -> list[PgOp]:
    """The writes as statements; a fence followed by an append to its place's log (what a
    move writes with several processes) as one."""
    first, second = (writes[0], writes[1]) if len(writes) > 1 else (None, None)
    if (
        isinstance(first, Fence)
        and isinstance(second, AppendLog)
        and first.place == second.room_id
        and not any(isinstance(w, Fence) for w in writes[2:])
    ):
        return [_fenced_append(first, second), *(_op(w) for w in writes[2:])]
    return [_op(w) for w in writes]


def _close_room(room_id: str, now: float) -> PgOp:
    async def close(c: Conn) -> None:
        await c.execute(pg(Q.CLOSE_ROOM[0]), now, room_id)
        await c.execute(pg(Q.CLOSE_ROOM[1]), room_id)

    return close


def _together(ops: list[PgOp]) -> PgOp:
    """One op of ``ops``: in the worker's savepoint, the writes of one call stand together."""

    async def together(c: Conn) -> None:
        for op in ops:
            await op(c)

    return together


class PostgresStore(QuickAndRatings, DevicesAndReports, PostgresWorker, SharedReads):
    """A :class:`~scorpion.store.base.Store` on a PostgreSQL database (a postgresql:// URL)."""

    # ---------------------------------------------------------- batch writes
    async def write(self, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in one transaction (all or nothing); return once committed."""
        if writes:
            await self._write(_together(_ops(writes)))

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        ops = [_together(_ops(writes)) for writes in groups]
        return [None if ok else error for ok, error in await self._queue_each(ops)]

    async def kept_secret(self, proposed: str) -> str:
        """The server secret kept in the database: the first process's ``proposed`` one."""

        async def op(c: Conn) -> str:
            await c.execute(
                "INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT DO NOTHING",
                proposed,
            )
            return str(await c.fetchval("SELECT value FROM meta WHERE key = 'secret'"))

        return await self._write(op)

    # --------------------------------------------------------------- players
    async def create_player(
        self, player_id: str, token_hash: bytes, name: str, agent: str = ""
    ) -> Account:
        now = time.time()

        async def op(c: Conn) -> Account:
            await c.execute(pg(Q.NEW_PLAYER), player_id, token_hash, name, now)
            await add_token(c, token_hash, player_id, "new-player", agent, now)
            return Account(player_id, name, now)

        return await self._write(op)

    async def rename_player(self, player_id: str, name: str) -> Account:
        async def op(c: Conn) -> Account:
            returning = pg(Q.RENAME_PLAYER + " RETURNING id, name, created")  # PostgreSQL's
            player = player_from_row(await c.fetchrow(returning, name, player_id))
            if player is None:
                raise StoreError(f"no player {player_id!r}")
            return player

        return await self._write(op)

    async def delete_player(self, player_id: str) -> bool:
        """Delete a player and everything about them (games, daily attempts)."""

        async def op(c: Conn) -> bool:
            statuses = [await c.execute(pg(sql), player_id) for sql in Q.DELETE_PLAYER]
            return bool(statuses[-1] != "DELETE 0")  # the player's row

        return await self._write(op)

    # ------------------------------------------------------------- room logs
    async def room_log(self, room_id: str) -> list[JSON]:
        """The entries of one open room's log, in the order written (a takeover replays it)."""
        rows = await self._read(
            lambda c: c.fetch(
                "SELECT l.entry FROM room_log l JOIN rooms r ON r.id = l.room_id "
                "WHERE l.room_id = $1 AND r.closed IS NULL ORDER BY l.id",
                room_id,
            )
        )
        return [orjson.loads(r[0]) for r in rows]

    async def close_rooms_before(self, prefix: str, created_before: float) -> int:
        """Close the open rooms whose id starts with ``prefix`` created before a time."""
        now = time.time()

        async def op(c: Conn) -> int:
            rows = await c.fetch(pg(Q.ROOMS_BEFORE), len(prefix), prefix, created_before)
            for row in rows:
                await _close_room(row[0], now)(c)
            return len(rows)

        return await self._write(op)

    async def purge(self, before: float) -> int:
        """Delete game records that ended and rooms that closed before ``before`` (epoch
        seconds), with their daily attempts; the number of rows deleted (retention)."""

        async def op(c: Conn) -> int:
            statuses = [await c.execute(pg(sql), before) for sql in Q.PURGE]
            statuses.append(await c.execute(Q.PURGE_ATTEMPTS))
            return sum(int(status.split()[-1]) for status in statuses)

        return await self._write(op)


async def kept_secret(url: str, proposed: str) -> str:
    """The secret of the database at ``url`` (``proposed`` if it had none), waiting for it."""
    store = PostgresStore(url, pool_size=1)
    await store.open()
    try:
        return await store.kept_secret(proposed)
    finally:
        await store.close()


if TYPE_CHECKING:  # mypy checks that PostgresStore implements the whole Store interface
    _conforms: Store = PostgresStore("postgresql://")
