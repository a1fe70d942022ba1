"""The servers under test: ``scorpion serve`` and the echo baseline, as subprocesses.

Both listen on a free 127.0.0.1 port; their CPU time and memory are read from
``/proc/<pid>``. Every wait is bounded in time. With ``--nginx``, ``--processes N`` or
``--redis`` (:data:`SETUP`) a phase's server is a :class:`Deployment`: the app processes
behind a generated nginx, on one PostgreSQL database (and redis-server), started with
scorpion_dev (dev/), as tests/scale does.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from scorpion_dev.postgres import PostgresCluster, postgres_bin
from scorpion_dev.server import Loopback, free_port
from scorpion_dev.services import Nginx, RedisServer

BENCHMARKS = Path(__file__).resolve().parent.parent

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

# The limits a benchmark raises: one address plays for thousands of clients, creates
# their players and rooms, and its sockets wait silently between phases.
RAISED_LIMITS = {
    "rate": 1000,
    "burst": 2000,
    "flood_refusals": 100_000,
    "idle_timeout": 3600,
    "auth_timeout": 60,  # a client process opening thousands of sockets may say hello late
    "max_connections": 100_000,
    "max_connections_per_address": 100_000,
    "new_players_per_minute": 1_000_000,
    "new_players_burst": 1_000_000,
    "rooms_per_hour": 1_000_000,
    "rooms_burst": 1_000_000,
}


def cpu_and_rss(pid: int) -> tuple[float, int]:
    """A process's CPU seconds (user + system) and resident bytes."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is field 3 (state): utime is field 14, stime 15, rss 24
    return (int(fields[11]) + int(fields[12])) / TICKS, int(fields[21]) * PAGE


def cpu_by_pid(pids: Iterable[int]) -> dict[int, float]:
    """CPU seconds of each process still there."""
    found = {}
    for pid in pids:
        try:
            found[pid] = cpu_and_rss(pid)[0]
        except OSError:
            continue
    return found


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two readings of :func:`cpu_by_pid`: a process started
    meanwhile (a connection a pool opened) counts all its CPU, one that ended is left out."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def children(parent: int) -> list[int]:
    """A process and every descendant (PostgreSQL's backends, nginx's workers)."""
    found, todo = [], [parent]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            kids = []
        todo.extend(int(k) for k in kids)
    return found


@dataclass(frozen=True, slots=True)
class Usage:
    """The server's CPU seconds (user + system) and resident memory at one moment (summed
    over the app processes of a deployment); ``infra``: the CPU seconds of each process of
    the services beside them (nginx, PostgreSQL, Redis), by service; ``apps``: each app
    process's CPU seconds (a deployment's), for its share of the work."""

    at: float
    cpu: float
    rss: int
    infra: dict[str, dict[int, float]] = field(default_factory=dict)
    apps: tuple[float, ...] = ()

    @classmethod
    def of(cls, pid: int) -> Usage:
        return cls(time.time(), *cpu_and_rss(pid))


@dataclass(slots=True)
class Setup:
    """What serves the phases (``--postgres``, ``--processes``, ``--redis``, ``--nginx``)."""

    # every scorpion server of the run gets a fresh database on this PostgreSQL server (the
    # URL names a database the benchmark may connect to and create others from); None: a
    # SQLite file, or a PostgreSQL cluster started here when processes > 1 or redis
    postgres: str | None = None
    processes: int = 1
    redis: bool = False
    nginx: bool = False  # nginx before the app even with one process and no Redis
    daily_shards: int | None = None  # the apps' --daily-shards (None: their default)
    # nginx's workers and listening ports: past 10,000 sockets one worker runs out of open
    # files (20,000 here, two per socket), past 28,000 one port out of client ports
    nginx_workers: int = 1
    front_ports: int = 1
    # the app processes' code: a checkout's server/ folder (an earlier commit's, for a
    # before/after in one run); None: the installed package, as the benchmark's own
    server_code: Path | None = None

    @property
    def deployed(self) -> bool:
        return self.nginx or self.redis or self.processes > 1

    def describe(self) -> str:
        shared = self.redis or self.processes > 1
        db = "PostgreSQL" if self.postgres or shared else "SQLite"
        apps = f"{self.processes} process{'es' if self.processes > 1 else ''}"
        return (
            f"{apps}, {db}"
            + (" + Redis" if self.redis else "")
            + (", behind nginx" if self.deployed else "")
            + (f", {self.daily_shards} daily shards" if self.daily_shards is not None else "")
            + (f", nginx: {self.nginx_workers} workers" if self.nginx_workers > 1 else "")
            + (f", {self.front_ports} ports" if self.front_ports > 1 else "")
            + (f", server code from {self.server_code}" if self.server_code else "")
        )


