"""``scorpion reports``: the real console script, in a subprocess, on both backends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorpion.store import SaveReport, open_store


def scorpion(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scorpion.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.mark.backends
async def test_reports_are_printed_newest_first(database: str) -> None:
    store = open_store(database)
    await store.open()
    assert scorpion("reports", "--db", database).stdout == "No names reported.\n"
    await store.write([SaveReport("r1", "p_b", "Bo <b>", "p_c", "", 0.0)])
    await store.write([SaveReport("r1", "p_d", "Di", "p_c", "a slur", 60.0)])
    await store.close()
    done = scorpion("reports", "--db", database)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        '1970-01-01 00:01 UTC  "Di" (p_d) reported by p_c in r1: "a slur"',
        '1970-01-01 00:00 UTC  "Bo <b>" (p_b) reported by p_c in r1',
    ]
    lines = scorpion("reports", "--db", database, "--json", "--limit", "1").stdout.splitlines()
    assert [json.loads(line)["name"] for line in lines] == ["Di"]


def test_a_missing_database_or_an_unknown_url_is_a_clear_error(tmp_path: Path) -> None:
    done = scorpion("reports", "--db", str(tmp_path / "none.db"))
    assert done.returncode != 0 and "no database at" in done.stderr
    assert not (tmp_path / "none.db").exists()  # nothing created
    done = scorpion("reports", "--db", "mysql://localhost/scorpion")
    assert done.returncode != 0 and "unsupported database URL" in done.stderr
