"""The SQLite store: the queries of :class:`~scorpion.store.base.Store` on a SQLite file.

Threading and group commit are in :mod:`scorpion.store.worker`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import queries as Q
from .base import (
    Account,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    Fence,
    ListRoom,
    OpenRoom,
    Reveal,
    SaveAnalysis,
    SaveDaily,
    SavedGame,
    SaveGame,
    SaveReport,
    Store,
    StoreError,
    Write,
)
from .group import Outcome
from .reads import SharedReads
from .rows import (
    dumps,
    game_values,
)
from .sqlite_devices import DevicesAndReports, add_token, player_by_id, save_report
from .sqlite_quick import QuickAndRatings, list_room
from .worker import Op, SQLiteWorker


class Append:
    """A log entry to append (the log's order is its AUTOINCREMENT id)."""

    __slots__ = ("room_id", "text")

    def __init__(self, room_id: str, text: str) -> None:
        self.room_id, self.text = room_id, text

    def __call__(self, c: sqlite3.Connection) -> None:
        if not c.execute(Q.APPEND_LOG, (self.text, self.room_id)).rowcount:
            raise StoreError(f"no open room {self.room_id!r}")


class Writes:
    """One ``write`` call's ops: all committed or none."""

    __slots__ = ("ops",)

    def __init__(self, ops: list[Op]) -> None:
        self.ops = ops

    def __call__(self, c: sqlite3.Connection) -> None:
        for op in self.ops:
            op(c)


def _append_rows(c: sqlite3.Connection, rows: list[tuple[str, str]]) -> None:
    """Append ``rows`` (entry, room) and empty it; StoreError if a room was not open."""
    if rows:
        added = c.executemany(Q.APPEND_LOG, rows).rowcount
        if added != len(rows):
            raise StoreError(f"{len(rows) - added} of {len(rows)} log entries not appended")
        rows.clear()


class SQLiteStore(QuickAndRatings, DevicesAndReports, SQLiteWorker, SharedReads):
    """The default :class:`~scorpion.store.base.Store`: a SQLite file (or ':memory:')."""

    # ---------------------------------------------------------- batch writes
    async def write(self, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in one transaction (all or nothing); return once committed."""
        if writes:
            await self._write(Writes([self._op(w) for w in writes]))

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        ops: list[Op] = [Writes([self._op(w) for w in writes]) for writes in groups]
        return [None if ok else error for ok, error in await self._queue_each(ops)]

    def _apply(self, conn: sqlite3.Connection, ops: list[Op]) -> list[Outcome]:
        """As the worker's, with the log appends that follow each other in the batch (one a
        move, most of a busy batch) in one ``executemany``: a call into SQLite and back to
        the interpreter per batch rather than per move. Order is kept (a log's order is
        its id); a closed room's append makes the count short and the batch is retried an
        op at a time, where it fails alone and is named."""
        results: list[Outcome] = []
        rows: list[tuple[str, str]] = []
        for op in ops:
            if not isinstance(op, Writes):
                _append_rows(conn, rows)
                results.append((True, op(conn)))
                continue
            for part in op.ops:
                if isinstance(part, Append):
                    rows.append((part.text, part.room_id))
                else:
                    _append_rows(conn, rows)
                    part(conn)
            results.append((True, None))
        _append_rows(conn, rows)
        return results

    def _op(self, w: Write) -> Op:
        if isinstance(w, AppendLog):
            return Append(w.room_id, dumps(w.entry))
        if isinstance(w, SaveGame):
            return self._save_game_op(w.record)
        if isinstance(w, OpenRoom):
            return self._open_room_op(w.room_id, w.creator, dumps(w.settings), w.reopen)
        if isinstance(w, CloseRoom):
            return self._close_room_op(w.room_id)
        if isinstance(w, ListRoom):
            return list_room(w)
        if isinstance(w, ClaimDaily):
            claim = (w.day, w.player_id, w.game_id, w.player_id)
            return lambda c: c.execute(Q.CLAIM_DAILY, claim)
        if isinstance(w, SaveDaily):
            values = (w.day, str(w.deal), int(w.verified), time.time())
            return lambda c: c.execute(Q.SAVE_DAILY, values)
        if isinstance(w, Reveal):
            ids = [(i,) for i in w.game_ids]  # PostgreSQL takes them as one array
            return lambda c: c.executemany("UPDATE games SET revealed = 1 WHERE id = ?", ids)
        if isinstance(w, SaveReport):
            return save_report(w)
        if isinstance(w, SaveAnalysis):
            kept = (w.game_id, dumps(w.analysis), w.created, w.game_id)
            return lambda c: c.execute(Q.SAVE_ANALYSIS, kept)
        if isinstance(w, Fence):  # one process per SQLite file: nobody else holds leases
            raise StoreError("fencing tokens need PostgreSQL (several processes)")
        raise StoreError(f"unknown write {w!r}")

    # --------------------------------------------------------------- players
    async def create_player(
        self, player_id: str, token_hash: bytes, name: str, agent: str = ""
    ) -> Account:
        now = time.time()

        def op(c: sqlite3.Connection) -> Account:
            c.execute(Q.NEW_PLAYER, (player_id, token_hash, name, now))
            add_token(c, token_hash, player_id, "new-player", agent, now)
            return Account(player_id, name, now)

        return await self._write(op)

    async def rename_player(self, player_id: str, name: str) -> Account:
        def op(c: sqlite3.Connection) -> Account:
            c.execute(Q.RENAME_PLAYER, (name, player_id))
            player = player_by_id(c, player_id)
            if player is None:
                raise StoreError(f"no player {player_id!r}")
            return player

        return await self._write(op)

    async def delete_player(self, player_id: str) -> bool:
        """Delete a player and everything about them (games, daily attempts)."""

        def op(c: sqlite3.Connection) -> bool:
            counts = [c.execute(sql, (player_id,)).rowcount for sql in Q.DELETE_PLAYER]
            return counts[-1] > 0  # the player's row

        return await self._write(op)

    async def purge(self, before: float) -> int:
        """Delete game records that ended and rooms that closed before ``before`` (epoch
        seconds), with their daily attempts; the number of rows deleted (retention)."""

        def op(c: sqlite3.Connection) -> int:
            deleted = sum(c.execute(sql, (before,)).rowcount for sql in Q.PURGE)
            return int(deleted + c.execute(Q.PURGE_ATTEMPTS).rowcount)

        return await self._write(op)

    # ------------------------------------------------------------- room logs
    @staticmethod
    def _open_room_op(room_id: str, creator: str | None, settings: str, reopen: bool) -> Op:
        now = time.time()
        sql = Q.OPEN_ROOM + (Q.REOPEN if reopen else "")
        return lambda c: c.execute(sql, (room_id, creator, settings, now))

    async def close_rooms_before(self, prefix: str, created_before: float) -> int:
        """Close the open rooms whose id starts with ``prefix`` created before a time."""

        def op(c: sqlite3.Connection) -> int:
            ids = [r[0] for r in c.execute(Q.ROOMS_BEFORE, (len(prefix), prefix, created_before))]
            for room_id in ids:
                self._close_room_op(room_id)(c)
            return len(ids)

        return await self._write(op)

    @staticmethod
    def _close_room_op(room_id: str) -> Op:
        now = time.time()

        def op(c: sqlite3.Connection) -> None:
            c.execute(Q.CLOSE_ROOM[0], (now, room_id))
            c.execute(Q.CLOSE_ROOM[1], (room_id,))

        return op

    # ---------------------------------------------------------- game records
    @staticmethod
    def _save_game_op(record: SavedGame) -> Op:
        values = (*game_values(record), record.player_id)
        return lambda c: c.execute(Q.SAVE_GAME, values)


if TYPE_CHECKING:  # mypy checks that SQLiteStore implements the whole Store interface
    _conforms: Store = SQLiteStore(":memory:")
