"""The quick race's queue: players waiting for strangers to race, one queue per rule set.

Sans-I/O: a plain object fed ``join``, ``leave``, ``seen`` and ``tick`` with the clock,
returning what happened (a :class:`QueueStatus`, rooms formed). It is built from the
rows the store keeps (one per waiting player, so every process sees the same queue) and
says which rows changed; the web layer runs each step in one store transaction.

A room forms as soon as a rule set has :data:`ROOM_SIZE` players waiting, or when its
longest waiter has waited :data:`SHORT_WAIT` seconds and at least :data:`MIN_RACERS`
wait (never two whose names look alike: a room refuses such a pair). A player is in one
queue at most, and not in a queue while racing (a quick race or a
friends' room's race: a waiting player whose race in a room starts leaves the queue).

>>> q = QuickQueue()
>>> q.join(Player("p1", "Ada"), "classic", 0.0, racing=False).waiting
1
>>> q.tick(5.0, iter(["r1"]).__next__)
[]
>>> _ = q.join(Player("p2", "Bo"), "classic", 6.0, racing=False)
>>> [(f.room, [p.id for p in f.players]) for f in q.tick(15.0, iter(["r1"]).__next__)]
[('r1', ['p1', 'p2'])]
>>> q.status("p2", 16.0).room
'r1'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final

from scorpion.engine.rules import PRESETS

from .confusables import skeleton
from .errors import RaceError
from .players import Player

ROOM_SIZE: Final = 4  # a room forms at once with this many
MIN_RACERS: Final = 2  # ...or with this many after the short wait
SHORT_WAIT: Final = 15.0  # seconds the longest waiter waits before a smaller room forms
STALE: Final = 30.0  # a waiter not heard from for this long (tab closed) leaves the queue
MAX_WAITING: Final = 500  # per rule set: more is a full queue (said so, never dropped)
LOST_ROOM: Final = 10.0  # a formed room no process made after this long: its players wait again
PLACED_KEPT: Final = 3600.0  # a placed player's row outlives their race (10 min at most), then goes


class QueueError(RaceError):
    """A refused queue request (``already-queued``, ``in-race``, ``queue-full``,
    ``unknown-preset``). Nothing was changed."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """One player in a queue: since ``joined``, last heard from at ``seen``; ``room`` once a
    room formed for them (``formed`` then says when)."""

    player: str
    name: str
    preset: str
    joined: float
    seen: float
    room: str | None = None
    formed: float | None = None

    def to_row(self) -> dict[str, object]:
        return {
            "player": self.player,
            "name": self.name,
            "preset": self.preset,
            "joined": self.joined,
            "seen": self.seen,
            "room": self.room,
            "formed": self.formed,
        }

    @classmethod
    def from_row(cls, row: dict[str, object]) -> Waiting:
        formed = row.get("formed")
        room = row.get("room")
        return cls(
            str(row["player"]),
            str(row["name"]),
            str(row["preset"]),
            float(row["joined"]),  # type: ignore[arg-type]
            float(row["seen"]),  # type: ignore[arg-type]
            None if room is None else str(room),
            None if formed is None else float(formed),  # type: ignore[arg-type]
        )


@dataclass(frozen=True, slots=True)
class QueueStatus:
    """What a waiting player is told: the rule set, how many wait in it (them included),
    how long they have waited, whether it is full, and their room once one formed."""

    preset: str
    waiting: int
    waited: float
    full: bool
    room: str | None

    def to_dict(self) -> dict[str, object]:
        return {
            "queued": True,
            "preset": self.preset,
            "waiting": self.waiting,
            "waited": round(self.waited, 1),
            "full": self.full,
            "room": self.room,
            "link": None if self.room is None else f"/r/{self.room}",
            "room_size": ROOM_SIZE,
            "min_racers": MIN_RACERS,
            "short_wait": SHORT_WAIT,
        }


@dataclass(frozen=True, slots=True)
class RoomFormed:
    """A room to open for ``players`` (oldest waiter first) under ``preset``'s fair rules."""

    room: str
    preset: str
    players: tuple[Player, ...]


def distinct_names(waiting: list[Waiting]) -> list[Waiting]:
    """The longest waiters (at most :data:`ROOM_SIZE`) whose names do not look alike: a room
    refuses a name that looks like another's (members.check_name), so two strangers both
    called "Ada" are matched into different rooms, and nobody is shut out of their race.

    >>> [e.player for e in distinct_names([Waiting("a", "Ada", "classic", 0, 0),
    ...     Waiting("b", "\u0410da", "classic", 1, 1), Waiting("c", "Bo", "classic", 2, 2)])]
    ['a', 'c']
    """
    group: list[Waiting] = []
    names: set[str] = set()
    for entry in waiting:
        name = skeleton(entry.name)
        if name not in names:
            group.append(entry)
            names.add(name)
            if len(group) == ROOM_SIZE:
                break
    return group


