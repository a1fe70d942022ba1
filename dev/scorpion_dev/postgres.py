"""A throwaway PostgreSQL cluster for tests and benchmarks: initdb and pg_ctl as the postgres user.

The cluster lives in a temporary folder owned by postgres, listens on a free loopback
port (no Unix socket), trusts local connections, and is stopped and removed at the
end. :meth:`PostgresCluster.new_database` gives each test (or benchmark run) a fresh, empty
database.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from . import starting

BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL server's bin folder, or None."""
    for folder in BIN_DIRS:
        if (folder / "initdb").is_file():
            return folder
    return None


class PostgresCluster:
    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="scorpion-pg-"))
        self.data = self.root / "data"
        self._names = itertools.count(1)

    def _as_postgres(self, *cmd: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        return subprocess.run(
            [*prefix, *cmd], check=check, capture_output=True, text=True, timeout=60
        )

    def init(self) -> None:
        starting("a PostgreSQL cluster")
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                          "--auth=trust", "--no-sync", "-E", "UTF8")  # fmt: skip
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"listen_addresses = '127.0.0.1'\nport = {self.port}\n"
                "unix_socket_directories = ''\nfsync = off\nmax_connections = 200\n"
            )
        self.start()

    def start(self) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-t", "30",
                          "-l", str(self.root / "log"), "start")  # fmt: skip

    def start_if_stopped(self) -> None:
        status = self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "status",
                                   check=False)  # fmt: skip
        if status.returncode != 0:
            self.start()

    def stop(self) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast",
                          "stop", check=False)  # fmt: skip

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def log_path(self) -> Path:
        return self.root / "log"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str | None = None) -> str:
        """Run SQL on a database (a name or a URL; default: postgres); its output."""
        url = database if database and "://" in database else self.url(database or "postgres")
        psql = str(self.bin / "psql")
        done = self._as_postgres(psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1",
                                 "-d", url, "-c", sql)  # fmt: skip
        return done.stdout.strip()

    def password_user(self, name: str, password: str) -> str:
        """A role that must give ``password`` (every other role is trusted) and the URL of a
        new database it owns, without the password."""
        hba = self.data / "pg_hba.conf"
        # The first line that matches wins: this one, before the "trust" lines of initdb
        # (rewritten in place: the file keeps its owner, postgres).
        hba.write_text(f"host all {name} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "reload")
        self.psql(f"CREATE ROLE {name} LOGIN PASSWORD '{password}'")
        database = f"{name}_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {database} OWNER {name}")
        return f"postgresql://{name}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"scorpion_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)
