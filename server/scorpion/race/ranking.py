"""Ranking races and dailies, and players' statistics: pure functions over plain data.

Order: clean results (no hint, no Auto) before assisted ones; within each, winners first,
by time (earliest first); then everyone else by runs removed (most first), then score
(highest first); then fewest moves. Equal keys share a rank.

>>> keys = ("player", "status", "elapsed", "runs", "score", "moves", "autos")
>>> entries = [dict(zip(keys, row)) for row in [
...     ("a", "timed-out", 600.0, 2, 290, 9, 0),
...     ("b", "won", 402.5, 4, 575, 131, 0),
...     ("c", "gave-up", 100.0, 2, 300, 50, 0),
...     ("d", "won", 12.0, 4, 460, 46, 46)]]
>>> [(e["rank"], e["player"]) for e in rank_entries(entries)]
[(1, 'b'), (2, 'c'), (3, 'a'), (4, 'd')]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

FINISHED: Final = frozenset({"won", "lost", "gave-up", "timed-out", "left"})


def _num(entry: dict[str, object], key: str) -> float:
    value = entry.get(key, 0)
    return float(value) if isinstance(value, (int, float)) else 0.0  # a tuple: see place.py


def rank_key(entry: Mapping[str, object], score: str = "score") -> tuple[float, ...]:
    """Sort key of one entry (needs status, elapsed, runs, score, moves; hints and autos
    when help was used: an assisted result, after every clean one). ``score``: the field
    read as the score (observed.py: cards in order stand in for a withheld score)."""
    # Read as a dict (every caller's entries are): compiled, a Mapping's get is a call by name.
    row = entry if isinstance(entry, dict) else dict(entry)
    help_used = 1 if row.get("hints") or row.get("autos") else 0
    if row.get("status") == "won":
        return (help_used, 0, _num(row, "elapsed"), _num(row, "moves"))
    return (help_used, 1, -_num(row, "runs"), -_num(row, score), _num(row, "moves"))


def rank_entries(entries: Iterable[Mapping[str, object]]) -> list[dict[str, object]]:
    """Copies of ``entries`` in ranking order, each with its ``rank`` (ties share one)."""
    ordered = sorted(entries, key=lambda e: (rank_key(e), str(e.get("player", ""))))
    ranked: list[dict[str, object]] = []
    previous: tuple[float, ...] | None = None
    for i, entry in enumerate(ordered):
        key = rank_key(entry)
        rank = ranked[-1]["rank"] if key == previous else i + 1
        ranked.append({"rank": rank, **entry})
        previous = key
    return ranked


def live_ranks(entries: Iterable[Mapping[str, object]]) -> dict[str, int]:
    """Each player's rank now (as :func:`rank_entries`; ties share one), by player id.

    >>> live_ranks([{"player": "a", "status": "playing", "runs": 1, "score": 90, "moves": 9},
    ...             {"player": "b", "status": "playing", "runs": 1, "score": 90, "moves": 9},
    ...             {"player": "c", "status": "won", "elapsed": 300.0, "runs": 4}])
    {'c': 1, 'a': 2, 'b': 2}
    """
    return ranks_of([(rank_key(e), str(e.get("player", ""))) for e in entries])


def ranks_of(keyed: list[tuple[tuple[float, ...], str]]) -> dict[str, int]:
    """Each player's rank from their ``(rank_key, player)``, as :func:`rank_entries` ranks
    (ties share one); sorts ``keyed``. Asked at every progress announcement: no copies.

    >>> ranks_of([((0, 1, -1.0), "b"), ((0, 0, 9.5), "c"), ((0, 1, -1.0), "a")])
    {'c': 1, 'a': 2, 'b': 2}
    """
    keyed.sort()
    ranks: dict[str, int] = {}
    previous: tuple[float, ...] | None = None
    rank = 0
    for i in range(len(keyed)):
        key, player = keyed[i]
        if key != previous:
            rank, previous = i + 1, key
        ranks[player] = rank
    return ranks


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's statistics for one preset: clean games counted (no hint, no Auto), and
    assisted ones apart (``assisted_started``, ``assisted_won``)."""

    preset: str
    started: int
    won: int
    lost: int
    current_streak: int
    best_streak: int
    assisted_started: int = 0
    assisted_won: int = 0

    @property
    def win_rate(self) -> float:
        """Won / finished games (0.0 when none finished)."""
        finished = self.won + self.lost
        return self.won / finished if finished else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "preset": self.preset,
            "started": self.started,
            "won": self.won,
            "lost": self.lost,
            "win_rate": round(self.win_rate, 4),
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "assisted_started": self.assisted_started,
            "assisted_won": self.assisted_won,
        }


def statistics(games: Sequence[tuple[str, str, bool]]) -> dict[str, Stats]:
    """Statistics per preset from a player's games **in the order played**.

    Each game is ``(preset, status, assisted)``; status ``playing`` counts as started
    only; every finished status other than ``won`` is a loss (an abandoned game counts
    as a loss, as in the seeds). Streaks count consecutive clean wins per preset. An
    assisted game (a hint or Auto) is counted apart, and ends the streak: help may not
    save a streak that a loss would have ended.

    >>> s = statistics([("classic", "won", False), ("classic", "won", False),
    ...                 ("classic", "gave-up", False), ("classic", "won", False),
    ...                 ("classic", "won", True), ("classic", "won", False),
    ...                 ("wasp", "playing", False)])
    >>> c = s["classic"]
    >>> c.started, c.won, c.lost, c.win_rate, c.current_streak, c.best_streak
    (5, 4, 1, 0.8, 1, 2)
    >>> c.assisted_started, c.assisted_won
    (1, 1)
    >>> s["wasp"].started, s["wasp"].lost
    (1, 0)
    """
    # started won lost current best assisted-started assisted-won, per preset
    counts: dict[str, list[int]] = {}
    for preset, status, help_used in games:
        c = counts.setdefault(preset, [0, 0, 0, 0, 0, 0, 0])
        if help_used:
            c[5] += 1
            c[6] += status == "won"
            if status in FINISHED:
                c[3] = 0
            continue
        c[0] += 1
        if status == "won":
            c[1] += 1
            c[3] += 1
            c[4] = max(c[4], c[3])
        elif status in FINISHED:
            c[2] += 1
            c[3] = 0
    return {p: Stats(p, *c) for p, c in counts.items()}


def daily_streak(dates_won: Iterable[str], today: str) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days with a won daily.

    The current streak still counts when today is not played yet (it ends yesterday).

    >>> daily_streak(["2026-11-25", "2026-11-27", "2026-11-28"], "2026-11-29")
    (2, 2)
    >>> daily_streak(["2026-11-20", "2026-11-21", "2026-11-22"], "2026-11-29")
    (0, 3)
    """
    days = sorted({dt.date.fromisoformat(d) for d in dates_won})
    best = run = 0
    previous: dt.date | None = None
    for day in days:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    last = dt.date.fromisoformat(today)
    current = run if previous is not None and (last - previous).days <= 1 else 0
    return current, best
