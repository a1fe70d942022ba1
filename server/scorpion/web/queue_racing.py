"""A waiting player whose race in a room starts leaves the quick race's queue.

One race at a time (docs/rules.md, "Quick race"): the queue refuses a player racing in a
room (http_quick.in_race), and a player already waiting who sits down in a friends' room
stays queued until that room's race starts with them; then, once the round's start is
committed, they leave the queue (its page says so). A room the queue formed for them in the
meantime goes on without them, as for anyone who does not come.
"""

from __future__ import annotations

import asyncio
import logging

from scorpion.race.quick import QuickQueue
from scorpion.race.records import RoundStarted
from scorpion.store import JSON, Store, StoreError

log = logging.getLogger("scorpion.web")


class QueueOnRace:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.tasks: set[asyncio.Task[object]] = set()

    def started(self, record: RoundStarted) -> None:
        """A round's start was committed: its racers leave the queue (in the background)."""
        racers = [pid for pid, _name in record.players]
        task = asyncio.get_running_loop().create_task(
            self.leave(racers), name=f"unqueue {record.room}/{record.round}"
        )
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def leave(self, racers: list[str]) -> list[str]:
        """The racers who were waiting (and are not now)."""

        def run(rows: list[JSON]) -> tuple[list[JSON], list[str], list[str]]:
            queue = QuickQueue.from_rows(rows)
            left = [pid for pid in racers if queue.leave(pid)]
            written, gone = queue.changes()
            return written, gone, left

        try:
            return await self.store.quick_step(run, players=racers)
        except StoreError:
            log.exception("could not take racers %s out of the quick queue", racers)
            return []
