"""The servers under test: ``scorpion serve`` and the echo baseline, as subprocesses.

Both listen on a free 127.0.0.1 port; their CPU time and memory are read from
``/proc/<pid>``. Every wait is bounded in time.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

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
    "max_connections": 100_000,
    "max_connections_per_address": 100_000,
    "new_players_per_minute": 1_000_000,
    "new_players_burst": 1_000_000,
    "rooms_per_hour": 1_000_000,
    "rooms_burst": 1_000_000,
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True, slots=True)
class Usage:
    """A process's CPU seconds (user + system) and resident memory at one moment."""

    at: float
    cpu: float
    rss: int

    @classmethod
    def of(cls, pid: int) -> Usage:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # fields[0] is field 3 (state): utime is field 14, stime 15, rss 24
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        return cls(time.time(), cpu, int(fields[21]) * PAGE)


# ``--postgres URL``: every scorpion server of the run gets a fresh database on that server
# (the URL names a database the benchmark may connect to and create others from).
POSTGRES: str | None = None
_databases = itertools.count(1)


def fresh_database(url: str) -> str:
    """A new empty database on the server of ``url`` (made with psql); its URL."""
    name = f"load_{os.getpid()}_{next(_databases)}"
    subprocess.run(["psql", url, "-q", "-c", f"CREATE DATABASE {name}"], check=True)
    return url.rsplit("/", 1)[0] + "/" + name


class ServerProcess:
    """One server in a subprocess; ``start`` waits for ``/readyz``."""

    def __init__(self, name: str, command: list[str], port: int, log_path: Path) -> None:
        self.name = name
        self.command = command
        self.port = port
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @classmethod
    def scorpion(cls, data_dir: Path, limits: dict[str, float] | None = None) -> ServerProcess:
        port = free_port()
        merged = {**RAISED_LIMITS, **(limits or {})}
        db = fresh_database(POSTGRES) if POSTGRES else str(data_dir / "scorpion.db")
        command = [sys.executable, "-m", "scorpion.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--db", db,
                   "--secret", "load-benchmark", "--daily-search", "none",
                   "--limits", json.dumps(merged), "--log-level", "warning"]  # fmt: skip
        return cls("scorpion", command, port, data_dir / "scorpion.log")

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

    def start(self, timeout: float = 60.0) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
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
