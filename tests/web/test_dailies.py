"""Daily deals: searched once in a worker process, saved, reused, installed in the referee."""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import pytest

from scorpion.race import Referee
from scorpion.race.daily import daily_seed, utc_date
from scorpion.store import open_store
from scorpion.web.dailies import DailyDeals


@pytest.mark.backends
async def test_deals_are_searched_once_saved_and_installed(database: str) -> None:
    store = open_store(database)
    await store.open()
    referee = Referee(secret=b"s")
    deals = DailyDeals(referee, store, b"s", "none", pool=True)  # a real worker process
    today = utc_date(time.time())
    try:
        # Three requests at once: one search, in the worker process.
        await asyncio.gather(*(deals.ensure(today) for _ in range(3)))
        assert deals.searches == 1
        assert await store.daily_deal(today) == (daily_seed(b"s", today), False)
        assert today in referee.dailies
        # A new process (another DailyDeals on the same store) reuses the saved deal.
        again = DailyDeals(Referee(secret=b"s"), store, b"s", "none", pool=True)
        await again.ensure(today)
        assert again.searches == 0 and today in again.referee.dailies
        # A deal recorded in the log wins (players' attempts were played on it).
        other = Referee(secret=b"s")
        yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
        await DailyDeals(other, store, b"s", "none").ensure(yesterday, recorded=12345)
        assert other.dailies[yesterday].deal == 12345
        # Dates the referee refuses are left to it (it answers unknown-room).
        for bad in ("2999-01-01", "nonsense", None, "1990-01-01"):
            await deals.ensure(bad)
        assert set(referee.dailies) == {today}
        again.close()
    finally:
        deals.close()
        await store.close()
