"""Rating quick races as their results are written (race/rating.py, docs/rules.md "Ratings").

When the bridge has committed a quick race's ``RoundFinished``, the round is rated in the
background: the store reads the racers' ratings, :func:`~scorpion.race.rating.rate_round`
computes the changes and the store writes them, all in one transaction keyed by the round,
so a round is rated exactly once (a restart replaying the log, a retried write, another
process: the second time finds the round rated and changes nothing). Then the room shows the
changes in its results (a ``rated`` event).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from scorpion.race.rating import change_public, rate_round
from scorpion.race.records import RoundFinished
from scorpion.store import StoreError

from .after_round import AfterRound

log = logging.getLogger("scorpion.web")


class Ratings(AfterRound):
    def finished(self, record: RoundFinished) -> None:
        """A round's results were committed: rate it if it is a quick race's."""
        self.follow(
            record,
            lambda room: room.rated,
            lambda room: self.rate(record, room.settings.preset),
            "rate",
        )

    async def rate(self, record: RoundFinished, preset: str) -> list[dict[str, Any]] | None:
        """Rate the round (once); tell its room. None when it was rated already."""
        ranking = record.ranking
        players = [str(e["player"]) for e in ranking]
        try:
            changes = await self.store.rate_round(
                record.room,
                record.round,
                preset,
                players,
                lambda current: rate_round(ranking, current),
                time.time(),
            )
        except StoreError:
            log.exception("could not rate %s round %d", record.room, record.round)
            return None
        if changes is None or not changes:
            return changes
        shown = {str(c["player"]): change_public(c) for c in changes}
        await self.run(self.referee.rated_round(record.room, record.round, shown))
        return changes
