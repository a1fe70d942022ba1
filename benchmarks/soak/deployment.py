"""The servers a soak runs against: one process on a SQLite file, or N processes on one
PostgreSQL database and a redis-server, behind nginx (scorpion_dev, dev/).

Each app process is ``scorpion serve --room-idle-close`` (rooms close ``idle_close``
seconds after their last socket left), on a free 127.0.0.1 port, with the
limits one address playing for everyone needs raised (benchmarks/load) but the silence
timeout kept, and ``--log-level warning``: its log holds what the soak reports.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from benchmarks.load.servers import RAISED_LIMITS, ServerProcess

from scorpion_dev.postgres import PostgresCluster, postgres_bin
from scorpion_dev.server import Loopback, free_port
from scorpion_dev.services import Foreground, Nginx, RedisServer

# The benchmark's raised limits, but silent sockets are closed as in production (60 s):
# the soak's clients ping as the browser does.
LIMITS = {**RAISED_LIMITS, "idle_timeout": 60}


class Deployment:
    """The app processes (``apps``), what the clients talk to (``front``: nginx, or the one
    app), and the services beside them; :meth:`logs` names every log by its owner."""

    def __init__(self, processes: int, idle_close: float) -> None:
        self.processes = processes
        self.root = Path(tempfile.mkdtemp(prefix="scorpion-soak-"))
        self.postgres: PostgresCluster | None = None
        self.redis: RedisServer | None = None
        self.nginx: Nginx | None = None
        self.idle_close = idle_close
        self.apps: list[ServerProcess] = []
        self.front: Loopback | ServerProcess | None = None

    def describe(self) -> str:
        if self.processes == 1:
            return "1 process on SQLite"
        return f"{self.processes} processes on PostgreSQL + Redis, behind nginx"

    def _app(self, index: int, db: str, *args: str) -> ServerProcess:
        port = free_port()
        command = [sys.executable, "-m", "scorpion", "serve",
                   "--room-idle-close", str(self.idle_close),
                   "--host", "127.0.0.1", "--port", str(port), "--db", db,
                   "--secret", "soak-benchmark", "--daily-search", "none",
                   "--limits", json.dumps(LIMITS), "--log-level", "warning", *args]  # fmt: skip
        return ServerProcess(f"app{index}", command, port, self.root / f"app{index}.log")

    def start(self) -> None:
        if self.processes == 1:
            self.apps = [self._app(0, str(self.root / "scorpion.db"))]
            self.apps[0].start()
            self.front = self.apps[0]
            return
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise SystemExit("several processes need PostgreSQL's server binaries (initdb)")
        self.postgres = PostgresCluster(bin_dir)
        self.postgres.init()
        self.redis = RedisServer()
        self.redis.start()
        db = self.postgres.new_database()
        self.apps = [self._app(i, db, "--redis", self.redis.url) for i in range(self.processes)]
        for app in self.apps:
            app.start()
        self.nginx = Nginx([app.port for app in self.apps])
        self.nginx.start()
        self.front = self.nginx

    def logs(self) -> dict[str, Path]:
        found = {app.name: app.log_path for app in self.apps}
        if self.nginx is not None:
            found["nginx"] = self.nginx.log_path
        if self.postgres is not None:
            found["postgres"] = self.postgres.log_path
        if self.redis is not None:
            found["redis"] = self.redis.log_path
        return found

    def stop(self) -> None:
        """nginx, then the apps (SIGTERM: their graceful shutdown), then the services; the
        logs stay in :attr:`root` until :meth:`remove`."""
        if self.nginx is not None:
            Foreground.stop(self.nginx)
        for app in self.apps:
            app.stop()
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.stop()

    def keep_logs(self, folder: Path, prefix: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, path in self.logs().items():
            if path.exists():
                shutil.copyfile(path, folder / f"{prefix}-{name}.log")

    def remove(self) -> None:
        self.stop()
        for service in (self.nginx, self.redis, self.postgres):
            if service is not None:
                service.remove()
        shutil.rmtree(self.root, ignore_errors=True)