SETUP = Setup()
_databases = itertools.count(1)


def fresh_database(url: str) -> str:
    """A new empty database on the server of ``url`` (made with psql); its URL."""
    name = f"load_{os.getpid()}_{next(_databases)}"
    subprocess.run(["psql", url, "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    return url.rsplit("/", 1)[0] + "/" + name


def samples(url: str) -> dict[str, float]:
    """Every sample of the server's /metrics, by name with its labels as written there."""
    with urllib.request.urlopen(url + "/metrics", timeout=10.0) as answer:
        text = answer.read().decode()
    found = (line.rpartition(" ") for line in text.splitlines() if not line.startswith("#"))
    return {name: float(value) for name, _, value in found if name}


def metric(url: str, name: str) -> float:
    """A sample from the server's /metrics, labels written out as there (0 when absent)."""
    return samples(url).get(name, 0.0)


class ServerProcess:
    """One server in a subprocess; ``start`` waits for ``/readyz``."""

    def __init__(self, name: str, command: list[str], port: int, log_path: Path) -> None:
        self.name = name
        self.command = command
        self.port = port
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def scorpion(
        cls, data_dir: Path, limits: dict[str, float] | None = None
    ) -> ServerProcess | Deployment:
        """The server of a phase: one process, or a :class:`Deployment` (:data:`SETUP`)."""
        if SETUP.deployed:
            return Deployment(data_dir, limits)
        db = fresh_database(SETUP.postgres) if SETUP.postgres else str(data_dir / "scorpion.db")
        return cls.app(data_dir / "scorpion.log", db, limits)

    @classmethod
    def app(cls, log: Path, db: str, limits: dict[str, float] | None, *args: str) -> ServerProcess:
        port = free_port()
        merged = {**RAISED_LIMITS, **(limits or {})}
        command = [sys.executable, "-m", "scorpion.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--db", db,
                   "--secret", "load-benchmark", "--daily-search", "none",
                   "--limits", json.dumps(merged), "--log-level", "warning", *args]  # fmt: skip
        return cls("scorpion", command, port, log)

    @classmethod
    def echo(cls, data_dir: Path) -> ServerProcess:
        port = free_port()
        command = [sys.executable, str(BENCHMARKS / "echo_server.py"), "--port", str(port)]
        return cls("echo", command, port, data_dir / "echo.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None, f"{self.name} is not running"
        return self.proc.pid

    def usage(self) -> Usage:
        return Usage.of(self.pid)

    def counter(self, name: str) -> list[float]:
        """As :meth:`Deployment.counter`, for this one process."""
        return [metric(self.url, name)]

    def samples(self) -> list[dict[str, float]]:
        """As :meth:`Deployment.samples`, for this one process."""
        return [samples(self.url)]

    def start(self, timeout: float = 60.0) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
        if SETUP.server_code is not None and self.name == "scorpion":
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SETUP.server_code),
                                                              env.get("PYTHONPATH")]))  # fmt: skip
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                self.command, stdout=log, stderr=subprocess.STDOUT, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited {self.proc.returncode}: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=1.0) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"{self.name} not ready after {timeout} s: {self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""

    def stop(self) -> None:
        """SIGTERM (the graceful shutdown), kill -9 if it takes over 20 s."""
        self._end(signal.SIGTERM, 20.0)

    def kill(self) -> None:
        self._end(signal.SIGKILL, 10.0)

    def _end(self, sig: int, timeout: float) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(sig)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10.0)

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.stop()
        if kind is not None:
            print(f"{self.name} server log (end):\n{self.log()}", file=sys.stderr)


