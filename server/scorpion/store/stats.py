"""Statistics and rankings computed from game results (pure functions, no I/O).

>>> s = preset_stats("classic", [None, "won", "lost", "won", "won"])
>>> s.started, s.won, s.lost, s.win_rate, s.current_streak, s.best_streak
(5, 3, 1, 0.75, 2, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from .base import PresetStats

WON = "won"


def preset_stats(preset: str, results: Iterable[str | None]) -> PresetStats:
    """Stats of one preset from its games' results in the order they started.

    None is a game still being played (or abandoned unfinished): it counts as
    started and leaves the streaks alone.
    """
    started = won = lost = current = best = 0
    for result in results:
        started += 1
        if result is None:
            continue
        if result == WON:
            won += 1
            current += 1
            best = max(best, current)
        else:
            lost += 1
            current = 0
    ended = won + lost
    rate = round(won / ended, 4) if ended else None
    return PresetStats(preset, started, won, lost, rate, current, best)


def ranking_key(result: str, elapsed: float | None, runs: int, score: int) -> tuple[float, ...]:
    """Sort key of a race or daily ranking: winners by time, then runs removed, then score.

    >>> rows = [("lost", None, 2, 50), ("won", 90.0, 4, 300), ("won", 60.0, 4, 200)]
    >>> [r[1] for r in sorted(rows, key=lambda r: ranking_key(*r))]
    [60.0, 90.0, None]
    """
    if result == WON:
        return (0, elapsed if elapsed is not None else float("inf"), 0, 0)
    return (1, 0, -runs, -score)
