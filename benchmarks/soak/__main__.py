"""Soak: ordinary traffic for a long while; do the servers' memory and open files stay flat?

    .venv/bin/python -m benchmarks.soak --minutes 30 --processes 1 --seed 1
    .venv/bin/python -m benchmarks.soak --minutes 30 --processes 3 --seed 1

Starts its own servers (benchmarks/soak/deployment.py: one process on SQLite, or
``--processes N`` on PostgreSQL and Redis behind nginx, all in temporary folders on
127.0.0.1), then runs bounded, paced clients in a child process for ``--minutes``
(benchmarks/soak/workload.py: rooms opened, joined by code, raced with real moves, left
and closed; daily attempts; spectators; sockets cut and resumed). Meanwhile it reads
every ``--every`` seconds each app process's RSS (/proc/<pid>/status VmRSS), open files
(/proc/<pid>/fd), its worker processes' RSS, and its rooms and sockets (/metrics). At the
end it fits a least-squares line through the second half of the samples (after the
warm-up) and prints, per process: start, end, slope per hour and noise (the residuals'
standard deviation) of RSS and open files, and the WARNING and ERROR lines of every log
(the apps', nginx's, PostgreSQL's), each distinct ERROR line listed. The raw samples and
the logs go to benchmarks/out/ (ignored by git); the summary replaces this setup's
section of benchmarks/results/soak.md.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.connection
import os
import shlex
import sys
import time
import traceback
from collections import Counter
from multiprocessing.process import BaseProcess
from pathlib import Path

import orjson

from .deployment import Deployment
from .report import keep, section
from .sampling import Sample, sample, scan, size, sleep_until
from .workload import Plan, run

BENCHMARKS = Path(__file__).resolve().parent.parent


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="of traffic (30)")
    parser.add_argument("--processes", type=int, default=1, choices=[1, 2, 3],
                        help="1: one process on SQLite; 2 or 3: on PostgreSQL + Redis "
                        "behind nginx")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="of the clients' choices (1)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples (5)")
    parser.add_argument("--rooms", type=int, default=6, help="room lanes at once (6)")
    parser.add_argument("--spectators", type=int, default=3, help="spectator lanes (3)")
    parser.add_argument("--dailies", type=int, default=3, help="daily lanes (3)")
    parser.add_argument("--room-idle-close", type=float, default=60.0,
                        help="seconds an empty room lives on (60; the server's: 3600)")  # fmt: skip
    parser.add_argument("--out", type=Path, default=BENCHMARKS / "out",
                        help="raw samples and logs (benchmarks/out)")  # fmt: skip
    parser.add_argument("--results", type=Path, default=BENCHMARKS / "results" / "soak.md")
    return parser.parse_args(argv)


def _clients(plan: Plan, pipe: multiprocessing.connection.Connection) -> None:
    try:
        tally = asyncio.run(run(plan))
        pipe.send({"done": tally.done, "refused": tally.refused, "errors": tally.errors})
    except BaseException:
        pipe.send({"errors": Counter({f"the clients failed: {traceback.format_exc()}": 1})})


def shown(path: Path) -> str:
    """A path relative to the checkout when it is inside it."""
    root = BENCHMARKS.parent
    return str(path.relative_to(root) if path.is_relative_to(root) else path)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    command = "python -m benchmarks.soak " + shlex.join(argv if argv is not None else sys.argv[1:])
    deployment = Deployment(args.processes, args.room_idle_close)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    prefix = f"soak-{args.processes}p-{stamp}"
    clients: BaseProcess | None = None
    try:
        print(f"starting {deployment.describe()}...", file=sys.stderr, flush=True)
        deployment.start()
        assert deployment.front is not None
        logs = deployment.logs()
        begun = {name: size(path) for name, path in logs.items()}
        started = time.time()
        deadline = started + args.minutes * 60
        plan = Plan(deployment.front.url, deployment.front.ws_url, args.seed, deadline,
                    args.rooms, args.spectators, args.dailies)  # fmt: skip
        receiving, sending = multiprocessing.get_context("fork").Pipe(duplex=False)
        clients = multiprocessing.get_context("fork").Process(
            target=_clients, args=(plan, sending), daemon=True
        )
        clients.start()
        samples: list[Sample] = []
        crashed: Counter[str] = Counter()
        tick = started
        # The clients end by themselves (bounded: 3 minutes past the deadline at most).
        while clients.is_alive() and not receiving.poll() and time.time() < deadline + 240:
            for app in deployment.apps:
                if app.proc is None or app.proc.poll() is not None:
                    crashed[f"{app.name} exited"] = 1
                    continue
                samples.append(sample(time.time() - started, app.name, app.pid, app.port))
            if int(tick - started) % 60 < args.every:
                print(f"{(time.time() - started) / 60:.1f} min", file=sys.stderr, flush=True)
            tick += args.every
            sleep_until(tick)
        tally = receiving.recv() if receiving.poll(10.0) else {"errors": Counter()}
        tally = {key: Counter(tally.get(key, {})) for key in ("done", "refused", "errors")}
        tally["errors"] += crashed
        ends = {name: size(path) for name, path in logs.items()}
        deployment.stop()
        counts = {
            "starting": {name: scan(path, 0, begun[name]) for name, path in logs.items()},
            "during": {name: scan(path, begun[name], ends[name]) for name, path in logs.items()},
            "stopping": {name: scan(path, ends[name]) for name, path in logs.items()},
        }
        deployment.keep_logs(args.out, prefix)
        raw = args.out / f"{prefix}.jsonl"
        raw.write_bytes(b"".join(orjson.dumps(s.row()) + b"\n" for s in samples))
        span = args.minutes * 60
        head = (
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started))}: "
            f"{deployment.describe()}, {args.minutes:g} min of traffic (seed {args.seed}: "
            f"{args.rooms} room lanes, {args.spectators} spectator lanes, {args.dailies} daily "
            f"lanes), a sample every {args.every:g} s, empty rooms closed after "
            f"{args.room_idle_close:g} s; fitted over {span / 120:g} to {span / 60:g} min; "
            f"load average {os.getloadavg()[0]:.2f} at the end. Raw samples: {shown(raw)}"
        )
        if time.gmtime(started).tm_yday != time.gmtime(time.time()).tm_yday:
            head += " **Crossed midnight UTC: a new day's daily filled during the run.**"
        text = section(deployment.describe(), command, head, samples, (span / 2, span),
                       tally, counts)  # fmt: skip
        print(text)
        keep(args.results, deployment.describe(), text)
    finally:
        if clients is not None and clients.is_alive():
            clients.kill()
        deployment.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
