"""Load and fault benchmark of ``scorpion serve``, beside a bare echo of the same frames.

    .venv/bin/python -m benchmarks.load                      # every phase, default sizes
    .venv/bin/python -m benchmarks.load --phases spam --out benchmarks/out/load-spam.txt

Starts its own servers on free 127.0.0.1 ports (rate and creation limits raised,
``--daily-search none``), speaks only docs/protocol.md and docs/http-api.md, and
prints one table: rates, latency (client-measured, from writing a command to reading
its answer), server CPU (cores) and memory, the busiest client process's CPU, and
the ratio to the echo's closed-loop rate measured in the same run.

Phases (``--phases``, sizes by flags, every loop bounded in count and time):

- spam: paced racers (move, undo, ...) alone, then beside players sending Auto or
  hint nonstop in relaxed rooms with hints (``--spam-mode closed``: racers in closed loop);
- play: racers replaying solver-proved winning lines (benchmarks/data/
  classic-wins-1-2000.jsonl: moves, deals, runs leaving, every 8th move undone and
  replayed), a follower per room; closed loop, then paced;
- idle: idle authenticated sockets (server memory per socket, against the echo's),
  paced play beside them;
- reader: paced play beside spectators that never read (4 KB receive buffer);
- daily: sockets on today's daily, a few playing at 1 move/s, the rest watching (with
  ``--daily-restart``, every app process restarted in turn meanwhile: benchmarks/load/rolling.py);
- rates: paced real play at rising rates, on one server: the highest rate served with
  p99 under ``--p99-limit`` ms (25), the server CPU per acknowledged move there;
- kill: paced play, ``kill -9`` halfway, restart on the same database; clients
  reconnect with ``last_version`` and resend unanswered commands (same seq); every
  acknowledged move, deal and undo must be in the game records (GET /api/me/games).

Where the server is: one process on a SQLite file (default) or ``--postgres URL``;
``--nginx`` puts nginx before it; ``--processes N`` and ``--redis`` run N app processes
behind nginx on one PostgreSQL database (a cluster started here unless ``--postgres``)
and a redis-server started here. Sockets open with the routing hint the browser client
sends (``/ws?room=...``), so nginx brings each room's sockets to one process. Server CPU
and memory are then the app processes' summed; nginx, PostgreSQL and Redis CPU apart.

Clients run in ``--workers`` processes per role; the table shows the busiest one's
CPU and how late paced commands were written (lag99): both stay low when the clients
are not the bottleneck.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

import orjson

from . import servers
from .phases import PHASES, echo
from .report import table


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks.load", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--phases",
        default=",".join(p for p in PHASES if p != "rates"),
        help=f"among {','.join(PHASES)} (default: all but rates)",
    )
    parser.add_argument("--workers", type=int, default=2, help="client processes per phase")
    parser.add_argument("--room-size", type=int, default=4)
    parser.add_argument("--echo-sockets", type=int, default=200)
    parser.add_argument("--echo-seconds", type=float, default=5.0)
    parser.add_argument("--spam-racers", type=int, default=100)
    parser.add_argument("--spam-rate", type=float, default=2.0, help="moves/s per racer")
    parser.add_argument("--spam-seconds", type=float, default=10.0, help="each of the 2 windows")
    parser.add_argument(
        "--spam-mode",
        default="paced",
        choices=["paced", "closed"],
        help="racers beside the spammers: paced at --spam-rate, or closed loop",
    )
    parser.add_argument("--spammers", type=int, default=2)
    parser.add_argument("--spam-command", default="auto", choices=["auto", "hint"])
    parser.add_argument("--play-racers", type=int, default=400)
    parser.add_argument("--play-rate", type=float, default=5.0, help="moves/s per racer, paced")
    parser.add_argument("--play-seconds", type=float, default=10.0)
    parser.add_argument("--reader-racers", type=int, default=100)
    parser.add_argument("--readers", type=int, default=1, help="sockets that never read")
    parser.add_argument("--reader-seconds", type=float, default=15.0)
    parser.add_argument("--kill-racers", type=int, default=100)
    parser.add_argument("--kill-seconds", type=float, default=10.0)
    parser.add_argument("--idle-sockets", type=int, default=2000)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--daily-sockets", type=int, default=1000)
    parser.add_argument("--daily-players", type=int, default=100)
    parser.add_argument("--daily-rate", type=float, default=1.0, help="moves/s per player")
    parser.add_argument("--daily-seconds", type=float, default=10.0)
    parser.add_argument(
        "--daily-restart",
        action="store_true",
        help="daily: restart every app process in turn meanwhile (SIGTERM, start, ready, "
        "settle; the window lengthened to hold it); the players reconnect by themselves",
    )
    parser.add_argument(
        "--restart-settle",
        type=float,
        default=60.0,
        help="daily restart: seconds after the last restart before reading forwarded sockets",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="run every scorpion server on a fresh database of this PostgreSQL server "
        "(default: a SQLite file)",
    )
    parser.add_argument("--rate-steps", type=int, default=6, help="rates: steps up, at most")
    parser.add_argument("--rate-factor", type=float, default=1.5, help="rates: each step up")
    parser.add_argument("--p99-limit", type=float, default=25.0, help="rates: ms")
    parser.add_argument(
        "--processes", type=int, default=1, help="app processes behind nginx (PostgreSQL)"
    )
    parser.add_argument(
        "--redis", action="store_true", help="app processes on a redis-server (PostgreSQL)"
    )
    parser.add_argument("--nginx", action="store_true", help="nginx before one app process")
    parser.add_argument(
        "--daily-shards", type=int, help="the app processes' --daily-shards (their default)"
    )
    parser.add_argument("--nginx-workers", type=int, default=1,
                        help="nginx's worker processes (1; 4 for 30,000 sockets)")  # fmt: skip
    parser.add_argument(
        "--front-ports", type=int, default=1,
        help="nginx's listening ports, the client processes spread over them "
        "(1; 2 past 28,000 sockets: one address and port's client ports)",
    )  # fmt: skip
    parser.add_argument(
        "--server-code", type=Path,
        help="run the app processes from this server/ folder (an earlier checkout's: before/after)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, help="also write the table (and command) here")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument(
        "--keep", type=Path, help="keep the servers' data and logs in this folder (else a temp one)"
    )
    args = parser.parse_args(argv)
    unknown = set(args.phases.split(",")) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases {sorted(unknown)}: choose among {sorted(PHASES)}")
    return args


def raise_file_limit() -> int:
    """As many open files as the hard limit allows (thousands of sockets); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    servers.SETUP = servers.Setup(
        args.postgres, args.processes, args.redis, args.nginx, args.daily_shards,
        nginx_workers=args.nginx_workers, front_ports=args.front_ports,
        server_code=args.server_code,
    )  # fmt: skip
    files = raise_file_limit()
    started = time.time()
    rows = []
    with tempfile.TemporaryDirectory(prefix="scorpion-load-") as tmp:
        data = args.keep or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        try:
            rows += echo(args, data)
            for phase in args.phases.split(","):
                print(f"phase {phase}...", file=sys.stderr, flush=True)
                rows += PHASES[phase](args, data)
        finally:
            servers.Services.close()
    echo_rate = rows[0].rate
    command = "python -m benchmarks.load " + shlex.join(argv if argv is not None else sys.argv[1:])
    text = (
        f"$ {command}\n"
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(started))}, "
        f"{time.time() - started:.0f} s, {args.workers} client processes per phase, "
        f"open files limit {files}, {servers.SETUP.describe()}, "
        f"load average {os.getloadavg()[0]:.2f} at the end"
        f"\n\n{table(rows, echo_rate)}\n\n"
        "Latency: client-measured, from writing a command to reading its answer. served: >=97% "
        "acknowledged, no refusal, no dropped socket.\nsrv cpu: server CPU in cores "
        "(/proc/<pid>/stat); srv MB: its highest RSS; cli cpu: the busiest client process, "
        "in cores (below ~0.8 the clients were not the bottleneck); lag99: p99 over the phase "
        "of how late paced commands were written (ms; high with low cli cpu: the machine is "
        "busy with other work).\n"
    )
    print(text)
    if args.out:
        args.out.write_text(text)
    if args.json:
        args.json.write_bytes(orjson.dumps([{**asdict(row), "served": row.served} for row in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
