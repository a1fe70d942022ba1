"""deploy/run-local.sh: PostgreSQL, the app and nginx from Debian packages, on loopback ports.

One topology per module (starting PostgreSQL and nginx costs a few seconds): races played
through nginx with real websocket clients, the nginx configuration's promises (gzip, the
static cache, the Host header, private /metrics, X-Forwarded-For), a PostgreSQL backup
made with pg_dump and restored into a new database, and three app processes on one
redis-server with a race through nginx across them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import httpx
import pytest

from scorpion_dev.server import Api, Client, free_port, start_race

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "deploy" / "run-local.sh"
# The newest PostgreSQL installed, as run-local.sh picks it.
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: float(p.parent.name))
DEAL = 20261201
# The app's database in the topology: every topology test runs on each.
DB_KINDS = ("sqlite", "postgresql")
# Player creation per client address: a burst of 8, then one per 100 minutes, so the
# forged-address test below does not depend on how fast it runs.
LIMITS = {"new_players_burst": 8, "new_players_per_minute": 0.01}


@dataclass(frozen=True)
class Topology:
    dir: Path
    db_kind: str
    http_port: int
    app_port: int
    pg_port: int
    processes: int = 1  # more: on ports app_port and up, with a redis-server on redis_port
    redis_port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def ws_url(self) -> str:  # what start_race connects to: nginx's /ws
        return f"ws://127.0.0.1:{self.http_port}/ws"

    def env(self) -> dict[str, str]:
        """The environment file run-local.sh made (SCORPION_SECRET, POSTGRES_PASSWORD)."""
        lines = (self.dir / "scorpion.env").read_text().splitlines()
        return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in sorted((self.dir / "logs").glob("*.log"))
        )


def run_local(
    *args: str, timeout: float = 120.0, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    given = env or {}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCORPION_", "POSTGRES_"))}
    env.update(
        APP_BIN=str(Path(sys.executable).parent / "scorpion"),
        SCORPION_DAILY_SEARCH="none",
        SCORPION_LIMITS=json.dumps(LIMITS),
    )
    env.update(given)
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def new_folder() -> Path:
    # Not under pytest's 0700 tmp folder: the postgres and nobody users must pass through.
    folder = Path(tempfile.mkdtemp(prefix="scorpion-deploy-"))
    folder.chmod(0o711)
    return folder


def start(top: Topology, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    cluster = ("--redis", "--redis-port", str(top.redis_port), "--processes", str(top.processes))
    return run_local(
        "start", str(top.dir), "--db", top.db_kind, "--http-port", str(top.http_port),
        "--app-port", str(top.app_port), "--pg-port", str(top.pg_port),
        *(cluster if top.processes > 1 else ()), env=env,
    )  # fmt: skip


def running(folder: Path) -> list[str]:
    """The pid files of the topology's processes still there (stop removes them)."""
    pids = ["app.pid", "nginx/nginx.pid", "pg/data/postmaster.pid", "redis/redis.pid"]
    apps = [str(p.relative_to(folder)) for p in folder.glob("app-*.pid")]
    apps += [str(p.relative_to(folder)) for p in folder.glob("supervise/*.pid")]
    return [name for name in pids if (folder / name).exists()] + apps


def free_ports_in_a_row(count: int, tries: int = 50) -> int:
    """The first of ``count`` consecutive free loopback ports."""
    for _ in range(tries):
        first = free_port()
        try:
            for port in range(first + 1, first + count):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise RuntimeError(f"no {count} free ports in a row after {tries} tries")


def stop_and_remove(folder: Path) -> None:
    stopped = run_local("stop", str(folder))
    left = running(folder)
    shutil.rmtree(folder, ignore_errors=True)
    assert stopped.returncode == 0 and not left, (stopped.stderr, left)


@pytest.fixture(scope="module", params=DB_KINDS)
def topology(request: pytest.FixtureRequest) -> Iterator[Topology]:
    top = Topology(new_folder(), request.param, free_port(), free_port(), free_port())
    try:
        started = start(top)
        assert started.returncode == 0, started.stderr + top.logs()
        yield top
    finally:
        stop_and_remove(top.dir)


