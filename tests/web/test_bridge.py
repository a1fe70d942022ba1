"""The bridge, directly: records are written before anything of their batch is sent,
batches go out in order, a failed write acknowledges nothing, searches are handed on."""

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
from scorpion.store import Fenced, Write
from scorpion.web.bridge import Bridge
from scorpion.web.metrics import Metrics


class HeldStore:
    """A store whose writes wait until the test lets them through (or fail)."""

    def __init__(self) -> None:
        self.written: list[Sequence[Write]] = []
        self.release = asyncio.Event()
        self.fail = False
        self.error: Exception = OSError("disk full")  # what a failed write raises

    async def write(self, writes: Sequence[Write]) -> None:
        await self.release.wait()
        if self.fail:
            raise self.error
        self.written.append(writes)


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
