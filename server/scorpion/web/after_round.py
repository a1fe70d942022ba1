"""Work that follows a room's round once its results are committed (ratings, league points).

Both kinds run the same way: the bridge hands over the committed ``RoundFinished``; when
the record is the room's current round and the room wants that work, one background task
runs it, kept here until done (the store keys the work by the round, so a replay or another
process changes nothing the second time), then tells the room through ``run``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from scorpion.race import Referee
from scorpion.race.outputs import Output
from scorpion.race.records import RoundFinished
from scorpion.race.room import Room
from scorpion.store import Store


class AfterRound:
    """What :class:`~.ratings.Ratings` and :class:`~.leagues.Leagues` share: the store,
    the referee, the bridge's ``run`` (persist, then send) and the tasks under way."""

    def __init__(
        self,
        store: Store,
        referee: Referee,
        run: Callable[[Sequence[Output]], Awaitable[None]],
    ) -> None:
        self.store = store
        self.referee = referee
        self.run = run
        self.tasks: set[asyncio.Task[object]] = set()

    def follow(
        self,
        record: RoundFinished,
        wanted: Callable[[Room], bool],
        work: Callable[[Room], Coroutine[Any, Any, object]],
        name: str,
    ) -> None:
        """Start ``work`` on the room of ``record`` if it is still that round's room and
        ``wanted`` says so."""
        room = self.referee.rooms.get(record.room)
        if room is None or record.round != room.round or not wanted(room):
            return
        task = asyncio.get_running_loop().create_task(
            work(room), name=f"{name} {record.room}/{record.round}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
