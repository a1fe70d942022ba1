"""A league among friends' points, kept as its rounds' results are written (race/league.py).

When the bridge has committed a league room's ``RoundFinished``, each racer's points are
computed from the round's ranking and kept in one store transaction keyed by the round, so
a round counts once (a restart replaying the log, a retried write, another process: the
second time finds the round kept and changes nothing). Then the room is told (a ``league``
event) and its clients fetch the tables (``GET /api/rooms/{id}/league``).
"""

from __future__ import annotations

import logging

from scorpion.race.league import iso_week, round_points
from scorpion.race.records import RoundFinished
from scorpion.store import StoreError

from .after_round import AfterRound

log = logging.getLogger("scorpion.web")


class Leagues(AfterRound):
    def finished(self, record: RoundFinished) -> None:
        """A round's results were committed: keep its points if the room is a league."""
        self.follow(record, lambda room: room.league, lambda room: self.keep(record), "league")

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
