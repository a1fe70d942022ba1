"""Daily deals: found off the event loop, kept in the store, installed in the referee.

Finding a day's deal can mean a solver search of many seconds. It runs in a
search worker process of its own (a thread would still take the GIL from the event
loop), once per day: the answer is saved, so restarts and later requests reuse it and the
day's deal never changes even if the solver does. Today's and tomorrow's deals
are prepared in the background so nobody waits at midnight.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable

from scorpion.race import DealFound, DealSearch, RaceError, Referee, SearchTicket
from scorpion.race.daily import DAILY_PRESET, check_date, daily_seed, utc_date
from scorpion.race.protocol import daily_key
from scorpion.store import SaveDaily, Store

from .searches import Worker

log = logging.getLogger("scorpion.web")

DAILY_NODES = 20_000  # per deal tried (about 0.4 s); undecided deals are passed over
DAILY_LIMIT = 100  # deals tried before settling for an unverified one


def daily_search(date: str, secret: bytes) -> DealSearch:
    """The search for the date's deal: the first winnable deal from its seed."""
    ticket = SearchTicket(daily_key(date), 0, "", 0, "daily")
    return DealSearch(ticket, DAILY_PRESET, daily_seed(secret, date), DAILY_NODES, DAILY_LIMIT)


def unverified_deal(secret: bytes, date: str) -> tuple[int, bool]:
    """The date's deal without a winnable search (``--daily-search none``)."""
    return daily_seed(secret, date), False


def on_loop_fallback(secret: bytes) -> Callable[[str, int], tuple[int, bool]]:
    """The referee's deal for a daily nobody prepared: unverified, and logged as a bug
    (:meth:`DailyDeals.ensure` installs every daily before the referee needs it)."""

    def fallback(date: str, seed: int) -> tuple[int, bool]:
        log.error("daily %s was not prepared: using its unverified deal", date)
        return seed, False

    return fallback


class DailyDeals:
    def __init__(self, referee: Referee, store: Store, secret: bytes, search: str) -> None:
        """``search``: "solver" (a winnable deal, searched in a worker process) or "none"
        (the seed itself, unverified: instant)."""
        if search not in ("solver", "none"):
            raise ValueError(f"daily search must be 'solver' or 'none', not {search!r}")
        self.referee = referee
        self.store = store
        self.secret = secret
        self.solver = search == "solver"
        self.searches = 0  # searches run (each day's deal is searched at most once)
        self._jobs: dict[str, asyncio.Future[tuple[int, bool]]] = {}
        self._workers: set[Worker] = set()

    async def deal(self, date: str) -> tuple[int, bool]:
        """The date's (deal, verified): from the store, or searched once and saved."""
        stored = await self.store.daily_deal(date)
        if stored is not None:
            return stored
        job = self._jobs.get(date)
        if job is None:
            job = asyncio.ensure_future(self._find(date))
            self._jobs[date] = job
            job.add_done_callback(lambda _: self._jobs.pop(date, None))
        return await asyncio.shield(job)

    async def _find(self, date: str) -> tuple[int, bool]:
        started = time.monotonic()
        self.searches += 1
        if self.solver:
            deal, verified = await self._search(date)
        else:
            deal, verified = unverified_deal(self.secret, date)
        await self.store.write([SaveDaily(date, deal, verified)])
        log.info(
            "daily %s ready in %.1f s (verified: %s)", date, time.monotonic() - started, verified
        )
        stored = await self.store.daily_deal(date)  # the first one saved wins
        return stored if stored is not None else (deal, verified)

    async def ensure(self, date: object, recorded: int | None = None) -> None:
        """Install the date's daily in the referee before it is used (hello, summary, restore).

        ``recorded``: the deal the log's attempts were played on; it wins over a new search.
        Dates the referee refuses are left alone (it answers them itself).
        """
        if not isinstance(date, str) or date in self.referee.dailies:
            return
        try:
            date = check_date(date, time.time())
        except RaceError:
            return
        deal, verified = await self.deal(date)
        if recorded is not None and recorded != deal:
            log.warning(
                "daily %s: the log's deal differs from the saved one; keeping the log's", date
            )
            deal, verified = recorded, False
        self.referee.prepare_daily(date, deal, verified)

    async def prepare_ahead(self) -> None:
        """Keep today's and tomorrow's deals saved (checked every 10 minutes)."""
        while True:
            today = dt.date.fromisoformat(utc_date(time.time()))
            for day in (today, today + dt.timedelta(days=1)):
                try:
                    await self.deal(day.isoformat())
                except Exception:
                    log.exception("could not prepare the daily of %s", day)
            await asyncio.sleep(600)

    async def _search(self, date: str) -> tuple[int, bool]:
        worker = await Worker.start()
        self._workers.add(worker)
        try:
            found = await worker.ask(daily_search(date, self.secret))
        except (OSError, EOFError, asyncio.IncompleteReadError) as exc:
            raise RuntimeError(f"the daily deal search for {date} was interrupted") from exc
        finally:
            self._workers.discard(worker)
            await worker.stop()
        assert isinstance(found, DealFound)
        return found.deal, found.verified

    def close(self) -> None:
        for job in list(self._jobs.values()):
            job.cancel()
        for worker in self._workers:  # a search can run for a minute: end it, not wait
            worker.kill()
