"""Positions proved lost, shared by the searches about one game.

The questions about one game (the analysis's verdict after each move, the hints of one
position) search overlapping parts of the same tree. A search that ends "lost" has
proved lost every position it met: it ran out of positions without a win, so none of
them leads to one (the forced moves and dead-position cuts it made keep a win if there
is one). Later searches of the same game treat those positions as dead ends. The keys
are canonical (:meth:`.state.State.key`) and mean "lost under these rules": one cache
serves one rule set. It is bounded: past ``limit`` keys it stops learning.

>>> lost = LostPositions(limit=2)
>>> lost.learn([b"a", b"b", b"c"])
>>> b"a" in lost, b"c" in lost, len(lost)
(True, False, 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

LIMIT: Final = 300_000  # keys (about 100 bytes each): some 40 MB at most


class LostPositions:
    """A bounded set of canonical keys of positions proved lost."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._keys: set[bytes] = set()

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def learn(self, keys: Iterable[bytes]) -> None:
        """Add keys of positions proved lost, while there is room."""
        room = self.limit - len(self._keys)
        for key in keys:
            if room <= 0:
                return
            if key not in self._keys:
                self._keys.add(key)
                room -= 1
