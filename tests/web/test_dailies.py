"""Daily deals: searched once in a worker process, saved, reused, installed in the referee."""

from __future__ import annotations

import asyncio
import datetime as dt
import time

import pytest

from scorpion.engine import Game
from scorpion.race import Referee
from scorpion.race.daily import DAILY_PRESET, daily_seed, utc_date
from scorpion.solver import solve
from scorpion.store import open_store
from scorpion.web.dailies import DAILY_NODES, DailyDeals


@pytest.mark.backends
async def test_deals_are_searched_once_saved_and_installed(database: str) -> None:
    store = open_store(database)
    await store.open()
    referee = Referee(secret=b"s")
    deals = DailyDeals(referee, store, b"s", "solver")  # a real search worker process
    today = utc_date(time.time())
    try:
        # Three requests at once: one search, in the worker process.
        await asyncio.gather(*(deals.ensure(today) for _ in range(3)))
        assert deals.searches == 1
        saved = await store.daily_deal(today)
        assert saved is not None and saved == (referee.dailies[today].deal, True)
        # The first deal from the date's seed that the solver proves winnable.
        found = solve(Game.new(saved[0], DAILY_PRESET), max_nodes=DAILY_NODES)
        assert saved[0] >= daily_seed(b"s", today) and found.verdict == "won"
        # A new process (another DailyDeals on the same store) reuses the saved deal.
        again = DailyDeals(Referee(secret=b"s"), store, b"s", "solver")
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
        await again.close()
    finally:
        await deals.close()
        await store.close()
