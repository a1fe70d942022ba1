"""Scale figures: benchmarks/load's rates and idle phases through nginx for four setups, and
the table of docs/scaling.md from their outputs.

Setups: 1 process on SQLite, 1 process on PostgreSQL and Redis, 2 and 3 processes on
PostgreSQL and Redis, every one behind nginx (``python -m benchmarks.load`` with
``--nginx``, ``--processes N --redis``). Each run writes
``benchmarks/out/scale-<setup>-<run>.txt`` and its rows as ``.json`` (not in git); the table
(its summary, benchmarks/results/scale.md, is what ``--table`` printed) gives,
per setup, the medians over the runs (and their spread) of: the highest paced rate
served with p99 under 25 ms, the app processes' CPU per acknowledged move at that rate
(and PostgreSQL's, Redis's and nginx's CPU there), the load clients' CPU, and the app
processes' memory per idle socket. ::

    .venv/bin/python benchmarks/scale.py --runs 3           # run all, then the table
    .venv/bin/python benchmarks/scale.py --table            # the table of saved runs
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "out"  # raw runs, not in git
SETUPS = {
    "sqlite": ("1 process, SQLite", ["--nginx"]),
    "pg1": ("1 process, PostgreSQL + Redis", ["--processes", "1", "--redis"]),
    "pg2": ("2 processes, PostgreSQL + Redis", ["--processes", "2", "--redis"]),
    "pg3": ("3 processes, PostgreSQL + Redis", ["--processes", "3", "--redis"]),
}
LOAD = shlex.split(
    "--phases rates,idle --play-racers 400 --play-rate 1 --play-seconds 6 --rate-steps 5 "
    "--idle-sockets 1000 --idle-seconds 5 --echo-sockets 20 --echo-seconds 1"
)
P99_LIMIT = 25.0
EQUAL_RATE = 400.0  # moves/s of the first step (400 racers at 1/s): every setup runs it


def run(setup: str, number: int) -> None:
    out = RESULTS / f"scale-{setup}-{number}.txt"
    command = [sys.executable, "-m", "benchmarks.load", *SETUPS[setup][1], *LOAD,
               "--out", str(out), "--json", str(out.with_suffix(".json"))]  # fmt: skip
    RESULTS.mkdir(exist_ok=True)
    print(f"{setup} run {number} (load average {os.getloadavg()[0]:.2f})", flush=True)
    subprocess.run(command, check=True, timeout=900, cwd=RESULTS.parent.parent)


def figures(path: Path) -> dict[str, float] | None:
    """One run's figures: the highest rate served with p99 under the limit; the costs per
    acknowledged move at the first step's rate (:data:`EQUAL_RATE`, every setup's first
    step: the setups compared at one load), the mean of its attempts; the memory per idle
    socket."""
    rows = json.loads(path.read_text())
    steps = [r for r in rows if r["phase"] == "rates" and r["served"] and r["server_cpu"]]
    good = [r for r in steps if r["p99"] is not None and r["p99"] < P99_LIMIT]
    equal = [r for r in steps if r["what"].endswith(" at 1/s")]
    idle = next((r for r in rows if r["phase"] == "idle"), None)
    if not equal or idle is None:
        return None
    found = re.search(r"([\d.]+) KB each \(server RSS\)", idle["note"])
    clients = [re.search(r"load clients ([\d.]+) cores", r["note"]) for r in equal]

    def per_move(cores: list[float]) -> float:
        return statistics.mean(c / EQUAL_RATE * 1e6 for c in cores)

    return {
        "rate": max((r["acked"] / r["seconds"] for r in good), default=0.0),
        "app_us": per_move([r["server_cpu"] for r in equal]),
        **{
            f"{name}_us": per_move([r["infra_cpu"][name] for r in equal])
            for name in equal[0]["infra_cpu"]
        },
        "client_cores": statistics.mean(float(c.group(1)) for c in clients if c),
        "kb": float(found.group(1)) if found else float("nan"),
    }


def cell(values: list[float], digits: int = 0) -> str:
    """The median, and the spread when there are several."""
    if not values:
        return "-"
    middle = f"{statistics.median(values):,.{digits}f}"
    if len(values) == 1:
        return middle
    return f"{middle} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def table() -> str:
    lines = [
        "| setup | runs | highest rate with p99 < 25 ms (moves/s) | app CPU per move at 400/s | "
        "× 1 process on SQLite | beside it per move at 400/s | load clients at 400/s (cores) "
        "| app memory per idle socket |",
        "|---|---|---|---|---|---|---|---|",
    ]
    base = None
    for setup, (label, _) in SETUPS.items():
        runs = [f for p in sorted(RESULTS.glob(f"scale-{setup}-*.json")) if (f := figures(p))]
        if not runs:
            continue
        app = statistics.median(r["app_us"] for r in runs)
        base = base or app
        beside = [
            f"{name} {cell([r[f'{name}_us'] for r in runs if f'{name}_us' in r])} µs"
            for name in ("postgres", "redis", "nginx")
            if any(f"{name}_us" in r for r in runs)
        ]
        lines.append(
            f"| {label}, behind nginx | {len(runs)} | {cell([r['rate'] for r in runs])} | "
            f"{cell([r['app_us'] for r in runs])} µs | {app / base:.2f} | {', '.join(beside)} | "
            f"{cell([r['client_cores'] for r in runs], 2)} | "
            f"{cell([r['kb'] for r in runs], 1)} KB |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--table", action="store_true", help="only the table of saved runs")
    args = parser.parse_args()
    if not args.table:
        for number in range(1, args.runs + 1):
            for setup in SETUPS:  # interleaved: the machine's other load spreads over all
                run(setup, number)
    print(table())


if __name__ == "__main__":
    main()