class Services:
    """The PostgreSQL cluster and redis-server a run starts when it needs them (kept for
    the whole run: each phase gets a fresh database); :meth:`close` at the end."""

    postgres: PostgresCluster | None = None
    redis: RedisServer | None = None

    @classmethod
    def database(cls) -> str:
        if SETUP.postgres:
            return fresh_database(SETUP.postgres)
        if cls.postgres is None:
            bin_dir = postgres_bin()
            if bin_dir is None:
                raise SystemExit("--processes N and --redis need PostgreSQL (or --postgres URL)")
            cls.postgres = PostgresCluster(bin_dir)
            cls.postgres.init()
        return cls.postgres.new_database()

    @classmethod
    def redis_url(cls) -> str:
        if cls.redis is None:
            cls.redis = RedisServer()
            cls.redis.start()
        return cls.redis.url

    @classmethod
    def pids(cls) -> dict[str, int]:
        """The main process of each service started here."""
        found = {}
        if cls.postgres is not None:
            found["postgres"] = int((cls.postgres.data / "postmaster.pid").read_text().split()[0])
        if cls.redis is not None and cls.redis.proc is not None:
            found["redis"] = cls.redis.proc.pid
        return found

    @classmethod
    def close(cls) -> None:
        for service in (cls.redis, cls.postgres):
            if service is not None:
                service.remove()
        cls.postgres = cls.redis = None


class Deployment(Loopback):
    """:data:`SETUP`'s app processes behind nginx on loopback ports; ``url`` and ``ws_url``
    are nginx's. Usage: the app processes' CPU and RSS summed, nginx, PostgreSQL and Redis
    apart."""

    name = "deployment"

    def __init__(self, data_dir: Path, limits: dict[str, float] | None) -> None:
        shared = SETUP.redis or SETUP.processes > 1
        db = Services.database() if shared or SETUP.postgres else str(data_dir / "scorpion.db")
        args: tuple[str, ...] = ("--redis", Services.redis_url()) if SETUP.redis else ()
        if SETUP.daily_shards is not None:
            args += ("--daily-shards", str(SETUP.daily_shards))
        self.apps = [ServerProcess.app(data_dir / f"app{i}.log", db, limits, *args)
                     for i in range(SETUP.processes)]  # fmt: skip
        self.nginx = Nginx([app.port for app in self.apps], connections=60_000,
                           workers=SETUP.nginx_workers, ports=SETUP.front_ports)  # fmt: skip
        self.port = self.nginx.port  # url, ws_url: nginx's

    @property
    def ws_urls(self) -> list[str]:
        """nginx's socket URL on each of its ports (a crowd spreads over them)."""
        return [f"ws://127.0.0.1:{port}/ws" for port in self.nginx.ports]

    def usage(self) -> Usage:
        readings = [cpu_and_rss(app.pid) for app in self.apps]
        infra = dict(Services.pids())
        if self.nginx.proc is not None:
            infra["nginx"] = self.nginx.proc.pid
        return Usage(
            time.time(),
            sum(cpu for cpu, _ in readings),
            sum(rss for _, rss in readings),
            {name: cpu_by_pid(children(pid)) for name, pid in infra.items()},
            tuple(cpu for cpu, _ in readings),
        )

    def counter(self, name: str) -> list[float]:
        """A counter of each app process, read from its /metrics (0 when absent)."""
        return [metric(app.url, name) for app in self.apps]

    def samples(self) -> list[dict[str, float]]:
        """Every sample of each app process's /metrics, read at once."""
        return [samples(app.url) for app in self.apps]

    def log(self) -> str:
        return "\n".join(app.log() for app in self.apps) + self.nginx.log()

    def start(self) -> None:
        for app in self.apps:
            app.start()
        self.nginx.start()

    def stop(self) -> None:
        self.nginx.remove()
        for app in self.apps:
            app.stop()

    def kill(self) -> None:
        raise NotImplementedError("the kill phase runs one process (benchmarks/failover.py)")

    def __enter__(self) -> Deployment:
        self.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.stop()
        if kind is not None:
            print(f"server logs (end):\n{self.log()[-3000:]}", file=sys.stderr)
