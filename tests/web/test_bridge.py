"""The bridge, directly: records are written before anything of their batch is sent,
calls go out in order, those queued behind a commit are written in the next one together,
a failed write acknowledges nothing, searches are handed on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import orjson
import pytest

from scorpion.engine import Game
from scorpion.hub import LocalHub
from scorpion.race import (
    Close,
    HintSearch,
    Output,
    Persist,
    Referee,
    RoomClosed,
    SearchRequest,
    SearchTicket,
    Send,
)
from scorpion.store import Fenced, StoreError, Write
from scorpion.web.bridge import BATCH_MOST, Bridge
from scorpion.web.logs import CONN_ID
from scorpion.web.metrics import Metrics


class HeldStore:
    """A store whose commits wait until the test lets them through (or fail, whole or
    for the groups that write to a room of ``refuse``)."""

    def __init__(self) -> None:
        self.written: list[Sequence[Sequence[Write]]] = []  # the groups of each commit
        self.release = asyncio.Event()
        self.fail = False
        self.error: Exception = OSError("disk full")  # what a failed commit raises
        self.refuse: set[str] = set()

    async def write_each(self, groups: Sequence[Sequence[Write]]) -> list[StoreError | None]:
        await self.release.wait()
        if self.fail:
            raise self.error
        errors: list[StoreError | None] = [
            StoreError("refused") if {getattr(w, "room_id", "") for w in g} & self.refuse else None
            for g in groups
        ]
        self.written.append([g for g, e in zip(groups, errors, strict=True) if e is None])
        return errors


class Inbox:
    def __init__(self) -> None:
        self.frames: list[dict[str, object]] = []

    def deliver(self, frame: str) -> bool:
        self.frames.append(orjson.loads(frame))
        return True


def bridge_with(
    store: HeldStore,
) -> tuple[Bridge, Inbox, list[tuple[int, int]], list[SearchRequest]]:
    hub, inbox = LocalHub(), Inbox()
    hub.attach(1, inbox)
    closed: list[tuple[int, int]] = []
    searches: list[SearchRequest] = []
    bridge = Bridge(
        Referee(secret=b"s"),
        store,  # type: ignore[arg-type]
        hub,
        Metrics(),
        close=lambda conn, code, reason: closed.append((conn, code)),
        search=searches.append,
    )
    return bridge, inbox, closed, searches


def batch(n: int, persist: bool) -> list[Output]:
    out: list[Output] = [Persist(RoomClosed(f"r{n}", 0.0))] if persist else []
    out.append(Send((1,), {"type": "applied", "seq": n}))
    return out


async def test_nothing_is_sent_before_its_records_are_written() -> None:
    store = HeldStore()
    bridge, inbox, _, _ = bridge_with(store)
    first = asyncio.ensure_future(bridge.run(batch(1, persist=True)))
    second = asyncio.ensure_future(bridge.run(batch(2, persist=False)))  # nothing to write
    for _ in range(5):  # let both batches run as far as they can
        await asyncio.sleep(0)
    assert inbox.frames == []  # the second batch waits for the first one's write
    store.release.set()
    await asyncio.gather(first, second)
    assert [f["seq"] for f in inbox.frames] == [1, 2]
    assert len(store.written) == 1


async def test_calls_queued_behind_a_commit_are_written_together_and_sent_in_order() -> None:
    store = HeldStore()
    bridge, inbox, _, _ = bridge_with(store)
    first = bridge.submit(batch(1, persist=True), arrived=0.0)
    await asyncio.sleep(0)  # the flusher takes it: the next calls wait behind its commit
    queued = [bridge.submit(batch(n, persist=n != 3)) for n in (2, 3, 4)]
    assert first is not None and queued[0] is queued[1] is queued[2] is not first
    assert inbox.frames == []
    store.release.set()
    await bridge.settled()
    assert [len(groups) for groups in store.written] == [1, 2]  # two commits, not four
    assert [f["seq"] for f in inbox.frames] == [1, 2, 3, 4]
    assert first.done.done() and queued[0].done.done()
    assert sum(bridge.metrics.ack_seconds.counts) == 1  # the one call with its arrival


async def test_with_nothing_to_write_and_nothing_ahead_a_call_is_sent_at_once() -> None:
    store = HeldStore()
    bridge, inbox, _, _ = bridge_with(store)
    assert bridge.submit(batch(1, persist=False)) is None
    assert [f["seq"] for f in inbox.frames] == [1]
    assert bridge.submit([]) is None and store.written == []


async def test_a_call_refused_alone_closes_only_its_connections() -> None:
    store = HeldStore()
    store.refuse = {"r2"}
    other = Inbox()
    bridge, inbox, closed, _ = bridge_with(store)
    bridge.hub.attach(2, other)
    failed: list[set[str]] = []
    bridge.failed = failed.append
    bridge.submit(batch(1, persist=True))
    bridge.submit([Persist(RoomClosed("r2", 0.0)), Send((2,), {"type": "applied", "seq": 2})])
    bridge.submit(batch(3, persist=True))
    store.release.set()
    await bridge.settled()
    assert [f["seq"] for f in inbox.frames] == [1, 3] and other.frames == []
    assert closed == [(2, 1011)] and bridge.failures == 1
    assert failed == [{"r2"}]


async def test_a_full_batch_says_so() -> None:
    store = HeldStore()
    bridge, _, _, _ = bridge_with(store)
    bridge.submit(batch(0, persist=True))
    await asyncio.sleep(0)  # being written: the rest wait in the next batch
    full = []
    for n in range(1, BATCH_MOST + 1):
        waiting = bridge.submit(batch(n, persist=True))
        assert waiting is not None
        full.append(waiting.full)
    assert full == [False] * (BATCH_MOST - 1) + [True]  # its last reader waits for it
    store.release.set()
    await bridge.settled()
    assert [len(groups) for groups in store.written] == [1, BATCH_MOST]


async def test_a_failed_write_acknowledges_nothing_and_closes_the_connections() -> None:
    store = HeldStore()
    store.fail = True
    store.release.set()
    bridge, inbox, closed, _ = bridge_with(store)
    await bridge.run([*batch(1, persist=True), Close(1, 4000, "x")])
    assert inbox.frames == [] and closed == [(1, 1011)]
    assert bridge.failures == 1


async def test_search_requests_are_handed_to_the_pool_after_the_batch() -> None:
    store = HeldStore()
    store.release.set()
    bridge, inbox, _, searches = bridge_with(store)
    request = HintSearch(SearchTicket("r", 1, "p", 3, "hint"), Game.new(1, "classic"))
    await bridge.run([*batch(1, persist=True), request])
    assert searches == [request] and [f["seq"] for f in inbox.frames] == [1]


async def test_drain_waits_for_pending_batches() -> None:
    store = HeldStore()
    bridge, inbox, _, _ = bridge_with(store)
    pending = asyncio.ensure_future(bridge.run(batch(1, persist=True)))
    await asyncio.sleep(0)
    asyncio.get_running_loop().call_later(0.01, store.release.set)
    await bridge.drain(timeout=10)
    assert [f["seq"] for f in inbox.frames] == [1]
    await pending


@pytest.mark.parametrize("fenced", [True, False])
async def test_a_fenced_write_is_one_warning_line_other_failures_an_error(
    caplog: pytest.LogCaptureFixture, fenced: bool
) -> None:
    store = HeldStore()
    store.fail = True
    if fenced:  # expected with several processes: the place is another's now
        store.error = Fenced("'r1' is owned elsewhere now (token 7, not 6)")
    store.release.set()
    bridge, inbox, closed, _ = bridge_with(store)
    caplog.set_level(logging.INFO, "scorpion.web")
    await bridge.run(batch(1, persist=True))
    assert inbox.frames == [] and closed == [(1, 1011)]  # refused alike
    [record] = [r for r in caplog.records if "not written" in r.getMessage()
                or "could not persist" in r.getMessage()]  # fmt: skip
    if fenced:
        assert record.levelno == logging.WARNING and record.exc_info is None
        assert record.getMessage() == (
            "1 records not written: 'r1' is owned elsewhere now (token 7, not 6); "
            "closing their connections"
        )
    else:
        assert record.levelno == logging.ERROR and record.exc_info is not None


async def test_the_flusher_runs_in_no_callers_context() -> None:
    """Its log lines carry no connection's id (web/logs.py): it sends for all of them."""
    store = HeldStore()
    store.fail = True
    store.release.set()
    bridge, _, _, _ = bridge_with(store)
    seen: list[int | None] = []
    bridge.failed = lambda keys: seen.append(CONN_ID.get())  # called by the flusher
    CONN_ID.set(7)  # the connection whose command starts the flusher
    await bridge.run(batch(1, persist=True))
    assert seen == [None] and CONN_ID.get() == 7
