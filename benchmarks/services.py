"""PostgreSQL, redis-server and nginx for the benchmarks, in temporary folders.

Copied from tests/support (postgres.py, services.py) so that no benchmark imports the
tests: a throwaway PostgreSQL cluster (``initdb`` and ``pg_ctl`` as the postgres user, a
free loopback port, trust auth), redis-server without persistence, and nginx with a
generated configuration (deploy/nginx.conf's place map: every socket and request of a
place goes to one app process). Each listens on a free 127.0.0.1 port; every wait is
bounded; ``remove()`` stops the service and deletes its folder.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL server's bin folder, or None."""
    for folder in BIN_DIRS:
        if (folder / "initdb").is_file():
            return folder
    return None


class Loopback:
    """Something serving HTTP and /ws on ``port`` of 127.0.0.1 (a server, or nginx before
    several)."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


class PostgresCluster:
    """A cluster in a temporary folder owned by postgres; :meth:`new_database` gives a
    fresh, empty database's URL."""

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

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"bench_{os.getpid()}_{next(self._names)}"
        psql = str(self.bin / "psql")
        self._as_postgres(psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.url(),
                          "-c", f"CREATE DATABASE {name}")  # fmt: skip
        return self.url(name)


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited {proc.returncode}")
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} not listening on {port} after {timeout} s")


class Foreground:
    """A service process in a temporary folder, stopped with SIGTERM (SIGKILL after 10 s)."""

    def __init__(self, prefix: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.root / "log"

    def _spawn(self, cmd: Sequence[str], what: str) -> None:
        with (self.root / "log").open("ab") as log:
            self.proc = subprocess.Popen(list(cmd), stdout=log, stderr=subprocess.STDOUT)
        wait_port(self.port, self.proc, what)

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class RedisServer(Foreground):
    """redis-server with no persistence."""

    def __init__(self) -> None:
        super().__init__("scorpion-redis-")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self._spawn(["/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no", "--dir", str(self.root)],
                    "redis-server")  # fmt: skip


NGINX_CONF = """\
daemon off;
worker_processes 1;
worker_rlimit_nofile {files};
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
{place_map}
    upstream scorpion {{
        hash $scorpion_place consistent;
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location /ws {{
            proxy_pass http://scorpion;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 120s;
        }}
        location / {{
            proxy_pass http://scorpion;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


def place_map() -> str:
    """deploy/nginx.conf's map from a request to the place it is for (its hash key)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    found = re.search(r"^map \$uri \$scorpion_place \{.*?^\}", conf, re.M | re.S)
    assert found is not None, "deploy/nginx.conf lost its place map"
    return textwrap.indent(found.group(0), "    ")


class Nginx(Loopback, Foreground):
    """nginx before the app processes' ports (a generated configuration): a request for a
    place (``/ws?room=...``, ``/api/rooms/<id>``, ...) goes to the process its hash names,
    the others round robin, as deploy/nginx.conf."""

    def __init__(self, upstream_ports: Sequence[int], connections: int = 4096) -> None:
        """``connections``: at once, two per proxied socket (the client's, the upstream's)."""
        super().__init__("scorpion-nginx-")
        servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in upstream_ports)
        conf = NGINX_CONF.format(
            root=self.root, port=self.port, servers=servers, place_map=place_map(),
            connections=connections, files=connections + 100,
        )  # fmt: skip
        (self.root / "nginx.conf").write_text(conf)
        self.root.chmod(0o755)

    @property
    def log_path(self) -> Path:
        return self.root / "error.log"

    def start(self) -> None:
        self._spawn(["/usr/sbin/nginx", "-p", str(self.root), "-c", str(self.root / "nginx.conf"),
                     "-e", str(self.log_path)], "nginx")  # fmt: skip

    def log(self) -> str:
        path = self.log_path
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""