class QuickQueue:
    """Every rule set's queue. Changes are noted for :meth:`changes` (the rows to write)."""

    def __init__(self, entries: Iterable[Waiting] = ()) -> None:
        self.entries: dict[str, Waiting] = {e.player: e for e in entries}
        self._changed: set[str] = set()

    @classmethod
    def from_rows(cls, rows: Iterable[dict[str, object]]) -> QuickQueue:
        return cls(Waiting.from_row(row) for row in rows)

    def changes(self) -> tuple[list[dict[str, object]], list[str]]:
        """The rows to write (inserted or updated) and the players whose rows go."""
        kept = [self.entries[p].to_row() for p in sorted(self._changed) if p in self.entries]
        gone = sorted(p for p in self._changed if p not in self.entries)
        return kept, gone

    def _put(self, entry: Waiting) -> None:
        self.entries[entry.player] = entry
        self._changed.add(entry.player)

    def _drop(self, player: str) -> None:
        if self.entries.pop(player, None) is not None:
            self._changed.add(player)

    def waiting(self, preset: str) -> list[Waiting]:
        """Who waits for ``preset`` with no room yet, longest first."""
        found = [e for e in self.entries.values() if e.preset == preset and e.room is None]
        return sorted(found, key=lambda e: (e.joined, e.player))

    # ------------------------------------------------------------------ commands
    def join(
        self, player: Player, preset: str, now: float, *, racing: bool, in_room: bool = False
    ) -> QueueStatus:
        """Queue ``player`` for ``preset``. ``racing``: the caller knows the room of their
        last quick race is still on; ``in_room``: they are racing in a room now (a friends'
        room: its race is on and their game in it is not over). Joining the queue one is in
        again is no change."""
        if preset not in PRESETS:
            raise QueueError("unknown-preset", f"There is no rule set {preset!r}")
        if in_room:
            raise QueueError(
                "in-race", "You are racing in a room: finish that race (or give up) first"
            )
        entry = self.entries.get(player.id)
        if entry is not None and entry.room is not None:
            if racing:
                raise QueueError("in-race", "You are in a quick race: finish it first")
            self._drop(player.id)  # that race is over: a new wait starts
            entry = None
        if entry is not None:
            if entry.preset != preset:
                raise QueueError(
                    "already-queued",
                    f"You are waiting for a {entry.preset} race: leave that queue first",
                )
            self._put(replace(entry, seen=now))
        else:
            if len(self.waiting(preset)) >= MAX_WAITING:
                raise QueueError("queue-full", "This queue is full: try again in a minute")
            self._put(Waiting(player.id, player.name, preset, now, now))
        status = self.status(player.id, now)
        assert status is not None
        return status

    def leave(self, player: str) -> bool:
        """Leave the queue (not a room already formed: that is left like any room)."""
        entry = self.entries.get(player)
        if entry is None or entry.room is not None:
            return False
        self._drop(player)
        return True

    def seen(self, player: str, now: float) -> None:
        """The player asked for their status: still there (the tab is open)."""
        entry = self.entries.get(player)
        if entry is not None and entry.room is None:
            self._put(replace(entry, seen=now))

    def requeue(self, room: str, now: float) -> int:
        """A formed room that no process made (it died in between): its players wait again,
        keeping their place. How many."""
        lost = [e for e in self.entries.values() if e.room == room]
        for entry in lost:
            if entry.formed is not None and now >= entry.formed + LOST_ROOM:
                self._put(replace(entry, room=None, formed=None, seen=now))
        return len(lost)

    def forget(self, player: str) -> None:
        """Their quick race is over (or they are gone): no entry is kept."""
        self._drop(player)

    # ------------------------------------------------------------------ the clock
    def tick(self, now: float, new_room_id: Callable[[], str]) -> list[RoomFormed]:
        """Drop waiters gone quiet, then form every room that is due."""
        for entry in list(self.entries.values()):
            quiet = entry.room is None and now >= entry.seen + STALE  # the tab was closed
            done = entry.formed is not None and now >= entry.formed + PLACED_KEPT
            if quiet or done:
                self._drop(entry.player)
        formed: list[RoomFormed] = []
        for preset in sorted({e.preset for e in self.entries.values() if e.room is None}):
            waiting = self.waiting(preset)
            while True:
                group = distinct_names(waiting)
                if not (
                    len(group) >= ROOM_SIZE
                    or (len(group) >= MIN_RACERS and now >= group[0].joined + SHORT_WAIT)
                ):
                    break
                waiting = [e for e in waiting if e not in group]
                room = new_room_id()
                for entry in group:
                    self._put(replace(entry, room=room, formed=now))
                players = tuple(Player(e.player, e.name) for e in group)
                formed.append(RoomFormed(room, preset, players))
        return formed

    def status(self, player: str, now: float) -> QueueStatus | None:
        """The player's place in the queue, None when not queued."""
        entry = self.entries.get(player)
        if entry is None:
            return None
        waiting = len(self.waiting(entry.preset))
        return QueueStatus(
            entry.preset,
            waiting if entry.room is None else 0,
            max(0.0, (entry.formed or now) - entry.joined),
            waiting >= MAX_WAITING,
            entry.room,
        )
