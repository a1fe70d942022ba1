"""Daily deals: found off the event loop, kept in the store, installed in the referee.

Finding a day's deal can mean a solver search of many seconds. It runs in the daily
deal pool (a :class:`~.searches.SearchPool` of one worker process of its own, so a long
search never holds up a hint), once per day: the answer is saved, so restarts and later
requests reuse it and the day's deal never changes even if the solver does. Many hellos
for one day wait for its one search. Today's and tomorrow's deals are prepared in the
background so nobody waits at midnight.

Past days cost a search each (366 of them can be asked for), so they are bounded: a
player, and a client address, may have ``past_dailies_burst`` past days searched at once
and ``past_dailies_per_hour`` more each hour (:class:`DailyRefused` ``rate-limited``);
at most ``daily_searches_queued`` days wait for the worker (``busy``: retry shortly).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Callable
from typing import NamedTuple

from scorpion.race import DealFound, RaceError, Referee, SearchAnswer
from scorpion.race.daily import check_date, daily_search, daily_seed, utc_date
from scorpion.race.protocol import daily_key, date_of
from scorpion.race.search_queue import UNLIMITED, ShareLimits
from scorpion.store import SaveDaily, Store

from .config import Limits
from .limits import KeyedBuckets
from .searches import SearchPool

log = logging.getLogger("scorpion.web")

DAILY_WAIT = 30.0  # seconds a day may wait for the worker (a hello is closed silent at 60)


class Asker(NamedTuple):
    """Who asked for a day (a hello): their past days are counted against them."""

    player: str
    address: str


class DailyRefused(RaceError):
    """A day's deal that will not be searched now: ``busy`` or ``rate-limited``."""


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
    def __init__(
        self,
        referee: Referee,
        store: Store,
        secret: bytes,
        search: str,
        limits: Limits | None = None,
    ) -> None:
        """``search``: "solver" (a winnable deal, searched in a worker process) or "none"
        (the seed itself, unverified: instant)."""
        if search not in ("solver", "none"):
            raise ValueError(f"daily search must be 'solver' or 'none', not {search!r}")
        limits = limits or Limits()
        self.referee = referee
        self.store = store
        self.secret = secret
        self.solver = search == "solver"
        self.searches = 0  # searches run (each day's deal is searched at most once)
        self._jobs: dict[str, asyncio.Future[tuple[int, bool]]] = {}
        self._answers: dict[str, asyncio.Future[SearchAnswer]] = {}  # by daily key
        share = ShareLimits(
            per_player=2,
            per_address=4,
            max_queued=limits.daily_searches_queued,
            max_wait=DAILY_WAIT,
        )
        self.pool = SearchPool(self._answered, lambda ticket: True, workers=1, limits=share)
        rate, burst = limits.past_dailies_per_hour / 3600, limits.past_dailies_burst
        self.past_by_player = KeyedBuckets(rate, burst)
        self.past_by_address = KeyedBuckets(rate, burst)

    async def deal(self, date: str, asker: Asker | None = None) -> tuple[int, bool]:
        """The date's (deal, verified): from the store, or searched once and saved.
        ``asker``: the player who asked (a hello), whose past days are limited; DailyRefused
        when theirs is spent or the queue is full."""
        stored = await self.store.daily_deal(date)
        if stored is not None:
            return stored
        job = self._jobs.get(date)
        if job is None:
            if asker is not None and date == utc_date(time.time()):
                asker = None  # today's deal is the server's to find: it counts against nobody
            if asker is not None:
                self._count_past_day(asker)
            job = asyncio.ensure_future(self._find(date, asker))
            self._jobs[date] = job
            job.add_done_callback(lambda _: self._jobs.pop(date, None))
        return await asyncio.shield(job)

    def _count_past_day(self, asker: Asker) -> None:
        if not self.past_by_player.take(asker.player):
            raise self._too_many()
        if not self.past_by_address.take(asker.address):
            self.past_by_player.give_back(asker.player)
            raise self._too_many()

    @staticmethod
    def _too_many() -> DailyRefused:
        return DailyRefused(
            "rate-limited",
            "You asked for many past dailies: play those, or try again in an hour",
        )

    async def _find(self, date: str, asker: Asker | None) -> tuple[int, bool]:
        started = time.monotonic()
        if self.solver:
            deal, verified = await self._search(date, asker)
        else:
            deal, verified = unverified_deal(self.secret, date)
        self.searches += 1
        await self.store.write([SaveDaily(date, deal, verified)])
        log.info(
            "daily %s ready in %.1f s (verified: %s)", date, time.monotonic() - started, verified
        )
        stored = await self.store.daily_deal(date)  # the first one saved wins
        return stored if stored is not None else (deal, verified)

    async def ensure(
        self, date: object, recorded: int | None = None, asker: Asker | None = None
    ) -> None:
        """Install the date's daily in the referee before it is used (hello, summary, restore).

        ``recorded``: the deal the log's attempts were played on; it wins over a new search.
        ``asker``: see :meth:`deal`. Dates the referee refuses are left alone (it answers
        them itself).
        """
        if not isinstance(date, str) or date in self.referee.dailies:
            return
        try:
            date = check_date(date, time.time())
        except RaceError:
            return
        deal, verified = await self.deal(date, asker)
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

    async def _search(self, date: str, asker: Asker | None) -> tuple[int, bool]:
        """The date's deal from the daily deal pool (started on first use)."""
        if not self.pool.started:
            self.pool.start()
        key = daily_key(date)
        answer = self._answers[key] = asyncio.get_running_loop().create_future()
        try:
            request = daily_search(date, self.secret, asker.player if asker else UNLIMITED)
            queued = self.pool.submit(request, asker.address if asker else UNLIMITED)
            if not queued and asker is not None:  # refused: it cost the asker no past day
                self.past_by_player.give_back(asker.player)
                self.past_by_address.give_back(asker.address)
            found = await answer
        finally:
            self._answers.pop(key, None)
        if not isinstance(found, DealFound):
            log.warning("the deal search of daily %s did not run: %s", date, found)
            raise DailyRefused("busy", "Many past dailies are being prepared: retry in a minute")
        return found.deal, found.verified

    async def _answered(self, answer: SearchAnswer) -> None:
        waiting = self._answers.get(answer.ticket.place)
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)
        elif date_of(answer.ticket.place) is None:
            log.error("a daily deal answer for %r, which is no daily", answer.ticket)

    async def close(self) -> None:
        """Stop the searches (one can run for a minute: ended, not waited for)."""
        for job in list(self._jobs.values()):
            job.cancel()
        await self.pool.close()
