"""A league among friends' points, kept as its rounds' results are written (race/league.py).

When the bridge has committed a league room's ``RoundFinished``, each racer's points are
computed from the round's ranking and kept in one store transaction keyed by the round, so
a round counts once (a restart replaying the log, a retried write, another process: the
second time finds the round kept and changes nothing). Then the room is told (a ``league``
event) and its clients fetch the tables (``GET /api/rooms/{id}/league``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from scorpion.race import Referee
from scorpion.race.league import iso_week, round_points
from scorpion.race.outputs import Output
from scorpion.race.records import RoundFinished
from scorpion.store import Store, StoreError

log = logging.getLogger("scorpion.web")


class Leagues:
    def __init__(
        self,
        store: Store,
        referee: Referee,
        run: Callable[[Sequence[Output]], Awaitable[None]],
    ) -> None:
        self.store = store
        self.referee = referee
        self.run = run  # the bridge's: persist, then send
        self.tasks: set[asyncio.Task[object]] = set()

    def finished(self, record: RoundFinished) -> None:
        """A round's results were committed: keep its points if the room is a league."""
        room = self.referee.rooms.get(record.room)
        if room is None or not room.league or record.round != room.round:
            return
        task = asyncio.get_running_loop().create_task(
            self.keep(record), name=f"league {record.room}/{record.round}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def keep(self, record: RoundFinished) -> bool:
        """Keep the round's points (once) and tell the room. False: kept already."""
        points = round_points(record.ranking)
        if not points:  # fewer than two raced: the round scores for nobody
            return False
        try:
            kept = await self.store.league_round(
                record.room, record.round, iso_week(record.at), points, record.at
            )
        except StoreError:
            log.exception("could not keep league points of %s round %d", record.room, record.round)
            return False
        if kept:
            shown = {p["player"]: int(p["points"]) for p in points}
            await self.run(self.referee.league_round(record.room, record.round, shown))
        return kept
