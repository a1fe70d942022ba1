"""The deploy files agree with the server they deploy (no Docker engine runs them here)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

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


def test_nginx_in_compose_re_resolves_every_app_replica(tmp_path: Path) -> None:
    """nginx-docker.sh run on copies: the site it writes resolves "app" through Docker's DNS
    every 10 s, in an upstream with a shared zone (what "resolve" needs)."""
    script = (DEPLOY / "nginx-docker.sh").read_text()
    main = tmp_path / "nginx.conf"
    main.write_text("events { worker_connections 768; }\n")
    for old, new in (
        ("/etc/scorpion/nginx.conf", str(DEPLOY / "nginx.conf")),
        ("/etc/nginx/conf.d/default.conf", str(tmp_path / "site.conf")),
        ("/etc/nginx/nginx.conf", str(main)),
    ):
        assert old in script, old
        script = script.replace(old, new)
    done = subprocess.run(["sh", "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    site = (tmp_path / "site.conf").read_text()
    assert site.startswith("resolver 127.0.0.11 valid=10s ipv6=off;\n")
    # Both upstreams: places by the consistent hash, a daily shard's sockets by the plain one.
    for name in ("scorpion_race", "scorpion_daily"):
        upstream = setting(site, rf"^upstream {name} \{{([^}}]*)\}}")
        assert re.search(r"^\s*server app:8000 resolve;", upstream, re.M), upstream
        assert re.search(rf"^\s*zone {name} \d+k;", upstream, re.M), upstream
        code = [line.split("#")[0] for line in upstream.splitlines()]
        assert not any("127.0.0.1:8000" in line for line in code), upstream
    assert "worker_connections 45000;" in main.read_text()
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    tag = compose["services"]["nginx"]["image"].split(":")[1].split("-")[0]
    version = (*map(int, tag.split(".")), 0, 0)[:3]
    assert version >= (1, 27, 3), tag  # "resolve" in an upstream: open-source nginx 1.27.3+


def test_prometheus_in_compose_scrapes_every_app_replica() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    prometheus, app = services["prometheus"], services["app"]
    assert set(prometheus["networks"]) & set(app["networks"])  # it reaches the app
    assert "./prometheus-compose.yml:/etc/prometheus/prometheus.yml:ro" in prometheus["volumes"]
    assert "./alerts.yml:/etc/prometheus/alerts.yml:ro" in prometheus["volumes"]  # its rules
    assert "--config.file=/etc/prometheus/prometheus.yml" in prometheus["command"]
    assert all(port.startswith("127.0.0.1:") for port in prometheus["ports"])
    scrape = yaml.safe_load((DEPLOY / "prometheus-compose.yml").read_text())
    (job,) = scrape["scrape_configs"]
    (found,) = job["dns_sd_configs"]
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert found["names"] == ["app"] and found["type"] == "A"
    assert found["port"] == int(setting(dockerfile, r"SCORPION_PORT=(\d+)"))
    # The backend network stays internal (PostgreSQL, Redis): the page is on another one.
    assert compose["networks"]["backend"]["internal"] is True
    published = [n for n in prometheus["networks"] if not compose["networks"][n].get("internal")]
    assert published, prometheus["networks"]


def test_the_image_installs_the_locked_dependencies_and_nothing_newer() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    build = dockerfile.split("\nFROM ")[1]  # the build stage
    lock_install = build.index("-r deploy/requirements.lock")
    assert lock_install < build.index("COPY . .") < build.index("--no-deps .")
    assert "pip check" in build
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    assert ignored.index("!deploy/requirements.lock") > ignored.index("deploy")
    lines = [
        line
        for line in (DEPLOY / "requirements.lock").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    pins = dict(line.split("==") for line in lines)
    assert all(re.fullmatch(r"[a-z0-9-]+==[\w.]+", line) for line in lines), lines
    spec = importlib.util.spec_from_file_location("lock", DEPLOY / "lock_requirements.py")
    assert spec is not None and spec.loader is not None
    lock = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lock)
    assert set(pins) == set(lock.runtime_closure())  # every runtime dependency, no other
    project = tomllib.loads((DEPLOY.parent / "pyproject.toml").read_text())["project"]
    for text in project["dependencies"]:
        wanted = Requirement(text)
        name = canonicalize_name(wanted.name)
        if wanted.marker is None or wanted.marker.evaluate():
            assert wanted.specifier.contains(pins[name]), (text, pins[name])
