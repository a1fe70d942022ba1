"""Race records to store writes, directly: every record in its log; game rows that never
carry a deal the room keeps secret; a ranked daily attempt claimed; results revealed."""

from __future__ import annotations

from scorpion.race import (
    DailyStarted,
    GameResult,
    RoomClosed,
    RoomOpened,
    RoundFinished,
    RoundStarted,
)
from scorpion.race.protocol import game_id
from scorpion.store import AppendLog, ClaimDaily, CloseRoom, OpenRoom, Reveal, SaveGame
from scorpion.web.records import RecordWriter


def test_a_room_round_becomes_log_entries_and_game_rows() -> None:
    settings = {"preset": "wasp", "deal": 42, "time_limit": 0}
    writer = RecordWriter({"r1": settings}.get)  # what the referee holds
    opened = writer.writes(RoomOpened("r1", "p1", "Ann", settings, 1.0))
    assert [type(w) for w in opened] == [OpenRoom, AppendLog]
    started = RoundStarted("r1", 1, 42, 5.0, 0.0, (("p1", "Ann"), ("p2", "Bo")))
    writes = writer.writes(started)
    assert isinstance(writes[0], AppendLog) and writes[0].entry == started.to_dict()
    rows = [w.record for w in writes if isinstance(w, SaveGame)]
    assert [r.id for r in rows] == [game_id("r1", 1, "p1"), game_id("r1", 1, "p2")]
    assert all(r.preset == "wasp" and "deal" not in r.rules for r in rows)
    finished = writer.writes(RoundFinished("r1", 1, 42, ({"player": "p1"}, {"player": "p2"}), 9.0))
    assert finished[-1] == Reveal((game_id("r1", 1, "p1"), game_id("r1", 1, "p2")))
    assert writer.writes(RoomClosed("r1", 10.0)) == [CloseRoom("r1")]


def test_a_ranked_daily_attempt_is_claimed_and_its_result_saved() -> None:
    writer = RecordWriter(lambda room: None)
    writes = writer.writes(DailyStarted("2026-12-01", "p1", "Ann", 1, 77, "classic", True, 3.0))
    key = "daily:2026-12-01"
    assert writes[0] == OpenRoom(key, None, {}, reopen=True)  # a late move reopens the log
    assert ClaimDaily("2026-12-01", "p1", game_id(key, 1, "p1")) in writes
    result = GameResult(
        key, 1, "p1", "Ann", "classic", 77, "won", 8, 1000, 120, 40, 300.0, 0, True,
        (("4H>7", 1.0),), 303.0,
    )  # fmt: skip
    (saved,) = [w.record for w in writer.writes(result) if isinstance(w, SaveGame)]
    assert (saved.result, saved.daily, saved.ranked) == ("won", "2026-12-01", True)
    practice = writer.writes(DailyStarted("2026-12-01", "p1", "Ann", 2, 77, "classic", False, 4))
    assert not [w for w in practice if isinstance(w, ClaimDaily)]
