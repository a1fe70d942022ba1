"""The garbage collector, tuned for thousands of long-lived sockets and a busy race.

CPython's collector pauses the whole process for a time proportional to the objects it
walks. Each open socket holds about a hundred tracked objects (the ASGI coroutines, the
websocket protocol, its timers): with 10,000 sockets a full collection walks over a
million of them, 0.5-0.8 s on this machine, and every player's command waits behind it.

A young collection walks what is young *and alive*. Under a busy race that is each racer's
latest view and progress and the commands waiting for their commit: some 20,000 objects
with 400 racers in a closed loop, most of which die within 60 ms. Collected every 50 ms,
nearly all of them were walked once; and CPython's own trigger (700 objects born since
the last collection, deaths of older ones not counted below zero) walked that set again
about a hundred times a second, with a middle-aged collection every tenth (6.6 ms each):
14-17% of the server's CPU (docs/compiled.md, "A fifth pass"). Collected less often, most
of those objects are gone before anything walks them. A crowd's objects are not (each
arriving socket's live on): for them a longer wait would only make longer pauses.

The policy, run by :func:`collect` (:class:`Cadence`):

- young objects are collected on a clock, 50 to 250 ms apart (:data:`YOUNG_EVERY`): while
  what one young collection kept is mostly gone by the next, the wait doubles; while it
  lives on, the next collection is a middle-aged one (below), after the shortest wait;
  and after a pause over 10 ms (:data:`PAUSE_MOST`) the wait is halved.
  CPython's own trigger is raised to :data:`BACKSTOP` objects born between two
  collections, a burst's limit;
- at least every :data:`MIDDLE_EVERY` s what survived the young collections is collected
  once more, and what survives that is frozen (``gc.freeze``: no collection walks it again);
  a socket's objects, a game's, are frozen within a second of being made;
- frozen objects are still freed by reference counting; only garbage *cycles* among them
  wait for a *major* collection (unfreeze, collect all, freeze again), once an hour: the
  one long pause an hour. So what comes and goes must not leave cycles: a closed socket's
  did (websockets' parser, uvicorn's upgraded HTTP protocol: some 15 MB an hour in the
  soak) until web/ws_protocol.py and web/http_protocol.py ended them, and a closed room's
  did (a place and its helpers: 40 MB an hour) until race/place.py's weak back-references;
  a major after 7 minutes of the soak's traffic found none. A major on memory growth
  instead would fall in the middle of a crowd's arrival, for nothing.

Every collection's pause is observed in ``scorpion_gc_pause_seconds`` (/metrics).
``gc.get_freeze_count`` walks every frozen object: it is never called here.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from .metrics import Spread

YOUNG_EVERY = (0.05, 0.25)  # seconds between two collections: at least, at most
PAUSE_MOST = 0.01  # seconds: a longer pause halves the wait (the players' latency)
MIDDLE_EVERY = 1.0  # seconds between middle-aged collections at most (survivors frozen)
MAJOR_EVERY = 3600.0  # seconds between major collections
BACKSTOP = 100_000  # objects born between two ticks that start a young collection at once
NEVER = 1 << 30  # CPython's own trigger never goes past a young collection


class PauseTimer:
    """A ``gc.callbacks`` hook: every collection's pause, observed in ``spread``."""

    def __init__(self) -> None:
        self.spread: Spread | None = None
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif self.spread is not None:
            self.spread.observe(time.perf_counter() - self.started)


PAUSES = PauseTimer()
DEFAULT_THRESHOLDS = gc.get_threshold()  # CPython's, before settle()


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A ``gc.callbacks`` hook: after a middle-aged or full collection (also one CPython
    starts on its own), freeze what survived it."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


def settle(pauses: Spread | None = None) -> None:
    """After start-up (what it built lives as long as the process): collect once and
    freeze it, freeze whatever survives later middle-aged collections, leave young ones to
    :func:`collect` (up to :data:`BACKSTOP`) and time every pause into ``pauses``.
    Idempotent (tests start several apps in one process: the last one's ``pauses``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(BACKSTOP, NEVER, NEVER)
    PAUSES.spread = pauses
    for hook in (PAUSES, freeze_survivors):
        if hook not in gc.callbacks:
            gc.callbacks.append(hook)


def unsettle() -> None:
    """Undo :func:`settle` (tests): CPython's own thresholds and no hooks."""
    gc.set_threshold(*DEFAULT_THRESHOLDS)
    for hook in (PAUSES, freeze_survivors):
        while hook in gc.callbacks:
            gc.callbacks.remove(hook)
    gc.unfreeze()


