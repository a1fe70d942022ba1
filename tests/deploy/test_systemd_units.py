"""deploy/'s systemd units: the template for N processes, hardened; the backup timer.

No systemd runs here: the units are checked with ``systemd-analyze`` (``verify`` on
copies pointing at this checkout's venv, ``security --offline``), and the one sandbox
setting Python could trip on, MemoryDenyWriteExecute, is tried for real: a server under
the kernel's equivalent (prctl PR_SET_MDWE, inherited by its workers) plays a race with
a hint searched by a worker process.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorpion.cli import build_parser
from scorpion_dev.server import Api, ServerProcess, start_race

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
TEMPLATE = DEPLOY / "scorpion-race@.service"
BACKUP, TIMER = DEPLOY / "scorpion-race-backup.service", DEPLOY / "scorpion-race-backup.timer"
ANALYZE = shutil.which("systemd-analyze")  # Debian's systemd (tests/setup/system-deps)
ISSUE_RATING = 7.1  # what `systemd-analyze security` said of the old unit

# Loaded into every Python process of the server (PYTHONPATH): the workers inherit it.
MDWE = """
import ctypes
PR_SET_MDWE, PR_GET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 66, 1
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_GET_MDWE, 0, 0, 0, 0) != PR_MDWE_REFUSE_EXEC_GAIN:
    if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_MDWE) failed")
"""


def settings(unit: Path) -> dict[str, list[str]]:
    """A unit's settings, each key's values in order (keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def exposure(unit: Path) -> float:
    assert ANALYZE is not None
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", str(unit)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert "Unknown key" not in done.stderr, done.stderr
    return float(found.group(1))


def test_the_template_runs_one_process_per_port_with_bounded_restarts() -> None:
    unit = settings(TEMPLATE)
    (command,) = unit["ExecStart"]
    argv = command.split()
    assert argv[-2:] == ["--port", "%i"]  # a flag: the environment file cannot move it
    assert build_parser().parse_args([*argv[1:-1], "8001"]).port == "8001"
    assert "SCORPION_PORT" not in " ".join(unit["Environment"])
    assert unit["Restart"] == ["on-failure"] and float(unit["RestartSec"][0]) >= 1
    assert int(unit["StartLimitBurst"][0]) >= 1 and int(unit["StartLimitIntervalSec"][0]) > 0
    assert unit["UMask"] == ["0077"] and unit["User"] == ["scorpion"]
    assert not (DEPLOY / "scorpion-race.service").exists()  # one unit to keep right


@pytest.mark.parametrize("unit", [TEMPLATE, BACKUP], ids=["server", "backup"])
def test_the_units_are_sandboxed(unit: Path) -> None:
    found = settings(unit)
    for key, value in {
        "CapabilityBoundingSet": "", "NoNewPrivileges": "yes", "RestrictNamespaces": "yes",
        "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectKernelTunables": "yes",
        "ProtectClock": "yes", "LockPersonality": "yes", "RestrictSUIDSGID": "yes",
        "MemoryDenyWriteExecute": "yes", "PrivateDevices": "yes", "ProtectSystem": "strict",
        "UMask": "0077",
    }.items():  # fmt: skip
        assert found.get(key) == [value], key
    assert "@system-service" in found["SystemCallFilter"]
    assert exposure(unit) <= 2.0 < ISSUE_RATING  # the issue quoted 7.1 MEDIUM


def test_systemd_analyze_verify_finds_nothing_to_say(tmp_path: Path) -> None:
    assert ANALYZE is not None
    venv = str(Path(sys.executable).parent.parent)
    for unit in (TEMPLATE, BACKUP, TIMER):
        text = unit.read_text().replace("/srv/scorpion-race/.venv", venv)
        (tmp_path / unit.name).write_text(text)
    (tmp_path / "scorpion-race@8000.service").write_text((tmp_path / TEMPLATE.name).read_text())
    done = subprocess.run(
        [ANALYZE, "verify", "--man=no", *(str(tmp_path / name) for name in (
            "scorpion-race@8000.service", BACKUP.name, TIMER.name))],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_backup_timer_runs_scorpion_backup_daily() -> None:
    timer, service = settings(TIMER), settings(BACKUP)
    assert timer["OnCalendar"] == ["*-*-* 03:30:00"] and timer["Persistent"] == ["true"]
    assert service["Type"] == ["oneshot"]
    (command,) = service["ExecStart"]
    found = re.search(r"scorpion backup \"([^\"]+)\"", command)
    assert found is not None, command
    target = found.group(1).replace("%%", "%")
    assert target.startswith("/var/lib/scorpion-race-backups/")
    assert build_parser().parse_args(["backup", target]).command == "backup"
    assert "scorpion-race-backups" in service["StateDirectory"][0].split()
    assert service["StateDirectoryMode"] == ["0700"]


def test_python_can_be_denied_write_and_execute_memory(tmp_path: Path) -> None:
    """The mechanism works here: a process under MDWE cannot map memory W+X."""
    (tmp_path / "sitecustomize.py").write_text(MDWE)
    probe = (
        "import mmap\n"
        "try:\n"
        "    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        "except PermissionError:\n"
        "    print('denied')\n"
    )
    plain = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    env = {"PYTHONPATH": str(tmp_path)}
    denied = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert plain.stdout == "" and denied.stdout == "denied\n", denied.stderr


async def test_a_race_with_a_searched_hint_under_memory_deny_write_execute(
    tmp_path: Path,
) -> None:
    (tmp_path / "mdwe").mkdir()
    (tmp_path / "mdwe" / "sitecustomize.py").write_text(MDWE)
    server = ServerProcess(tmp_path / "s.db", env={"PYTHONPATH": str(tmp_path / "mdwe")})
    server.start()
    try:
        async with Api(server.url) as api:
            _, racers, _ = await start_race(server, api, ["Ann", "Bo"], 4242, hints=True)
            for racer in racers.values():
                assert (await racer.act("move", move=racer.pick()))["type"] == "applied"
            hint = await racers["Ann"].client.call("hint", timeout=60)
            assert hint["type"] == "applied", hint  # a search worker process answered
            assert (await api.call("GET", "/metrics")).status_code == 200
            for racer in racers.values():
                await racer.client.close()
    finally:
        server.stop()
