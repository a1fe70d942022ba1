"""One server per SQLite file, and a database file only its owner can read."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from scorpion.store import SQLiteStore
from scorpion.store.lock import hold
from scorpion_dev.server import ServerProcess, free_port


def test_a_second_server_on_the_same_file_refuses_to_start(tmp_path: Path) -> None:
    db = tmp_path / "data" / "scorpion.db"
    first = ServerProcess(db)
    first.start()
    try:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SCORPION_")}
        second = subprocess.run(
            [sys.executable, "-m", "scorpion", "serve", "--port", str(free_port()),
             "--db", str(db), "--secret", "x", "--daily-search", "none"],
            env=clean, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert second.returncode == 1
        assert f"in use by another scorpion process (pid {first.proc.pid})" in second.stderr
        assert "Traceback" not in second.stderr
        assert first.running
        for path in (db, Path(f"{db}-wal"), Path(f"{db}.lock")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        first.stop()
    again = ServerProcess(db)  # the lock went with the first process
    again.start()
    again.kill()  # kill -9 drops it too
    again.start()
    again.stop()


async def test_the_store_holds_the_lock_while_open(tmp_path: Path) -> None:
    db = tmp_path / "race.db"
    store = SQLiteStore(db)
    await store.open()
    try:
        other = subprocess.run(
            [sys.executable, "-c", f"from scorpion.store.lock import hold; hold({str(db)!r})"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert other.returncode == 1 and "InUseError" in other.stderr
        hold(db).release()  # within one process the lock is shared
    finally:
        await store.close()
    after = subprocess.run(
        [sys.executable, "-c", f"from scorpion.store.lock import hold; hold({str(db)!r})"],
        timeout=60,
    )
    assert after.returncode == 0  # free once the store is closed
