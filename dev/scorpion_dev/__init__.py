"""The processes the tests and the benchmarks start, in temporary folders on 127.0.0.1:
``scorpion serve`` and its clients (:mod:`.server`), a PostgreSQL cluster (:mod:`.postgres`),
redis-server and nginx (:mod:`.services`), and what several of them share (:mod:`.failover`,
:mod:`.replays`, :mod:`.processes`).

A package of its own (dev/, installed by ``make`` into the dev venv only): the tests and the
benchmarks import one copy, neither imports the other's folder, and the runtime package
(what ``pip install .`` ships) holds none of it.
"""

from __future__ import annotations

_refusal: str | None = None


def refuse_starts(reason: str | None) -> None:
    """From now on, fail whoever starts a process here, saying ``reason`` (None: allow).
    The test suite's fast tier (tests/support/tier.py) sets it."""
    global _refusal
    _refusal = reason


def starting(what: str) -> None:
    """Called before a process starts: raises when :func:`refuse_starts` said so."""
    if _refusal is not None:
        raise RuntimeError(f"{what} started {_refusal}")
