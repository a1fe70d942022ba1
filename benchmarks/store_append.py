"""The cost of one log append at the start of a daily's log and after 100,000 entries.

    .venv/bin/python benchmarks/store_append.py [--db postgresql://...] [--entries 100000]

A daily's log holds every player's moves of the day, so an append must not cost more
as the day goes on. Each figure is the median over ``--runs`` runs of ``--appends``
appends, each its own ``store.write`` awaited before the next (one commit each: the
cost a lone player's move pays). Without --db, a SQLite file in a temporary folder;
with a postgresql:// URL, that (empty) database.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from scorpion.store import AppendLog, OpenRoom, Store, open_store

ROOM = "daily:2026-12-01"
ENTRY = {"kind": "action", "room": ROOM, "player": "p" * 12, "action": "4H>7", "at": 1.5}


async def append_cost(store: Store, appends: int, runs: int) -> float:
    """Median microseconds of one awaited append."""
    figures = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(appends):
            await store.write([AppendLog(ROOM, ENTRY)])
        figures.append((time.perf_counter() - start) / appends * 1e6)
    return statistics.median(figures)


async def fill(store: Store, entries: int, batch: int = 1000) -> None:
    for done in range(0, entries, batch):
        await store.write([AppendLog(ROOM, ENTRY)] * min(batch, entries - done))


async def main(db: str, entries: int, appends: int, runs: int) -> None:
    store = open_store(db)
    await store.open()
    try:
        await store.write([OpenRoom(ROOM, None, {}, reopen=True)])
        first = await append_cost(store, appends, runs)
        await fill(store, entries)
        later = await append_cost(store, appends, runs)
    finally:
        await store.close()
    name = "postgresql" if "://" in db else "sqlite"
    print(f"{name}: one append at the start of the log   {first:8.0f} µs (median of {runs})")
    print(f"{name}: one append after {entries:,} entries {later:8.0f} µs (median of {runs})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a postgresql:// URL (default: a temporary SQLite file)")
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "bench.db")
        asyncio.run(main(db, args.entries, args.appends, args.runs))
