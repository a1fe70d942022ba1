"""``scorpion serve`` with no flags: SCORPION_* variables and the ./data defaults."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from scorpion.store.schema import VERSION
from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import ServerProcess, free_port, listens


def serve(cwd: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
    log = (cwd / "serve.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorpion.cli", "serve"],
        cwd=cwd,
        env={**clean, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    return proc


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited"
        try:
            if httpx.get(url + "/readyz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError("not ready in time")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        assert proc.wait(20) == 0  # Ctrl+C: a clean stop, exit status 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_defaults_create_data_and_keep_the_secret(tmp_path: Path) -> None:
    port = free_port()
    env = {"SCORPION_PORT": str(port), "SCORPION_DAILY_SEARCH": "none"}
    url = f"http://127.0.0.1:{port}"
    proc = serve(tmp_path, env)
    try:
        wait_ready(url, proc)
        token = httpx.post(url + "/api/players", json={"name": "Ann"}).json()["token"]
    finally:
        stop(proc)
    secret = tmp_path / "data" / "secret"
    assert (tmp_path / "data" / "scorpion.db").is_file()
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    kept = secret.read_text()
    assert len(kept.strip()) >= 32
    proc = serve(tmp_path, env)  # same secret, same database: the token still works
    try:
        wait_ready(url, proc)
        headers = {"Authorization": f"Bearer {token}"}
        assert httpx.get(url + "/api/me", headers=headers).json()["player"]["name"] == "Ann"
    finally:
        stop(proc)
    assert secret.read_text() == kept


def test_environment_database_and_secret(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "elsewhere" / "race.db"
    env = {"SCORPION_PORT": str(port), "SCORPION_DB": str(db), "SCORPION_SECRET": "s3cret",
           "SCORPION_HOST": "127.0.0.1", "SCORPION_DAILY_SEARCH": "none"}  # fmt: skip
    proc = serve(tmp_path, env)
    try:
        wait_ready(f"http://127.0.0.1:{port}", proc)
    finally:
        stop(proc)
    assert db.is_file()
    assert not (db.parent / "secret").exists()  # a given secret is not written down
    assert not (tmp_path / "data").exists()


def test_an_older_server_refuses_a_database_a_newer_one_upgraded(tmp_path: Path) -> None:
    """A rollback without restoring the backup: the server stops at start, names both
    schemas and says what to do; the database is left as it was."""
    db = tmp_path / "scorpion.db"
    server = ServerProcess(db)
    server.start()
    server.stop()
    newer = VERSION + 1
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(f"PRAGMA user_version={newer}")
    with pytest.raises(RuntimeError, match="exited 1") as failed:
        server.start()
    said = str(failed.value)
    assert f"has schema {newer}, newer than this server's {VERSION}" in said, said
    assert "roll forward" in said and "restore the backup taken before the upgrade" in said
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == newer


def refused_start(tmp_path: Path, args: list[str], env: dict[str, str]) -> str:
    """``scorpion serve`` that must stop at once: its output, checked to be one line."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
    done = subprocess.run(
        [sys.executable, "-m", "scorpion", "serve", "--port", str(free_port()), *args],
        cwd=tmp_path, env={**clean, **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == "" and not (tmp_path / "data").exists()
    return done.stderr


@pytest.mark.parametrize("given", ["flag", "variable"])
def test_a_wrong_postgresql_password_is_one_line_naming_the_setting(
    tmp_path: Path, postgres: PostgresCluster, given: str
) -> None:
    user = f"pw_{given}"
    url = postgres.password_user(user, "right-one").replace(f"://{user}@", f"://{user}:w0ng-pw@")
    setting = ["--db", url] if given == "flag" else []
    env = {} if given == "flag" else {"SCORPION_DB": url}
    said = refused_start(tmp_path, setting, env)
    name = "--db" if given == "flag" else "SCORPION_DB"
    assert said.startswith(f"scorpion serve: {name} (postgresql://{user}:***@127.0.0.1:")
    assert f'password authentication failed for user "{user}"' in said
    assert "w0ng-pw" not in said


def test_an_unknown_postgresql_host_is_one_line_naming_the_setting(tmp_path: Path) -> None:
    said = refused_start(tmp_path, [], {"SCORPION_DB": "postgresql://race:hush@db.invalid/race"})
    assert said == (
        "scorpion serve: SCORPION_DB (postgresql://race:***@db.invalid/race): "
        "the host 'db.invalid' is unknown (it does not resolve)\n"
    )


def test_a_port_taken_before_the_server_binds_it_is_not_mistaken_for_ours(
    tmp_path: Path,
) -> None:
    """The harness picks a free port, and another process may take it first (another test
    worker's server, which would answer the readiness probe from another database): the
    server is started on another port, and only its own listener counts as ready."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        assert listens(os.getpid(), taken)
        server = ServerProcess(tmp_path / "p.db")
        server.port = taken  # as if chosen free, then taken
        server.start()
        try:
            assert server.port != taken and server.proc is not None
            assert listens(server.proc.pid, server.port)
            assert not listens(server.proc.pid, taken)
            assert httpx.get(server.url + "/readyz").status_code == 200
        finally:
            server.stop()
