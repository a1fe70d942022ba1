"""The garbage collector's policy: what survives a middle-aged collection is frozen, and
a major collection still reclaims garbage cycles among frozen objects."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from scorpion.web import collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


@pytest.fixture
def policy() -> Iterator[None]:
    collector.settle()
    yield
    gc.callbacks.remove(collector.freeze_survivors)
    gc.unfreeze()
    gc.collect()


def test_settle_is_idempotent(policy: None) -> None:
    collector.settle()
    assert gc.callbacks.count(collector.freeze_survivors) == 1


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
    monkeypatch.setattr(collector, "YOUNG_EVERY", 0.001)
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