async def play_race(top: Topology) -> tuple[str, dict[str, str], dict[str, str]]:
    """Ann and Bob race through nginx: each move acknowledged, each seeing the other's
    progress; both give up. Returns (room, player ids by name, tokens by name)."""
    async with Api(top.url) as api:
        room, racers, tokens = await start_race(top, api, ["Ann", "Bob"], DEAL, max_players=2)
        ann, bob = racers["Ann"], racers["Bob"]
        try:
            for turn in range(1, 5):
                for racer, other in ((ann, bob), (bob, ann)):
                    answer = await racer.act("move", move=racer.pick())
                    assert answer["type"] == "applied", answer
                    seen = await other.client.progress(racer.id, lambda p, n=turn: p["moves"] == n)
                    assert seen["status"] == "playing"
            for racer in (ann, bob):
                assert (await racer.act("give-up"))["status"] == "gave-up"
            for racer in (ann, bob):
                results = await racer.client.expect(lambda f: f.get("event") == "results")
                assert {e["player"] for e in results["ranking"]} == {ann.id, bob.id}
                assert int(results["deal"]) == DEAL
        finally:
            for racer in (ann, bob):
                await racer.client.close()
        games = (await api.call("GET", "/api/me/games", tokens["Bob"])).json()["games"]
        assert [(g["room"], g["status"], g["moves"]) for g in games] == [(room, "gave-up", 4)]
    return room, {"Ann": ann.id, "Bob": bob.id}, tokens


async def test_a_race_through_nginx(topology: Topology) -> None:
    await play_race(topology)
    # The sockets went through nginx's /ws, upgraded, with the room as their routing hint.
    access = (topology.dir / "logs" / "nginx-access.log").read_text()
    assert len(re.findall(r'"GET /ws\?room=\w+ HTTP/1.1" 101', access)) >= 2, access[-2000:]


def test_nginx_caches_the_versioned_client_files_and_passes_the_host(topology: Topology) -> None:
    with httpx.Client(base_url=topology.url, timeout=10.0) as http:
        page = http.get("/")
        found = re.search(r'src="(/js/main\.js\?v=\w+)"', page.text)
        assert found is not None, page.text[:1000]
        gzip = {"Accept-Encoding": "gzip"}
        first, again = (http.get(found.group(1), headers=gzip) for _ in range(2))
        plain = [http.get("/js/main.js") for _ in range(2)]
    assert first.status_code == again.status_code == 200
    assert again.headers["x-cache-status"] == "HIT"  # nginx answered; the app was not asked
    assert again.headers["content-encoding"] == "gzip"
    assert again.headers.get_list("cache-control") == ["public, max-age=31536000, immutable"]
    assert first.text == again.text and "import" in again.text
    # Unversioned URLs and the page are the app's to revalidate: never answered from the cache.
    assert [r.headers.get("x-cache-status") for r in plain] == ["MISS", "MISS"]
    assert plain[1].headers.get_list("cache-control") == ["no-cache"]
    assert "x-cache-status" not in page.headers
    # The app's security headers survive the proxy, and its CSP names the browser's host
    # with nginx's port (the websocket URL the page will open).
    assert page.headers["x-content-type-options"] == "nosniff"
    assert f"ws://127.0.0.1:{topology.http_port}" in page.headers["content-security-policy"]


def test_metrics_are_private(topology: Topology) -> None:
    # Both addresses are this host's loopback: only 127.0.0.1 is allowed.
    with httpx.Client(base_url=topology.url, timeout=10.0) as http:
        assert http.get("/metrics").text.startswith("# HELP")
    outside = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=topology.url, timeout=10.0, transport=outside) as http:
        assert http.get("/metrics").status_code == 403
        assert http.get("/readyz").status_code == 200


