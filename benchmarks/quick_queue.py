"""The quick race's queue under a crowd: players joining within a minute, placed in rooms.

    .venv/bin/python benchmarks/quick_queue.py [--players 1000] [--over 60] [--db URL]

A real ``scorpion serve`` (one process; SQLite unless ``--db`` names a PostgreSQL URL).
``--players`` players join the classic queue at random moments spread over ``--over``
seconds, then ask for their status every 1.5 s (as the browser does) until a room is
theirs. Prints, over the players placed: the time from joining to their room forming
(the status's ``waited``, the server's own clock: p50, p99, the longest), how long the
queue's requests took (p50, p99, measured by the clients), how many rooms formed and how
many were still waiting at the end (the remainder under 4 waits for the short wait).
The issue's goal: 1,000 players within a minute placed within 5 s each (p99).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import httpx  # noqa: E402
from benchmarks.load.servers import RAISED_LIMITS  # noqa: E402

from support.server import ServerProcess  # noqa: E402

POLL = 1.5


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def send(http: httpx.AsyncClient, method: str, token: str) -> httpx.Response:
    """One queue request; once more on a connection the server had just closed (keep-alive)."""
    headers = {"Authorization": f"Bearer {token}"}
    body = {"preset": "classic"} if method == "POST" else None
    try:
        return await http.request(method, "/api/quick", json=body, headers=headers)
    except httpx.TransportError:
        return await http.request(method, "/api/quick", json=body, headers=headers)


async def one_player(
    http: httpx.AsyncClient, token: str, delay: float, deadline: float, out: dict[str, list[float]]
) -> None:
    await asyncio.sleep(delay)
    started = time.perf_counter()
    r = await send(http, "POST", token)
    out["request"].append(time.perf_counter() - started)
    status = r.json()
    while status.get("room") is None and time.monotonic() < deadline:
        await asyncio.sleep(POLL)
        started = time.perf_counter()
        r = await send(http, "GET", token)
        out["request"].append(time.perf_counter() - started)
        status = r.json()
    if status.get("room"):
        out["placed"].append(float(status["waited"]))
        out["rooms"].append(hash(status["room"]))
    else:
        out["waiting"].append(1.0)


async def run(players: int, over: float, db: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(
            db or Path(folder) / "bench.db",
            args=("--limits", json.dumps(RAISED_LIMITS), "--log-level", "warning"),
        )
        server.start()
        try:
            limits = httpx.Limits(max_connections=200)
            async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
                tokens = []
                for i in range(players):
                    r = await http.post("/api/players", json={"name": f"Q{i}"})
                    tokens.append(r.json()["token"])
                out: dict[str, list[float]] = {
                    "placed": [],
                    "request": [],
                    "rooms": [],
                    "waiting": [],
                }
                deadline = time.monotonic() + over + 30
                await asyncio.gather(
                    *(one_player(http, t, random.uniform(0, over), deadline, out) for t in tokens)
                )
        finally:
            server.stop()
    placed, requests = out["placed"], out["request"]
    print(f"players {players} joining over {over:.0f} s ({'PostgreSQL' if db else 'SQLite'})")
    print(
        f"placed {len(placed)}: join to room p50 {statistics.median(placed):.2f} s, "
        f"p99 {pct(placed, 0.99):.2f} s, longest {max(placed):.2f} s"
    )
    print(
        f"queue requests {len(requests)}: p50 {statistics.median(requests) * 1000:.1f} ms, "
        f"p99 {pct(requests, 0.99) * 1000:.1f} ms"
    )
    print(f"rooms {len(set(out['rooms']))}, still waiting at the end {len(out['waiting'])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--over", type=float, default=60.0)
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: SQLite)")
    args = parser.parse_args()
    asyncio.run(run(args.players, args.over, args.db))


if __name__ == "__main__":
    main()
