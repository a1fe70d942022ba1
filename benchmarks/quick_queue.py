"""The quick race's queue under a crowd, beside racers in rooms on the same server.

    .venv/bin/python benchmarks/quick_queue.py [--players 1000] [--over 60] [--db URL]

A real ``scorpion serve`` (one process; SQLite unless ``--db`` names a PostgreSQL URL),
started as the load benchmark starts it (benchmarks/load/servers.py, limits raised).
Client processes as in benchmarks/load (its workers and its ``racers`` role, reused):

- ``--racers`` racers in rooms of 4 replay solver-proved winning lines, paced at
  ``--rate`` commands/s each, through two windows: ``--baseline`` seconds alone, then
  ``--over`` seconds beside the crowd;
- the crowd (a process of its own): ``--players`` players join the classic queue at
  random moments spread over the second window, then ask for their status every 1.5 s
  (as the browser does) until a room is theirs (at most ``GRACE`` s after the window).

Prints, over the players placed: the time from joining to their room forming (the
status's ``waited``, the server's own clock: p50, p99, the longest), how long the queue's
requests took (client-measured), how many rooms formed and how many still waited at the
end; and the racers' acknowledgement latency (writing a command to reading its answer)
p50/p99 in each window, with the server's CPU. The issue's goal: 1,000 players within a
minute placed within 5 s each (p99), the other acknowledgements under 25 ms p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import httpx  # noqa: E402
from benchmarks.load.clients import Record, gather_bounded, new_player, sleep_until  # noqa: E402
from benchmarks.load.phases import split, winning_lines  # noqa: E402
from benchmarks.load.report import Row, measure, percentile  # noqa: E402
from benchmarks.load.servers import ServerProcess  # noqa: E402
from benchmarks.load.workers import Ready, Result, role, run  # noqa: E402

POLL = 1.5  # seconds between status requests, as the browser client asks
BUCKET = 10.0  # seconds: the racers' p99 over time, to see when it moves
GRACE = 30.0  # seconds after the crowd's window a player may still wait to be placed


async def send(http: httpx.AsyncClient, method: str, token: str) -> httpx.Response:
    """One queue request; once more on a connection the server had just closed (keep-alive)."""
    headers = {"Authorization": f"Bearer {token}"}
    body = {"preset": "classic"} if method == "POST" else None
    try:
        return await http.request(method, "/api/quick", json=body, headers=headers)
    except httpx.TransportError:
        return await http.request(method, "/api/quick", json=body, headers=headers)


async def one_player(
    http: httpx.AsyncClient, token: str, at: float, deadline: float, out: dict[str, list[Any]]
) -> None:
    """Join at ``at`` (wall clock), then poll until placed or ``deadline``."""
    await sleep_until(at)
    started = time.perf_counter()
    r = await send(http, "POST", token)
    out["request"].append(time.perf_counter() - started)
    status = r.json()
    while status.get("room") is None and time.time() < deadline:
        await asyncio.sleep(POLL)
        started = time.perf_counter()
        r = await send(http, "GET", token)
        out["request"].append(time.perf_counter() - started)
        status = r.json()
    if status.get("room"):
        out["placed"].append(float(status["waited"]))
        out["rooms"].append(status["room"])
    else:
        out["waiting"].append(1)


@role("quick-crowd")
async def quick_crowd(spec: dict[str, Any], record: Record, ready: Ready) -> None:
    """Players made over HTTP during setup; they join the queue within the ``crowd`` window."""
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(base_url=spec["http"], timeout=60, limits=limits) as http:
        players = await gather_bounded([new_player(http, f"Q{i}") for i in range(spec["players"])])
        go = await ready()
        t0, t1 = go["windows"]["crowd"]
        out: dict[str, list[Any]] = {"placed": [], "request": [], "rooms": [], "waiting": []}
        await asyncio.gather(
            *(
                one_player(http, token, random.uniform(t0, t1), t1 + GRACE, out)
                for _, token in players
            )
        )
    record.extra.append({"crowd": out})


def racer_parts(args: argparse.Namespace, server: ServerProcess) -> list[tuple[str, Any]]:
    """The racers' client processes (benchmarks/load's ``racers`` role): whole rooms each."""
    lines = winning_lines()
    parts, first = [], 0
    for count in split(max(1, args.racers // 4), args.workers):
        spec = {"url": server.ws_url, "http": server.url, "rooms": count, "first": first,
                "room_size": 4, "lines": lines, "mode": "paced", "rate": args.rate,
                "script": "line", "undo_every": 8, "window": "all"}  # fmt: skip
        parts.append(("racers", spec))
        first += count
    return parts


def racer_line(row: Row) -> str:
    cpu = f"{row.server_cpu:.2f}" if row.server_cpu is not None else "?"
    return (
        f"{row.what}: {row.offered} commands, acked {row.acked}, refused {row.refused}, "
        f"unanswered {row.unanswered}, dropped {row.dropped}; ack p50 {row.p50 or 0:.1f} ms, "
        f"p99 {row.p99 or 0:.1f} ms, worst {row.worst or 0:.1f} ms; server CPU {cpu} cores"
    )


def by_bucket(result: Result) -> list[str]:
    """The racers' ack p99 in each ``BUCKET`` seconds of the run (the crowd's from ``|``)."""
    go = result.extra[-1]["go"]
    start, crowd = go["start"], go["windows"]["crowd"][0]
    buckets: dict[int, list[float]] = {}
    for group, sent, latency, _ in result.samples:
        if group == "racer" and latency is not None:
            buckets.setdefault(int((sent - start) // BUCKET), []).append(latency * 1000)
    marks = []
    for index in sorted(buckets):
        at = "|" if start + index * BUCKET == crowd else ""
        marks.append(f"{at}{percentile(buckets[index], 0.99):.0f}")
    return marks


def report(args: argparse.Namespace, result: Result) -> None:
    crowd = next(e["crowd"] for e in result.extra if "crowd" in e)
    placed, requests = crowd["placed"], crowd["request"]
    racers = max(1, args.racers // 4) * 4
    print(
        f"players {args.players} joining over {args.over:.0f} s "
        f"({'PostgreSQL' if args.db else 'SQLite'}), beside {racers} racers "
        f"in rooms of 4 at {args.rate:g} commands/s"
    )
    if placed:
        print(
            f"placed {len(placed)}: join to room p50 {statistics.median(placed):.2f} s, "
            f"p99 {percentile(placed, 0.99):.2f} s, longest {max(placed):.2f} s"
        )
    if requests:
        print(
            f"queue requests {len(requests)}: p50 {statistics.median(requests) * 1000:.1f} ms, "
            f"p99 {percentile(requests, 0.99) * 1000:.1f} ms"
        )
    print(f"rooms {len(set(crowd['rooms']))}, still waiting at the end {len(crowd['waiting'])}")
    for window, what in (("baseline", "racers alone"), ("crowd", "racers beside the crowd")):
        row = measure(result, "quick", what, window, "racer", racers, True)
        print(racer_line(row))
    print(f"racers' ack p99 by {BUCKET:.0f} s (ms): {' '.join(by_bucket(result))}")
    lag = percentile(result.send_lag, 0.99) * 1000 if result.send_lag else 0.0
    cpu = ", ".join(f"{w} {max(c):.2f}" for w, c in result.client_cpu.items() if w != "all")
    print(f"clients: paced sends late p99 {lag:.1f} ms; busiest client process, cores: {cpu}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--over", type=float, default=60.0, help="the crowd's window (s)")
    parser.add_argument("--racers", type=int, default=200, help="in rooms of 4")
    parser.add_argument("--rate", type=float, default=5.0, help="commands/s per racer")
    parser.add_argument("--baseline", type=float, default=30.0, help="racers alone first (s)")
    parser.add_argument("--workers", type=int, default=2, help="racers' client processes")
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: SQLite)")
    args = parser.parse_args()
    print(f"load average at the start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        db = args.db or str(data / "bench.db")
        with ServerProcess.app(data / "scorpion.log", db, None) as server:
            parts = racer_parts(args, server)
            parts.append(("quick-crowd", {"http": server.url, "players": args.players}))
            b, o = args.baseline, args.over
            windows = {"all": (0.0, b + o), "baseline": (0.0, b), "crowd": (b, b + o)}
            result = run(parts, windows, server.usage, drain=GRACE + 10.0)
    report(args, result)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
