"""Retention: game records and closed rooms older than ``retention_days`` are deleted.

The purge runs at start and then hourly. Rooms' logs are already deleted when a room
closes (its games live on as game records); each day's daily deal is kept (one row a
day) so that a past daily never changes. The server's own log lines go to standard
error: their retention is the log collector's (journald, docker).
"""

from __future__ import annotations

import asyncio
import logging
import time

from scorpion.store import Store

log = logging.getLogger("scorpion.web")

PURGE_EVERY = 3600.0  # seconds


async def purge_once(store: Store, days: int, now: float | None = None) -> int:
    cutoff = (time.time() if now is None else now) - days * 86400
    deleted = await store.purge(cutoff)
    if deleted:
        log.info("retention: deleted %d rows older than %d days", deleted, days)
    return deleted


async def purge_forever(store: Store, days: int) -> None:
    while True:
        try:
            await purge_once(store, days)
        except Exception:
            log.exception("retention purge failed")
        await asyncio.sleep(PURGE_EVERY)
