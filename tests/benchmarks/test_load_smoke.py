"""The load benchmark still runs: tiny sizes, a real server, a few seconds; no timing asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]


def test_spam_phase_runs_and_prints_the_table(tmp_path: Path) -> None:
    rows_file = tmp_path / "rows.json"
    command = [sys.executable, "-m", "benchmarks.load", "--phases", "spam", "--workers", "1",
               "--echo-sockets", "4", "--echo-seconds", "1", "--spam-racers", "4",
               "--spam-rate", "2", "--spam-seconds", "1.5", "--spammers", "1",
               "--json", str(rows_file)]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "phase    what" in done.stdout and "vs echo" in done.stdout
    rows = orjson.loads(rows_file.read_bytes())
    assert [(row["phase"], row["clients"]) for row in rows] == [
        ("echo", 4),
        ("spam", 4),
        ("spam", 4),
    ]
    echo, alone, beside_spam = rows
    assert echo["acked"] > 0 and echo["refused"] == 0 and echo["p50"] is not None
    # 4 racers at 2 moves/s for 2 x 1.5 s write 24 commands, each counted in the window
    # of the moment it was written
    assert alone["offered"] + beside_spam["offered"] <= 24
    for row in (alone, beside_spam):
        assert row["offered"] > 0
        assert row["acked"] + row["refused"] + row["unanswered"] == row["offered"]
        assert row["refused"] == 0 and row["dropped"] == 0
        assert row["p50"] <= row["p99"] <= row["worst"]
        assert row["server_rss"] > 0
    assert "spammers: " in done.stdout
