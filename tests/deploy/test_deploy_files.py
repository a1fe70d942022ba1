"""The deploy files agree with the server they deploy (no Docker engine runs them here)."""

from __future__ import annotations

import re
from pathlib import Path

from scorpion.cli import build_parser
from scorpion.web.config import Limits

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def setting(text: str, pattern: str) -> str:
    found = re.search(pattern, text, re.M)
    assert found is not None, pattern
    return found.group(1)


def test_file_limits_leave_room_for_every_connection_the_server_accepts() -> None:
    unit = (DEPLOY / "scorpion-race@.service").read_text()
    compose = (DEPLOY / "compose.yaml").read_text()
    nofile = int(setting(unit, r"^LimitNOFILE=(\d+)$"))
    assert nofile >= Limits().max_connections + 1024  # sockets, database, logs, worker
    assert int(setting(compose, r"^      nofile: (\d+)  # as LimitNOFILE")) == nofile
    # nginx holds two connections per websocket: the browser's and the app's.
    entry = (DEPLOY / "nginx-docker.sh").read_text()
    assert int(setting(entry, r"worker_connections (\d+);")) >= 2 * Limits().max_connections


def test_nginx_waits_longer_than_the_server_for_a_quiet_websocket() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    ws = setting(conf, r"location = /ws \{([^}]*)\}")
    assert int(setting(ws, r"proxy_read_timeout (\d+)s;")) > Limits().idle_timeout
    assert "proxy_set_header Upgrade $http_upgrade;" in ws


def test_the_image_runs_a_command_the_cli_has() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    command = setting(dockerfile, r"^CMD \[(.*)\]$")
    argv = [part.strip().strip('"') for part in command.split(",")]
    assert argv[0] == "scorpion"
    assert build_parser().parse_args(argv[1:]).command == "serve"  # SystemExit if unknown
    assert "USER scorpion" in dockerfile and "/readyz" in setting(
        dockerfile, r"^HEALTHCHECK.*\n(.*)$"
    )
    lines = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    ignored = {line for line in lines if line and not line.startswith("#")}
    assert ".venv" in ignored and not {"server", "client", "pyproject.toml", "README.md"} & ignored
