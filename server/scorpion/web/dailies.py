"""Daily deals: found off the event loop, kept in the store, installed in the referee.

Finding a day's deal can mean a solver search of many seconds. It runs in a
separate process (a thread would still take the GIL from the event loop), once
per day: the answer is saved, so restarts and later requests reuse it and the
day's deal never changes even if the solver does. Today's and tomorrow's deals
are prepared in the background so nobody waits at midnight.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from scorpion.race import RaceError, Referee
from scorpion.race.daily import check_date, daily_deal, daily_seed, utc_date
from scorpion.store import SaveDaily, Store

log = logging.getLogger("scorpion.web")

Search = Callable[[bytes, str], tuple[int, bool]]


def _worker_init() -> None:
    # Ctrl+C reaches the whole process group: the server shuts the worker down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def unverified_deal(secret: bytes, date: str) -> tuple[int, bool]:
    """The date's deal without a winnable search (``--daily-search none``)."""
    return daily_seed(secret, date), False


SEARCHES: dict[str, Search] = {"solver": daily_deal, "none": unverified_deal}


def on_loop_fallback(secret: bytes) -> Callable[[str, int], tuple[int, bool]]:
    """The referee's own deal search, which would run on the event loop: never wanted.

    :meth:`DailyDeals.ensure` installs every daily before the referee needs it; if some
    path still reaches the referee's search, answer at once (unverified) and say so.
    """

    def fallback(date: str, seed: int) -> tuple[int, bool]:
        log.error("daily %s was not prepared: using its unverified deal", date)
        return seed, False

    return fallback


class DailyDeals:
    def __init__(
        self, referee: Referee, store: Store, secret: bytes, search: str, pool: bool | None = None
    ) -> None:
        """``search``: a name of SEARCHES; ``pool``: run it in the worker process (the
        default except for "none", which is instant)."""
        self.referee = referee
        self.store = store
        self.secret = secret
        self.search = SEARCHES[search]
        self.pool = search != "none" if pool is None else pool
        self.searches = 0  # searches run (each day's deal is searched at most once)
        self._executor: Executor | None = None
        self._jobs: dict[str, asyncio.Future[tuple[int, bool]]] = {}

    def _pool(self) -> Executor:
        if self._executor is None:
            # spawn: forking a process that runs threads (the store's) is unsafe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_worker_init
            )
        return self._executor

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
        if not self.pool:
            deal, verified = self.search(self.secret, date)
        else:
            loop = asyncio.get_running_loop()
            try:
                deal, verified = await loop.run_in_executor(
                    self._pool(), self.search, self.secret, date
                )
            except BrokenProcessPool:
                self._executor = None  # the worker died: the next search starts another
                raise RuntimeError(f"the daily deal search for {date} was interrupted") from None
            except (KeyboardInterrupt, SystemExit) as exc:  # raised in the worker, not here
                raise RuntimeError(f"the daily deal search for {date} stopped: {exc!r}") from None
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

    def close(self) -> None:
        for job in list(self._jobs.values()):
            job.cancel()
        executor, self._executor = self._executor, None
        if executor is not None:
            # A search can run for a minute: end its process rather than wait for it.
            for process in list(getattr(executor, "_processes", {}).values()):
                process.terminate()
            executor.shutdown(wait=False, cancel_futures=True)
