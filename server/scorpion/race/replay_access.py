"""Who may watch which replay, and when (docs/http-api.md, "Replays").

A race round's replay opens with its results (its games are ``revealed``): before, it
would show a live race's boards. A daily attempt's replay opens only once its day has
closed (:func:`~.daily.closes_at`: every ranked attempt of it has ended), to nobody before,
not even its own player: it would give the day's deal away to a second account. Then the
day's top ``TOP_ROWS`` ranked results are open to everyone (so anyone can judge a
suspicious time), and every other attempt to its own player only.

>>> midnight = 1_796_083_200.0  # 2026-12-01 00:00 UTC
>>> try:
...     check_daily_replay("2026-11-30", midnight + 60, public=True, own=True, ended=True)
... except ReplayRefused as exc:
...     print(exc.code, exc.opens_at - midnight)
day-not-closed 3600.0
>>> check_daily_replay("2026-11-30", midnight + 3600, public=True, own=False, ended=True)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping

from .daily import closes_at, day_closed
from .daily_feed import TOP_ROWS


class ReplayRefused(ValueError):
    """A replay that may not be shown (yet): a stable code, a sentence, and when it opens
    (``opens_at``, server time) when waiting is all it takes."""

    def __init__(self, code: str, message: str, opens_at: float | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.opens_at = code, message, opens_at


def check_round_replay(revealed: bool) -> None:
    """A round's replay: open once its results are out."""
    if not revealed:
        raise ReplayRefused("not-finished", "This round's replay opens with its results")


def check_daily_replay(date: str, now: float, *, public: bool, own: bool, ended: bool) -> None:
    """A daily attempt's replay at server time ``now``: nothing before the day closes;
    then a ``public`` one (ranked, in the day's top) to anyone, any other to its own
    player (``own``), once it has ``ended``."""
    if not day_closed(date, now):
        opens = closes_at(date)
        when = dt.datetime.fromtimestamp(opens, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
        raise ReplayRefused(
            "day-not-closed",
            f"Replays of the daily of {date} open when the day closes, at {when}",
            opens,
        )
    if not (public or own):
        raise ReplayRefused(
            "replay-private",
            f"Only the top {TOP_ROWS} results of a day are public: this replay is its player's",
        )
    if not ended:
        raise ReplayRefused("still-playing", "This attempt is still being played")


def public_players(top: Iterable[Mapping[str, object]]) -> frozenset[str]:
    """The players whose ranked attempt of a day is public: the leaderboard's first
    ``TOP_ROWS`` rows (``Leaderboard.page(0, TOP_ROWS)``).

    >>> sorted(public_players([{"player": "a"}, {"player": "b"}]))
    ['a', 'b']
    """
    return frozenset(str(row.get("player")) for row in list(top)[:TOP_ROWS])
