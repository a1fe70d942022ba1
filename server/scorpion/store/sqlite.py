"""The SQLite store: one connection on one worker thread, writes committed in groups.

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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import orjson

from .base import (
    JSON,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    DuplicateError,
    GameRecord,
    OpenRoom,
    Player,
    Reveal,
    Room,
    SaveDaily,
    SaveGame,
    StoreError,
    Write,
)
from .schema import MIGRATIONS, PRAGMAS, VERSION

T = TypeVar("T")
Op = Callable[[sqlite3.Connection], Any]

_GAME_COLUMNS = (
    "id, player_id, room_id, daily, ranked, preset, rules, deal, started, finished, "
    "result, elapsed, score, runs, moves, turned, actions, revealed"
)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _game_from_row(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        player_id=row["player_id"],
        room_id=row["room_id"],
        daily=row["daily"],
        ranked=bool(row["ranked"]),
        preset=row["preset"],
        rules=orjson.loads(row["rules"]),
        deal=int(row["deal"]),
        started=row["started"],
        finished=row["finished"],
        result=row["result"],
        elapsed=row["elapsed"],
        score=row["score"],
        runs=row["runs"],
        moves=row["moves"],
        turned=row["turned"],
        actions=[(a, e) for a, e in orjson.loads(row["actions"])],
        revealed=bool(row["revealed"]),
    )


class SQLiteStore:
    """The default :class:`~scorpion.store.base.Store`: a SQLite file (or ':memory:')."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._pending: list[tuple[Op, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for tests and metrics)

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scorpion-store")
        await self._call(self._connect)

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
            return self._append_op(w.room_id, [_dumps(w.entry)])
        if isinstance(w, SaveGame):
            return self._save_game_op(w.record)
        if isinstance(w, OpenRoom):
            return self._open_room_op(w.room_id, w.creator, _dumps(w.settings), w.reopen)
        if isinstance(w, CloseRoom):
            return self._close_room_op(w.room_id)
        if isinstance(w, ClaimDaily):
            day, player, game = w.day, w.player_id, w.game_id
            return lambda c: c.execute(
                "INSERT OR IGNORE INTO daily_attempts (day, player_id, game_id) "
                "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM players WHERE id = ?)",
                (day, player, game, player),
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
        raise StoreError(f"unknown write {w!r}")

    # --------------------------------------------------------------- players
    async def create_player(self, player_id: str, token_hash: bytes, name: str) -> Player:
        now = time.time()

        def op(c: sqlite3.Connection) -> Player:
            c.execute(
                "INSERT INTO players (id, token_hash, name, created) VALUES (?, ?, ?, ?)",
                (player_id, token_hash, name, now),
            )
            return Player(player_id, name, now)

        return await self._write(op)

    @staticmethod
    def _player(row: sqlite3.Row | None) -> Player | None:
        return None if row is None else Player(row["id"], row["name"], row["created"])

    async def player_by_token(self, token_hash: bytes) -> Player | None:
        return await self._read(
            lambda c: self._player(
                c.execute(
                    "SELECT id, name, created FROM players WHERE token_hash = ?", (token_hash,)
                ).fetchone()
            )
        )

    async def player(self, player_id: str) -> Player | None:
        return await self._read(
            lambda c: self._player(
                c.execute(
                    "SELECT id, name, created FROM players WHERE id = ?", (player_id,)
                ).fetchone()
            )
        )

    async def rename_player(self, player_id: str, name: str) -> Player:
        def op(c: sqlite3.Connection) -> Player:
            c.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
            player = self._player(
                c.execute(
                    "SELECT id, name, created FROM players WHERE id = ?", (player_id,)
                ).fetchone()
            )
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

    # ----------------------------------------------------------------- rooms
    @staticmethod
    def _room(row: sqlite3.Row) -> Room:
        return Room(
            row["id"], row["creator"], orjson.loads(row["settings"]), row["created"], row["closed"]
        )

    @staticmethod
    def _open_room_op(room_id: str, creator: str | None, settings: str, reopen: bool) -> Op:
        now = time.time()
        sql = "INSERT INTO rooms (id, creator, settings, created) VALUES (?, ?, ?, ?)"
        if reopen:
            sql += " ON CONFLICT (id) DO UPDATE SET closed = NULL"
        return lambda c: c.execute(sql, (room_id, creator, settings, now))

    async def create_room(self, room_id: str, creator: str | None, settings: JSON) -> Room:
        text = _dumps(settings)
        await self._write(self._open_room_op(room_id, creator, text, False))
        room = await self.room(room_id)
        assert room is not None
        return room

    async def room(self, room_id: str) -> Room | None:
        def op(c: sqlite3.Connection) -> Room | None:
            row = c.execute("SELECT * FROM rooms WHERE id = ?", (room_id,)).fetchone()
            return None if row is None else self._room(row)

        return await self._read(op)

    async def open_rooms(self) -> list[Room]:
        return await self._read(
            lambda c: [
                self._room(r)
                for r in c.execute("SELECT * FROM rooms WHERE closed IS NULL ORDER BY created")
            ]
        )

    @staticmethod
    def _append_op(room_id: str, texts: list[str]) -> Callable[[sqlite3.Connection], int]:
        def op(c: sqlite3.Connection) -> int:
            row = c.execute("SELECT closed FROM rooms WHERE id = ?", (room_id,)).fetchone()
            if row is None:
                raise StoreError(f"no room {room_id!r}")
            if row["closed"] is not None:
                raise StoreError(f"room {room_id!r} is closed")
            c.executemany(
                "INSERT INTO room_log (room_id, entry) VALUES (?, ?)",
                [(room_id, t) for t in texts],
            )
            (count,) = c.execute(
                "SELECT COUNT(*) FROM room_log WHERE room_id = ?", (room_id,)
            ).fetchone()
            return int(count)

        return op

    async def append_room_log(self, room_id: str, entries: Sequence[JSON]) -> int:
        """Append entries to an open room's log; return the log's length."""
        return await self._write(self._append_op(room_id, [_dumps(e) for e in entries]))

    async def room_log(self, room_id: str) -> list[JSON]:
        return await self._read(
            lambda c: [
                orjson.loads(r[0])
                for r in c.execute(
                    "SELECT entry FROM room_log WHERE room_id = ? ORDER BY id", (room_id,)
                )
            ]
        )

    async def open_room_logs(self) -> list[tuple[str, JSON]]:
        """(room id, entry) of every open room, in the order written: what a restart replays."""
        return await self._read(
            lambda c: [
                (r[0], orjson.loads(r[1]))
                for r in c.execute(
                    "SELECT l.room_id, l.entry FROM room_log l JOIN rooms r ON r.id = l.room_id "
                    "WHERE r.closed IS NULL ORDER BY l.id"
                )
            ]
        )

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

    async def update_room_settings(self, room_id: str, settings: JSON) -> None:
        text = _dumps(settings)
        await self._write(
            lambda c: c.execute("UPDATE rooms SET settings = ? WHERE id = ?", (text, room_id))
        )

    @staticmethod
    def _close_room_op(room_id: str) -> Op:
        now = time.time()

        def op(c: sqlite3.Connection) -> None:
            c.execute("UPDATE rooms SET closed = ? WHERE id = ? AND closed IS NULL", (now, room_id))
            c.execute("DELETE FROM room_log WHERE room_id = ?", (room_id,))

        return op

    async def close_room(self, room_id: str) -> None:
        """Mark a room closed and drop its log: its games live on as game records."""
        await self._write(self._close_room_op(room_id))

    # ---------------------------------------------------------- game records
    @staticmethod
    def _save_game_op(record: GameRecord) -> Op:
        values = (
            record.id,
            record.player_id,
            record.room_id,
            record.daily,
            int(record.ranked),
            record.preset,
            _dumps(record.rules),
            str(record.deal),
            record.started,
            record.finished,
            record.result,
            record.elapsed,
            record.score,
            record.runs,
            record.moves,
            record.turned,
            _dumps(record.actions),
            int(record.revealed),
        )
        marks = ", ".join("?" * len(values))
        updates = ", ".join(
            f"{name} = excluded.{name}"
            for name in _GAME_COLUMNS.split(", ")
            if name not in ("id", "started", "revealed")
        )
        sql = (
            f"INSERT INTO games ({_GAME_COLUMNS}) SELECT {marks} "
            "WHERE EXISTS (SELECT 1 FROM players WHERE id = ?) "
            f"ON CONFLICT (id) DO UPDATE SET {updates}"
        )
        return lambda c: c.execute(sql, (*values, record.player_id))

    async def save_game(self, record: GameRecord) -> None:
        """Insert or update a game record (saved at the start, again when it ends)."""
        await self._write(self._save_game_op(record))

    async def game(self, game_id: str) -> GameRecord | None:
        def op(c: sqlite3.Connection) -> GameRecord | None:
            row = c.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            found = row.fetchone()
            return None if found is None else _game_from_row(found)

        return await self._read(op)

    async def player_games(
        self, player_id: str, limit: int = 50, before: float | None = None
    ) -> list[GameRecord]:
        """A player's games, newest first; ``before`` pages on by start time."""
        cutoff = float("inf") if before is None else before
        return await self._read(
            lambda c: [
                _game_from_row(r)
                for r in c.execute(
                    f"SELECT {_GAME_COLUMNS} FROM games WHERE player_id = ? AND started < ? "
                    "ORDER BY started DESC LIMIT ?",
                    (player_id, cutoff, limit),
                )
            ]
        )

    async def results(self, player_id: str) -> list[tuple[str, str]]:
        """(preset, result) of a player's games in the order started; 'playing' when unfinished."""
        return await self._read(
            lambda c: [
                (r[0], r[1] or "playing")
                for r in c.execute(
                    "SELECT preset, result FROM games WHERE player_id = ? ORDER BY started, id",
                    (player_id,),
                )
            ]
        )

    # ----------------------------------------------------------------- daily
    async def claim_daily(self, day: str, player_id: str, game_id: str) -> None:
        """Record a player's one ranked attempt of a day; DuplicateError if already made."""
        await self._write(
            lambda c: c.execute(
                "INSERT INTO daily_attempts (day, player_id, game_id) VALUES (?, ?, ?)",
                (day, player_id, game_id),
            )
        )

    async def daily_attempt(self, day: str, player_id: str) -> str | None:
        def op(c: sqlite3.Connection) -> str | None:
            row = c.execute(
                "SELECT game_id FROM daily_attempts WHERE day = ? AND player_id = ?",
                (day, player_id),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._read(op)

    async def daily_entries(self, day: str, limit: int = 1000) -> list[JSON]:
        """The finished ranked games of a day, unranked (see scorpion.race.rank_entries)."""

        def op(c: sqlite3.Connection) -> list[JSON]:
            rows = c.execute(
                "SELECT g.player_id, p.name, g.result, g.elapsed, g.runs, g.score, g.moves "
                "FROM games g JOIN players p ON p.id = g.player_id "
                "WHERE g.daily = ? AND g.ranked = 1 AND g.result IS NOT NULL "
                "ORDER BY g.finished LIMIT ?",
                (day, limit),
            ).fetchall()
            keys = ("player", "name", "status", "elapsed", "runs", "score", "moves")
            return [dict(zip(keys, tuple(r), strict=True)) for r in rows]

        return await self._read(op)

    async def daily_deal(self, day: str) -> tuple[int, bool] | None:
        """The day's saved daily deal and whether it was verified winnable, or None."""

        def op(c: sqlite3.Connection) -> tuple[int, bool] | None:
            row = c.execute("SELECT deal, verified FROM dailies WHERE day = ?", (day,)).fetchone()
            return None if row is None else (int(row[0]), bool(row[1]))

        return await self._read(op)

    async def daily_wins(self, player_id: str) -> list[str]:
        """The days whose ranked daily the player won (for the daily streak)."""
        return await self._read(
            lambda c: [
                r[0]
                for r in c.execute(
                    "SELECT DISTINCT daily FROM games WHERE player_id = ? AND ranked = 1 "
                    "AND result = 'won' AND daily IS NOT NULL ORDER BY daily",
                    (player_id,),
                )
            ]
        )
