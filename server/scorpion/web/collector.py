"""The garbage collector, tuned for thousands of long-lived sockets.

CPython's collector pauses the whole process for a time proportional to the objects it
walks. Each open socket holds about a hundred tracked objects (the ASGI coroutines, the
websocket protocol, its timers): with 10,000 sockets a full collection walks over a
million of them, 0.5-0.8 s on this machine, and every player's command waits behind it.
A young collection is not small either under load: its threshold counts objects born
*minus objects that died*, so while play replaces objects as fast as it makes them the
young generation grows to tens of thousands between collections (10-20 ms each).

The policy, run by :func:`collect`:

- young objects are collected on a clock (every :data:`YOUNG_EVERY` s), so each
  collection walks only what the last few tens of milliseconds made;
- every :data:`MIDDLE_EVERY` s what survived the young collections is collected once
  more, and what survives that is frozen (``gc.freeze``: no collection walks it again);
  a socket's objects, a game's, are frozen within a second of being made;
- frozen objects are still freed by reference counting; only garbage *cycles* among them
  wait for a *major* collection (unfreeze, collect all, freeze again), once an hour: the
  one long pause an hour. So what comes and goes must not leave cycles: a closed socket's
  did (websockets' parser, uvicorn's upgraded HTTP protocol: some 15 MB an hour in the
  soak) until web/ws_protocol.py and web/http_protocol.py ended them, and a closed room's
  did (a place and its helpers: 40 MB an hour) until race/place.py's weak back-references;
  a major after 7 minutes of the soak's traffic found none. A major on memory growth
  instead would fall in the middle of a crowd's arrival, for nothing.

``gc.get_freeze_count`` walks every frozen object: it is never called here.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

YOUNG_EVERY = 0.05  # seconds between young collections
MIDDLE_EVERY = 0.25  # seconds between middle-aged collections (their survivors frozen)
MAJOR_EVERY = 3600.0  # seconds between major collections


def freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """A ``gc.callbacks`` hook: after a middle-aged or full collection (also one CPython
    starts on its own), freeze what survived it."""
    if phase == "stop" and info["generation"] >= 1:
        gc.freeze()


def settle() -> None:
    """After start-up (what it built lives as long as the process): collect once and
    freeze it, and freeze whatever survives later middle-aged collections. Idempotent
    (tests start several apps in one process)."""
    gc.collect()
    gc.freeze()
    if freeze_survivors not in gc.callbacks:
        gc.callbacks.append(freeze_survivors)


def major() -> None:
    """Unfreeze, collect everything, freeze again."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


async def collect() -> None:
    """For ever: young collections every :data:`YOUNG_EVERY` s, middle-aged ones every
    :data:`MIDDLE_EVERY` s, a major one every :data:`MAJOR_EVERY` s."""
    young_per_middle = round(MIDDLE_EVERY / YOUNG_EVERY)
    next_major = time.monotonic() + MAJOR_EVERY
    while True:
        for _ in range(young_per_middle):
            await asyncio.sleep(YOUNG_EVERY)
            gc.collect(0)
        gc.collect(1)  # its survivors are frozen (freeze_survivors)
        if time.monotonic() >= next_major:
            major()
            next_major = time.monotonic() + MAJOR_EVERY
