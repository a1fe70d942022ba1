"""A player's history: personal records per preset, the daily calendar and each game's
replay link. Pure functions over the player's stored games (in the order started).

The counts are :func:`~.ranking.statistics`'s (so they agree with
``GET /api/players/{id}/stats``): clean games (no hint, no Auto) counted, assisted ones
apart. Best and median times are over clean wins only: a time helped by a hint or Auto is
not a personal best.

>>> from types import SimpleNamespace as G
>>> games = [G(id="r:1:a", preset="classic", result="won", elapsed=300.0, hints=0, autos=0,
...            finished=10.0, started=1.0, daily=None, ranked=False),
...          G(id="r:2:a", preset="classic", result="won", elapsed=200.0, hints=1, autos=0,
...            finished=20.0, started=2.0, daily=None, ranked=False),
...          G(id="r:3:a", preset="classic", result="gave-up", elapsed=50.0, hints=0, autos=0,
...            finished=30.0, started=3.0, daily=None, ranked=False)]
>>> record = preset_records(games)[0]
>>> record["won"], record["lost"], record["best_time"], record["median_time"], record["win_rate"]
(1, 1, 300.0, 300.0, 0.5)
>>> [(r["status"], r["clean"]) for r in record["recent"]]
[('won', True), ('won', False), ('gave-up', True)]
"""

from __future__ import annotations

import statistics as stats_
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol

from .daily import closes_at, day_closed
from .protocol import date_of
from .ranking import FINISHED, statistics

RECENT: Final = 20  # results per preset in the chart of recent results
# What the daily streak counts, in the words the pages show.
STREAK_COUNTS: Final = "UTC days in a row on which you won your ranked daily"


class Played(Protocol):
    """What a history reads of a stored game (``SavedGame`` has it)."""

    @property
    def id(self) -> str: ...
    @property
    def preset(self) -> str: ...
    @property
    def result(self) -> str | None: ...
    @property
    def elapsed(self) -> float | None: ...
    @property
    def hints(self) -> int: ...
    @property
    def autos(self) -> int: ...
    @property
    def started(self) -> float: ...
    @property
    def finished(self) -> float | None: ...
    @property
    def daily(self) -> str | None: ...
    @property
    def ranked(self) -> bool: ...
    @property
    def revealed(self) -> bool: ...


def clean(game: Played) -> bool:
    return not (game.hints or game.autos)


def preset_records(games: Sequence[Played], recent: int = RECENT) -> list[dict[str, Any]]:
    """Per preset (by name): the statistics' counts, the best and median times of clean
    wins, and the last ``recent`` finished games (finished, status, elapsed, clean)."""
    counts = statistics([(g.preset, g.result or "playing", not clean(g)) for g in games])
    out = []
    for preset in sorted(counts):
        mine = [g for g in games if g.preset == preset]
        wins = [g.elapsed for g in mine if g.result == "won" and clean(g) and g.elapsed is not None]
        ended = [g for g in mine if g.result in FINISHED]
        out.append(
            {
                **counts[preset].to_dict(),
                "best_time": min(wins) if wins else None,
                "median_time": stats_.median(wins) if wins else None,
                "recent": [
                    {
                        "finished": g.finished,
                        "status": g.result,
                        "elapsed": g.elapsed,
                        "clean": clean(g),
                    }
                    for g in ended[-recent:]
                ],
            }
        )
    return out


def daily_days(
    games: Sequence[Played], ranks: Mapping[str, tuple[int | None, int]], month: str
) -> list[dict[str, Any]]:
    """The ranked daily games of ``month`` (YYYY-MM), by date: the result, its time, and
    its rank of the day's leaderboard (``ranks[date]``: (rank, size); rank None until the
    game has ended)."""
    days = []
    for g in games:
        if g.daily is None or not g.ranked or not g.daily.startswith(month + "-"):
            continue
        rank, size = ranks.get(g.daily, (None, 0))
        days.append(
            {
                "date": g.daily,
                "status": g.result or "playing",
                "elapsed": g.elapsed,
                "clean": clean(g),
                "rank": rank,
                "size": size,
            }
        )
    return sorted(days, key=lambda d: str(d["date"]))


def replay_link(game: Played, player: str, now: float) -> tuple[str | None, float | None]:
    """(the replay page's path, or None; when it opens, for a daily whose day has not
    closed) of one of ``player``'s games at server time ``now``. A race round's opens with
    its results (``revealed``), a daily attempt's once its day has closed; practice games
    have none.

    >>> from types import SimpleNamespace as G
    >>> g = G(id="daily:2026-11-30:1:p_a", daily="2026-11-30", result="won")
    >>> replay_link(g, "p_a", 1_796_083_200.0)  # 2026-12-01 00:00 UTC: not closed yet
    (None, 1796086800.0)
    >>> replay_link(g, "p_a", 1_796_086_800.0)
    ('/replay/daily/2026-11-30/p_a/1', None)
    """
    if game.result is None:
        return None, None
    place, number, _player = game.id.rsplit(":", 2)  # web.records.game_id
    if game.daily is not None:
        if not day_closed(game.daily, now):
            return None, closes_at(game.daily)
        return f"/replay/daily/{game.daily}/{player}/{number}", None
    if date_of(place) is not None or place.startswith("practice:"):
        return None, None
    if not game.revealed:  # the round's results are not out
        return None, None
    return f"/replay/room/{place}/{number}", None
