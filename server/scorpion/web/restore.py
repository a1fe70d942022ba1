"""After a restart or a crash: rooms, dailies and practices rebuilt from the store's logs."""

from __future__ import annotations

import logging
import time
from collections.abc import Collection

from scorpion.race import DailyStarted, GameResult, Record, Referee, record_from_dict
from scorpion.race.protocol import DAILY_PREFIX, PRACTICE_PREFIX, date_of
from scorpion.store import JSON, Store

from .bridge import Bridge
from .dailies import DailyDeals

log = logging.getLogger("scorpion.web")

DAILY_LOG_DAYS = 2  # daily and practice logs idle this long are closed (game records stay)


async def close_idle_daily_logs(store: Store, now: float) -> int:
    """Close the logs of dailies and practices idle for DAILY_LOG_DAYS (restarts replay
    less; a practice game left that long is not brought back)."""
    before = now - DAILY_LOG_DAYS * 86400
    closed = await store.close_rooms_before(DAILY_PREFIX, before)
    return closed + await store.close_rooms_before(PRACTICE_PREFIX, before)


async def restore(
    store: Store,
    referee: Referee,
    dailies: DailyDeals,
    bridge: Bridge,
    only: Collection[str] | None = None,
) -> None:
    """Replay every open log into the referee (the dailies' deals installed first), or
    ``only`` those logs (places the referee forgot after a failed write)."""
    if only is None:
        await close_idle_daily_logs(store, time.time())
    entries = await store.open_room_logs()
    if only is not None:
        entries = [(place, entry) for place, entry in entries if place in only]
    await replay(entries, referee, dailies, bridge)


async def replay(
    entries: list[tuple[str, JSON]], referee: Referee, dailies: DailyDeals, bridge: Bridge
) -> None:
    """Replay (place, log entry) pairs into the referee: the open logs after a restart,
    or one place's log when this process takes it over (scorpion.web.cluster)."""
    now = time.time()
    records: list[Record] = []
    for room, entry in entries:
        try:
            records.append(record_from_dict(entry))
        except (ValueError, KeyError, TypeError, AssertionError):
            log.error("skipping a bad log entry of room %s: %r", room, entry)
    # The dailies being played must be installed first: their deals come from the store,
    # and the log's deal wins (the attempts were played on it).
    recorded: dict[str, int] = {}
    for record in records:
        if isinstance(record, DailyStarted):
            recorded[record.date] = record.deal
        elif isinstance(record, GameResult) and (date := date_of(record.room)) is not None:
            recorded.setdefault(date, record.deal)
    for date, deal in recorded.items():
        await dailies.ensure(date, deal)
    if records:
        log.info("restoring %d records", len(records))
        await bridge.run(referee.restore(records, now))
        for error in referee.restore_errors:
            log.error("restore: %s", error)
