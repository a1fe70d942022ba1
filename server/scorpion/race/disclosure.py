"""What may be shown, and when: the rules behind the HTTP views of games and dailies.

A deal number helps whoever is still playing it: a race's deal stays hidden until its
results, a daily's until its day closes (every ranked attempt of it has ended:
:func:`~.daily.closes_at`, an hour after the next midnight UTC).

>>> midnight = 1_796_083_200.0  # 2026-12-01 00:00 UTC
>>> deal_shown(revealed=False, daily=None, now=midnight)
False
>>> deal_shown(revealed=False, daily="2026-11-30", now=midnight + 1)  # a ranked one may go on
False
>>> deal_shown(revealed=False, daily="2026-11-30", now=midnight + 3600)
True
>>> daily_public("2026-12-01", "2026-12-01", None, Leaderboard(), ready=False)["preparing"]
True
"""

from __future__ import annotations

from .daily import DAILY_PRESET, TOP_ROWS, day_closed
from .leaderboard import Leaderboard
from .outputs import Message


def deal_shown(*, revealed: bool, daily: str | None, now: float) -> bool:
    """Whether a game record may show its deal at server time ``now``: a race's once its
    results are out (``revealed``), a daily's once its day has closed."""
    return revealed if daily is None else day_closed(daily, now)


def daily_public(
    date: str,
    today: str,
    summary: Message | None,
    board: Leaderboard,
    *,
    ready: bool,
) -> Message:
    """A day's daily for everyone: the live summary (preset, verified, who is playing now)
    when the day's deal is ready, the top of ``board`` and its size, and never the deal.
    ``preparing``: today's deal is being searched."""
    data: Message = (
        dict(summary)
        if summary is not None
        else {
            "date": date,
            "preset": DAILY_PRESET,
            "verified": None,
            "playing": {"count": 0, "top": []},
        }
    )
    data["leaderboard"] = {"size": len(board), "top": board.page(0, TOP_ROWS)}
    data["today"] = date == today
    data["preparing"] = not ready and date == today
    data.pop("deal", None)  # never, whatever the summary holds
    return data
