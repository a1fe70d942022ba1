"""Real redis-server and nginx for the multi-process tests and benchmarks, in temporary folders.

Each runs in the foreground of a subprocess on a free loopback port; every wait is
bounded. nginx gets a generated configuration: one upstream of the app processes'
loopback ports, hashed on the place a request is for (deploy/nginx.conf's map), the
websocket upgrade on /ws, plain proxying for the rest.
"""

from __future__ import annotations

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

from .postgres import PostgresCluster
from .server import Loopback, ServerProcess, free_port

REPOSITORY = Path(__file__).resolve().parents[2]  # an editable install: the checkout


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
    """redis-server with no persistence (a restart forgets everything, as the tests want)."""

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
worker_processes {workers};
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
    upstream scorpion_race {{
        hash $scorpion_place consistent;
{servers}
    }}
    upstream scorpion_daily {{
        {daily_hash}
{servers}
    }}
    server {{
{listen}
        location /ws {{
            proxy_pass http://$scorpion_upstream;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 120s;
        }}
        location / {{
            proxy_pass http://scorpion_race;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


def place_map() -> str:
    """deploy/nginx.conf's maps from a request to the place it is for (its hash key) and to
    its upstream (a daily shard's sockets: scorpion_daily)."""
    conf = (REPOSITORY / "deploy" / "nginx.conf").read_text()
    maps = [
        re.search(rf"^map \$\w+ \${name} \{{.*?^\}}", conf, re.M | re.S)
        for name in ("scorpion_place", "scorpion_upstream")
    ]
    assert all(maps), "deploy/nginx.conf lost its place or upstream map"
    return "\n".join(textwrap.indent(m.group(0), "    ") for m in maps if m)


def daily_hash() -> str:
    """deploy/nginx.conf's hash of a daily shard's sockets (the upstream scorpion_daily)."""
    conf = (REPOSITORY / "deploy" / "nginx.conf").read_text()
    found = re.search(r"^upstream scorpion_daily \{.*?^\s*(hash [^;]*;)", conf, re.M | re.S)
    assert found is not None, "deploy/nginx.conf lost its daily shards' upstream"
    return found.group(1)


class Nginx(Loopback, Foreground):
    """nginx before the app processes' ports (a generated configuration): a request for a
    place (``/ws?room=...``, ``/api/rooms/<id>``, ...) goes to the process its hash names,
    the others round robin, as deploy/nginx.conf."""

    def __init__(
        self, upstream_ports: Sequence[int], connections: int = 4096, workers: int = 1,
        ports: int = 1,
    ) -> None:  # fmt: skip
        """``connections``: at once per worker, two per proxied socket (the client's, the
        upstream's). ``workers`` and ``ports`` (listening ports: ``self.ports``) for crowds
        past one process's open files and one port's 28,000 client ports (benchmarks)."""
        super().__init__("scorpion-nginx-")
        self.ports = [self.port, *(free_port() for _ in range(ports - 1))]
        # reuseport: the kernel spreads the connections evenly over the workers.
        shared = " reuseport" if workers > 1 else ""
        listen = "\n".join(f"        listen 127.0.0.1:{p}{shared};" for p in self.ports)
        servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in upstream_ports)
        conf = NGINX_CONF.format(
            root=self.root, listen=listen, servers=servers, place_map=place_map(),
            daily_hash=daily_hash(), workers=workers,
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


def stop_everything(
    nginx: Nginx | None, servers: Sequence[ServerProcess], *others: Foreground | PostgresCluster
) -> None:
    """The end of a multi-process run (benchmarks): nginx, the app processes still
    running, then the services they used."""
    if nginx is not None:
        nginx.remove()
    for server in servers:
        if server.running:
            server.stop()
    for other in others:
        other.remove()
