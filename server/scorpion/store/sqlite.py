"""The SQLite store: the queries of :class:`~scorpion.store.base.Store` on a SQLite file.

Threading and group commit are in :mod:`scorpion.store.worker`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

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
from .reads import SharedReads
from .rows import (
    GAME_COLUMN_COUNT,
    GAME_COLUMNS,
    GAME_UPDATES,
    dumps,
    game_values,
)
from .sqlite_devices import DevicesAndReports, add_token, player_by_id, save_report
from .sqlite_quick import QuickAndRatings, list_room
from .worker import Op, SQLiteWorker

_SAVE_GAME = (
    f"INSERT INTO games ({GAME_COLUMNS}) SELECT {', '.join('?' * GAME_COLUMN_COUNT)} "
    "WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) "
    f"ON CONFLICT (id) DO UPDATE SET {GAME_UPDATES}"
)


class SQLiteStore(QuickAndRatings, DevicesAndReports, SQLiteWorker, SharedReads):
    """The default :class:`~scorpion.store.base.Store`: a SQLite file (or ':memory:')."""

    # ---------------------------------------------------------- batch writes
    async def write(self, writes: Sequence[Write]) -> None:
        """Apply ``writes`` in one transaction (all or nothing); return once committed."""
        ops = [self._op(w) for w in writes]

        def op(c: sqlite3.Connection) -> None:
            for fn in ops:
                fn(c)

        if ops:
            await self._write(op)

    def _op(self, w: Write) -> Op:
        if isinstance(w, AppendLog):
            return self._append_op(w.room_id, dumps(w.entry))
        if isinstance(w, SaveGame):
            return self._save_game_op(w.record)
        if isinstance(w, OpenRoom):
            return self._open_room_op(w.room_id, w.creator, dumps(w.settings), w.reopen)
        if isinstance(w, CloseRoom):
            return self._close_room_op(w.room_id)
        if isinstance(w, ListRoom):
            return list_room(w)
        if isinstance(w, ClaimDaily):
            # A second claim of a player's day, by any process, hits the primary key.
            claim = (w.day, w.player_id, w.game_id, w.player_id)
            return lambda c: c.execute(
                "INSERT INTO daily_attempts (day, player_id, game_id) "
                "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?)",
                claim,
            )
        if isinstance(w, SaveDaily):
            values = (w.day, str(w.deal), int(w.verified), time.time())
            return lambda c: c.execute(
                "INSERT OR IGNORE INTO dailies (day, deal, verified, created) VALUES (?, ?, ?, ?)",
                values,
            )
        if isinstance(w, Reveal):
            ids = [(i,) for i in w.game_ids]
            return lambda c: c.executemany("UPDATE games SET revealed = 1 WHERE id = ?", ids)
        if isinstance(w, SaveReport):
            return save_report(w)
        if isinstance(w, SaveAnalysis):
            kept = (w.game_id, dumps(w.analysis), w.created, w.game_id)
            return lambda c: c.execute(
                "INSERT INTO analyses (game_id, analysis, created) SELECT ?, ?, ? "
                "WHERE EXISTS (SELECT 1 FROM games WHERE id = ?) ON CONFLICT DO NOTHING",
                kept,
            )
        if isinstance(w, Fence):  # one process per SQLite file: nobody else holds leases
            raise StoreError("fencing tokens need PostgreSQL (several processes)")
        raise StoreError(f"unknown write {w!r}")

    # --------------------------------------------------------------- players
    async def create_player(
        self, player_id: str, token_hash: bytes, name: str, agent: str = ""
    ) -> Account:
        now = time.time()

        def op(c: sqlite3.Connection) -> Account:
            c.execute(
                "INSERT INTO players (id, token_hash, name, created) VALUES (?, ?, ?, ?)",
                (player_id, token_hash, name, now),
            )
            add_token(c, token_hash, player_id, "new-player", agent, now)
            return Account(player_id, name, now)

        return await self._write(op)

    async def rename_player(self, player_id: str, name: str) -> Account:
        def op(c: sqlite3.Connection) -> Account:
            c.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
            player = player_by_id(c, player_id)
            if player is None:
                raise StoreError(f"no player {player_id!r}")
            return player

        return await self._write(op)

    async def delete_player(self, player_id: str) -> bool:
        """Delete a player and everything about them (games, daily attempts)."""

        def op(c: sqlite3.Connection) -> bool:
            c.execute("DELETE FROM games WHERE player_id = ?", (player_id,))
            c.execute("DELETE FROM daily_attempts WHERE player_id = ?", (player_id,))
            c.execute("UPDATE rooms SET creator = NULL WHERE creator = ?", (player_id,))
            return c.execute("DELETE FROM players WHERE id = ?", (player_id,)).rowcount > 0

        return await self._write(op)

    async def purge(self, before: float) -> int:
        """Delete game records that ended and rooms that closed before ``before`` (epoch
        seconds), with their daily attempts; the number of rows deleted (retention)."""

        def op(c: sqlite3.Connection) -> int:
            games = c.execute("DELETE FROM games WHERE finished < ?", (before,)).rowcount
            attempts = c.execute(
                "DELETE FROM daily_attempts WHERE game_id NOT IN (SELECT id FROM games)"
            ).rowcount
            rooms = c.execute("DELETE FROM rooms WHERE closed < ?", (before,)).rowcount
            return int(games + attempts + rooms)

        return await self._write(op)

    # ------------------------------------------------------------- room logs
    @staticmethod
    def _open_room_op(room_id: str, creator: str | None, settings: str, reopen: bool) -> Op:
        now = time.time()
        sql = "INSERT INTO rooms (id, creator, settings, created) VALUES (?, ?, ?, ?)"
        if reopen:
            sql += " ON CONFLICT (id) DO UPDATE SET closed = NULL, created = excluded.created"
        return lambda c: c.execute(sql, (room_id, creator, settings, now))

    @staticmethod
    def _append_op(room_id: str, text: str) -> Op:
        """One insert, checked against the room's row by its key: the cost does not grow
        with the log (the log's order is its AUTOINCREMENT id)."""

        def op(c: sqlite3.Connection) -> None:
            added = c.execute(
                "INSERT INTO room_log (room_id, entry) "
                "SELECT id, ? FROM rooms WHERE id = ? AND closed IS NULL",
                (text, room_id),
            ).rowcount
            if not added:
                raise StoreError(f"no open room {room_id!r}")

        return op

    async def close_rooms_before(self, prefix: str, created_before: float) -> int:
        """Close the open rooms whose id starts with ``prefix`` created before a time."""

        def op(c: sqlite3.Connection) -> int:
            ids = [
                r[0]
                for r in c.execute(
                    "SELECT id FROM rooms WHERE closed IS NULL AND substr(id, 1, ?) = ? "
                    "AND created < ?",
                    (len(prefix), prefix, created_before),
                )
            ]
            for room_id in ids:
                self._close_room_op(room_id)(c)
            return len(ids)

        return await self._write(op)

    @staticmethod
    def _close_room_op(room_id: str) -> Op:
        now = time.time()

        def op(c: sqlite3.Connection) -> None:
            c.execute("UPDATE rooms SET closed = ? WHERE id = ? AND closed IS NULL", (now, room_id))
            c.execute("DELETE FROM room_log WHERE room_id = ?", (room_id,))

        return op

    # ---------------------------------------------------------- game records
    @staticmethod
    def _save_game_op(record: SavedGame) -> Op:
        values = (*game_values(record), record.player_id)
        return lambda c: c.execute(_SAVE_GAME, values)


if TYPE_CHECKING:  # mypy checks that SQLiteStore implements the whole Store interface
    _conforms: Store = SQLiteStore(":memory:")
