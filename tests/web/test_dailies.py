"""Daily deals: searched once in a worker process, saved, reused, installed in the referee."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from pathlib import Path

import pytest

from scorpion.engine import Game
from scorpion.race import Referee
from scorpion.race.daily import DAILY_PRESET, daily_seed, utc_date
from scorpion.race.searches import DAILY_NODES
from scorpion.solver import solve
from scorpion.store import open_store
from scorpion.web.dailies import DailyDeals
from scorpion_dev.processes import children
from scorpion_dev.server import Api, Client, Frame, ServerProcess, place_url


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


async def test_past_days_are_searched_one_at_a_time_once_each_and_limited_per_asker(
    tmp_path: Path,
) -> None:
    """Many hellos for many past days: one search process at a time (the daily deal pool's
    one worker), one search per day, every day opens; a player (and an address) may have
    only so many past days searched, then is refused ``rate-limited``."""
    limits = '{"past_dailies_burst": 6, "past_dailies_per_hour": 0.001}'
    args = ("--limits", limits, "--trusted-proxies", "127.0.0.1")
    server = ServerProcess(tmp_path / "d.db", daily_search="solver", args=args)
    server.start()
    assert server.proc is not None
    pid, peak, watching = server.proc.pid, 0, True

    async def watch() -> None:  # samples the server's search processes while it works
        nonlocal peak
        while watching:
            peak = max(peak, len(children(pid, b"search_worker")))
            await asyncio.sleep(0.002)

    watcher = asyncio.create_task(watch())
    try:
        async with Api(server.url) as api:
            _ada, ada = await api.new_player("Ada")
            _bo, bo = await api.new_player("Bo")
        today = dt.date.fromisoformat(utc_date(time.time()))
        days = [(today - dt.timedelta(days=n)).isoformat() for n in range(1, 8)]
        # Ada asks for six past days at once, each twice (two tabs): twelve hellos.
        welcomes = await asyncio.gather(*(open_day(server, ada, d) for d in days[:6] * 2))
        assert [w["daily"] for w in welcomes] == days[:6] * 2
        assert all(w["state"]["verified"] for w in welcomes)  # searched: proved winnable
        # Her seventh is one too many (her address's too), and closed to retry later.
        refused, code = await hello_once(server, ada, days[6])
        assert (refused["code"], code) == ("rate-limited", 1013), refused
        # Days already found cost nothing; from another address Bo may have the seventh.
        assert (await open_day(server, ada, days[0]))["daily"] == days[0]
        assert (await open_day(server, bo, days[6], "10.0.0.2"))["daily"] == days[6]
    finally:
        watching = False
        await watcher
        server.stop()
    assert peak == 1, f"{peak} search processes at once"
    log = server.log_path.read_text()
    for day in days:  # each day's deal was searched once, however many asked
        assert log.count(f"daily {day} ready") == 1, log


async def hello_once(
    server: ServerProcess, token: str, day: str, address: str | None = None
) -> tuple[Frame, int | None]:
    """One hello for ``day`` (from ``address`` by X-Forwarded-For): the welcome or refusal,
    and the close code when refused."""
    headers = {"X-Forwarded-For": address} if address else None
    client = await Client.connect(place_url(server.ws_url, daily=day), headers=headers)
    try:
        answer = await client.hello(token, timeout=60, daily=day)
        if answer["type"] == "welcome":
            return answer, None
        code, _reason = await client.closed()
        return answer, code
    finally:
        await client.close()


async def open_day(
    server: ServerProcess, token: str, day: str, address: str | None = None
) -> Frame:
    """The welcome to ``day``, retrying while the server says it is busy (as the client
    does on 1013: the daily deal pool holds two days of one player at a time)."""
    for _ in range(100):
        answer, code = await hello_once(server, token, day, address)
        if answer["type"] == "welcome":
            return answer
        assert (answer["code"], code) == ("busy", 1013), answer
        await asyncio.sleep(0.1)  # the client's backoff
    raise AssertionError(f"{day} never opened")
