"""The store on both backends: a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

import pytest

from scorpion.store import (
    JSON,
    AppendLog,
    ClaimDaily,
    CloseRoom,
    DuplicateError,
    OpenRoom,
    Reveal,
    SaveAnalysis,
    SaveDaily,
    SavedGame,
    SaveGame,
    SQLiteStore,
    Store,
    StoreError,
    open_store,
)

pytestmark = pytest.mark.backends


async def log_of(store: Store, room: str) -> list[JSON]:
    return [entry for r, entry in await store.open_room_logs() if r == room]


def record(
    game_id: str, player: str, started: float, result: str | None, **kw: object
) -> SavedGame:
    return SavedGame(
        id=game_id, player_id=player, preset=str(kw.pop("preset", "classic")), deal=7,
        started=started, result=result, finished=None if result is None else started + 1,
        **kw,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_sqlite_file_is_created_with_its_directory(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "data" / "scorpion.db")
    await store.open()
    assert (tmp_path / "data" / "scorpion.db").is_file()
    assert await store.ping()
    await store.close()
    assert not await store.ping()


async def test_a_read_only_sqlite_store_reads_beside_the_one_holding_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"
    with pytest.raises(StoreError, match="no database"):
        await SQLiteStore(path, read_only=True).open()
    assert not path.exists()
    holder = SQLiteStore(path)
    await holder.open()
    await holder.create_player("p1", b"t1", "Ada")
    reader = SQLiteStore(path, read_only=True)
    await reader.open()
    found = await reader.player("p1")
    assert found is not None and found.name == "Ada"
    with pytest.raises(StoreError):
        await reader.create_player("p2", b"t2", "Bo")
    await holder.rename_player("p1", "Ada L.")
    assert (await reader.player("p1")).name == "Ada L."  # type: ignore[union-attr]
    await reader.close()
    await holder.close()


async def test_players_by_token_rename_and_delete(store: Store) -> None:
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
    await store.write(
        [SaveGame(record("g1", "p1", 1.0, "won")), ClaimDaily("2026-11-29", "p1", "g1")]
    )
    assert await store.delete_player("p1")
    assert await store.player("p1") is None
    assert await store.player_games("p1") == []
    assert await store.daily_attempt("2026-11-29", "p1") is None
    assert not await store.delete_player("p1")


async def test_room_log_round_trip_and_close(store: Store) -> None:
    await store.write([OpenRoom("r1", None, {"preset": "classic", "deal": 12})])
    await store.write([AppendLog("r1", {"t": "join", "p": "a"})])
    await store.write([AppendLog("r1", {"t": "move", "m": "4H>7"}), AppendLog("r1", {"t": "x"})])
    assert await log_of(store, "r1") == [
        {"t": "join", "p": "a"},
        {"t": "move", "m": "4H>7"},
        {"t": "x"},
    ]
    with pytest.raises(StoreError):
        await store.write([AppendLog("nope", {"t": "x"})])
    await store.write([CloseRoom("r1")])
    assert await store.open_room_logs() == []
    with pytest.raises(StoreError):
        await store.write([AppendLog("r1", {"t": "late"})])
    with pytest.raises(DuplicateError):  # a closed room keeps its row: its id is taken
        await store.write([OpenRoom("r1", None, {})])


async def test_concurrent_writes_are_committed_in_groups(store: Store) -> None:
    await store.write([OpenRoom("r", None, {})])
    before = store.commits
    await asyncio.gather(*(store.write([AppendLog("r", {"i": i})]) for i in range(200)))
    assert [e["i"] for e in await log_of(store, "r")] == list(range(200))
    assert store.commits - before < 200  # grouped, not one commit each


async def test_one_failing_write_does_not_fail_its_group(store: Store) -> None:
    await store.create_player("p", b"h", "P")
    await store.write([OpenRoom("r", None, {})])
    results = await asyncio.gather(
        store.create_player("q", b"h", "dup token"),
        store.create_player("r", b"h2", "R"),
        store.write([AppendLog("r", {"n": 1}), AppendLog("missing", {"n": 2})]),
        store.write([AppendLog("r", {"n": 3})]),
        return_exceptions=True,
    )
    assert isinstance(results[0], DuplicateError)
    assert isinstance(results[2], StoreError)
    assert results[1] is not None and results[3] is None
    assert await store.player("r") is not None
    assert await log_of(store, "r") == [{"n": 3}]  # the failed call kept none of its writes


async def test_write_each_commits_the_groups_together_each_failing_alone(store: Store) -> None:
    await store.write([OpenRoom("r", None, {})])
    before = store.commits
    errors = await store.write_each([
        [AppendLog("r", {"n": 1})],
        [AppendLog("r", {"n": 2}), AppendLog("missing", {"n": 3})],
        [OpenRoom("s", None, {}), AppendLog("s", {"n": 4})],
        [AppendLog("r", {"n": 5})],
    ])  # fmt: skip
    assert [error is None for error in errors] == [True, False, True, True]
    assert isinstance(errors[1], StoreError) and "missing" in str(errors[1])
    assert store.commits - before == 1
    assert await log_of(store, "r") == [{"n": 1}, {"n": 5}]  # the failed group kept nothing
    assert await log_of(store, "s") == [{"n": 4}]
    assert await store.write_each([]) == [] and store.commits - before == 1


async def test_a_group_applies_its_writes_in_order_between_opens_and_closes(store: Store) -> None:
    """SQLite appends the log entries that follow each other in a group at once: the order
    of every write, and an open or a close between them, still holds."""
    await store.write([OpenRoom("a", None, {}), OpenRoom("c", None, {})])
    before = store.commits
    await asyncio.gather(
        store.write([AppendLog("a", {"n": 1})]),
        store.write([OpenRoom("b", None, {}), AppendLog("b", {"n": 2})]),
        store.write([AppendLog("a", {"n": 3}), AppendLog("c", {"n": 4})]),
        store.write([CloseRoom("c")]),
        store.write([AppendLog("b", {"n": 5}), AppendLog("a", {"n": 6})]),
    )
    assert store.commits - before < 5  # grouped
    assert await log_of(store, "a") == [{"n": 1}, {"n": 3}, {"n": 6}]
    assert await log_of(store, "b") == [{"n": 2}, {"n": 5}]
    assert await log_of(store, "c") == []  # closed after its entry: its log is gone


async def save(store: Store, *records: SavedGame) -> None:
    for r in records:  # one write each: an update must see the insert before it
        await store.write([SaveGame(r)])


async def test_game_records_results_and_big_deal_numbers(store: Store) -> None:
    await store.create_player("p", b"h", "P")
    results = ["won", "won", "lost", None]
    await save(store, *(record(f"g{i}", "p", float(i), r) for i, r in enumerate(results)))
    await save(store, record("w", "p", 10.0, "gave-up", preset="wasp"))
    big = SavedGame(id="big", player_id="p", preset="wasp", deal=2**64 - 1, started=11.0,
                     actions=[("4H>7", 1.5), ("undo", None)], autos=3)  # fmt: skip
    await save(store, big)
    assert await store.game("big") == big
    hinted = replace(await store.game("g1"), hints=2)  # type: ignore[type-var]
    await save(store, hinted)
    assert await store.game("g1") == hinted
    assert await store.results("p") == [  # the last: whether help was used
        ("classic", "won", False),
        ("classic", "won", True),
        ("classic", "lost", False),
        ("classic", "playing", False),
        ("wasp", "gave-up", False),
        ("wasp", "playing", True),
    ]
    games = await store.player_games("p", limit=3)
    assert [g.id for g in games] == ["big", "w", "g3"]
    before = games[-1].started
    assert [g.id for g in await store.player_games("p", limit=2, before=before)] == ["g2", "g1"]


async def test_daily_one_ranked_attempt_and_entries(store: Store) -> None:
    day = "2026-11-29"
    for pid, name in [("a", "Ann"), ("b", "Bob")]:
        await store.create_player(pid, pid.encode(), name)
    await store.write([ClaimDaily(day, "a", "ga")])
    with pytest.raises(DuplicateError):
        await store.write([ClaimDaily(day, "a", "ga2")])
    assert await store.daily_attempt(day, "a") == "ga"
    await save(
        store,
        record("ga", "a", 1.0, "won", daily=day, ranked=True, elapsed=90.0, runs=4, score=300),
        record("gb", "b", 2.0, "gave-up", daily=day, ranked=True, runs=2),
        record("unranked", "b", 3.0, "won", daily=day, elapsed=1.0),
    )
    entries = await store.daily_entries(day)
    assert entries == [
        {"player": "a", "name": "Ann", "status": "won", "elapsed": 90.0, "runs": 4,
         "score": 300, "moves": 0, "new_player": True},
        {"player": "b", "name": "Bob", "status": "gave-up", "elapsed": None, "runs": 2,
         "score": 0, "moves": 0, "new_player": True},
    ]  # fmt: skip
    assert await store.daily_entries("2026-11-28") == []
    assert await store.daily_wins("a") == [day]
    assert await store.daily_wins("b") == []  # an unranked win does not count


async def test_the_database_refuses_a_second_ranked_daily_game(store: Store) -> None:
    """One ranked attempt per player and day is the database's rule, not only Python's:
    two processes on one database cannot both record one."""
    day = "2026-11-29"
    await store.create_player("b", b"b", "Bob")
    await save(store, record("first", "b", 1.0, None, daily=day, ranked=True))
    with pytest.raises(DuplicateError):
        await save(store, record("second", "b", 2.0, None, daily=day, ranked=True))
    await save(store, record("first", "b", 1.0, "won", daily=day, ranked=True))  # an update
    await save(store, record("practice", "b", 3.0, "lost", daily=day))  # unranked: any number
    assert [g.id for g in await store.player_games("b")] == ["practice", "first"]


async def test_open_room_logs_in_the_order_written(store: Store) -> None:
    await store.write([OpenRoom(room, None, {}) for room in ("a", "b", "c")])
    await store.write([AppendLog("a", {"n": 1})])
    await store.write([AppendLog("b", {"n": 2})])
    await store.write([AppendLog("a", {"n": 3})])
    await store.write([AppendLog("c", {"n": 4}), CloseRoom("c")])
    assert await store.open_room_logs() == [("a", {"n": 1}), ("b", {"n": 2}), ("a", {"n": 3})]
    await store.write([OpenRoom("daily:old", None, {}), AppendLog("daily:old", {"n": 5})])
    assert await store.close_rooms_before("daily:", created_before=0.0) == 0
    assert await store.close_rooms_before("daily:", created_before=2e9) == 1
    assert {room for room, _ in await store.open_room_logs()} == {"a", "b"}


async def test_data_survives_reopen(database: str) -> None:
    first = open_store(database)
    await first.open()
    await first.write([OpenRoom("r", "p", {"a": 1}), AppendLog("r", {"m": 1})])
    await first.close()
    await first.close()  # twice is harmless
    second = open_store(database)
    await second.open()
    assert await second.open_room_logs() == [("r", {"m": 1})]
    await second.close()
    with pytest.raises(StoreError):
        await second.open_room_logs()


async def test_batch_write_is_one_transaction(store: Store) -> None:
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
    assert await log_of(store, "r") == [{"kind": "room-opened"}]
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


async def test_daily_rooms_reopen_and_a_day_is_claimed_once(store: Store) -> None:
    await store.create_player("p", b"h", "P")
    day = OpenRoom("daily:2026-11-29", None, {}, reopen=True)
    await store.write([day, AppendLog(day.room_id, {"n": 1})])
    await store.write([CloseRoom(day.room_id)])
    between = time.time()
    await store.write([day, AppendLog(day.room_id, {"n": 2}), day])
    assert await store.open_room_logs() == [(day.room_id, {"n": 2})]
    # Reopening marks it active now: idle-log pruning counts from the last write.
    assert await store.close_rooms_before("daily:", created_before=between) == 0
    claim = ClaimDaily("2026-11-29", "p", "g1")
    await store.write([claim])
    for again in ([claim], [ClaimDaily("2026-11-29", "p", "g2")]):
        with pytest.raises(DuplicateError):  # the same attempt started on another process
            await store.write([OpenRoom("r", None, {}), *again])
    assert await store.daily_attempt("2026-11-29", "p") == "g1"
    assert await store.open_room_logs() == [(day.room_id, {"n": 2})]  # nothing of them kept


async def test_daily_deals_are_kept_first_one_wins(store: Store) -> None:
    assert await store.daily_deal("2026-11-29") is None
    await store.write([SaveDaily("2026-11-29", 2**64 - 2, True)])
    await store.write([SaveDaily("2026-11-29", 5, False)])
    assert await store.daily_deal("2026-11-29") == (2**64 - 2, True)


async def test_a_version_1_sqlite_database_is_migrated(tmp_path: Path) -> None:
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


async def test_purge_deletes_what_ended_before_the_retention(store: Store) -> None:
    now = time.time()
    await store.create_player("p1", b"h1", "Ann")
    await store.write([
        SaveGame(record("old", "p1", now - 100, "won")),
        SaveGame(record("playing", "p1", now - 100, None)),
        ClaimDaily("2026-01-01", "p1", "old"),
        OpenRoom("gone", "p1", {}),
        CloseRoom("gone"),
        OpenRoom("open", "p1", {}),
    ])  # fmt: skip
    # The old game ended and the room closed before now + 1: those two and the attempt go.
    assert await store.purge(now + 1) == 3
    assert [g.id for g in await store.player_games("p1")] == ["playing"]
    assert await store.daily_attempt("2026-01-01", "p1") is None
    assert [r for r, _ in await store.open_room_logs()] == []  # "open" has no log entries
    assert await store.purge(now + 1) == 0


async def test_an_analysis_is_kept_once_and_goes_with_its_game(store: Store) -> None:
    await store.create_player("p1", b"t1", "Ann")
    await store.write([SaveGame(record("room1:1:p1", "p1", 1.0, "lost"))])
    assert await store.analysis("room1:1:p1") is None
    first = {"outcome": "slipped", "verdicts": ["winnable", "lost"], "turning_point": None}
    await store.write([SaveAnalysis("room1:1:p1", first, 2.0)])
    await store.write([SaveAnalysis("room1:1:p1", {"outcome": "won"}, 3.0)])  # a second process
    assert await store.analysis("room1:1:p1") == first
    await store.write([SaveAnalysis("room1:1:nobody", first, 2.0)])  # no such game: skipped
    assert await store.analysis("room1:1:nobody") is None
    await store.delete_player("p1")
    assert await store.analysis("room1:1:p1") is None
