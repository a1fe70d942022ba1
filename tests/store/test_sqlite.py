"""The SQLite store on a real file in tmp_path."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scorpion.store import (
    AppendLog,
    ClaimDaily,
    DuplicateError,
    GameRecord,
    OpenRoom,
    Reveal,
    SaveDaily,
    SaveGame,
    SQLiteStore,
    StoreError,
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "data" / "scorpion.db")
    await s.open()
    yield s
    await s.close()


def record(
    game_id: str, player: str, started: float, result: str | None, **kw: object
) -> GameRecord:
    return GameRecord(
        id=game_id, player_id=player, preset=str(kw.pop("preset", "classic")), deal=7,
        started=started, result=result, finished=None if result is None else started + 1,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_file_is_created_with_its_directory(tmp_path: Path, store: SQLiteStore) -> None:
    assert (tmp_path / "data" / "scorpion.db").is_file()
    assert await store.ping()


async def test_players_by_token_rename_and_delete(store: SQLiteStore) -> None:
    p = await store.create_player("p1", b"hash1", "Ann")
    assert p.name == "Ann"
    found = await store.player_by_token(b"hash1")
    assert found is not None and found.id == "p1"
    assert await store.player_by_token(b"other") is None
    renamed = await store.rename_player("p1", "<b>Ann</b>")
    assert renamed.name == "<b>Ann</b>"  # stored as text; the client renders it as text
    with pytest.raises(DuplicateError):
        await store.create_player("p2", b"hash1", "Bob")
    with pytest.raises(StoreError):
        await store.rename_player("nobody", "X")
    await store.save_game(record("g1", "p1", 1.0, "won"))
    await store.claim_daily("2026-11-29", "p1", "g1")
    assert await store.delete_player("p1")
    assert await store.player("p1") is None
    assert await store.player_games("p1") == []
    assert await store.daily_attempt("2026-11-29", "p1") is None
    assert not await store.delete_player("p1")


async def test_room_log_round_trip_and_close(store: SQLiteStore) -> None:
    await store.create_room("r1", None, {"preset": "classic", "deal": 12})
    assert await store.append_room_log("r1", [{"t": "join", "p": "a"}]) == 1
    assert await store.append_room_log("r1", [{"t": "move", "m": "4H>7"}, {"t": "x"}]) == 3
    assert await store.room_log("r1") == [
        {"t": "join", "p": "a"},
        {"t": "move", "m": "4H>7"},
        {"t": "x"},
    ]
    assert [r.id for r in await store.open_rooms()] == ["r1"]
    with pytest.raises(StoreError):
        await store.append_room_log("nope", [{"t": "x"}])
    await store.close_room("r1")
    assert await store.open_rooms() == []
    assert await store.room_log("r1") == []
    with pytest.raises(StoreError):
        await store.append_room_log("r1", [{"t": "late"}])
    room = await store.room("r1")
    assert room is not None and room.closed is not None and room.settings["deal"] == 12


async def test_concurrent_writes_are_committed_in_groups(store: SQLiteStore) -> None:
    await store.create_room("r", None, {})
    before = store.commits
    counts = await asyncio.gather(*(store.append_room_log("r", [{"i": i}]) for i in range(200)))
    assert sorted(counts) == list(range(1, 201))
    assert [e["i"] for e in await store.room_log("r")] == list(range(200))
    assert store.commits - before < 200  # grouped, not one commit each


async def test_one_failing_write_does_not_fail_its_group(store: SQLiteStore) -> None:
    await store.create_player("p", b"h", "P")
    results = await asyncio.gather(
        store.create_player("q", b"h", "dup token"),
        store.create_player("r", b"h2", "R"),
        return_exceptions=True,
    )
    assert isinstance(results[0], DuplicateError)
    assert await store.player("r") is not None


async def test_game_records_results_and_big_deal_numbers(store: SQLiteStore) -> None:
    await store.create_player("p", b"h", "P")
    results = ["won", "won", "lost", None]
    for i, result in enumerate(results):
        await store.save_game(record(f"g{i}", "p", float(i), result))
    await store.save_game(record("w", "p", 10.0, "gave-up", preset="wasp"))
    big = GameRecord(id="big", player_id="p", preset="wasp", deal=2**64 - 1, started=11.0,
                     actions=[("4H>7", 1.5), ("undo", None)])  # fmt: skip
    await store.save_game(big)
    assert await store.game("big") == big
    assert await store.results("p") == [
        ("classic", "won"),
        ("classic", "won"),
        ("classic", "lost"),
        ("classic", "playing"),
        ("wasp", "gave-up"),
        ("wasp", "playing"),
    ]
    games = await store.player_games("p", limit=3)
    assert [g.id for g in games] == ["big", "w", "g3"]
    before = games[-1].started
    assert [g.id for g in await store.player_games("p", limit=2, before=before)] == ["g2", "g1"]


async def test_daily_one_ranked_attempt_and_entries(store: SQLiteStore) -> None:
    day = "2026-11-29"
    for pid, name in [("a", "Ann"), ("b", "Bob")]:
        await store.create_player(pid, pid.encode(), name)
    await store.claim_daily(day, "a", "ga")
    with pytest.raises(DuplicateError):
        await store.claim_daily(day, "a", "ga2")
    assert await store.daily_attempt(day, "a") == "ga"
    await store.save_game(
        record("ga", "a", 1.0, "won", daily=day, ranked=True, elapsed=90.0, runs=4, score=300)
    )
    await store.save_game(record("gb", "b", 2.0, "gave-up", daily=day, ranked=True, runs=2))
    await store.save_game(record("unranked", "b", 3.0, "won", daily=day, elapsed=1.0))
    await store.save_game(record("playing", "b", 4.0, None, daily=day, ranked=True))
    entries = await store.daily_entries(day)
    assert entries == [
        {"player": "a", "name": "Ann", "status": "won", "elapsed": 90.0, "runs": 4,
         "score": 300, "moves": 0},
        {"player": "b", "name": "Bob", "status": "gave-up", "elapsed": None, "runs": 2,
         "score": 0, "moves": 0},
    ]  # fmt: skip
    assert await store.daily_entries("2026-11-28") == []
    assert await store.daily_wins("a") == [day]
    assert await store.daily_wins("b") == []  # an unranked win does not count


async def test_open_room_logs_in_the_order_written(store: SQLiteStore) -> None:
    for room in ("a", "b", "c"):
        await store.create_room(room, None, {})
    await store.append_room_log("a", [{"n": 1}])
    await store.append_room_log("b", [{"n": 2}])
    await store.append_room_log("a", [{"n": 3}])
    await store.append_room_log("c", [{"n": 4}])
    await store.close_room("c")
    assert await store.open_room_logs() == [("a", {"n": 1}), ("b", {"n": 2}), ("a", {"n": 3})]
    await store.create_room("daily:old", None, {})
    assert await store.close_rooms_before("daily:", created_before=0.0) == 0
    assert await store.close_rooms_before("daily:", created_before=2e9) == 1
    assert {r.id for r in await store.open_rooms()} == {"a", "b"}


async def test_data_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    first = SQLiteStore(path)
    await first.open()
    await first.create_room("r", "p", {"a": 1})
    await first.append_room_log("r", [{"m": 1}])
    await first.close()
    await first.close()  # twice is harmless
    second = SQLiteStore(path)
    await second.open()
    assert await second.room_log("r") == [{"m": 1}]
    await second.close()
    with pytest.raises(StoreError):
        await second.room("r")


async def test_batch_write_is_one_transaction(store: SQLiteStore) -> None:
    await store.create_player("p", b"h", "P")
    await store.write(
        [
            OpenRoom("r", "p", {"preset": "classic"}),
            AppendLog("r", {"kind": "room-opened"}),
            SaveGame(record("r:1:p", "p", 5.0, None)),
        ]
    )
    with pytest.raises(StoreError):  # the log of a missing room: nothing of the batch is kept
        await store.write([AppendLog("r", {"kind": "x"}), AppendLog("missing", {"kind": "y"})])
    assert await store.room_log("r") == [{"kind": "room-opened"}]
    # An update keeps the first start time; a deleted player's record is skipped.
    await store.write([SaveGame(record("r:1:p", "p", 9.0, "won", elapsed=3.5))])
    game = await store.game("r:1:p")
    assert game is not None and game.started == 5.0 and game.result == "won"
    assert not game.revealed
    await store.write([Reveal(("r:1:p", "unknown"))])
    await store.write([SaveGame(record("r:1:p", "p", 9.0, "won", elapsed=4.0))])
    game = await store.game("r:1:p")
    assert game is not None and game.revealed and game.elapsed == 4.0  # an update keeps it
    await store.write([SaveGame(record("gone", "nobody", 1.0, "won"))])
    assert await store.game("gone") is None


async def test_daily_rooms_reopen_and_claims_are_idempotent(store: SQLiteStore) -> None:
    await store.create_player("p", b"h", "P")
    day = OpenRoom("daily:2026-11-29", None, {}, reopen=True)
    await store.write([day, AppendLog(day.room_id, {"n": 1})])
    first = await store.room(day.room_id)
    assert first is not None
    await store.close_room(day.room_id)
    await asyncio.sleep(0.01)
    await store.write([day, AppendLog(day.room_id, {"n": 2}), day])
    assert await store.room_log(day.room_id) == [{"n": 2}]
    reopened = await store.room(day.room_id)
    # Reopening marks it active now: idle-log pruning counts from the last write.
    assert reopened is not None and reopened.closed is None
    assert reopened.created > first.created
    claim = ClaimDaily("2026-11-29", "p", "g1")
    await store.write([claim, ClaimDaily("2026-11-29", "p", "g2"), claim])
    assert await store.daily_attempt("2026-11-29", "p") == "g1"


async def test_daily_deals_are_kept_first_one_wins(store: SQLiteStore) -> None:
    assert await store.daily_deal("2026-11-29") is None
    await store.write([SaveDaily("2026-11-29", 2**64 - 2, True)])
    await store.write([SaveDaily("2026-11-29", 5, False)])
    assert await store.daily_deal("2026-11-29") == (2**64 - 2, True)


async def test_a_version_1_database_is_migrated(tmp_path: Path) -> None:
    import sqlite3

    from scorpion.store.schema import SCHEMA_V1

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_V1)
    conn.execute(
        "INSERT INTO players (id, token_hash, name, created) VALUES ('p', x'00', 'Old', 1)"
    )
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    store = SQLiteStore(path)
    await store.open()
    old = await store.player("p")
    assert old is not None and old.name == "Old"
    await store.write([SaveDaily("2026-11-29", 7, False)])
    assert await store.daily_deal("2026-11-29") == (7, False)
    await store.close()
