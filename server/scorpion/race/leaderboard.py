"""A day's leaderboard kept in ranking order as results come (bisect), served in pages.

The order and the ranks are :func:`~.ranking.rank_entries`' (equal keys share a rank),
without sorting everything again for each reader: a result is one insertion, a rank one
binary search.

>>> board = Leaderboard()
>>> for player, status, elapsed, runs in [("a", "won", 400.0, 4), ("b", "lost", 90.0, 1),
...                                       ("c", "won", 300.0, 4), ("d", "lost", 80.0, 1)]:
...     board.put({"player": player, "status": status, "elapsed": elapsed, "runs": runs})
>>> [(row["rank"], row["player"]) for row in board.page(0, 10)]
[(1, 'c'), (2, 'a'), (3, 'b'), (3, 'd')]
>>> board.rank_of("d"), board.rank_of("nobody"), len(board)
(3, None, 4)
>>> offset, rows = board.around("a", 2)
>>> offset, [row["player"] for row in rows]
(0, ['c', 'a'])
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping
from typing import TypeAlias

from .ranking import rank_key

Entry: TypeAlias = dict[str, object]
_Key: TypeAlias = tuple[tuple[float, ...], str]  # (rank key, player): the total order


class Leaderboard:
    """One entry per player (a later one replaces it), in ranking order."""

    def __init__(self, entries: Iterable[Mapping[str, object]] = ()) -> None:
        self._keys: list[_Key] = []
        self._entries: dict[str, Entry] = {}
        for entry in entries:
            self.put(entry)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, player: object) -> bool:
        return player in self._entries

    def put(self, entry: Mapping[str, object]) -> None:
        """Add or replace the entry of ``entry["player"]``."""
        player = str(entry["player"])
        old = self._entries.get(player)
        if old is not None:
            del self._keys[bisect_left(self._keys, (rank_key(old), player))]
        self._entries[player] = dict(entry)
        insort(self._keys, (rank_key(entry), player))

    def remove(self, player: str) -> bool:
        """Drop the player's entry (a deleted player); whether there was one."""
        old = self._entries.pop(player, None)
        if old is None:
            return False
        del self._keys[bisect_left(self._keys, (rank_key(old), player))]
        return True

    def rank_of(self, player: str) -> int | None:
        """1 + how many entries rank strictly better (ties share a rank); None if absent."""
        entry = self._entries.get(player)
        if entry is None:
            return None
        return bisect_left(self._keys, (rank_key(entry),)) + 1

    def row(self, player: str) -> Entry | None:
        """The player's entry with its ``rank``, or None."""
        rank = self.rank_of(player)
        return None if rank is None else {"rank": rank, **self._entries[player]}

    def page(self, offset: int, limit: int) -> list[Entry]:
        """The rows from position ``offset`` (0 is the first), at most ``limit`` of them."""
        offset = max(0, offset)
        keys = self._keys[offset : offset + max(0, limit)]
        rows: list[Entry] = []
        rank = 0
        previous: tuple[float, ...] | None = None
        for i, (key, player) in enumerate(keys):
            if key != previous:
                rank = offset + i + 1 if i else bisect_left(self._keys, (key,)) + 1
            rows.append({"rank": rank, **self._entries[player]})
            previous = key
        return rows

    def around(self, player: str, limit: int) -> tuple[int, list[Entry]]:
        """The offset and about ``limit`` rows with the player's near the middle ((0, [])
        when the player has no entry)."""
        entry = self._entries.get(player)
        if entry is None:
            return 0, []
        index = bisect_left(self._keys, (rank_key(entry), player))
        start = max(0, min(index - limit // 2, len(self._keys) - limit))
        return start, self.page(start, limit)
