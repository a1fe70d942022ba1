"""Retention: old game records and closed rooms are purged; a deleted player leaves nothing."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scorpion.store import ClaimDaily, CloseRoom, OpenRoom, SavedGame, SaveGame, SQLiteStore
from scorpion.web.retention import purge_once
from scorpion_dev.server import ServerProcess

DAY = 86400.0
NOW = 1_800_000_000.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "race.db")
    await s.open()
    yield s
    await s.close()


def game(game_id: str, player: str, finished: float | None) -> SavedGame:
    started = (finished or NOW) - 100
    result = None if finished is None else "won"
    return SavedGame(id=game_id, player_id=player, preset="classic", deal=7, room_id="r",
                      started=started, finished=finished, result=result)  # fmt: skip


def rows(path: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as c:
        return list(c.execute(f"SELECT * FROM {table}"))


async def test_purge_deletes_only_what_ended_before_the_retention(store: SQLiteStore) -> None:
    await store.create_player("p1", b"h1", "Ann")
    await store.write([
        SaveGame(game("old", "p1", NOW - 40 * DAY)),
        SaveGame(game("recent", "p1", NOW - 10 * DAY)),
        SaveGame(game("playing", "p1", None)),
        ClaimDaily("2026-01-01", "p1", "old"),
        ClaimDaily("2026-02-01", "p1", "recent"),
        OpenRoom("closed-long-ago", "p1", {}),
        CloseRoom("closed-long-ago"),
        OpenRoom("open", "p1", {}),
    ])  # fmt: skip
    with sqlite3.connect(store.path) as c:
        c.execute("UPDATE rooms SET closed = ? WHERE id = 'closed-long-ago'", (NOW - 40 * DAY,))
    assert await purge_once(store, 30, now=NOW) == 3
    assert {g.id for g in await store.player_games("p1")} == {"recent", "playing"}
    assert await store.daily_attempt("2026-01-01", "p1") is None
    assert await store.daily_attempt("2026-02-01", "p1") == "recent"
    assert [r[0] for r in rows(Path(store.path), "rooms")] == ["open"]
    assert await purge_once(store, 30, now=NOW) == 0


async def test_deleting_a_player_reaches_every_table(store: SQLiteStore) -> None:
    await store.create_player("p1", b"h1", "Ann")
    await store.create_player("p2", b"h2", "Bo")
    await store.write([
        SaveGame(game("g1", "p1", NOW)), SaveGame(game("g2", "p2", NOW)),
        ClaimDaily("2026-01-01", "p1", "g1"), OpenRoom("r1", "p1", {}),
    ])  # fmt: skip
    assert await store.delete_player("p1")
    path = Path(store.path)
    for table in ("players", "games", "daily_attempts", "rooms"):
        assert not any("p1" in row for row in rows(path, table)), table
    assert [r[0] for r in rows(path, "players")] == ["p2"]


async def test_a_server_with_retention_days_purges_at_start(tmp_path: Path) -> None:
    db = tmp_path / "data" / "scorpion.db"
    store = SQLiteStore(db)
    await store.open()
    await store.create_player("p1", b"h1", "Ann")
    now = time.time()
    await store.write([SaveGame(game("old", "p1", now - 40 * DAY)),
                       SaveGame(game("new", "p1", now - 5 * DAY))])  # fmt: skip
    await store.close()
    server = ServerProcess(db, args=("--retention-days", "30"))
    server.start()
    try:
        for _ in range(200):  # the purge runs in the background at start: bounded wait
            if len(rows(db, "games")) == 1:
                break
            await asyncio.sleep(0.05)
    finally:
        server.stop()
    assert [r[0] for r in rows(db, "games")] == ["new"]
    assert "retention: deleted 1 rows older than 30 days" in server.log()
