"""What may be shown, and when (pure rules, no server)."""

from __future__ import annotations

from scorpion.race.disclosure import LIVE_NUMBERS, daily_public, deal_shown
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.protocol import game_id

from .harness import solo

TODAY = "2026-12-01"
MIDNIGHT = 1_796_083_200.0  # 2026-12-01 00:00 UTC


def test_a_deal_is_shown_after_its_results_or_when_its_day_closes() -> None:
    assert not deal_shown(revealed=False, daily=None, now=MIDNIGHT)
    assert deal_shown(revealed=True, daily=None, now=MIDNIGHT)
    assert not deal_shown(revealed=True, daily=TODAY, now=MIDNIGHT + 60)  # today's: never
    # Yesterday's stays hidden past midnight while a ranked attempt may still go on.
    assert not deal_shown(revealed=False, daily="2026-11-30", now=MIDNIGHT + 1)
    assert not deal_shown(revealed=False, daily="2026-11-30", now=MIDNIGHT + 3599.9)
    assert deal_shown(revealed=False, daily="2026-11-30", now=MIDNIGHT + 3600)
    assert deal_shown(revealed=False, daily="2026-11-29", now=MIDNIGHT)


def test_the_public_daily_never_carries_the_deal_and_ranks_the_stored_entries() -> None:
    summary = {"date": TODAY, "preset": "classic", "verified": True, "playing": [], "deal": 7}
    entries = [
        {"player": "a", "name": "A", "status": "lost", "elapsed": 10.0, "runs": 1, "score": 5},
        {"player": "b", "name": "B", "status": "won", "elapsed": 90.0, "runs": 4, "score": 900},
    ]
    data = daily_public(TODAY, TODAY, summary, Leaderboard(entries), ready=True)
    assert "deal" not in data and data["today"] is True and data["preparing"] is False
    board = data["leaderboard"]
    assert isinstance(board, dict) and [e["player"] for e in board["top"]] == ["b", "a"]
    assert board["size"] == 2
    waiting = daily_public(TODAY, TODAY, None, Leaderboard(), ready=False)
    assert waiting["preparing"] is True and waiting["verified"] is None
    assert waiting["playing"] == {"count": 0, "top": []}
    past = daily_public("2026-11-01", TODAY, None, Leaderboard(), ready=False)
    assert past["preparing"] is False and past["today"] is False


def test_a_game_being_played_shows_its_numbers_by_its_id_and_never_a_card() -> None:
    h, a = solo(deal=6)
    live = h.referee.live_game(game_id("room1", 1, "a"))
    assert live is not None and set(live) == {*LIVE_NUMBERS, "actions"}
    assert live["moves"] == 0 and live["status"] == a.progress("a")[-1]["status"]
    for other in ("room1:2:a", "room1:1:b", "room2:1:a", "room1:x:a", "nonsense"):
        assert h.referee.live_game(other) is None, other