def major() -> None:
    """Unfreeze, collect everything, freeze again."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


class Cadence:
    """When the clock collects next, and how deep, from what became of the last young
    collection's survivors and how long it paused (sans I/O: :func:`collect` feeds it).

    Most of them gone by the next tick (a busy race: views replaced, commands answered):
    wait twice as long, up to the longest of :data:`YOUNG_EVERY`, unless the pause was
    over :data:`PAUSE_MOST` (then half as long: the pause is every player's latency). Most
    still there (a crowd arriving, players at a move a second): freeze them now with a
    middle-aged collection and come back after the shortest wait, so no collection walks
    them again.

    >>> c = Cadence()
    >>> c.plan(0), c.collected(0, 0, 20_000, 0.002), c.plan(1_000), c.wait   # they died
    (0, None, 0, 0.1)
    >>> c.collected(0, 1_000, 21_000, 0.015), c.plan(2_000), c.wait   # died, a long pause
    (None, 0, 0.05)
    >>> c.collected(0, 2_000, 22_000, 0.002), c.plan(21_500), c.wait   # they lived on
    (None, 1, 0.05)
    """

    def __init__(self) -> None:
        self.wait = YOUNG_EVERY[0]
        self.promoted = 0  # objects the last young collection moved to the middle generation
        self.middle_after = 0  # the middle generation's size after it
        self.pause = 0.0  # seconds the last collection took

    def plan(self, middle_now: int) -> int:
        """The generation to collect now (0 or 1), the middle one holding ``middle_now``."""
        if not self.promoted:
            return 0
        gone = self.middle_after - middle_now
        shortest, longest = YOUNG_EVERY
        if 2 * gone >= self.promoted:
            longer = self.pause <= PAUSE_MOST
            self.wait = min(longest, 2 * self.wait) if longer else max(shortest, self.wait / 2)
            return 0
        self.wait = shortest
        return 1

    def collected(
        self, generation: int, middle_before: int, middle_after: int, pause: float
    ) -> None:
        """A collection of ``generation`` is done in ``pause`` s: the middle one went from
        ``middle_before`` objects to ``middle_after``."""
        self.promoted = max(0, middle_after - middle_before) if generation == 0 else 0
        self.middle_after = middle_after
        self.pause = pause


class Collections:
    """The collections :func:`collect` runs, fed with a clock's time (sans I/O: the
    server's event loop gives it ``time.monotonic()``, benchmarks/referee_speed.py its
    simulated clock): each :meth:`run` collects as the :class:`Cadence` says, middle-aged
    at least every :data:`MIDDLE_EVERY` s and a major every :data:`MAJOR_EVERY` s, and
    returns the wait until the next."""

    def __init__(self, now: float) -> None:
        self.cadence = Cadence()
        self.next_middle = now + MIDDLE_EVERY
        self.next_major = now + MAJOR_EVERY

    def run(self, now: float) -> float:
        middle = len(gc.get_objects(1))  # a list of them: a quarter of walking them, or less
        generation = self.cadence.plan(middle)
        if now >= self.next_middle:
            generation = 1
        started = time.perf_counter()
        gc.collect(generation)  # a middle-aged one's survivors are frozen (freeze_survivors)
        pause = time.perf_counter() - started
        if generation:
            self.next_middle = now + MIDDLE_EVERY
        self.cadence.collected(generation, middle, len(gc.get_objects(1)), pause)
        if now >= self.next_major:
            major()
            self.next_major = now + MAJOR_EVERY
        return self.cadence.wait


async def collect() -> None:
    """For ever: the :class:`Collections` on the event loop's clock."""
    collections = Collections(time.monotonic())
    wait = collections.cadence.wait
    while True:
        await asyncio.sleep(wait)
        wait = collections.run(time.monotonic())
