"""``scorpion backup`` during a race on a real server, ``scorpion restore`` to a new one."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from scorpion_dev.postgres import PostgresCluster
from scorpion_dev.server import Api, Client, ServerProcess, free_port, start_race

DEAL = 4242


def scorpion(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
    return subprocess.run(
        [sys.executable, "-m", "scorpion", *args],
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_backup_during_a_race_restores_to_a_working_server(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "live" / "scorpion.db", secret="s3cret")
    server.start()
    backup = tmp_path / "saved" / "race.backup"
    backup.parent.mkdir()
    try:
        async with Api(server.url) as api:
            room, racers, tokens = await start_race(server, api, ["Ann", "Bo"], DEAL)
            ann, bo = racers["Ann"], racers["Bo"]
            assert (await ann.act("move", move=ann.pick()))["type"] == "applied"
            assert (await ann.act("give-up"))["type"] == "applied"  # her game record is saved
            assert (await bo.act("move", move=bo.pick()))["type"] == "applied"

            done = scorpion("backup", str(backup), "--db", str(server.db),
                            env={"SCORPION_SECRET": "s3cret"})  # fmt: skip
            assert done.returncode == 0, done.stderr
            # The race goes on while and after the backup is taken.
            assert (await bo.act("move", move=bo.pick()))["type"] == "applied"
            in_use = scorpion("restore", str(backup), "--db", str(server.db), "--replace")
            assert in_use.returncode == 1 and "in use by another scorpion process" in in_use.stderr
            for racer in racers.values():
                await racer.client.close()
    finally:
        server.stop()
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    saved_secret = Path(str(backup) + ".secret")
    assert saved_secret.read_text().strip() == "s3cret"
    assert stat.S_IMODE(saved_secret.stat().st_mode) == 0o600

    restored_db = tmp_path / "restored" / "scorpion.db"
    done = scorpion("restore", str(backup), env={"SCORPION_DB": str(restored_db)})
    assert done.returncode == 0, done.stderr
    assert (restored_db.parent / "secret").read_text().strip() == "s3cret"
    again = scorpion("restore", str(backup), env={"SCORPION_DB": str(restored_db)})
    assert again.returncode == 1 and "--replace" in again.stderr  # nothing overwritten by mistake

    restored = ServerProcess(restored_db, secret="s3cret")
    restored.start()
    try:
        async with Api(restored.url) as api:
            me = await api.call("GET", "/api/me", tokens["Ann"])
            assert me.status_code == 200 and me.json()["player"]["name"] == "Ann"
            games = (await api.call("GET", "/api/me/games", tokens["Ann"])).json()["games"]
            assert [g["room"] for g in games] == [room]
            # The room is back as it was at the backup: Ann gave up after one move, Bo made
            # one move (his second came after the backup).
            for name, moves in (("Ann", 1), ("Bo", 1)):
                client = await Client.connect(restored.ws_url, name)
                welcome = await client.hello(tokens[name], room=room)
                assert welcome["type"] == "welcome", welcome
                assert welcome["view"]["moves"] == moves
                await client.close()
    finally:
        restored.stop()


async def test_a_postgresql_backup_is_private_and_restores(
    tmp_path: Path, postgres: PostgresCluster
) -> None:
    url = postgres.new_database()
    server = ServerProcess(url, log_path=tmp_path / "server.log")
    server.start()
    try:
        async with Api(server.url) as api:
            _, token = await api.new_player("Ann")
            dump = tmp_path / "saved" / "race.dump"
            clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
            done = subprocess.run(  # while serving, under a umask that would give 0644
                [sys.executable, "-m", "scorpion", "backup", str(dump), "--db", url],
                env=clean, capture_output=True, text=True, timeout=120, umask=0o022,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert stat.S_IMODE(dump.stat().st_mode) == 0o600
            assert not list(dump.parent.glob("*.partial"))
    finally:
        server.stop()
    restored = postgres.new_database()
    loaded = subprocess.run(
        [str(postgres.bin / "pg_restore"), "--no-owner", "-d", restored, str(dump)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr
    assert postgres.psql("SELECT name FROM players", restored) == "Ann"
    again = ServerProcess(restored, log_path=tmp_path / "restored.log")
    again.start()
    try:
        async with Api(again.url) as api:
            me = await api.call("GET", "/api/me", token)
            assert me.status_code == 200 and me.json()["player"]["name"] == "Ann"
    finally:
        again.stop()


def test_a_failed_postgresql_backup_leaves_no_file(tmp_path: Path) -> None:
    dump = tmp_path / "race.dump"
    unreachable = f"postgresql://scorpion:Zq9pass@127.0.0.1:{free_port()}/scorpion"
    done = scorpion("backup", str(dump), "--db", unreachable)
    assert done.returncode == 1 and "pg_dump failed" in done.stderr, done.stderr
    assert "Zq9pass" not in done.stderr + done.stdout  # the password is never echoed
    assert list(tmp_path.iterdir()) == []
