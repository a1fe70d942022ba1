"""Which search runs next: the workers shared fairly between addresses and players.

Sans-I/O: fed requests and the clock (``now``), it says which search to run next,
which to refuse at once and which waited too long. The web layer's pool
(``scorpion.web.searches``) carries it out.

The policy (docs/protocol.md, "Searches"):

- A player holds at most ``per_player`` searches (running and waiting), an address
  at most ``per_address``: beyond that the new one is refused ``busy`` at once.
- Waiting searches are served in turn: one address after the other, and within an
  address one player after the other, so 80 accounts flooding hints take one turn
  in each round, not 80, from an address that asks once.
- At most ``max_queued`` wait. When it is full, a newcomer whose address has fewer
  waiting than the address with the most pushes out that address's newest search
  (answered ``busy``); otherwise the newcomer is refused.
- A search waiting ``max_wait`` seconds is answered ``busy``: nobody waits unbounded.

>>> queue: SearchQueue[str] = SearchQueue(ShareLimits(per_player=2, per_address=3))
>>> for n in range(3):
...     _ = queue.push(f"flood{n}", f"bot{n}", "10.0.0.1", now=0.0)
>>> _ = queue.push("mine", "ada", "10.0.0.2", now=0.0)
>>> [queue.pop(1.0).item for _ in range(4)]
['flood0', 'mine', 'flood1', 'flood2']
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from .errors import RaceError

T = TypeVar("T")

UNLIMITED: Final = ""  # the player (and address) of the server's own searches: never refused


@dataclass(frozen=True, slots=True)
class ShareLimits:
    """``per_player`` / ``per_address``: searches one may hold, running and waiting;
    ``max_queued``: searches waiting in all; ``max_wait``: seconds one may wait."""

    per_player: int = 2
    per_address: int = 8
    max_queued: int = 256
    max_wait: float = 30.0


@dataclass(slots=True)
class Waiting(Generic[T]):
    """A search in the queue (then running, until :meth:`SearchQueue.done`)."""

    item: T
    player: str
    address: str
    since: float
    number: int  # in the order they came (the newest is pushed out first)


class SearchQueue(Generic[T]):
    """The waiting searches, in turn by address then player, with their holders' counts."""

    def __init__(self, limits: ShareLimits | None = None) -> None:
        self.limits = limits or ShareLimits()
        # address -> player -> waiting, each dict in turn order (the next to serve first)
        self._lanes: dict[str, dict[str, deque[Waiting[T]]]] = {}
        self._held_by_player: Counter[str] = Counter()  # running and waiting
        self._held_by_address: Counter[str] = Counter()
        self._waiting_by_address: Counter[str] = Counter()
        self.waiting = 0
        self.running = 0
        self._pushed = 0

    def __len__(self) -> int:
        return self.waiting

    def held(self, player: str) -> int:
        """The searches ``player`` has running and waiting."""
        return self._held_by_player[player]

    def push(self, item: T, player: str, address: str, now: float) -> list[T]:
        """Queue ``item`` for ``player`` at ``address``. Returns the searches it pushed out
        (to answer ``busy``); raises RaceError ``busy`` when it may not wait itself.
        The server's own searches (player :data:`UNLIMITED`) are never refused."""
        limits = self.limits
        pushed_out: list[T] = []
        if player != UNLIMITED:
            if self._held_by_player[player] >= limits.per_player:
                raise RaceError(
                    "busy",
                    f"You already have {limits.per_player} searches going: wait for an answer",
                )
            if self._held_by_address[address] >= limits.per_address:
                raise RaceError(
                    "busy", "Too many searches from your network: try again in a moment"
                )
            if self.waiting >= limits.max_queued:
                heaviest, most = self._waiting_by_address.most_common(1)[0]
                if most <= self._waiting_by_address[address] + 1:
                    raise RaceError("busy", "The server is busy: try again in a moment")
                pushed_out.append(self._drop_newest(heaviest).item)
        lane = self._lanes.setdefault(address, {}).setdefault(player, deque())
        self._pushed += 1
        lane.append(Waiting(item, player, address, now, self._pushed))
        self._hold(player, address, +1)
        self._waiting_by_address[address] += 1
        self.waiting += 1
        return pushed_out

    def pop(self, now: float) -> Waiting[T] | None:
        """The next search to run (its holders keep counting it until :meth:`done`), in
        turn: the next address, its next player, that player's oldest search."""
        if not self._lanes:
            return None
        address = next(iter(self._lanes))
        players = self._lanes.pop(address)
        player = next(iter(players))
        lane = players.pop(player)
        found = lane.popleft()
        if lane:
            players[player] = lane  # to the end of the address's turn
        if players:
            self._lanes[address] = players  # to the end of the round
        self._unwait(found)
        self.running += 1
        return found

    def done(self, ran: Waiting[T]) -> None:
        """A search from :meth:`pop` ended (answered, failed or skipped)."""
        self.running -= 1
        self._hold(ran.player, ran.address, -1)

    def expire(self, now: float) -> list[T]:
        """The searches that waited ``max_wait`` seconds, taken out (to answer ``busy``)."""
        cutoff = now - self.limits.max_wait
        expired: list[Waiting[T]] = []
        for address in list(self._lanes):
            players = self._lanes[address]
            for player in list(players):
                lane = players[player]
                while lane and lane[0].since <= cutoff:
                    expired.append(lane.popleft())
                if not lane:
                    del players[player]
            if not players:
                del self._lanes[address]
        for gone in expired:
            self._unwait(gone)
            self._hold(gone.player, gone.address, -1)
        return [gone.item for gone in expired]

    def next_expiry(self) -> float | None:
        """When :meth:`expire` next has something to take out (None: nothing waits)."""
        oldest = [lane[0].since for p in self._lanes.values() for lane in p.values()]
        return min(oldest) + self.limits.max_wait if oldest else None

    def _drop_newest(self, address: str) -> Waiting[T]:
        players = self._lanes[address]
        player = max(players, key=lambda p: (len(players[p]), players[p][-1].number))
        lane = players[player]
        dropped = lane.pop()
        if not lane:
            del players[player]
        if not players:
            del self._lanes[address]
        self._unwait(dropped)
        self._hold(dropped.player, dropped.address, -1)
        return dropped

    def _unwait(self, waiting: Waiting[T]) -> None:
        self.waiting -= 1
        self._waiting_by_address[waiting.address] -= 1
        if self._waiting_by_address[waiting.address] <= 0:
            del self._waiting_by_address[waiting.address]

    def _hold(self, player: str, address: str, change: int) -> None:
        for counter, key in ((self._held_by_player, player), (self._held_by_address, address)):
            counter[key] += change
            if counter[key] <= 0:
                del counter[key]
