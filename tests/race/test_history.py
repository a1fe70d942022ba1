"""A player's history from their games: records agree with the statistics, times count
clean wins only, the calendar holds ranked dailies, and replay links open when they may."""

from __future__ import annotations

import datetime as dt

from scorpion.race import statistics
from scorpion.race.daily import RANKED_LIMIT
from scorpion.race.history import daily_days, preset_records, replay_link
from scorpion.store import SavedGame

MIDNIGHT = dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()


def game(gid: str, preset: str = "classic", result: str | None = "won", **kw: object) -> SavedGame:
    started = float(kw.pop("started", 1.0))  # type: ignore[arg-type]
    return SavedGame(id=gid, player_id="p", preset=preset, deal=7, started=started,
                     result=result, finished=None if result is None else started + 1,
                     **kw)  # type: ignore[arg-type]  # fmt: skip


def test_records_agree_with_the_statistics_and_time_only_clean_wins() -> None:
    games = [
        game("r:1:p", elapsed=300.0, started=1),
        game("r:2:p", elapsed=100.0, started=2, hints=1),  # quick, but helped
        game("r:3:p", result="gave-up", elapsed=20.0, started=3),
        game("r:4:p", elapsed=200.0, started=4),
        game("r:5:p", result=None, started=5),  # still playing: started, not finished
        game("r:6:p", elapsed=250.0, started=6, autos=3),
        game("w:1:p", preset="wasp", result="lost", elapsed=9.0, started=7),
    ]
    records = preset_records(games, recent=4)
    counts = statistics(
        [(g.preset, g.result or "playing", bool(g.hints or g.autos)) for g in games]
    )
    assert [r["preset"] for r in records] == ["classic", "wasp"]
    for record in records:
        assert {k: record[k] for k in counts[record["preset"]].to_dict()} == counts[
            record["preset"]
        ].to_dict()
    classic, wasp = records
    assert classic["best_time"] == 200.0 and classic["median_time"] == 250.0  # of 200, 300
    assert classic["started"] == 4 and classic["won"] == 2 and classic["assisted_won"] == 2
    assert [(r["status"], r["elapsed"], r["clean"]) for r in classic["recent"]] == [
        ("won", 100.0, False), ("gave-up", 20.0, True), ("won", 200.0, True),
        ("won", 250.0, False),
    ]  # the last four finished, oldest first  # fmt: skip
    assert wasp["best_time"] is None and wasp["median_time"] is None and wasp["lost"] == 1


def test_the_calendar_holds_the_ranked_dailies_of_the_month() -> None:
    games = [
        game("daily:2026-11-30:1:p", daily="2026-11-30", ranked=True, elapsed=90.0),
        game("daily:2026-11-30:2:p", daily="2026-11-30", ranked=False, elapsed=50.0),
        game("daily:2026-11-02:1:p", daily="2026-11-02", ranked=True, result=None),
        game("daily:2026-10-31:1:p", daily="2026-10-31", ranked=True, result="lost"),
        game("r:1:p", elapsed=10.0),
    ]
    days = daily_days(games, {"2026-11-30": (3, 41), "2026-11-02": (None, 12)}, "2026-11")
    assert days == [
        {"date": "2026-11-02", "status": "playing", "elapsed": None, "clean": True,
         "rank": None, "size": 12},
        {"date": "2026-11-30", "status": "won", "elapsed": 90.0, "clean": True, "rank": 3,
         "size": 41},
    ]  # fmt: skip


def test_replay_links_open_when_the_replays_do() -> None:
    daily = game("daily:2026-11-30:7:p", daily="2026-11-30", ranked=False)
    for now in (MIDNIGHT - 1, MIDNIGHT + RANKED_LIMIT - 0.001):
        assert replay_link(daily, "p", now) == (None, MIDNIGHT + RANKED_LIMIT)
    assert replay_link(daily, "p", MIDNIGHT + RANKED_LIMIT) == (
        "/replay/daily/2026-11-30/p/7",
        None,
    )
    race = game("k3J9xQmP2a:2:p", room_id="k3J9xQmP2a", revealed=True)
    assert replay_link(race, "p", 0.0) == ("/replay/room/k3J9xQmP2a/2", None)
    before_results = game("k3J9xQmP2a:3:p", room_id="k3J9xQmP2a", revealed=False)
    assert replay_link(before_results, "p", 0.0) == (None, None)
    assert replay_link(game("practice:p:4:p", revealed=True), "p", 0.0) == (None, None)
    playing = game("k3J9xQmP2a:4:p", result=None, room_id="k3J9xQmP2a", revealed=True)
    assert replay_link(playing, "p", 0.0) == (None, None)
