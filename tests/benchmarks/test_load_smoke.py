"""The load benchmark still runs: tiny sizes, real servers, every phase; no timing asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--workers", "1", "--room-size", "2", "--echo-sockets", "4", "--echo-seconds", "1",
        "--spam-racers", "4", "--spam-rate", "2", "--spam-seconds", "1.5", "--spammers", "1",
        "--play-racers", "4", "--play-seconds", "1.5", "--idle-sockets", "20",
        "--idle-seconds", "1.5", "--reader-racers", "2", "--reader-seconds", "1.5",
        "--daily-sockets", "6", "--daily-players", "2", "--daily-seconds", "1.5",
        "--kill-racers", "4", "--kill-seconds", "2"]  # fmt: skip


def test_every_phase_runs_and_prints_the_table(tmp_path: Path) -> None:
    rows_file = tmp_path / "rows.json"
    command = [sys.executable, "-m", "benchmarks.load", *TINY, "--json", str(rows_file)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "phase    what" in done.stdout and "vs echo" in done.stdout
    rows = orjson.loads(rows_file.read_bytes())
    assert [(row["phase"], row["clients"]) for row in rows] == [
        ("echo", 4), ("spam", 4), ("spam", 4), ("play", 4), ("play", 4), ("idle", 4),
        ("reader", 2), ("daily", 2), ("kill -9", 4),
    ]  # fmt: skip
    for row in rows:
        assert row["offered"] > 0, row
        assert row["acked"] + row["refused"] + row["unanswered"] == row["offered"], row
        assert row["p50"] <= row["p99"] <= row["worst"], row
        assert row["server_rss"] > 0, row
        # every command the benchmark writes is legal: nothing is refused, no socket dropped
        assert row["refused"] == 0 and row["dropped"] == 0, row
    alone, beside_spam = rows[1:3]
    # 4 racers at 2 moves/s for 2 x 1.5 s write 24 commands, each counted in the window
    # of the moment it was written
    assert alone["offered"] + beside_spam["offered"] <= 24
    assert "spammers: " in beside_spam["note"]
    assert "idle authenticated sockets" in rows[5]["note"]
    assert "never-reading sockets" in rows[6]["note"]
    assert "frames per socket per second" in rows[7]["note"]
    for row in (rows[3], rows[4], rows[7]):  # play (closed, paced) and the daily
        assert "; garbage collector " in row["note"] and " pauses, " in row["note"], row
    # kill -9 in the middle of play: every acknowledged move is in the records
    assert " LOST 0," in rows[8]["note"] and "sockets resumed 4/4" in rows[8]["note"]
