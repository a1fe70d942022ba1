"""The garbage collector's policy: young collections on a clock (CPython's own trigger
only past a burst), what survives a middle-aged collection frozen, a major collection
still reclaiming garbage cycles among frozen objects, every pause timed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from scorpion.web import collector
from scorpion.web.metrics import GC_BUCKETS, Spread


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


@pytest.fixture
def pauses() -> Iterator[Spread]:
    spread = Spread("pauses", "", GC_BUCKETS)
    collector.settle(spread)
    yield spread
    collector.unsettle()
    gc.collect()


@pytest.fixture
def policy(pauses: Spread) -> None:
    """The policy settled (its pauses timed into ``pauses``)."""


def test_settle_is_idempotent(policy: None) -> None:
    collector.settle()
    assert gc.callbacks.count(collector.freeze_survivors) == 1
    assert gc.callbacks.count(collector.PAUSES) == 1


def test_unsettle_gives_cpython_its_collector_back(policy: None) -> None:
    collector.unsettle()
    assert gc.get_threshold() == collector.DEFAULT_THRESHOLDS
    assert collector.PAUSES not in gc.callbacks and collector.freeze_survivors not in gc.callbacks


def test_young_objects_wait_for_the_clock_below_the_backstop(policy: None) -> None:
    """Thousands of objects born (CPython's own trigger: 700) start no collection: a
    garbage cycle made before them is still there until the clock's young collection."""
    node, alive = cycle()
    del node
    born = [[i] for i in range(10 * collector.DEFAULT_THRESHOLDS[0])]
    assert alive() is not None
    gc.collect(0)
    assert alive() is None
    del born


def test_every_pause_is_timed(pauses: Spread) -> None:
    before = sum(pauses.counts)
    gc.collect(0)
    gc.collect(1)
    assert sum(pauses.counts) == before + 2
    assert pauses.total > 0


def test_survivors_of_a_middle_aged_collection_are_frozen_and_a_major_frees_their_cycles(
    policy: None,
) -> None:
    node, alive = cycle()
    gc.collect(1)  # node survives (still referenced): frozen
    del node
    gc.collect()  # a full collection walks no frozen object: the cycle stays
    assert alive() is not None
    collector.major()
    assert alive() is None


def test_young_garbage_cycles_are_collected_without_a_major(policy: None) -> None:
    node, alive = cycle()
    del node
    gc.collect(0)
    assert alive() is None


async def test_the_collecting_loop_runs_majors(
    policy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(collector, "YOUNG_EVERY", (0.001, 0.001))
    monkeypatch.setattr(collector, "MIDDLE_EVERY", 0.002)
    monkeypatch.setattr(collector, "MAJOR_EVERY", 0.0)
    node, alive = cycle()
    gc.collect(1)
    del node
    task = asyncio.create_task(collector.collect())
    try:
        for _ in range(1000):  # bounded: a major comes after a couple of turns
            await asyncio.sleep(0.001)
            if alive() is None:
                break
        assert alive() is None
    finally:
        task.cancel()


async def test_what_lives_on_past_a_tick_is_frozen_at_the_next(
    policy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd's objects (here: lists kept) are frozen by the cadence, not after the
    middle-aged clock's second (set to an hour here)."""
    monkeypatch.setattr(collector, "YOUNG_EVERY", (0.001, 0.004))
    monkeypatch.setattr(collector, "MIDDLE_EVERY", 3600.0)
    frozen = gc.get_freeze_count()
    kept = [[i] for i in range(10_000)]
    task = asyncio.create_task(collector.collect())
    try:
        for _ in range(2000):  # bounded: a young collection, then a middle-aged one
            await asyncio.sleep(0.001)
            if gc.get_freeze_count() >= frozen + len(kept):
                break
        assert gc.get_freeze_count() >= frozen + len(kept)
    finally:
        task.cancel()


def test_the_collections_follow_the_clock_they_are_given(
    policy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Collections.run`` reads no clock of its own (a benchmark feeds it a simulated one):
    a young collection before ``MIDDLE_EVERY`` of that clock has passed, a middle-aged one
    (its survivors frozen) once it has, each returning the cadence's wait."""
    monkeypatch.setattr(collector, "MIDDLE_EVERY", 10.0)
    collections = collector.Collections(1000.0)
    frozen = gc.get_freeze_count()
    kept = [[i] for i in range(5_000)]
    assert collections.run(1000.0) == collections.cadence.wait  # young: they move up
    assert gc.get_freeze_count() < frozen + len(kept)
    collections.run(1010.0)  # the given clock says a middle-aged one is due
    assert gc.get_freeze_count() >= frozen + len(kept)
    assert collections.next_middle == 1020.0