def psql(top: Topology, database: str, sql: str) -> str:
    """SQL as the app's role, over TCP with its password (as a backup job would connect)."""
    env = {**os.environ, "PGPASSWORD": top.env()["POSTGRES_PASSWORD"]}
    done = subprocess.run(
        [str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", str(top.pg_port), "-U", "scorpion",
         "-d", database, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("topology", ["postgresql"], indirect=True)
async def test_pg_dump_and_restore(topology: Topology) -> None:
    room, ids, _ = await play_race(topology)
    # The race's game records, and its log (what a restart replays).
    records = f"SELECT player_id, result, moves FROM games WHERE room_id = '{room}' ORDER BY 1"
    log = f"SELECT count(*) FROM room_log WHERE room_id = '{room}'"
    before = [psql(topology, "scorpion", sql) for sql in (records, log)]
    rows = [line.split("|") for line in before[0].split()]
    assert sorted(player for player, _, _ in rows) == sorted(ids.values())
    assert {(result, moves) for _, result, moves in rows} == {("gave-up", "4")}
    assert int(before[1]) > 0

    # The commands of deploy/README.md: a custom-format dump, a new database, pg_restore.
    dump = topology.dir / "scorpion.dump"
    env = {**os.environ, "PGPASSWORD": topology.env()["POSTGRES_PASSWORD"]}
    server = ["-h", "127.0.0.1", "-p", str(topology.pg_port), "-U", "scorpion"]
    dumped = subprocess.run(
        [str(PG_BIN / "pg_dump"), *server, "-Fc", "-f", str(dump), "scorpion"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert dumped.returncode == 0, dumped.stderr
    created = run_local("psql", str(topology.dir), "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                        "-c", "CREATE DATABASE restored OWNER scorpion")  # fmt: skip
    assert created.returncode == 0, created.stderr
    restored = subprocess.run(
        [str(PG_BIN / "pg_restore"), *server, "--no-owner", "-d", "restored", str(dump)],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert restored.returncode == 0, restored.stderr
    assert [psql(topology, "restored", sql) for sql in (records, log)] == before


async def test_a_failed_start_stops_what_it_started_and_stop_tells_sockets_going_away() -> None:
    top = Topology(new_folder(), "sqlite", free_port(), free_port(), free_port())
    try:
        with socket.socket() as taken:  # something else already listens on nginx's port
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            failed = start(replace(top, http_port=taken.getsockname()[1]))
        assert failed.returncode != 0
        assert "nginx" in failed.stderr
        assert not running(top.dir)  # PostgreSQL and the app were stopped again
        secrets = (top.dir / "scorpion.env").read_text()

        started = start(top)
        assert started.returncode == 0, started.stderr
        status = run_local("status", str(top.dir))
        assert status.returncode == 0 and "ready through nginx" in status.stdout, status.stdout
        assert (top.dir / "scorpion.env").read_text() == secrets  # the same secret and password

        # A player in a room through nginx when everything stops: told 1001, "going away".
        async with Api(top.url) as api:
            _, token = await api.new_player("Ann")
            room = await api.new_room(token)
        client = await Client.connect(top.ws_url, "Ann")
        assert (await client.hello(token, room=room))["type"] == "welcome"
        stopped = await asyncio.to_thread(run_local, "stop", str(top.dir))
        assert stopped.returncode == 0, stopped.stderr
        assert (await client.closed())[0] == 1001
    finally:
        stop_and_remove(top.dir)


@pytest.mark.parametrize("topology", ["sqlite"], indirect=True)  # nginx alone is tested here
def test_the_production_configuration_redirects_to_https_and_sends_hsts(topology: Topology) -> None:
    """deploy/nginx.conf as written, TLS parts included, with a self-signed certificate:
    only the addresses, paths and the app's port are changed for this sandbox."""
    folder = topology.dir / "tls"
    (folder / "tmp").mkdir(parents=True)
    key, cert = folder / "privkey.pem", folder / "fullchain.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=race.example.org", "-keyout", str(key), "-out", str(cert)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    http, https = free_port(), free_port()
    site = (REPO / "deploy" / "nginx.conf").read_text()
    for old, new in [
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen [::]:80;", ""),
        (
            "listen 443 ssl http2; listen [::]:443 ssl http2;",
            f"listen 127.0.0.1:{https} ssl http2;",
        ),
        ("/etc/nginx/certs/", f"{folder}/"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{topology.app_port};"),
        ("/var/cache/nginx/scorpion-race", f"{folder}/cache"),
        ("/var/www/acme", f"{folder}/acme"),
    ]:
        assert old in site, old
        site = site.replace(old, new)
    (folder / "site.conf").write_text(site)
    user = "user nobody nogroup;" if os.geteuid() == 0 else ""
    if user:
        shutil.chown(folder / "tmp", "nobody")
    main = f"""{user}
        pid {folder}/nginx.pid;
        error_log {folder}/error.log;
        events {{ worker_connections 64; }}
        http {{
            access_log off;
            client_body_temp_path {folder}/tmp/body;
            proxy_temp_path {folder}/tmp/proxy;
            fastcgi_temp_path {folder}/tmp/fastcgi;
            uwsgi_temp_path {folder}/tmp/uwsgi;
            scgi_temp_path {folder}/tmp/scgi;
            include {folder}/site.conf;
        }}"""
    (folder / "nginx.conf").write_text(main)
    nginx = ["/usr/sbin/nginx", "-e", str(folder / "error.log"), "-p", str(folder),
             "-c", str(folder / "nginx.conf")]  # fmt: skip
    started = subprocess.run(nginx, capture_output=True, text=True, timeout=30)
    assert started.returncode == 0, started.stderr
    try:
        with httpx.Client(timeout=10.0) as plain:
            moved = plain.get(f"http://127.0.0.1:{http}/r/abc?x=1")
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://127.0.0.1/r/abc?x=1"
        with httpx.Client(timeout=10.0, verify=False) as tls:
            ready = tls.get(f"https://127.0.0.1:{https}/readyz")
            metrics = tls.get(f"https://127.0.0.1:{https}/metrics")
        assert ready.status_code == 200 and ready.json() == {"ready": True}
        assert ready.headers["strict-transport-security"] == "max-age=31536000; includeSubDomains"
        assert metrics.status_code == 200  # from 127.0.0.1
        assert "strict-transport-security" in metrics.headers
    finally:
        pid = int((folder / "nginx.pid").read_text())
        subprocess.run([*nginx, "-s", "stop"], capture_output=True, timeout=30)
        wait_until_gone(pid)


def wait_until_gone(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"nginx {pid} still ran {timeout} s after it was told to stop")


# Last of the topology's tests (pytest keeps the file's order): it spends a burst of new
# players from 127.0.0.3, and one more from 127.0.0.1.
def test_a_client_cannot_choose_the_address_its_limits_count(topology: Topology) -> None:
    # Each request forges another X-Forwarded-For: nginx sends the address it saw instead,
    # so they all draw on one bucket and are refused before it would refill.
    transport = httpx.HTTPTransport(local_address="127.0.0.3")
    codes: list[int] = []
    with httpx.Client(base_url=topology.url, timeout=10.0, transport=transport) as http:
        for i in range(LIMITS["new_players_burst"] + 1):
            forged = {"X-Forwarded-For": f"198.51.100.{i}"}
            codes.append(http.post("/api/players", json={}, headers=forged).status_code)
            if codes[-1] == 429:
                break
    assert codes == [201] * LIMITS["new_players_burst"] + [429]
    # Another peer still gets players: the app counts each peer's address, as nginx passes
    # it (without SCORPION_TRUSTED_PROXIES every request would come from nginx's 127.0.0.1).
    with httpx.Client(base_url=topology.url, timeout=10.0) as http:
        assert http.post("/api/players", json={}).status_code == 201


def counter(port: int, name: str) -> float:
    """A counter of the app process on ``port`` (asked directly)."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10.0).text
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found is not None, text[:500]
    return float(found.group(1))


async def test_a_race_across_three_processes_on_one_redis_through_nginx() -> None:
    top = Topology(
        new_folder(), "postgresql", free_port(), free_ports_in_a_row(3), free_port(),
        processes=3, redis_port=free_port(),
    )  # fmt: skip
    try:
        started = start(top)
        assert started.returncode == 0, started.stderr + top.logs()
        assert "REDIS_PASSWORD=" in (top.dir / "scorpion.env").read_text()
        status = run_local("status", str(top.dir))
        assert status.returncode == 0, status.stdout
        assert all(f"{app} ready" in status.stdout for app in ("app", "app-2", "app-3"))
        assert "Redis running" in status.stdout
        await play_race(top)
        # nginx hashed the room id in the sockets' URL: both on one process, the room's
        # owner, which sent every frame; no command was forwarded over Redis.
        ports = [top.app_port + i for i in range(top.processes)]
        sent = [counter(port, "scorpion_frames_sent_total") for port in ports]
        assert sum(1 for n in sent if n > 0) == 1, (sent, top.logs())
        forwarded = [counter(port, "scorpion_forwarded_commands_total") for port in ports]
        assert forwarded == [0, 0, 0], (forwarded, top.logs())
    finally:
        stop_and_remove(top.dir)


def test_several_processes_need_redis_and_postgresql() -> None:
    folder = new_folder()
    try:
        alone = run_local("start", str(folder), "--processes", "2")
        assert alone.returncode != 0 and "--processes 2 needs --redis" in alone.stderr
        sqlite = run_local("start", str(folder), "--db", "sqlite", "--redis")
        assert sqlite.returncode != 0 and "--redis needs --db postgresql" in sqlite.stderr
        assert not running(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pid_of(path: Path) -> int | None:
    """The live process in a pid file, or None."""
    try:
        pid = int(path.read_text())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def wait_for(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not {what} after {timeout} s"
        time.sleep(0.1)


def test_a_dead_app_is_restarted_and_a_crash_loop_given_up() -> None:
    top = Topology(new_folder(), "sqlite", free_port(), free_port(), free_port())
    # The app through a wrapper that refuses to start while the flag file exists.
    flag = top.dir / "refuse-to-start"
    wrapper = top.dir / "scorpion-wrapper"
    wrapper.write_text(
        f"#!/bin/sh\n[ -e {flag} ] && {{ echo 'refusing to start'; exit 3; }}\n"
        f'exec {Path(sys.executable).parent / "scorpion"} "$@"\n'
    )
    wrapper.chmod(0o755)
    env = {"APP_BIN": str(wrapper), "RUN_LOCAL_MAX_RESTARTS": "2"}
    pidfile, log = top.dir / "app.pid", top.dir / "logs" / "app.log"
    try:
        started = start(top, env)
        assert started.returncode == 0, started.stderr + top.logs()
        first = pid_of(pidfile)
        assert first is not None
        os.kill(first, signal.SIGKILL)  # as the OOM killer would

        def back() -> bool:
            pid = pid_of(pidfile)
            if pid in (None, first):
                return False
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(f"{top.url}/readyz", timeout=2.0).status_code == 200
            return False

        wait_for(back, "restarted and ready through nginx")

        # A crash loop (the app ran under 60 s, so it counts): killed again, restarted after
        # 2 s; that start fails; the supervisor gives up rather than loop for ever.
        flag.touch()
        second = pid_of(pidfile)
        assert second is not None
        os.kill(second, signal.SIGKILL)
        supervisor = top.dir / "supervise" / "app.pid"
        wait_for(lambda: pid_of(supervisor) is None, "given up", timeout=30.0)
        said = re.findall(r"run-local.sh: app exited with (.*)", log.read_text())
        assert said == [
            "status 137; restart 1 of 2 in 1 s",
            "status 137; restart 2 of 2 in 2 s",
            "status 3; 2 restarts in a row failed: giving up",
        ], log.read_text()[-2000:]
        assert pid_of(pidfile) is None
    finally:
        stop_and_remove(top.dir)


def test_stop_restarts_nothing() -> None:
    """stop goes through the supervisors: every app ends once, none comes back."""
    top = Topology(new_folder(), "sqlite", free_port(), free_port(), free_port())
    try:
        started = start(top)
        assert started.returncode == 0, started.stderr + top.logs()
        app = pid_of(top.dir / "app.pid")
        assert app is not None
        stopped = run_local("stop", str(top.dir))
        assert stopped.returncode == 0, stopped.stderr
        assert not running(top.dir) and pid_of(top.dir / "app.pid") is None
        text = (top.dir / "logs" / "app.log").read_text()
        # Ended by the TERM (uvicorn exits by the signal once its sockets are closed).
        assert re.findall(r"run-local.sh: (.*)", text) == ["app stopped (status 143)"], text
    finally:
        stop_and_remove(top.dir)
