"""Who may watch a replay, and when, on a fake clock across midnight UTC."""

from __future__ import annotations

import datetime as dt

import pytest

from scorpion.race.daily import RANKED_LIMIT, closes_at
from scorpion.race.leaderboard import Leaderboard
from scorpion.race.replay_access import (
    ReplayRefused,
    check_daily_replay,
    check_round_replay,
    public_players,
)

DAY = "2026-11-30"
MIDNIGHT = dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp()  # the day after DAY begins


def refusal(now: float, **who: bool) -> str | None:
    try:
        check_daily_replay(DAY, now, **{"public": False, "own": False, "ended": True, **who})
    except ReplayRefused as exc:
        return exc.code
    return None


@pytest.mark.parametrize(
    "now",
    [MIDNIGHT - 86_400, MIDNIGHT - 1, MIDNIGHT, MIDNIGHT + 1, MIDNIGHT + RANKED_LIMIT - 0.001],
)
def test_nothing_before_the_day_closes_not_even_your_own(now: float) -> None:
    # A ranked attempt begun at 23:59:59 may still be playing: no replay of the day at all.
    for who in ({"public": True}, {"own": True}, {"public": True, "own": True}):
        with pytest.raises(ReplayRefused) as caught:
            check_daily_replay(DAY, now, **{"public": False, "own": False, "ended": True, **who})
        assert caught.value.code == "day-not-closed"
        assert caught.value.opens_at == closes_at(DAY) == MIDNIGHT + RANKED_LIMIT
        assert "2026-12-01 01:00 UTC" in caught.value.message


def test_after_the_day_closes_the_top_to_anyone_the_rest_to_their_player() -> None:
    opened = MIDNIGHT + RANKED_LIMIT
    assert refusal(opened, public=True) is None
    assert refusal(opened, own=True) is None
    assert refusal(opened) == "replay-private"
    assert refusal(opened + 86_400 * 30) == "replay-private"  # never public later either
    assert refusal(opened, own=True, ended=False) == "still-playing"
    assert refusal(opened, ended=False) == "replay-private"  # says nothing of the attempt


def test_the_top_10_rows_are_public_ties_or_not() -> None:
    keys = ("player", "name", "status", "elapsed", "runs", "score", "moves")
    rows = [dict(zip(keys, (f"p{i}", f"P{i}", "won", 100.0 + i, 4, 500, 90), strict=True))
            for i in range(12)]  # fmt: skip
    rows.append(dict(zip(keys, ("tie", "Tie", "won", 109.0, 4, 500, 90), strict=True)))
    top = public_players(Leaderboard(rows).page(0, 10))
    assert len(top) == 10 and "p10" not in top and "p11" not in top
    assert {f"p{i}" for i in range(9)} <= top  # the first nine, then one of the tied tenth


def test_a_rounds_replay_opens_with_its_results() -> None:
    with pytest.raises(ReplayRefused) as caught:
        check_round_replay(revealed=False)
    assert caught.value.code == "not-finished" and caught.value.opens_at is None
    check_round_replay(revealed=True)
