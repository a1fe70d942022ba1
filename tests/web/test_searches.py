"""The search pool: real worker processes, answers fed back, unwanted searches skipped,
a full queue answered busy, a dead worker replaced."""

from __future__ import annotations

import asyncio
import os
import signal

from scorpion.engine import Game
from scorpion.race import (
    AutoFound,
    AutoSearch,
    DealSearch,
    SearchAnswer,
    SearchFailed,
    SearchTicket,
)
from scorpion.race.search_queue import ShareLimits
from scorpion.web.search_worker import run_search
from scorpion.web.searches import SearchPool
from support.processes import children


def ticket(seq: int, command: str = "auto") -> SearchTicket:
    return SearchTicket("room1", 1, "p1", seq, command)


class Answers:
    def __init__(self) -> None:
        self.got: list[SearchAnswer] = []
        self.arrived = asyncio.Event()

    async def __call__(self, answer: SearchAnswer) -> None:
        self.got.append(answer)
        self.arrived.set()

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(60):
            while len(self.got) < count:
                self.arrived.clear()
                await self.arrived.wait()


async def test_a_worker_answers_like_the_search_itself() -> None:
    answers = Answers()
    pool = SearchPool(answers, lambda t: True, workers=1)
    pool.start()
    try:
        auto = AutoSearch(ticket(1), Game.new(6, "classic"))
        deal = DealSearch(ticket(2, "start"), "classic", 100, 5_000, 10)
        pool.submit(auto)
        pool.submit(deal)
        await answers.wait_for(2)
        assert answers.got == [run_search(auto), run_search(deal)]
        assert isinstance(answers.got[0], AutoFound) and answers.got[0].verdict == "won"
        assert pool.done == 2 and pool.running == 0
    finally:
        await pool.close()


async def test_unwanted_searches_are_skipped_and_a_full_queue_answers_busy() -> None:
    answers = Answers()
    unwanted = {ticket(2)}
    share = ShareLimits(per_player=2)
    pool = SearchPool(answers, lambda t: t not in unwanted, workers=1, limits=share)
    # Not started yet: requests wait in the queue; the player holds two at most.
    for seq in (1, 2, 3, 4):
        pool.submit(AutoSearch(ticket(seq), Game.new(6, "classic")))
    await answers.wait_for(2)  # 3 and 4 were over the player's share: answered busy at once
    assert [(type(a), a.ticket.seq) for a in answers.got] == [(SearchFailed, 3), (SearchFailed, 4)]
    pool.start()
    try:
        await answers.wait_for(3)
        assert [a.ticket.seq for a in answers.got[2:]] == [1]
        assert pool.skipped == 1 and pool.refused == 2
    finally:
        await pool.close()


async def test_a_dead_worker_fails_its_search_and_is_replaced() -> None:
    answers = Answers()
    pool = SearchPool(answers, lambda t: True, workers=1)
    pool.start()
    try:
        pool.submit(AutoSearch(ticket(1), Game.new(6, "classic")))
        await answers.wait_for(1)
        before = _worker_pids()
        assert len(before) == 1
        # A long search (relaxed deal 1 has no quick verdict), then kill its worker.
        pool.submit(AutoSearch(ticket(2), Game.new(1, "relaxed"), max_nodes=10_000_000))
        async with asyncio.timeout(30):
            while pool.running == 0:
                await asyncio.sleep(0.01)
        os.kill(before[0], signal.SIGKILL)
        await answers.wait_for(2)
        assert isinstance(answers.got[1], SearchFailed) and answers.got[1].ticket.seq == 2
        pool.submit(AutoSearch(ticket(3), Game.new(6, "classic")))
        await answers.wait_for(3)
        assert isinstance(answers.got[2], AutoFound)
        assert _worker_pids() and _worker_pids() != before
    finally:
        await pool.close()
    async with asyncio.timeout(10):
        while _worker_pids():
            await asyncio.sleep(0.05)


def _worker_pids() -> list[int]:
    """Live search workers that are children of this process."""
    return children(os.getpid(), b"search_worker")
